"""Shared by the earned-check tests: the status a single claim earns, and assertions on it."""

from __future__ import annotations

import unittest

from agentic_rag._answering.earned import ClaimContext, earned_verdict
from agentic_rag._contracts import AnswerStatus
from agentic_rag._text.relevance import RelevanceModel


def claim_status(question: str, heading: str, text: str, passage: str = "") -> AnswerStatus:
    """The status ``earned_verdict`` gives ``question`` for one claim under ``heading``."""
    return earned_verdict(question, [ClaimContext(heading, text, passage or text)], RelevanceModel()).status


class VerdictCase(unittest.TestCase):
    """A test case with assertions on whether one claim earns ``answered``."""

    def assertNotAnswered(self, question: str, heading: str, text: str, passage: str = "") -> None:
        self.assertIsNot(claim_status(question, heading, text, passage), AnswerStatus.ANSWERED, text)

    def assertAnswered(self, question: str, heading: str, text: str, passage: str = "") -> None:
        self.assertIs(claim_status(question, heading, text, passage), AnswerStatus.ANSWERED, text)
