"""What a run returns: the grounded answer, the per-iteration trace and usage counters."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from agentic_rag._contracts.assessment import ConflictEvidence, ContextAssessment
from agentic_rag._contracts.corpus import RequiredFact, RetrievalPlan
from agentic_rag._contracts.evidence import Claim, DraftAnswer, Snippet, Subquery
from agentic_rag._contracts.serialization import JsonContract
from agentic_rag._contracts.status import AnswerStatus
from agentic_rag._contracts.verification import ClaimReview
from agentic_rag._contracts.validation import instance_tuple, require_enum, require_fraction, require_int, require_number, require_text
from agentic_rag._errors import InvalidInputError

__all__ = ["GroundedAnswer", "IterationTrace", "RunResult", "StopReason", "Usage"]


class StopReason(str, enum.Enum):
    """Why the iterative loop ended."""

    SUFFICIENT = "sufficient"
    CONFLICT = "conflict"
    MAX_ITERATIONS = "max_iterations"
    NO_PROGRESS = "no_progress"
    NO_QUERIES = "no_queries"
    DEADLINE = "deadline"
    MAX_SNIPPETS = "max_snippets"
    CALL_BUDGET = "call_budget"
    TOKEN_BUDGET = "token_budget"
    #: The judge found the evidence sufficient, but the claims do not earn ``answered`` (no
    #: claim states what a part asks for): the status was lowered after the loop.
    UNEARNED = "unearned"
    #: The judge found that no corpus can answer the question (a false premise, or information
    #: that cannot exist): more searching would not change that.
    UNANSWERABLE = "unanswerable"


@dataclass(frozen=True, slots=True)
class GroundedAnswer(JsonContract):
    """The final answer: text, cited claims, status and what is still missing.

    Args:
        text: The answer text.
        claims: Claims, each with citations into retrieved snippets.
        status: Answered, partial or unanswerable.
        missing_facts: Required facts the evidence did not cover.
        final_score: The last assessment's sufficiency score.
        conflicts: Disagreements surfaced with citations for each side.
        iterations: How many retrieval iterations ran.
        reviews: The claims the check doubted or refused: each dropped claim with its reason,
            and each doubted claim a verifier vouched for.
    """

    text: str
    claims: tuple[Claim, ...]
    status: AnswerStatus
    missing_facts: tuple[RequiredFact, ...] = ()
    final_score: float = 0.0
    conflicts: tuple[ConflictEvidence, ...] = ()
    iterations: int = 0
    reviews: tuple[ClaimReview, ...] = ()

    def __post_init__(self) -> None:
        require_text(self.text, "GroundedAnswer.text", allow_empty=True)
        object.__setattr__(self, "claims", instance_tuple(self.claims, Claim, "GroundedAnswer.claims"))
        object.__setattr__(self, "status", require_enum(AnswerStatus, self.status, "GroundedAnswer.status"))
        object.__setattr__(self, "missing_facts", instance_tuple(self.missing_facts, RequiredFact, "GroundedAnswer.missing_facts"))
        object.__setattr__(self, "final_score", require_fraction(self.final_score, "GroundedAnswer.final_score"))
        object.__setattr__(self, "conflicts", instance_tuple(self.conflicts, ConflictEvidence, "GroundedAnswer.conflicts"))
        require_int(self.iterations, "GroundedAnswer.iterations", minimum=0)
        object.__setattr__(self, "reviews", instance_tuple(self.reviews, ClaimReview, "GroundedAnswer.reviews"))


@dataclass(frozen=True, slots=True)
class IterationTrace(JsonContract):
    """One round of the loop: what was asked, what was new, the draft and the verdict.

    Args:
        iteration: The round number, from 1.
        subqueries: Subqueries issued this round.
        new_snippets: Snippets first seen this round.
        draft: The draft built on all evidence so far.
        assessment: The judge's verdict on it.
    """

    iteration: int
    subqueries: tuple[Subquery, ...]
    new_snippets: tuple[Snippet, ...]
    draft: DraftAnswer
    assessment: ContextAssessment

    def __post_init__(self) -> None:
        require_int(self.iteration, "IterationTrace.iteration", minimum=1)
        object.__setattr__(self, "subqueries", instance_tuple(self.subqueries, Subquery, "IterationTrace.subqueries"))
        object.__setattr__(self, "new_snippets", instance_tuple(self.new_snippets, Snippet, "IterationTrace.new_snippets"))
        _require_instance(self.draft, DraftAnswer, "IterationTrace.draft")
        _require_instance(self.assessment, ContextAssessment, "IterationTrace.assessment")


@dataclass(frozen=True, slots=True)
class Usage(JsonContract):
    """Counters of what a run spent.

    Args:
        retriever_calls: Calls to the retriever.
        subqueries: Subqueries issued.
        llm_calls: Model calls charged by LLM-backed components.
        prompt_tokens: Prompt tokens charged.
        completion_tokens: Completion tokens charged.
        elapsed_s: Wall-clock seconds of the run.
    """

    retriever_calls: int = 0
    subqueries: int = 0
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    elapsed_s: float = 0.0

    def __post_init__(self) -> None:
        for name in ("retriever_calls", "subqueries", "llm_calls", "prompt_tokens", "completion_tokens"):
            require_int(getattr(self, name), f"Usage.{name}", minimum=0)
        object.__setattr__(self, "elapsed_s", require_number(self.elapsed_s, "Usage.elapsed_s", minimum=0))


@dataclass(frozen=True, slots=True)
class RunResult(JsonContract):
    """Everything a run produced, enough to audit question -> facts -> snippets -> citations.

    Args:
        question: The question asked.
        plan: The (last) retrieval plan.
        answer: The grounded answer.
        iterations: One trace per iteration, in order.
        snippets: All distinct snippets retrieved, as the final evidence ranking: those the
            answer cites first (in claim order), then those the judge found best for each
            fact, then the rest by reciprocal-rank credit over every subquery that found them;
            with ``OrchestratorConfig.rank_chains`` on a question with a dependent fact, that
            order fused with the chain order (a passage and the passage its bridge leads to).
        stop_reason: Why the loop ended.
        usage: Spend counters.
    """

    question: str
    plan: RetrievalPlan
    answer: GroundedAnswer
    iterations: tuple[IterationTrace, ...]
    snippets: tuple[Snippet, ...]
    stop_reason: StopReason
    usage: Usage = field(default_factory=Usage)

    def __post_init__(self) -> None:
        require_text(self.question, "RunResult.question")
        _require_instance(self.plan, RetrievalPlan, "RunResult.plan")
        _require_instance(self.answer, GroundedAnswer, "RunResult.answer")
        object.__setattr__(self, "iterations", instance_tuple(self.iterations, IterationTrace, "RunResult.iterations"))
        object.__setattr__(self, "snippets", instance_tuple(self.snippets, Snippet, "RunResult.snippets"))
        object.__setattr__(self, "stop_reason", require_enum(StopReason, self.stop_reason, "RunResult.stop_reason"))
        _require_instance(self.usage, Usage, "RunResult.usage")


def _require_instance(value: object, cls: type, field: str) -> None:
    if not isinstance(value, cls):
        raise InvalidInputError(f"{field} must be {cls.__name__}, got {type(value).__name__} {value!r}", stage="contracts")
