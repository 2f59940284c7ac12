"""PDF files to sections of plain text, one section per page, through the PDF parser.

The text comes from :func:`agentic_rag._ingest.pdf.extract_pdf` (the built-in parser, standard
library only) or, when asked for with :attr:`PdfBackend.PDFTOTEXT`, from poppler's
``pdftotext`` program, which must then be on ``PATH``. Each page's text is read like a plain
text file (paragraphs are runs of non-blank lines) and becomes its own section tagged with the
page number, so a chunk never spans two pages and its lines count lines *of that page*: its
lines of text from the top, as a reader counts them on the page, the blank lines an extractor
puts between paragraphs not counted.

A PDF that yields no text at all (encrypted, scanned images only, damaged) is a ``problem``
naming why; pages that yield none while others do are listed in the result's ``notes``.
"""

from __future__ import annotations

import enum
import os
import shutil
import tempfile
from collections.abc import Iterator
from typing import TYPE_CHECKING

from agentic_rag._contracts.validation import require_enum
from agentic_rag._errors import InvalidInputError
from agentic_rag._ingest.blocks import ParsedSource, TextSection, paragraph_blocks
from agentic_rag._text.lines import normalize_newlines, split_lines

if TYPE_CHECKING:
    from agentic_rag._ingest.pdf import PdfExtraction

__all__ = ["PDFTOTEXT", "PdfBackend", "parse_pdf", "require_pdf_backend"]

#: The program :attr:`PdfBackend.PDFTOTEXT` runs.
PDFTOTEXT = "pdftotext"
_STAGE = "ingest"
_SHOWN_PAGES = 5  # skipped pages named in a note before "and N more"


class PdfBackend(str, enum.Enum):
    """Which extractor reads PDF files."""

    BUILTIN = "builtin"
    """The library's own parser (no dependency)."""
    PDFTOTEXT = "pdftotext"
    """Poppler's ``pdftotext`` program (optional; must be on ``PATH``)."""


def require_pdf_backend(value: object) -> PdfBackend:
    """The backend named by ``value``, checked to be usable.

    Args:
        value: A :class:`PdfBackend` or its value (``"builtin"``, ``"pdftotext"``).

    Returns:
        The backend.

    Raises:
        InvalidInputError: An unknown name, or ``pdftotext`` asked for while the program is
            not on ``PATH``.
    """
    backend = require_enum(PdfBackend, value, "pdf", stage=_STAGE)
    if backend is PdfBackend.PDFTOTEXT and shutil.which(PDFTOTEXT) is None:
        raise InvalidInputError(f"pdf={PDFTOTEXT!r} needs the {PDFTOTEXT} program (poppler-utils) on PATH and it was not found: "
                                f"install poppler-utils, or use the built-in parser (pdf='builtin', the default)", stage=_STAGE)
    return backend


def _extract(data: bytes, backend: PdfBackend) -> PdfExtraction:
    # Imported on first use: the parser is large, and searching a store never needs it.
    from agentic_rag._ingest import pdf

    if backend is PdfBackend.BUILTIN:
        return pdf.extract_pdf(data)
    # pdftotext reads a file: hand it these very bytes (the ones hashed), not the path, which
    # may have changed since it was read.
    handle, name = tempfile.mkstemp(prefix="agentic-rag-", suffix=".pdf")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        return pdf.extract_pdf_with_pdftotext(name)
    finally:
        try:
            os.unlink(name)
        except OSError:
            pass


def _page_section(number: int, text: str) -> TextSection | None:
    blocks = paragraph_blocks(_page_lines(text))
    return TextSection(blocks, page=number) if blocks else None


def _page_lines(text: str) -> Iterator[tuple[str, int]]:
    """A page's lines numbered as cited: the blank lines between paragraphs do not count."""
    counted = 0
    for line in split_lines(normalize_newlines(text)):
        if line.strip():
            counted += 1
        yield line, counted


def _skipped_note(skipped: list[tuple[int, str]]) -> str:
    by_reason: dict[str, list[int]] = {}
    for number, reason in skipped:
        by_reason.setdefault(reason, []).append(number)
    parts = []
    for reason, numbers in sorted(by_reason.items(), key=lambda item: item[1][0]):
        shown = ", ".join(str(n) for n in numbers[:_SHOWN_PAGES]) + (f" and {len(numbers) - _SHOWN_PAGES} more" if len(numbers) > _SHOWN_PAGES else "")
        parts.append(f"page{'s' if len(numbers) > 1 else ''} {shown}: {reason}")
    return "not indexed: " + "; ".join(parts)


def parse_pdf(data: bytes, backend: PdfBackend = PdfBackend.BUILTIN) -> ParsedSource:
    """Extract a PDF's text, one section per page.

    Args:
        data: The file's bytes.
        backend: Which extractor to use (its availability is the caller's to check, with
            :func:`require_pdf_backend`; a missing program is reported as a ``problem``).

    Returns:
        The pages' sections (``extracted``, each with its ``page``), with a note naming the
        pages that held no text; or a ``problem`` when no page did.
    """
    extraction = _extract(data, PdfBackend(backend))
    if extraction.problem:
        return ParsedSource(problem=extraction.problem)
    sections = []
    skipped = [(page.number, page.reason) for page in extraction.skipped]
    for page in extraction.pages:
        section = _page_section(page.number, page.text)
        if section is not None:
            sections.append(section)
        elif not any(number == page.number for number, _ in skipped):
            skipped.append((page.number, "no text (a scanned image?)"))
    skipped.sort()
    if not sections:
        if skipped:
            return ParsedSource(problem="no text in any page (" + _skipped_note(skipped)[len("not indexed: "):] + ")")
        return ParsedSource(problem="no text in any page")
    return ParsedSource(tuple(sections), extracted=True, notes=(_skipped_note(skipped),) if skipped else ())
