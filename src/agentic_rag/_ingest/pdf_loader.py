"""PDF files to sections of plain text, one section per page, through the PDF parser.

The text comes from :func:`agentic_rag._ingest.pdf.extract_pdf` (the built-in parser, standard
library only) or, when asked for with :attr:`PdfBackend.PDFTOTEXT`, from poppler's
``pdftotext`` program, which must then be on ``PATH``. Each page's text is read like a plain
text file (paragraphs are runs of non-blank lines) and becomes its own section tagged with the
page number, so a chunk never spans two pages and its lines count lines *of that page*: its
lines of text from the top, as a reader counts them on the page, the blank lines an extractor
puts between paragraphs not counted.

The running header and footer of the pages (:mod:`agentic_rag._ingest.pdf_pages`) are left
out of the text (their lines keep their numbers, so later lines are cited as the page shows
them); the page number they print becomes the page's label unless the file's ``/PageLabels``
gives one. A page is cut where the outline's bookmarks start their sections, and its sections
carry the bookmarks' heading path; without an outline, the running chapter title heads the page;
without either, the headings the pages' typography shows (:mod:`agentic_rag._ingest.pdf_headings`:
bold or larger lines over indented text, as a man page's ``OPTIONS`` and its option tags) cut
the pages and give their sections' heading paths.
A page that only lists other pages (an index, a table of contents) is flagged as such
(:func:`~agentic_rag._ingest.list_pages.is_list_page`).

A PDF that yields no text at all (encrypted, scanned images only, damaged) is a ``problem``
naming why; pages that yield none while others do are listed in the result's ``notes``.
"""

from __future__ import annotations

from dataclasses import replace
import os
import tempfile
from typing import TYPE_CHECKING

from agentic_rag._ingest.blocks import ParsedSource, TextSection, paragraph_blocks
from agentic_rag._ingest.list_pages import is_list_page
from agentic_rag._ingest.pdf_backend import PDFTOTEXT, PdfBackend, require_pdf_backend  # re-exported: the backend's home is light
from agentic_rag._ingest.pdf_headings import typography_segments
from agentic_rag._ingest.pdf_pages import analyse_pages, outline_segments
from agentic_rag._text.lines import normalize_newlines, split_lines

if TYPE_CHECKING:
    from agentic_rag._ingest.pdf import PdfExtraction

__all__ = ["PDFTOTEXT", "PdfBackend", "parse_pdf", "require_pdf_backend"]

_STAGE = "ingest"
_SHOWN_PAGES = 5  # skipped pages named in a note before "and N more"


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


def _page_sections(extraction: PdfExtraction) -> list[TextSection]:
    """Each page's text without its furniture, cut where the outline's sections start (or
    titled by the running chapter title, or cut at the headings its typography shows), with
    the page's label."""
    pages = [(page.number, split_lines(normalize_newlines(page.text))) for page in extraction.pages]
    layouts = analyse_pages(pages)
    typography = None
    if not extraction.outline and not any(layout.running_title for layout in layouts):
        typography = typography_segments([(lines, page.styles, layout.furniture)
                                          for (_, lines), page, layout in zip(pages, extraction.pages, layouts)])
    by_page: dict[int, list[tuple[str, int]]] = {}
    for entry in extraction.outline:
        by_page.setdefault(entry.page, []).append((entry.title, entry.level))
    open_path: tuple[tuple[str, int], ...] = ()
    sections: list[TextSection] = []
    for p, (page, (number, lines), layout) in enumerate(zip(extraction.pages, pages, layouts)):
        if extraction.outline:
            # Bookmarks on skipped pages still open their sections before this page.
            for earlier in sorted(n for n in by_page if n < number):
                open_path = outline_segments((), frozenset(), by_page.pop(earlier), open_path)[1]
            segments, open_path = outline_segments(lines, layout.furniture, by_page.pop(number, []), open_path)
        elif typography is not None:
            segments = typography[p]
        else:
            segments = [(0, (layout.running_title,) if layout.running_title else ())]
        label = page.label or layout.printed
        counted = _counted(lines)
        body = [line for k, line in enumerate(lines) if k not in layout.furniture]
        listing = is_list_page(body, title=segments[-1][1][-1] if segments[-1][1] else "")
        for (start, headings), (end, _) in zip(segments, segments[1:] + [(len(lines), ())]):
            kept = ((lines[k], counted[k]) for k in range(start, end) if k not in layout.furniture)
            blocks = paragraph_blocks(kept)
            if blocks:
                sections.append(TextSection(blocks, headings[-1] if headings else "", page=number, headings=headings, page_label=label,
                                            list_page=listing))
    return _front_matter(sections, extraction.title)


def _front_matter(sections: list[TextSection], title: str) -> list[TextSection]:
    """The pages before the first section of a file that has sections, titled: by the page's
    own heading (``Contents``, ``Preface``...: its first line, when short and not a sentence),
    else by the document's title (its ``/Info`` title, else the first line of its first page)."""
    first = next((k for k, section in enumerate(sections) if section.headings), None)
    if not first:
        return sections
    title = title or _heading_like(sections[0].blocks[0].text.split("\n", 1)[0])
    out = []
    for section in sections[:first]:
        own = _heading_like(section.blocks[0].text.split("\n", 1)[0]) if section.page != sections[0].page else ""
        name = own if own and own.casefold() in _FRONT_HEADINGS else title
        out.append(replace(section, title=name, headings=(name,) if name else ()))
    return out + sections[first:]


_FRONT_HEADINGS = frozenset({"contents", "table of contents", "preface", "foreword", "introduction", "abstract", "summary",
                             "copyright", "license", "acknowledgements", "acknowledgments", "list of figures", "list of tables"})


def _heading_like(line: str) -> str:
    line = " ".join(line.split())
    return line if 0 < len(line) <= 80 and not line.endswith((".", ",", ";", ":")) else ""


def _counted(lines: list[str]) -> list[int]:
    """A page's lines numbered as cited: the blank lines between paragraphs do not count."""
    out, counted = [], 0
    for line in lines:
        if line.strip():
            counted += 1
        out.append(counted)
    return out


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
    sections = _page_sections(extraction)
    skipped = [(page.number, page.reason) for page in extraction.skipped]
    for page in extraction.pages:
        # A page whose only lines are its header and footer held text: it is not reported.
        if not page.text.strip() and not any(number == page.number for number, _ in skipped):
            skipped.append((page.number, "no text (a scanned image?)"))
    skipped.sort()
    if not sections:
        if skipped:
            return ParsedSource(problem="no text in any page (" + _skipped_note(skipped)[len("not indexed: "):] + ")")
        return ParsedSource(problem="no text in any page")
    return ParsedSource(tuple(sections), extracted=True, notes=(_skipped_note(skipped),) if skipped else ())
