"""What a run searches and what it must find: corpora, documents, required facts, the plan."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from agentic_rag._contracts.serialization import JsonContract
from agentic_rag._contracts.validation import (
    freeze_metadata,
    instance_tuple,
    require_enum,
    require_fraction,
    require_text,
    require_unique,
    text_tuple,
)
from agentic_rag._errors import InvalidInputError

__all__ = ["Corpus", "Document", "FactPriority", "RequiredFact", "RetrievalPlan", "Route", "StopConditions", "require_corpora"]


class FactPriority(str, enum.Enum):
    """How much a fact matters for sufficiency: MUST facts gate an ANSWERED status."""

    MUST = "must"
    SHOULD = "should"
    MAY = "may"

    @property
    def weight(self) -> float:
        """Weight of the fact in the sufficiency score (must 1.0, should 0.5, may 0.25)."""
        return _PRIORITY_WEIGHTS[self]


_PRIORITY_WEIGHTS = {FactPriority.MUST: 1.0, FactPriority.SHOULD: 0.5, FactPriority.MAY: 0.25}


@dataclass(frozen=True, slots=True)
class Corpus(JsonContract):
    """A searchable collection; its description is what the planner routes by.

    Args:
        id: Unique corpus id.
        description: Natural-language description of what the corpus holds.
        metadata: JSON-compatible extra data.
    """

    id: str
    description: str = ""
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        require_text(self.id, "Corpus.id")
        require_text(self.description, "Corpus.description", allow_empty=True)
        object.__setattr__(self, "metadata", freeze_metadata(self.metadata, "Corpus.metadata"))


def require_corpora(corpora: object, *, stage: str) -> tuple[Corpus, ...]:
    """Return ``corpora`` as a tuple of :class:`Corpus` with unique ids.

    Args:
        corpora: The candidate sequence.
        stage: Where the check runs, for the error.

    Raises:
        InvalidInputError: Empty, not a sequence of ``Corpus`` (a bare id string included),
            or duplicate ids.
    """
    if isinstance(corpora, (str, bytes)) or not hasattr(corpora, "__iter__"):
        raise InvalidInputError(f"corpora must be a sequence of Corpus, got {corpora!r}", stage=stage)
    items = tuple(corpora)  # type: ignore[arg-type]
    if not items:
        raise InvalidInputError("corpora must hold at least one Corpus to route to", stage=stage)
    bad = [c for c in items if not isinstance(c, Corpus)]
    if bad:
        raise InvalidInputError(f"corpora must be Corpus objects, got {bad[0]!r}", stage=stage)
    require_unique((c.id for c in items), "corpus id", stage=stage)
    return items


@dataclass(frozen=True, slots=True)
class Document(JsonContract):
    """A unit of text to index: id, text, optional title, its corpus and metadata.

    Args:
        id: Unique document id within its corpus.
        text: The body text (may be empty when the title carries the content).
        title: Optional title, indexed with the text.
        corpus_id: The corpus the document belongs to.
        metadata: JSON-compatible fields usable in ``where`` filters.
    """

    id: str
    text: str
    title: str = ""
    corpus_id: str = "default"
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        require_text(self.id, "Document.id")
        require_text(self.text, "Document.text", allow_empty=True)
        require_text(self.title, "Document.title", allow_empty=True)
        require_text(self.corpus_id, "Document.corpus_id")
        if not (self.text.strip() or self.title.strip()):
            raise InvalidInputError(f"Document {self.id!r} has neither text nor title", stage="contracts")
        object.__setattr__(self, "metadata", freeze_metadata(self.metadata, "Document.metadata"))


@dataclass(frozen=True, slots=True)
class RequiredFact(JsonContract):
    """One piece of information the answer needs.

    Args:
        id: Unique fact id within the plan.
        description: What the fact is, in words (also the seed of its subqueries).
        priority: MUST facts gate ANSWERED; SHOULD and MAY only raise the score.
        required_terms: Terms that must all appear in one snippet for the fact to count as
            covered; when empty the judge uses the description's analysed content terms.
        conflict_terms: Mutually exclusive values (for example two different years): snippets
            covering the fact that carry different ones are reported as a conflict.
        depends_on: Ids of facts whose answer this fact needs first (a bridge: the second
            hop is searched with the entity the first hop found).
        metadata: JSON-compatible extra data.
    """

    id: str
    description: str
    priority: FactPriority = FactPriority.MUST
    required_terms: tuple[str, ...] = ()
    conflict_terms: tuple[str, ...] = ()
    depends_on: tuple[str, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        require_text(self.id, "RequiredFact.id")
        require_text(self.description, "RequiredFact.description")
        object.__setattr__(self, "priority", require_enum(FactPriority, self.priority, "RequiredFact.priority"))
        meta = freeze_metadata(self.metadata, "RequiredFact.metadata")
        # The earlier scaffold carried these lists in metadata; accept them there too.
        required = self.required_terms or meta.get("required_terms", ())
        conflicts = self.conflict_terms or meta.get("conflict_terms", ())
        object.__setattr__(self, "required_terms", text_tuple(required, "RequiredFact.required_terms"))
        object.__setattr__(self, "conflict_terms", text_tuple(conflicts, "RequiredFact.conflict_terms"))
        object.__setattr__(self, "depends_on", text_tuple(self.depends_on, "RequiredFact.depends_on"))
        if self.id in self.depends_on:
            raise InvalidInputError(f"RequiredFact {self.id!r} cannot depend on itself", stage="contracts")
        object.__setattr__(self, "metadata", meta)


@dataclass(frozen=True, slots=True)
class Route(JsonContract):
    """Which corpora a fact is searched in, and why.

    Args:
        fact_id: The fact routed.
        corpus_ids: Target corpora, best first.
        reason: Why these corpora (for the trace).
    """

    fact_id: str
    corpus_ids: tuple[str, ...]
    reason: str = ""

    def __post_init__(self) -> None:
        require_text(self.fact_id, "Route.fact_id")
        ids = text_tuple(self.corpus_ids, "Route.corpus_ids")
        if not ids:
            raise InvalidInputError(f"Route for fact {self.fact_id!r} must name at least one corpus", stage="contracts")
        require_unique(ids, "Route.corpus_ids")
        object.__setattr__(self, "corpus_ids", ids)


@dataclass(frozen=True, slots=True)
class StopConditions(JsonContract):
    """When the evidence is enough.

    Args:
        min_sufficiency: A bar on the weighted sufficiency score, on top of every MUST fact
            being covered (the default 0.0 lets MUST facts alone decide; raise it to demand
            SHOULD and MAY facts too).
        stop_on_conflict: Stop iterating as soon as a conflict is found (more retrieval
            rarely resolves two sources that disagree).
    """

    min_sufficiency: float = 0.0
    stop_on_conflict: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "min_sufficiency", require_fraction(self.min_sufficiency, "StopConditions.min_sufficiency"))


@dataclass(frozen=True, slots=True)
class RetrievalPlan(JsonContract):
    """The question broken into required facts, each routed to corpora.

    Args:
        question: The user's question.
        facts: Required facts, in planning order.
        routes: One route per fact.
        stop_conditions: When to stop iterating.
        corpora: The corpora the plan routes over (lets follow-up queries be routed too).

    Raises:
        InvalidInputError: No facts, duplicate fact ids, a route or dependency naming an
            unknown fact, a fact without a route, or a route to a corpus not in ``corpora``.
    """

    question: str
    facts: tuple[RequiredFact, ...]
    routes: tuple[Route, ...]
    stop_conditions: StopConditions = field(default_factory=StopConditions)
    corpora: tuple[Corpus, ...] = ()

    def __post_init__(self) -> None:
        require_text(self.question, "RetrievalPlan.question")
        facts = instance_tuple(self.facts, RequiredFact, "RetrievalPlan.facts", stage="planner")
        routes = instance_tuple(self.routes, Route, "RetrievalPlan.routes", stage="planner")
        if not isinstance(self.stop_conditions, StopConditions):
            raise InvalidInputError(f"RetrievalPlan.stop_conditions must be StopConditions, got {self.stop_conditions!r}", stage="planner")
        if not facts:
            raise InvalidInputError("RetrievalPlan.facts must hold at least one RequiredFact", stage="planner")
        require_unique((f.id for f in facts), "fact id", stage="planner")
        require_unique((r.fact_id for r in routes), "route fact id", stage="planner")
        known = {f.id for f in facts}
        for route in routes:
            if route.fact_id not in known:
                raise InvalidInputError(f"route names unknown fact {route.fact_id!r}; known facts: {sorted(known)}", stage="planner")
        earlier: set[str] = set()
        for fact in facts:
            for dep in fact.depends_on:
                if dep not in known:
                    raise InvalidInputError(f"fact {fact.id!r} depends on unknown fact {dep!r}", stage="planner")
                if dep not in earlier:
                    # Dependencies resolve in plan order; this also rules out cycles.
                    raise InvalidInputError(f"fact {fact.id!r} depends on {dep!r}, which must come before it in the plan", stage="planner")
            earlier.add(fact.id)
        missing = [f.id for f in facts if f.id not in {r.fact_id for r in routes}]
        if missing:
            raise InvalidInputError(f"facts {missing} have no route; every fact needs one", stage="planner")
        corpora = instance_tuple(self.corpora, Corpus, "RetrievalPlan.corpora", stage="planner")
        require_unique((c.id for c in corpora), "corpus id", stage="planner")
        if corpora:
            corpus_ids = {c.id for c in corpora}
            for route in routes:
                unknown = [c for c in route.corpus_ids if c not in corpus_ids]
                if unknown:
                    raise InvalidInputError(f"route for fact {route.fact_id!r} names unknown corpora {unknown}; known: {sorted(corpus_ids)}", stage="planner")
        object.__setattr__(self, "facts", facts)
        object.__setattr__(self, "routes", routes)
        object.__setattr__(self, "corpora", corpora)

    def fact(self, fact_id: str) -> RequiredFact:
        """Return the fact with ``fact_id``.

        Raises:
            InvalidInputError: No such fact in the plan.
        """
        for fact in self.facts:
            if fact.id == fact_id:
                return fact
        raise InvalidInputError(f"unknown fact id {fact_id!r}; plan has {[f.id for f in self.facts]}", stage="planner")

    def route(self, fact_id: str) -> Route:
        """Return the route of ``fact_id`` (every fact has exactly one)."""
        for route in self.routes:
            if route.fact_id == fact_id:
                return route
        raise InvalidInputError(f"no route for fact {fact_id!r}", stage="planner")
