"""Query-view rewriters: identity, multi-query, decomposition, RM3 feedback and HyDE."""

from __future__ import annotations

import unittest

from agentic_rag.testing.contracts import QueryViewRewriterContract
from agentic_rag._contracts import Snippet
from agentic_rag._errors import BindingError, InvalidInputError
from agentic_rag._parallel import (
    DecompositionRewriter,
    FunctionRetriever,
    HyDERewriter,
    IdentityRewriter,
    MultiQueryRewriter,
    QueryViewRewriter,
    RewriteRequest,
    RewriteResult,
    RM3Rewriter,
)


def rewrite(rewriter, query):
    return rewriter.rewrite(RewriteRequest(query))


def tide_retriever():
    docs = [
        Snippet(id="", corpus_id="c", document_id="d1", text="Tides moon gravity gravity.", score=2.0),
        Snippet(id="", corpus_id="c", document_id="d2", text="Tides ocean gravity.", score=1.0),
    ]
    return FunctionRetriever(lambda q, k: docs[:k], name="bm25")


class TestIdentityRewriter(QueryViewRewriterContract, unittest.TestCase):
    def make_rewriter(self):
        return IdentityRewriter()

    def test_one_view(self):
        self.assertEqual(rewrite(IdentityRewriter(), " tides? "), RewriteResult(queries=("tides?",)))


class TestMultiQueryRewriter(QueryViewRewriterContract, unittest.TestCase):
    def make_rewriter(self):
        return MultiQueryRewriter()

    def test_keyword_and_statement_views(self):
        cases = {
            "What is the capital of France?": ("capital france", "the capital of France is"),
            "Why does ice float on water?": ("ice float water", "ice float on water because"),
            "How do vaccines work?": ("vaccines work", "vaccines work by"),
            "Is coffee bad for you?": ("coffee bad", "coffee bad for you"),
        }
        for query, views in cases.items():
            with self.subTest(query=query):
                result = rewrite(MultiQueryRewriter(), query)
                self.assertEqual(result.queries, views)
                self.assertTrue(result.keep_original)

    def test_views_equal_to_the_original_are_dropped(self):
        self.assertEqual(rewrite(MultiQueryRewriter(), "tides moon").queries, ("tides moon",))

    def test_keep_original_option(self):
        self.assertFalse(rewrite(MultiQueryRewriter(keep_original=False), "What is BM25?").keep_original)
        with self.assertRaises(InvalidInputError):
            MultiQueryRewriter(keep_original="yes")


class TestDecompositionRewriter(QueryViewRewriterContract, unittest.TestCase):
    def make_rewriter(self):
        return DecompositionRewriter()

    def test_comparisons_split_into_one_query_per_side(self):
        cases = {
            "What is the difference between BM25 and dense retrieval?": ["BM25", "dense retrieval"],
            "Compare Python with Rust": ["Python", "Rust"],
            "Which is older, the Eiffel Tower or the Statue of Liberty?": ["the Eiffel Tower older", "the Statue of Liberty older"],
            "Is BM25 faster than dense retrieval?": ["BM25 faster", "dense retrieval faster"],
            "cats vs dogs": ["cats", "dogs"],
        }
        for query, parts in cases.items():
            with self.subTest(query=query):
                self.assertEqual(DecompositionRewriter.decompose(query), parts)

    def test_compound_questions_split_into_clauses(self):
        self.assertEqual(DecompositionRewriter.decompose("Who founded Apple and when did it go public?"), ["Who founded Apple", "when did it go public"])
        self.assertEqual(DecompositionRewriter.decompose("What is RRF? How is it computed?"), ["What is RRF", "How is it computed"])
        self.assertEqual(DecompositionRewriter.decompose("tides; moon phases"), ["tides", "moon phases"])

    def test_simple_question_is_unchanged(self):
        self.assertEqual(rewrite(DecompositionRewriter(), "what causes tides").queries, ("what causes tides",))


class TestRM3Rewriter(QueryViewRewriterContract, unittest.TestCase):
    def make_rewriter(self):
        return RM3Rewriter(tide_retriever())

    def test_expansion_terms_golden(self):
        # P(D): d1 2/3, d2 1/3. Terms: d1 [tide, moon, graviti, graviti], d2 [tide, ocean, graviti].
        # P(graviti|R) = 2/3 * 2/4 + 1/3 * 1/3 = 0.444; P(moon|R) = 2/3 * 1/4 = 0.167;
        # P(ocean|R) = 1/3 * 1/3 = 0.111; "tide" is a query term, so it is not added.
        rewriter = RM3Rewriter(tide_retriever(), feedback_terms=3)
        self.assertEqual(rewriter.expansion_terms("tides"), ["gravity", "moon", "ocean"])
        result = rewrite(RM3Rewriter(tide_retriever(), feedback_terms=2, original_query_weight=None), "tides")
        self.assertEqual(result.queries, ("tides gravity moon",))
        self.assertTrue(result.keep_original)

    def test_no_feedback_keeps_the_query(self):
        empty = FunctionRetriever(lambda q, k: [])
        self.assertEqual(rewrite(RM3Rewriter(empty), "tides").queries, ("tides",))

    def test_binding_and_settings(self):
        with self.assertRaises(BindingError):
            RM3Rewriter(object())
        with self.assertRaises(InvalidInputError):
            RM3Rewriter(tide_retriever(), feedback_docs=0)


class TestHyDERewriter(QueryViewRewriterContract, unittest.TestCase):
    def make_rewriter(self):
        return HyDERewriter(lambda query: f"A passage answering: {query}")

    def test_returns_the_hypothetical_document_as_rewritten_query(self):
        result = rewrite(HyDERewriter(lambda q: "Tides come from the Moon."), "what causes tides?")
        self.assertEqual(result.rewritten_query, "Tides come from the Moon.")
        self.assertEqual(result.queries, ())
        self.assertTrue(HyDERewriter.requires_vector_retriever)

    def test_bad_generator_output_is_refused(self):
        for output in ("", "   ", None, 3):
            with self.subTest(output=output), self.assertRaises(InvalidInputError):
                rewrite(HyDERewriter(lambda q, out=output: out), "tides")
        with self.assertRaises(InvalidInputError):
            HyDERewriter("not callable")


class RewriteContracts(unittest.TestCase):
    def test_rewrite_result_needs_exactly_one_form(self):
        with self.assertRaises(InvalidInputError):
            RewriteResult()
        with self.assertRaises(InvalidInputError):
            RewriteResult(rewritten_query="doc", queries=("q",))
        with self.assertRaises(InvalidInputError):
            RewriteResult(queries="a string")
        self.assertEqual(RewriteResult.from_dict(RewriteResult(queries=("a", "b")).to_dict()), RewriteResult(queries=("a", "b")))

    def test_rewrite_request_validation(self):
        self.assertEqual(RewriteRequest("q", temperature=0, max_tokens=5).temperature, 0.0)
        for kwargs in ({"query": ""}, {"query": "q", "temperature": -1}, {"query": "q", "max_tokens": 0}):
            with self.subTest(kwargs=kwargs), self.assertRaises(InvalidInputError):
                RewriteRequest(**kwargs)


if __name__ == "__main__":
    unittest.main()
