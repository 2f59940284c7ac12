"""Answers that hold up: one status guard for both workflows, a parallel workflow that
abstains, an agentic run that keeps the best-supported answer, citations at the quote's own
lines."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from agentic_rag._agentic import AbstentionPolicy, AgenticRAGOrchestrator, OrchestratorConfig
from agentic_rag._agentic.collection import collection_orchestrator
from agentic_rag._answering import compose_text, guard_answer, guard_status, least_status
from agentic_rag._contracts import (
    AnswerabilityLabel,
    AnswerStatus,
    Citation,
    Claim,
    ContextAssessment,
    Corpus,
    Document,
    GroundedAnswer,
    Snippet,
    SufficiencyStatus,
)
from agentic_rag._interfaces.locations import source_location
from agentic_rag._parallel import ExtractiveGenerator, FunctionRetriever, ParallelRAGWorkflow, RAGRequest, RelevanceAnswerability
from agentic_rag._retrieval import BM25Index, BM25Retriever
from agentic_rag._text.relevance import RelevanceModel, TermWeights

DOCS = [
    Document(id="acme", corpus_id="docs", title="Acme Robotics", text="Acme Robotics was founded in 2001 by Jane Doe. It builds warehouse robots."),
    Document(id="pool", corpus_id="docs", title="Connection pool", text="The pool keeps connections open. The pool size defaults to 10 connections and is set with max_connections."),
    Document(id="retry", corpus_id="docs", title="Retries", text="Failed requests are retried three times with exponential backoff."),
    Document(id="logs", corpus_id="docs", title="Logging", text="Logs are written to standard error. Set the level with the LOG_LEVEL variable."),
]


def sufficient(sufficient: bool = True) -> ContextAssessment:
    label = AnswerabilityLabel.SUFFICIENT if sufficient else AnswerabilityLabel.INSUFFICIENT
    status = SufficiencyStatus.SUFFICIENT if sufficient else SufficiencyStatus.INSUFFICIENT
    return ContextAssessment(status=status, sufficiency_score=1.0 if sufficient else 0.2, label=label)


class GuardTest(unittest.TestCase):
    def setUp(self) -> None:
        self.snippet = Snippet(id="s1", corpus_id="docs", document_id="acme", text="Acme Robotics was founded in 2001.")
        self.claim = Claim("Acme Robotics was founded in 2001.", (Citation("s1", "Acme Robotics was founded in 2001.", 0, 34),))

    def test_least_status_orders_statuses(self) -> None:
        self.assertIs(least_status(AnswerStatus.ANSWERED, AnswerStatus.PARTIAL), AnswerStatus.PARTIAL)
        self.assertIs(least_status(AnswerStatus.PARTIAL, AnswerStatus.UNANSWERABLE), AnswerStatus.UNANSWERABLE)

    def test_a_claimless_answer_is_unanswerable_even_when_sufficient(self) -> None:
        self.assertIs(guard_status(AnswerStatus.ANSWERED, AnswerStatus.ANSWERED, dropped=0, kept=0), AnswerStatus.UNANSWERABLE)
        answer = GroundedAnswer("Founded in 2001.", (), AnswerStatus.ANSWERED)
        self.assertIs(guard_answer(answer, [self.snippet], AnswerStatus.ANSWERED).status, AnswerStatus.UNANSWERABLE)

    def test_the_orchestrator_applies_the_same_guard(self) -> None:
        class Claimless:
            policy = AbstentionPolicy()

            def synthesize(self, question, plan, snippets, assessment):
                return GroundedAnswer("It was 2001.", (), AnswerStatus.ANSWERED)

        retriever = BM25Retriever(BM25Index.from_documents(DOCS))
        result = AgenticRAGOrchestrator(retriever=retriever, synthesizer=Claimless()).run("When was Acme Robotics founded?", [Corpus(id="docs", description="docs")])
        self.assertIs(result.answer.status, AnswerStatus.UNANSWERABLE)

    def test_empty_and_uncited_claims_are_dropped(self) -> None:
        empty = Claim(".", (Citation("s1", "A", 0, 1),))
        answer = GroundedAnswer("x", (self.claim, empty), AnswerStatus.ANSWERED)
        guarded = guard_answer(answer, [self.snippet], AnswerStatus.ANSWERED)
        self.assertEqual(guarded.claims, (self.claim,))
        self.assertIs(guarded.status, AnswerStatus.PARTIAL)

    def test_verdict_caps_the_status(self) -> None:
        self.assertIs(AbstentionPolicy().verdict(sufficient(False)), AnswerStatus.UNANSWERABLE)
        answer = GroundedAnswer("x", (self.claim,), AnswerStatus.ANSWERED)
        self.assertIs(guard_answer(answer, [self.snippet], AnswerStatus.PARTIAL).status, AnswerStatus.PARTIAL)

    def test_compose_keeps_code_lines_apart(self) -> None:
        lead = Claim("Install with pip:\n\npip install acme", ())
        other = Claim("It needs Python 3.10.", ())
        self.assertEqual(compose_text([lead, other], ["Not found: x."]), "Install with pip:\n\npip install acme\n\nIt needs Python 3.10.\n\nNot found: x.")
        self.assertEqual(compose_text([other, other]), "It needs Python 3.10.")


def _store_model() -> tuple[BM25Index, RelevanceModel]:
    index = BM25Index.from_documents(DOCS)
    return index, RelevanceModel(index.analyzer, weights=TermWeights.from_index(index))


class ParallelAbstainsTest(unittest.TestCase):
    def workflow(self) -> ParallelRAGWorkflow:
        index, model = _store_model()
        bm25 = BM25Retriever(index, name="bm25")
        words = FunctionRetriever(lambda q, k: [s for s in bm25.retrieve(q, k)][::-1], name="reversed")
        return ParallelRAGWorkflow([bm25, words], generator=ExtractiveGenerator(relevance=model), answerability=RelevanceAnswerability(model))

    def test_half_a_match_is_not_an_answer(self) -> None:
        result = self.workflow().run(RAGRequest("Who founded Microsoft?", top_k=3))
        self.assertIs(result.status, AnswerStatus.UNANSWERABLE)
        # Its closest lines are quoted (cited), and it says they do not answer.
        self.assertTrue(result.answer.text.endswith("None of these lines states what is asked."))
        self.assertLessEqual(len(result.answer.citations), 2)
        self.assertTrue(result.documents, "the evidence stays in the result")

    def test_a_supported_question_is_answered(self) -> None:
        result = self.workflow().run(RAGRequest("What is the default size of the connection pool?", top_k=3))
        self.assertIs(result.status, AnswerStatus.ANSWERED)
        self.assertIn("defaults to 10", result.answer.text)

    def test_a_two_part_question_with_one_part_missing_is_partial(self) -> None:
        result = self.workflow().run(RAGRequest("How many times are failed requests retried, and which database does it use?", top_k=4))
        self.assertIs(result.status, AnswerStatus.PARTIAL)
        self.assertTrue(result.missing)
        self.assertIn("three times", result.answer.text)

    def test_a_part_without_content_words_is_not_a_missing_part(self) -> None:
        result = self.workflow().run(RAGRequest("Who founded Acme Robotics, and when?", top_k=3))
        self.assertIs(result.status, AnswerStatus.ANSWERED)
        self.assertEqual(result.missing, ())

    def test_the_check_can_be_turned_off(self) -> None:
        index, model = _store_model()
        bm25 = BM25Retriever(index, name="bm25")
        other = BM25Retriever(index, name="other")
        result = ParallelRAGWorkflow([bm25, other], generator=ExtractiveGenerator(relevance=model), answerability=False).run(RAGRequest("Who founded Microsoft?", top_k=3))
        self.assertIs(result.status, AnswerStatus.ANSWERED)


class AgenticKeepsTheSupportedAnswerTest(unittest.TestCase):
    def test_a_paraphrased_question_quotes_the_best_unit_but_is_only_partial(self) -> None:
        # The supporting unit is found and quoted first; but the passage shares too few of the
        # question's words for a deterministic reader to vouch for it, so the answer is
        # partial, with the claim there to read (issue 20: `answered` must be earned).
        index, model = _store_model()
        orchestrator = collection_orchestrator(BM25Retriever(index), model, config=OrchestratorConfig(max_iterations=3, top_k=3))
        result = orchestrator.run("How big does the connection pool get if I leave it alone?", [Corpus(id="docs", description="docs")])
        self.assertIs(result.answer.status, AnswerStatus.PARTIAL)
        self.assertTrue(result.answer.claims)
        self.assertIn("The pool size defaults to 10 connections", result.answer.text)
        self.assertEqual({c.citations[0].snippet_id for c in result.answer.claims}, {result.snippets[0].id})
        self.assertEqual(len(result.iterations), 1)

    def test_a_trailing_and_when_is_not_a_separate_missing_fact(self) -> None:
        index, model = _store_model()
        result = collection_orchestrator(BM25Retriever(index), model).run("Who founded Acme Robotics, and when?", [Corpus(id="docs", description="docs")])
        self.assertEqual([f.description for f in result.plan.facts], ["Who founded Acme Robotics, and when?"])
        self.assertIs(result.answer.status, AnswerStatus.ANSWERED)

    def test_an_unanswerable_question_stays_unanswerable(self) -> None:
        index, model = _store_model()
        orchestrator = collection_orchestrator(BM25Retriever(index), model)
        result = orchestrator.run("How do I configure the Redis cache backend?", [Corpus(id="docs", description="docs")])
        self.assertIsNot(result.answer.status, AnswerStatus.ANSWERED)


class QuoteLinesTest(unittest.TestCase):
    def test_a_repeated_last_line_ends_the_span_at_the_quote_end(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            lines = ["Intro.", "", "Booting worker: x", "Booting worker: x", "Booting worker: x", "", "After."]
            (root / "run.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
            quote = "Booting worker: x\nBooting worker: x\nBooting worker: x"
            snippet = Snippet(id="c", corpus_id="docs", document_id="run.txt#0", text=quote, metadata={"path": "run.txt", "start_line": 1, "end_line": 7})
            self.assertEqual(source_location(snippet, quote, root), ("run.txt", 3, 5))


if __name__ == "__main__":
    unittest.main()
