"""Reading order: words grouped into blocks, blocks sorted the way poppler's pdftotext does.

The steps follow poppler's text layout analysis (``TextOutputDev``), reimplemented here:

1. Blocks grow from the top-left word: lines above and below within 1.5 font sizes that
   overlap the block horizontally and use the same font size (within 5%), words on the block's
   lines within 0.3 font sizes of its edges, and up to three outlying words beside it.
2. Blocks are put in reading order (:mod:`agentic_rag._ingest.pdf.reading_order`: tables read
   by rows, then T. Breuel's two rules, as poppler sorts them).
3. Blocks are separated by a blank line (poppler only separates its flows, columns of
   blocks; a blank line per block keeps paragraphs apart for chunking).

Lines keep a space wherever the horizontal gap between words is wider than ``SPACE_GAP``
font sizes; a word hyphenated at the end of a line is joined to its end. Rotated text follows
the upright text, in content order.

Each line of the text comes with its :class:`LineStyle` (where it starts and ends, its font
size, how much of it from its start is bold): the typography a file without an outline shows
its headings by.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from typing import NamedTuple

from agentic_rag._ingest.pdf.content import Run
from agentic_rag._ingest.pdf.reading_order import order_blocks

__all__ = ["LineStyle", "PageText", "page_text"]

SPACE_GAP = 0.1
TAB_GAP = 1.5           # a gap this many font sizes wide sets a line's words apart in columns
OVERLAP_BREAK = 0.8     # words overlapping by more than this many font sizes get a space
LINE_SPACING = 1.5      # max baseline distance inside a block, in font sizes
INTRA_LINE = 0.5        # max baseline shift of words on one line (sub- and superscripts)
NEAR_EDGE = 0.3         # words this close to a block's side on its lines join it
OUTLIER_GAP = 1.0       # outlying words this close beside a block may join it
SIZE_SAME = 0.05        # relative font size difference for lines above and below
SIZE_LINE = 0.6         # ... for words on the block's own lines
SIZE_OUTLIER = 0.2      # ... for outlying words
_HYPHENATED = re.compile(r"[^\W\d_]-\Z")
# Spacing accents and the combining marks they become over a letter.
_ACCENTS = {"\u02c6": "\u0302", "\u02dc": "\u0303", "\xa8": "\u0308", "\xb4": "\u0301", "\u02c7": "\u030c",
            "\u02d8": "\u0306", "\xaf": "\u0304", "\u02d9": "\u0307", "\u02da": "\u030a", "\u02dd": "\u030b",
            "\xb8": "\u0327", "\u02db": "\u0328", "`": "\u0300"}
# Inside a word, only accents never used as apostrophes are moved onto the next letter.
_ACCENT_IN_WORD = re.compile("([\u02c6\u02dc\xa8\u02c7\u02d8\u02d9\u02da\u02dd])([^\\W\\d_])")


class LineStyle(NamedTuple):
    """How one line of a page's text is set.

    Args:
        x0: Where its first word starts (points from the left of the page).
        x1: Where its last word ends.
        size: Its font size: the size most of its characters are set in (of two as many, the
            larger), so one larger glyph (a raised caret, a big operator) leaves it the same.
        bold: How many of its characters, from its start, are set in a bold face (all of
            them: the whole line is bold; 0: it does not start bold).
        tab: How many of its characters come before its first gap wider than ``TAB_GAP``
            font sizes (a tag and its description set on one line), 0 when it has none.
    """

    x0: float
    x1: float
    size: float
    bold: int
    tab: int = 0


class PageText(NamedTuple):
    """A page's text and the style of each of its lines.

    Args:
        text: Lines joined by ``\\n``, flows separated by a blank line.
        styles: One per line of ``text.split("\\n")``: its :class:`LineStyle`, ``None`` for a
            blank line and for the rotated text gathered at the end.
    """

    text: str
    styles: tuple[LineStyle | None, ...]


class _Word:
    __slots__ = ("base", "bold", "size", "text", "x0", "x1")

    def __init__(self, run: Run) -> None:
        self.x0 = run.x0
        self.x1 = max(run.x1, run.x0)
        self.base = -run.y  # top-down, like poppler: larger is lower on the page
        self.size = max(run.size, 0.01)
        self.text = run.text
        self.bold = run.bold


class _Block:
    __slots__ = ("ex0", "ex1", "ey0", "ey1", "size", "words", "x0", "x1", "y0", "y1")

    def __init__(self, word: _Word) -> None:
        self.words = [word]
        self.size = word.size
        self.x0, self.x1 = word.x0, word.x1
        self.y0, self.y1 = word.base - 0.9 * word.size, word.base + 0.25 * word.size

    def add(self, word: _Word) -> None:
        self.words.append(word)
        self.x0 = min(self.x0, word.x0)
        self.x1 = max(self.x1, word.x1)
        self.y0 = min(self.y0, word.base - 0.9 * word.size)
        self.y1 = max(self.y1, word.base + 0.25 * word.size)


class _Pool:
    """The words not yet in a block, by baseline."""

    def __init__(self, words: list[_Word]) -> None:
        lines: dict[float, list[_Word]] = {}
        for word in words:
            lines.setdefault(word.base, []).append(word)
        self.bases = sorted(lines)
        self.lines = {base: sorted(items, key=lambda w: (w.x0, w.x1)) for base, items in lines.items()}
        self.count = len(words)

    def between(self, low: float, high: float, *, low_open: bool = False, high_open: bool = False) -> list[float]:
        start = bisect_right(self.bases, low) if low_open else bisect_left(self.bases, low)
        end = bisect_left(self.bases, high) if high_open else bisect_right(self.bases, high)
        return [base for base in self.bases[start:end] if self.lines[base]]

    def take(self, base: float, word: _Word) -> None:
        self.lines[base].remove(word)
        self.count -= 1

    def start(self) -> _Word:
        first = next(base for base in self.bases if self.lines[base])
        # The left-most word of the first lines, so a block does not start at a superscript.
        candidates = [self.lines[base][0] for base in self.between(first, first + 16.0)]
        return min(candidates, key=lambda w: (w.x0, w.base))


def _grow(pool: _Pool, block: _Block, word: _Word) -> None:
    size = word.size
    low = high = word.base
    line_space, intra = LINE_SPACING * size, INTRA_LINE * size
    near, outlier = NEAR_EDGE * size, OUTLIER_GAP * size
    while True:
        found = False
        for direction in (-1, 1):
            edge = low if direction < 0 else high
            bases = pool.between(edge - line_space, edge, high_open=True) if direction < 0 else \
                pool.between(edge, edge + line_space, low_open=True)
            for base in (reversed(bases) if direction < 0 else bases):
                for other in list(pool.lines[base]):
                    if other.x0 < block.x1 and other.x1 > block.x0 and abs(other.size - size) < SIZE_SAME * size:
                        pool.take(base, other)
                        block.add(other)
                        found = True
                        if direction < 0:
                            low = min(low, base)
                        else:
                            high = max(high, base)
        for base in pool.between(low - intra, high + intra):
            for other in list(pool.lines[base]):
                if other.x0 < block.x1 + near and other.x1 > block.x0 - near and abs(other.size - size) < SIZE_LINE * size:
                    pool.take(base, other)
                    block.add(other)
                    found = True
        if found:
            continue
        for side in (-1, 1):
            chosen = []
            for base in pool.between(low - intra, high + intra):
                for other in pool.lines[base]:
                    beside = (block.x0 - outlier < other.x1 <= block.x0) if side < 0 else \
                        (block.x1 <= other.x0 < block.x1 + outlier)
                    if beside and abs(other.size - size) < SIZE_OUTLIER * size:
                        chosen.append((base, other))
                        break
            if 0 < len(chosen) <= 3:
                for base, other in chosen:
                    pool.take(base, other)
                    block.add(other)
                    low, high = min(low, base), max(high, base)
                found = True
        if not found:
            return


def _build_blocks(words: list[_Word]) -> list[_Block]:
    pool = _Pool(words)
    blocks: list[_Block] = []
    while pool.count:
        word = pool.start()
        pool.take(word.base, word)
        block = _Block(word)
        _grow(pool, block, word)
        blocks.append(block)
    return blocks


def _lines(block: _Block) -> list[tuple[str, LineStyle]]:
    words = sorted(block.words, key=lambda w: (w.base, w.x0))
    groups: list[list] = []  # [base, size, words]
    for word in words:
        if groups and abs(word.base - groups[-1][0]) <= INTRA_LINE * max(groups[-1][1], word.size):
            groups[-1][2].append(word)
            if word.size > groups[-1][1]:
                groups[-1][0], groups[-1][1] = word.base, word.size
            continue
        groups.append([word.base, word.size, [word]])
    out = []
    for _base, _size, items in groups:
        items.sort(key=lambda w: w.x0)
        items = _attach_accents(items)
        x0, x1 = items[0].x0, max(word.x1 for word in items)
        weights: dict[float, int] = {}
        for word in items:
            weights[word.size] = weights.get(word.size, 0) + len(word.text)
        size = max(weights.items(), key=lambda item: (item[1], item[0]))[0]
        bold_end = None if items[0].bold else 0  # where the first word not in bold starts
        if _right_to_left(items):
            # Glyphs are drawn left to right; Hebrew or Arabic is read the other way round.
            bold_end = None if all(word.bold for word in items) else 0
            items = [_Reversed(word) for word in reversed(items)]
        parts = [items[0].text]
        length = len(parts[0])
        tab_at = 0
        for previous, word in zip(items, items[1:]):
            gap = word.x0 - previous.x1
            if not tab_at and gap > TAB_GAP * min(previous.size, word.size):
                tab_at = length
            # A word starting well inside the previous one is another word (labels of a
            # drawing), not a kerned letter of the same word.
            if gap > SPACE_GAP * min(previous.size, word.size) or gap < -OVERLAP_BREAK * max(previous.size, word.size):
                parts.append(" ")
                length += 1
            if bold_end is None and not word.bold:
                bold_end = length
            parts.append(word.text)
            length += len(word.text)
        joined = "".join(parts)
        text = " ".join(joined.split())
        if _ACCENT_IN_WORD.search(text):
            text = _ACCENT_IN_WORD.sub(lambda m: unicodedata.normalize("NFC", m.group(2) + _ACCENTS[m.group(1)]), text)
        if text:
            bold = len(text) if bold_end is None else min(len(text), len(" ".join(joined[:bold_end].split())))
            tab = min(len(text), len(" ".join(joined[:tab_at].split()))) if tab_at else 0
            out.append((text, LineStyle(x0, x1, size, bold, tab)))
    return out


def _combine(word, accent: _Word) -> bool:
    """Put ``accent`` on the letter of ``word`` under its middle; False when none is."""
    middle = (accent.x0 + accent.x1) / 2
    if not word.x0 <= middle <= word.x1 or word.x1 <= word.x0:
        return False
    text = word.text
    # Glyph positions are not kept, so the letter is found in proportion to the width.
    index = min(len(text) - 1, int((middle - word.x0) / (word.x1 - word.x0) * len(text)))
    if not text[index].isalpha():
        return False
    word.text = text[:index] + unicodedata.normalize("NFC", text[index] + _ACCENTS[accent.text]) + text[index + 1:]
    return True


def _attach_accents(items: list) -> list:
    """Put accents drawn as separate glyphs (TeX's \\^o) on the letter under them."""
    if not any(word.text in _ACCENTS for word in items):
        return items
    out: list = []
    for index, word in enumerate(items):
        if word.text in _ACCENTS:
            following = items[index + 1] if index + 1 < len(items) else None
            if (following is not None and following.text not in _ACCENTS and _combine(following, word)) or \
                    (out and _combine(out[-1], word)):
                continue
        out.append(word)
    return out


class _Reversed:
    __slots__ = ("bold", "size", "text", "x0", "x1")

    def __init__(self, word: _Word) -> None:
        # Mirror the coordinates so the gap test between neighbours still works.
        self.x0, self.x1 = -word.x1, -word.x0
        self.size = word.size
        self.text = word.text[::-1]
        self.bold = word.bold


def _right_to_left(words: list[_Word]) -> bool:
    balance = 0
    for word in words:
        for char in word.text:
            kind = unicodedata.bidirectional(char)
            if kind in ("R", "AL"):
                balance += 1
            elif kind == "L":
                balance -= 1
    return balance > 0


def _render(blocks: list[_Block]) -> tuple[list[str], list[LineStyle | None]]:
    out: list[str] = []
    styles: list[LineStyle | None] = []
    previous: _Block | None = None
    for block in blocks:
        lines = _lines(block)
        if not lines:
            continue
        if previous is not None:
            # Blocks end at a wider vertical gap, a change of font size or a column: paragraphs.
            out.append("")
            styles.append(None)
        for text, style in lines:
            if out and out[-1] and _HYPHENATED.search(out[-1]) and text[0].isalpha():
                # A word hyphenated across lines is joined again, as pdftotext does.
                head, _, text = text.partition(" ")
                out[-1] = out[-1][:-1] + head
                style = style._replace(bold=max(0, style.bold - len(head) - 1), tab=max(0, style.tab - len(head) - 1))
            if text:
                out.append(text)
                styles.append(style)
        previous = block
    return out, styles


def page_text(runs: list[Run], *, max_words: int = 20_000) -> PageText:
    """Order a page's words into text.

    Args:
        runs: The page's words, in content order.
        max_words: A page with more upright words than this is read line by line, top to
            bottom and left to right (sorting, linear after it), instead of grouped into
            blocks, whose cost grows faster than the number of words.

    Returns:
        The text (lines joined by ``\\n``, flows such as paragraphs and columns separated by a
        blank line) and the style of each line.
    """
    upright = [_Word(run) for run in runs if run.upright and run.text.strip()]
    others = [run for run in runs if not run.upright and run.text.strip()]
    if len(upright) > max_words:
        block = _Block(upright[0])
        block.words = upright
        lines, styles = _render([block])
    else:
        lines, styles = _render(order_blocks(_build_blocks(upright))) if upright else ([], [])
    if others:
        if lines:
            lines.append("")
            styles.append(None)
        lines.append(" ".join(" ".join(run.text.split()) for run in others))
        styles.append(None)
    return PageText("\n".join(lines), tuple(styles))
