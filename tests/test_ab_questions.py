"""The docs-QA to A/B-kit question converter in ``bench/agents/ab_questions.py``, on a tiny file."""

from __future__ import annotations

import importlib.util
import json
import shutil
import tempfile
import unittest
from pathlib import Path

MODULE_PATH = Path(__file__).resolve().parents[1] / "bench" / "agents" / "ab_questions.py"
DATA = Path(__file__).resolve().parents[1] / "bench" / "data" / "docs_qa"


def _load_module():
    spec = importlib.util.spec_from_file_location("ab_questions_under_test", MODULE_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _row(qid, project, split, kind, answers):
    return {"id": qid, "project": project, "split": split, "kind": kind,
            "question": f"question {qid}?", "answers": answers,
            "files": ["a.html"] if answers else [], "note": "where"}


ROWS = [
    _row("p-001", "p", "dev", "single", [["42", "forty-two"]]),
    _row("p-002", "p", "report", "single", [["7"]]),
    _row("p-003", "p", "dev", "two_part", [["3.11"], ["tomllib"]]),
    _row("q-001", "q", "dev", "unanswerable", []),
]


class AbQuestionsTest(unittest.TestCase):
    def setUp(self) -> None:
        self.module = _load_module()
        self.tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.tmp)
        self.source = self.tmp / "questions_tiny.jsonl"
        self.source.write_text("".join(json.dumps(row) + "\n" for row in ROWS), encoding="utf-8")

    def test_dev_split_maps_kinds_and_keys_and_drops_the_rest(self) -> None:
        out = self.tmp / "out" / "ab.jsonl"
        code = self.module.main([str(self.source), "--split", "dev", "--out", str(out)])
        self.assertEqual(code, 0)
        records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        self.assertEqual(records, [
            {"id": "p-001", "project": "p", "question": "question p-001?", "kind": "single",
             "keys": [["42", "forty-two"]]},
            {"id": "p-003", "project": "p", "question": "question p-003?", "kind": "multi",
             "keys": [["3.11"], ["tomllib"]]},
            {"id": "q-001", "project": "q", "question": "question q-001?",
             "kind": "unanswerable", "keys": []},
        ])

    def test_projects_filter_keeps_only_the_named_projects(self) -> None:
        records = self.module.convert(ROWS, "dev", ["q"])
        self.assertEqual([record["id"] for record in records], ["q-001"])

    def test_bad_kind_and_bad_split_are_named(self) -> None:
        with self.assertRaisesRegex(ValueError, "'three_part'"):
            self.module.convert([_row("x-1", "x", "dev", "three_part", [["a"]])], "dev")
        with self.assertRaisesRegex(ValueError, "'test'"):
            self.module.convert(ROWS, "test")
        with self.assertRaisesRegex(ValueError, "x-2"):
            self.module.convert([_row("x-2", "x", "dev", "two_part", [["a"]])], "dev")

    def test_no_matching_question_exits_with_status_2_and_writes_nothing(self) -> None:
        out = self.tmp / "none.jsonl"
        code = self.module.main([str(self.source), "--split", "report", "--projects", "q",
                                 "--out", str(out)])
        self.assertEqual(code, 2)
        self.assertFalse(out.exists())

    def test_every_committed_question_file_converts(self) -> None:
        files = sorted(DATA.glob("questions*.jsonl"))
        self.assertIn(DATA / "questions_pyhtml.jsonl", files)
        rows = self.module.read_rows(files)
        for split in ("dev", "report"):
            records = self.module.convert(rows, split)
            self.assertTrue(records)
            self.assertTrue({r["kind"] for r in records} <= {"single", "multi", "unanswerable"})


if __name__ == "__main__":
    unittest.main()
