"""The label of an answer's outcome, on its own: the answering checks read and give it on
every search (a hit's relevance asks whether its lines earn an answer), which need none of
the result contracts around it."""

from __future__ import annotations

import enum

__all__ = ["AnswerStatus"]


class AnswerStatus(str, enum.Enum):
    """The honest outcome: a full answer, a partial one with missing facts, or none."""

    ANSWERED = "answered"
    PARTIAL = "partial"
    UNANSWERABLE = "unanswerable"
