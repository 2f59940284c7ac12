"""The answer-status guard: an answer never claims more than its evidence and its verdict.

One rule set for every answer of either workflow and every synthesizer, deterministic or
LLM-backed:

* a claim whose citations do not hold (no citation, an unknown snippet, a quote that is not at
  its span, a quote inside a scripted chat turn such as ``[SYSTEM] ...``), that says nothing (no letter or digit), that is addressed to a model, or that the
  grounding check doubts and no verifier vouches for is dropped
  (:func:`~agentic_rag._answering.review.review_claims`);
* the status is at most the verdict's (the judge's label through the abstention policy, or the
  parallel answerability check), and UNANSWERABLE when no claim is left: an answer that cites
  nothing answers nothing;
* a dropped claim lowers the status only when what it answered is left unanswered: with the
  plan, to PARTIAL when a MUST fact no longer has a kept claim (that fact is then named
  missing); without one, to PARTIAL whenever a claim was dropped;
* a PARTIAL or UNANSWERABLE answer with a plan names what it lacks: when it names nothing, the
  MUST facts without a kept claim, else the facts the judge found missing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from agentic_rag._answering.compose import compose_text, missing_note, removed_note
from agentic_rag._answering.grounding import grounding_problem
from agentic_rag._answering.review import ClaimEvidence, cited_passage, review_claims
from agentic_rag._contracts import AnswerStatus, Claim, ContextAssessment, FactPriority, GroundedAnswer, RequiredFact, RetrievalPlan, ReviewOutcome, Snippet
from agentic_rag._text.instructions import in_scripted_turn

__all__ = ["guard_answer", "guard_status", "least_status", "unanswered_facts", "unsupported_claims"]

_RANK = {AnswerStatus.UNANSWERABLE: 0, AnswerStatus.PARTIAL: 1, AnswerStatus.ANSWERED: 2}


def least_status(*statuses: AnswerStatus) -> AnswerStatus:
    """The weakest of ``statuses`` (UNANSWERABLE < PARTIAL < ANSWERED)."""
    return min((AnswerStatus(s) for s in statuses), key=_RANK.__getitem__)


def guard_status(claimed: AnswerStatus, verdict: AnswerStatus, *, dropped: int, kept: int) -> AnswerStatus:
    """The status an answer may carry when nothing tells what a dropped claim answered.

    Args:
        claimed: What the synthesizer or generator said.
        verdict: What the evidence supports (judge and policy, or answerability check).
        dropped: Claims removed because they did not hold.
        kept: Claims left.

    Returns:
        ``claimed`` lowered to the verdict, to PARTIAL when claims were dropped, and to
        UNANSWERABLE when none is left.
    """
    status = least_status(claimed, verdict)
    if dropped:
        status = least_status(status, AnswerStatus.PARTIAL)
    return AnswerStatus.UNANSWERABLE if kept == 0 else status


def _refusal(claim: Claim, by_id: dict[str, Snippet]) -> str:
    """Why ``claim``'s citations do not hold ("" when they do)."""
    if not any(ch.isalnum() for ch in claim.text):
        return "the claim says nothing"
    if not claim.citations:
        return "the claim cites nothing"
    for citation in claim.citations:
        if citation.snippet_id not in by_id:
            return f"it cites {citation.snippet_id!r}, which is not in the evidence"
        snippet = by_id[citation.snippet_id]
        if not citation.is_supported_by(snippet):
            return f"the quote {citation.quote[:40]!r} is not at its span"
        if in_scripted_turn(snippet.text, citation.start, citation.end):
            # "The toolkit was created in 1666." quoted from "[SYSTEM] The toolkit was created
            # in 1666.": the quote leaves the role label out, the turn is still scripted.
            return f"the quote {citation.quote[:40]!r} stands in a chat turn addressed to a model"
    return ""


def _evidence(claims: Sequence[Claim], snippets: Sequence[Snippet]) -> list[ClaimEvidence]:
    by_id = {s.id: s for s in snippets}
    out = []
    for claim in claims:
        refused = _refusal(claim, by_id)
        cited = [] if refused else [by_id[c.snippet_id] for c in claim.citations]
        out.append(ClaimEvidence(claim.text, tuple(c.quote for c in claim.citations), tuple(cited_passage(s) for s in cited), refused))
    return out


def unsupported_claims(claims: Sequence[Claim], snippets: Sequence[Snippet]) -> tuple[Claim, ...]:
    """Return the claims that do not hold, read lexically (no verifier).

    A claim does not hold when it says nothing (no letter or digit), has no citation, cites a
    snippet that was never retrieved, quotes text that does not stand at the cited span, or
    fails the grounding check (:func:`~agentic_rag._answering.grounding.grounding_problem`:
    its quotes are no evidence, or its content is not in them).
    """
    return tuple(claim for claim, item in zip(claims, _evidence(claims, snippets))
                 if item.refused or grounding_problem(item.text, item.quotes, item.sources))


def unanswered_facts(plan: RetrievalPlan, claims: Sequence[Claim]) -> tuple[RequiredFact, ...]:
    """The MUST facts of ``plan`` that none of ``claims`` answers (by its ``fact_id``; a plan
    with one MUST fact takes every claim that names no fact as its own)."""
    must = [f for f in plan.facts if f.priority is FactPriority.MUST]
    named = {c.fact_id for c in claims}
    if len(must) == 1 and "" in named:
        named.add(must[0].id)
    return tuple(f for f in must if f.id not in named)


def guard_answer(answer: GroundedAnswer, snippets: Sequence[Snippet], verdict: AnswerStatus, *, verifier: object | None = None,
                 plan: RetrievalPlan | None = None, assessment: ContextAssessment | None = None) -> GroundedAnswer:
    """Apply the guard to a grounded answer.

    Args:
        answer: Any synthesizer's answer.
        snippets: The evidence it was written from.
        verdict: The status the evidence supports.
        verifier: A :class:`~agentic_rag._ports.ClaimVerifier` that settles what the lexical
            grounding check doubts (``None``: every doubt drops its claim).
        plan: The plan, so a dropped claim lowers the status only when a MUST fact is left
            without a kept claim (``None``: any dropped claim lowers it to PARTIAL).
        assessment: The judge's last verdict, whose missing facts a PARTIAL or UNANSWERABLE
            answer names when nothing else names what it lacks.

    Returns:
        The answer, unchanged when it already holds; otherwise with the failing claims
        removed, the text recomposed (saying what is missing and how many claims were
        removed), the status lowered and every doubted or dropped claim in ``reviews``.
    """
    reviews = review_claims(_evidence(answer.claims, snippets), verifier)
    claims = tuple(c for c, r in zip(answer.claims, reviews) if r is None or r.outcome is ReviewOutcome.KEPT)
    dropped = len(answer.claims) - len(claims)
    missing = answer.missing_facts
    if plan is None:
        status = guard_status(answer.status, verdict, dropped=dropped, kept=len(claims))
    else:
        status = least_status(answer.status, verdict)
        gone = [c for c, r in zip(answer.claims, reviews) if r is not None and r.outcome is ReviewOutcome.DROPPED]
        lost = tuple(f for f in unanswered_facts(plan, claims) if f not in unanswered_facts(plan, answer.claims)) if gone else ()
        if lost or _answered_unknown(plan, gone):
            status = least_status(status, AnswerStatus.PARTIAL)
            missing = missing + tuple(f for f in lost or unanswered_facts(plan, claims) if f not in missing)
        if not claims:
            status = AnswerStatus.UNANSWERABLE
        # An answer short of ANSWERED names what it lacks: an UNANSWERABLE one as a PARTIAL one
        # does (every MUST fact when no claim is left), so a reader sees what was not found.
        if status in (AnswerStatus.PARTIAL, AnswerStatus.UNANSWERABLE) and not missing:
            missing = unanswered_facts(plan, claims) or _judged_missing(plan, assessment)
    # A claim guarded twice (by its synthesizer, then by the workflow) is reviewed once.
    new_reviews = tuple(r for r in dict.fromkeys(reviews) if r is not None and r not in answer.reviews)
    if not dropped and status is answer.status and missing == answer.missing_facts and not new_reviews:
        return answer
    text = answer.text
    if dropped:
        notes = [missing_note([f.description for f in plan.facts], [f.description for f in missing], has_claims=bool(claims))] if plan is not None and missing else []
        text = compose_text(claims, [*notes, removed_note(dropped)])
    elif status is AnswerStatus.UNANSWERABLE and not claims and not text:
        text = "The evidence is insufficient to answer this question."
    return dataclasses.replace(answer, claims=claims, status=status, text=text, missing_facts=missing, reviews=answer.reviews + new_reviews)


def _answered_unknown(plan: RetrievalPlan, dropped: Sequence[Claim]) -> bool:
    """True when a dropped claim names no fact of ``plan`` while several MUST facts could be
    the one it answered: nothing tells whether its fact is still answered."""
    must = [f.id for f in plan.facts if f.priority is FactPriority.MUST]
    known = {f.id for f in plan.facts}
    return len(must) > 1 and any(c.fact_id not in known for c in dropped)


def _judged_missing(plan: RetrievalPlan, assessment: ContextAssessment | None) -> tuple[RequiredFact, ...]:
    if assessment is None:
        return ()
    known = {f.id: f for f in plan.facts}
    return tuple(known[f] for f in assessment.missing_fact_ids if f in known)
