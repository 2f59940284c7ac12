"""The judge's verdict on the evidence: sufficiency, coverage, conflicts and feedback."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from agentic_rag._contracts.evidence import Claim
from agentic_rag._contracts.serialization import JsonContract
from agentic_rag._contracts.validation import instance_tuple, require_enum, require_fraction, require_text, text_tuple
from agentic_rag._errors import InvalidInputError

__all__ = [
    "AnswerabilityLabel",
    "ConflictEvidence",
    "ConflictGroup",
    "ContextAssessment",
    "FactSupport",
    "FeedbackQuery",
    "SufficiencyStatus",
]


class SufficiencyStatus(str, enum.Enum):
    """Whether the context is enough to answer (the Sufficient Context autorater's verdict)."""

    SUFFICIENT = "sufficient"
    INSUFFICIENT = "insufficient"


class AnswerabilityLabel(str, enum.Enum):
    """A finer label than sufficient/insufficient, mapped to an answer status by a policy."""

    SUFFICIENT = "sufficient"
    USEFUL_BUT_INCOMPLETE = "useful_but_incomplete"
    INSUFFICIENT = "insufficient"
    CONFLICTING = "conflicting"
    UNANSWERABLE = "unanswerable"


@dataclass(frozen=True, slots=True)
class ConflictGroup(JsonContract):
    """One side of a conflict: a value and the snippets that state it.

    Args:
        value: The conflicting value (for example ``"1998"``).
        snippet_ids: Snippets carrying that value.
    """

    value: str
    snippet_ids: tuple[str, ...]

    def __post_init__(self) -> None:
        require_text(self.value, "ConflictGroup.value")
        ids = text_tuple(self.snippet_ids, "ConflictGroup.snippet_ids")
        if not ids:
            raise InvalidInputError(f"ConflictGroup {self.value!r} must cite at least one snippet", stage="contracts")
        object.__setattr__(self, "snippet_ids", ids)


@dataclass(frozen=True, slots=True)
class ConflictEvidence(JsonContract):
    """Incompatible evidence for one fact: two or more groups, each with its snippets.

    Args:
        fact_id: The fact the snippets disagree on.
        groups: At least two sides, each with its supporting snippet ids.
    """

    fact_id: str
    groups: tuple[ConflictGroup, ...]

    def __post_init__(self) -> None:
        require_text(self.fact_id, "ConflictEvidence.fact_id")
        groups = instance_tuple(self.groups, ConflictGroup, "ConflictEvidence.groups")
        if len(groups) < 2:
            raise InvalidInputError(f"a conflict on {self.fact_id!r} needs at least two groups, got {len(groups)}", stage="contracts")
        object.__setattr__(self, "groups", groups)


@dataclass(frozen=True, slots=True)
class FeedbackQuery(JsonContract):
    """A follow-up query the judge asks for, to find a missing fact.

    Args:
        fact_id: The missing fact.
        text: The query to run.
        reason: Why (what was missing, which bridge entity it uses).
        corpus_ids: Corpora to search (empty: let the rewriter route it).
        parent_id: The subquery whose results this follows up.
    """

    fact_id: str
    text: str
    reason: str = ""
    corpus_ids: tuple[str, ...] = ()
    parent_id: str | None = None

    def __post_init__(self) -> None:
        require_text(self.fact_id, "FeedbackQuery.fact_id")
        require_text(self.text, "FeedbackQuery.text")
        object.__setattr__(self, "corpus_ids", text_tuple(self.corpus_ids, "FeedbackQuery.corpus_ids"))


@dataclass(frozen=True, slots=True)
class FactSupport(JsonContract):
    """The snippets the judge found best for one fact, covered or not.

    Args:
        fact_id: The fact.
        snippet_ids: The supporting snippets, in chain order (a bridged fact has two).
        coverage: The share of the fact those snippets cover, in [0, 1].
    """

    fact_id: str
    snippet_ids: tuple[str, ...]
    coverage: float

    def __post_init__(self) -> None:
        require_text(self.fact_id, "FactSupport.fact_id")
        object.__setattr__(self, "snippet_ids", text_tuple(self.snippet_ids, "FactSupport.snippet_ids"))
        object.__setattr__(self, "coverage", require_fraction(self.coverage, "FactSupport.coverage", stage="judge"))


@dataclass(frozen=True, slots=True)
class ContextAssessment(JsonContract):
    """The judge's verdict on the evidence gathered so far.

    Args:
        status: Sufficient or insufficient.
        sufficiency_score: Weighted fact coverage in [0, 1].
        covered_fact_ids: Facts the evidence covers.
        missing_fact_ids: Facts it does not.
        unsupported_claims: Draft claims whose citations do not hold.
        conflicts: Facts on which snippets disagree.
        feedback_queries: Follow-up queries for the missing facts.
        label: The answerability label.
        rationale: A short human-readable explanation.
        support: Per fact, the snippets that best support it (also for missing facts).

    Raises:
        InvalidInputError: Score outside [0, 1], a fact both covered and missing, or a
            SUFFICIENT status without the SUFFICIENT label. (A SUFFICIENT status may still
            list missing SHOULD/MAY facts: only MUST facts gate sufficiency, and the
            contract does not know priorities.)
    """

    status: SufficiencyStatus
    sufficiency_score: float
    covered_fact_ids: tuple[str, ...] = ()
    missing_fact_ids: tuple[str, ...] = ()
    unsupported_claims: tuple[Claim, ...] = ()
    conflicts: tuple[ConflictEvidence, ...] = ()
    feedback_queries: tuple[FeedbackQuery, ...] = ()
    label: AnswerabilityLabel = AnswerabilityLabel.INSUFFICIENT
    rationale: str = ""
    support: tuple[FactSupport, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", require_enum(SufficiencyStatus, self.status, "ContextAssessment.status", stage="judge"))
        object.__setattr__(self, "label", require_enum(AnswerabilityLabel, self.label, "ContextAssessment.label", stage="judge"))
        object.__setattr__(self, "sufficiency_score", require_fraction(self.sufficiency_score, "ContextAssessment.sufficiency_score", stage="judge"))
        covered = text_tuple(self.covered_fact_ids, "ContextAssessment.covered_fact_ids")
        missing = text_tuple(self.missing_fact_ids, "ContextAssessment.missing_fact_ids")
        both = sorted(set(covered) & set(missing))
        if both:
            raise InvalidInputError(f"facts {both} are both covered and missing", stage="judge")
        if self.status is SufficiencyStatus.SUFFICIENT and self.label is not AnswerabilityLabel.SUFFICIENT:
            raise InvalidInputError(f"a SUFFICIENT status needs the SUFFICIENT label, got {self.label.value!r}", stage="judge")
        object.__setattr__(self, "covered_fact_ids", covered)
        object.__setattr__(self, "missing_fact_ids", missing)
        object.__setattr__(self, "unsupported_claims", instance_tuple(self.unsupported_claims, Claim, "ContextAssessment.unsupported_claims", stage="judge"))
        object.__setattr__(self, "conflicts", instance_tuple(self.conflicts, ConflictEvidence, "ContextAssessment.conflicts", stage="judge"))
        object.__setattr__(self, "feedback_queries", instance_tuple(self.feedback_queries, FeedbackQuery, "ContextAssessment.feedback_queries", stage="judge"))
        object.__setattr__(self, "support", instance_tuple(self.support, FactSupport, "ContextAssessment.support", stage="judge"))

    @property
    def is_sufficient(self) -> bool:
        """True when the judge found the context sufficient."""
        return self.status is SufficiencyStatus.SUFFICIENT
