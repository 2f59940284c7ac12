"""What the claim check reads and decides: a doubted claim, a verifier's verdict on it, and
the record an answer keeps of every claim that was doubted or dropped.

The lexical grounding check (:mod:`agentic_rag._answering.grounding`) can prove that a claim's
words are in its quotes, not that they say the same thing: "the collected values are passed
as a tuple" restates a quote in other words, and "None for no limits" holds a Python value,
not a denial. What it doubts, a verifier that reads meaning settles
(:class:`~agentic_rag._ports.ClaimVerifier`); what it refuses outright (a quote not at its
span, text addressed to a model) no verifier can restore.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from agentic_rag._contracts.serialization import JsonContract
from agentic_rag._contracts.validation import require_enum, require_text, text_tuple

__all__ = ["ClaimCheck", "ClaimJudgement", "ClaimReview", "ReviewOutcome", "SupportVerdict"]


class SupportVerdict(str, enum.Enum):
    """Whether a quote, read in its passage, states a claim."""

    #: It states the claim, in any words.
    YES = "yes"
    #: It states part of the claim and contradicts none of it.
    PARTLY = "partly"
    #: It does not state the claim, or states something else or the opposite.
    NO = "no"


class ReviewOutcome(str, enum.Enum):
    """What became of a claim the check looked at twice."""

    #: Doubted by the lexical check, kept on the verifier's word (yes or partly).
    KEPT = "kept"
    #: Removed from the answer.
    DROPPED = "dropped"


@dataclass(frozen=True, slots=True)
class ClaimCheck(JsonContract):
    """One claim the lexical check doubts, as a verifier reads it.

    Args:
        claim: The claim's text.
        quotes: The quoted spans its citations give (verbatim from the documents).
        passages: The cited passages (title and text), the context of the quotes.
        doubt: What the lexical check found ("the claim and its quote disagree on a negation").
    """

    claim: str
    quotes: tuple[str, ...]
    passages: tuple[str, ...]
    doubt: str

    def __post_init__(self) -> None:
        require_text(self.claim, "ClaimCheck.claim", stage="verifier")
        object.__setattr__(self, "quotes", text_tuple(self.quotes, "ClaimCheck.quotes", stage="verifier"))
        object.__setattr__(self, "passages", text_tuple(self.passages, "ClaimCheck.passages", stage="verifier"))
        require_text(self.doubt, "ClaimCheck.doubt", stage="verifier")


@dataclass(frozen=True, slots=True)
class ClaimJudgement(JsonContract):
    """A verifier's verdict on one :class:`ClaimCheck`.

    Args:
        verdict: Whether the quotes state the claim.
        reason: Why, in a few words ("" when none is given).
    """

    verdict: SupportVerdict
    reason: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "verdict", require_enum(SupportVerdict, self.verdict, "ClaimJudgement.verdict", stage="verifier"))
        require_text(self.reason, "ClaimJudgement.reason", allow_empty=True, stage="verifier")


@dataclass(frozen=True, slots=True)
class ClaimReview(JsonContract):
    """What the check did with one claim it doubted or refused.

    Args:
        claim: The claim's text.
        outcome: Kept (on the verifier's word) or dropped.
        reason: What the lexical check found, or why the citation did not hold.
        verdict: The verifier's verdict, when one was asked (``None`` otherwise).
        verifier_reason: The verifier's reason ("" when none).
    """

    claim: str
    outcome: ReviewOutcome
    reason: str
    verdict: SupportVerdict | None = None
    verifier_reason: str = ""

    def __post_init__(self) -> None:
        require_text(self.claim, "ClaimReview.claim", stage="verifier")
        object.__setattr__(self, "outcome", require_enum(ReviewOutcome, self.outcome, "ClaimReview.outcome", stage="verifier"))
        require_text(self.reason, "ClaimReview.reason", stage="verifier")
        if self.verdict is not None:
            object.__setattr__(self, "verdict", require_enum(SupportVerdict, self.verdict, "ClaimReview.verdict", stage="verifier"))
        require_text(self.verifier_reason, "ClaimReview.verifier_reason", allow_empty=True, stage="verifier")
