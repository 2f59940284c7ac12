"""The ports: one ``typing.Protocol`` per role, each with one primitive method.

Both workflows depend on these, never on a concrete class, so a deterministic component, an
LLM-backed one or a provider adapter can stand in any slot. Conveniences (batching, fan-out,
routing) are written once on top of the primitive, not per implementation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from agentic_rag._contracts import (
    ClaimCheck,
    ClaimJudgement,
    ContextAssessment,
    Corpus,
    DraftAnswer,
    FeedbackQuery,
    GroundedAnswer,
    RetrievalPlan,
    Snippet,
    Subquery,
)

__all__ = ["ClaimVerifier", "Drafter", "Embedder", "Planner", "QueryRewriter", "Retriever", "SufficiencyJudge", "Synthesizer"]


@runtime_checkable
class Planner(Protocol):
    """Breaks a question into required facts and routes each to corpora."""

    def plan(self, question: str, corpora: Sequence[Corpus], prior: ContextAssessment | None = None) -> RetrievalPlan:
        """Return the retrieval plan; ``prior`` is the last assessment when re-planning."""
        ...


@runtime_checkable
class QueryRewriter(Protocol):
    """Turns plan routes (first round) or judge feedback (later rounds) into subqueries."""

    def rewrite(self, plan: RetrievalPlan, feedback: Sequence[FeedbackQuery], *, iteration: int) -> tuple[Subquery, ...]:
        """Return this iteration's subqueries, with lineage to the plan or the feedback."""
        ...


@runtime_checkable
class Retriever(Protocol):
    """Finds passages for a query text."""

    def retrieve(self, query: str, k: int, *, corpus_ids: Sequence[str] | None = None) -> tuple[Snippet, ...]:
        """Return at most ``k`` snippets best first (ties broken by id), optionally only from
        ``corpus_ids``. Lineage fields are left empty; the caller stamps them."""
        ...


@runtime_checkable
class Drafter(Protocol):
    """Drafts an intermediate answer from the evidence so far."""

    def draft(self, question: str, plan: RetrievalPlan, snippets: Sequence[Snippet]) -> DraftAnswer:
        """Return a draft whose claims cite the snippets they quote."""
        ...


@runtime_checkable
class SufficiencyJudge(Protocol):
    """Decides whether the evidence is enough, and what is missing."""

    def assess(self, question: str, plan: RetrievalPlan, snippets: Sequence[Snippet], draft: DraftAnswer) -> ContextAssessment:
        """Return the assessment of the evidence and the draft."""
        ...


@runtime_checkable
class Synthesizer(Protocol):
    """Writes the final grounded answer."""

    def synthesize(
        self,
        question: str,
        plan: RetrievalPlan,
        snippets: Sequence[Snippet],
        assessment: ContextAssessment,
    ) -> GroundedAnswer:
        """Return the answer with claim-level citations and an honest status."""
        ...


@runtime_checkable
class ClaimVerifier(Protocol):
    """Reads whether quotes state the claims the lexical grounding check doubts."""

    def verify(self, checks: Sequence[ClaimCheck]) -> tuple[ClaimJudgement, ...]:
        """Return one judgement per check, in order (only a NO drops its claim)."""
        ...


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors (all of one dimension)."""

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Return one vector per text, in order."""
        ...
