"""Selective abstention: how an answerability label becomes an answer status."""

from __future__ import annotations

from dataclasses import dataclass

from agentic_rag._contracts import AnswerabilityLabel, AnswerStatus, ContextAssessment
from agentic_rag._errors import InvalidInputError

__all__ = ["AbstentionPolicy"]


@dataclass(frozen=True, slots=True)
class AbstentionPolicy:
    """Maps each :class:`AnswerabilityLabel` to an :class:`AnswerStatus`.

    The default answers only on SUFFICIENT, gives a PARTIAL answer (with the missing facts or
    both sides of a conflict) on USEFUL_BUT_INCOMPLETE and CONFLICTING, and abstains on
    INSUFFICIENT and UNANSWERABLE. No mapping may turn a non-sufficient label into ANSWERED:
    the status must never claim more than the evidence supports.

    Args:
        useful_but_incomplete: Status for evidence that covers some facts.
        conflicting: Status for evidence that disagrees with itself.
        insufficient: Status for evidence that covers no fact.

    Raises:
        InvalidInputError: A non-sufficient label mapped to ANSWERED.
    """

    useful_but_incomplete: AnswerStatus = AnswerStatus.PARTIAL
    conflicting: AnswerStatus = AnswerStatus.PARTIAL
    insufficient: AnswerStatus = AnswerStatus.UNANSWERABLE

    def __post_init__(self) -> None:
        for name in ("useful_but_incomplete", "conflicting", "insufficient"):
            status = AnswerStatus(getattr(self, name))
            if status is AnswerStatus.ANSWERED:
                raise InvalidInputError(f"{name} cannot map to ANSWERED; only SUFFICIENT evidence answers", stage="policy")
            object.__setattr__(self, name, status)

    def verdict(self, assessment: ContextAssessment) -> AnswerStatus:
        """The most an answer may claim after ``assessment``: ANSWERED only when it is
        sufficient, else the status its label maps to (never ANSWERED)."""
        status = self.status_for(assessment.label)
        if not assessment.is_sufficient and status is AnswerStatus.ANSWERED:
            return AnswerStatus.PARTIAL
        return status

    def status_for(self, label: AnswerabilityLabel) -> AnswerStatus:
        """Return the answer status for ``label``."""
        label = AnswerabilityLabel(label)
        if label is AnswerabilityLabel.SUFFICIENT:
            return AnswerStatus.ANSWERED
        if label is AnswerabilityLabel.USEFUL_BUT_INCOMPLETE:
            return self.useful_but_incomplete
        if label is AnswerabilityLabel.CONFLICTING:
            return self.conflicting
        if label is AnswerabilityLabel.INSUFFICIENT:
            return self.insufficient
        return AnswerStatus.UNANSWERABLE
