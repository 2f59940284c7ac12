"""The answer-status guard: an answer never claims more than its evidence and its verdict.

One rule set for every answer of either workflow and every synthesizer, deterministic or
LLM-backed:

* a claim whose citations do not hold (no citation, an unknown snippet, a quote that is not at
  its span), that says nothing (no letter or digit), or that says what its quotes do not
  (the grounding check) is dropped;
* the status is at most the verdict's (the judge's label through the abstention policy, or the
  parallel answerability check), at most PARTIAL when a claim was dropped, and UNANSWERABLE
  when no claim is left: an answer that cites nothing answers nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from agentic_rag._answering.compose import compose_text, removed_note
from agentic_rag._answering.grounding import grounding_problem
from agentic_rag._contracts import AnswerStatus, Claim, GroundedAnswer, Snippet

__all__ = ["guard_answer", "guard_status", "least_status", "unsupported_claims"]

_RANK = {AnswerStatus.UNANSWERABLE: 0, AnswerStatus.PARTIAL: 1, AnswerStatus.ANSWERED: 2}


def least_status(*statuses: AnswerStatus) -> AnswerStatus:
    """The weakest of ``statuses`` (UNANSWERABLE < PARTIAL < ANSWERED)."""
    return min((AnswerStatus(s) for s in statuses), key=_RANK.__getitem__)


def guard_status(claimed: AnswerStatus, verdict: AnswerStatus, *, dropped: int, kept: int) -> AnswerStatus:
    """The status an answer may carry.

    Args:
        claimed: What the synthesizer or generator said.
        verdict: What the evidence supports (judge and policy, or answerability check).
        dropped: Claims removed because their citations did not hold.
        kept: Claims left.

    Returns:
        ``claimed`` lowered to the verdict, to PARTIAL when claims were dropped, and to
        UNANSWERABLE when none is left.
    """
    status = least_status(claimed, verdict)
    if dropped:
        status = least_status(status, AnswerStatus.PARTIAL)
    return AnswerStatus.UNANSWERABLE if kept == 0 else status


def unsupported_claims(claims: Sequence[Claim], snippets: Sequence[Snippet]) -> tuple[Claim, ...]:
    """Return the claims that do not hold.

    A claim does not hold when it says nothing (no letter or digit), has no citation, cites a
    snippet that was never retrieved, quotes text that does not stand at the cited span, or
    fails the grounding check (:func:`~agentic_rag._answering.grounding.grounding_problem`:
    its quotes are no evidence, or its content is not in them).
    """
    by_id = {s.id: s for s in snippets}
    bad = []
    for claim in claims:
        empty = not any(ch.isalnum() for ch in claim.text)
        if empty or not claim.citations or any(c.snippet_id not in by_id or not c.is_supported_by(by_id[c.snippet_id]) for c in claim.citations):
            bad.append(claim)
            continue
        cited = [by_id[c.snippet_id] for c in claim.citations]
        if grounding_problem(claim.text, [c.quote for c in claim.citations], [f"{s.title}\n{s.text}" for s in cited]):
            bad.append(claim)
    return tuple(bad)


def guard_answer(answer: GroundedAnswer, snippets: Sequence[Snippet], verdict: AnswerStatus) -> GroundedAnswer:
    """Apply the guard to a grounded answer.

    Args:
        answer: Any synthesizer's answer.
        snippets: The evidence it was written from.
        verdict: The status the evidence supports.

    Returns:
        The answer, unchanged when it already holds; otherwise with the failing claims
        removed, the text recomposed (noting how many were removed) and the status lowered.
    """
    bad = unsupported_claims(answer.claims, snippets)
    claims = tuple(c for c in answer.claims if c not in bad)
    status = guard_status(answer.status, verdict, dropped=len(bad), kept=len(claims))
    if not bad and status is answer.status:
        return answer
    text = answer.text
    if bad:
        text = compose_text(claims, [removed_note(len(bad))])
    elif status is AnswerStatus.UNANSWERABLE and not claims and not text:
        text = "The evidence is insufficient to answer this question."
    return dataclasses.replace(answer, claims=claims, status=status, text=text)
