"""The pure pieces of the agent-cost benchmark (``bench/agents/bench_agent_cost.py``): bytes read up to
the answer key, the grep policy's words and their order, ROC AUC with ties, and the medians.

The benchmark ships with the repository, not the package: without ``bench/`` these tests skip.
"""

from __future__ import annotations

import importlib
import math
import shutil
import sys
import tempfile
import unittest
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench" / "agents"


def _load(name: str) -> Any:
    path = BENCH / f"{name}.py"
    if not path.exists():
        raise unittest.SkipTest(f"bench/agents/{name}.py is absent (benchmarks ship with the repository, not the package)")
    # The benchmark's modules import each other through the bench package, from the repository root.
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module(f"bench.agents.{name}")


class BytesToKey(unittest.TestCase):
    """UTF-8 bytes read up to the end of the last part's first appearance."""

    def setUp(self) -> None:
        self.m = _load("agent_cost_measures")

    def test_one_part(self) -> None:
        self.assertEqual(self.m.bytes_to_key("abc DEFAULT 100 xyz", [["default 100"]]), 15)

    def test_case_and_white_space_folded(self) -> None:
        # "max\n   connections" reads as "max connections": 3 + 4 (newline and spaces) + 11.
        self.assertEqual(self.m.bytes_to_key("MAX\n   Connections!", [["max connections"]]), 18)

    def test_the_earliest_alternative_counts(self) -> None:
        self.assertEqual(self.m.bytes_to_key("xx beta alpha", [["alpha", "beta"]]), 7)

    def test_every_part_must_appear(self) -> None:
        stream = "first: 20.1.0 then later: FrozenInstanceError"
        self.assertEqual(self.m.bytes_to_key(stream, [["20.1.0"], ["FrozenInstanceError"]]), len(stream))
        self.assertIsNone(self.m.bytes_to_key(stream, [["20.1.0"], ["absent"]]))
        self.assertIsNone(self.m.bytes_to_key(stream, []))

    def test_bytes_are_utf8(self) -> None:
        # "é" and "→" are 2 and 3 bytes: "é → key" ends at 2 + 1 + 3 + 1 + 3 bytes.
        self.assertEqual(self.m.bytes_to_key("é → key and more", [["KEY"]]), 10)

    def test_case_folding_that_lengthens(self) -> None:
        # "ß" folds to "ss" but is 2 bytes in the stream: "straße" is 7 bytes.
        self.assertEqual(self.m.bytes_to_key("Straße!", [["strasse"]]), 7)


class GrepWords(unittest.TestCase):
    """The grep policy's content words and their rarest-first order."""

    def setUp(self) -> None:
        self.m = _load("agent_cost_measures")

    def test_content_words(self) -> None:
        question = "Which HTTP/3 option does attr.ib use, and what is the max_connections default? The http/3 one."
        self.assertEqual(self.m.content_words(question), ["HTTP/3", "option", "attr.ib", "max_connections", "default"])

    def test_short_and_stop_words_dropped(self) -> None:
        self.assertEqual(self.m.content_words("How do I set it up with the API?"), ["set", "API"])

    def test_rarest_first_ties_by_word_and_absent_words_dropped(self) -> None:
        counts = {"beta": 2, "Alpha": 2, "gamma": 1, "delta": 0}
        self.assertEqual(self.m.rarest_first(["beta", "delta", "Alpha", "gamma", "omega"], counts), ["gamma", "Alpha", "beta"])


class RocAuc(unittest.TestCase):
    """ROC AUC as the share of (positive, negative) pairs ordered right, ties counting half."""

    def setUp(self) -> None:
        self.m = _load("agent_cost_measures")

    def test_ties_count_half(self) -> None:
        # Pairs: 0.9 beats 0.8, 0.5, 0.2 (3); 0.5 ties 0.5 (0.5) and beats 0.2 (1): 4.5 of 6.
        self.assertAlmostEqual(self.m.roc_auc([0.9, 0.5], [0.8, 0.5, 0.2]), 4.5 / 6)

    def test_perfect_reversed_and_all_tied(self) -> None:
        self.assertEqual(self.m.roc_auc([0.9, 0.8], [0.1]), 1.0)
        self.assertEqual(self.m.roc_auc([0.1], [0.9, 0.8]), 0.0)
        self.assertEqual(self.m.roc_auc([0.5, 0.5], [0.5]), 0.5)

    def test_needs_both_kinds(self) -> None:
        self.assertIsNone(self.m.roc_auc([], [0.3]))
        self.assertIsNone(self.m.roc_auc([0.3], []))


class Summaries(unittest.TestCase):
    """Keys never seen within 32 KB count above every figure."""

    def setUp(self) -> None:
        self.m = _load("agent_cost_measures")

    def test_median_with_keys_never_seen(self) -> None:
        self.assertEqual(self.m.median_bytes([100, 300, None]), 300)
        self.assertTrue(math.isinf(self.m.median_bytes([100, None, 40_000])))
        self.assertEqual(self.m.show_bytes(self.m.median_bytes([100, None, None, 50])), "32 KB+")
        self.assertEqual(self.m.show_bytes(2048.0), "2.0 KB")
        self.assertEqual(self.m.show_bytes(40_960.0), "32 KB+")
        self.assertEqual(self.m.show_bytes(40_960.0, capped=False), "40.0 KB")

    def test_recall_within(self) -> None:
        self.assertEqual(self.m.recall_within([500, 1024, 1025, None], 1024), 0.5)


class GrepPolicy(unittest.TestCase):
    """The grep policy on a small folder, with the real grep."""

    def test_rarest_word_first_and_stops_at_the_key(self) -> None:
        if shutil.which("grep") is None:
            self.skipTest("grep is not on PATH")
        bench = _load("bench_agent_cost")
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            (folder / "a.md").write_text("session cookie\nthe pool timeout\n", encoding="utf-8")
            (folder / "b.md").write_text("pool size\n\nmax_pool defaults to 17\n", encoding="utf-8")
            grep = bench.GrepFolder(folder)
            # "max_pool" is in one file, "pool" in two, "nothing" in none: max_pool is read first.
            found, read, calls = grep.policy("What does max_pool pool nothing mean?", [["17"]])
            first = "./b.md-1-pool size\n./b.md-2-\n./b.md:3:max_pool defaults to 17\n"
            self.assertEqual(calls[0], len(first.encode("utf-8")))
            self.assertEqual(found, len(first) - 1)
            self.assertEqual(len(calls), 1)
            self.assertEqual(read, calls[0])


class FocusDiagnosis(unittest.TestCase):
    """Where an answer is lost: in the chunks, in the printed lines, in the top hit."""

    def setUp(self) -> None:
        self.d = _load("focus_diagnosis")

    def test_counts_each_of_the_three_places(self):
        diagnosis = self.d.Diagnosis()
        question = {"id": "q1", "answers": [["secure_filename"]]}
        hits = [{"text": "f.save(path)"}, {"text": "use the secure_filename function"}]
        self.d.count(question, "1. a.rst:3-3\n   3: f.save(path)", hits, diagnosis)
        self.assertEqual((diagnosis.questions, diagnosis.in_chunks, diagnosis.in_printed, diagnosis.in_top), (1, 1, 0, 0))
        self.assertEqual(diagnosis.lost, ["q1"])
        self.d.count({"id": "q2", "answers": [["300"], ["seconds"]]}, "300 seconds", [{"text": "300 seconds"}], diagnosis)
        self.assertEqual((diagnosis.questions, diagnosis.in_chunks, diagnosis.in_printed, diagnosis.in_top), (2, 2, 1, 1))

    def test_every_part_must_be_there(self):
        diagnosis = self.d.Diagnosis()
        self.d.count({"id": "q", "answers": [["alpha"], ["beta"]]}, "alpha", [{"text": "alpha"}], diagnosis)
        self.assertEqual((diagnosis.in_chunks, diagnosis.in_printed, diagnosis.in_top), (0, 0, 0))

    def test_the_table_pools_several_sets(self):
        one, two = self.d.Diagnosis(2, 2, 1, 1, 1, [100, 300]), self.d.Diagnosis(2, 1, 1, 0, 0, [500])
        text = self.d.table({"a": one, "b": two})
        self.assertIn("| a | 2 | 2 (100 %) | 1 (50 %) | 50 % | 1 (50 %) | 1 (50 %) | 200 |", text)
        self.assertIn("| all | 4 | 3 (75 %) | 2 (50 %) | 67 % | 1 (25 %) | 1 (25 %) | 300 |", text)

    def test_the_top_hits_printed_lines_end_at_the_second_hit(self):
        diagnosis = self.d.Diagnosis()
        printed = "1. a.rst:3-3  relevance 0.80\n   3: the timeout\n2. b.rst:9-9  relevance 0.70\n   9: 30 seconds"
        self.d.count({"id": "q", "answers": [["30 seconds"]]}, printed, [{"text": "30 seconds"}], diagnosis)
        self.assertEqual((diagnosis.in_printed, diagnosis.in_top, diagnosis.in_top_printed), (1, 1, 0))
        self.d.count({"id": "r", "answers": [["timeout"]]}, printed, [{"text": "the timeout"}], diagnosis)
        self.assertEqual(diagnosis.in_top_printed, 1)

    def test_bytes_are_recorded_for_every_question(self):
        diagnosis = self.d.Diagnosis()
        outputs = {"search": "1. a.rst:1-1\n   1: caf\u00e9\n"}
        hits = '[{"text": "caf\u00e9"}]'
        run = lambda argv: hits if "--json" in argv else outputs["search"]  # noqa: E731
        self.d.diagnose_question(run, {"id": "u", "kind": "unanswerable", "question": "q", "answers": []}, diagnosis)
        self.d.diagnose_question(run, {"id": "a", "kind": "single", "question": "q", "answers": [["caf\u00e9"]]}, diagnosis)
        self.assertEqual(diagnosis.printed_bytes, [len(outputs["search"].encode("utf-8"))] * 2)
        self.assertEqual((diagnosis.questions, diagnosis.in_top_printed), (1, 1))


if __name__ == "__main__":
    unittest.main()
