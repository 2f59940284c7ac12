"""``agentic_rag.compat``: the earlier scaffold's names and call shapes, on the modern engine."""

from __future__ import annotations

import unittest
import warnings

import agentic_rag
from agentic_rag import AgenticRAGOrchestrator, Corpus, Document, InvalidInputError, RetrievalPlan, StructuredOutputError
from agentic_rag import RunResult as ModernRunResult
from agentic_rag.compat import (
    AgenticRAGPipeline,
    CorpusDescriptor,
    CoverageSufficiencyJudge,
    ExtractiveSynthesizer,
    InMemoryDocument,
    InMemoryKeywordRetriever,
    KeywordPlanner,
    TemplateQueryRewriter,
)
from agentic_rag.compat import contracts as old
from agentic_rag.compat._convert import answer_to_core, plan_from_core, plan_to_core
from agentic_rag.compat.adapters.in_memory import (
    EvidenceCoverageJudge,
    FeedbackAwareQueryRewriter,
    InMemoryRetriever,
    RuleBasedSynthesizer,
    ScriptedPlanner,
    SnippetDrafter,
)
from agentic_rag.compat.adapters.llm import get_schema, parse_structured_output, to_dataclass, to_mapping
from agentic_rag.compat.adapters.retriever import LexicalDocument, LexicalRetriever, match_span
from agentic_rag.compat.orchestrator import AgenticRAGOrchestrator as CompatOrchestrator
from agentic_rag.compat.orchestrator import OrchestratorConfig
from agentic_rag.compat.sufficiency import apply_selective_abstention_policy

ROOT_NAMES = ("AgenticRAGPipeline", "CoverageSufficiencyJudge", "ExtractiveSynthesizer", "InMemoryKeywordRetriever",
              "KeywordPlanner", "TemplateQueryRewriter")

CORPORA = (
    CorpusDescriptor("pharmacy", "Medication orders discharge medication lists prescriptions"),
    CorpusDescriptor("clinical", "Clinical notes allergies adverse events rash observations"),
    CorpusDescriptor("facilities", "Facilities operations maintenance cafeteria menus"),
)
DOCS = (
    InMemoryDocument("meds-1", "pharmacy", "Discharge medications include aspirin."),
    InMemoryDocument("notes-1", "clinical", "No allergic reaction or rash was observed."),
    InMemoryDocument("ops-1", "facilities", "The cafeteria menu changed on Monday."),
)
QUESTION = "discharge medications and allergic reaction evidence"


def _pipeline(**kwargs):
    return AgenticRAGPipeline(planner=KeywordPlanner(), query_rewriter=TemplateQueryRewriter(),
                              retriever=InMemoryKeywordRetriever(DOCS, top_k=3), sufficiency_judge=CoverageSufficiencyJudge(),
                              synthesizer=ExtractiveSynthesizer(), **kwargs)


class RootNamesTest(unittest.TestCase):
    def test_the_six_names_live_in_compat_and_the_root_only_forwards_with_a_warning(self):
        import agentic_rag.compat as compat

        for name in ROOT_NAMES:
            with self.subTest(name=name):
                self.assertNotIn(name, agentic_rag.__all__)
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    self.assertIs(getattr(agentic_rag, name), getattr(compat, name))
                self.assertEqual([w.category for w in caught], [DeprecationWarning])

    def test_the_old_implementation_module_is_gone(self):
        with self.assertRaises(ImportError):
            __import__("agentic_rag._agentic.compat")


class PipelineTest(unittest.TestCase):
    def test_the_scaffold_pipeline_call_answers_with_citations_per_fact(self):
        answer = _pipeline(max_iterations=2).answer(QUESTION, CORPORA)
        self.assertIsInstance(answer, old.GroundedAnswer)
        self.assertEqual(answer.status, old.AnswerStatus.ANSWERED)
        self.assertEqual(answer.iterations, 1)
        self.assertIn("aspirin", answer.answer)
        self.assertEqual([(c.claim, c.snippet_ids) for c in answer.citations],
                         [("f1", ("pharmacy/meds-1",)), ("f2", ("clinical/notes-1",))])

    def test_run_returns_the_scaffold_run_result_with_the_modern_stop_reason(self):
        result = _pipeline(max_iterations=2).run(QUESTION, CORPORA)
        self.assertIsInstance(result, old.RunResult)
        self.assertEqual(result.stop_reason, "sufficient")
        self.assertNotIn("facilities", {s.corpus_id for s in result.snippets})

    def test_the_same_data_without_its_facts_is_not_answered(self):
        docs = DOCS[2:]
        answer = AgenticRAGPipeline(retriever=InMemoryKeywordRetriever(docs), max_iterations=2).answer(QUESTION, CORPORA)
        self.assertEqual(answer.status, old.AnswerStatus.UNANSWERABLE)
        self.assertEqual(answer.citations, ())
        self.assertEqual(set(answer.missing_facts), {"discharge medications", "allergic reaction evidence"})

    def test_bad_components_are_refused_by_slot(self):
        with self.assertRaisesRegex(InvalidInputError, "sufficiency|judge"):
            AgenticRAGPipeline(retriever=InMemoryKeywordRetriever(DOCS), sufficiency_judge=object())
        with self.assertRaisesRegex(InvalidInputError, "retriever"):
            AgenticRAGPipeline(retriever=None)


class ComponentsTest(unittest.TestCase):
    def test_keyword_planner_splits_routes_and_requires_content_words(self):
        plan = KeywordPlanner().create_plan(QUESTION, CORPORA)
        self.assertEqual([(f.id, f.description, f.required_terms) for f in plan.required_facts],
                         [("f1", "discharge medications", ("discharge", "medications")),
                          ("f2", "allergic reaction evidence", ("allergic", "reaction"))])
        self.assertEqual([r.candidate_corpus_ids[0] for r in plan.routes], ["pharmacy", "clinical"])
        self.assertIsInstance(KeywordPlanner().plan(QUESTION, CORPORA), RetrievalPlan)  # the modern call is unchanged

    def test_in_memory_keyword_retriever_takes_both_calls(self):
        retriever = InMemoryKeywordRetriever([Document(id="a", text="Aspirin at discharge.", corpus_id="pharmacy"), *DOCS], top_k=1)
        modern = retriever.retrieve("aspirin", 5)
        self.assertEqual({s.document_id for s in modern}, {"a", "meds-1"})
        sq = old.Subquery("q1", "f1", "discharge aspirin", ("pharmacy",))
        hits = retriever.retrieve(sq)
        self.assertEqual(len(hits), 1)
        self.assertEqual((hits[0].query_id, hits[0].fact_id), ("q1", "f1"))
        self.assertEqual(retriever.calls, [sq])
        with self.assertRaisesRegex(InvalidInputError, "needs k"):
            retriever.retrieve("aspirin")

    def test_extractive_synthesizer_drafts_and_finalizes_in_the_plan_shape(self):
        synthesizer = ExtractiveSynthesizer()
        plan = KeywordPlanner().create_plan(QUESTION, CORPORA)
        snippets = InMemoryKeywordRetriever(DOCS).retrieve(old.Subquery("q", "f1", "discharge medications", ("pharmacy",)))
        draft = synthesizer.draft(QUESTION, plan, snippets)
        self.assertIsInstance(draft, old.DraftAnswer)
        assessment = CoverageSufficiencyJudge().assess(QUESTION, plan, snippets, draft)
        self.assertEqual(assessment.answerability_label, old.AnswerabilityLabel.USEFUL_BUT_INCOMPLETE)
        answer = synthesizer.finalize(QUESTION, plan, snippets, assessment)
        self.assertEqual(answer.status, old.AnswerStatus.PARTIAL)
        self.assertEqual(answer.missing_facts, ("allergic reaction evidence",))

    def test_the_judge_is_the_modern_judge_for_a_modern_plan(self):
        modern_plan = plan_to_core(KeywordPlanner().create_plan(QUESTION, CORPORA))
        verdict = CoverageSufficiencyJudge().assess(QUESTION, modern_plan, (), old.DraftAnswer())
        self.assertIsInstance(verdict, agentic_rag.ContextAssessment)

    def test_compat_components_run_on_the_modern_orchestrator_too(self):
        question = "Was an allergic reaction or rash observed?"
        result = AgenticRAGOrchestrator(retriever=InMemoryKeywordRetriever(DOCS), planner=KeywordPlanner(), rewriter=TemplateQueryRewriter(),
                                        drafter=ExtractiveSynthesizer(), judge=CoverageSufficiencyJudge(), synthesizer=ExtractiveSynthesizer()).run(question, CORPORA)
        self.assertIsInstance(result, ModernRunResult)
        self.assertEqual(result.answer.status, agentic_rag.AnswerStatus.ANSWERED)
        lexical = InMemoryRetriever(LexicalDocument(d.corpus_id, d.id, d.text) for d in DOCS)
        again = AgenticRAGOrchestrator(retriever=lexical, drafter=SnippetDrafter(), judge=EvidenceCoverageJudge(),
                                       synthesizer=RuleBasedSynthesizer()).run(question, CORPORA)
        self.assertEqual(again.answer.status, agentic_rag.AnswerStatus.ANSWERED)
        self.assertEqual(again.snippets[0].document_id, "notes-1")


class ContractsTest(unittest.TestCase):
    def test_plan_round_trip_and_unrouted_facts(self):
        plan = old.RetrievalPlan("q?", (agentic_rag.RequiredFact("a", "A"), agentic_rag.RequiredFact("b", "B")),
                                 routes=(old.Route("a", ("x", "y")),))
        modern = plan_to_core(plan, ("x",))
        self.assertEqual([r.corpus_ids for r in modern.routes], [("x",), ("x",)])
        self.assertEqual(plan_from_core(plan_to_core(plan)).routes[0].candidate_corpus_ids, ("x", "y"))
        with self.assertRaisesRegex(InvalidInputError, "unknown fact"):
            old.RetrievalPlan("q?", (agentic_rag.RequiredFact("a", "A"),), routes=(old.Route("z", ("x",)),))

    def test_citations_of_unknown_snippets_do_not_hold_in_the_modern_answer(self):
        plan = plan_to_core(old.RetrievalPlan("q?", (agentic_rag.RequiredFact("a", "A"),)))
        snippet = old.Snippet("s1", "c", "d", "Alpha is A.")
        answer = old.GroundedAnswer("x", (old.GroundedCitation("a", ("s1",)), old.GroundedCitation("b", ("nope",))), "answered")
        modern = answer_to_core(answer, plan, (snippet,))
        self.assertTrue(modern.claims[0].citations[0].is_supported_by(snippet))
        self.assertEqual(modern.claims[1].citations[0].snippet_id, "nope")

    def test_snippet_span_must_lie_inside_the_text(self):
        with self.assertRaisesRegex(InvalidInputError, "span"):
            old.Snippet("s", "c", "d", "abc", span=(1, 9))

    def test_match_span_prefers_the_exact_phrase(self):
        self.assertEqual(match_span("Zen owner Nina; Nina owns Zen", "nina owns"), (16, 25))
        self.assertIsNone(match_span("nothing here", "zen"))

    def test_lexical_retriever_refuses_foreign_documents(self):
        with self.assertRaisesRegex(InvalidInputError, "LexicalDocument"):
            LexicalRetriever(["text"])
        self.assertEqual(LexicalRetriever((LexicalDocument("c", "d", "zen"),)).retrieve("zen", 1)[0].document_id, "d")


class LoopTest(unittest.TestCase):
    def test_feedback_drives_the_second_hop_and_the_trace_keeps_the_scaffold_subqueries(self):
        plan = old.RetrievalPlan(
            "Who owns Alice's project?",
            (agentic_rag.RequiredFact("p", "Alice project", required_terms=("alice", "zen")),
             agentic_rag.RequiredFact("o", "Zen owner", required_terms=("zen", "owner"))),
            routes=(old.Route("p", ("people",)), old.Route("o", ("projects",))),
        )
        retriever = InMemoryRetriever((LexicalDocument("people", "1", "Alice works on Zen."), LexicalDocument("projects", "2", "Zen owner is Nina.")))
        result = CompatOrchestrator(planner=ScriptedPlanner(plan), rewriter=FeedbackAwareQueryRewriter(initial_fact_ids=("p",)),
                                    retriever=retriever, config=OrchestratorConfig(max_iterations=3)).run(plan.question, (Corpus("people"), Corpus("projects")))
        self.assertEqual([t.subqueries[0].target_corpus_ids for t in result.iterations], [("people",), ("projects",)])
        self.assertIsInstance(result.iterations[0].subqueries[0], old.Subquery)
        self.assertEqual(result.answer.status, old.AnswerStatus.ANSWERED)


class PolicyAndSchemasTest(unittest.TestCase):
    def test_policy_never_lets_an_insufficient_answer_stand(self):
        answer = old.GroundedAnswer("Nina.", (old.GroundedCitation("o", ("s1",)),), "answered")
        guarded = apply_selective_abstention_policy(answer, old.ContextAssessment("insufficient", 0.0, missing_facts=("owner",)))
        self.assertEqual((guarded.status, guarded.citations, guarded.missing_facts), (old.AnswerStatus.UNANSWERABLE, (), ("owner",)))

    def test_schema_errors_are_structured_output_errors_naming_the_field(self):
        with self.assertRaisesRegex(StructuredOutputError, r"missing required field\(s\): answer, citations"):
            to_dataclass("GroundedAnswer", {"status": "partial"})
        with self.assertRaisesRegex(InvalidInputError, "unknown schema"):
            get_schema("Nope")

    def test_to_mapping_holds_only_schema_fields(self):
        answer = parse_structured_output("GroundedAnswer", '{"answer": "a", "citations": [], "status": "partial"}')
        self.assertEqual(to_mapping("GroundedAnswer", answer),
                         {"answer": "a", "citations": [], "status": "partial", "missing_facts": [], "sufficiency_score": 0.0,
                          "conflicts": [], "iterations": 0})


if __name__ == "__main__":
    unittest.main()
