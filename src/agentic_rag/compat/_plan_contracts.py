"""The scaffold's plan and retrieval records (re-exported by :mod:`agentic_rag.compat.contracts`)."""

from __future__ import annotations

from collections.abc import Mapping  # noqa: F401  (the inherited Snippet hints are resolved in this module)
from dataclasses import dataclass
from typing import Any  # noqa: F401  (as above)

from agentic_rag._contracts import RequiredFact
from agentic_rag._contracts import Snippet as _CoreSnippet
from agentic_rag._contracts.serialization import JsonContract
from agentic_rag._contracts.validation import instance_tuple, is_int, require_int, require_text, require_unique, text_tuple
from agentic_rag._errors import InvalidInputError

__all__ = ["RetrievalPlan", "Route", "Snippet", "Subquery"]

_STAGE = "compat"


def _ids(value: object, field: str) -> tuple[str, ...]:
    return text_tuple(value, field, stage=_STAGE)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Route(JsonContract):
    """Which corpora a fact may be found in.

    Args:
        fact_id: The routed fact.
        candidate_corpus_ids: Corpora to search, best first.
        reason: Why these corpora.
    """

    fact_id: str
    candidate_corpus_ids: tuple[str, ...]
    reason: str = ""

    def __post_init__(self) -> None:
        require_text(self.fact_id, "Route.fact_id", stage=_STAGE)
        object.__setattr__(self, "candidate_corpus_ids", _ids(self.candidate_corpus_ids, "Route.candidate_corpus_ids"))
        require_text(self.reason, "Route.reason", stage=_STAGE, allow_empty=True)

    @property
    def corpus_ids(self) -> tuple[str, ...]:
        """The modern name of :attr:`candidate_corpus_ids`."""
        return self.candidate_corpus_ids


@dataclass(frozen=True, slots=True)
class RetrievalPlan(JsonContract):
    """The question as required facts, some routed to corpora (a fact may have no route:
    nothing is searched for it, and with no evidence it makes the question unanswerable).

    Args:
        question: The question.
        required_facts: The facts, in order.
        routes: At most one route per fact.
        stop_conditions: Free-text stop conditions (kept for the trace; the budgets of
            :class:`~agentic_rag.compat.orchestrator.OrchestratorConfig` decide when to stop).

    Raises:
        InvalidInputError: No fact, duplicate fact ids, or a route naming an unknown fact.
    """

    question: str
    required_facts: tuple[RequiredFact, ...]
    routes: tuple[Route, ...] = ()
    stop_conditions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        require_text(self.question, "RetrievalPlan.question", stage=_STAGE)
        facts = instance_tuple(self.required_facts, RequiredFact, "RetrievalPlan.required_facts", stage=_STAGE)
        if not facts:
            raise InvalidInputError("RetrievalPlan.required_facts must hold at least one RequiredFact", stage=_STAGE)
        require_unique((f.id for f in facts), "fact id", stage=_STAGE)
        routes = instance_tuple(self.routes, Route, "RetrievalPlan.routes", stage=_STAGE)
        require_unique((r.fact_id for r in routes), "route fact id", stage=_STAGE)
        known = {f.id for f in facts}
        for route in routes:
            if route.fact_id not in known:
                raise InvalidInputError(f"route names unknown fact {route.fact_id!r}; known facts: {sorted(known)}", stage=_STAGE)
        object.__setattr__(self, "required_facts", facts)
        object.__setattr__(self, "routes", routes)
        object.__setattr__(self, "stop_conditions", _ids(self.stop_conditions, "RetrievalPlan.stop_conditions"))

    def route_for(self, fact_id: str) -> Route | None:
        """Return the route of ``fact_id``, or ``None`` when it has none."""
        return next((r for r in self.routes if r.fact_id == fact_id), None)


@dataclass(frozen=True, slots=True)
class Subquery(JsonContract):
    """One query for one fact, sent to the routed corpora.

    Args:
        id: Unique id within the run.
        fact_id: The fact it looks for.
        query: The query text.
        target_corpus_ids: Corpora to search.
        reason: Why it was issued.
        parent_query: The query (or question) it follows up.
        iteration: The iteration that issued it (the scaffold counted from 0 or 1).
    """

    id: str
    fact_id: str
    query: str
    target_corpus_ids: tuple[str, ...]
    reason: str = ""
    parent_query: str | None = None
    iteration: int = 0

    def __post_init__(self) -> None:
        require_text(self.id, "Subquery.id", stage=_STAGE)
        require_text(self.fact_id, "Subquery.fact_id", stage=_STAGE)
        require_text(self.query, "Subquery.query", stage=_STAGE)
        object.__setattr__(self, "target_corpus_ids", _ids(self.target_corpus_ids, "Subquery.target_corpus_ids"))
        require_int(self.iteration, "Subquery.iteration", minimum=0, stage=_STAGE)


@dataclass(frozen=True, slots=True)
class Snippet(_CoreSnippet):
    """The modern :class:`~agentic_rag.Snippet` plus the scaffold's ``span``: the
    ``(start, end)`` offsets in ``text`` of the words that matched the query, or ``None``."""

    span: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        _CoreSnippet.__post_init__(self)
        if self.span is not None:
            span = tuple(self.span)
            if len(span) != 2 or not all(is_int(v) for v in span) or not 0 <= span[0] <= span[1] <= len(self.text):
                raise InvalidInputError(f"Snippet.span must be (start, end) offsets inside the text, got {self.span!r}", stage=_STAGE)
            object.__setattr__(self, "span", span)
