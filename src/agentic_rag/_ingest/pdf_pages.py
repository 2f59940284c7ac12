"""What a PDF page's lines are: page furniture, the printed page number, the section they sit in.

Page furniture is the running header and footer a manual prints on its pages (its title, a
version, a date, the chapter title, the page number). It is found by shape, from the text
alone: a line among the first or last :data:`SLOTS` non-blank lines of a page is furniture when
the line at the same place on a page one or two pages away reads the same once every number
is replaced by ``#`` (so ``Chapter 3. Installation 45`` on page 51 matches ``... 47`` on page
53, and a lone page number matches a lone page number). Furniture is counted from the edge of
the page inward: the first line that is not furniture ends the header (or the footer).

The printed page number is the number in a page's furniture that differs from the page's
index by the offset most pages share (a manual numbered from its first chapter prints
``160`` on the 166th page); lone roman numerals get their own offset (front matter).

Sections come from the outline when the file has one: each bookmark opens a section on its
page, at the line that reads like its title (at the top of the page when none does), and its
heading path is the titles of the bookmarks above it. Without an outline, a running title in
the page headers that changes along the file (a chapter title; a line on pages all through the
file is the manual's own title, not a section) names the section of each page it heads.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from agentic_rag._regex import lazy_regex

__all__ = ["SLOTS", "PageLayout", "analyse_pages", "outline_segments"]

#: How many lines from the top and from the bottom of a page may be furniture.
SLOTS = 3
_NEAR = (1, 2)  # pages this far away are compared (2: books alternate left and right headers)
_NUMBER = lazy_regex(r"\d+")
_ROMAN = lazy_regex(r"(?i)\b(?=[mdclxvi])m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})\b")
_LETTER_OR_DIGIT = lazy_regex(r"[\w#]")  # in a key, "#" stands for a number
_EDGE = lazy_regex(r"^[\s|·•\-–—:,.]+|[\s|·•\-–—:,.]+$")
_PAGE_WORD = lazy_regex(r"(?i)\bpage\b\s*$|^\s*page\b")
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


@dataclass(frozen=True, slots=True)
class PageLayout:
    """What :func:`analyse_pages` found on one page.

    Args:
        furniture: Indexes (into the page's lines) of its running header and footer lines.
        printed: The page number printed on it (``"160"``, ``"xii"``), else ``""``.
        running_title: The chapter title its header carries, else ``""``.
    """

    furniture: frozenset[int]
    printed: str
    running_title: str


def _key(line: str) -> str:
    text = " ".join(line.split()).casefold()
    if _ROMAN.fullmatch(text):
        return "#"
    return _NUMBER.sub("#", text)


def _roman_value(token: str) -> int:
    total = 0
    values = [_ROMAN_VALUES[c] for c in token.lower()]
    for k, value in enumerate(values):
        total += -value if k + 1 < len(values) and values[k + 1] > value else value
    return total


def analyse_pages(pages: Sequence[tuple[int, Sequence[str]]]) -> list[PageLayout]:
    """Find each page's furniture, printed number and running title.

    Args:
        pages: ``(page number, lines)`` per page with text, in page order.

    Returns:
        One :class:`PageLayout` per page, in the same order (nothing found in a file of fewer
        than three pages: there is nothing to compare).
    """
    if len(pages) < 3:
        return [PageLayout(frozenset(), "", "") for _ in pages]
    # slots[p][s]: (line index, key) of the page's s-th line from the top (s >= 0) or, at
    # SLOTS + s, from the bottom.
    slots: list[list[tuple[int, str] | None]] = []
    for _, lines in pages:
        filled = [k for k, line in enumerate(lines) if line.strip()]
        top = [(k, _key(lines[k])) for k in filled[:SLOTS]]
        bottom = [(k, _key(lines[k])) for k in reversed(filled[-SLOTS:])]
        slots.append(top + [None] * (SLOTS - len(top)) + bottom + [None] * (SLOTS - len(bottom)))
    matched = [[here is not None and bool(_LETTER_OR_DIGIT.search(here[1])) and any(
        0 <= p + d < len(slots) and (slots[p + d][s] or (0, None))[1] == here[1] for near in _NEAR for d in (-near, near))
        for s, here in enumerate(row)] for p, row in enumerate(slots)]
    furniture: list[set[int]] = [set() for _ in pages]
    headers: list[list[int]] = [[] for _ in pages]
    for p, row in enumerate(slots):
        for side in (0, SLOTS):
            for s in range(side, side + SLOTS):
                if not matched[p][s]:
                    break
                furniture[p].add(row[s][0])
                if side == 0:
                    headers[p].append(row[s][0])
    # A lone page number a line or two in from the edge (a chapter title above it that no
    # nearby page repeats, in a manual with one-page chapters) takes the lines outside it along.
    offset = _dominant(Counter(int(lines[row[s][0]]) - number for (number, lines), row, marks in zip(pages, slots, matched)
                               for s in range(2 * SLOTS) if marks[s] and row[s][1] == "#" and lines[row[s][0]].strip().isdecimal()))
    if offset is not None:
        for p, ((number, lines), row) in enumerate(zip(pages, slots)):
            for side in (0, SLOTS):
                for s in range(side, side + SLOTS):
                    if row[s] is not None and lines[row[s][0]].strip() == str(number + offset):
                        # The lines outside it: the edge line, and any that nearby pages repeat.
                        for outer in range(side, s + 1):
                            if (outer in (side, s) or matched[p][outer]) and row[outer][0] not in furniture[p]:
                                furniture[p].add(row[outer][0])
                                if side == 0:
                                    headers[p].append(row[outer][0])
                        break
        for found in headers:
            found.sort()
    for (_, lines), found, head in zip(pages, furniture, headers):
        if found and len(found) >= sum(1 for line in lines if line.strip()):
            found.clear()  # a page of one template with only a number changing: its text is no furniture
            head.clear()
    printed = _printed_numbers(pages, furniture)
    titles = _running_titles(pages, headers, printed)
    return [PageLayout(frozenset(f), n, t) for f, n, t in zip(furniture, printed, titles)]


def _printed_numbers(pages: Sequence[tuple[int, Sequence[str]]], furniture: list[set[int]]) -> list[str]:
    arabic: list[list[int]] = []
    roman: list[list[tuple[str, int]]] = []
    for (number, lines), found in zip(pages, furniture):
        text = [lines[k] for k in sorted(found)]
        arabic.append([int(m.group()) for line in text for m in _NUMBER.finditer(line) if len(m.group()) <= 6])
        roman.append([(m.group(), _roman_value(m.group())) for line in text for m in _ROMAN.finditer(line)
                      if m.group() and line.strip().lower() == m.group().lower()])
    offsets = Counter(value - number for (number, _), values in zip(pages, arabic) for value in set(values))
    roman_offsets = Counter(value - number for (number, _), values in zip(pages, roman) for value in {v for _, v in values})
    best = _dominant(offsets)
    best_roman = _dominant(roman_offsets)
    out = []
    for (number, _), values, romans in zip(pages, arabic, roman):
        label = ""
        if best is not None and number + best in values:
            label = str(number + best)
        elif best_roman is not None:
            label = next((token for token, value in romans if value == number + best_roman), "")
        out.append(label)
    return out


def _dominant(offsets: Counter[int]) -> int | None:
    """The offset most pages share (ties: the smaller), if at least two pages share it."""
    if not offsets:
        return None
    offset, count = min(offsets.items(), key=lambda item: (-item[1], abs(item[0]), item[0]))
    return offset if count >= 2 else None


def _running_titles(pages: Sequence[tuple[int, Sequence[str]]], headers: list[list[int]], printed: list[str]) -> list[str]:
    candidates: list[list[str]] = []
    for (_, lines), found, number in zip(pages, headers, printed):
        here = []
        for k in found:  # chapter titles are read from headers, not footers
            text = " ".join(lines[k].split())
            if number:  # the page number at either end of the line
                text = re.sub(rf"^{re.escape(number)}(?=\s)|(?<=\s){re.escape(number)}$", " ", text, count=1)
            text = _EDGE.sub("", _PAGE_WORD.sub(" ", text))
            if text and not _NUMBER.fullmatch(text) and len(text) <= 120:
                here.append(text)
        candidates.append(here)
    # A line on pages from the first quarter of the file to its last is the manual's title.
    count = len(pages)
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    seen: Counter[str] = Counter()
    for p, here in enumerate(candidates):
        for text in set(here):
            first.setdefault(text, p)
            last[text] = p
            seen[text] += 1
    # (Page indexes run to count - 1: on three pages, the last page is index 2.)
    whole = {h for h in seen if first[h] < count / 4 and last[h] >= (count - 1) * 3 / 4 and seen[h] >= count * 0.3}
    heads = [next((text for text in here if text not in whole), "") for here in candidates]
    titles: list[str] = []
    carried = ""
    for p, head in enumerate(heads):
        if head:
            carried = head
            titles.append(head)
            continue
        ahead = next((h for h in heads[p + 1:p + 3] if h), "")
        # A chapter's opening page carries no header: it belongs to the chapter that follows.
        titles.append(ahead if ahead and ahead != carried and seen[ahead] >= 2 else carried)
    return titles


_SECTION_NUMBER = lazy_regex(r"^(?:chapter|appendix|part|section)?\s*[0-9a-z]{1,4}(?:\.[0-9]+)*\.?\s+")


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def _titled(line: str, wanted: str) -> bool:
    """Whether a page line (folded) reads like the start of the bookmark's title (folded)."""
    if not line:
        return False
    # A long title may wrap: its first line starts it; a numbered one may lose its number's
    # spacing ("3.2installing").
    if line == wanted or (len(line) >= 8 and wanted.startswith(line)) or line.startswith(wanted):
        return True
    bare = _SECTION_NUMBER.sub("", line, count=1)  # "5 linking" for the bookmark "Linking"
    return bare != line and len(bare) >= 3 and (bare == wanted or (len(bare) >= 8 and wanted.startswith(bare)))


def outline_segments(lines: Sequence[str], skip: frozenset[int], entries: Sequence[tuple[str, int]],
                     open_path: tuple[tuple[str, int], ...]) -> tuple[list[tuple[int, tuple[str, ...]]], tuple[tuple[str, int], ...]]:
    """Where a page's sections start, from the bookmarks that point at it.

    Args:
        lines: The page's lines.
        skip: Indexes of its furniture lines (never a heading).
        entries: ``(title, level)`` of the bookmarks on this page, in outline order.
        open_path: The ``(title, level)`` bookmarks open when the page starts.

    Returns:
        ``(line index, heading path)`` pairs in line order (the first at index 0, with the
        path open at the top of the page), and the path open at the end of the page.
    """
    path = list(open_path)
    segments: list[tuple[int, tuple[str, ...]]] = [(0, tuple(t for t, _ in path))]
    position = 0
    for title, level in entries:
        wanted = _fold(title)
        found = None
        for k in range(position, len(lines)):
            if k not in skip and _titled(_fold(lines[k]), wanted):
                found = k
                break
        while path and path[-1][1] >= level:
            path.pop()
        path.append((title, level))
        start = found if found is not None else position
        heading = tuple(t for t, _ in path)
        if segments[-1][0] == start:
            segments[-1] = (start, heading)
        else:
            segments.append((start, heading))
        position = start
    return segments, tuple(path)
