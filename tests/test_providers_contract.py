"""The shared Retriever contract applied to every provider retriever, over loopback servers
and duck-typed stand-ins for LangChain and LlamaIndex."""

from __future__ import annotations

import unittest
from dataclasses import dataclass, field
from typing import Any

from agentic_rag.testing.contracts import RetrieverContract

from agentic_rag._parallel import is_vector_retriever
from agentic_rag.providers import ElasticsearchRetriever, LangChainRetriever, LlamaIndexRetriever, VertexRagRetriever
from agentic_rag.testing import ElasticsearchServer, VertexRagServer, hashed_embedding
from agentic_rag.testing.loopback import tokens

PREFIX = "projects/p/locations/us-central1/ragCorpora/"


class HashedEmbedder:
    def embed(self, texts):
        return [hashed_embedding(t, 64) for t in texts]


def overlap(query: str, text: str) -> float:
    return float(len(set(tokens(query)) & set(tokens(text))))


class ServerContract(RetrieverContract):
    """Starts the server for each retriever and stops it when the test ends."""

    def serve(self, server):
        server.start()
        self.addCleanup(server.stop)
        return server


class TestElasticsearchMatchContract(ServerContract, unittest.TestCase):
    def make_retriever(self, documents):
        server = self.serve(ElasticsearchServer())
        retriever = ElasticsearchRetriever(server.root, "docs", corpus_field="corpus")
        self.assertTrue(retriever.bulk_index(documents).ok)
        self.assertFalse(is_vector_retriever(retriever))
        return retriever


class TestOpenSearchKnnContract(ServerContract, unittest.TestCase):
    def make_retriever(self, documents):
        server = self.serve(ElasticsearchServer(opensearch=True))
        retriever = ElasticsearchRetriever(server.root, "docs", mode="knn", embedder=HashedEmbedder(), corpus_field="corpus", opensearch=True)
        self.assertTrue(retriever.bulk_index(documents).ok)
        self.assertTrue(is_vector_retriever(retriever))
        return retriever


class TestVertexRagContract(ServerContract, unittest.TestCase):
    def make_retriever(self, documents):
        corpora: dict[str, list[tuple[str, str]]] = {}
        for doc in documents:
            corpora.setdefault(PREFIX + doc.corpus_id, []).append((doc.id, doc.text))
        server = self.serve(VertexRagServer(corpora, token="t"))
        retriever = VertexRagRetriever("p", "us-central1", sorted(corpora), token_provider=lambda: "t", base_url=server.root)
        self.assertTrue(is_vector_retriever(retriever))
        return retriever


@dataclass
class LCDocument:
    page_content: str
    metadata: dict[str, Any] = field(default_factory=dict)
    id: str | None = None


class OverlapLangChain:
    def __init__(self, documents) -> None:
        self.documents = documents

    def invoke(self, query: str) -> list[LCDocument]:
        found = [(overlap(query, d.text), d) for d in self.documents if overlap(query, d.text)]
        return [LCDocument(d.text, {"corpus": d.corpus_id, "score": s}, id=d.id) for s, d in sorted(found, key=lambda p: -p[0])]


class TestLangChainContract(RetrieverContract, unittest.TestCase):
    def make_retriever(self, documents):
        return LangChainRetriever(OverlapLangChain(documents), corpus_key="corpus", kind="lexical")


@dataclass
class LINode:
    text: str
    node_id: str
    metadata: dict[str, Any]


@dataclass
class LINodeWithScore:
    node: LINode
    score: float


class OverlapLlamaIndex:
    def __init__(self, documents) -> None:
        self.documents = documents

    def retrieve(self, query: str) -> list[LINodeWithScore]:
        return [LINodeWithScore(LINode(d.text, d.id, {"corpus": d.corpus_id}), overlap(query, d.text)) for d in self.documents if overlap(query, d.text)]


class TestLlamaIndexContract(RetrieverContract, unittest.TestCase):
    def make_retriever(self, documents):
        return LlamaIndexRetriever(OverlapLlamaIndex(documents), corpus_key="corpus")


if __name__ == "__main__":
    unittest.main()
