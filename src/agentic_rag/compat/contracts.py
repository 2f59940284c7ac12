"""The earlier scaffold's contracts (``agentic_rag.contracts``), in their old shapes.

Names and fields the modern contracts kept are the modern classes themselves (``Corpus``,
``RequiredFact``, ``AnswerStatus``, ``AnswerabilityLabel``); ``Snippet`` is the modern snippet
with the scaffold's ``span``. The rest are small frozen records in the scaffold's shapes
(``GroundedAnswer.answer``, ``Route.candidate_corpus_ids``, ``Claim.snippet_ids``...);
:mod:`agentic_rag.compat._convert` translates them to and from the modern contracts, which
are what the engine runs on.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from agentic_rag._contracts import AnswerabilityLabel, AnswerStatus, Corpus, RequiredFact
from agentic_rag._contracts import Snippet as _CoreSnippet
from agentic_rag._contracts.serialization import JsonContract
from agentic_rag._contracts.validation import instance_tuple, require_enum, require_fraction, require_int, require_text, text_tuple
from agentic_rag.compat._plan_contracts import RetrievalPlan, Route, Snippet, Subquery

__all__ = [
    "AnswerStatus",
    "AnswerabilityLabel",
    "Claim",
    "ConflictEvidence",
    "ConflictingEvidenceGroup",
    "ContextAssessment",
    "ContextStatus",
    "Corpus",
    "CorpusDescriptor",
    "CoveredFact",
    "DraftAnswer",
    "FeedbackQuery",
    "GroundedAnswer",
    "GroundedCitation",
    "IterationTrace",
    "QueryRewriteResult",
    "RequiredFact",
    "RetrievalPlan",
    "Route",
    "RunResult",
    "Snippet",
    "Subquery",
]

#: The scaffold's name for a corpus and its routing description.
CorpusDescriptor = Corpus

_STAGE = "compat"


class ContextStatus(str, enum.Enum):
    """The scaffold's three-way verdict; the modern status has two values and puts
    "unanswerable" in the answerability label."""

    SUFFICIENT = "sufficient"
    INSUFFICIENT = "insufficient"
    UNANSWERABLE = "unanswerable"


def _ids(value: object, field: str) -> tuple[str, ...]:
    return text_tuple(value, field, stage=_STAGE)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Claim(JsonContract):
    """A draft statement and the ids of the snippets it rests on."""

    text: str
    snippet_ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        require_text(self.text, "Claim.text", stage=_STAGE)
        object.__setattr__(self, "snippet_ids", _ids(self.snippet_ids, "Claim.snippet_ids"))


@dataclass(frozen=True, slots=True)
class DraftAnswer(JsonContract):
    """An intermediate draft: its claims (and optionally its text)."""

    claims: tuple[Claim, ...] = ()
    text: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "claims", instance_tuple(self.claims, Claim, "DraftAnswer.claims", stage=_STAGE))
        require_text(self.text, "DraftAnswer.text", stage=_STAGE, allow_empty=True)


@dataclass(frozen=True, slots=True)
class CoveredFact(JsonContract):
    """A fact the evidence covers, with the snippets that cover it."""

    fact_id: str
    snippet_ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        require_text(self.fact_id, "CoveredFact.fact_id", stage=_STAGE)
        object.__setattr__(self, "snippet_ids", _ids(self.snippet_ids, "CoveredFact.snippet_ids"))


@dataclass(frozen=True, slots=True)
class ConflictingEvidenceGroup(JsonContract):
    """One side of a conflict: a label, its snippets and the value they state."""

    label: str
    snippet_ids: tuple[str, ...]
    value: str = ""

    def __post_init__(self) -> None:
        require_text(self.label, "ConflictingEvidenceGroup.label", stage=_STAGE)
        object.__setattr__(self, "snippet_ids", _ids(self.snippet_ids, "ConflictingEvidenceGroup.snippet_ids"))
        require_text(self.value, "ConflictingEvidenceGroup.value", stage=_STAGE, allow_empty=True)


@dataclass(frozen=True, slots=True)
class ConflictEvidence(JsonContract):
    """Incompatible evidence for one fact."""

    fact_id: str
    groups: tuple[ConflictingEvidenceGroup, ...]
    reason: str = ""

    def __post_init__(self) -> None:
        require_text(self.fact_id, "ConflictEvidence.fact_id", stage=_STAGE)
        object.__setattr__(self, "groups", instance_tuple(self.groups, ConflictingEvidenceGroup, "ConflictEvidence.groups", stage=_STAGE))
        require_text(self.reason, "ConflictEvidence.reason", stage=_STAGE, allow_empty=True)


@dataclass(frozen=True, slots=True)
class FeedbackQuery(JsonContract):
    """A follow-up query the judge asks for."""

    query: str
    target_corpus_ids: tuple[str, ...] = ()
    reason: str = ""
    fact_id: str = ""

    def __post_init__(self) -> None:
        require_text(self.query, "FeedbackQuery.query", stage=_STAGE)
        object.__setattr__(self, "target_corpus_ids", _ids(self.target_corpus_ids, "FeedbackQuery.target_corpus_ids"))
        require_text(self.fact_id, "FeedbackQuery.fact_id", stage=_STAGE, allow_empty=True)


_STATUS_LABEL = {
    ContextStatus.SUFFICIENT: AnswerabilityLabel.SUFFICIENT,
    ContextStatus.INSUFFICIENT: AnswerabilityLabel.INSUFFICIENT,
    ContextStatus.UNANSWERABLE: AnswerabilityLabel.UNANSWERABLE,
}


@dataclass(frozen=True, slots=True)
class ContextAssessment(JsonContract):
    """The judge's verdict in the scaffold's shape.

    Args:
        status: Sufficient, insufficient or unanswerable.
        sufficiency_score: Share of required facts covered, in [0, 1].
        covered_facts: Covered facts with their snippets.
        missing_facts: Descriptions of the facts not covered.
        unsupported_claims: Draft claims whose snippets do not hold.
        conflicts: Facts on which snippets disagree.
        feedback_queries: Follow-up queries for the missing facts.
        reason: A short explanation.
        answerability: An explicit label (a member or its string); ``None`` derives it from
            ``status``.

    Raises:
        InvalidInputError: (a ``ValueError``) an unknown status or label, a score outside [0, 1].
    """

    status: ContextStatus
    sufficiency_score: float
    covered_facts: tuple[CoveredFact, ...] = ()
    missing_facts: tuple[str, ...] = ()
    unsupported_claims: tuple[str, ...] = ()
    conflicts: tuple[ConflictEvidence, ...] = ()
    feedback_queries: tuple[FeedbackQuery, ...] = ()
    reason: str = ""
    answerability: AnswerabilityLabel | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", require_enum(ContextStatus, self.status, "ContextAssessment.status", stage=_STAGE))
        object.__setattr__(self, "sufficiency_score", require_fraction(self.sufficiency_score, "ContextAssessment.sufficiency_score", stage=_STAGE))
        object.__setattr__(self, "covered_facts", instance_tuple(self.covered_facts, CoveredFact, "ContextAssessment.covered_facts", stage=_STAGE))
        object.__setattr__(self, "missing_facts", _ids(self.missing_facts, "ContextAssessment.missing_facts"))
        object.__setattr__(self, "unsupported_claims", _ids(self.unsupported_claims, "ContextAssessment.unsupported_claims"))
        object.__setattr__(self, "conflicts", instance_tuple(self.conflicts, ConflictEvidence, "ContextAssessment.conflicts", stage=_STAGE))
        object.__setattr__(self, "feedback_queries", instance_tuple(self.feedback_queries, FeedbackQuery, "ContextAssessment.feedback_queries", stage=_STAGE))
        require_text(self.reason, "ContextAssessment.reason", stage=_STAGE, allow_empty=True)
        if self.answerability is not None:
            object.__setattr__(self, "answerability", require_enum(AnswerabilityLabel, self.answerability, "ContextAssessment.answerability", stage=_STAGE))

    @property
    def answerability_label(self) -> AnswerabilityLabel:
        """The explicit label, or the one ``status`` implies."""
        return self.answerability if self.answerability is not None else _STATUS_LABEL[self.status]

    @property
    def confidence(self) -> float:
        """The scaffold's alias of :attr:`sufficiency_score`."""
        return self.sufficiency_score


@dataclass(frozen=True, slots=True)
class GroundedCitation(JsonContract):
    """A claim (or a fact id) and the snippets that support it."""

    claim: str
    snippet_ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        require_text(self.claim, "GroundedCitation.claim", stage=_STAGE)
        object.__setattr__(self, "snippet_ids", _ids(self.snippet_ids, "GroundedCitation.snippet_ids"))


@dataclass(frozen=True, slots=True)
class GroundedAnswer(JsonContract):
    """The final answer in the scaffold's shape (``answer`` is the text).

    Args:
        answer: The answer text.
        citations: Claims with the snippets that support them.
        status: Answered, partial or unanswerable.
        missing_facts: Descriptions of the facts not covered.
        sufficiency_score: The final assessment's score.
        conflicts: Conflicts surfaced with both sides cited.
        iterations: Retrieval iterations the run took (0 outside a run).
    """

    answer: str
    citations: tuple[GroundedCitation, ...]
    status: AnswerStatus
    missing_facts: tuple[str, ...] = ()
    sufficiency_score: float = 0.0
    conflicts: tuple[ConflictEvidence, ...] = ()
    iterations: int = 0

    def __post_init__(self) -> None:
        require_text(self.answer, "GroundedAnswer.answer", stage=_STAGE, allow_empty=True)
        object.__setattr__(self, "citations", instance_tuple(self.citations, GroundedCitation, "GroundedAnswer.citations", stage=_STAGE))
        object.__setattr__(self, "status", require_enum(AnswerStatus, self.status, "GroundedAnswer.status", stage=_STAGE))
        object.__setattr__(self, "missing_facts", _ids(self.missing_facts, "GroundedAnswer.missing_facts"))
        object.__setattr__(self, "sufficiency_score", require_fraction(self.sufficiency_score, "GroundedAnswer.sufficiency_score", stage=_STAGE))
        object.__setattr__(self, "conflicts", instance_tuple(self.conflicts, ConflictEvidence, "GroundedAnswer.conflicts", stage=_STAGE))
        require_int(self.iterations, "GroundedAnswer.iterations", minimum=0, stage=_STAGE)


@dataclass(frozen=True, slots=True)
class QueryRewriteResult(JsonContract):
    """A rewriter's structured output: the subqueries to run."""

    subqueries: tuple[Subquery, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "subqueries", instance_tuple(self.subqueries, Subquery, "QueryRewriteResult.subqueries", stage=_STAGE))


@dataclass(frozen=True, slots=True)
class IterationTrace(JsonContract):
    """One round of the loop: subqueries, the snippets they found, the draft and the verdict."""

    iteration: int
    subqueries: tuple[Subquery, ...]
    snippets: tuple[_CoreSnippet, ...]
    draft: DraftAnswer
    assessment: ContextAssessment

    def __post_init__(self) -> None:
        require_int(self.iteration, "IterationTrace.iteration", minimum=0, stage=_STAGE)
        object.__setattr__(self, "subqueries", instance_tuple(self.subqueries, Subquery, "IterationTrace.subqueries", stage=_STAGE))
        object.__setattr__(self, "snippets", instance_tuple(self.snippets, _CoreSnippet, "IterationTrace.snippets", stage=_STAGE))


@dataclass(frozen=True, slots=True)
class RunResult(JsonContract):
    """What a run produced, in the scaffold's shape.

    Args:
        question: The question.
        plan: The plan.
        answer: The grounded answer.
        iterations: One trace per iteration.
        snippets: Every distinct snippet retrieved.
        stop_reason: Why the loop ended (the modern ``StopReason`` value; ``""`` when unknown).
    """

    question: str
    plan: RetrievalPlan
    answer: GroundedAnswer
    iterations: tuple[IterationTrace, ...]
    snippets: tuple[_CoreSnippet, ...]
    stop_reason: str = ""

    def __post_init__(self) -> None:
        require_text(self.question, "RunResult.question", stage=_STAGE)
        object.__setattr__(self, "iterations", instance_tuple(self.iterations, IterationTrace, "RunResult.iterations", stage=_STAGE))
        object.__setattr__(self, "snippets", instance_tuple(self.snippets, _CoreSnippet, "RunResult.snippets", stage=_STAGE))
