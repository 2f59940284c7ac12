"""The public surface: one entry point with a sorted, complete ``__all__``."""

from __future__ import annotations

import importlib
import types
import unittest

import agentic_rag

ACCEPTANCE_NAMES = (
    # foundation
    "AgenticRAGOrchestrator", "AutoraterStyleSufficiencyJudge", "Corpus", "RequiredFact", "RetrievalPlan", "Snippet",
    "GroundedAnswer", "AnswerStatus", "AnswerabilityLabel", "ContextAssessment", "RunResult",
    # scaffold compatibility
    "AgenticRAGPipeline", "KeywordPlanner", "TemplateQueryRewriter", "InMemoryKeywordRetriever",
    "CoverageSufficiencyJudge", "ExtractiveSynthesizer",
    # retrieval engine
    "Document", "BM25Index", "VectorIndex", "HashingEmbedder",
    # parallel workflow
    "ParallelRAGWorkflow", "reciprocal_rank_fusion",
)


class PublicApiTest(unittest.TestCase):
    def test_all_is_sorted_and_unique(self):
        self.assertEqual(list(agentic_rag.__all__), sorted(set(agentic_rag.__all__)))

    def test_all_equals_the_public_names_defined(self):
        defined = {
            name for name, value in vars(agentic_rag).items()
            if not name.startswith("_") and not isinstance(value, types.ModuleType) and name != "annotations"
        }
        self.assertEqual(set(agentic_rag.__all__), defined)

    def test_acceptance_names_import_from_the_root(self):
        for name in ACCEPTANCE_NAMES:
            with self.subTest(name=name):
                self.assertIn(name, agentic_rag.__all__)
                self.assertIsNotNone(getattr(agentic_rag, name))

    def test_subpackages_have_sorted_all(self):
        for module in ("agentic_rag._agentic", "agentic_rag._contracts", "agentic_rag.evaluation", "agentic_rag._text", "agentic_rag._retrieval",
                       "agentic_rag._parallel", "agentic_rag.llm", "agentic_rag.providers", "agentic_rag.testing", "agentic_rag._store", "agentic_rag._ingest"):
            with self.subTest(module=module):
                mod = importlib.import_module(module)
                self.assertEqual(list(mod.__all__), sorted(set(mod.__all__)))
                for name in mod.__all__:
                    self.assertTrue(hasattr(mod, name), name)

    def test_names_in_subpackages(self):
        from agentic_rag.evaluation import ndcg_at_k, recall_at_k
        from agentic_rag.llm import AnthropicLLM, OpenAICompatibleLLM

        self.assertTrue(all(callable(x) for x in (ndcg_at_k, recall_at_k, AnthropicLLM, OpenAICompatibleLLM)))

    def test_status_and_stop_reason_are_string_enums(self):
        from agentic_rag import AnswerStatus, StopReason
        self.assertEqual(AnswerStatus("partial"), AnswerStatus.PARTIAL)
        self.assertIsInstance(StopReason.NO_PROGRESS, str)
        self.assertEqual(StopReason.NO_PROGRESS.value, "no_progress")


if __name__ == "__main__":
    unittest.main()
