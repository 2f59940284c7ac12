"""The LLM drafter and synthesizer: contracts, verified citations, honest status, fallbacks."""

from __future__ import annotations

import json
import unittest

from llm_scripts import FIXTURE_WORLD, GARBAGE, Oracle
from agentic_rag.testing.contracts import DrafterContract, SynthesizerContract
from agentic_rag.testing.contracts.fixtures import fixture_plan, fixture_snippet, QUESTION, synthesis_scenarios

from agentic_rag._agentic import ExtractiveDrafter, ExtractiveGroundedSynthesizer
from agentic_rag._agentic.judge import unsupported_claims
from agentic_rag._budget import RunBudget, use_budget
from agentic_rag._contracts import AnswerabilityLabel, AnswerStatus, Citation, Claim, ContextAssessment, GroundedAnswer, SufficiencyStatus
from agentic_rag._errors import BudgetExhaustedError, InvalidInputError, StructuredOutputError
from agentic_rag.llm import ScriptedLLM
from agentic_rag._answering import guard_answer
from agentic_rag.llm.components import ComponentEventKind, LLMDrafter, LLMSynthesizer

TWO_HOP = (fixture_snippet("zeta-labs", 3), fixture_snippet("ann-vale", 2))
SUFFICIENT = ContextAssessment(SufficiencyStatus.SUFFICIENT, 0.8, ("founder", "birthplace"), ("staff",), label=AnswerabilityLabel.SUFFICIENT)
GOOD_CLAIMS = [
    {"text": "Ann Vale founded Zeta Labs in 1999 [1].", "fact_id": "founder", "citations": [{"snippet": 1, "quote": "founded in 1999 by Ann Vale"}]},
    {"text": "She was born in Braga.", "fact_id": "birthplace", "citations": [{"snippet": 2, "quote": "Ann  Vale was born in Braga"}]},
]
HALLUCINATED = [
    {"text": "Zeta Labs has 500 staff.", "fact_id": "staff", "citations": [{"snippet": 5, "quote": "500 staff"}]},
    {"text": "Ann Vale was born in Lisbon.", "fact_id": "birthplace", "citations": [{"snippet": 2, "quote": "born in Lisbon"}]},
]


def synthesis(claims, status="answered", missing=()) -> str:
    return json.dumps({"answer": "ignored prose", "claims": claims, "status": status, "missing_fact_ids": list(missing)})


class LLMDrafterContractTest(DrafterContract, unittest.TestCase):
    def make_drafter(self):
        return LLMDrafter(ScriptedLLM(Oracle(FIXTURE_WORLD)))


class LLMSynthesizerContractTest(SynthesizerContract, unittest.TestCase):
    def make_synthesizer(self):
        return LLMSynthesizer(ScriptedLLM(Oracle(FIXTURE_WORLD)))


class GarbageSynthesizerContractTest(SynthesizerContract, unittest.TestCase):
    def make_synthesizer(self):
        return LLMSynthesizer(ScriptedLLM([GARBAGE], repeat_last=True))


class DrafterTest(unittest.TestCase):
    def test_claims_are_verified_and_the_text_is_made_of_them(self) -> None:
        drafter = LLMDrafter(ScriptedLLM([json.dumps({"answer": "prose", "claims": GOOD_CLAIMS + HALLUCINATED})]))
        draft = drafter.draft(QUESTION, fixture_plan(), TWO_HOP)
        self.assertEqual([c.text for c in draft.claims], ["Ann Vale founded Zeta Labs in 1999.", "She was born in Braga."])
        self.assertEqual(unsupported_claims(draft.claims, TWO_HOP), ())
        self.assertEqual(draft.claims[1].citations[0].quote, "Ann Vale was born in Braga")
        self.assertIn("2 claim(s) removed", draft.text)
        self.assertIs(drafter.events[0].kind, ComponentEventKind.DROPPED_CLAIMS)

    def test_garbage_falls_back_and_none_raises(self) -> None:
        drafter = LLMDrafter(ScriptedLLM([GARBAGE, GARBAGE]))
        self.assertEqual(drafter.draft(QUESTION, fixture_plan(), TWO_HOP), ExtractiveDrafter().draft(QUESTION, fixture_plan(), TWO_HOP))
        self.assertEqual(drafter.fallback_count, 1)
        with self.assertRaises(StructuredOutputError):
            LLMDrafter(ScriptedLLM([GARBAGE, GARBAGE]), fallback=None).draft(QUESTION, fixture_plan(), TWO_HOP)

    def test_only_the_first_snippets_are_shown(self) -> None:
        llm = ScriptedLLM([json.dumps({"answer": "", "claims": GOOD_CLAIMS})])
        draft = LLMDrafter(llm, max_snippets=1, max_snippet_chars=20).draft(QUESTION, fixture_plan(), TWO_HOP)
        prompt = llm.calls[0].messages[-1].content
        self.assertEqual(prompt.count("<untrusted_document "), 1)
        self.assertIn("[truncated]", prompt)
        self.assertEqual(len(draft.claims), 1)  # the claim citing document 2 is out of range now


class SynthesizerTest(unittest.TestCase):
    def synthesize(self, reply: str, assessment=SUFFICIENT, snippets=TWO_HOP):
        synthesizer = LLMSynthesizer(ScriptedLLM([reply]))
        return synthesizer, synthesizer.synthesize(QUESTION, fixture_plan(), snippets, assessment)

    def test_good_answer_is_answered_with_exact_citations(self) -> None:
        synthesizer, answer = self.synthesize(synthesis(GOOD_CLAIMS, missing=["staff"]))
        self.assertIs(answer.status, AnswerStatus.ANSWERED)
        self.assertEqual(unsupported_claims(answer.claims, TWO_HOP), ())
        self.assertEqual([f.id for f in answer.missing_facts], ["staff"])
        self.assertTrue(answer.text.startswith("Ann Vale founded Zeta Labs in 1999. She was born in Braga."))
        self.assertNotIn("ignored prose", answer.text)
        self.assertEqual(synthesizer.events, ())

    def test_dropped_claims_lower_the_status_only_when_their_fact_is_left_unanswered(self) -> None:
        # Both hallucinated claims fail (a document out of range, a quote not in the text), but
        # the good claims still answer every MUST fact: the status stands.
        synthesizer, answer = self.synthesize(synthesis(GOOD_CLAIMS + HALLUCINATED))
        self.assertIs(answer.status, AnswerStatus.ANSWERED)
        self.assertEqual(len(answer.claims), 2)
        self.assertIn("2 claim(s) removed", answer.text)
        self.assertEqual([e.kind for e in synthesizer.events], [ComponentEventKind.DROPPED_CLAIMS])
        self.assertEqual([(r.claim, r.outcome.value) for r in answer.reviews],
                         [("Zeta Labs has 500 staff.", "dropped"), ("Ann Vale was born in Lisbon.", "dropped")])
        # The birthplace's only claim is dropped: that MUST fact is left unanswered.
        synthesizer, answer = self.synthesize(synthesis([GOOD_CLAIMS[0], HALLUCINATED[1]]))
        self.assertIs(answer.status, AnswerStatus.PARTIAL)
        self.assertIn("birthplace", [f.id for f in answer.missing_facts])
        self.assertEqual([e.kind for e in synthesizer.events], [ComponentEventKind.DROPPED_CLAIMS, ComponentEventKind.DOWNGRADED])

    def test_every_claim_dropped_is_unanswerable(self) -> None:
        _, answer = self.synthesize(synthesis(HALLUCINATED))
        self.assertIs(answer.status, AnswerStatus.UNANSWERABLE)
        self.assertEqual(answer.claims, ())

    def test_model_reporting_a_must_fact_missing_is_partial(self) -> None:
        _, answer = self.synthesize(synthesis(GOOD_CLAIMS, missing=["birthplace"]))
        self.assertIs(answer.status, AnswerStatus.PARTIAL)
        self.assertEqual([f.id for f in answer.missing_facts], ["staff", "birthplace"])  # the judge's, then the model's

    def test_never_answered_without_a_sufficient_verdict(self) -> None:
        useful = ContextAssessment(SufficiencyStatus.INSUFFICIENT, 0.4, ("founder",), ("birthplace", "staff"), label=AnswerabilityLabel.USEFUL_BUT_INCOMPLETE)
        _, answer = self.synthesize(synthesis(GOOD_CLAIMS), useful)
        self.assertIs(answer.status, AnswerStatus.PARTIAL)
        self.assertIn("Not found in the evidence", answer.text)

    def test_the_final_answer_is_asked_for_even_when_the_judge_abstains(self) -> None:
        # A judge that found nothing (or a false premise) still gets a final answer that says
        # so; the status never rises above the judge's verdict.
        llm = ScriptedLLM([synthesis(GOOD_CLAIMS[:1], status="unanswerable")])
        insufficient = ContextAssessment(SufficiencyStatus.INSUFFICIENT, 0.0, (), ("founder", "birthplace", "staff"), label=AnswerabilityLabel.INSUFFICIENT)
        answer = LLMSynthesizer(llm).synthesize(QUESTION, fixture_plan(), TWO_HOP, insufficient)
        self.assertEqual(len(llm.calls), 1)
        self.assertIs(answer.status, AnswerStatus.UNANSWERABLE)
        self.assertEqual([f.id for f in answer.missing_facts], ["founder", "birthplace", "staff"])
        self.assertEqual([c.text for c in answer.claims], ["Ann Vale founded Zeta Labs in 1999."])
        self.assertIs(LLMSynthesizer(ScriptedLLM([])).synthesize(QUESTION, fixture_plan(), (), insufficient).status, AnswerStatus.UNANSWERABLE)

    def test_a_partial_that_misses_only_a_should_fact_is_answered(self) -> None:
        # "Required" means MUST: staff is a SHOULD fact.
        _, answer = self.synthesize(synthesis(GOOD_CLAIMS, status="partial", missing=["staff"]))
        self.assertIs(answer.status, AnswerStatus.ANSWERED)

    def test_fallback_answer_passes_the_same_guard(self) -> None:
        synthesizer = LLMSynthesizer(ScriptedLLM([GARBAGE, GARBAGE]))
        answer = synthesizer.synthesize(QUESTION, fixture_plan(), TWO_HOP, SUFFICIENT)
        self.assertEqual(answer, ExtractiveGroundedSynthesizer().synthesize(QUESTION, fixture_plan(), TWO_HOP, SUFFICIENT))
        self.assertIs(answer.status, AnswerStatus.ANSWERED)
        self.assertIn("StructuredOutputError", synthesizer.last_fallback_reason)

        class Liar:
            def synthesize(self, question, plan, snippets, assessment):
                fake = Claim("Made up.", (Citation(TWO_HOP[0].id, "not in the text"),))
                return GroundedAnswer("Made up.", (fake,), AnswerStatus.ANSWERED)

        lied = LLMSynthesizer(ScriptedLLM([GARBAGE, GARBAGE]), fallback=Liar()).synthesize(QUESTION, fixture_plan(), TWO_HOP, SUFFICIENT)
        self.assertIs(lied.status, AnswerStatus.UNANSWERABLE)
        self.assertEqual(lied.claims, ())

    def test_guard_keeps_a_sound_answer_unchanged(self) -> None:
        answer = ExtractiveGroundedSynthesizer().synthesize(QUESTION, fixture_plan(), TWO_HOP, SUFFICIENT)
        self.assertIs(guard_answer(answer, TWO_HOP, AnswerStatus.ANSWERED), answer)

    def test_budget_propagates_and_none_raises(self) -> None:
        synthesizer = LLMSynthesizer(ScriptedLLM([GARBAGE, GARBAGE]))
        with use_budget(RunBudget(max_llm_calls=1)), self.assertRaises(BudgetExhaustedError):
            synthesizer.synthesize(QUESTION, fixture_plan(), TWO_HOP, SUFFICIENT)
        self.assertEqual(synthesizer.events, ())
        with self.assertRaises(StructuredOutputError):
            LLMSynthesizer(ScriptedLLM([GARBAGE, GARBAGE]), fallback=None).synthesize(QUESTION, fixture_plan(), TWO_HOP, SUFFICIENT)

    def test_every_scenario_is_honest(self) -> None:
        for name, snippets, assessment in synthesis_scenarios():
            with self.subTest(scenario=name):
                _, answer = self.synthesize(synthesis(GOOD_CLAIMS + HALLUCINATED), assessment, snippets)
                if answer.status is AnswerStatus.ANSWERED:
                    self.assertTrue(assessment.is_sufficient and answer.claims)
                self.assertEqual(unsupported_claims(answer.claims, snippets), ())

    def test_bad_arguments(self) -> None:
        with self.assertRaises(InvalidInputError):
            LLMSynthesizer(ScriptedLLM([GARBAGE])).synthesize(QUESTION, fixture_plan(), TWO_HOP, "assessment")
        with self.assertRaises(InvalidInputError):
            LLMSynthesizer(ScriptedLLM([GARBAGE]), policy="strict")


if __name__ == "__main__":
    unittest.main()
