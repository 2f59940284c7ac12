"""What a loader hands the chunker: sections of text blocks that remember their source lines.

A loader turns a file into :class:`TextSection` objects (a heading's section, or one record of
a JSON/CSV file), each a run of :class:`TextBlock` paragraphs. A block's text is cleaned
(markup stripped) but keeps a map from character offsets back to the line numbers of the
original file, so a chunk cut anywhere inside it can still cite ``path:start-end`` exactly.
"""

from __future__ import annotations

from collections.abc import Iterable

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, replace

from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import InvalidInputError
from agentic_rag._ingest.work_budget import current_work_budget
from agentic_rag._regex import lazy_regex

__all__ = ["ListNesting", "ParsedSource", "SectionBuilder", "TextBlock", "TextSection", "block_from_lines", "clean_source", "clean_text", "include_problem", "paragraph_blocks", "table_row"]

_STAGE = "ingest"


@dataclass(frozen=True, slots=True)
class TextBlock:
    """One paragraph (or code block, list, record body) of cleaned text.

    Args:
        text: The cleaned text; never empty or only white space.
        line_marks: ``(offset, line)`` pairs, offsets strictly increasing from 0: the text
            from ``offset`` on comes from 1-based ``line`` of the original file (until the
            next mark).
        fixed_lines: When set, every part of the block cites this ``(start, end)`` line range
            (a record whose text was assembled from fields, not copied from lines).

    Raises:
        InvalidInputError: Empty text, no marks, a first mark not at offset 0, offsets not
            increasing, or line numbers below 1.
    """

    text: str
    line_marks: tuple[tuple[int, int], ...]
    fixed_lines: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.text, str) or not self.text.strip():
            raise InvalidInputError(f"TextBlock.text must be a non-empty string, got {self.text!r}", stage=_STAGE)
        marks = tuple((int(o), int(n)) for o, n in self.line_marks)
        if not marks or marks[0][0] != 0:
            raise InvalidInputError(f"TextBlock.line_marks must start at offset 0, got {marks[:1]!r}", stage=_STAGE)
        for (o1, _), (o2, _) in zip(marks, marks[1:]):
            if o2 <= o1:
                raise InvalidInputError(f"TextBlock.line_marks offsets must increase, got {o1} then {o2}", stage=_STAGE)
        if min(n for _, n in marks) < 1:
            raise InvalidInputError(f"TextBlock.line_marks lines must be >= 1, got {marks!r}", stage=_STAGE)
        if self.fixed_lines is not None:
            start, end = self.fixed_lines
            if not 1 <= start <= end:
                raise InvalidInputError(f"TextBlock.fixed_lines must satisfy 1 <= start <= end, got {self.fixed_lines!r}", stage=_STAGE)
        object.__setattr__(self, "line_marks", marks)

    def line_at(self, offset: int) -> int:
        """The original 1-based line of the character at ``offset`` of :attr:`text`."""
        position = bisect_right(self.line_marks, (offset, float("inf"))) - 1
        return self.line_marks[max(position, 0)][1]

    def lines_of(self, start: int, end: int) -> tuple[int, int]:
        """The original line range holding ``text[start:end]`` (``end`` exclusive, > ``start``)."""
        if self.fixed_lines is not None:
            return self.fixed_lines
        return self.line_at(start), self.line_at(max(start, end - 1))


@dataclass(frozen=True, slots=True)
class TextSection:
    """Consecutive blocks under one title; a chunk never spans two sections.

    Args:
        blocks: The section's paragraphs in file order (at least one).
        title: The heading (Markdown, HTML) or record title; ``""`` before the first heading.
        record_id: The record's id for JSON, JSONL and CSV rows; ``""`` otherwise.
        page: The 1-based page of a PDF the section comes from (its line numbers count lines
            of that page's text), else ``None``.
        cell: The 1-based cell of a notebook the section comes from (its line numbers count
            lines of that cell), else ``None``.
        headings: Every open heading, outermost first (``()``: only ``title`` is known).
        page_label: The number the page prints or its ``/PageLabels`` label (``"160"``,
            ``"xii"``) when the section is on a PDF page that has one, else ``""``.
        list_page: The section's page only lists or indexes other pages (an alphabetical
            index, a table of contents, a site map): searchable, ranked below content pages.

    Raises:
        InvalidInputError: No blocks, a block that is not a ``TextBlock``, or a page or cell
            that is not an int >= 1 (or both set).
    """

    blocks: tuple[TextBlock, ...]
    title: str = ""
    record_id: str = ""
    page: int | None = None
    cell: int | None = None
    headings: tuple[str, ...] = ()
    page_label: str = ""
    list_page: bool = False

    def __post_init__(self) -> None:
        blocks = tuple(self.blocks)
        if not blocks or not all(isinstance(b, TextBlock) for b in blocks):
            raise InvalidInputError(f"TextSection.blocks must be one or more TextBlocks, got {self.blocks!r}", stage=_STAGE)
        for name in ("page", "cell"):
            require_int(getattr(self, name), f"TextSection.{name}", minimum=1, optional=True, stage=_STAGE)
        if self.page is not None and self.cell is not None:
            raise InvalidInputError(f"a TextSection is on a page or in a cell, not both (page {self.page}, cell {self.cell})", stage=_STAGE)
        object.__setattr__(self, "blocks", blocks)
        object.__setattr__(self, "title", " ".join(str(self.title).split()))
        object.__setattr__(self, "record_id", str(self.record_id))
        object.__setattr__(self, "headings", tuple(" ".join(str(h).split()) for h in self.headings if str(h).strip()))
        object.__setattr__(self, "page_label", " ".join(str(self.page_label).split()))
        object.__setattr__(self, "list_page", bool(self.list_page))

    @property
    def heading_path(self) -> str:
        """Every heading above the section's text, outermost first, joined by " › " (the
        title when no fuller path is known)."""
        return " › ".join(self.headings) if self.headings else self.title


@dataclass(frozen=True, slots=True)
class ParsedSource:
    """A file's text, or why it cannot be indexed.

    Args:
        sections: The text in file order (empty when ``problem`` is set).
        problem: Why the file is skipped (``""`` when it was parsed).
        extracted: The text was extracted from a file that is not itself lines of text (PDF,
            Word, notebook): line numbers count lines of the extracted text (per page or per
            cell), so a quote is located through the chunk's own line map, never by reading
            the file.
        notes: What was left out of a file indexed in part (PDF pages with no text), one line
            each.
    """

    sections: tuple[TextSection, ...] = ()
    problem: str = ""
    extracted: bool = False
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "sections", tuple(self.sections))
        object.__setattr__(self, "notes", tuple(str(note) for note in self.notes))
        if not self.problem and not self.sections:
            object.__setattr__(self, "problem", "no indexable text")

    @property
    def text(self) -> str:
        """Every block's text, paragraphs separated by a blank line."""
        return "\n\n".join(block.text for section in self.sections for block in section.blocks)


# Bidirectional embeddings, overrides and isolates, and the byte-order mark / zero-width
# no-break space: invisible, and able to make a quote read differently from what it holds.
_INVISIBLE = lazy_regex("[\u202a-\u202e\u2066-\u2069\ufeff]")
# A lone surrogate (from a JSON escape such as "\\ud83d") cannot be written as UTF-8.
_SURROGATE = lazy_regex("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """``text`` without bidirectional controls and byte-order marks, lone surrogates replaced
    by U+FFFD (so it always encodes as UTF-8)."""
    return _INVISIBLE.sub("", _SURROGATE.sub("\ufffd", text))


def _clean_block(block: TextBlock) -> TextBlock | None:
    text = block.text
    if _SURROGATE.search(text):
        text = _SURROGATE.sub("\ufffd", text)  # same length: the marks still hold
    removed = [m.start() for m in _INVISIBLE.finditer(text)]
    if not removed:
        return block if text is block.text else TextBlock(text, block.line_marks, block.fixed_lines)
    text = _INVISIBLE.sub("", text)
    if not text.strip():
        return None
    marks: list[tuple[int, int]] = []
    for offset, line in block.line_marks:
        shifted = offset - bisect_left(removed, offset)
        if marks and marks[-1][0] == shifted:
            marks[-1] = (shifted, line)  # everything of the earlier line was removed
        elif shifted < len(text):
            marks.append((shifted, line))
    return TextBlock(text, tuple(marks), block.fixed_lines)


def clean_source(parsed: ParsedSource) -> ParsedSource:
    """``parsed`` with every block and title cleaned by :func:`clean_text` (line maps shifted
    to match; a block left blank is dropped). Returns ``parsed`` itself when nothing changes."""
    if parsed.problem or not any(_SURROGATE.search(t) or _INVISIBLE.search(t) for t in _texts(parsed)):
        return parsed
    sections = []
    for section in parsed.sections:
        blocks = tuple(b for b in (_clean_block(block) for block in section.blocks) if b is not None)
        if blocks:
            sections.append(replace(section, blocks=blocks, title=clean_text(section.title), record_id=clean_text(section.record_id),
                                    headings=tuple(clean_text(h) for h in section.headings), page_label=clean_text(section.page_label)))
    if not sections:
        return ParsedSource(problem="no indexable text", extracted=parsed.extracted, notes=parsed.notes)
    return ParsedSource(tuple(sections), extracted=parsed.extracted, notes=tuple(clean_text(n) for n in parsed.notes))


def _texts(parsed: ParsedSource):
    for section in parsed.sections:
        yield section.title
        yield section.record_id
        for block in section.blocks:
            yield block.text
    yield from parsed.notes


def block_from_lines(lines: list[tuple[str, int]]) -> TextBlock | None:
    """Join cleaned ``(text, line number)`` pairs into one block, ``None`` if all are blank.

    Args:
        lines: Cleaned lines with the original 1-based line each came from.

    Returns:
        A block whose marks point each joined line back to its source line.
    """
    parts: list[str] = []
    marks: list[tuple[int, int]] = []
    offset = 0
    for text, number in lines:
        if not text.strip():
            continue
        if parts:
            offset += 1  # the joining newline
        marks.append((offset, number))
        parts.append(text)
        offset += len(text)
    if not parts:
        return None
    return TextBlock("\n".join(parts), tuple(marks))


def table_row(cells: list[str]) -> str:
    """One table row as ``cell | cell | cell``; empty cells stay (as nothing between two
    bars) so every value keeps its column. A row with no text gives ``""``."""
    cells = [" ".join(cell.split()) for cell in cells]
    return " | ".join(cells) if any(cells) else ""


def include_problem(targets: list[str]) -> str:
    """The reason a file holding nothing but include directives is skipped."""
    return "only includes " + ", ".join(targets)


class ListNesting:
    """Open list items while a loader reads a list: the source column where each item's text
    starts, outermost first, so items and their continuation lines get their nesting level."""

    def __init__(self) -> None:
        self.columns: list[int] = []
        self.after_blank = False

    def item(self, indent: int, content: int) -> int:
        """A new item whose marker is at column ``indent``; returns its level (0 = top)."""
        while self.columns and indent < self.columns[-1]:
            self.columns.pop()
        self.columns.append(content)
        self.after_blank = False
        return len(self.columns) - 1

    def continuation(self, indent: int) -> int:
        """Levels of indentation for a line that is not an item (0 once it ends the list)."""
        if not self.columns:
            return 0
        if self.after_blank and indent < self.columns[0]:
            self.end()
            return 0
        while len(self.columns) > 1 and indent < self.columns[-1] and self.after_blank:
            self.columns.pop()
        self.after_blank = False
        return len(self.columns)  # a line that is not indented enough continues the innermost item

    def end(self) -> None:
        """The list is over."""
        self.columns = []


class SectionBuilder:
    """Accumulates cleaned lines into blocks and blocks into titled sections (for loaders).

    A line is a list of ``(text, line number)`` segments, so one cleaned line (a table row
    whose cells sit on several source lines) can still map every character to its line.
    """

    def __init__(self, title: str = "") -> None:
        self.sections: list[TextSection] = []
        self.title = title
        self.path: list[tuple[int, str]] = []  # the open headings, (level, text), outermost first
        self.blocks: list[TextBlock] = []
        self.paragraph: list[list[tuple[str, int]]] = []
        self.page: int | None = None
        self.cell: int | None = None
        self.line_offset = 0  # added to every line number given (cells grouped in one section)
        self.budget = current_work_budget()  # each line and heading is charged as it is made

    def move_to(self, *, page: int | None = None, cell: int | None = None) -> None:
        """Close the current section and go on, under the same heading, on another page or in
        another cell (a chunk never spans two)."""
        self.end_paragraph()
        self._close()
        self.page, self.cell = page, cell

    def _close(self) -> None:
        if self.blocks:
            headings = tuple(text for _, text in self.path if text) or ((self.title,) if self.title else ())
            self.sections.append(TextSection(tuple(self.blocks), self.title, page=self.page, cell=self.cell, headings=headings))
        self.blocks = []

    def line(self, text: str, number: int) -> None:
        """Add one cleaned line that came from 1-based line ``number``."""
        if text.strip():
            self.budget.unit()
            self.paragraph.append([(text, number + self.line_offset)])

    def append(self, text: str, number: int) -> None:
        """Continue the last line with ``text`` from line ``number`` (a new line if none)."""
        if not self.paragraph:
            self.line(text.lstrip(), number)
        elif text:
            self.budget.unit()
            self.paragraph[-1].append((text, number + self.line_offset))

    def end_paragraph(self) -> None:
        """Close the current block (a no-op when it is empty)."""
        parts: list[str] = []
        marks: list[tuple[int, int]] = []
        offset = 0
        for segments in self.paragraph:
            if parts:
                parts.append("\n")
                offset += 1
            for text, number in segments:
                if not marks or marks[-1][1] != number:
                    marks.append((offset, number))
                parts.append(text)
                offset += len(text)
        self.paragraph = []
        if parts:
            self.blocks.append(TextBlock("".join(parts), tuple(marks)))

    def heading(self, title: str, level: int | None = None) -> None:
        """Start a new section under heading ``title``.

        With a ``level`` (1 outermost) the section's title is the heading with its parent
        heading, "Parent › Heading": a changelog's "Backwards-incompatible Changes" means
        little without the version heading above it.
        """
        self.end_paragraph()
        self._close()
        self.budget.unit()
        if level is None:
            self.title = title
            self.path = []
            return
        while self.path and self.path[-1][0] >= level:
            self.path.pop()
        self.path.append((level, title))
        self.title = " \u203a ".join(text for _, text in self.path[-2:] if text)

    def finish(self) -> tuple[TextSection, ...]:
        """The sections with body text, in order (nothing is charged: a loader over its budget
        finishes with what it read)."""
        self.end_paragraph()
        self._close()
        self.title, self.path = "", []
        return tuple(self.sections)


def paragraph_blocks(lines: Iterable[tuple[str, int]]) -> tuple[TextBlock, ...]:
    """Paragraphs: runs of non-blank lines, each line kept as written (trailing space cut).

    Args:
        lines: ``(text, line number)`` pairs in order; a blank line ends a paragraph.

    Returns:
        One block per paragraph.
    """
    blocks: list[TextBlock] = []
    current: list[tuple[str, int]] = []
    for text, number in lines:
        if text.strip():
            current.append((text.rstrip(), number))
            continue
        block = block_from_lines(current)
        if block is not None:
            blocks.append(block)
        current = []
    block = block_from_lines(current)
    if block is not None:
        blocks.append(block)
    return tuple(blocks)
