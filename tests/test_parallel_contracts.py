"""Validation and JSON round trips of the parallel workflow's contracts."""

from __future__ import annotations

import json
import unittest

from agentic_rag._contracts import Snippet
from agentic_rag._errors import InvalidInputError
from agentic_rag._parallel import (
    AnswerCitation,
    BranchOutcome,
    BranchStatus,
    Contribution,
    FusedDocument,
    GeneratedAnswer,
    ParallelTrace,
    QueryView,
    RAGRequest,
    RAGResult,
    ViewKind,
)


def round_trip(contract):
    return type(contract).from_dict(json.loads(json.dumps(contract.to_dict())))


class RAGRequestContract(unittest.TestCase):
    def test_defaults_and_hits_per_branch(self):
        request = RAGRequest("q")
        self.assertEqual((request.top_k, request.rank_constant, request.min_branches, request.deadline_s), (5, 60, 1, None))
        self.assertEqual(request.hits_per_branch, 10)
        self.assertEqual(RAGRequest("q", top_k=30).hits_per_branch, 30)
        self.assertEqual(RAGRequest("q", rank_window=50).hits_per_branch, 50)
        self.assertEqual(RAGRequest("q", branch_k=3).hits_per_branch, 3)

    def test_bad_fields_are_refused(self):
        for kwargs in (
            {"query": " "},
            {"query": "q", "top_k": 0},
            {"query": "q", "rank_constant": -1},
            {"query": "q", "weights": {"a": -1.0}},
            {"query": "q", "weights": {"a": "heavy"}},
            {"query": "q", "weights": [1.0]},
            {"query": "q", "rank_window": 0},
            {"query": "q", "deadline_s": 0},
            {"query": "q", "deadline_s": float("inf")},
            {"query": "q", "min_branches": 0},
            {"query": "q", "corpus_ids": "abc"},
        ):
            with self.subTest(kwargs=kwargs), self.assertRaises(InvalidInputError):
                RAGRequest(**kwargs)

    def test_round_trip(self):
        request = RAGRequest("q", top_k=3, weights={"vec": 2, "bm25": 1}, rank_window=20, deadline_s=1, min_branches=2, corpus_ids=("a",))
        self.assertEqual(round_trip(request), request)
        self.assertEqual(list(request.weights), ["bm25", "vec"])
        self.assertEqual(request.deadline_s, 1.0)


class ResultContracts(unittest.TestCase):
    def test_outcome_validation(self):
        outcome = BranchOutcome("bm25/q1", "bm25", "q", "original", "timeout", 0.5)
        self.assertEqual((outcome.status, outcome.view_kind, outcome.ok), (BranchStatus.TIMEOUT, ViewKind.ORIGINAL, False))
        for kwargs in ({"status": "lost"}, {"elapsed_s": -1.0}, {"hit_count": -1}):
            fields = {"branch": "b", "retriever": "r", "query": "q", "view_kind": "original", "status": "ok", "elapsed_s": 0.1, **kwargs}
            with self.subTest(kwargs=kwargs), self.assertRaises(InvalidInputError):
                BranchOutcome(**fields)

    def test_fused_document_and_citation_validation(self):
        with self.assertRaises(InvalidInputError):
            FusedDocument("d", "c", 0.5, 1.5, 1, ())
        with self.assertRaises(InvalidInputError):
            Contribution("b", 0, 0, 1.0, 0.1)
        with self.assertRaises(InvalidInputError):
            AnswerCitation(0, "d", "quote")
        self.assertEqual(AnswerCitation(1, "d", "quote", 4).end, 9)

    def test_whole_result_round_trips(self):
        snippet = Snippet(id="", corpus_id="c", document_id="d", text="Tides follow the Moon.", score=1.0)
        document = FusedDocument("d", "c", 1 / 61, 1.0, 1, (Contribution("bm25/q1", 0, 1, 1.0, 1 / 61, 1.0, "bm25", "q"),), snippet)
        answer = GeneratedAnswer("Tides follow the Moon [1].", (AnswerCitation(1, "d", "Tides follow the Moon.", 0),))
        trace = ParallelTrace((QueryView("q"),), (("retriever", "bm25"), ("generator", "extractive")), "rrf", 60, None, notes=("n",))
        result = RAGResult("q", answer, (document,), (BranchOutcome("bm25/q1", "bm25", "q", "original", "ok", 0.01, 1),), False, trace)
        self.assertEqual(round_trip(result), result)
        self.assertIn("bm25/q1 (rank 1, weight 1", result.explain())
        self.assertEqual(document.text, "Tides follow the Moon.")
        self.assertEqual(document.best_rank, 1)


if __name__ == "__main__":
    unittest.main()
