"""The deterministic planner: facts from the question, routes from corpus descriptions."""

from __future__ import annotations

from collections.abc import Sequence

from agentic_rag._text.questions import anchor_entity, find_comparison, is_bridge_question, split_compound
from agentic_rag._agentic.routing import CorpusRouter
from agentic_rag._contracts import ContextAssessment, Corpus, RequiredFact, RetrievalPlan, Route, StopConditions
from agentic_rag._contracts.corpus import require_corpora
from agentic_rag._contracts.validation import require_text, require_unique

__all__ = ["HeuristicPlanner"]


class HeuristicPlanner:
    """Plans without a model.

    Facts: the ``facts`` given at construction when there are any (routed per run);
    otherwise a comparison question ("X or Y?", "are X and Y both ...?") gives one fact per
    compared item, each requiring that item's name, and any other question gives one fact,
    the question itself. Routes: each fact goes to the corpora whose description shares the
    most analysed terms with it (see :class:`CorpusRouter`), ties broken by corpus id.

    Args:
        facts: Fixed facts to plan with (for example hand-written for an evaluation).
        router: The corpus router.
        stop_conditions: Stop conditions put in every plan.
        bridge_facts: Split bridge questions into a first-hop and a dependent second-hop
            fact (on by default).

    Raises:
        InvalidInputError: Duplicate fact ids.
    """

    def __init__(
        self,
        facts: Sequence[RequiredFact] = (),
        *,
        router: CorpusRouter | None = None,
        stop_conditions: StopConditions | None = None,
        bridge_facts: bool = True,
    ) -> None:
        self.facts = tuple(facts)
        self.bridge_facts = bool(bridge_facts)
        require_unique((f.id for f in self.facts), "fact id", stage="planner")
        self.router = router or CorpusRouter()
        self.stop_conditions = stop_conditions or StopConditions()

    def plan(self, question: str, corpora: Sequence[Corpus], prior: ContextAssessment | None = None) -> RetrievalPlan:
        """Return the plan for ``question`` over ``corpora``.

        Args:
            question: The question.
            corpora: Candidate corpora (at least one, unique ids).
            prior: Ignored: the deterministic planner's plan does not change between rounds;
                the judge's feedback carries what changes.

        Returns:
            A plan whose every fact has a route.

        Raises:
            InvalidInputError: Empty question, no corpora, or duplicate corpus ids.
        """
        require_text(question, "question", stage="planner")
        corpora = require_corpora(corpora, stage="planner")
        facts = self.facts or self.derive_facts(question)
        routes = []
        for fact in facts:
            decision = self.router.route(f"{fact.description} {' '.join(fact.required_terms)}", corpora)
            routes.append(Route(fact_id=fact.id, corpus_ids=decision.corpus_ids, reason=decision.reason))
        return RetrievalPlan(question=question, facts=facts, routes=tuple(routes), stop_conditions=self.stop_conditions, corpora=corpora)

    def derive_facts(self, question: str) -> tuple[RequiredFact, ...]:
        """Derive required facts from the question alone.

        Args:
            question: The question.

        Returns:
            One fact per compared item for a comparison question; one per part of a
            compound question ("When ... and how many ...?"); for a bridge question ("Where
            was the founder of Acme Robotics born?") a first-hop fact about the entity it
            names and a second-hop fact, the question, that depends on it; else one fact.
        """
        comparison = find_comparison(question, self.router.analyzer)
        if comparison is None:
            parts = split_compound(question)
            if len(parts) == 1 and self.bridge_facts and is_bridge_question(question):
                anchor = anchor_entity(question)
                if anchor:
                    return (
                        RequiredFact(id="f1", description=anchor, required_terms=(anchor,), metadata={"derived": True, "anchor": anchor}),
                        RequiredFact(id="f2", description=question.strip(), depends_on=("f1",), metadata={"derived": True}),
                    )
            return tuple(RequiredFact(id=f"f{n}", description=part, metadata={"derived": True}) for n, part in enumerate(parts, start=1))
        return tuple(
            RequiredFact(
                id=f"f{n}",
                description=f"{item}: {comparison.aspect}" if comparison.aspect else item,
                required_terms=(item,),
                metadata={"compared_item": item, "aspect": comparison.aspect, "derived": True},
            )
            for n, item in enumerate(comparison.items, start=1)
        )
