"""The Retriever contract applied to every retriever the parallel workflow binds, and the
``FunctionRetriever`` adapter's own behaviour."""

from __future__ import annotations

import unittest

from agentic_rag.testing.contracts import RetrieverContract

from agentic_rag._contracts import Snippet
from agentic_rag._errors import InvalidInputError, RetrievalError
from agentic_rag._parallel import FunctionRetriever, RetrieverKind, is_vector_retriever
from agentic_rag._ports import Retriever
from agentic_rag._retrieval.bm25_retriever import BM25Retriever
from agentic_rag._retrieval.embedders import HashingEmbedder
from agentic_rag._retrieval.index_retriever import IndexRetriever
from agentic_rag._retrieval.vector import VectorIndex
from agentic_rag._text import Analyzer


def overlap_function(documents):
    """A search function over ``documents``: score = distinct analysed query terms matched,
    returned as plain dicts in arbitrary (reverse id) order."""
    analyzer = Analyzer()
    analysed = [(d, set(analyzer.analyze(d.text))) for d in documents]

    def search(query, k):
        wanted = set(analyzer.analyze(query))
        rows = [{"id": d.id, "text": d.text, "score": float(len(wanted & terms)), "corpus_id": d.corpus_id} for d, terms in analysed if wanted & terms]
        return sorted(rows, key=lambda r: r["id"], reverse=True)

    return search


class TestFunctionRetrieverContract(RetrieverContract, unittest.TestCase):
    def make_retriever(self, documents):
        return FunctionRetriever(overlap_function(documents), name="overlap")


class TestBM25RetrieverContract(RetrieverContract, unittest.TestCase):
    def make_retriever(self, documents):
        return BM25Retriever.from_documents(documents)


class TestHashedVectorRetrieverContract(RetrieverContract, unittest.TestCase):
    def make_retriever(self, documents):
        index = VectorIndex(HashingEmbedder(dimensions=2**16))
        index.add(documents)
        return IndexRetriever(index, name="vector")


class FunctionRetrieverBehaviour(unittest.TestCase):
    def test_is_a_retriever_named_after_its_function(self):
        def bm25(query, k):
            return []

        retriever = FunctionRetriever(bm25)
        self.assertIsInstance(retriever, Retriever)
        self.assertEqual(retriever.name, "bm25")
        self.assertEqual(FunctionRetriever(lambda q, k: []).name, "")

    def test_hits_without_scores_keep_the_function_order(self):
        retriever = FunctionRetriever(lambda q, k: [{"id": "z", "text": "first"}, {"id": "a", "text": "second"}])
        hits = retriever.retrieve("q", 5)
        self.assertEqual([h.document_id for h in hits], ["z", "a"])
        self.assertEqual([h.score for h in hits], [1.0, 0.5])

    def test_mapping_fields_become_snippet_fields(self):
        retriever = FunctionRetriever(lambda q, k: [{"id": "d", "text": "t", "score": 2, "title": "T", "corpus_id": "c", "lang": "en"}])
        (hit,) = retriever.retrieve("q", 1)
        self.assertEqual((hit.id, hit.corpus_id, hit.document_id, hit.score, hit.title, hit.metadata["lang"]), ("c/d", "c", "d", 2.0, "T", "en"))

    def test_snippets_pass_through(self):
        snippet = Snippet(id="", corpus_id="c", document_id="d", text="t", score=1.0)
        self.assertEqual(FunctionRetriever(lambda q, k: [snippet]).retrieve("q", 1), (snippet,))

    def test_bad_function_output_raises_retrieval_error(self):
        for output in (None, "text", {"id": "x"}, [42], [{"id": "", "text": "t"}], [{"id": "x"}], [{"id": "x", "text": "t", "score": "high"}]):
            with self.subTest(output=output), self.assertRaises(RetrievalError):
                FunctionRetriever(lambda q, k, out=output: out).retrieve("q", 3)

    def test_bad_arguments_are_refused(self):
        with self.assertRaises(InvalidInputError):
            FunctionRetriever("not callable")
        with self.assertRaises(InvalidInputError):
            FunctionRetriever(lambda q, k: [], kind="graph")
        with self.assertRaises(InvalidInputError):
            FunctionRetriever(lambda q, k: []).retrieve("q", 2, corpus_ids="c")

    def test_vector_detection(self):
        self.assertTrue(is_vector_retriever(FunctionRetriever(lambda q, k: [], kind=RetrieverKind.VECTOR)))
        self.assertFalse(is_vector_retriever(FunctionRetriever(lambda q, k: [], kind="lexical")))
        self.assertTrue(is_vector_retriever(IndexRetriever(VectorIndex(HashingEmbedder(dimensions=64)))))
        self.assertFalse(is_vector_retriever(BM25Retriever.from_documents([])))


if __name__ == "__main__":
    unittest.main()
