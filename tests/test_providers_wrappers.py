"""Tests for the duck-typed LangChain and LlamaIndex retriever adapters."""

from __future__ import annotations

import unittest
from dataclasses import dataclass, field
from typing import Any

from agentic_rag._errors import InvalidInputError, RetrievalError
from agentic_rag._ports import Retriever
from agentic_rag.providers import LangChainRetriever, LlamaIndexRetriever


@dataclass
class LCDocument:
    page_content: str
    metadata: dict[str, Any] = field(default_factory=dict)
    id: str | None = None


class LCRetriever:
    def __init__(self, docs: list[LCDocument]) -> None:
        self.docs = docs
        self.queries: list[str] = []

    def invoke(self, query: str) -> list[LCDocument]:
        self.queries.append(query)
        return list(self.docs)


@dataclass
class LINode:
    text: str
    node_id: str
    metadata: dict[str, Any] = field(default_factory=dict)

    def get_content(self) -> str:
        return self.text


@dataclass
class LINodeWithScore:
    node: Any
    score: float | None = None


class LIRetriever:
    def __init__(self, nodes: list[LINodeWithScore]) -> None:
        self.nodes = nodes

    def retrieve(self, query: str) -> list[LINodeWithScore]:
        return list(self.nodes)


class LangChainTest(unittest.TestCase):
    def test_documents_become_snippets_in_retriever_order(self) -> None:
        source = LCRetriever([
            LCDocument("First passage.", {"source": "a.txt", "corpus": "wiki"}, id="doc-a"),
            LCDocument("Second passage.", {"id": "doc-b", "corpus": "news", "obj": object()}),
            LCDocument("Third passage.", {"corpus": "wiki"}),
        ])
        wrapper = LangChainRetriever(source, corpus_key="corpus")
        snippets = wrapper.retrieve("what?", 2)
        self.assertEqual(source.queries, ["what?"])
        self.assertEqual([s.id for s in snippets], ["wiki/doc-a", "news/doc-b"])
        self.assertEqual([s.score for s in snippets], [1.0, 0.5])
        self.assertEqual(snippets[0].metadata["source"], "a.txt")
        self.assertIsInstance(snippets[1].metadata["obj"], str)
        self.assertIsInstance(wrapper, Retriever)
        third = wrapper.retrieve("what?", 3)[2]
        self.assertTrue(third.document_id.startswith("sha256-"))
        self.assertEqual([s.corpus_id for s in wrapper.retrieve("q", 5, corpus_ids=["news"])], ["news"])

    def test_metadata_scores_are_used_when_every_document_has_one(self) -> None:
        source = LCRetriever([LCDocument("low", {"score": 0.2}, id="x"), LCDocument("high", {"relevance_score": 0.9}, id="y")])
        self.assertEqual([s.document_id for s in LangChainRetriever(source).retrieve("q", 2)], ["y", "x"])

    def test_failures_are_retrieval_errors(self) -> None:
        class Broken:
            def invoke(self, query: str) -> Any:
                raise ConnectionError("vector store down")

        with self.assertRaises(RetrievalError) as ctx:
            LangChainRetriever(Broken()).retrieve("q", 1)
        self.assertIn("vector store down", str(ctx.exception))
        with self.assertRaises(RetrievalError):
            LangChainRetriever(LCRetriever([{"page_content": "dict, not a document"}])).retrieve("q", 1)  # type: ignore[list-item]
        with self.assertRaises(InvalidInputError):
            LangChainRetriever(object())
        with self.assertRaises(InvalidInputError):
            LangChainRetriever(LCRetriever([])).retrieve("q", 0)


class LlamaIndexTest(unittest.TestCase):
    def test_scored_nodes_become_snippets_best_first(self) -> None:
        source = LIRetriever([
            LINodeWithScore(LINode("Beta text.", "n2", {"file_name": "b.md"}), 0.4),
            LINodeWithScore(LINode("Alpha text.", "n1"), 0.9),
            LINodeWithScore(LINode("Tie text.", "n0"), 0.4),
        ])
        snippets = LlamaIndexRetriever(source, corpus_id="docs").retrieve("q", 3)
        self.assertEqual([s.id for s in snippets], ["docs/n1", "docs/n0", "docs/n2"])
        self.assertEqual(snippets[0].text, "Alpha text.")
        self.assertEqual(snippets[2].metadata["file_name"], "b.md")

    def test_nodes_without_scores_keep_their_order(self) -> None:
        class TextNode:
            def __init__(self, text: str, id_: str) -> None:
                self.text, self.id_ = text, id_

        source = LIRetriever([LINodeWithScore(TextNode("one", "a")), LINodeWithScore(TextNode("two", "b"), 0.5)])
        snippets = LlamaIndexRetriever(source).retrieve("q", 2)
        self.assertEqual([(s.document_id, s.score) for s in snippets], [("a", 1.0), ("b", 0.5)])

    def test_node_without_text_is_an_error(self) -> None:
        with self.assertRaises(RetrievalError):
            LlamaIndexRetriever(LIRetriever([LINodeWithScore(object(), 1.0)])).retrieve("q", 1)


if __name__ == "__main__":
    unittest.main()
