"""Jupyter notebooks (``.ipynb``, nbformat 4 and 3) to sections of plain text, cell by cell.

Markdown cells are read as the Markdown loader reads a file: their headings start sections
(titled "Parent › Heading") and stay open over the cells below, so a code cell under
"## Training" is in that section. A code cell is kept as a fenced code block in the notebook's
language (```` ```python ````...), followed by its text outputs: stream text, the
``text/plain`` form of results and displays (images and HTML left out), and an error's name
and message. Raw cells are plain paragraphs.

Small cells are grouped into chunks like any other text: consecutive cells share a section
until it holds :data:`GROUP_WORDS` words, and a Markdown cell that opens with a heading starts
a new one. A chunk's location is the 1-based number of the cell it starts in, and its lines
count on from that cell's first line through the cells after it in its group: a cell's source
lines, then its outputs' lines after them (the fences of a code block stand on the first and
last source lines), then the next cell's. A cell alone in its group (any cell of
:data:`GROUP_WORDS` words or more) is cited by its own lines. Each output is cut after
:data:`MAX_OUTPUT_LINES` lines. Cells and their characters are charged to the file's work
budget; over it, the cells read so far are kept and the rest named in a note.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from agentic_rag._contracts.validation import is_int
from agentic_rag._ingest.blocks import ParsedSource, SectionBuilder
from agentic_rag._ingest.markdown_loader import clean_inline, parse_markdown_into
from agentic_rag._ingest.work_budget import WorkLimitError, current_work_budget
from agentic_rag._text.lines import normalize_newlines, split_lines

__all__ = ["GROUP_WORDS", "MAX_OUTPUT_LINES", "parse_notebook"]

#: Lines of one output kept (a training log can run to thousands).
MAX_OUTPUT_LINES = 1000
#: Words a group of small cells gathers before the next cell starts a new group.
GROUP_WORDS = 150

_HEADING = re.compile(r"\A\s*(?:#{1,6}(?:[ \t]|$)|<h[1-6][\s>])", re.IGNORECASE)

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class _NotANotebook(Exception):
    """The JSON is not a notebook this loader reads; the message says why."""


def _text(value: object) -> str:
    """A notebook string field: one string, or a list of strings joined (nbformat's
    "multiline string"); anything else is no text."""
    if isinstance(value, str):
        return normalize_newlines(value)
    if isinstance(value, list) and all(isinstance(part, str) for part in value):
        return normalize_newlines("".join(value))
    return ""


def _cells(notebook: Mapping[str, Any]) -> tuple[list[Any], int]:
    version = notebook.get("nbformat")
    if not is_int(version):
        raise _NotANotebook(f"not a notebook: no integer nbformat (got {version!r})")
    if version >= 4:
        cells = notebook.get("cells")
    elif version == 3:
        sheets = notebook.get("worksheets")
        if not isinstance(sheets, list):
            raise _NotANotebook("not a notebook: nbformat 3 without a worksheets list")
        cells = [cell for sheet in sheets if isinstance(sheet, Mapping) and isinstance(sheet.get("cells"), list) for cell in sheet["cells"]]
    else:
        raise _NotANotebook(f"unsupported notebook format {version}: nbformat 3 and 4 are read")
    if not isinstance(cells, list):
        raise _NotANotebook("not a notebook: no cells list")
    return cells, version


def _language(notebook: Mapping[str, Any]) -> str:
    metadata = notebook.get("metadata")
    if not isinstance(metadata, Mapping):
        return ""
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        section = metadata.get(key)
        if isinstance(section, Mapping) and isinstance(section.get(field), str):
            return section[field].strip()
    language = metadata.get("language")
    return language.strip() if isinstance(language, str) else ""


def _output_text(output: object) -> str:
    if not isinstance(output, Mapping):
        return ""
    kind = output.get("output_type")
    if kind == "stream":
        return _text(output.get("text"))
    if kind in ("execute_result", "display_data", "pyout"):
        data = output.get("data")
        if isinstance(data, Mapping):  # nbformat 4: a mime bundle
            return _text(data.get("text/plain"))
        return _text(output.get("text"))  # nbformat 3 keeps text/plain as "text"
    if kind in ("error", "pyerr"):
        name, value = output.get("ename"), output.get("evalue")
        return ": ".join(part for part in (name, value) if isinstance(part, str) and part)
    return ""


def _lines(text: str) -> list[str]:
    """A cell's or an output's lines as Jupyter shows them: a final newline ends the last
    line, it does not start another."""
    lines = split_lines(text)
    return lines[:-1] if len(lines) > 1 and not lines[-1] else lines


class _Reader:
    def __init__(self, language: str) -> None:
        self.language = "".join(language.split())
        self.out = SectionBuilder()
        self.budget = current_work_budget()
        self.group_lines = 0  # lines of the cells already in the current group
        self.group_words = 0
        self.grouping = False

    def code(self, source: str, outputs: object) -> int:
        """Add a code cell; returns its lines (source and kept outputs)."""
        lines = _lines(source)
        filled = [n for n, line in enumerate(lines, 1) if line.strip()]
        out = self.out
        if filled:
            out.line("```" + self.language, filled[0])
            for n, line in enumerate(lines, 1):
                out.line(line.rstrip(), n)
            out.line("```", filled[-1])
            out.end_paragraph()
        offset = len(lines)
        for output in outputs if isinstance(outputs, list) else ():
            text = _output_text(output)
            self.budget.text(len(text))
            kept = _lines(_ANSI.sub("", text))[:MAX_OUTPUT_LINES]
            for n, line in enumerate(kept, 1):
                out.line(line.rstrip(), offset + n)
            offset += len(kept)
            out.end_paragraph()
        return offset

    def cell(self, cell: object, number: int, version: int) -> None:
        self.budget.cell()
        if not isinstance(cell, Mapping):
            return
        kind = cell.get("cell_type")
        source = _text(cell.get("source") if version >= 4 or kind != "code" else cell.get("input"))
        self.budget.text(len(source))
        out = self.out
        words = len(source.split())
        starts_section = kind == "heading" or (kind == "markdown" and _HEADING.match(source) is not None)
        if not self.grouping or self.group_words >= GROUP_WORDS or words >= GROUP_WORDS or starts_section:
            out.move_to(cell=number)
            self.group_lines = self.group_words = 0
            self.grouping = True
        else:
            out.end_paragraph()  # a cell never continues the paragraph of the one before
        out.line_offset = self.group_lines
        lines = len(_lines(source)) if source else 0
        if kind == "markdown":
            parse_markdown_into(source, out)
        elif kind == "heading":  # nbformat 3
            level = cell.get("level")
            title = clean_inline(" ".join(source.split()))
            if title:
                out.heading(title, level if is_int(level) and 1 <= level <= 6 else 1)
        elif kind == "code":
            lines = self.code(source, cell.get("outputs"))
        elif kind == "raw":
            for n, line in enumerate(_lines(source), 1):
                if line.strip():
                    out.line(line.rstrip(), n)
                else:
                    out.end_paragraph()
            out.end_paragraph()
        self.group_lines += lines
        self.group_words += words
        out.line_offset = 0


def parse_notebook(text: str) -> ParsedSource:
    """Read a notebook's cells as sections, each tagged with its cell number.

    Args:
        text: The decoded ``.ipynb`` file (JSON).

    Returns:
        The sections (``extracted``: lines count within each cell), or a ``problem``: not
        JSON, not a notebook, or an nbformat other than 3 and 4.
    """
    try:
        notebook = json.loads(text)
    except ValueError as exc:
        return ParsedSource(problem=f"not a notebook: not valid JSON ({exc})")
    if not isinstance(notebook, Mapping):
        return ParsedSource(problem=f"not a notebook: the JSON is a {type(notebook).__name__}, not an object")
    try:
        cells, version = _cells(notebook)
    except _NotANotebook as exc:
        return ParsedSource(problem=str(exc))
    language = _language(notebook)
    if version == 3 and not language:
        language = next((c["language"] for c in cells if isinstance(c, Mapping) and isinstance(c.get("language"), str)), "")
    reader = _Reader(language)
    notes: tuple[str, ...] = ()
    for number, cell in enumerate(cells, 1):
        try:
            reader.cell(cell, number, version)
        except WorkLimitError as exc:
            if number == 1:
                raise
            # The cells read so far are kept; the rest are named as left out.
            reader.out.line_offset = 0
            notes = (f"cells {number}-{len(cells)} not indexed: over a work limit: {exc.message}",)
            break
    reader.out.move_to()
    return ParsedSource(reader.out.finish(), extracted=True, notes=notes)
