"""``agentic_rag.compat``: the behaviours MIGRATION.md documents, each pinned by its own test
(the earlier scaffold's suite no longer ships with the data, so these are what keep compat
working)."""

from __future__ import annotations

import importlib.util
import sys
import unittest
from pathlib import Path

import agentic_rag
from agentic_rag import InvalidInputError, StructuredOutputError
from agentic_rag.compat import CoverageSufficiencyJudge
from agentic_rag.compat import InMemoryDocument as PipelineDocument
from agentic_rag.compat import contracts as old
from agentic_rag.compat.adapters.in_memory import InMemoryDocument, InMemoryRetriever
from agentic_rag.compat.adapters.llm import SchemaValidationError
from agentic_rag.compat.adapters.retriever import LEXICAL_SCORING_RULE
from agentic_rag.compat.orchestrator import OrchestratorConfig
from agentic_rag.compat.sufficiency import apply_selective_abstention_policy

REPO = Path(__file__).resolve().parents[1]


def _validator():
    spec = importlib.util.spec_from_file_location("compat_documented_validate_skill", REPO / "scripts" / "validate_skill.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


class ScoresAndIdsTest(unittest.TestCase):
    """MIGRATION.md, "Scores and ranking" and "Snippet ids"."""

    def setUp(self):
        self.retriever = InMemoryRetriever([InMemoryDocument("pharmacy", "meds-1", "Discharge medications include aspirin."),
                                            InMemoryDocument("facilities", "ops-1", "The cafeteria menu changed on Monday.")])

    def test_retrieval_is_bm25_and_a_document_without_a_query_term_is_never_returned(self):
        self.assertIn("BM25", LEXICAL_SCORING_RULE)
        hits = self.retriever.retrieve("aspirin medication", 5)  # "medication" matches "medications" after stemming
        self.assertEqual([h.document_id for h in hits], ["meds-1"])
        self.assertEqual(self.retriever.retrieve("zebra", 5), ())

    def test_snippet_ids_are_corpus_slash_document(self):
        self.assertEqual(self.retriever.retrieve("aspirin", 1)[0].id, "pharmacy/meds-1")


class CoverageTest(unittest.TestCase):
    """MIGRATION.md, "Coverage": stemmed required terms, a priority-weighted score, feedback per
    missing routed fact with the scaffold's reason."""

    def test_stemmed_coverage_weighted_score_and_feedback_reason(self):
        plan = old.RetrievalPlan(
            "Discharge medication and rash?",
            (agentic_rag.RequiredFact("a", "discharge medication", required_terms=("medication",)),
             agentic_rag.RequiredFact("b", "rash", required_terms=("rash",), priority="should")),
            routes=(old.Route("a", ("pharmacy",)), old.Route("b", ("clinical",))),
        )
        snippet = old.Snippet("s1", "pharmacy", "meds-1", "Discharge medications include aspirin.")
        verdict = CoverageSufficiencyJudge().assess(plan.question, plan, (snippet,), old.DraftAnswer())
        self.assertEqual([c.fact_id for c in verdict.covered_facts], ["a"])
        self.assertAlmostEqual(verdict.sufficiency_score, 1 / 1.5, places=5)  # must 1 covered of must 1 + should 0.5
        self.assertEqual([(f.query, f.target_corpus_ids, f.reason) for f in verdict.feedback_queries],
                         [("rash", ("clinical",), "Evidence for required fact 'b' was not found.")])


class BudgetsTest(unittest.TestCase):
    def test_the_modern_loop_defaults(self):
        config = OrchestratorConfig()
        self.assertEqual((config.max_iterations, config.max_subqueries_per_iteration, config.top_k, config.deadline_s), (3, 4, 5, 60.0))


class PolicyTest(unittest.TestCase):
    """MIGRATION.md, "The abstention policy" adds its note to the text when it lowers the status."""

    def test_partial_and_no_answer_notes(self):
        answer = old.GroundedAnswer("Nina owns Zen.", (old.GroundedCitation("o", ("s1",)),), "answered")
        partial = apply_selective_abstention_policy(answer, old.ContextAssessment("sufficient", 0.6, missing_facts=("when",), answerability="useful_but_incomplete"))
        self.assertEqual((partial.status, partial.answer), (old.AnswerStatus.PARTIAL, "Partial evidence: Nina owns Zen."))
        refused = apply_selective_abstention_policy(answer, old.ContextAssessment("insufficient", 0.5, missing_facts=("owner",)))
        self.assertEqual(refused.status, old.AnswerStatus.UNANSWERABLE)
        self.assertTrue(refused.answer.startswith("No grounded answer"))


class TwoDocumentClassesTest(unittest.TestCase):
    def test_each_takes_its_scaffold_argument_order(self):
        pipeline = PipelineDocument("meds-1", "pharmacy", "text")
        adapter = InMemoryDocument("pharmacy", "meds-1", "text")
        self.assertEqual((pipeline.id, pipeline.corpus_id), ("meds-1", "pharmacy"))
        self.assertEqual((adapter.document_id, adapter.corpus_id), ("meds-1", "pharmacy"))


class ErrorsTest(unittest.TestCase):
    def test_a_bad_contract_field_is_a_value_error_naming_the_field_and_choices(self):
        with self.assertRaisesRegex(InvalidInputError, r"GroundedAnswer\.status must be one of .*'partial'.*got 'bogus'") as caught:
            old.GroundedAnswer("x", (), "bogus")
        self.assertIsInstance(caught.exception, ValueError)

    def test_schema_validation_error_is_the_structured_output_error(self):
        self.assertIs(SchemaValidationError, StructuredOutputError)


class ValidatorTest(unittest.TestCase):
    def test_validate_errors_is_the_scaffolds_list_and_validate_the_report(self):
        validator = _validator()
        self.assertEqual(validator.validate_errors(REPO), [])
        self.assertEqual(tuple(validator.validate(REPO).errors), ())


if __name__ == "__main__":
    unittest.main()
