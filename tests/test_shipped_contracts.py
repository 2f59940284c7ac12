"""The shipped contract suites (agentic_rag.testing.contracts) run against every built-in
implementation of the ports that have no suite elsewhere in these tests: generators,
embedders, LLM clients, store retrievers and the model-backed query-view rewriter."""

from __future__ import annotations

import json
import unittest
from pathlib import Path

from llm_scripts import GARBAGE

from agentic_rag import ExtractiveGenerator, HashingEmbedder, KnowledgeStore
from agentic_rag.components import CallableEmbedder
from agentic_rag.llm import AnthropicLLM, OllamaEmbedder, OpenAICompatibleLLM, OpenAIEmbedder, ScriptedLLM
from agentic_rag.llm.components import LLMGenerator, LLMQueryViewRewriter
from agentic_rag.testing import AnthropicServer, OllamaServer, OpenAICompatibleServer
from agentic_rag.testing.contracts import (
    EmbedderContract,
    GeneratorContract,
    LLMContract,
    QueryViewRewriterContract,
    StoreRetrieverContract,
)


def _serve(test: unittest.TestCase, server):
    """Start ``server`` for the length of one test."""
    server.__enter__()
    test.addCleanup(server.__exit__, None, None, None)
    return server


class ExtractiveGeneratorContractTest(GeneratorContract, unittest.TestCase):
    def make_generator(self):
        return ExtractiveGenerator()


def _cited_answer(passage_number: int, quote: str) -> str:
    claim = {"text": quote, "citations": [{"snippet": passage_number, "quote": quote}]}
    return json.dumps({"answer": "", "claims": [claim], "status": "answered", "missing_fact_ids": []})


class LLMGeneratorContractTest(GeneratorContract, unittest.TestCase):
    def make_generator(self):
        reply = _cited_answer(1, "Ocean tides are caused mainly by the gravity of the Moon.")
        return LLMGenerator(ScriptedLLM([reply], repeat_last=True))


class GarbageLLMGeneratorContractTest(GeneratorContract, unittest.TestCase):
    def make_generator(self):
        return LLMGenerator(ScriptedLLM([GARBAGE], repeat_last=True))


class LLMQueryViewRewriterContractTest(QueryViewRewriterContract, unittest.TestCase):
    def make_rewriter(self):
        reply = json.dumps({"queries": ["ocean tides cause", "Moon gravity tides"]})
        return LLMQueryViewRewriter(ScriptedLLM([reply], repeat_last=True))


class GarbageLLMQueryViewRewriterContractTest(QueryViewRewriterContract, unittest.TestCase):
    def make_rewriter(self):
        return LLMQueryViewRewriter(ScriptedLLM([GARBAGE], repeat_last=True))


class HashingEmbedderContractTest(EmbedderContract, unittest.TestCase):
    def make_embedder(self):
        return HashingEmbedder(dimensions=256)


class CallableEmbedderContractTest(EmbedderContract, unittest.TestCase):
    def make_embedder(self):
        return CallableEmbedder(lambda texts: [[float(len(t)), float(t.count(" ")), 1.0] for t in texts])


class OpenAIEmbedderContractTest(EmbedderContract, unittest.TestCase):
    def make_embedder(self):
        server = _serve(self, OpenAICompatibleServer(["unused"]))
        return OpenAIEmbedder(server.url, "emb-model", batch_size=2)


class OllamaEmbedderContractTest(EmbedderContract, unittest.TestCase):
    def make_embedder(self):
        server = _serve(self, OllamaServer())
        return OllamaEmbedder(server.url, "emb-model")


class ScriptedLLMContractTest(LLMContract, unittest.TestCase):
    def make_llm(self, replies):
        return ScriptedLLM(list(replies))


class OpenAICompatibleLLMContractTest(LLMContract, unittest.TestCase):
    def make_llm(self, replies):
        server = _serve(self, OpenAICompatibleServer(list(replies)))
        return OpenAICompatibleLLM(server.url, "test-model")


class AnthropicLLMContractTest(LLMContract, unittest.TestCase):
    def make_llm(self, replies):
        server = _serve(self, AnthropicServer(list(replies), api_key="k-test"))
        return AnthropicLLM(server.url, "claude-test", "k-test")


class _StoreRetrieverTest(StoreRetrieverContract):
    vector = False

    def make_store_retriever(self, folder: Path):
        self.store = KnowledgeStore(folder.parent / "store", base=folder.parent, vector=self.vector)
        self.store.index(folder)
        return self.store.retriever(vector=self.vector)

    def reindex(self, folder: Path) -> None:
        self.store.index(folder)


class StoreBM25RetrieverContractTest(_StoreRetrieverTest, unittest.TestCase):
    vector = False


class StoreVectorRetrieverContractTest(_StoreRetrieverTest, unittest.TestCase):
    vector = True


if __name__ == "__main__":
    unittest.main()
