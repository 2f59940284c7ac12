"""Each LLM-backed role asks for no more tokens than its schema needs."""

from __future__ import annotations

import unittest

from agentic_rag._errors import StructuredOutputError
from agentic_rag.llm import HttpOptions, Message, OpenAICompatibleLLM
from agentic_rag.llm.components import (
    LLMDrafter,
    LLMGenerator,
    LLMHyDEWriter,
    LLMPlanner,
    LLMQueryRewriter,
    LLMQueryViewRewriter,
    LLMSufficiencyJudge,
    LLMSynthesizer,
)
from agentic_rag.llm.components.fallback import ROLE_MAX_TOKENS
from agentic_rag.llm.schemas import LLMRole
from agentic_rag.testing import OpenAICompatibleServer

COMPONENTS = (
    (LLMPlanner, LLMRole.PLANNER),
    (LLMQueryRewriter, LLMRole.QUERY_REWRITER),
    (LLMQueryViewRewriter, LLMRole.QUERY_REWRITER),
    (LLMHyDEWriter, LLMRole.HYDE),
    (LLMSufficiencyJudge, LLMRole.SUFFICIENCY_JUDGE),
    (LLMDrafter, LLMRole.DRAFTER),
    (LLMSynthesizer, LLMRole.SYNTHESIZER),
    (LLMGenerator, LLMRole.SYNTHESIZER),
)


class RoleMaxTokensTest(unittest.TestCase):
    def test_every_role_has_a_tight_default(self) -> None:
        self.assertEqual(set(ROLE_MAX_TOKENS), set(LLMRole))
        for role, cap in ROLE_MAX_TOKENS.items():
            with self.subTest(role=role):
                self.assertLessEqual(cap, 512)
        # A verdict is shorter than an answer.
        self.assertLess(ROLE_MAX_TOKENS[LLMRole.SUFFICIENCY_JUDGE], ROLE_MAX_TOKENS[LLMRole.SYNTHESIZER])

    def test_each_component_sends_its_roles_cap(self) -> None:
        for component_type, role in COMPONENTS:
            with self.subTest(component=component_type.__name__):
                with OpenAICompatibleServer(["not JSON"]) as server:
                    component = component_type(OpenAICompatibleLLM(server.url, "m", http=HttpOptions(sleep=lambda _s: None)))
                    with self.assertRaises(StructuredOutputError):
                        component.ask([Message.user("q")])
                    sent = [r.json()["max_tokens"] for r in server.requests]
                self.assertEqual(sent, [ROLE_MAX_TOKENS[role]] * 2)  # the call and its repair round

    def test_an_explicit_cap_wins(self) -> None:
        self.assertEqual(LLMSufficiencyJudge(OpenAICompatibleLLM("http://127.0.0.1:9/v1", "m"), max_tokens=99).max_tokens, 99)


if __name__ == "__main__":
    unittest.main()
