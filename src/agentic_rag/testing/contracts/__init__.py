"""Contract suites, one per port: run them against your own implementations.

Each suite is a mixin of ``test_*`` methods plus one abstract factory. Combine it with
``unittest.TestCase`` (pytest runs these too) and return your implementation from the
factory::

    import unittest
    from agentic_rag.testing.contracts import RetrieverContract

    class TestMyRetriever(RetrieverContract, unittest.TestCase):
        def make_retriever(self, documents):
            return MyRetriever(documents)

Every built-in implementation runs the same suites in this project's own tests.

Suites and their factories:
    RetrieverContract.make_retriever(documents), StoreRetrieverContract.make_store_retriever(folder)
    and .reindex(folder), RerankerContract.make_reranker(), QueryViewRewriterContract.make_rewriter(),
    GeneratorContract.make_generator(), EmbedderContract.make_embedder(), LLMContract.make_llm(replies),
    PlannerContract.make_planner(), QueryRewriterContract.make_rewriter(), DrafterContract.make_drafter(),
    SufficiencyJudgeContract.make_judge(), SynthesizerContract.make_synthesizer(),
    ClaimVerifierContract.make_verifier().
"""

from __future__ import annotations

from agentic_rag.testing.contracts.agentic_ports import (
    DrafterContract,
    PlannerContract,
    QueryRewriterContract,
    SufficiencyJudgeContract,
    SynthesizerContract,
)
from agentic_rag.testing.contracts.embedder import EmbedderContract
from agentic_rag.testing.contracts.fixtures import TermOverlapRetriever
from agentic_rag.testing.contracts.generator import GeneratorContract
from agentic_rag.testing.contracts.llm import LLMContract
from agentic_rag.testing.contracts.reranker import RerankerContract
from agentic_rag.testing.contracts.retriever import RetrieverContract
from agentic_rag.testing.contracts.rewriter import QueryViewRewriterContract
from agentic_rag.testing.contracts.store_retriever import StoreRetrieverContract
from agentic_rag.testing.contracts.verifier import ClaimVerifierContract

__all__ = [
    "ClaimVerifierContract",
    "DrafterContract",
    "EmbedderContract",
    "GeneratorContract",
    "LLMContract",
    "PlannerContract",
    "QueryRewriterContract",
    "QueryViewRewriterContract",
    "RerankerContract",
    "RetrieverContract",
    "StoreRetrieverContract",
    "SufficiencyJudgeContract",
    "SynthesizerContract",
    "TermOverlapRetriever",
]
