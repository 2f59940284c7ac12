"""Reading a file's bytes and turning them into sections of text, by file type.

:func:`read_source` reads and hashes the bytes (the store compares hashes before parsing
anything); :func:`parse_source` decodes them and hands them to the loader for the file type:
plain text (paragraphs; a ``.txt`` file that is reStructuredText by its content goes to
the reStructuredText loader, see :mod:`~agentic_rag._ingest.text_format`), Markdown (:mod:`~agentic_rag._ingest.markdown_loader`),
reStructuredText (:mod:`~agentic_rag._ingest.rst_loader`), HTML
(:mod:`~agentic_rag._ingest.html_loader`; a template rather than a page is skipped, see
:mod:`~agentic_rag._ingest.template_html`), JSON, JSONL and CSV
(:mod:`~agentic_rag._ingest.structured_loader`), Jupyter notebooks
(:mod:`~agentic_rag._ingest.notebook_loader`); the binary formats, Word documents
(:mod:`~agentic_rag._ingest.docx_loader`) and PDF (:mod:`~agentic_rag._ingest.pdf_loader`),
get the bytes as they are. Nothing here raises on a bad file: binary content, undecodable text,
a malformed document, a file over its work budget (:mod:`~agentic_rag._ingest.work_budget`, one
per file, shared by every loader) or even a loader's own bug comes back as a ``problem`` the
caller lists as skipped. Text comes out without bidirectional controls or byte-order marks,
and always encodable as UTF-8 (:func:`~agentic_rag._ingest.blocks.clean_source`).
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from agentic_rag._contracts.validation import require_enum
from agentic_rag._errors import InvalidInputError
from agentic_rag._ingest.blocks import ParsedSource, TextSection, clean_source, paragraph_blocks
from agentic_rag._ingest.pdf_loader import PdfBackend
from agentic_rag._ingest.structured_loader import TOO_DEEP, FieldMapping
from agentic_rag._ingest.work_budget import IngestLimits, WorkBudget, WorkLimitError, current_work_budget, use_work_budget
from agentic_rag._text.lines import normalize_newlines, split_lines

__all__ = ["BINARY_PARSERS", "PARSERS", "SUFFIXES", "FieldMapping", "SourceBytes", "decode_text", "load_path", "parse_plain_text", "parse_source", "read_source"]

_STAGE = "ingest"


@dataclass(frozen=True, slots=True)
class SourceBytes:
    """A file's raw content and hash, or why it could not be read.

    Args:
        data: The bytes (empty when ``problem`` is set).
        sha256: Hex SHA-256 of ``data``.
        problem: Why the file is skipped (``""`` when read).
        unreadable: True when the file could not be opened or read (permission denied, I/O
            error): a passing condition, unlike content that cannot be indexed, so a store
            keeps what it indexed from the file before.
    """

    data: bytes
    sha256: str
    problem: str = ""
    unreadable: bool = False


def read_source(path: str | os.PathLike[str], *, max_bytes: int = 32 * 1024 * 1024,
                within: str | os.PathLike[str] | None = None) -> SourceBytes:
    """Read and hash a file, reporting unreadable, oversized or binary files as problems.

    Args:
        path: The file; one of a binary format (``.pdf``, ``.docx``) may hold NUL bytes.
        max_bytes: Larger files are refused.
        within: The indexed folder (or file): the file opened must resolve inside it *when
            it is read*, so a link re-pointed outside after the walk is refused, not read.

    Returns:
        The bytes and their SHA-256, or a ``problem``.
    """
    try:
        with open(path, "rb", opener=_open_nonblocking) as handle:
            problem = _opened_elsewhere(handle.fileno(), path, within)
            if problem:
                return SourceBytes(b"", "", problem)
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        return SourceBytes(b"", "", f"unreadable: {exc.strerror or exc}", unreadable=True)
    if len(data) > max_bytes:
        return SourceBytes(b"", "", f"file too large: over {max_bytes} bytes")
    if b"\0" in data and Path(path).suffix.lower() not in BINARY_PARSERS:
        return SourceBytes(b"", hashlib.sha256(data).hexdigest(), "binary file (contains NUL bytes)")
    return SourceBytes(data, hashlib.sha256(data).hexdigest())


def _open_nonblocking(path: str, flags: int) -> int:
    # Non-blocking, so a file swapped for a FIFO since the walk cannot hang the run.
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


def _opened_elsewhere(fd: int, path: str | os.PathLike[str], within: str | os.PathLike[str] | None) -> str:
    """Why the file open as ``fd`` may not be read, or ``""``: not a regular file, or (with
    ``within``) not the file inside ``within`` that ``path`` resolves to now."""
    opened = os.fstat(fd)
    if not stat.S_ISREG(opened.st_mode):
        return "not a regular file when read"
    if within is None:
        return ""
    root = os.path.realpath(within)
    real = os.path.realpath(path)
    if real != root and not real.startswith(root.rstrip(os.sep) + os.sep):
        return "symbolic link to a file outside the indexed root (when read)"
    try:
        resolved = os.stat(real)
    except OSError:
        resolved = None
    # The name may have been re-pointed between opening and resolving it: the file opened
    # must be the very file resolved inside the root.
    if resolved is None or (resolved.st_dev, resolved.st_ino) != (opened.st_dev, opened.st_ino):
        return "file changed while being read (a symbolic link re-pointed?)"
    return ""


def decode_text(data: bytes) -> tuple[str, str]:
    """Decode UTF-8 (a leading byte-order mark dropped) with universal newlines.

    Args:
        data: Raw file bytes.

    Returns:
        ``(text, problem)``: the text with ``\\r\\n`` and ``\\r`` turned into ``\\n`` (so line
        numbers match what editors show), or ``("", reason)`` when it is not UTF-8.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return "", f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); tried utf-8 and utf-8-sig"
    return normalize_newlines(text), ""


def parse_plain_text(text: str) -> tuple[TextSection, ...]:
    """Paragraphs of plain text: runs of non-blank lines, each line kept as written.

    Args:
        text: Decoded text.

    Returns:
        One untitled section, or nothing when the text is blank.
    """
    budget = current_work_budget()

    def charged(lines: list[str]):
        for number, line in enumerate(lines, start=1):
            if line.strip():
                budget.unit()  # each line as it is read: a file of millions is refused, not parsed
            yield line, number

    blocks = paragraph_blocks(charged(split_lines(text)))
    return (TextSection(blocks),) if blocks else ()


# Each format's loader module is imported the first time a file of that format is read, so
# starting the command line, or indexing a folder of Markdown, never loads the PDF parser.
def _markdown(text: str, fields: FieldMapping) -> ParsedSource:
    from agentic_rag._ingest.markdown_loader import markdown_source

    return markdown_source(text)


def _text(text: str, fields: FieldMapping) -> ParsedSource:
    from agentic_rag._ingest.text_format import looks_like_rst

    # Sphinx projects name reStructuredText ".txt" (Django's documentation): read by content.
    return _rst(text, fields) if looks_like_rst(text) else ParsedSource(parse_plain_text(text))


def _rst(text: str, fields: FieldMapping) -> ParsedSource:
    from agentic_rag._ingest.rst_loader import rst_source

    return rst_source(text)


def _html(text: str, fields: FieldMapping) -> ParsedSource:
    from agentic_rag._ingest.html_loader import parse_html
    from agentic_rag._ingest.template_html import template_problem

    parsed = ParsedSource(parse_html(text))
    problem = "" if parsed.problem else template_problem(parsed.text)
    return ParsedSource(problem=problem) if problem else parsed


def _structured(kind: str) -> Callable[[str, FieldMapping], ParsedSource]:
    def parse(text: str, fields: FieldMapping) -> ParsedSource:
        from agentic_rag._ingest import structured_loader

        return getattr(structured_loader, f"parse_{kind}")(text, fields)

    return parse


def _notebook(text: str, fields: FieldMapping) -> ParsedSource:
    from agentic_rag._ingest.notebook_loader import parse_notebook

    return parse_notebook(text)


def _docx(data: bytes, pdf: PdfBackend) -> ParsedSource:
    from agentic_rag._ingest.docx_loader import parse_docx

    return parse_docx(data)


def _pdf(data: bytes, pdf: PdfBackend) -> ParsedSource:
    from agentic_rag._ingest.pdf_loader import parse_pdf

    return parse_pdf(data, pdf)


#: The loader of each text file ending (lower case, with its dot), given the decoded text.
PARSERS: dict[str, Callable[[str, FieldMapping], ParsedSource]] = {
    ".txt": _text,
    ".md": _markdown,
    ".markdown": _markdown,
    ".rst": _rst,
    ".html": _html,
    ".htm": _html,
    ".json": _structured("json"),
    ".jsonl": _structured("jsonl"),
    ".csv": _structured("csv"),
    ".ipynb": _notebook,
}

#: The loader of each binary file ending, given the bytes and the PDF backend.
BINARY_PARSERS: dict[str, Callable[[bytes, PdfBackend], ParsedSource]] = {
    ".docx": _docx,
    ".pdf": _pdf,
}

#: Every file ending a loader reads; the walker indexes these.
SUFFIXES: frozenset[str] = frozenset(PARSERS) | frozenset(BINARY_PARSERS)


def parse_source(data: bytes, suffix: str, *, fields: FieldMapping | None = None, pdf: PdfBackend | str = PdfBackend.BUILTIN,
                 limits: IngestLimits | None = None) -> ParsedSource:
    """Decode ``data`` and parse it as a file ending in ``suffix``, within one work budget.

    Args:
        data: Raw bytes (as read by :func:`read_source`).
        suffix: The file ending with its dot (``".md"``); case-insensitive.
        fields: Field mapping for JSON, JSONL and CSV (default :class:`FieldMapping`).
        pdf: Which extractor reads PDF files (see :class:`PdfBackend`).
        limits: The work the file may cost (default :class:`IngestLimits`).

    Returns:
        The file's sections, or a ``problem`` (unsupported type, bad encoding, malformed or
        empty content, over a work limit, or the loader failed).

    Raises:
        InvalidInputError: ``fields`` is not a ``FieldMapping``, ``pdf`` names no backend, or
            ``limits`` is not ``IngestLimits``.
    """
    fields = fields if fields is not None else FieldMapping()
    if not isinstance(fields, FieldMapping):
        raise InvalidInputError(f"fields must be a FieldMapping, got {type(fields).__name__}", stage=_STAGE)
    backend = require_enum(PdfBackend, pdf, "pdf", stage=_STAGE)
    limits = limits if limits is not None else IngestLimits()
    if not isinstance(limits, IngestLimits):
        raise InvalidInputError(f"limits must be IngestLimits, got {type(limits).__name__}", stage=_STAGE)
    with use_work_budget(WorkBudget(limits)):
        try:
            return clean_source(_parse(data, suffix, fields, backend))
        except WorkLimitError as exc:
            return ParsedSource(problem=f"over a work limit: {exc.message}")
        except RecursionError:
            # Any loader may recurse on nesting (JSON arrays, say): a file nested deeper than
            # the interpreter allows is skipped, not fatal to the whole run.
            return ParsedSource(problem=f"content {TOO_DEEP}")
        except Exception as exc:  # noqa: BLE001 - one file's failure is that file's problem, never the run's
            return ParsedSource(problem=f"could not be read ({type(exc).__name__}: {str(exc)[:200]})")


def _parse(data: bytes, suffix: str, fields: FieldMapping, backend: PdfBackend) -> ParsedSource:
    binary = BINARY_PARSERS.get(suffix.lower())
    if binary is not None:
        return binary(data, backend)
    parser = PARSERS.get(suffix.lower())
    if parser is None:
        return ParsedSource(problem=f"unsupported file type {suffix.lower()!r}")
    if b"\0" in data:
        return ParsedSource(problem="binary file (contains NUL bytes)")
    text, problem = decode_text(data)
    if problem:
        return ParsedSource(problem=problem)
    return parser(text, fields)


def load_path(path: str | os.PathLike[str], *, fields: FieldMapping | None = None, pdf: PdfBackend | str = PdfBackend.BUILTIN,
              limits: IngestLimits | None = None) -> ParsedSource:
    """Read and parse one file (the two steps above, for callers that need no hash).

    Args:
        path: The file; its ending picks the loader.
        fields: Field mapping for JSON, JSONL and CSV.
        pdf: Which extractor reads PDF files.
        limits: The work the file may cost.

    Returns:
        The file's sections, or a ``problem``.
    """
    source = read_source(path)
    if source.problem:
        return ParsedSource(problem=source.problem)
    return parse_source(source.data, Path(path).suffix, fields=fields, pdf=pdf, limits=limits)
