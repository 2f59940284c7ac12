"""The parallel workflow's verdict on a generated answer: citations, grounding, instruction-like
text, the answerability check and whether the claims earn ``answered``.

The library's own generators have their text guarded (claims that do not hold dropped, an
unanswerable verdict turned into a refusal); a caller's generator keeps its text and the
verdict goes beside it, except for text addressed to a model, which is never an answer.

A generator that reads meaning (``judges_answerability``: the LLM generator) keeps its own
verdict on whether the documents answer the question: the lexical answerability and earned
checks, which cannot tell a paraphrase from an answer on another subject, are notes beside it.
What the lexical grounding check doubts, a verifier (the generator's, or the workflow's)
settles; only its "no" drops a claim.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from agentic_rag._answering import CITATION_MARKER, least_status, marked_segments, missing_note, removed_note
from agentic_rag._answering.review import ClaimEvidence, cited_passage, review_claims
from agentic_rag._contracts import ReviewOutcome
from agentic_rag._contracts import AnswerStatus
from agentic_rag._parallel.evidence import AnswerCitation, FusedDocument, GeneratedAnswer, take_citations
from agentic_rag._parallel.generator import verify_citations
from agentic_rag._text.instructions import is_instruction_like
from agentic_rag._text.questions import split_compound

__all__ = ["answer_verdict"]


def answer_verdict(query: str, answer: GeneratedAnswer, documents: Sequence[FusedDocument], notes: list[str], answerability: Any, *,
                   owns_text: bool, verifier: Any = None, judges: bool = False) -> tuple[GeneratedAnswer, AnswerStatus, tuple[str, ...]]:
    """The honest status of a generated answer: the generator's own, lowered by the answerability check and by
    citations that do not hold. For the library's generators (``owns_text``) claims that do
    not hold are dropped, and an unanswerable verdict keeps no claim: the answer becomes a
    refusal (the documents stay in the result as evidence). A caller's generator keeps its
    text: the same checks lower the status beside it and are noted, and an answer citing
    no ``[n]`` is not lowered for that (a free-text generator is a normal case).

    ``verifier`` settles the claims the grounding check doubts; ``judges``: the generator
    reads meaning, so its own status and missing parts stand and the answerability and earned
    checks are only noted."""
    if not owns_text and is_instruction_like(answer.text):
        # Words addressed to a model are never an answer, whoever wrote them down: a
        # caller's generator that repeats an instruction from a document was steered by it.
        notes.append("the generator's answer holds text addressed to a model; it is withheld")
        return GeneratedAnswer("The generator's answer was withheld: it holds text addressed to a model.", (), refused=True), AnswerStatus.UNANSWERABLE, ()
    status = answer.status
    if verify_citations(answer, documents):
        status = least_status(status, AnswerStatus.PARTIAL)
    guarded, dropped = _grounded(answer, documents, verifier)
    if dropped and owns_text:
        answer = guarded
        notes.append(f"grounding: {len(dropped)} claim(s) removed: {'; '.join(dropped)}")
        status = least_status(status, AnswerStatus.PARTIAL if answer.citations else AnswerStatus.UNANSWERABLE)
    elif dropped:
        notes.append(f"grounding: {len(dropped)} claim(s) do not hold (the generator's text is kept): {'; '.join(dropped)}")
        status = least_status(status, AnswerStatus.PARTIAL)
    uncited = not answer.citations and not answer.refused and CITATION_MARKER.search(answer.text) is None
    if uncited and owns_text and answer.status is not AnswerStatus.UNANSWERABLE:
        status = AnswerStatus.UNANSWERABLE  # nothing cited, nothing claimed
    elif uncited and not owns_text:
        notes.append("the generator's answer cites no document ([n]); its claims were not checked against the evidence")
    missing: tuple[str, ...] = answer.missing if judges else ()
    if judges and owns_text and answerability is not False and status is not AnswerStatus.UNANSWERABLE:
        _note_lexical_checks(query, answer, documents, notes, answerability)
    elif answerability is not False and status is not AnswerStatus.UNANSWERABLE:
        verdict = answerability.check(query, documents)
        if verdict.status is not AnswerStatus.ANSWERED:
            kept = "" if owns_text else "; the generator's text is kept"
            notes.append(f"answerability: {verdict.status.value} (lowest part share {verdict.score:.3f}){kept}")
        before = status
        status, missing = least_status(status, verdict.status), verdict.missing
        earned = getattr(answerability, "earned", None)
        if missing and callable(earned) and owns_text and answer.citations:
            # One consistent verdict: a part a claim earns is never missing, whatever the
            # passage check said; with every part earned, the answer is answered.
            judged = earned(query, answer, documents)
            kept = tuple(p for p in missing if p in judged.missing)
            if kept != missing:
                notes.append(f"answered by the claims, though no passage covered them: {'; '.join(p for p in missing if p not in kept)}")
                # The claims' verdict then stands for every part: what they leave unearned is
                # missing (a passage-covered part they do not answer included), never an
                # empty list beside a partial status.
                missing = judged.missing
                status = before if judged.status is AnswerStatus.ANSWERED else least_status(before, AnswerStatus.PARTIAL)
                if judged.status is not AnswerStatus.ANSWERED:
                    notes.append(f"earned: partial: no claim holds what is asked for in {'; '.join(judged.missing)}")
        elif status is AnswerStatus.ANSWERED and callable(earned) and owns_text:
            # Passages about the topic are not yet an answer: the library's claims must
            # hold what the question asks for (a version, a default, a name...). A
            # caller's generator writes in its own words, which no lexical check can vouch
            # for; the passage check above stands beside its text.
            judged = earned(query, answer, documents)
            if judged.status is not AnswerStatus.ANSWERED:
                notes.append(f"earned: partial: no claim holds what is asked for in {'; '.join(judged.missing)}")
                status, missing = AnswerStatus.PARTIAL, judged.missing
    if not owns_text:
        return answer, status, missing
    if status is AnswerStatus.UNANSWERABLE and not answer.refused and missing and answer.citations and not dropped:
        # No passage covers the question: the answer still quotes its closest lines (cited,
        # checked above), says that they do not state what is asked, and stays unanswerable.
        answer = dataclasses.replace(_closest(answer), status=status)
        answer = dataclasses.replace(answer, text=f"{answer.text} {missing_note(split_compound(query), missing, has_claims=True)}")
    elif status is AnswerStatus.UNANSWERABLE and not answer.refused:
        reason = "; ".join(missing) if missing else "the question"
        answer = GeneratedAnswer(f"The retrieved evidence does not answer: {reason.rstrip('?.! ')}.", (), refused=True)
    elif status is AnswerStatus.PARTIAL and missing:
        note = missing_note(split_compound(query), missing, has_claims=True)
        answer = dataclasses.replace(answer, text=f"{answer.text} {note}", status=status)
    elif status is AnswerStatus.PARTIAL and dropped:
        # Partial only because claims were removed: the text says so (as the agentic guard's does).
        answer = dataclasses.replace(answer, text=f"{answer.text} {removed_note(len(dropped))}", status=status)
    return answer, status, missing


def _note_lexical_checks(query: str, answer: GeneratedAnswer, documents: Sequence[FusedDocument], notes: list[str], answerability: Any) -> None:
    """The lexical answerability and earned checks' readings, as notes beside the verdict of a
    generator that reads meaning."""
    verdict = answerability.check(query, documents)
    if verdict.status is not AnswerStatus.ANSWERED:
        notes.append(f"answerability (lexical, a note beside the generator's verdict): {verdict.status.value} (lowest part share {verdict.score:.3f})")
    earned = getattr(answerability, "earned", None)
    if callable(earned) and answer.citations:
        judged = earned(query, answer, documents)
        if judged.status is not AnswerStatus.ANSWERED:
            notes.append(f"earned (lexical, a note beside the generator's verdict): {judged.status.value}: {'; '.join(judged.missing)}")


CLOSEST_UNITS = 2
"""Most cited units an unanswerable answer keeps: its closest lines, not an answer."""


def _closest(answer: GeneratedAnswer) -> GeneratedAnswer:
    """``answer`` cut to its first :data:`CLOSEST_UNITS` cited units (and their citations)."""
    segments = marked_segments(answer.text)[:CLOSEST_UNITS]
    pending = list(answer.citations)
    parts, kept = [], []
    for claim, numbers in segments:
        cited = take_citations(pending, numbers)
        end = claim[-1] if claim and claim[-1] in ".!?" and "\n" not in claim else ""
        parts.append(f"{claim[:-1] if end else claim}{''.join(f' [{n}]' for n in numbers)}{end}")
        kept.extend(cited)
    return dataclasses.replace(answer, text=" ".join(parts), citations=tuple(kept))


def _grounded(answer: GeneratedAnswer, documents: Sequence[FusedDocument], verifier: Any = None) -> tuple[GeneratedAnswer, list[str]]:
    """Drop the claims of ``answer`` that fail the grounding check (their quotes are no
    evidence, or they say what the cited documents do not) and that no verifier vouches for,
    with the citations only they used.

    Returns:
        The answer (unchanged when every claim holds; with the doubted or dropped claims added
        to its ``reviews``) and one reason per dropped claim.
    """
    if answer.refused:
        return answer, []
    segments = []
    pending = list(answer.citations)
    for claim, numbers in marked_segments(answer.text):
        cited = take_citations(pending, numbers)
        quotes = tuple(c.quote for c in cited if c.quote)
        sources = tuple(cited_passage(d.snippet) if d.snippet is not None else d.text for n in numbers if 1 <= n <= len(documents) for d in (documents[n - 1],))
        segments.append((claim, numbers, cited, ClaimEvidence(claim, quotes, sources)))
    reviews = review_claims([item for *_, item in segments], verifier)
    kept_parts: list[str] = []
    kept: list[AnswerCitation] = []
    dropped: list[str] = []
    for (claim, numbers, cited, _), review in zip(segments, reviews):
        if review is not None and review.outcome is ReviewOutcome.DROPPED:
            dropped.append(review.reason)
            continue
        end = claim[-1] if claim and claim[-1] in ".!?" and "\n" not in claim else ""
        markers = "".join(f" [{n}]" for n in numbers)
        kept_parts.append(f"{claim[:-1] if end else claim}{markers}{end}")
        kept.extend(cited)
    new_reviews = answer.reviews + tuple(r for r in reviews if r is not None and r not in answer.reviews)
    if not dropped:
        return (dataclasses.replace(answer, reviews=new_reviews) if new_reviews != answer.reviews else answer), []
    if not kept_parts:
        return GeneratedAnswer("The retrieved evidence does not support any claim of the answer.", (), refused=True, reviews=new_reviews), dropped
    return dataclasses.replace(answer, text=" ".join(kept_parts), citations=tuple(kept), reviews=new_reviews), dropped
