"""Translations between the scaffold's contracts and the modern ones the engine runs on.

The scaffold cited snippets by id only; the modern contracts cite a quote at an offset. A
scaffold citation of a retrieved snippet becomes a modern citation quoting the whole snippet
text (which always holds), and one naming an unknown snippet becomes a citation the modern
guard drops, so both layers agree on which citations hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from agentic_rag import _contracts as core
from agentic_rag.compat import contracts as old

__all__ = [
    "answer_from_core",
    "answer_to_core",
    "as_old_plan",
    "assessment_to_core",
    "claims_to_core",
    "conflicts_from_core",
    "conflicts_to_core",
    "draft_from_core",
    "draft_to_core",
    "plan_from_core",
    "plan_to_core",
]

#: Route target for a fact the scaffold plan left unrouted when no corpus is known: the
#: modern plan needs a route per fact, and nothing is ever searched in this one.
UNROUTED = "unrouted"


def plan_to_core(plan: old.RetrievalPlan, corpus_ids: Sequence[str] = ()) -> core.RetrievalPlan:
    """The modern plan for a scaffold plan.

    The scaffold let a plan route to corpora the run does not have (nothing is found there);
    the modern plan may not, so with ``corpus_ids`` given a route keeps only the known ones.
    A fact left with no route goes to every corpus in ``corpus_ids`` (or :data:`UNROUTED`):
    the modern plan needs a route per fact, and the compat rewriter still searches only the
    scaffold plan's routes.
    """
    known = set(corpus_ids)
    routes = []
    for fact in plan.required_facts:
        route = plan.route_for(fact.id)
        targets = route.candidate_corpus_ids if route is not None else ()
        if known:
            targets = tuple(c for c in targets if c in known)
        if targets:
            routes.append(core.Route(fact.id, targets, route.reason if route is not None else ""))
        else:
            routes.append(core.Route(fact.id, tuple(corpus_ids) or (UNROUTED,), "no route to a known corpus in the plan"))
    return core.RetrievalPlan(plan.question, plan.required_facts, tuple(routes))


def plan_from_core(plan: core.RetrievalPlan) -> old.RetrievalPlan:
    """The scaffold plan for a modern one."""
    routes = tuple(old.Route(r.fact_id, r.corpus_ids, r.reason) for r in plan.routes)
    return old.RetrievalPlan(plan.question, plan.facts, routes)


def as_old_plan(plan: object) -> old.RetrievalPlan:
    """Accept a plan of either shape and return the scaffold one."""
    return plan_from_core(plan) if isinstance(plan, core.RetrievalPlan) else plan  # type: ignore[return-value]


def _citations(snippet_ids: Iterable[str], by_id: dict[str, core.Snippet], fallback: str) -> tuple[core.Citation, ...]:
    out = []
    for sid in snippet_ids:
        snippet = by_id.get(sid)
        if snippet is not None and snippet.text.strip():
            out.append(core.Citation(sid, snippet.text))
        else:  # unknown snippet: a citation the modern guard will not accept
            out.append(core.Citation(sid, fallback))
    return tuple(out)


def claims_to_core(claims: Iterable[old.Claim], snippets: Sequence[core.Snippet]) -> tuple[core.Claim, ...]:
    """Modern claims for scaffold draft claims (each snippet id quoted whole)."""
    by_id = {s.id: s for s in snippets}
    return tuple(core.Claim(c.text, _citations(c.snippet_ids, by_id, c.text)) for c in claims)


def draft_to_core(draft: old.DraftAnswer | core.DraftAnswer, snippets: Sequence[core.Snippet]) -> core.DraftAnswer:
    """The modern draft for a scaffold draft."""
    if isinstance(draft, core.DraftAnswer):
        return draft
    text = draft.text or " ".join(c.text for c in draft.claims)
    return core.DraftAnswer(text, claims_to_core(draft.claims, snippets))


def draft_from_core(draft: core.DraftAnswer | old.DraftAnswer) -> old.DraftAnswer:
    """The scaffold draft for a modern one."""
    if isinstance(draft, old.DraftAnswer):
        return draft
    claims = tuple(old.Claim(c.text, tuple(dict.fromkeys(x.snippet_id for x in c.citations))) for c in draft.claims)
    return old.DraftAnswer(claims, draft.text)


def conflicts_from_core(conflicts: Iterable[core.ConflictEvidence]) -> tuple[old.ConflictEvidence, ...]:
    """Scaffold conflicts: each modern group's value is its label and its value."""
    return tuple(
        old.ConflictEvidence(
            c.fact_id,
            tuple(old.ConflictingEvidenceGroup(g.value, g.snippet_ids, g.value) for g in c.groups),
            f"Incompatible values {', '.join(repr(g.value) for g in c.groups)} were found for required fact {c.fact_id!r}.",
        )
        for c in conflicts
    )


def conflicts_to_core(conflicts: Iterable[old.ConflictEvidence]) -> tuple[core.ConflictEvidence, ...]:
    """Modern conflicts (groups without snippets, and conflicts of fewer than two sides, are
    not conflicts in the modern contract and are left out)."""
    out = []
    for c in conflicts:
        groups = tuple(core.ConflictGroup(g.value or g.label, g.snippet_ids) for g in c.groups if g.snippet_ids)
        if len(groups) >= 2:
            out.append(core.ConflictEvidence(c.fact_id, groups))
    return tuple(out)


def _fact_ids(plan: core.RetrievalPlan, names: Iterable[str]) -> tuple[str, ...]:
    """Fact ids for scaffold "missing facts" (descriptions, or ids)."""
    by_name = {f.description: f.id for f in plan.facts} | {f.id: f.id for f in plan.facts}
    return tuple(dict.fromkeys(by_name[n] for n in names if n in by_name))


def assessment_to_core(assessment: old.ContextAssessment | core.ContextAssessment, plan: core.RetrievalPlan) -> core.ContextAssessment:
    """The modern assessment for a scaffold one (``plan`` maps descriptions to fact ids)."""
    if isinstance(assessment, core.ContextAssessment):
        return assessment
    covered = tuple(dict.fromkeys(c.fact_id for c in assessment.covered_facts))
    missing = tuple(f for f in _fact_ids(plan, assessment.missing_facts) if f not in covered)
    label = assessment.answerability_label
    sufficient = assessment.status is old.ContextStatus.SUFFICIENT
    if sufficient:
        label = core.AnswerabilityLabel.SUFFICIENT
    elif label is core.AnswerabilityLabel.SUFFICIENT:
        label = core.AnswerabilityLabel.INSUFFICIENT
    fallback_fact = missing[0] if missing else plan.facts[0].id
    feedback = tuple(
        core.FeedbackQuery(q.fact_id or fallback_fact, q.query, q.reason, q.target_corpus_ids)
        for q in assessment.feedback_queries
    )
    return core.ContextAssessment(
        status=core.SufficiencyStatus.SUFFICIENT if sufficient else core.SufficiencyStatus.INSUFFICIENT,
        sufficiency_score=assessment.sufficiency_score,
        covered_fact_ids=covered,
        missing_fact_ids=missing,
        unsupported_claims=tuple(core.Claim(text) for text in assessment.unsupported_claims),
        conflicts=conflicts_to_core(assessment.conflicts),
        feedback_queries=feedback,
        label=label,
        rationale=assessment.reason,
        support=tuple(core.FactSupport(c.fact_id, c.snippet_ids, 1.0) for c in assessment.covered_facts),
    )


def answer_to_core(answer: old.GroundedAnswer | core.GroundedAnswer, plan: core.RetrievalPlan, snippets: Sequence[core.Snippet]) -> core.GroundedAnswer:
    """The modern answer for a scaffold one: each citation becomes a claim quoting its
    snippets whole, with the citation's ``claim`` kept as the claim's ``fact_id``."""
    if isinstance(answer, core.GroundedAnswer):
        return answer
    by_id = {s.id: s for s in snippets}
    claims = []
    for citation in answer.citations:
        quotes = [by_id[s].text for s in citation.snippet_ids if s in by_id and by_id[s].text.strip()]
        text = " ".join(quotes) or citation.claim
        claims.append(core.Claim(text, _citations(citation.snippet_ids, by_id, citation.claim), fact_id=citation.claim))
    missing = tuple(plan.fact(f) for f in _fact_ids(plan, answer.missing_facts))
    return core.GroundedAnswer(
        text=answer.answer,
        claims=tuple(claims),
        status=answer.status,
        missing_facts=missing,
        final_score=answer.sufficiency_score,
        conflicts=conflicts_to_core(answer.conflicts),
        iterations=answer.iterations,
    )


def answer_from_core(answer: core.GroundedAnswer | old.GroundedAnswer) -> old.GroundedAnswer:
    """The scaffold answer for a modern one: one citation per claim, named by the claim's
    fact id (or its text when it has none)."""
    if isinstance(answer, old.GroundedAnswer):
        return answer
    citations = tuple(
        old.GroundedCitation(c.fact_id or c.text, tuple(dict.fromkeys(x.snippet_id for x in c.citations)))
        for c in answer.claims
    )
    return old.GroundedAnswer(
        answer=answer.text,
        citations=citations,
        status=answer.status,
        missing_facts=tuple(f.description for f in answer.missing_facts),
        sufficiency_score=answer.final_score,
        conflicts=conflicts_from_core(answer.conflicts),
        iterations=answer.iterations,
    )
