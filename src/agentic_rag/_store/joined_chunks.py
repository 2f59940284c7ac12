"""A printed hit read with the next and previous chunks of its section that the first stage found.

The chunker cuts a long section where its size runs out, so one section's statements can stand
in two or three chunks: a glossary entry's first half in one and its example in the next, a
module page's description of its generator in one and the generator's period in the next. The
second stage ranks chunks, so a hit is one of them, and when the answer stands in the half
that shares fewer of the question's words, the first stage finds it (the section matches) but
it is neither the hit nor printed. Here, once the second stage has chosen and ranked the hits
(its ranking is not changed), each printed hit is joined with the consecutive chunks of its
file, section, page and cell that are among the first stage's candidates and are not printed
themselves (at most :data:`MAX_JOINED` chunks a hit, a better hit's neighbours first):

- its text is its first chunk's followed by what each later chunk adds past the previous one's
  last line (the chunker repeats a chunk's last sentences at the next one's start), with the
  line map joined the same way, and its line range covers them all, so the hit read back
  (``show``) or in JSON holds the section's found statements;
- its focus is the hit's own chunk's, as before, with the best statement of each joined chunk
  whose focus scores at least :data:`OTHER_PART_SHARE` of it (:func:`view_joined`), numbered as
  in the file.

A chunk the first stage did not find is never joined.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from agentic_rag._store.records import StoreHit
from agentic_rag._text.focus import Focus, FocusLine, PassageView
from agentic_rag._text.relevance import RelevanceModel

__all__ = ["MAX_JOINED", "OTHER_PART_SHARE", "Joined", "join_printed", "view_joined"]

#: Most chunks read as one hit: three chunks hold a long section's statements about one thing.
MAX_JOINED = 3
#: A joined chunk's best statement is shown when its focus scores at least this share of the
#: hit's own chunk's focus.
OTHER_PART_SHARE = 0.8


@dataclasses.dataclass(frozen=True, slots=True)
class Joined:
    """A printed hit joined with its section's found neighbours.

    Args:
        hit: The joined hit: the first chunk's id and fields, the hit's own score, the joined
            text, line map and line range.
        members: Its chunks, in file order.
        own: The index in ``members`` of the chunk the second stage ranked.
        shifts: Per member, where its text stands in the joined text: ``(cut, base, head)``,
            an offset from ``cut`` on is at ``base + offset - cut``, one before ``cut`` (the
            sentences repeated from the previous chunk) at ``head + offset`` (``head`` -1
            when they are not found there).
    """

    hit: StoreHit
    members: tuple[StoreHit, ...]
    own: int
    shifts: tuple[tuple[int, int, int], ...]

    @property
    def last(self) -> str:
        """The id of its last chunk (what the chunk after the hit follows)."""
        return self.members[-1].chunk_id

    def offset(self, member: int, offset: int) -> int | None:
        """Where ``offset`` of member ``member``'s text stands in the joined text."""
        cut, base, head = self.shifts[member]
        if offset >= cut:
            return base + offset - cut
        return head + offset if head >= 0 else None


def _place(hit: StoreHit) -> tuple[tuple[str, str, int | None, int | None, str], int] | None:
    """The hit's group (file, section, page, cell, corpus) and chunk number, or ``None`` for a
    chunk id without a number (a record's)."""
    path, _, number = hit.chunk_id.rpartition("#")
    if not path or not number.isdigit():
        return None
    return (hit.path, hit.section, hit.page, hit.cell, hit.corpus_id), int(number)


def _joined(members: Sequence[StoreHit], own: StoreHit) -> Joined | None:
    """``members`` (consecutive chunks, in file order) as one hit scored as ``own``; ``None``
    when a chunk has no line map to join by or adds no line past the previous one."""
    first = members[0]
    text, marks, end = first.text, list(first.line_marks), first.end_line
    if not marks:
        return None
    shifts = [(0, 0, 0)]
    for hit in members[1:]:
        cut = next((offset for offset, line in hit.line_marks if line > end), None)
        if cut is None:
            return None
        # The chunker opens a chunk with the previous one's last sentences: they stand at the
        # end of the text joined so far.
        head = hit.text[:cut].rstrip("\n")
        shifts.append((cut, len(text) + 1, len(text) - len(head) if text.endswith(head) else -1))
        base = len(text) + 1
        text = f"{text}\n{hit.text[cut:]}"
        marks.extend((base + offset - cut, line) for offset, line in hit.line_marks if offset >= cut)
        end = max(end, hit.end_line)
    joined = dataclasses.replace(first, end_line=end, score=own.score, text=text, line_marks=tuple(marks))
    return Joined(joined, tuple(members), members.index(own), tuple(shifts))


def join_printed(printed: Sequence[StoreHit], candidates: Sequence[StoreHit]) -> dict[str, Joined]:
    """The printed hits that join found neighbours, by chunk id.

    Args:
        printed: The hits to print, best first.
        candidates: The first stage's candidates, best first (the printed hits among them).

    Returns:
        For each printed hit that has consecutive chunks of its section among the candidates
        (not printed, not joined to a better hit), what it is joined into.
    """
    rank = {hit.chunk_id: n for n, hit in enumerate(candidates)}
    by_place = {}
    for hit in candidates:
        place = _place(hit)
        if place is not None:
            by_place[place] = hit
    used = {hit.chunk_id for hit in printed}
    out: dict[str, Joined] = {}
    for hit in printed:
        place = _place(hit)
        if place is None:
            continue
        group, number = place
        run, low, high = [hit], number, number
        # Grow the run one neighbour at a time, the better-ranked neighbour first, so the same
        # candidates always give the same hits.
        while len(run) < MAX_JOINED:
            options = [h for h in (by_place.get((group, low - 1)), by_place.get((group, high + 1))) if h is not None and h.chunk_id not in used]
            if not options:
                break
            chosen = min(options, key=lambda h: rank[h.chunk_id])
            run.append(chosen)
            used.add(chosen.chunk_id)
            low, high = (low - 1, high) if chosen is by_place.get((group, low - 1)) else (low, high + 1)
        if len(run) > 1:
            joined = _joined(sorted(run, key=lambda h: _place(h)[1]), hit)  # type: ignore[index]
            if joined is not None:
                out[hit.chunk_id] = joined
    return out


def view_joined(view: Callable[..., PassageView], joined: Joined, own: PassageView, model: RelevanceModel, query: str,
                **options: Any) -> PassageView:
    """The view of a joined hit: its own chunk's view with the best statement of each joined
    chunk whose focus scores at least :data:`OTHER_PART_SHARE` of it.

    Args:
        view: What views one text (:func:`~agentic_rag._text.focus.view_passage`'s signature).
        joined: The joined hit.
        own: The view of its own chunk, as printed without the join.
        model: The store's relevance model.
        query: The query.
        **options: The view's options (``title``, ``context``, ``rate``...).

    Returns:
        One view of the joined text: focus lines in text order at their offsets in it (a
        statement two chunks both show, once); its relevance the best of the shown chunks'.
    """
    if own.focus is None:
        return own
    pieces: dict[int, tuple[FocusLine, tuple[int, int] | None]] = {}
    relevance = own.relevance

    def add(member: int, part: PassageView) -> None:
        assert part.focus is not None
        numbers = part.lines if len(part.lines) == len(part.focus.lines) else (None,) * len(part.focus.lines)
        for line, number in zip(part.focus.lines, numbers):
            start = joined.offset(member, line.start)
            if start is not None and start not in pieces:
                pieces[start] = (FocusLine(start, start + line.end - line.start, line.text), number)

    add(joined.own, own)
    for n, member in enumerate(joined.members):
        if n == joined.own:
            continue
        part = view(query, member.text, model, marks=member.line_marks, **{**options, "max_lines": 1, "fill": 0})
        if part.focus is None or part.focus.score < OTHER_PART_SHARE * own.focus.score or part.focus.score <= 0:
            continue
        relevance = max(relevance, part.relevance)
        add(n, part)
    ordered = [pieces[start] for start in sorted(pieces)]
    lines = tuple(number for _, number in ordered if number is not None)
    focus = Focus(tuple(piece for piece, _ in ordered), own.focus.score)
    return PassageView(relevance, focus, lines if len(lines) == len(ordered) else (), own.coverage)
