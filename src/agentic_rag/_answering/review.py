"""Reviewing an answer's claims: the lexical grounding check, and a verifier for its doubts.

Every claim of every answer, in both workflows, goes through :func:`review_claims`:

* a claim refused outright (its citation does not hold, it is addressed to a model, it cites
  nothing) is dropped, whatever any verifier would say;
* a claim the lexical check doubts (:func:`~agentic_rag._answering.grounding.check_grounding`)
  goes to the verifier, all of an answer's doubts in one call; only a NO drops it. Without a
  verifier, or with :class:`LexicalClaimVerifier`, every doubt stands and the claim is dropped;
* a claim the check finds grounded is kept without a review.

What happened to each doubted or dropped claim is kept as a
:class:`~agentic_rag._contracts.ClaimReview`, so a caller sees every dropped claim with its
reason and every claim that stands on a verifier's word.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agentic_rag._answering.grounding import check_grounding
from agentic_rag._contracts import ClaimCheck, ClaimJudgement, ClaimReview, ReviewOutcome, Snippet, SupportVerdict
from agentic_rag._errors import InvalidInputError

__all__ = ["ClaimEvidence", "LexicalClaimVerifier", "cited_passage", "review_claims"]


def cited_passage(snippet: Snippet) -> str:
    """A cited snippet as the claim check reads it: where it comes from (its file and section,
    which may say what its text does not: "releases/5.0.txt", "Affinity Name Examples") and
    its text."""
    source = next((snippet.metadata[k] for k in ("path", "source", "source_uri", "url") if isinstance(snippet.metadata.get(k), str)), "")
    section = snippet.metadata.get("section")
    heading = section if isinstance(section, str) and section else snippet.title
    return "\n".join(part for part in (source, heading, snippet.text) if part)


@dataclass(frozen=True, slots=True)
class ClaimEvidence:
    """One claim as the review reads it.

    Args:
        text: The claim's text.
        quotes: Its citations' quotes.
        sources: The cited passages (title and text).
        refused: Why its citations do not hold ("" when they do): no verifier overrules it.
    """

    text: str
    quotes: tuple[str, ...]
    sources: tuple[str, ...]
    refused: str = ""


class LexicalClaimVerifier:
    """The verifier that reads no meaning: every doubt of the lexical check stands (NO, with
    no reason of its own), so a doubted claim is dropped. The default when no model verifies,
    and the stand-in of a model verifier that failed."""

    def verify(self, checks: Sequence[ClaimCheck]) -> tuple[ClaimJudgement, ...]:
        """Return NO for every check.

        Raises:
            InvalidInputError: An item that is not a :class:`ClaimCheck`.
        """
        out = []
        for position, check in enumerate(checks):
            if not isinstance(check, ClaimCheck):
                raise InvalidInputError(f"checks[{position}] must be a ClaimCheck, got {type(check).__name__}", stage="verifier")
            out.append(ClaimJudgement(SupportVerdict.NO))
        return tuple(out)


def review_claims(items: Sequence[ClaimEvidence], verifier: object | None = None) -> tuple[ClaimReview | None, ...]:
    """Review each claim: ``None`` for one kept without doubt, else its review.

    Args:
        items: The claims with their evidence.
        verifier: A :class:`~agentic_rag._ports.ClaimVerifier` for the doubts (``None``: they
            stand).

    Returns:
        One entry per item, in order.

    Raises:
        InvalidInputError: A verifier that does not return one judgement per check.
    """
    out: list[ClaimReview | None] = []
    doubted: list[tuple[int, ClaimCheck]] = []
    for item in items:
        if item.refused:
            out.append(ClaimReview(item.text, ReviewOutcome.DROPPED, item.refused))
            continue
        finding = check_grounding(item.text, item.quotes, item.sources)
        if finding.hard:
            out.append(ClaimReview(item.text, ReviewOutcome.DROPPED, finding.problem))
            continue
        if finding.problem:
            quotes = tuple(dict.fromkeys(q for q in item.quotes if q.strip()))
            # Two quotes from one passage show it once.
            passages = tuple(dict.fromkeys(s for s in item.sources if s.strip())) or quotes
            doubted.append((len(out), ClaimCheck(item.text, quotes, passages, finding.problem)))
        out.append(None)
    if not doubted:
        return tuple(out)
    checks = [check for _, check in doubted]
    judgements = tuple((verifier or LexicalClaimVerifier()).verify(checks))  # type: ignore[attr-defined]
    if len(judgements) != len(checks) or not all(isinstance(j, ClaimJudgement) for j in judgements):
        raise InvalidInputError(f"the claim verifier must return one ClaimJudgement per check ({len(checks)}), got {judgements!r}", stage="verifier")
    for (position, check), judgement in zip(doubted, judgements):
        outcome = ReviewOutcome.DROPPED if judgement.verdict is SupportVerdict.NO else ReviewOutcome.KEPT
        # A NO without a reason is the lexical stand-in's: no reader of meaning was asked.
        read = judgement.verdict is not SupportVerdict.NO or bool(judgement.reason)
        out[position] = ClaimReview(check.claim, outcome, check.doubt, judgement.verdict if read else None, judgement.reason)
    return tuple(out)
