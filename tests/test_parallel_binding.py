"""Binding rules: slot counts and kinds, distinct retrievers, the HyDE rule, and how query
views are planned onto retrievers."""

from __future__ import annotations

import unittest

from agentic_rag._errors import BindingError, InvalidInputError
from agentic_rag._parallel import (
    ExtractiveGenerator,
    FunctionRetriever,
    HyDERewriter,
    LexicalReranker,
    MultiQueryRewriter,
    ParallelRAGWorkflow,
    RewriteResult,
    ViewKind,
)
from agentic_rag._parallel.binding import bind_retrievers, plan_views
from agentic_rag._retrieval.bm25_retriever import BM25Retriever
from agentic_rag._retrieval.embedders import HashingEmbedder
from agentic_rag._retrieval.index_retriever import IndexRetriever
from agentic_rag._retrieval.vector import VectorIndex


def retriever(name="", kind="lexical"):
    return FunctionRetriever(lambda q, k: [], name=name, kind=kind)


class NamelessRetriever:
    def retrieve(self, query, k, *, corpus_ids=None):
        return ()


def bind(retrievers, **kwargs):
    kwargs.setdefault("generator", ExtractiveGenerator())
    return ParallelRAGWorkflow(retrievers, **kwargs)


class Slots(unittest.TestCase):
    def assertRefused(self, slot, **kwargs):
        retrievers = kwargs.pop("retrievers", [retriever("a"), retriever("b")])
        with self.assertRaises(BindingError) as caught:
            bind(retrievers, **kwargs)
        self.assertIn(f"slot '{slot}'", str(caught.exception))
        return str(caught.exception)

    def test_two_to_four_retrievers(self):
        self.assertIn("2 to 4", self.assertRefused("retrievers", retrievers=[retriever("a")]))
        self.assertRefused("retrievers", retrievers=[retriever(str(i)) for i in range(5)])
        self.assertRefused("retrievers", retrievers=retriever("a"))
        self.assertEqual(bind([retriever(str(i)) for i in range(4)]).retriever_names, ("0", "1", "2", "3"))

    def test_retrievers_must_be_distinct_objects_with_distinct_names(self):
        same = retriever("a")
        self.assertIn("same object twice", self.assertRefused("retrievers", retrievers=[same, same]))
        self.assertIn("'a'", self.assertRefused("retrievers", retrievers=[retriever("a"), retriever("a")]))

    def test_unnamed_retrievers_get_class_name_and_position(self):
        self.assertEqual(bind([NamelessRetriever(), NamelessRetriever()]).retriever_names, ("NamelessRetriever-1", "NamelessRetriever-2"))
        self.assertEqual(bind([retriever(), retriever()]).retriever_names, ("FunctionRetriever-1", "FunctionRetriever-2"))

    def test_objects_without_the_slot_method_are_refused(self):
        message = self.assertRefused("retrievers", retrievers=[retriever("a"), lambda q, k: []])
        self.assertIn("FunctionRetriever(fn)", message)
        self.assertRefused("rewriter", rewriter=LexicalReranker())
        self.assertRefused("reranker", reranker=MultiQueryRewriter())
        self.assertIn("FunctionGenerator(fn)", self.assertRefused("generator", generator=lambda q, d: ""))

    def test_generator_is_required_and_single(self):
        self.assertIn("exactly one", self.assertRefused("generator", generator=None))
        self.assertRefused("generator", generator=[ExtractiveGenerator(), ExtractiveGenerator()])
        self.assertRefused("rewriter", rewriter=[MultiQueryRewriter()])

    def test_options_are_validated(self):
        for kwargs in ({"max_workers": 0}, {"fusion": "borda"}, {"dedup_key": "text"}):
            with self.subTest(kwargs=kwargs), self.assertRaises(InvalidInputError):
                bind([retriever("a"), retriever("b")], **kwargs)


class HyDERule(unittest.TestCase):
    def test_refused_without_a_vector_retriever(self):
        with self.assertRaises(BindingError) as caught:
            bind([retriever("a"), retriever("b")], rewriter=HyDERewriter(lambda q: "doc"))
        self.assertIn("slot 'rewriter'", str(caught.exception))
        self.assertIn("vector retriever", str(caught.exception))

    def test_accepted_with_a_declared_or_index_backed_vector_retriever(self):
        bind([retriever("a"), retriever("v", kind="vector")], rewriter=HyDERewriter(lambda q: "doc"))
        vectors = IndexRetriever(VectorIndex(HashingEmbedder(dimensions=64)), name="vectors")
        bind([BM25Retriever.from_documents([]), vectors], rewriter=HyDERewriter(lambda q: "doc"))


class ViewPlanning(unittest.TestCase):
    def setUp(self):
        self.bound = bind_retrievers([retriever("lex"), retriever("vec", kind="vector"), retriever("lex2")])

    def plan(self, result):
        return [(view.text, view.kind, positions) for view, positions in plan_views("Q?", result, self.bound)]

    def test_no_rewriter_one_view_for_everyone(self):
        self.assertEqual(self.plan(None), [("Q?", ViewKind.ORIGINAL, (0, 1, 2))])

    def test_queries_go_to_every_retriever_original_first_and_once(self):
        self.assertEqual(
            self.plan(RewriteResult(queries=("a", "q?", "b", "A"))),
            [("Q?", ViewKind.ORIGINAL, (0, 1, 2)), ("a", ViewKind.REWRITTEN, (0, 1, 2)), ("b", ViewKind.REWRITTEN, (0, 1, 2))],
        )
        self.assertEqual(self.plan(RewriteResult(queries=("a",), keep_original=False)), [("a", ViewKind.REWRITTEN, (0, 1, 2))])

    def test_hypothetical_goes_to_vector_retrievers_only(self):
        self.assertEqual(self.plan(RewriteResult(rewritten_query="H")), [("Q?", ViewKind.ORIGINAL, (0, 1, 2)), ("H", ViewKind.HYPOTHETICAL, (1,))])
        self.assertEqual(
            self.plan(RewriteResult(rewritten_query="H", keep_original=False)),
            [("Q?", ViewKind.ORIGINAL, (0, 2)), ("H", ViewKind.HYPOTHETICAL, (1,))],
        )


if __name__ == "__main__":
    unittest.main()
