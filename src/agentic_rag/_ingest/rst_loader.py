"""reStructuredText (the Sphinx format) to sections of plain text, every line keeping its number.

Underlined (and over- and underlined) titles start a new section and become its title. Lists
keep a normalised marker (``- `` or ``1. ``, two spaces a level); field lists become
``name: text``; definition lists keep the term line, then the definition. Literal blocks (after
a paragraph ending in ``::``, which keeps one ``:``) and ``code-block`` directives are kept
verbatim, dedented, as their own block. Admonitions and version notes keep a lead
(``Note:``, ``Version added 2.0:``) and their text; Sphinx object directives keep their
signature line and their text; tables become ``cell | cell`` rows. Comments, targets,
substitution definitions, options and directives without readable text (``toctree``,
``image``, ``include``...) are dropped. Inline markup is reduced by
:func:`~agentic_rag._ingest.rst_inline.clean_rst_inline`. A file holding nothing but
``include`` directives comes back as the problem ``only includes <target>``.
"""

from __future__ import annotations

import csv
import re

from agentic_rag._ingest.blocks import ListNesting, ParsedSource, SectionBuilder, TextSection, include_problem, table_row
from agentic_rag._ingest.rst_inline import clean_rst_inline, clean_rst_line
from agentic_rag._text.lines import split_lines

__all__ = ["parse_rst", "rst_source"]

_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}[ \t]*$")
_EXPLICIT = re.compile(r"^\.\.(?:[ \t]+|$)")
_DIRECTIVE = re.compile(r"^\.\.[ \t]+([A-Za-z][\w.+:-]*?)::(?:[ \t]+|$)(.*)$")
_SUBSTITUTION_DEF = re.compile(r"^\.\.[ \t]+\|[^|]+\|")
_TARGET = re.compile(r"^\.\.[ \t]+(?:_|__[ \t]*:)")
_FOOTNOTE = re.compile(r"^\.\.[ \t]+\[([^\]\s]+)\](?:[ \t]+(.*))?$")
_OPTION = re.compile(r"^[ \t]+:[\w.+-]+(?: [^:]*)?:(?:[ \t]|$)")
_BULLET = re.compile(r"^([ \t]*)([-*+\u2022\u2023\u2043])[ \t]+(?=\S)")
_ENUMERATED = re.compile(r"^([ \t]*)\(?(\d{1,9}|#)[.)][ \t]+(?=\S)")
_FIELD = re.compile(r"^[ \t]*:([^:`\s][^:`]*):(?:[ \t]+(.*))?$")
_GRID_BORDER = re.compile(r"^[ \t]*\+(?:[-=]+\+)+[ \t]*$")
_SIMPLE_BORDER = re.compile(r"^[ \t]*=+(?:[ \t]+=+)+[ \t]*$")
_SIMPLE_RULE = re.compile(r"^[ \t]*-+(?:[ \t]+-+)*[ \t]*$")
_LINE_BLOCK = re.compile(r"^[ \t]*\|(?:[ \t]+|$)")

_CODE = frozenset({"code-block", "code", "sourcecode", "parsed-literal", "doctest", "testcode", "testoutput", "testsetup",
                   "testcleanup", "productionlist", "math"})
_DROPPED = frozenset({"toctree", "image", "include", "literalinclude", "raw", "meta", "contents", "sectnum", "section-numbering",
                      "highlight", "index", "tabularcolumns", "default-role", "role", "module", "currentmodule", "program",
                      "autosummary", "title", "graphviz", "digraph", "graph", "inheritance-diagram", "mermaid", "plot",
                      "default-domain", "cssclass", "rst-class", "target-notes", "footer", "header", "moduleauthor",
                      "sectionauthor", "codeauthor"})
_ADMONITIONS = {"attention": "Attention:", "caution": "Caution:", "danger": "Danger:", "error": "Error:", "hint": "Hint:",
                "important": "Important:", "note": "Note:", "tip": "Tip:", "warning": "Warning:", "seealso": "See also:",
                "todo": "To do:"}
# The directive's own words, readable ("Version added 2.0:"), so a quote of the lead still
# stands, letter for letter, at its line (".. versionadded:: 2.0").
_VERSIONS = {"versionadded": "Version added {}:", "versionchanged": "Version changed {}:",
             "deprecated": "Deprecated {}:", "versionremoved": "Version removed {}:"}
_NO_ARGUMENT_TEXT = frozenset({"figure"})  # the argument is a file name; the caption is text
_INCLUDES = frozenset({"include", "literalinclude"})
_FILE_FIELDS = frozenset({"orphan", "nosearch", "nocomments", "tocdepth"})
_MAX_LINES_LOOKED_AHEAD = 10_000


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _block_end(lines: list[str], start: int, column: int) -> int:
    """Index after the indented block from ``start``: lines that are blank or indented past
    ``column``, trailing blank lines excluded."""
    end = start
    index = start
    while index < len(lines) and (not lines[index].strip() or _indent(lines[index]) > column):
        index += 1
        if lines[index - 1].strip():
            end = index
    return end


class _Reader:
    def __init__(self, text: str) -> None:
        self.lines = [line.expandtabs(8).rstrip() for line in split_lines(text)]
        self.out = SectionBuilder()
        self.lists = ListNesting()
        self.styles: dict[tuple[str, str], int] = {}
        self.open_span = False  # interpreted text (a link, a role) runs onto the next line
        self.includes: list[str] = []
        self.literal_after = -1  # a paragraph at this column ended in "::": an indented block follows
        self.paragraph_column = -1  # column of the current paragraph's text (-1: none open)
        self.hold = False  # a lead ("Note:") waits for its text: blank lines do not end the block
        self.fields = False  # the open paragraph is a field list

    # -- blocks ----------------------------------------------------------------------------

    def end_paragraph(self) -> None:
        if self.hold:
            return
        self.out.end_paragraph()
        self.paragraph_column = -1
        self.fields = False
        self.open_span = False

    def list_goes_on(self, index: int) -> bool:
        """Whether the list open at blank line ``index`` continues after it (one block)."""
        if not self.lists.columns:
            return False
        following = next((line for line in self.lines[index:index + 50] if line.strip()), "")
        column = _indent(following)
        if _EXPLICIT.match(following.strip()) or self.literal_after >= 0:
            return False
        return bool(_BULLET.match(following) or _ENUMERATED.match(following)) or column >= self.lists.columns[0]

    def text(self, content: str, number: int, column: int, prefix: str = "") -> None:
        """A line of paragraph text at source ``column``."""
        if self.paragraph_column < 0:
            self.paragraph_column = column
        if content.endswith("::"):
            self.literal_after = self.paragraph_column
            head = content[:-2]
            content = head.rstrip() if head.endswith((" ", "\t")) or not head.strip() else head + ":"
        cleaned, self.open_span = clean_rst_line(content, self.open_span)
        if cleaned.strip():
            self.hold = False
            self.out.line(prefix + cleaned, number)

    def code(self, start: int, end: int) -> None:
        """Lines ``start:end`` verbatim, dedented, as their own block."""
        body = [(self.lines[i], i + 1) for i in range(start, end) if self.lines[i].strip()]
        if not body:
            return
        self.hold = False
        self.end_paragraph()
        margin = min(_indent(line) for line, _ in body)
        for line, number in body:
            self.out.line(line[margin:], number)
        self.out.end_paragraph()

    # -- the walk --------------------------------------------------------------------------

    def read(self) -> None:
        lines = self.lines
        index = 0
        while index < len(lines):
            index = self.step(index)

    def step(self, index: int) -> int:
        lines = self.lines
        line = lines[index]
        if not line.strip():
            if not self.list_goes_on(index):
                self.end_paragraph()
            self.lists.after_blank = True
            return index + 1
        column = _indent(line)
        if self.literal_after >= 0:
            literal_column, self.literal_after = self.literal_after, -1
            if column > literal_column:
                end = _block_end(lines, index, literal_column)
                self.code(index, end)
                return end
        stripped = line.strip()
        title = self.title(index)
        if title:
            return title
        if _GRID_BORDER.match(line):
            return self.grid_table(index)
        if _SIMPLE_BORDER.match(line):
            return self.simple_table(index)
        if _EXPLICIT.match(stripped):
            return self.explicit(index, column)
        bullet = _BULLET.match(line) or _ENUMERATED.match(line)
        if bullet:
            marker = bullet.group(2)
            self.fields = False
            level = self.lists.item(column, len(bullet.group(0)))
            # An automatic "#." item keeps its marker: a number the source does not hold would
            # put words in quotes that no reader finds at the cited lines.
            lead = f"{marker}. " if marker == "#" or marker.isdigit() else "- "
            self.paragraph_column = len(bullet.group(0))
            self.text(line[bullet.end():], index + 1, self.paragraph_column, "  " * level + lead)
            return index + 1
        depth = self.lists.continuation(column)
        field = _FIELD.match(line)
        if field and (self.paragraph_column < 0 or self.fields):
            name, body = " ".join(field.group(1).split()), field.group(2) or ""
            if name.lower() in _FILE_FIELDS:
                return index + 1
            self.fields = True
            self.paragraph_column = column
            self.text(f"{name}: {body}" if body else f"{name}:", index + 1, column, "  " * depth)
            return index + 1
        if _LINE_BLOCK.match(line):
            stripped = stripped[1:].strip()
        self.text(stripped, index + 1, column, "  " * depth)
        return index + 1

    def title(self, index: int) -> int:
        """The index after a section title starting at ``index``, or 0 when there is none."""
        lines = self.lines
        before_blank = index == 0 or not lines[index - 1].strip() or bool(_ADORNMENT.match(lines[index - 1]))
        if not before_blank or index + 1 >= len(lines):
            return 0
        line, following = lines[index], lines[index + 1]
        over = _ADORNMENT.match(line)
        if over and index + 2 < len(lines) and following.strip() and lines[index + 2].strip() == line.strip():
            self.section(following.strip(), ("over", line.strip()[0]))
            return index + 3
        if over:
            if not following.strip() and len(line.strip()) >= 4:
                self.end_paragraph()  # a transition
                return index + 1
            return 0
        under = _ADORNMENT.match(following)
        if under and not line[0].isspace() and (len(following.strip()) >= len(line.strip()) or len(following.strip()) >= 4):
            self.section(line.strip(), ("under", following.strip()[0]))
            return index + 2
        return 0

    def section(self, title: str, style: tuple[str, str]) -> None:
        # rST levels are the adornment styles in the order a document first uses them.
        level = self.styles.setdefault(style, len(self.styles) + 1)
        self.hold = False
        self.lists.end()
        self.literal_after = -1
        self.out.heading(clean_rst_inline(title), level)
        self.paragraph_column = -1

    # -- explicit markup -------------------------------------------------------------------

    def explicit(self, index: int, column: int) -> int:
        lines = self.lines
        stripped = lines[index].strip()
        end = _block_end(lines, index + 1, column)
        self.end_paragraph()
        self.lists.continuation(column)
        directive = _DIRECTIVE.match(stripped)
        if directive is None:
            footnote = _FOOTNOTE.match(stripped)
            if footnote and not _TARGET.match(stripped) and not _SUBSTITUTION_DEF.match(stripped):
                self.text(f"[{footnote.group(1)}] {footnote.group(2) or ''}".rstrip(), index + 1, column)
                return index + 1  # the indented rest of the note is read as text
            return end  # a comment, a target or a substitution definition
        name = directive.group(1).rsplit(":", 1)[-1].lower()
        argument = directive.group(2).strip()
        if name in _INCLUDES:
            if argument:
                self.includes.append(argument)
            return end
        if name in _DROPPED:
            return end
        body = index + 1
        header: list[int] = []  # lines continuing the argument, before any option
        while body < end and lines[body].strip() and not _OPTION.match(lines[body]):
            header.append(body)
            body += 1
        while body < end and lines[body].strip() and _OPTION.match(lines[body]):
            body += 1
        if name in _CODE:
            if name == "math" and argument:
                self.end_paragraph()
                self.out.line(argument, index + 1)
            self.code(body, end)
            return end
        if name in ("list-table", "csv-table"):
            self.text(argument, index + 1, column)
            self.end_paragraph()
            (self.list_table if name == "list-table" else self.csv_table)(body, end)
            return end
        lead = ""
        if name in _ADMONITIONS:
            lead = _ADMONITIONS[name]
        elif name in _VERSIONS:
            version, _, rest = argument.partition(" ")
            lead, argument = _VERSIONS[name].format(version), rest.strip()
        elif name in _NO_ARGUMENT_TEXT:
            argument = ""
        if lead:
            self.out.line(lead + (" " + clean_rst_inline(argument) if argument else ""), index + 1)
        elif argument:
            self.text(argument, index + 1, column)
        for number in header:
            self.text(lines[number].strip(), number + 1, column)
        # The lead or signature stays in one block with the first paragraph of the body.
        self.hold = any(lines[i].strip() for i in range(body, end))
        if not self.hold:
            self.end_paragraph()
        self.paragraph_column = column
        return body

    # -- tables ----------------------------------------------------------------------------

    def grid_table(self, index: int) -> int:
        lines = self.lines
        self.end_paragraph()
        border = lines[index]
        cuts = [i for i, char in enumerate(border) if char == "+"]
        while index < len(lines) and lines[index].strip()[:1] in ("+", "|"):
            line = lines[index]
            if _GRID_BORDER.match(line):
                cuts = [i for i, char in enumerate(line) if char == "+"]
            elif line.lstrip().startswith("|"):
                self.out.budget.unit(len(cuts))
                if all(i < len(line) and line[i] in "|+" for i in cuts):
                    cells = [line[a + 1:b] for a, b in zip(cuts, cuts[1:])]
                else:
                    cells = line.strip().strip("|").split("|")
                self._row(cells, index + 1)
            index += 1
        self.out.end_paragraph()
        return index

    def simple_table(self, index: int) -> int:
        lines = self.lines
        self.end_paragraph()
        columns = [(m.start(), m.end()) for m in re.finditer(r"=+", lines[index])]
        borders = 0
        while index < len(lines):
            line = lines[index]
            if _SIMPLE_BORDER.match(line) or (line.strip() and set(line.strip()) == {"="}):
                borders += 1
                index += 1
                if borders >= 3 or (borders == 2 and (index >= len(lines) or not lines[index].strip())
                                    and not self._table_continues(index)):
                    break
                continue
            if line.strip() and not _SIMPLE_RULE.match(line):
                # Charged before they are cut: a border of 100,000 columns gives every row as many.
                self.out.budget.unit(len(columns))
                starts = [a for a, _ in columns] + [len(line) + 1]
                cells = [line[starts[i]:starts[i + 1]] for i in range(len(columns))]
                if columns and columns[0][0] > 0:
                    cells[0] = line[:starts[1]]
                self._row(cells, index + 1)
            index += 1
        self.out.end_paragraph()
        return index

    def _row(self, cells: list[str], number: int) -> None:
        """One table row from source line ``number``, its cells cleaned, as ``a | b``."""
        row = table_row([clean_rst_inline(cell.strip()) for cell in cells])
        if row:
            self.out.line(row, number)

    def _table_continues(self, index: int) -> bool:
        """After a second border and a blank line: does a body row and a closing border follow?"""
        lines = self.lines
        for look in range(index, min(len(lines), index + _MAX_LINES_LOOKED_AHEAD)):
            line = lines[look]
            if _SIMPLE_BORDER.match(line):
                return look > index and any(lines[i].strip() for i in range(index, look))
            if line.strip() and (_ADORNMENT.match(line) or _indent(line) > 0 and _EXPLICIT.match(line.strip())):
                return False
        return False

    def list_table(self, start: int, end: int) -> None:
        """``* - a`` / ``  - b`` rows become ``a | b``, each cell citing its own line."""
        lines = self.lines
        body = [i for i in range(start, end) if lines[i].strip()]
        if not body:
            return
        row_column = min(_indent(lines[i]) for i in body)
        for i in body:
            line = lines[i]
            content = line.strip()
            starts_row = _indent(line) == row_column and content[:1] in "*-+"
            if starts_row:
                content = content[1:].strip()
                cell = content[1:].strip() if content[:1] == "-" else content
                self.out.line(clean_rst_inline(cell) or " ", i + 1)
            elif content[:2] == "- " or content == "-":
                self.out.append(" | " + clean_rst_inline(content[1:].strip()), i + 1)
            else:
                self.out.append(" " + clean_rst_inline(content), i + 1)
        self.out.end_paragraph()

    def csv_table(self, start: int, end: int) -> None:
        lines = self.lines
        for i in range(start, end):
            if not lines[i].strip():
                continue
            try:
                (cells,) = list(csv.reader([lines[i].strip()], skipinitialspace=True))
            except (csv.Error, ValueError):
                cells = [lines[i].strip()]
            self.out.budget.unit(len(cells))
            row = table_row([clean_rst_inline(cell.strip()) for cell in cells])
            if row:
                self.out.line(row, i + 1)
        self.out.end_paragraph()


def _read(text: str) -> _Reader:
    reader = _Reader(text)
    reader.read()
    reader.hold = False
    return reader


def parse_rst(text: str) -> tuple[TextSection, ...]:
    """Turn reStructuredText into titled sections of plain-text paragraphs.

    Args:
        text: Decoded reStructuredText with ``\\n`` newlines.

    Returns:
        Sections in file order; sections without body text are dropped.
    """
    return _read(text).out.finish()


def rst_source(text: str) -> ParsedSource:
    """Parse reStructuredText as :func:`parse_rst` does; a file holding nothing but
    ``include`` directives comes back as the problem ``only includes <target>``.

    Args:
        text: Decoded reStructuredText with ``\\n`` newlines.

    Returns:
        The sections, or the reason there are none.
    """
    reader = _read(text)
    sections = reader.out.finish()
    if not sections and reader.includes:
        return ParsedSource(problem=include_problem(reader.includes))
    return ParsedSource(sections)
