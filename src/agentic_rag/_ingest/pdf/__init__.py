"""Text out of PDF files, with the standard library only.

:func:`extract_pdf` reads the cross-reference (tables, streams, incremental updates, or a scan
of the file when it is broken), walks the page tree, runs each page's content streams and
orders the text it shows into lines and paragraphs close to ``pdftotext``'s reading order.
It never raises on a bad file: an encrypted or image-only PDF, a file that is not a PDF or one
over a work limit comes back with a ``problem``; a page that cannot be read is listed in
``skipped`` with its reason. :func:`extract_pdf_with_pdftotext` runs poppler's ``pdftotext``
instead, when it is installed (the benchmark's reference; never required). The built-in parser
also gives each line's style (:class:`LineStyle`: indent, font size, bold), from which a file
without an outline gets its headings.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass

from agentic_rag._errors import InvalidInputError
from agentic_rag._ingest.pdf.content import run_page
from agentic_rag._ingest.pdf.document import Document, Limits
from agentic_rag._ingest.pdf.filters import UnsupportedFilterError
from agentic_rag._ingest.pdf.layout import LineStyle, page_text
from agentic_rag._ingest.pdf.lexer import PdfError, PdfLimitError, Ref
from agentic_rag._ingest.pdf.outline import OutlineEntry, page_labels, read_outline, text_string
from agentic_rag._ingest.work_budget import IngestLimits, WorkBudget, WorkLimitError, current_work_budget, use_work_budget

__all__ = ["LineStyle", "Limits", "OutlineEntry", "PdfError", "PdfExtraction", "PdfLimitError", "PdfPage", "PdfSkippedPage",
           "extract_pdf", "extract_pdf_strict", "extract_pdf_with_pdftotext"]

_STAGE = "pdf"
_INHERITED = ("Resources", "MediaBox", "CropBox", "Rotate")


@dataclass(frozen=True, slots=True)
class PdfPage:
    """A page that produced text.

    Args:
        number: The 1-based page number.
        text: Lines joined with ``\\n``, paragraphs separated by a blank line.
        label: The page's label from the file's ``/PageLabels`` (``"160"``, ``"xii"``), else
            ``""``.
        styles: One per line of ``text.split("\\n")``: how it is set, ``None`` for a blank
            line (``()`` when the extractor does not say, as with ``pdftotext``).
    """

    number: int
    text: str
    label: str = ""
    styles: tuple[LineStyle | None, ...] = ()


@dataclass(frozen=True, slots=True)
class PdfSkippedPage:
    """A page whose text could not be read.

    Args:
        number: The 1-based page number.
        reason: Why it was skipped.
    """

    number: int
    reason: str


@dataclass(frozen=True, slots=True)
class PdfExtraction:
    """The text of a PDF file.

    Args:
        pages: Pages that produced text (empty pages are omitted).
        skipped: Pages skipped with a reason.
        problem: Why the whole file was refused (then ``pages`` is empty), or ``None``.
        outline: The file's bookmarks in document order (``()`` when it has none).
        title: The document's title from its ``/Info`` dictionary, else ``""``.
    """

    pages: tuple[PdfPage, ...]
    skipped: tuple[PdfSkippedPage, ...]
    problem: str | None = None
    outline: tuple[OutlineEntry, ...] = ()
    title: str = ""


def _pages(doc: Document, max_pages: int, nums: list[int | None] | None = None) -> list[dict]:
    """The page dictionaries in order, inherited attributes copied in (and each page's object
    number appended to ``nums``, for the outline's destinations)."""
    root = doc.resolved_dict(doc.trailer.get("Root"))
    pages: list[dict] = []
    seen: set[int] = set()
    # Depth-first with an explicit stack: (node, inherited attributes, depth).
    stack: list[tuple[object, dict, int]] = [(root.get("Pages"), {}, 0)]
    while stack:
        ref, inherited, depth = stack.pop()
        if depth > doc.limits.max_tree_depth:
            raise PdfLimitError(f"the page tree is nested deeper than {doc.limits.max_tree_depth} levels")
        node = doc.resolve(ref)
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        kids = doc.resolve(node.get("Kids"))
        if node.get("Type") == "Page" or (not isinstance(kids, list) and "Contents" in node):
            page = {**inherited, **node}
            pages.append(page)
            if nums is not None:
                nums.append(ref.num if isinstance(ref, Ref) else None)
            if len(pages) > max_pages:
                raise PdfLimitError(f"more than max_pages={max_pages} pages")
            continue
        if isinstance(kids, list):
            passed = dict(inherited)
            for key in _INHERITED:
                if key in node:
                    passed[key] = node[key]
            for kid in reversed(kids):
                stack.append((kid, passed, depth + 1))
    return pages


def extract_pdf_strict(data: bytes, *, max_pages: int = 2000, limits: Limits | None = None,
                       budget: WorkBudget | None = None) -> PdfExtraction:
    """Like :func:`extract_pdf`, but any error that is not from the library's tree propagates.

    The fuzz tests call this one: an exception outside the library's tree is a bug here.

    Args:
        data: The file's bytes.
        max_pages: More pages than this refuses the file.
        limits: Per-page and structural limits (defaults: :class:`Limits`).
        budget: The file's work budget, shared with whatever else reads the file (default:
            the current one, see :func:`~agentic_rag._ingest.work_budget.current_work_budget`).

    Returns:
        The extraction.

    Raises:
        InvalidInputError: When ``data`` is not bytes or ``max_pages`` is not positive. A bad
            file's content never raises: it becomes ``problem`` or a skipped page, so any
            exception escaping from here is a bug.
    """
    return _extract(data, max_pages, limits, budget, strict=True)


def _extract(data: bytes, max_pages: int, limits: Limits | None, budget: WorkBudget | None, *, strict: bool) -> PdfExtraction:
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise InvalidInputError(f"data must be bytes, got {type(data).__name__}", stage=_STAGE)
    if type(max_pages) is not int or max_pages < 1:
        raise InvalidInputError(f"max_pages must be a positive integer, got {max_pages!r}", stage=_STAGE)
    data = bytes(data)
    if b"%PDF-" not in data[:1024]:
        return PdfExtraction((), (), "not a PDF file (no %PDF- header)")
    if budget is None:
        # Limits given without a budget keep their byte limit; otherwise the file's budget
        # (the one parse_source opened) is shared with the rest of the read.
        budget = current_work_budget() if limits is None else WorkBudget(IngestLimits(max_decoded_bytes=limits.max_decoded_bytes))
    limits = limits or Limits()
    # Current for the whole read: every lexer the parser makes charges its tokens to it.
    with use_work_budget(budget):
        return _read(data, max_pages, limits, budget, strict)


def _read(data: bytes, max_pages: int, limits: Limits, budget: WorkBudget, strict: bool) -> PdfExtraction:
    try:
        doc = Document(data, limits, budget)
        if doc.trailer.get("Encrypt") is not None:
            return PdfExtraction((), (), "encrypted PDF (decryption is not supported)")
        page_nums: list[int | None] = []
        page_dicts = _pages(doc, max_pages, page_nums)
    except (PdfLimitError, WorkLimitError) as exc:
        return PdfExtraction((), (), f"over a work limit: {exc.message}")
    except PdfError as exc:
        return PdfExtraction((), (), f"malformed PDF: {exc.message}")
    outline, labels, title = _navigation(doc, page_nums, len(page_dicts), strict)
    pages: list[PdfPage] = []
    skipped: list[PdfSkippedPage] = []
    fonts: dict = {}
    decoded: dict = {}
    images = 0
    for number, page in enumerate(page_dicts, start=1):
        try:
            resources = doc.resolved_dict(page.get("Resources"))
            content = run_page(doc, page, resources, fonts, decoded, max_operators=limits.max_operators,
                               max_depth=limits.max_form_depth)
            laid_out = page_text(content.runs, max_words=budget.limits.max_layout_words)
        except WorkLimitError as exc:
            # The file's budget is spent: the pages read so far are kept, this page and the
            # rest are listed with the reason.
            reason = f"over a work limit: {exc.message}"
            skipped.extend(PdfSkippedPage(later, reason) for later in range(number, len(page_dicts) + 1))
            if not pages:
                return PdfExtraction((), tuple(skipped), reason)
            break
        except UnsupportedFilterError as exc:
            skipped.append(PdfSkippedPage(number, f"content is not text: {exc.message}"))
            continue
        except PdfLimitError as exc:
            skipped.append(PdfSkippedPage(number, f"over a work limit: {exc.message}"))
            continue
        except PdfError as exc:
            skipped.append(PdfSkippedPage(number, f"malformed content: {exc.message}"))
            continue
        except Exception as exc:  # noqa: BLE001 - outside strict mode, a bug costs one page, not the file
            if strict:
                raise
            skipped.append(PdfSkippedPage(number, f"unreadable page ({type(exc).__name__}: {exc})"))
            continue
        images += content.images
        if laid_out.text.strip():
            pages.append(PdfPage(number, laid_out.text, labels[number - 1] if number <= len(labels) else "", laid_out.styles))
    if not pages:
        if skipped and len(skipped) == len(page_dicts):
            return PdfExtraction((), tuple(skipped), f"no page could be read ({skipped[0].reason})")
        if images:
            return PdfExtraction((), tuple(skipped), "no extractable text: image-only or scanned PDF without a text layer (no OCR)")
        return PdfExtraction((), tuple(skipped), "no extractable text on any page")
    return PdfExtraction(tuple(pages), tuple(skipped), outline=outline, title=title)


def _navigation(doc: Document, page_nums: list[int | None], count: int,
                strict: bool) -> tuple[tuple[OutlineEntry, ...], tuple[str, ...], str]:
    """The outline, the page labels and the title; a broken one costs only itself, never the text."""
    try:
        title = " ".join(text_string(doc.resolve(doc.resolved_dict(doc.trailer.get("Info")).get("Title"))).split())
        return read_outline(doc, page_nums), page_labels(doc, count), title
    except (PdfError, WorkLimitError):
        return (), (), ""
    except Exception:  # noqa: BLE001 - outside strict mode, a bug here costs the bookmarks, not the file
        if strict:
            raise
        return (), (), ""


def extract_pdf(data: bytes, *, max_pages: int = 2000, limits: Limits | None = None,
                budget: WorkBudget | None = None) -> PdfExtraction:
    """Extract the text of a PDF, page by page.

    Args:
        data: The file's bytes.
        max_pages: More pages than this refuses the file (bounded work).
        limits: Per-page and structural limits (defaults: :class:`Limits`).
        budget: The file's work budget (default: the current one).

    Returns:
        The pages with text, the skipped pages (with the reason), or a ``problem`` for a
        refused file; never an exception for a bad file.

    Raises:
        InvalidInputError: When ``data`` is not bytes or ``max_pages`` is not positive.
    """
    try:
        return _extract(data, max_pages, limits, budget, strict=False)
    except InvalidInputError:
        raise
    except (PdfError, WorkLimitError, RecursionError, MemoryError) as exc:
        return PdfExtraction((), (), f"malformed PDF: {exc}")
    except Exception as exc:  # noqa: BLE001 - a loader must not crash an index run on one bad file
        return PdfExtraction((), (), f"unreadable PDF ({type(exc).__name__}: {exc})")


def extract_pdf_with_pdftotext(path: str | os.PathLike[str], *, timeout: float = 60.0) -> PdfExtraction:
    """Extract text with poppler's ``pdftotext`` (``-enc UTF-8``, reading order), when installed.

    Args:
        path: The PDF file.
        timeout: Seconds before the run is abandoned.

    Returns:
        The pages (split on form feeds), or a ``problem`` when ``pdftotext`` is missing, fails
        or times out.
    """
    program = shutil.which("pdftotext")
    if program is None:
        return PdfExtraction((), (), "pdftotext is not installed")
    try:
        done = subprocess.run([program, "-enc", "UTF-8", os.fspath(path), "-"], capture_output=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return PdfExtraction((), (), f"pdftotext took longer than {timeout} s")
    except OSError as exc:
        return PdfExtraction((), (), f"pdftotext could not run: {exc}")
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", errors="replace").strip().splitlines()
        return PdfExtraction((), (), f"pdftotext failed: {message[-1] if message else done.returncode}")
    text = done.stdout.decode("utf-8", errors="replace")
    pieces = text.split("\f")
    if pieces and not pieces[-1].strip():
        pieces = pieces[:-1]
    pages = tuple(PdfPage(number, piece.strip("\n")) for number, piece in enumerate(pieces, start=1) if piece.strip())
    if not pages:
        return PdfExtraction((), (), "no extractable text on any page")
    return PdfExtraction(pages, ())
