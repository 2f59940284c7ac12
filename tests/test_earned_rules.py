"""Rules of the earned check (issue 29): what is asked, read apart from the situation told
before it; a name, number or default given as an example, as a placeholder or of another
kind than the one asked for earns nothing; one consistent verdict in both workflows."""

from __future__ import annotations

import unittest

from agentic_rag._agentic.extractive import ExtractiveDrafter, ExtractiveGroundedSynthesizer
from agentic_rag._agentic.fact_evidence import FactEvidenceModel
from agentic_rag._answering.earned import ClaimContext, earned_verdict
from agentic_rag._contracts import (
    AnswerabilityLabel,
    AnswerStatus,
    ContextAssessment,
    Corpus,
    RequiredFact,
    RetrievalPlan,
    Route,
    Snippet,
    SufficiencyStatus,
)
from agentic_rag._contracts.assessment import FactSupport
from agentic_rag._text.questions import asked_clause
from agentic_rag._text.relevance import RelevanceModel


def _verdict(question: str, heading: str, text: str, passage: str = "") -> AnswerStatus:
    return earned_verdict(question, [ClaimContext(heading, text, passage or text)], RelevanceModel()).status


class AskedClauseTest(unittest.TestCase):
    def test_the_situation_is_not_what_is_asked(self):
        self.assertEqual(asked_clause("My build links both libraries at once. What do I define before including the header?"),
                         "What do I define before including the header?")

    def test_a_question_that_leans_on_its_situation_keeps_it(self):
        question = "Our shipper wants the message under msg. How can I rename that key?"
        self.assertEqual(asked_clause(question), question)

    def test_a_plain_question_is_itself(self):
        self.assertEqual(asked_clause("Which option checks the file?"), "Which option checks the file?")


class SituationTest(unittest.TestCase):
    def test_a_claim_that_answers_what_is_asked_earns_it(self):
        # The passage does not retell the reader's situation; it answers the asked sentence.
        question = "My program links the legacy library and the new one together. What do I define before including idn2.h?"
        text = "Software that needs both libraries must define IDN2_SKIP_LIBIDN_COMPAT before including idn2.h."
        self.assertIs(_verdict(question, "Compatibility with the legacy library", text), AnswerStatus.ANSWERED)

    def test_the_situations_names_must_stand_in_the_passage(self):
        question = "The trigram_similar lookup fails on my database. Which extension has to be activated first?"
        text = "Activate the pg_trgm extension first."
        self.assertIsNot(_verdict(question, "Full text search", text), AnswerStatus.ANSWERED)


class FillerRulesTest(unittest.TestCase):
    def test_a_number_given_as_an_example_is_no_answer(self):
        question = "What nonce size does UMAC accept?"
        text = "For example, a nonce of 3 octets is a size UMAC accepts."
        self.assertIsNot(_verdict(question, "UMAC nonce", text), AnswerStatus.ANSWERED)

    def test_an_example_in_parentheses_does_not_make_the_sentence_one(self):
        question = "Which macro do I define before including idn2.h to use both libraries?"
        text = "Software that uses both libraries (e.g., the legacy one and idn2) must define IDN2_SKIP_LIBIDN_COMPAT before including idn2.h."
        self.assertIs(_verdict(question, "", text), AnswerStatus.ANSWERED)

    def test_a_placeholder_is_not_an_option(self):
        question = "Which asn1Parser option only checks the definitions file?"
        text = "Usage: asn1Parser [OPTION] FILE checks the definitions file and generates a C array."
        self.assertIsNot(_verdict(question, "asn1Parser", text), AnswerStatus.ANSWERED)

    def test_an_option_as_written_answers(self):
        question = "Which asn1Parser option only checks the definitions file?"
        text = "With --check, asn1Parser only checks the definitions file."
        self.assertIs(_verdict(question, "asn1Parser", text), AnswerStatus.ANSWERED)

    def test_an_exception_question_wants_an_exception(self):
        question = "Which exception is raised when a frozen attribute is set?"
        wrong = "Setting a frozen attribute raises attrs.setters.frozen via on_setattr."
        right = "Setting a frozen attribute raises FrozenAttributeError."
        self.assertIsNot(_verdict(question, "Frozen attributes", wrong), AnswerStatus.ANSWERED)
        self.assertIs(_verdict(question, "Frozen attributes", right), AnswerStatus.ANSWERED)

    def test_the_name_must_stand_in_a_sentence_about_the_question(self):
        # The passage is on topic, but the claim's name stands in a sentence about another thing.
        question = "Which setting rotates the signing key of sessions without logging users out?"
        passage = ("Sessions are signed with the signing key. Rotating the key without logging users out "
                   "is possible. Pages load quickly. The cache backend is CACHE_BACKEND.")
        text = "Rotating the key without logging users out is possible. Pages load quickly. The cache backend is CACHE_BACKEND."
        self.assertIsNot(_verdict(question, "Sessions", text, passage), AnswerStatus.ANSWERED)


if __name__ == "__main__":
    unittest.main()


class ParallelVerdictTest(unittest.TestCase):
    def _docs(self, text: str):
        from agentic_rag._contracts import Snippet
        from agentic_rag._parallel import reciprocal_rank_fusion

        return reciprocal_rank_fusion([[Snippet(id="", corpus_id="c", document_id="d1", text=text, score=1.0)]])

    def test_a_partial_answer_names_the_part_the_claims_leave_unearned(self):
        # The passage check missed part one, the claims earn it but not part two: part two is
        # missing, never an empty list beside a partial status.
        from agentic_rag._parallel import ExtractiveGenerator
        from agentic_rag._parallel.answerability import Answerability, RelevanceAnswerability
        from agentic_rag._parallel.verdict import answer_verdict

        question = "Which port does the server listen on, and which file holds its logs?"
        docs = self._docs("The server listens on port 5000 unless told otherwise.")
        answer = ExtractiveGenerator().generate(question, docs)
        first = "Which port does the server listen on?"

        class PassageCheckMisses(RelevanceAnswerability):
            def check(self, query, documents):
                return Answerability(AnswerStatus.PARTIAL, 0.2, (first,))

        notes: list[str] = []
        guarded, status, missing = answer_verdict(question, answer, docs, notes, PassageCheckMisses(), owns_text=True)
        self.assertIs(status, AnswerStatus.PARTIAL)
        self.assertTrue(missing)
        self.assertNotIn(first, missing)
        self.assertTrue(any(n.startswith("earned:") for n in notes))  # the payload's stop_reason: unearned

    def test_a_partial_answer_from_removed_claims_says_so(self):
        from agentic_rag._parallel.evidence import AnswerCitation, GeneratedAnswer
        from agentic_rag._parallel.verdict import answer_verdict

        text = "The server listens on port 5000 unless told otherwise."
        docs = self._docs(text)
        answer = GeneratedAnswer(f"{text[:-1]} [1]. The server is written in Rust [1].",
                                 (AnswerCitation(1, docs[0].document_id, text, 0, len(text)), AnswerCitation(1, docs[0].document_id, text, 0, len(text))))
        notes: list[str] = []
        guarded, status, missing = answer_verdict("Which port does the server listen on?", answer, docs, notes, False, owns_text=True)
        self.assertIs(status, AnswerStatus.PARTIAL)
        self.assertEqual(missing, ())
        self.assertIn("claim(s) removed", guarded.text)


class AgenticOneVerdictTest(unittest.TestCase):
    """A fact a claim earns is never in ``missing_facts``, whatever the judge counted."""

    PASSAGE = "Software that uses both libraries must define IDN2_SKIP_LIBIDN_COMPAT before including idn2.h."

    def _answer(self, second: str):
        relevance = RelevanceModel()
        synthesizer = ExtractiveGroundedSynthesizer(ExtractiveDrafter(evidence_model=FactEvidenceModel(relevance.analyzer, relevance=relevance)))
        first = RequiredFact(id="f1", description="Which macro must software that uses both libraries define?")
        other = RequiredFact(id="f2", description=second)
        plan = RetrievalPlan(question=f"{first.description} {second}", facts=(first, other),
                             routes=(Route(fact_id="f1", corpus_ids=("docs",)), Route(fact_id="f2", corpus_ids=("docs",))), corpora=(Corpus(id="docs"),))
        snippet = Snippet(id="s1", corpus_id="docs", document_id="d1", text=self.PASSAGE, score=1.0, metadata={"title": "Compatibility"})
        # The judge found the passage for the first fact only.
        assessment = ContextAssessment(status=SufficiencyStatus.INSUFFICIENT, sufficiency_score=0.5, covered_fact_ids=("f1",), missing_fact_ids=("f2",),
                                       label=AnswerabilityLabel.USEFUL_BUT_INCOMPLETE,
                                       support=(FactSupport("f1", ("s1",), 1.0), FactSupport("f2", ("s1",), 0.5)))
        return synthesizer.synthesize(plan.question, plan, [snippet], assessment)

    def test_a_fact_another_facts_claim_earns_is_not_missing(self):
        answer = self._answer("What do I define before including idn2.h?")
        self.assertEqual([f.id for f in answer.missing_facts], [])
        self.assertIs(answer.status, AnswerStatus.ANSWERED)
        self.assertNotIn("Not found", answer.text)

    def test_a_fact_no_claim_earns_stays_missing(self):
        answer = self._answer("Which version of libidn2 added the macro?")
        self.assertEqual([f.id for f in answer.missing_facts], ["f2"])
        self.assertIs(answer.status, AnswerStatus.PARTIAL)
