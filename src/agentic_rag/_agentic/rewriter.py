"""The deterministic query rewriter: plan routes first, then the judge's feedback."""

from __future__ import annotations

from collections.abc import Sequence

from agentic_rag._agentic.routing import CorpusRouter
from agentic_rag._contracts import FeedbackQuery, RequiredFact, RetrievalPlan, Subquery, SubqueryOrigin
from agentic_rag._contracts.validation import require_int

__all__ = ["PlanFeedbackRewriter"]


class PlanFeedbackRewriter:
    """Turns a plan into first-round subqueries and feedback into follow-ups.

    Round 1: one subquery per fact that depends on no other fact (a dependent fact waits for
    the bridge entity its dependency will reveal), sent to the fact's route; a compared item
    is searched by its name. When every fact was derived from the question by the planner
    (a comparison or a compound question), the whole question goes first as well. Later rounds: one
    subquery per feedback query, sent to the feedback's corpora, or routed by its text over
    the plan's corpora with the fact's route as the fallback, and linked to the subquery it
    follows up (``parent_id``).

    Args:
        router: Router for feedback queries that name no corpus.
    """

    def __init__(self, router: CorpusRouter | None = None) -> None:
        self.router = router or CorpusRouter()

    def rewrite(self, plan: RetrievalPlan, feedback: Sequence[FeedbackQuery], *, iteration: int) -> tuple[Subquery, ...]:
        """Return this round's subqueries.

        Args:
            plan: The retrieval plan.
            feedback: The judge's feedback queries from the previous round (empty in round 1).
            iteration: The round number, from 1.

        Returns:
            Subqueries with ids ``q<iteration>.<n>`` and their lineage.

        Raises:
            InvalidInputError: ``iteration`` below 1.
        """
        require_int(iteration, "iteration", minimum=1, stage="rewriter")
        if iteration == 1 and not feedback:
            out = [
                Subquery(
                    id=f"q1.{n}",
                    fact_id=fact.id,
                    text=self._fact_query(fact),
                    corpus_ids=plan.route(fact.id).corpus_ids,
                    reason=f"plan route: {plan.route(fact.id).reason}",
                    iteration=1,
                    origin=SubqueryOrigin.PLAN,
                )
                for n, fact in enumerate((f for f in plan.facts if not f.depends_on), start=1)
            ]
            derived = all(f.metadata.get("derived") for f in plan.facts)
            if derived and all(f.description != plan.question for f in plan.facts if not f.depends_on):
                # Facts split from the question lose its context; the whole question is
                # still the strongest single query, so it goes first.
                corpus_ids = tuple(dict.fromkeys(c for r in plan.routes for c in r.corpus_ids))
                out.insert(0, Subquery(id="q1.0", fact_id=plan.facts[0].id, text=plan.question, corpus_ids=corpus_ids,
                                       reason="the whole question, for context", iteration=1, origin=SubqueryOrigin.PLAN))
            return tuple(out)
        out = []
        for n, item in enumerate(feedback, start=1):
            fallback = plan.route(item.fact_id).corpus_ids
            corpus_ids = item.corpus_ids
            reason = item.reason
            if not corpus_ids:
                if plan.corpora:
                    decision = self.router.route(item.text, plan.corpora, fallback=fallback)
                    corpus_ids, reason = decision.corpus_ids, f"{item.reason}; routed: {decision.reason}"
                else:
                    corpus_ids = fallback
            out.append(
                Subquery(
                    id=f"q{iteration}.{n}",
                    fact_id=item.fact_id,
                    text=item.text,
                    corpus_ids=corpus_ids,
                    reason=reason,
                    parent_id=item.parent_id,
                    iteration=iteration,
                    origin=SubqueryOrigin.FEEDBACK,
                )
            )
        return tuple(out)

    @staticmethod
    def _fact_query(fact: RequiredFact) -> str:
        item = fact.metadata.get("compared_item")
        if isinstance(item, str) and item:
            # A compared item is found by its name; the shared aspect words would pull in
            # every passage about the aspect (every "peak" for "which peak is higher").
            return item
        folded = fact.description.casefold()
        extra = [t for t in fact.required_terms if t.casefold() not in folded]
        return " ".join([fact.description, *extra])
