"""Each LLM-backed role asks for no more tokens than its schema needs."""

from __future__ import annotations

import json
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
    def test_every_role_has_room_for_a_full_reply_and_no_more(self) -> None:
        # A reply a capable model writes at the sizes the prompts ask for must never be cut
        # short (issue 35: replies cut to two or three claims); a model that runs on is still
        # stopped well before a context's worth of tokens.
        self.assertEqual(set(ROLE_MAX_TOKENS), set(LLMRole))
        text = lambda n: "x" * n  # noqa: E731
        claim = {"text": text(200), "fact_id": "f1", "citations": [{"snippet": 3, "quote": text(200)}, {"snippet": 4, "quote": text(120)}]}
        full = {
            LLMRole.PLANNER: {"facts": [{"id": f"f{n}", "description": text(150), "priority": "must", "required_terms": [text(20)] * 3,
                                         "depends_on": [], "corpus_ids": ["docs"], "route_reason": text(100)} for n in range(5)], "rationale": text(400)},
            LLMRole.QUERY_REWRITER: {"queries": [{"fact_id": "f1", "text": text(90), "strategy": "paraphrase", "reason": text(90)} for _ in range(9)]},
            LLMRole.HYDE: {"hypothetical_document": text(1400)},
            LLMRole.SUFFICIENCY_JUDGE: {"rationale": text(1200), "status": "insufficient", "label": "useful_but_incomplete", "covered_fact_ids": ["f1", "f2", "f3"],
                                        "fact_documents": [{"fact_id": f"f{n}", "snippet_indices": [1, 2, 3]} for n in range(3)],
                                        "missing_facts": [{"fact_id": f"f{n}", "what_is_missing": text(200), "follow_up_query": text(120)} for n in range(3)], "conflicts": []},
            LLMRole.DRAFTER: {"answer": text(800), "claims": [claim] * 8},
            LLMRole.SYNTHESIZER: {"answer": text(1200), "claims": [claim] * 12, "status": "answered", "missing_fact_ids": []},
            LLMRole.CLAIM_VERIFIER: {"verdicts": [{"item": n, "verdict": "partly", "reason": text(200)} for n in range(1, 13)]},
        }
        for role, cap in ROLE_MAX_TOKENS.items():
            with self.subTest(role=role):
                # About four characters of English JSON a token; three, to be safe.
                self.assertLessEqual(len(json.dumps(full[role])) / 3, cap)
                self.assertLessEqual(cap, 4096)
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
