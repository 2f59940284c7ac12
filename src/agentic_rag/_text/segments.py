"""Passage units: the pieces of a passage an extractive answer may quote.

This is the library's one segmenter. Sentences come from :func:`split_sentences`; on top of
them the structure that loaders keep in a chunk's text is respected:

* blocks are separated by blank lines;
* a list item (a line starting ``- ``, ``* ``, ``+ ``, ``1. `` or ``1) ``) is one unit with its
  indented continuation lines, so a qualifier never lands on the neighbouring item;
* a table row (a line with ``|`` between cells, in a block of such lines) is one unit;
* a code block (a block that reads as code, see :func:`_looks_like_code`) is one unit;
* a lead-in, a unit that ends with ``:``, keeps what it introduces: the next list item, or the
  whole next block when that block is code, a list or a table (bounded in size), because
  "Install with pip:" is no answer without its command.

Every unit satisfies ``text[unit.start:unit.end] == unit.text``, trimmed of surrounding
white space, and holds at least one letter or digit.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from agentic_rag._regex import lazy_regex
from agentic_rag._text.sentences import split_sentences

__all__ = ["PassageUnit", "UnitKind", "split_units"]

_BLANK = re.compile(r"\n[ \t]*\n")
_ITEM = lazy_regex(r"^[ \t]*(?:[-*+\u2022]|\d{1,3}[.)]|#\.)[ \t]+\S")
_ROW = re.compile(r"\S[ \t]*\|[ \t]*\S|^[ \t]*\|")
_CODE_LINE = lazy_regex(r"^\s*(?:>>>|\.\.\.|\$ |#!|@\w|def |class |import |from \w+ import|return\b|pip |python |[\w.]+\(.*\)\s*$|[\w.\[\]'\"]+\s*=\s*\S|[{}\[\]]\s*$|</?\w+[^>]*>\s*$)")
# A lead-in keeps at most this much of what follows it.
_MAX_FOLLOW_LINES = 16
_MAX_FOLLOW_CHARS = 900


class UnitKind(str, enum.Enum):
    """What a passage unit is."""

    SENTENCE = "sentence"
    LIST_ITEM = "list_item"
    TABLE_ROW = "table_row"
    CODE = "code"


@dataclass(frozen=True, slots=True)
class PassageUnit:
    """One quotable unit of a passage.

    Args:
        start: Offset of the first character in the passage text.
        end: Offset just past the last character.
        text: ``passage[start:end]``.
        kind: Sentence, list item, table row or code block (a lead-in keeps its own kind and
            extends over what it introduces).
    """

    start: int
    end: int
    text: str
    kind: UnitKind


def split_units(text: str) -> tuple[PassageUnit, ...]:
    """Split a passage into quotable units, in order.

    Args:
        text: A passage (a chunk's cleaned text, or any text).

    Returns:
        Units with exact offsets; empty for text without letters or digits.
    """
    raw: list[tuple[int, int, UnitKind, int]] = []  # start, end, kind, block number
    for number, (start, end) in enumerate(_blocks(text)):
        for piece in _block_units(text, start, end):
            raw.append((*piece, number))
    units: list[PassageUnit] = []
    for index, (start, end, kind, block) in enumerate(raw):
        if text[start:end].rstrip().endswith(":") and index + 1 < len(raw):
            # A lead-in keeps what it introduces; the introduced units stay units of their
            # own as well, so a single list item can still be quoted alone.
            follow = _following(text, raw, index + 1, block)
            if follow > index + 1:
                end = raw[follow - 1][1]
        _append(text, start, end, kind, units)
    return tuple(units)


def _following(text: str, raw: list[tuple[int, int, UnitKind, int]], index: int, block: int) -> int:
    """Index just past the units a lead-in before ``raw[index]`` introduces (``index``: none):
    the list items that follow it in its own block, or the whole next block when that block
    is code, a list or a table; bounded in lines and characters."""
    first, _, kind, first_block = raw[index]
    if kind is UnitKind.SENTENCE or first_block not in (block, block + 1):
        return index
    stop = index
    while stop < len(raw) and raw[stop][3] == first_block and (first_block != block or raw[stop][2] is UnitKind.LIST_ITEM):
        span = text[first:raw[stop][1]]
        if stop > index and (span.count("\n") >= _MAX_FOLLOW_LINES or len(span) > _MAX_FOLLOW_CHARS):
            break
        stop += 1
    return stop


def _blocks(text: str) -> list[tuple[int, int]]:
    out, start = [], 0
    for match in _BLANK.finditer(text):
        out.append((start, match.start()))
        start = match.end()
    out.append((start, len(text)))
    return [(s, e) for s, e in out if text[s:e].strip()]


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    out, position = [], start
    while position < end:
        stop = text.find("\n", position, end)
        stop = end if stop < 0 else stop
        if text[position:stop].strip():
            out.append((position, stop))
        position = stop + 1
    return out


def _block_units(text: str, start: int, end: int) -> list[tuple[int, int, UnitKind]]:
    lines = _lines(text, start, end)
    if not lines:
        return []
    contents = [text[a:b] for a, b in lines]
    # A row holds a "|" (both of the pattern's branches need one): most lines are passed over unread.
    if len(lines) >= 2 and sum(1 for c in contents if "|" in c and _ROW.search(c) and not _ITEM.match(c)) * 2 > len(lines):
        return [(a, b, UnitKind.TABLE_ROW) for a, b in lines]
    if _looks_like_code(contents):
        return [(lines[0][0], lines[-1][1], UnitKind.CODE)]
    out: list[tuple[int, int, UnitKind]] = []
    prose_start: int | None = None
    item: list[int] | None = None
    item_indent = 0
    for (a, b), content in zip(lines, contents):
        indent = len(content) - len(content.lstrip())
        if _ITEM.match(content):
            if prose_start is not None:
                out.extend(_sentences(text, prose_start, a))
                prose_start = None
            if item is not None:
                out.append((item[0], item[1], UnitKind.LIST_ITEM))
            item, item_indent = [a, b], indent
        elif item is not None and indent > item_indent:
            item[1] = b  # an indented continuation of the current item
        else:
            if item is not None:
                out.append((item[0], item[1], UnitKind.LIST_ITEM))
                item = None
            if prose_start is None:
                prose_start = a
    if item is not None:
        out.append((item[0], item[1], UnitKind.LIST_ITEM))
    if prose_start is not None:
        out.extend(_sentences(text, prose_start, end))
    return out


def _sentences(text: str, start: int, end: int) -> list[tuple[int, int, UnitKind]]:
    return [(start + s.start, start + s.end, UnitKind.SENTENCE) for s in split_sentences(text[start:end])]


def _looks_like_code(lines: list[str]) -> bool:
    """True when most lines of a block read as code rather than prose: prompts, calls,
    assignments, keywords, brackets, and few lines that end a sentence."""
    if any(_ITEM.match(line) for line in lines):
        return False
    code = sum(1 for line in lines if _CODE_LINE.match(line))
    prose = sum(1 for line in lines if _ends_a_sentence(line) and line.count(" ") >= 3)
    return code * 2 >= len(lines) and code > prose


def _ends_a_sentence(line: str) -> bool:
    """True when ``line`` ends with two lowercase letters and ``.``, ``!`` or ``?`` (then
    white space). Read from the end with string methods: the search this replaces,
    ``[a-z]{2,}[.!?]\\s*$``, restarted at every letter of a long word and ran to its end, so
    one 30,000-letter token (a data URI, a hash) took seconds."""
    tail = line.rstrip()
    return len(tail) >= 3 and tail[-1] in ".!?" and _is_ascii_lower(tail[-2]) and _is_ascii_lower(tail[-3])


def _is_ascii_lower(char: str) -> bool:
    return "a" <= char <= "z"


def _append(text: str, start: int, end: int, kind: UnitKind, out: list[PassageUnit]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start and any(ch.isalnum() for ch in text[start:end]):
        out.append(PassageUnit(start, end, text[start:end], kind))
