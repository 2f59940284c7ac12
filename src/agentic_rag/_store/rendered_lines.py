"""A file's text as its loader read it, line by line, rebuilt from consecutive chunks.

Consecutive chunks of a file overlap: a chunk opens with the last whole sentences of the one
before (:mod:`~agentic_rag._ingest.chunker`), so its text starts with a suffix of the previous
chunk's text, on the same source lines. :func:`rendered_lines` stitches a run of chunks back
into one text per page or cell (each overlap kept once), then cuts it at its line breaks: each
:class:`RenderedLine` is one line of rendered text (HTML without its tags, a PDF page's line, a
Markdown line without its markup) with the source lines its first and last characters come
from, as the chunk's line map says. A line is numbered by its first character's source line,
as search numbers its focus lines (:mod:`~agentic_rag._text.focus`), so a cited line reads back
as the line search printed.

A record of a JSON, JSONL or CSV file has no line map (its text is assembled from fields): each
of its lines stands for the record's whole line range.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["ChunkText", "RenderedLine", "rendered_lines"]

# (offset, first line, last line): text from ``offset`` on comes from these source lines.
_Mark = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class ChunkText:
    """What stitching needs of one chunk (a stored row or a chunk made from the file).

    Args:
        n: Its position in the file (consecutive chunks are stitched).
        text: Its text.
        marks: ``(offset, first line, last line)`` triples, offsets increasing from 0.
        section: Its heading path.
        page: The PDF page its lines count in, else ``None``.
        cell: The notebook cell its lines count in, else ``None``.
    """

    n: int
    text: str
    marks: tuple[_Mark, ...]
    section: str = ""
    page: int | None = None
    cell: int | None = None

    @classmethod
    def of(cls, n: int, text: str, line_marks: Sequence[tuple[int, int]], *, start_line: int, end_line: int, section: str = "",
           page: int | None = None, cell: int | None = None) -> ChunkText:
        """A chunk from its line map (``(offset, line)`` pairs); without one (a record), every
        character stands for ``start_line``-``end_line``."""
        marks = tuple((offset, line, line) for offset, line in line_marks) or ((0, start_line, end_line),)
        return cls(n, text, marks, section, page, cell)

    @property
    def place(self) -> tuple[int | None, int | None]:
        """``(page, cell)``: the lines of one place count together."""
        return self.page, self.cell


@dataclass(frozen=True, slots=True)
class RenderedLine:
    """One line of rendered text.

    Args:
        line: The source line its first character comes from (the number it is shown with).
        last_line: The source line its last character comes from (``>= line``).
        text: The line, trailing white space dropped (leading kept: code stays indented).
        section: The heading path of the section it is in.
        page: The PDF page its lines count in, else ``None``.
        cell: The notebook cell its lines count in, else ``None``.
    """

    line: int
    last_line: int
    text: str
    section: str = ""
    page: int | None = None
    cell: int | None = None

    def overlaps(self, start: int, end: int) -> bool:
        """True when the line's source lines meet ``start``-``end``."""
        return self.line <= end and self.last_line >= start


def _mark_at(marks: Sequence[_Mark], offset: int) -> _Mark:
    position = bisect_right(marks, (offset, float("inf"), float("inf"))) - 1
    return marks[max(position, 0)]


def _overlap(previous: ChunkText, chunk: ChunkText) -> int:
    """Characters ``chunk`` repeats of the end of ``previous``: its longest prefix that is a
    suffix of ``previous`` starting at a word, on the same source lines (0 when none)."""
    a, b = previous.text, chunk.text
    if not b:
        return 0
    p = a.find(b[0], max(0, len(a) - len(b)))
    while p >= 0:
        if (p == 0 or a[p - 1].isspace()) and b.startswith(a[p:]) and _mark_at(previous.marks, p)[1:] == _mark_at(chunk.marks, 0)[1:]:
            return len(a) - p
        p = a.find(b[0], p + 1)
    return 0


def _stitch(chunks: Sequence[ChunkText]) -> tuple[str, list[_Mark], list[tuple[int, str]]]:
    """One place's chunks as one text, its marks and its sections (``(offset, heading)``)."""
    text = ""
    marks: list[_Mark] = []
    sections: list[tuple[int, str]] = []
    previous: ChunkText | None = None
    for chunk in chunks:
        skip = 0
        if previous is not None:
            skip = _overlap(previous, chunk)
            if skip >= len(chunk.text):
                continue  # nothing new
            if not skip:
                # No repeated sentence: a new section or block starts a line; a sentence cut
                # from the previous chunk's line goes on on the same line.
                last = _mark_at(previous.marks, max(len(previous.text) - 1, 0))[2]
                same = chunk.section == previous.section and _mark_at(chunk.marks, 0)[1] == last
                text += " " if same else "\n"
        base = len(text) - skip
        head = _mark_at(chunk.marks, skip)
        if marks and marks[-1][0] == len(text):
            marks.pop()
        marks.append((len(text), head[1], head[2]))
        marks.extend((base + offset, first, last) for offset, first, last in chunk.marks if offset > skip)
        if not sections or sections[-1][1] != chunk.section:
            sections.append((len(text), chunk.section))
        text += chunk.text[skip:]
        previous = chunk
    return text, marks, sections


def rendered_lines(chunks: Sequence[ChunkText]) -> list[RenderedLine]:
    """The rendered lines of consecutive chunks of one file, each once, in file order.

    Args:
        chunks: Consecutive chunks (by ``n``), as the chunker made them.

    Returns:
        Every line holding more than white space; a line cut across chunks is whole when
        both chunks are given.
    """
    out: list[RenderedLine] = []
    start = 0
    ordered = sorted(chunks, key=lambda c: c.n)
    while start < len(ordered):
        stop = start
        while stop < len(ordered) and ordered[stop].place == ordered[start].place:
            stop += 1
        page, cell = ordered[start].place
        text, marks, sections = _stitch(ordered[start:stop])
        heads = [offset for offset, _ in sections]
        position = 0
        for raw in text.split("\n"):
            body = raw.rstrip()
            if body.strip():
                first = position + len(body) - len(body.lstrip())
                last = position + len(body) - 1
                section = sections[max(bisect_right(heads, first) - 1, 0)][1]
                line, end = _mark_at(marks, first)[1], _mark_at(marks, last)[2]
                out.append(RenderedLine(line, max(line, end), body, section, page, cell))
            position += len(raw) + 1
        start = stop
    return out
