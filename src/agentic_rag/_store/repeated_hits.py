"""Printed hits that repeat an earlier hit's statements, folded into it.

Release logs repeat earlier notes: a patch release's page restates the notes of the release it
patches, and a search printed both pages, one above the other, with the same statements. That
costs bytes, and hides that the two are the same statements, so the reader opened both to learn
which release made the change. After the second stage has chosen the hits to print
(:func:`~agentic_rag._store.second_stage.finish_hits`), a hit whose focus statements all stand
in the focus of a hit printed before it is not printed on its own: the earlier hit carries
where else the same lines stand (:attr:`~agentic_rag._store.records.StoreHit.also_at`).

Statements are compared as words: case-folded runs of letters and digits, so markup, line
breaks, a cut's ellipsis and the line numbers of the printed focus do not tell two copies
apart. A statement stands in a focus when its words are a run of the focus's words.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from agentic_rag._regex import lazy_regex
from agentic_rag._store.records import AlsoAt, StoreHit

__all__ = ["focus_statements", "fold_repeats", "in_file_order"]

# The source lines each printed piece starts with (``12: `` or ``12-14: ``): a statement's
# place, not its words.
_NUMBERED = lazy_regex(r"^\d+(?:-\d+)?: ", re.MULTILINE)
_WORD = lazy_regex(r"[^\W_]+")
_DIGITS = lazy_regex(r"(\d+)")


def focus_statements(focus_text: str) -> list[str]:
    """The statements of a printed focus as words: each numbered piece (or each line, when
    the pieces are not numbered) as its case-folded letters and digits, one space between
    words; pieces without a word left out."""
    marks = list(_NUMBERED.finditer(focus_text))
    if marks:
        ends = [m.start() for m in marks[1:]] + [len(focus_text)]
        pieces = [focus_text[m.end():b] for m, b in zip(marks, ends)]
    else:
        pieces = focus_text.split("\n")
    words = (" ".join(_WORD.findall(piece.casefold())) for piece in pieces)
    return [w for w in words if w]


def fold_repeats(hits: Sequence[StoreHit]) -> list[StoreHit]:
    """``hits`` with each hit whose focus statements all stand in an earlier printed hit's
    focus folded into that hit.

    Args:
        hits: The hits to print, best first, each with its focus text.

    Returns:
        The hits still printed, in their order; a hit that others were folded into carries
        their places in :attr:`~agentic_rag._store.records.StoreHit.also_at`, in file order
        (:func:`in_file_order`).
        The best-ranked hit holding them all takes a folded hit, so the same hits give the
        same output.
    """
    kept: list[StoreHit] = []
    focus: list[str] = []  # each kept hit's focus words, padded so a run matches whole words
    places: list[list[AlsoAt]] = []
    by_word: dict[str, list[int]] = {}  # word -> kept hits whose focus holds it, in rank order
    for hit in hits:
        statements = focus_statements(hit.focus_text) if hit.focus_start_line is not None else []
        into = _holder(statements, focus, by_word) if statements else None
        if into is not None:
            places[into].append(_place(hit))
            continue
        number = len(kept)
        kept.append(hit)
        words = " ".join(focus_statements(hit.focus_text))
        focus.append(f" {words} ")
        places.append([])
        # Only the hits a statement's first word names are read whole: a hit is compared with
        # the few earlier ones that hold that word, never with every earlier hit.
        for word in dict.fromkeys(words.split()):
            by_word.setdefault(word, []).append(number)
    return [dataclasses.replace(hit, also_at=in_file_order(hit.also_at + tuple(found))) if found or hit.also_at else hit
            for hit, found in zip(kept, places)]


def _file_key(place: AlsoAt) -> tuple[object, ...]:
    # Numbers in a name compare by value ("3_38_1" before "3_38_10"), each run of digits
    # after the text before it, so names that mix the two still compare.
    parts = _DIGITS.split(place.path)
    return tuple((text, int(number)) for text, number in zip(parts[::2], parts[1::2] + ["-1"])), place.page or 0, place.cell or 0, place.start_line


def in_file_order(places: Sequence[AlsoAt]) -> tuple[AlsoAt, ...]:
    """``places`` sorted by file name, numbers in names by value, then by place in the file.

    Release logs are where statements repeat: a patch release's page restates the notes of the
    releases before it. In version order the first place is the release that made the change,
    which a reader of the repeats is looking for; in rank order it stood wherever BM25 put it
    ("+1 more" hid it once).
    """
    return tuple(sorted(places, key=_file_key))


def _holder(statements: Sequence[str], focus: Sequence[str], by_word: dict[str, list[int]]) -> int | None:
    """The best-ranked kept hit whose focus holds every one of ``statements`` (``None``: none)."""
    for number in by_word.get(statements[0].split(" ", 1)[0], ()):
        if all(f" {statement} " in focus[number] for statement in statements):
            return number
    return None


def _place(hit: StoreHit) -> AlsoAt:
    """Where a folded hit's focus lines stand."""
    start = hit.focus_start_line if hit.focus_start_line is not None else hit.start_line
    end = hit.focus_end_line if hit.focus_end_line is not None else hit.end_line
    return AlsoAt(hit.path, start, end, hit.page, hit.cell, hit.page_label if hit.page is not None else "")
