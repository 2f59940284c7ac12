"""Word documents (``.docx``) to sections of plain text, with the standard library only.

A ``.docx`` file is a zip archive of XML parts; the text is in ``word/document.xml``. Headings
(the ``Title`` style, ``Heading 1``... styles, or any paragraph with an outline level) start
sections titled "Parent › Heading" as in the Markdown loader; list items (``numPr``, on the
paragraph or its style) keep a marker (``- `` or ``1. ``, two spaces a level); a table becomes
one line per row, ``cell | cell``; hyperlinks keep their text; tabs stay tabs and line breaks
start a new line; footnotes and endnotes follow in a ``Footnotes`` (``Endnotes``) section, each
referenced in the text as ``[n]``. Deleted revisions, field codes, drawings, headers and
footers are left out.

A Word document has no lines, and its pages depend on the printer: its *line* N is the N-th
line of its extracted text (a heading, a paragraph, a line break inside one, a list item or a
table row; empty paragraphs are not counted), in the order above.

The archive is read with bounds (entry count, bytes inflated per part and in all); each part's
prolog is parsed first and a part declaring a DTD, in whatever encoding, is refused, so a zip
bomb or an entity expansion costs bounded work. The parts are parsed as a stream: every element
read is charged to the file's work budget (:mod:`~agentic_rag._ingest.work_budget`), and the
body's paragraphs and tables are read and dropped one by one, so memory holds one of them at a
time. A damaged or foreign file, or one over its budget, comes back as a ``problem``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from xml.etree import ElementTree

from agentic_rag._ingest.blocks import ParsedSource, SectionBuilder, table_row
from agentic_rag._ingest.docx_parts import MAX_ENTRIES, MAX_PART_BYTES, Archive as _Archive, Refused as _Refused
from agentic_rag._ingest.work_budget import WorkBudget, WorkLimitError

__all__ = ["BLOCK_ELEMENTS", "MAX_ENTRIES", "MAX_PART_BYTES", "parse_docx"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_HEADING_STYLE = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)
# Run content that is not text and whose children are not text either.
_SKIPPED = frozenset(f"{_W}{tag}" for tag in ("pPr", "rPr", "del", "delText", "instrText", "drawing", "pict", "object",
                                               "moveFrom", "footnotePr", "endnotePr", "fldData"))
_SKIPPED_ALIEN = ("AlternateContent",)  # mc:AlternateContent: a drawing's choices, never body text
_BULLET = "bullet"
#: What reading one paragraph or table of the body costs, in XML elements of the budget.
BLOCK_ELEMENTS = 4


@dataclass(slots=True)
class _Styles:
    """What the document's styles say about headings and lists."""

    levels: dict[str, int] = field(default_factory=dict)  # style id -> heading level (0: Title)
    lists: dict[str, tuple[str, int]] = field(default_factory=dict)  # style id -> (numId, ilvl)
    formats: dict[tuple[str, int], str] = field(default_factory=dict)  # (numId, ilvl) -> numFmt


def _attr(element: ElementTree.Element | None, name: str = "val") -> str:
    return "" if element is None else element.get(f"{_W}{name}", "")


def _number(value: str, default: int = 0) -> int:
    return int(value) if value.isascii() and value.isdigit() and len(value) < 6 else default


def _inherit_levels(levels: dict[str, int], based: dict[str, str]) -> None:
    """A style based on a heading style (not on Title) is a heading of that level. Each chain
    of ``basedOn`` is walked once (results are remembered), so a hostile chain costs linear
    time; a cycle ends the walk."""
    inherited: dict[str, int | None] = {}
    for sid in based:
        chain: list[str] = []
        in_chain: set[str] = set()  # a set: a list's membership test made the walk quadratic
        current: str | None = sid
        level: int | None = None
        while current is not None:
            if current in levels:
                level = levels[current] or None
                break
            if current in inherited:
                level = inherited[current]
                break
            if current in in_chain:
                break
            chain.append(current)
            in_chain.add(current)
            current = based.get(current)
        for name in chain:
            inherited[name] = level
    for sid, level in inherited.items():
        if level is not None and sid not in levels:
            levels[sid] = level


def _styles(archive: _Archive) -> _Styles:
    out = _Styles()
    root = archive.xml("word/styles.xml")
    if root is not None:
        based: dict[str, str] = {}
        for style in root.iter(f"{_W}style"):
            sid = _attr(style, "styleId")
            name = _attr(style.find(f"{_W}name")).strip()
            ppr = style.find(f"{_W}pPr")
            outline = _attr(ppr.find(f"{_W}outlineLvl")) if ppr is not None else ""
            heading = _HEADING_STYLE.match(name) or _HEADING_STYLE.match(sid)
            if name.lower() == "title" or sid.lower() == "title":
                out.levels[sid] = 0
            elif heading:
                out.levels[sid] = int(heading.group(1))
            elif outline and _number(outline, 9) < 9:
                out.levels[sid] = _number(outline) + 1
            num = ppr.find(f"{_W}numPr") if ppr is not None else None
            if num is not None:
                out.lists[sid] = (_attr(num.find(f"{_W}numId")), _number(_attr(num.find(f"{_W}ilvl"))))
            parent = _attr(style.find(f"{_W}basedOn"))
            if parent:
                based[sid] = parent
        _inherit_levels(out.levels, based)
    numbering = archive.xml("word/numbering.xml")
    if numbering is not None:
        abstract: dict[str, dict[int, str]] = {}
        for item in numbering.iter(f"{_W}abstractNum"):
            abstract[_attr(item, "abstractNumId")] = {_number(_attr(lvl, "ilvl")): _attr(lvl.find(f"{_W}numFmt"))
                                                      for lvl in item.iter(f"{_W}lvl")}
        for num in numbering.iter(f"{_W}num"):
            formats = abstract.get(_attr(num.find(f"{_W}abstractNumId")), {})
            for level, fmt in formats.items():
                out.formats[(_attr(num, "numId"), level)] = fmt
    return out


class _Reader:
    """Walks the body in order, numbering the lines of text it emits."""

    def __init__(self, styles: _Styles, title: str, budget: WorkBudget) -> None:
        self.styles = styles
        self.budget = budget
        self.seen_body = False
        self.out = SectionBuilder(title)
        self.line = 0
        self.counters: dict[str, list[int]] = {}  # numId -> the count at each level
        self.in_list = False
        self.notes: dict[str, dict[str, int]] = {"footnote": {}, "endnote": {}}  # note id -> its [n]

    # -- inline ------------------------------------------------------------------------

    def runs(self, element: ElementTree.Element, parts: list[str]) -> None:
        """The text of a paragraph's content, ``\\n`` at line breaks."""
        for child in element:
            tag = child.tag
            if tag in _SKIPPED or (isinstance(tag, str) and tag.endswith(_SKIPPED_ALIEN)):
                continue
            if tag == f"{_W}t":
                parts.append(child.text or "")
            elif tag == f"{_W}tab" or tag == f"{_W}ptab":
                parts.append("\t")
            elif tag in (f"{_W}br", f"{_W}cr"):
                parts.append("\n")
            elif tag == f"{_W}noBreakHyphen":
                parts.append("-")
            elif tag in (f"{_W}footnoteReference", f"{_W}endnoteReference"):
                kind = "footnote" if tag == f"{_W}footnoteReference" else "endnote"
                notes = self.notes[kind]
                number = notes.setdefault(_attr(child, "id"), len(notes) + 1)
                parts.append(f"[{number}]")
            elif tag == f"{_W}p":  # a paragraph nested in run content (a text box kept inline)
                parts.append("\n")
                self.runs(child, parts)
            else:
                self.runs(child, parts)

    def text_of(self, paragraph: ElementTree.Element) -> list[str]:
        parts: list[str] = []
        self.runs(paragraph, parts)
        self.budget.text(sum(len(part) for part in parts))
        return [" ".join(line.replace("\t", "\0").split()).replace("\0", "\t").strip() for line in "".join(parts).split("\n")]

    # -- blocks ------------------------------------------------------------------------

    def emit(self, text: str) -> None:
        if text.strip():
            self.line += 1
            self.out.line(text, self.line)

    def paragraph(self, paragraph: ElementTree.Element) -> None:
        ppr = paragraph.find(f"{_W}pPr")
        style = _attr(ppr.find(f"{_W}pStyle")) if ppr is not None else ""
        lines = [line for line in self.text_of(paragraph) if line]
        level = self.styles.levels.get(style)
        outline = _attr(ppr.find(f"{_W}outlineLvl")) if ppr is not None else ""
        if outline:
            level = _number(outline) + 1 if _number(outline, 9) < 9 else None
        if level is not None and lines:
            self.end_list()
            self.line += len(lines)
            self.out.heading(" ".join(lines), level)
            return
        marker = self.marker(ppr, style)
        if marker is None:
            self.end_list()
        elif not self.in_list:
            self.out.end_paragraph()
            self.in_list = True
        for k, line in enumerate(lines):
            self.emit((marker if k == 0 else " " * len(marker)) + line if marker is not None else line)
        if marker is None:
            self.out.end_paragraph()

    def marker(self, ppr: ElementTree.Element | None, style: str) -> str | None:
        num = ppr.find(f"{_W}numPr") if ppr is not None else None
        num_id, level = self.styles.lists.get(style, ("", 0))
        if num is not None:
            num_id = _attr(num.find(f"{_W}numId")) or num_id
            level = _number(_attr(num.find(f"{_W}ilvl")), level)
        if not num_id or num_id == "0":  # numId 0 switches a style's numbering off
            return None
        level = min(level, 8)
        counts = self.counters.setdefault(num_id, [0] * 9)
        counts[level] += 1
        for deeper in range(level + 1, 9):
            counts[deeper] = 0
        fmt = self.styles.formats.get((num_id, level), _BULLET)
        return "  " * level + ("- " if fmt in (_BULLET, "none", "") else f"{counts[level]}. ")

    def end_list(self) -> None:
        if self.in_list:
            self.out.end_paragraph()
            self.in_list = False

    def table(self, table: ElementTree.Element) -> None:
        self.end_list()
        self.out.end_paragraph()
        for row in table.findall(f"{_W}tr"):
            cells = []
            for cell in row.findall(f"{_W}tc"):
                texts = [line for p in cell.iter(f"{_W}p") for line in self.text_of(p) if line]
                cells.append(" ".join(texts))
            self.emit(table_row(cells))
        self.out.end_paragraph()

    def block(self, child: ElementTree.Element) -> None:
        """One child of the body (or of a content control inside it)."""
        if child.tag == f"{_W}p":
            self.paragraph(child)
        elif child.tag == f"{_W}tbl":
            self.table(child)
        elif child.tag in (f"{_W}sdt", f"{_W}sdtContent", f"{_W}customXml", f"{_W}ins", f"{_W}smartTag"):
            for inner in child:
                self.block(inner)
            self.end_list()

    def body_child_ended(self, element: ElementTree.Element, open_elements: list[ElementTree.Element]) -> None:
        """Read each child of the body as it ends, then drop it: one block in memory at a time."""
        if len(open_elements) == 2 and open_elements[1].tag == f"{_W}body":
            # A block costs far more to read than an element to parse: charged as several.
            self.budget.element(BLOCK_ELEMENTS)
            self.block(element)
            open_elements[1].remove(element)
        elif len(open_elements) == 1 and element.tag == f"{_W}body":
            self.seen_body = True
            self.end_list()

    def notes_section(self, root: ElementTree.Element | None, kind: str, heading: str) -> None:
        numbers = self.notes[kind]
        if root is None or not numbers:
            return
        found = {_attr(note, "id"): note for note in root.iter(f"{_W}{kind}")}
        self.out.heading(heading, 0)  # level 0: a top-level section, under no heading of the body
        for note_id, number in sorted(numbers.items(), key=lambda item: item[1]):
            note = found.get(note_id)
            if note is None:
                continue
            lines = [line for p in note.iter(f"{_W}p") for line in self.text_of(p) if line]
            for k, line in enumerate(lines):
                self.emit(f"[{number}] {line}" if k == 0 else line)
            self.out.end_paragraph()


def _title(archive: _Archive) -> str:
    try:
        core = archive.xml("docProps/core.xml")
    except _Refused:
        return ""  # the document properties are not the document: carry on without a title
    if core is None:
        return ""
    found = core.find("{http://purl.org/dc/elements/1.1/}title")
    return " ".join((found.text or "").split()) if found is not None else ""


def parse_docx(data: bytes) -> ParsedSource:
    """Extract a Word document's text as titled sections.

    Args:
        data: The ``.docx`` file's bytes.

    Returns:
        The sections (``extracted``: line numbers count lines of the extracted text), or a
        ``problem``: not a zip archive (an encrypted document is an OLE file), no
        ``word/document.xml``, a part that is not well-formed XML, or a bound exceeded.
    """
    try:
        archive = _Archive(data)
        if "word/document.xml" not in archive.names:
            raise _Refused("not a Word document: the archive holds no word/document.xml")
        reader = _Reader(_styles(archive), _title(archive), archive.work)
        notes: tuple[str, ...] = ()
        try:
            archive.xml("word/document.xml", required=True, on_end=reader.body_child_ended)
        except WorkLimitError as exc:
            if not reader.line:
                raise
            # What was read so far is kept; the rest of the document is named as left out.
            reader.end_list()
            reader.seen_body = True
            notes = (f"not indexed after line {reader.line}: over a work limit: {exc.message}",)
        if not reader.seen_body:
            return ParsedSource(problem="not a Word document: word/document.xml has no body")
        if notes:
            return ParsedSource(reader.out.finish(), extracted=True, notes=notes)
        try:
            reader.notes_section(archive.xml("word/footnotes.xml") if reader.notes["footnote"] else None, "footnote", "Footnotes")
            reader.notes_section(archive.xml("word/endnotes.xml") if reader.notes["endnote"] else None, "endnote", "Endnotes")
        except WorkLimitError as exc:
            # The body is read: notes past the budget are named, not the whole file lost.
            return ParsedSource(reader.out.finish(), extracted=True, notes=(f"footnotes and endnotes not indexed: over a work limit: {exc.message}",))
    except _Refused as exc:
        return ParsedSource(problem=str(exc))
    except RecursionError:
        return ParsedSource(problem="damaged Word document: its XML is nested too deeply")
    return ParsedSource(reader.out.finish(), extracted=True)
