"""The answer text: the claims' own words, in order, then what the answer could not say."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from agentic_rag._contracts import AnswerStatus, Claim, ConflictEvidence, ContextAssessment, GroundedAnswer, RequiredFact, RetrievalPlan
from agentic_rag._regex import lazy_regex

__all__ = ["CITATION_MARKER", "compose_answer", "compose_text", "marked_segments", "missing_note", "outcome_notes", "removed_note"]

#: A citation marker ``[n]`` of an answer that cites documents by number: after white space and
#: before white space, closing punctuation or the end, so ``x[0]`` or ``parts[1].lower()`` in
#: quoted code is not read as one.
CITATION_MARKER = lazy_regex(r"(?<=\s)\[(\d+)\](?=[.!?;:,]?(?:\s|$))")
# A claim ends at a run of one or more markers and the punctuation closing it; the claim is
# the text from the end of the previous run. The run is found on its own, from the start of
# its white space (``(?<!\s)``): a lazy ``.*?`` before it, tried from every character after the
# last marker, scanned the rest of the text each time (quadratic in a long answer).
_MARKER_RUN = lazy_regex(r"(?<!\s)(?:\s+\[\d+\](?=[.!?;:,]?(?:\s|$)))+[.!?;:,]?")


def compose_text(claims: Sequence[Claim], notes: Iterable[str] = ()) -> str:
    """Join claims and notes into the answer text.

    Each claim's text appears once, in claim order. Claims that span several lines (a code
    block with its lead-in, a list) keep their lines and are set off by blank lines, so a
    command is never run together with the sentence after it; one-line claims are joined
    with spaces. Notes (what is missing, where the sources disagree) follow.

    Args:
        claims: The answer's claims, best first.
        notes: Sentences to append, in order.

    Returns:
        The text ("" when there is nothing to say).
    """
    texts = list(dict.fromkeys(c.text.strip() for c in claims if c.text.strip()))
    separator = "\n\n" if any("\n" in t for t in texts) else " "
    parts = [separator.join(texts)] if texts else []
    parts.extend(n.strip() for n in notes if n.strip())
    return separator.join(parts) if len(parts) > 1 and separator != " " else " ".join(parts)


def outcome_notes(plan: RetrievalPlan, conflicts: Sequence[ConflictEvidence], missing: Sequence[RequiredFact], *, has_claims: bool, status: AnswerStatus) -> list[str]:
    """What an answer says beyond its claims: each conflict with both sides, the facts not
    found, or (with nothing found and nothing missing named) that the evidence is insufficient.

    Args:
        plan: The plan (for the facts' descriptions).
        conflicts: Conflicting evidence, one per fact.
        missing: Facts the evidence did not cover.
        has_claims: Whether the answer has claims.
        status: The answer's status.

    Returns:
        Sentences for :func:`compose_text`'s ``notes``.
    """
    notes = []
    for conflict in conflicts:
        sides = " versus ".join(g.value for g in conflict.groups)
        notes.append(f"The sources disagree on {plan.fact(conflict.fact_id).description.rstrip('?.! ')}: {sides}.")
    if missing:
        notes.append(missing_note([f.description for f in plan.facts], [f.description for f in missing], has_claims=has_claims))
    elif status is AnswerStatus.UNANSWERABLE:
        notes.append("The evidence is insufficient to answer this question.")
    return notes


_ORDINALS = ("first", "second", "third", "fourth", "fifth")


def missing_note(parts: Sequence[str], missing: Sequence[str], *, has_claims: bool) -> str:
    """The sentence saying what an answer could not find, brief: the answer's
    ``missing_facts`` already name each part in full, so the text does not repeat them.

    Args:
        parts: The question's parts (a plan's fact descriptions), in question order.
        missing: The parts not found (each one of ``parts``, or a description of its own).
        has_claims: Whether the answer quotes anything (its claims are then the closest
            lines, not an answer, for a part not found).

    Returns:
        For a question none of whose parts was found, that its quoted lines do not state
        what is asked (or, with nothing quoted, that the evidence is insufficient); else the
        missing parts by their place in the question ("the second part"); ``""`` when
        nothing is missing.
    """
    if not missing:
        return ""
    if all(part in missing for part in parts):
        return "None of these lines states what is asked." if has_claims else "The evidence is insufficient to answer this question."
    places = [_ORDINALS[n] if n < len(_ORDINALS) else f"{n + 1}th" for n, part in enumerate(parts) if part in missing]
    named = [m.rstrip("?.! ") for m in missing if m not in parts]  # not one of the parts: named in full
    lead = "Not found in the evidence" if has_claims else "The evidence is insufficient to answer; not found"
    placed = [f"the {_joined(places)} part{'s' if len(places) > 1 else ''} of the question"] if places else []
    return f"{lead}: {'; '.join(placed + named)}."


def _joined(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def removed_note(count: int) -> str:
    """The note that ``count`` claims were dropped because their citations did not hold
    (``""`` for none, which :func:`compose_text` skips)."""
    return f"({count} claim(s) removed: their citations did not hold.)" if count else ""


def compose_answer(
    plan: RetrievalPlan,
    assessment: ContextAssessment,
    claims: tuple[Claim, ...],
    status: AnswerStatus,
    missing: tuple[RequiredFact, ...],
    extra_notes: Iterable[str] = (),
) -> GroundedAnswer:
    """The final answer of a synthesizer: its claims, then the outcome notes and any others.

    Args:
        plan: The plan (for the facts' descriptions).
        assessment: The judge's verdict (conflicts and score).
        claims: The answer's claims.
        status: The answer's status.
        missing: Facts the evidence did not cover.
        extra_notes: Notes after the outcome notes (a removed-claims note, say).

    Returns:
        The grounded answer, its text composed by :func:`compose_text`.
    """
    notes = outcome_notes(plan, assessment.conflicts, missing, has_claims=bool(claims), status=status) + list(extra_notes)
    return GroundedAnswer(
        text=compose_text(claims, notes),
        claims=claims,
        status=status,
        missing_facts=missing,
        final_score=assessment.sufficiency_score,
        conflicts=assessment.conflicts,
    )


def marked_segments(text: str) -> list[tuple[str, tuple[int, ...]]]:
    """The claims of an answer that cites documents as ``[n]``: each is the text up to its run
    of markers (and the punctuation closing it), with the numbers it cites.

    Args:
        text: The answer text.

    Returns:
        ``(claim text without markers, cited numbers)`` pairs in order; text after the last
        marker is not a claim.
    """
    out = []
    start = 0
    for run in _MARKER_RUN.finditer(text):
        marked, start = text[start:run.end()], run.end()
        numbers = tuple(int(n) for n in CITATION_MARKER.findall(marked))
        claim = CITATION_MARKER.sub("", marked).strip()
        claim = claim if "\n" in claim else " ".join(claim.split()).replace(" .", ".")
        out.append((claim, numbers))
    return out
