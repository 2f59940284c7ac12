"""An answer that does not answer still quotes its closest lines (issue 29): a partial or
unanswerable answer cites the evidence's best focus lines, its status unchanged by them; its
text names what is missing briefly (``missing_facts`` names it in full); the ``ask`` payload
does not repeat in ``evidence`` the lines its claims quote."""

from __future__ import annotations

import unittest

from agentic_rag._agentic.extractive import ExtractiveDrafter, ExtractiveGroundedSynthesizer
from agentic_rag._agentic.fact_evidence import FactEvidenceModel
from agentic_rag._answering import missing_note
from agentic_rag._contracts import (
    AnswerabilityLabel,
    AnswerStatus,
    ContextAssessment,
    Corpus,
    Document,
    RequiredFact,
    RetrievalPlan,
    Route,
    Snippet,
    SufficiencyStatus,
)
from agentic_rag._contracts.assessment import FactSupport
from agentic_rag._interfaces.payloads import _unquoted_focus
from agentic_rag._parallel import ExtractiveGenerator, FunctionRetriever, ParallelRAGWorkflow, RAGRequest, RelevanceAnswerability
from agentic_rag._retrieval import BM25Index, BM25Retriever
from agentic_rag._text.relevance import RelevanceModel, TermWeights


class MissingNoteTest(unittest.TestCase):
    def test_missing_parts_are_named_by_their_place(self):
        note = missing_note(["Which option?", "What default?", "Since which version?"], ["What default?", "Since which version?"], has_claims=True)
        self.assertEqual(note, "Not found in the evidence: the second and third parts of the question.")

    def test_a_question_none_of_whose_parts_was_found_is_not_repeated(self):
        question = "My build links both libraries at once. What do I define before including the header?"
        self.assertEqual(missing_note([question], [question], has_claims=True), "None of these lines states what is asked.")
        self.assertEqual(missing_note([question], [question], has_claims=False), "The evidence is insufficient to answer this question.")

    def test_a_part_that_is_not_one_of_the_parts_is_named(self):
        self.assertEqual(missing_note(["Which option?"], ["which option it is?"], has_claims=True), "Not found in the evidence: which option it is.")

    def test_nothing_missing_says_nothing(self):
        self.assertEqual(missing_note(["Which option?"], [], has_claims=True), "")


PASSAGES = {
    "cache": ("Hash code caching", "Some objects have hash codes which are expensive to compute. Pass cache_hash=True to compute the hash once and store it."),
    "mutable": ("Hashing and mutability", "Changing a field after the first call to hash can result in silent bugs."),
}


def _synthesizer() -> tuple[ExtractiveGroundedSynthesizer, list[Snippet]]:
    relevance = RelevanceModel()
    snippets = [Snippet(id=key, corpus_id="docs", document_id=key, text=text, score=1.0, metadata={"title": title}) for key, (title, text) in PASSAGES.items()]
    return ExtractiveGroundedSynthesizer(ExtractiveDrafter(evidence_model=FactEvidenceModel(relevance.analyzer, relevance=relevance))), snippets


def _plan(*descriptions: str) -> RetrievalPlan:
    facts = tuple(RequiredFact(id=f"f{n}", description=d) for n, d in enumerate(descriptions, start=1))
    return RetrievalPlan(question=" ".join(descriptions), facts=facts, routes=tuple(Route(fact_id=f.id, corpus_ids=("docs",)) for f in facts), corpora=(Corpus(id="docs"),))


class AgenticClosestLinesTest(unittest.TestCase):
    def test_an_unanswerable_answer_quotes_its_closest_lines_and_stays_unanswerable(self):
        synthesizer, snippets = _synthesizer()
        plan = _plan("Hashing my objects is expensive. Can the hash be computed once and remembered?")
        assessment = ContextAssessment(status=SufficiencyStatus.INSUFFICIENT, sufficiency_score=0.2, missing_fact_ids=("f1",),
                                       label=AnswerabilityLabel.INSUFFICIENT, support=(FactSupport("f1", ("cache",), 0.4),))
        answer = synthesizer.synthesize(plan.question, plan, snippets, assessment)
        self.assertIs(answer.status, AnswerStatus.UNANSWERABLE)
        self.assertEqual([f.id for f in answer.missing_facts], ["f1"])
        self.assertIn("cache_hash=True", answer.text)
        self.assertTrue(all(c.citations and c.citations[0].snippet_id in PASSAGES for c in answer.claims))
        self.assertTrue(answer.text.endswith("None of these lines states what is asked."))
        self.assertNotIn("Hashing my objects", answer.text, "the note does not repeat the question")

    def test_a_partial_answer_quotes_the_closest_lines_of_a_missing_part(self):
        synthesizer, snippets = _synthesizer()
        plan = _plan("What can result in silent bugs after the first call to hash?", "Which release added hash caching?")
        assessment = ContextAssessment(status=SufficiencyStatus.INSUFFICIENT, sufficiency_score=0.5, covered_fact_ids=("f1",), missing_fact_ids=("f2",),
                                       label=AnswerabilityLabel.USEFUL_BUT_INCOMPLETE,
                                       support=(FactSupport("f1", ("mutable",), 1.0), FactSupport("f2", ("cache",), 0.4)))
        answer = synthesizer.synthesize(plan.question, plan, snippets, assessment)
        self.assertIs(answer.status, AnswerStatus.PARTIAL, "no claim states a release")
        self.assertEqual([f.id for f in answer.missing_facts], ["f2"])
        self.assertIn("silent bugs", answer.text)
        self.assertIn("compute the hash once", answer.text)
        self.assertIn("f2", [c.fact_id for c in answer.claims])
        self.assertTrue(answer.text.endswith("Not found in the evidence: the second part of the question."))

    def test_a_closest_line_never_changes_the_verdict(self):
        # The judge found no passage for the second part; a line the earned check would count
        # as its answer is not shown beside "not found", and does not raise the status.
        synthesizer, snippets = _synthesizer()
        snippets.append(Snippet(id="idn", corpus_id="docs", document_id="idn", score=1.0, metadata={"title": "Compatibility"},
                                text="Software that uses both libraries must define IDN2_SKIP_LIBIDN_COMPAT before including idn2.h."))
        plan = _plan("What can result in silent bugs after the first call to hash?", "What do I define before including idn2.h?")
        assessment = ContextAssessment(status=SufficiencyStatus.INSUFFICIENT, sufficiency_score=0.5, covered_fact_ids=("f1",), missing_fact_ids=("f2",),
                                       label=AnswerabilityLabel.USEFUL_BUT_INCOMPLETE,
                                       support=(FactSupport("f1", ("mutable",), 1.0), FactSupport("f2", ("idn",), 0.4)))
        answer = synthesizer.synthesize(plan.question, plan, snippets, assessment)
        self.assertIs(answer.status, AnswerStatus.PARTIAL)
        self.assertEqual([f.id for f in answer.missing_facts], ["f2"])
        self.assertNotIn("IDN2_SKIP_LIBIDN_COMPAT", answer.text)

DOCS = [
    Document(id="acme", corpus_id="docs", title="Acme Robotics", text="Acme Robotics was founded in 2001 by Jane Doe. It builds warehouse robots."),
    Document(id="pool", corpus_id="docs", title="Connection pool", text="The pool keeps connections open. The pool size defaults to 10 connections."),
]


class ParallelClosestLinesTest(unittest.TestCase):
    def test_an_unanswerable_answer_keeps_its_closest_cited_lines(self):
        index = BM25Index.from_documents(DOCS)
        model = RelevanceModel(index.analyzer, weights=TermWeights.from_index(index))
        bm25 = BM25Retriever(index, name="bm25")
        words = FunctionRetriever(lambda q, k: list(bm25.retrieve(q, k))[::-1], name="reversed")
        workflow = ParallelRAGWorkflow([bm25, words], generator=ExtractiveGenerator(relevance=model), answerability=RelevanceAnswerability(model))
        result = workflow.run(RAGRequest("Who founded Microsoft?", top_k=3))
        self.assertIs(result.status, AnswerStatus.UNANSWERABLE)
        self.assertFalse(result.answer.refused)
        self.assertTrue(result.answer.citations)
        self.assertLessEqual(len(result.answer.citations), 2)
        self.assertIn("founded", result.answer.text)
        self.assertTrue(result.answer.text.endswith("None of these lines states what is asked."))


class EvidenceNotRepeatedTest(unittest.TestCase):
    def test_focus_lines_a_claim_quotes_are_left_out(self):
        claims = [{"text": "Some objects have hash codes which are expensive to compute.",
                   "citations": [{"path": "hashing.md", "start_line": 82, "end_line": 82}]}]
        evidence = [
            {"path": "hashing.md", "focus_text": "82: Some objects have hash codes which are expensive to compute.\n83: Pass cache_hash=True."},
            {"path": "other.md", "focus_text": "82: Some objects have hash codes which are expensive to compute."},
            {"path": "hashing.md", "focus_text": "90: Some objects have hash codes which are expensive to compute."},
        ]
        out = _unquoted_focus(evidence, claims)
        self.assertEqual(out[0]["focus_text"], "83: Pass cache_hash=True.")
        self.assertEqual(out[1]["focus_text"], "82: Some objects have hash codes which are expensive to compute.", "another file")
        self.assertEqual(out[2]["focus_text"], "90: Some objects have hash codes which are expensive to compute.", "outside the cited lines")


if __name__ == "__main__":
    unittest.main()
