"""``scripts/workflow.py`` with a mapping of components takes the earlier parallel-RAG skill's
request keys and plain-function shapes, and a HyDE passage never pushes out the real document
that says the same thing. The earlier skill's components object: ``test_parallel_skill_contract``."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import unittest
from pathlib import Path

from agentic_rag._errors import BindingError, BranchFailureError, InvalidInputError
from agentic_rag._parallel import HyDERewriter

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "workflow.py"
_spec = importlib.util.spec_from_file_location("parallel_workflow_script_shapes", SCRIPT)
script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(script)

DOCUMENTS = [
    {"id": "tides", "text": "Ocean tides are caused mainly by the gravitational pull of the Moon."},
    {"id": "moon", "text": "The Moon orbits Earth every 27.3 days and raises two bulges of water."},
    {"id": "sun", "text": "The Sun adds a smaller pull, so spring tides occur when Sun and Moon align."},
    {"id": "leaves", "text": "Photosynthesis converts light energy into chemical energy in leaves."},
]
QUERY = "what causes ocean tides?"


def _ranked(query, top_k, docs=DOCUMENTS):
    words = set(query.lower().replace("?", "").split())
    scored = [{"id": d["id"], "text": d["text"], "score": float(len(words & set(d["text"].lower().rstrip(".").split())))} for d in docs]
    return sorted((r for r in scored if r["score"] > 0), key=lambda r: (-r["score"], r["id"]))[:top_k]


class HyDERegressionTest(unittest.TestCase):
    def test_a_real_document_equal_to_the_hypothetical_passage_stays_first(self):
        passage = DOCUMENTS[0]["text"]  # the scripted HyDE passage says exactly what "tides" says
        out = script.run({"query": QUERY, "documents": DOCUMENTS, "top_k": 3}, {"rewriter": HyDERewriter(lambda q: passage)})
        self.assertEqual(out["documents"][0]["id"], "tides")
        kinds = {v["kind"] for v in out["trace"]["views"]}
        self.assertIn("hypothetical", kinds)

    def test_the_passage_itself_never_becomes_evidence(self):
        passage = "Tides are caused by a giant whale breathing in and out."

        def echo(query, top_k):  # a retriever that hands the query back as a hit
            return [{"id": "echo", "text": query}] + _ranked(query, top_k)

        echo.kind = "vector"
        out = script.run({"query": QUERY, "top_k": 4}, {"retrievers": [_ranked, echo], "rewriter": HyDERewriter(lambda q: passage)})
        self.assertNotIn(passage, [d["text"] for d in out["documents"]])
        self.assertNotIn("whale", out["answer"])


class EarlierSkillShapesTest(unittest.TestCase):
    def test_documents_in_the_request_are_searched_by_bm25_and_vectors(self):
        out = script.run({"query": QUERY, "documents": DOCUMENTS, "top_k": 2})
        self.assertEqual(out["documents"][0]["id"], "tides")
        self.assertEqual(sorted({b["retriever"] for b in out["branches"]}), ["bm25", "vector"])
        self.assertFalse(out["refused"])

    def test_documents_and_retrievers_together_are_refused(self):
        with self.assertRaisesRegex(InvalidInputError, "not both"):
            script.run({"query": QUERY, "documents": DOCUMENTS}, {"retrievers": [_ranked]})

    def test_a_bad_document_is_named(self):
        with self.assertRaisesRegex(InvalidInputError, r"documents\[1\]"):
            script.run({"query": QUERY, "documents": [DOCUMENTS[0], {"id": "x"}]})

    def test_plain_function_rewriter_list_or_queries_mapping(self):
        for rewriter in (lambda q: ["moon gravity", "tides"], lambda q: {"queries": ["moon gravity", "tides"]}):
            out = script.run({"query": QUERY, "documents": DOCUMENTS}, {"rewriter": rewriter})
            views = [v["text"] for v in out["trace"]["views"]]
            self.assertIn("moon gravity", views)
            self.assertIn(QUERY, views)

    def test_a_rewriter_mapping_with_other_keys_degrades_with_a_note(self):
        out = script.run({"query": QUERY, "documents": DOCUMENTS}, {"rewriter": lambda q: {"query": "x"}})
        self.assertTrue(any("unknown keys" in n for n in out["trace"]["notes"]), out["trace"]["notes"])

    def test_plain_function_reranker_reorders(self):
        seen = []

        def leaves_first(query, documents, top_k):
            seen.append((query, [d["id"] for d in documents], top_k))
            return sorted(documents, key=lambda d: (d["id"] != "leaves", d["id"]))[:top_k]

        out = script.run({"query": QUERY + " leaves", "documents": DOCUMENTS, "top_k": 4}, {"reranker": leaves_first})
        self.assertTrue(seen)
        self.assertEqual(out["documents"][0]["id"], "leaves")

    def test_a_generator_function_keeps_its_answer_and_the_verdict_goes_beside_it(self):
        text = "Hans Lippershey applied for the first telescope patent."
        out = script.run({"query": "Who invented the telescope in 1608?", "documents": DOCUMENTS}, {"generator": lambda query, documents: text})
        self.assertEqual(out["answer"], text)
        self.assertEqual((out["status"], out["refused"]), ("unanswerable", False))
        self.assertTrue(any("text is kept" in n for n in out["trace"]["notes"]), out["trace"]["notes"])
        default = script.run({"query": "Who invented the telescope in 1608?", "documents": DOCUMENTS})
        self.assertTrue(default["refused"])  # the built-in extractive generator keeps the abstention

    def test_two_lambdas_get_distinct_names(self):
        out = script.run({"query": QUERY, "top_k": 2}, {"retrievers": [lambda q, k: _ranked(q, k), lambda q, k: _ranked(q, k)[::-1]]})
        self.assertEqual(sorted({b["retriever"] for b in out["branches"]}), ["<lambda>", "<lambda>#2"])

    def test_model_keys_without_a_model_are_noted_in_the_trace(self):
        out = script.run({"query": QUERY, "documents": DOCUMENTS, "max_tokens": 64, "rewrite_temperature": 0.2, "rewrite_max_tokens": 32})
        notes = " ".join(out["trace"]["notes"])
        for key in ("max_tokens=64", "rewrite_temperature=0.2", "rewrite_max_tokens=32"):
            self.assertIn(key, notes)
        self.assertIn({"step": "note", "message": out["trace"]["notes"][-1]}, out["trace"]["events"])

    def test_max_tokens_reaches_a_generator_that_takes_it(self):
        got = []

        def generator(query, documents, max_tokens=None):
            got.append(max_tokens)
            return "answer [1]"

        out = script.run({"query": QUERY, "documents": DOCUMENTS, "max_tokens": 50}, {"generator": generator})
        self.assertEqual(got, [50])
        self.assertFalse(any("max_tokens" in n for n in out["trace"]["notes"]))

    def test_rewrite_settings_reach_a_model_backed_rewriter(self):
        got = []

        class ModelRewriter:
            llm = object()
            name = "model"

            def rewrite(self, request):
                got.append((request.temperature, request.max_tokens))
                return script.RewriteResult(queries=("moon",))

        script.run({"query": QUERY, "documents": DOCUMENTS, "rewrite_temperature": 0.3, "rewrite_max_tokens": 40}, {"rewriter": ModelRewriter()})
        self.assertEqual(got, [(0.3, 40)])

    def test_trace_events_are_step_records_beside_the_trace(self):
        out = script.run({"query": QUERY, "documents": DOCUMENTS, "top_k": 2})
        steps = [e["step"] for e in out["trace"]["events"]]
        self.assertEqual(steps[0], "request")
        self.assertEqual(steps[-2:], ["fuse", "generate"])
        self.assertEqual(steps.count("retrieve"), len(out["branches"]))
        self.assertIn("views", out["trace"])  # today's trace is kept

    def test_the_command_searches_the_request_documents(self):
        request = json.dumps({"query": QUERY, "documents": DOCUMENTS, "top_k": 1})
        done = subprocess.run([sys.executable, str(SCRIPT)], input=request, capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual([d["id"] for d in json.loads(done.stdout)["documents"]], ["tides"])

    def test_unknown_keys_still_get_a_clear_error(self):
        with self.assertRaisesRegex(InvalidInputError, "unknown request keys.*'temperature'.*max_tokens"):
            script.run({"query": QUERY, "documents": DOCUMENTS, "temperature": 0.1})
        with self.assertRaisesRegex(InvalidInputError, "unknown component keys"):
            script.run({"query": QUERY, "documents": DOCUMENTS}, {"retriever": _ranked})

    def test_a_reranker_returning_a_foreign_document_fails_its_branches(self):
        with self.assertRaisesRegex(BranchFailureError, "0 of 2 branches") as caught:
            script.run({"query": QUERY, "documents": DOCUMENTS}, {"reranker": lambda q, d, k: [{"id": "nope"}]})
        self.assertIn("not in its input", caught.exception.outcomes[0].error_message)

    def test_a_reranker_in_the_wrong_slot_is_a_binding_error(self):
        with self.assertRaises((BindingError, InvalidInputError)):
            script.run({"query": QUERY, "documents": DOCUMENTS}, {"reranker": 42})


if __name__ == "__main__":
    unittest.main()
