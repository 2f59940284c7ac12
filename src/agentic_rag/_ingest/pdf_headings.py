"""Headings a PDF without an outline shows by its typography, and the sections they open.

A manual page set by groff, a report saved from a word processor: no bookmarks, no running
chapter title, yet headings plain to the eye. A line is read as a heading from how it is set
(:class:`~agentic_rag._ingest.pdf.layout.LineStyle`: where it starts, its font size, how much
of it is bold), never from its words:

- it starts in a bold face or is set larger than the body text (the size most characters of
  the file use), is short (at most :data:`MAX_HEADING` characters) and is not a sentence (it
  does not end in a comma, a semicolon or a word's full stop);
  or, set plainly, it is one of at least :data:`LIST_TAGS` short lines at one indent, each
  over text indented to one deeper indent (a list of option tags in the body's face);
- and either the text after it is indented further (a man page's ``OPTIONS`` over its body, an
  option's ``-x, --exclude`` tag over its description: a *hanging* heading), or it is followed
  by a tag that is (tags set one under another share their description), or it is wholly bold
  or larger, starts its block, and the text after it is set plainly at its indent or further (a
  report's ``Results`` over its paragraph: a *flush* heading).

Headings nest by their typography: a larger one holds a smaller one, and of two the same size
the one further left holds the other. A tag set apart from its description on one line (by a
gap wider than ``TAB_GAP`` font sizes, or bold before plain text over a description indented
under it) is the heading without the description. A hanging heading holds only the text
indented under it: a plain line starting at its indent or left of it closes it (the paragraph
after an option list is back in the section around the list), except the outermost heading
open, which runs to the next heading of its rank. Running headers and footers (the page
furniture) are never headings and never close one.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = ["MAX_HEADING", "typography_segments"]

#: Headings are at most this many characters long.
MAX_HEADING = 80
LARGER = 1.15        # a heading set larger than the body is at least this much larger
SAME_SIZE = 0.05     # sizes within this fraction of each other are one size
INDENT = 0.25        # an indent is deeper than this many body font sizes
_STACKED_WORDS = 3   # tags set one under another are this short (longer: a tag and its description)
LIST_TAGS = 3        # plain tags at one pair of indents: a list when there are at least this many


class Style(Protocol):
    """How a line is set (the fields of :class:`~agentic_rag._ingest.pdf.layout.LineStyle`)."""

    x0: float
    size: float
    bold: int
    tab: int


@dataclass(frozen=True, slots=True)
class _Line:
    page: int
    index: int
    text: str
    x0: float
    size: float
    bold: int
    starts_block: bool
    title: str  # the text a heading on this line reads (its tag, when a description follows on the line)


@dataclass(frozen=True, slots=True)
class _Open:
    text: str
    x0: float
    size: float
    hanging: bool


def _lines(pages: Sequence[tuple[Sequence[str], Sequence[Style | None], frozenset[int]]]) -> list[_Line]:
    """The styled lines of every page in order, furniture and blank lines left out."""
    out = []
    for p, (lines, styles, furniture) in enumerate(pages):
        previous_blank = True
        for k, (text, style) in enumerate(zip(lines, styles)):
            if style is None or not text.strip():
                previous_blank = True
                continue
            # A hostile file's coordinates may be infinite or NaN: such a line is never a heading.
            if k not in furniture and math.isfinite(style.x0) and math.isfinite(style.size) and style.size > 0:
                text = " ".join(text.split())
                out.append(_Line(p, k, text, style.x0, style.size, style.bold, previous_blank, _title(text, style)))
            previous_blank = False
    return out


def _title(text: str, style: Style) -> str:
    """What a heading on this line reads: the line, or only its tag when the start of a
    description follows the tag on the line (set apart by a wide gap, or running on in plain
    words after the bold tag: ``-delete Delete files; true if...``)."""
    if 0 < style.tab < len(text) and style.bold <= style.tab:
        return text[:style.tab].rstrip()
    if 0 < style.bold < len(text):
        tag = text[:style.bold].rstrip()
        if len(text.split()) - len(tag.split()) > _STACKED_WORDS:
            return tag
    return text


def _body_size(lines: list[_Line]) -> float:
    """The font size most characters are set in (rounded to a tenth of a point)."""
    sizes: Counter[float] = Counter()
    for line in lines:
        sizes[round(line.size, 1)] += len(line.text)
    return min(sizes.items(), key=lambda item: (-item[1], item[0]))[0] if sizes else 0.0


def _sentence(text: str) -> bool:
    """Whether a line reads as running text, not a title: it ends a clause, or goes on (a
    command continued on the next line ends in a backslash)."""
    if text.endswith((",", ";", "\\")):
        return True
    # "...", "etc." after a tag or a lone letter ("a.") are not a sentence's end.
    return text.endswith(".") and not text.endswith("..") and len(text) >= 3 and text[-2].isalpha() and text[-3].isalpha()


def _candidate(line: _Line, body: float) -> bool:
    """Set like a heading: bold at its start or larger than the body, short, not a sentence."""
    larger = line.size >= body * LARGER
    starts_bold = line.bold > 0 and any(c.isalnum() for c in line.text[:line.bold])
    return (larger or starts_bold) and len(line.title) <= MAX_HEADING and any(c.isalnum() for c in line.title) \
        and not _sentence(line.title)


def _same_size(a: float, b: float) -> bool:
    return abs(a - b) <= SAME_SIZE * max(a, b)


def _tag(line: _Line) -> str:
    """The bold words a line starts with, when they are a short tag before plain text."""
    if not 0 < line.bold < len(line.text):
        return ""
    tag = line.text[:line.bold].rstrip()
    return tag if len(tag.split()) <= _STACKED_WORDS and any(c.isalnum() for c in tag) and not _sentence(tag) else ""


def _plain_tags(lines: list[_Line], body: float) -> set[int]:
    """Lines that are the tags of a list set in the body's plain face: short lines, each
    starting its block, over text indented under them and followed, once that text ends, by
    the next tag of the list (or following the one before), at least :data:`LIST_TAGS` of them
    at one indent over one deeper indent (``-user uname`` over its description in find's
    manual; not ``or`` over an indented example in running text)."""
    indent = INDENT * body
    found: dict[int, tuple[int, int]] = {}
    for n in range(len(lines) - 1):
        line, after = lines[n], lines[n + 1]
        title = line.title
        if line.bold or not line.starts_block or after.x0 <= line.x0 + indent or len(title) > MAX_HEADING // 2 \
                or len(title.split()) > _STACKED_WORDS or title.endswith(":") or _sentence(title) \
                or not any(c.isalnum() for c in title):
            continue
        found[n] = (round(line.x0), round(after.x0))
    listed: set[int] = set()
    for n, at in found.items():
        # The first line after the tag's indented text: the next tag of the same list?
        m = n + 1
        while m < len(lines) and lines[m].x0 > lines[n].x0 + indent:
            m += 1
        if found.get(m) == at:
            listed.update((n, m))
    shared = Counter(found[n] for n in listed)
    return {n for n in listed if shared[found[n]] >= LIST_TAGS}


def _headings(lines: list[_Line], body: float) -> dict[int, tuple[bool, str]]:
    """Which lines (by position in ``lines``) are headings: whether each is hanging, its title."""
    indent = INDENT * body
    plain = _plain_tags(lines, body)
    found: dict[int, tuple[bool, str]] = {}
    # From the last line back: a tag is a heading when the tag under it is one.
    for n in range(len(lines) - 2, -1, -1):
        line, after = lines[n], lines[n + 1]
        candidate = n in plain or _candidate(line, body)
        if after.x0 > line.x0 + indent:
            if candidate:
                found[n] = (True, line.title)
            elif line.starts_block and _tag(line):
                # An option's tag and the start of its description on one line, the rest of
                # the description indented under it ("-delete Delete files; true if...").
                found[n] = (True, _tag(line))
        elif n + 1 in found and found[n + 1][0] and abs(after.x0 - line.x0) <= indent and _same_size(after.size, line.size):
            if candidate and len(line.title.split()) <= _STACKED_WORDS:
                found[n] = (True, line.title)
            elif _tag(line):
                # A one-line entry of a tag list ("--help display this help and exit").
                found[n] = (True, _tag(line))
        elif candidate and line.starts_block and (line.bold >= len(line.text) or line.size >= body * LARGER) \
                and after.x0 >= line.x0 - indent and not _candidate(after, body) and after.size < line.size * (1 + SAME_SIZE):
            found[n] = (False, line.title)
    return found


def _holds(outer: _Open, inner: _Line | _Open, indent: float) -> bool:
    """Whether ``outer`` is a heading of a higher rank than ``inner``."""
    if not _same_size(outer.size, inner.size):
        return outer.size > inner.size
    return outer.x0 < inner.x0 - indent


def typography_segments(pages: Sequence[tuple[Sequence[str], Sequence[Style | None], frozenset[int]]]) -> list[list[tuple[int, tuple[str, ...]]]]:
    """Where each page's sections start, from the headings its typography shows.

    Args:
        pages: Per page: its lines, their styles (one per line, ``None`` for a blank line;
            a page whose styles are missing gives no headings) and the indexes of its
            furniture lines.

    Returns:
        Per page, ``(line index, heading path)`` pairs in line order, the first at index 0
        with the path open at the top of the page (``()`` before the first heading).
    """
    usable = [(lines, styles if len(styles) == len(lines) else [None] * len(lines), furniture)
              for lines, styles, furniture in pages]
    lines = _lines(usable)
    body = _body_size(lines)
    headings = _headings(lines, body) if body else {}
    indent = INDENT * body
    by_page: list[list[int]] = [[] for _ in pages]
    for n, line in enumerate(lines):
        by_page[line.page].append(n)
    segments: list[list[tuple[int, tuple[str, ...]]]] = []
    path: list[_Open] = []
    for numbers in by_page:
        # The path open at the top of a page is the one the page before ended with.
        page = [(0, tuple(h.text for h in path))]
        for n in numbers:
            line = lines[n]
            if n in headings:
                while path and not _holds(path[-1], line, indent):
                    path.pop()
                hanging, title = headings[n]
                path.append(_Open(title, line.x0, line.size, hanging))
            else:
                # A plain line at a hanging heading's indent or left of it is out of that
                # heading (the outermost one runs on to the next heading of its rank).
                while len(path) > 1 and path[-1].hanging and line.x0 <= path[-1].x0 + indent \
                        and _same_size(path[-1].size, line.size):
                    path.pop()
            current = tuple(h.text for h in path)
            if current != page[-1][1]:
                if page[-1][0] == line.index:
                    page[-1] = (line.index, current)
                else:
                    page.append((line.index, current))
        segments.append(page)
    return segments
