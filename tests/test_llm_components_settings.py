"""One settings object for every LLM role, keyword options as overrides, one evidence window."""

from __future__ import annotations

import json
import unittest

from agentic_rag._contracts import DraftAnswer
from agentic_rag._errors import InvalidInputError
from agentic_rag._retrieval.function_retriever import FunctionRetriever
from agentic_rag.llm import ScriptedLLM
from agentic_rag.llm.components import (
    LLMDrafter,
    LLMGenerator,
    LLMHyDEWriter,
    LLMPlanner,
    LLMQueryRewriter,
    LLMQueryViewRewriter,
    LLMSufficiencyJudge,
    LLMSynthesizer,
    RoleSettings,
    llm_orchestrator,
)
from agentic_rag.llm.components.evidence_window import EvidenceWindow
from agentic_rag.llm.components.fallback import ROLE_MAX_TOKENS
from agentic_rag.testing.contracts.fixtures import QUESTION, fixture_plan, fixture_snippet

ROLES = (LLMPlanner, LLMQueryRewriter, LLMQueryViewRewriter, LLMHyDEWriter, LLMSufficiencyJudge, LLMDrafter, LLMSynthesizer, LLMGenerator)
EVIDENCE_ROLES = (LLMSufficiencyJudge, LLMDrafter, LLMSynthesizer)
SNIPPETS = (fixture_snippet("zeta-labs", 3), fixture_snippet("ann-vale", 2))


class RoleSettingsTest(unittest.TestCase):
    def test_defaults(self) -> None:
        settings = RoleSettings()
        self.assertEqual((settings.repair_rounds, settings.temperature, settings.max_tokens), (1, 0.0, None))
        self.assertEqual((settings.max_snippets, settings.max_snippet_chars), (None, 1500))

    def test_bad_values_are_refused(self) -> None:
        for bad in ({"repair_rounds": -1}, {"repair_rounds": True}, {"temperature": 3}, {"max_tokens": 0},
                    {"max_snippets": 0}, {"max_snippet_chars": 0}, {"max_snippet_chars": "all"}):
            with self.subTest(bad=bad), self.assertRaises(InvalidInputError):
                RoleSettings(**bad)

    def test_one_settings_object_configures_every_role(self) -> None:
        settings = RoleSettings(repair_rounds=2, temperature=0.5)
        for role_type in ROLES:
            with self.subTest(component=role_type.__name__):
                component = role_type(ScriptedLLM([]), settings=settings)
                self.assertEqual((component.repair_rounds, component.temperature), (2, 0.5))
                self.assertEqual(component.max_tokens, ROLE_MAX_TOKENS[component.role])  # unset: the role's cap

    def test_a_keyword_overrides_the_settings_for_that_component_only(self) -> None:
        settings = RoleSettings(max_snippets=3, max_tokens=50)
        judge = LLMSufficiencyJudge(ScriptedLLM([]), settings=settings, max_snippets=5)
        self.assertEqual((judge.window.max_snippets, judge.max_tokens), (5, 50))
        self.assertEqual(settings.max_snippets, 3)
        self.assertEqual(LLMDrafter(ScriptedLLM([]), settings=settings).window.max_snippets, 3)

    def test_a_keyword_a_component_does_not_take_is_refused(self) -> None:
        with self.assertRaisesRegex(InvalidInputError, "max_snippets"):
            LLMPlanner(ScriptedLLM([]), max_snippets=3)
        with self.assertRaisesRegex(InvalidInputError, "max_documents"):
            LLMGenerator(ScriptedLLM([]), max_snippets=3)  # the generator names it max_documents
        with self.assertRaises(InvalidInputError):
            LLMDrafter(ScriptedLLM([]), settings={"repair_rounds": 2})

    def test_the_generator_shows_ten_documents_unless_told(self) -> None:
        self.assertEqual(LLMGenerator(ScriptedLLM([])).window, EvidenceWindow(10, 1500))
        self.assertEqual(LLMGenerator(ScriptedLLM([]), max_documents=3, max_document_chars=None).window, EvidenceWindow(3, None))
        for role_type in EVIDENCE_ROLES:
            with self.subTest(component=role_type.__name__):
                self.assertEqual(role_type(ScriptedLLM([])).window, EvidenceWindow(12, 1500))

    def test_llm_orchestrator_passes_the_settings_to_every_component(self) -> None:
        settings = RoleSettings(repair_rounds=0)
        orchestrator = llm_orchestrator(ScriptedLLM([]), retriever=FunctionRetriever(lambda q, k, corpus_ids=None: ()), settings=settings)
        for component in (orchestrator.planner, orchestrator.rewriter, orchestrator.drafter, orchestrator.judge, orchestrator.synthesizer):
            with self.subTest(component=type(component).__name__):
                self.assertIs(component.settings, settings)
                self.assertEqual(component.repair_rounds, 0)


class EvidenceWindowTest(unittest.TestCase):
    def test_first_snippets_in_order_or_by_id(self) -> None:
        window = EvidenceWindow(1, None)
        self.assertEqual(window.shown(SNIPPETS), SNIPPETS[:1])
        ids = [s.id for s in EvidenceWindow(2, None).shown(SNIPPETS, canonical=True)]
        self.assertEqual(ids, sorted(s.id for s in SNIPPETS))

    def test_limits_are_checked(self) -> None:
        for bad in ((0, None), (1, 0), (1.5, None)):
            with self.subTest(bad=bad), self.assertRaises(InvalidInputError):
                EvidenceWindow(*bad)

    def test_the_judge_prompt_shows_the_window(self) -> None:
        verdict = {"label": "insufficient", "status": "insufficient", "covered_fact_ids": [], "rationale": "",
                   "missing_facts": [{"fact_id": f.id, "what_is_missing": "x", "follow_up_query": "x"} for f in fixture_plan().facts],
                   "conflicts": []}
        llm = ScriptedLLM([json.dumps(verdict)])
        LLMSufficiencyJudge(llm, settings=RoleSettings(max_snippets=1, max_snippet_chars=20)).assess(QUESTION, fixture_plan(), SNIPPETS, DraftAnswer(""))
        prompt = llm.calls[0].messages[-1].content
        self.assertEqual(prompt.count("<untrusted_document "), 1)
        self.assertIn("[truncated]", prompt)


if __name__ == "__main__":
    unittest.main()
