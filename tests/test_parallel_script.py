"""``scripts/workflow.py``: ``run(request, components)`` with plain callables, and the command."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import unittest
from pathlib import Path

from agentic_rag._errors import BindingError, BranchFailureError, InvalidInputError
from agentic_rag._parallel import MultiQueryRewriter

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "workflow.py"
_spec = importlib.util.spec_from_file_location("parallel_workflow_script", SCRIPT)
script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(script)

DOCS = {
    "tides": "Ocean tides are caused by the Moon's gravity.",
    "moon": "The Moon orbits Earth and raises tidal bulges.",
    "leaves": "Leaves use photosynthesis.",
}


def bm25(query, top_k):
    words = set(query.lower().replace("?", "").split())
    scored = [{"id": d, "text": t, "score": float(len(words & set(t.lower().rstrip(".").split())))} for d, t in DOCS.items()]
    return [row for row in scored if row["score"] > 0][:top_k]


def dense(query, top_k):
    return [{"id": "moon", "text": DOCS["moon"]}, {"id": "tides", "text": DOCS["tides"]}][:top_k]


def broken(query, top_k):
    raise RuntimeError("offline")


class RunWithCallables(unittest.TestCase):
    def test_json_in_json_out(self):
        out = script.run(
            {"query": "what are ocean tides?", "top_k": 2, "rank_constant": 60, "weights": {"bm25": 2.0}, "deadline_s": 5.0, "min_branches": 1},
            {"retrievers": [bm25, dense], "generator": lambda query, documents: f"{documents[0].text} [1]"},
        )
        self.assertEqual(json.loads(json.dumps(out)), out)
        self.assertEqual(out["answer"], f"{DOCS['tides']} [1]")
        self.assertEqual([d["id"] for d in out["documents"]], ["tides", "moon"])
        top = out["documents"][0]
        # tides: 2/(60+1) from bm25 + 1/(60+2) from dense
        self.assertAlmostEqual(top["score"], 2 / 61 + 1 / 62, places=15)
        self.assertTrue(0 <= top["normalized_score"] <= 1)
        self.assertEqual([(c["retriever"], c["rank"], c["weight"]) for c in top["contributions"]], [("bm25", 1, 2.0), ("dense", 2, 1.0)])
        self.assertEqual([(b["retriever"], b["query"], b["status"]) for b in out["branches"]], [("bm25", "what are ocean tides?", "ok"), ("dense", "what are ocean tides?", "ok")])
        self.assertTrue(all(isinstance(b["elapsed_s"], float) for b in out["branches"]))
        self.assertFalse(out["degraded"])
        self.assertEqual(out["trace"]["fusion"], "rrf")

    def test_default_generator_named_components_and_degraded_branch(self):
        out = script.run({"query": "what causes ocean tides?"}, {"retrievers": [bm25, dense, broken], "rewriter": "multi_query", "reranker": "lexical"})
        self.assertTrue(out["degraded"])
        self.assertEqual({b["status"] for b in out["branches"] if b["retriever"] == "broken"}, {"error"})
        self.assertIn("[1]", out["answer"])
        self.assertEqual(out["citations"][0]["document_id"], out["documents"][0]["id"])
        self.assertEqual([c for s, c in out["trace"]["components"] if s == "rewriter"], ["multi_query"])

    def test_objects_are_accepted_too(self):
        out = script.run({"query": "ocean tides"}, {"retrievers": [bm25, dense], "rewriter": MultiQueryRewriter()})
        self.assertFalse(out["refused"])

    def test_errors(self):
        with self.assertRaises(BranchFailureError):
            script.run({"query": "q", "min_branches": 2}, {"retrievers": [bm25, broken]})
        with self.assertRaises(BindingError):
            script.run({"query": "q"}, {"retrievers": [bm25]})
        for request, components in (
            ({"query": "q", "colour": "red"}, {"retrievers": [bm25, dense]}),
            ({"top_k": 3}, {"retrievers": [bm25, dense]}),
            ({"query": "q"}, {"retrievers": [bm25, dense], "reranker": "cohere"}),
            ({"query": "q"}, {"retrievers": [bm25, dense], "extras": 1}),
            ({"query": "q"}, {"retrievers": bm25}),
        ):
            with self.subTest(request=request, components=components), self.assertRaises(InvalidInputError):
                script.run(request, components)


class Command(unittest.TestCase):
    def call(self, *args, stdin=""):
        return subprocess.run([sys.executable, str(SCRIPT), *args], input=stdin, capture_output=True, text=True, timeout=60)

    def test_help(self):
        done = self.call("--help")
        self.assertEqual(done.returncode, 0)
        self.assertIn("--docs", done.stdout)

    def test_answers_a_request_over_a_folder(self):
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "tides.txt").write_text("Ocean tides are caused by the Moon's gravity.", encoding="utf-8")
            Path(folder, "leaves.txt").write_text("Leaves use photosynthesis.", encoding="utf-8")
            done = self.call("--docs", folder, "--reranker", "lexical", stdin=json.dumps({"query": "what causes ocean tides?", "top_k": 2}))
        self.assertEqual(done.returncode, 0, done.stderr)
        out = json.loads(done.stdout)
        self.assertEqual(out["documents"][0]["id"], "tides")
        self.assertIn("[1]", out["answer"])

    def test_bad_input_exits_2(self):
        self.assertEqual(self.call(stdin="not json").returncode, 2)
        self.assertEqual(self.call(stdin=json.dumps({"query": "q", "top_k": 0})).returncode, 2)


if __name__ == "__main__":
    unittest.main()
