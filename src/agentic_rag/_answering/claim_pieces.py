"""A claim read as the earned check reads it: its sentences, each with what its paragraph or
list item says before it, and a table's rows under their header row.

A claim is quoted from a passage in Markdown or as the store renders it: paragraphs wrapped
over lines, list items (a long item wrapped onto indented lines), code, and tables. The earned
check (:mod:`~agentic_rag._answering.earned`) reads a value in one statement at a time, so a
sentence cut at a line break, or a table row read without its header, would let a value stand
in the wrong statement. :func:`claim_pieces` splits a claim; :func:`row_header`,
:func:`table_intro`, :func:`table_header` and :func:`is_header_row` place a table row.
"""

from __future__ import annotations

import re

from agentic_rag._regex import lazy_regex
from agentic_rag._text.sentences import split_sentences

__all__ = ["claim_pieces", "is_header_row", "row_header", "table_header", "table_intro"]

# A line of code or of a console session: indented, a prompt, or a statement.
_CODE_LINE = lazy_regex(r"^(?:[ \t]{2,}(?![-*\d])|>>>|\.\.\.|\$ |\w[\w.]*\s*=[^=]|\w[\w.]*\(.*\)\s*$|[{}<]|#)")
# A row of a table as a Markdown source or a rendered claim writes it, and the rule under
# its header.
_TABLE_ROW = lazy_regex(r"\S\s*\|\s*\S|^\s*\|")
_TABLE_RULE = lazy_regex(r"^[\s|:+-]+$")
_LIST_ITEM = lazy_regex(r"^\s*(?:[-+*]|\d+[.)])\s+")


def row_header(text: str, passage: str) -> str:
    """The header row of the table ``text``'s rows stand in (``""`` when ``text`` is no
    table row, or is its header)."""
    lines = [line for line in text.split("\n") if line.strip()]
    if not lines or not all(_TABLE_ROW.search(line) for line in lines):
        return ""
    return table_header(lines[0], passage)


# A paragraph that introduces what follows it: it ends in ":" or points below.
_INTRODUCES = lazy_regex(r":\s*$|\b(?:below|following)\b", re.IGNORECASE)


def table_intro(text: str, passage: str) -> str:
    """The paragraph of ``passage`` just above the table ``text``'s rows stand in, when it
    introduces the table ("All fares below are for single journeys from Port Askel."); ``""``
    when ``text`` is no table row or nothing introduces its table."""
    header = row_header(text, passage)
    if not header:
        return ""
    above = passage[:passage.find(header)].rstrip()
    paragraph = re.split(r"\n\s*\n", above)[-1] if above else ""
    if not paragraph or any(_TABLE_ROW.search(line) for line in paragraph.split("\n")):
        return ""
    return paragraph if _INTRODUCES.search(paragraph) else ""


def claim_pieces(text: str, passage: str = "") -> list[tuple[str, str]]:
    """The claim's sentences, each with what its paragraph or list item says before it
    (``""`` for the first): each paragraph's lines read as one text ("E.g.,\nif the nonce
    is 3 octets" is one example sentence), each list item apart (with the indented lines a
    long item is wrapped onto); a paragraph of code, read
    line by line, and whole with the sentence that introduces it; a table, row by row, each
    row under its header row (the header names what each cell is; a row quoted alone takes
    its header from the passage)."""
    out: list[tuple[str, str]] = []

    def add(stretch: list[str], intro: str = "") -> None:
        out.extend((f"{intro}\n{' '.join(stretch[:index])}".strip(), piece) for index, piece in enumerate(stretch))

    for block in re.split(r"\n\s*\n", text):
        lines = [line for line in block.split("\n") if line.strip()]
        # The sentence ending in ":" that introduces this block ("Goals the team is working
        # toward:") is what each of its items or rows says before it.
        intro = out[-1][1] if lines and out and out[-1][1].rstrip().endswith(":") else ""
        if intro:
            # A sentence ending in ":" and the code or list it introduces are one unit as
            # well ("Using the defaults is equivalent to: ... TimeStamper(fmt=...)").
            out.append((out[-1][0], out[-1][1] + "\n" + "\n".join(lines)))
        if lines and all(_TABLE_ROW.search(line) for line in lines):
            rows = [line for line in lines if not _TABLE_RULE.match(line)]
            header = table_header(rows[0], passage)
            if header:
                out.extend((intro, f"{header}\n{row}") for row in rows)
            else:
                out.extend((intro, f"{rows[0]}\n{row}") for row in rows[1:]) if len(rows) > 1 else out.extend((intro, row) for row in rows)
        elif any(_CODE_LINE.match(line) and not _continues_item(lines, index) for index, line in enumerate(lines)):
            add(lines, intro)
        elif lines:
            # Each list item is read apart: "- Capital: Talvik" and "- Population: 2.3
            # million" are two statements, not one sentence.
            items: list[list[str]] = []
            for line in lines:
                if not items or _LIST_ITEM.match(line):
                    items.append([])
                items[-1].append(line.strip())
            for index, item in enumerate(items):
                # A line that opens the block and ends in ":" introduces the items after it.
                opener = " ".join(items[0]) if index and not _LIST_ITEM.match(items[0][0]) and items[0][-1].rstrip().endswith(":") else ""
                sentences = [part for s in split_sentences(" ".join(item)) for part in _NAME_LETTER_END.split(s.text)]
                add(sentences, f"{intro}\n{opener}".strip())
    return out or [("", text)]


# A single letter that ends a name ("the Duo X") before a word that opens sentences and never
# stands in a person's name: the sentence ends there ("for the Duo X. The Mono S lacks ..."),
# though the splitter reads a letter and a full stop as an initial ("J. Smith"). Read here, on
# the claim, so the index's own sentences stay as they are.
_NAME_LETTER_END = lazy_regex(r"(?<=\s[A-Z]\.)\s+(?=(?:The|This|That|These|Those|It|Its|We|They|There|Our|Their|You|He|She)\b)")


def _continues_item(lines: list[str], index: int) -> bool:
    """``lines[index]`` is an indented line that carries on the list item above it, as a
    Markdown list wraps a long item ("- Deprecated: legacy USB print mode ... removal is" over
    "  planned for 3.0."): prose, indented no deeper than the item's text (and a few columns
    more), under an item that introduces nothing (an item ending in ":" may introduce code).
    Read as a code line, it would cut the item's sentence in two."""
    line = lines[index]
    indent = len(line) - len(line.lstrip())
    if not indent or _CODE_LINE.match(line.lstrip()):
        return False
    for above in reversed(lines[:index]):
        item = _LIST_ITEM.match(above)
        if item:
            return not above.rstrip().endswith(":") and len(item.group()) - 1 <= indent <= len(item.group()) + 3
        if not above[:1].isspace() or above.rstrip().endswith(":") or _CODE_LINE.match(above.lstrip()):
            return False
    return False


# The names a table's header gives its columns ("Setting | Default | Meaning").
_COLUMN_NAMES = frozenset("default defaults value values meaning description setting settings parameter option key name type notes".split())


def is_header_row(piece: str, passage: str) -> bool:
    """True when ``piece`` is a table's header row alone ("Setting | Default | Meaning"): it
    names the columns and states no value, whatever its words ("Default"). A first row with
    a number, or with no column's name, gives a value (a key-value table with no header:
    "Founded | 1987"), unless it heads three or more columns, none with a number but in
    brackets ("Pass | Adult | Child (6-15)"), over a row with a number under each of them."""
    cells = [c.strip().casefold() for c in piece.strip().strip("|").split("|")]
    if "\n" in piece.strip() or len(cells) < 2 or re.search(r"\d", _BRACKETED.sub(" ", piece)):
        return False
    named = any(c in _COLUMN_NAMES for c in cells) and not re.search(r"\d", piece)
    if not named and len(cells) < 3:
        return False
    lines = passage.split("\n")
    wanted = piece.strip(" \t|")
    # The first line of a run of rows (as Markdown writes it above its rule, or as the store
    # renders it, rows only).
    return any(line.strip(" \t|") == wanted and (not index or not _TABLE_ROW.search(lines[index - 1]))
               and index + 1 < len(lines) and bool(_TABLE_ROW.search(lines[index + 1])) and (named or _values_under(cells, lines[index + 1:]))
               for index, line in enumerate(lines))


_BRACKETED = lazy_regex(r"\([^)]*\)")


def _values_under(header: list[str], below: list[str]) -> bool:
    """Every value column of ``header`` holds a number in the first row of ``below`` (its
    Markdown rule passed over): a price table's first prices under "Pass | Adult | Child
    (6-15)"."""
    row = next((line for line in below if not _TABLE_RULE.match(line)), "")
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    return len(cells) == len(header) and all(re.search(r"\d", c) for c in cells[1:])


def table_header(row: str, passage: str) -> str:
    """The header row of the table of ``passage`` that holds ``row`` (the table's first line,
    as Markdown writes it above its rule and as the store renders it), ``""`` when ``row`` is
    the header or stands in no table."""
    lines = passage.split("\n")
    wanted = row.strip(" \t|")
    for index, line in enumerate(lines):
        if line.strip(" \t|") != wanted:
            continue
        top = index
        while top > 0 and _TABLE_ROW.search(lines[top - 1]):
            top -= 1
        return lines[top] if top < index and not _TABLE_RULE.match(lines[top]) else ""
    return ""
