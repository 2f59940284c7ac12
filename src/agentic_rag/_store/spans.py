"""Reading a cited span back as its loader read it: the rendered lines of ``path:lines``.

:func:`read_span` answers a :class:`SpanRequest` (a file, optionally a PDF page or a notebook
cell, optionally a line range) with the file's rendered lines whose source lines meet the
range (:mod:`~agentic_rag._store.rendered_lines`), plus ``context`` rendered lines on each side.
It reads the store's chunk rows of that one file, by path and line range through the
``chunks_by_path`` index, never an index file, so its cost follows the request, not the store.
The rows are fetched a few chunks beyond the span as needed: for the context lines, and so the
first and last lines are whole (a long line can be cut across two chunks).

A file the store does not hold (or no store, or a store written before line maps) is read
with its loader instead (:func:`~agentic_rag._ingest.loaders.load_path`) and chunked the way
the store would, so both read the same lines.

A PDF page is asked for by its index (``page``); a printed page label would be resolved to
that index before :func:`read_span` is called.
"""

from __future__ import annotations

import enum
import os
import posixpath
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from agentic_rag._contracts.validation import require_int, require_text
from agentic_rag._errors import InvalidInputError, StoreError
from agentic_rag._store.rendered_lines import ChunkText, RenderedLine, rendered_lines
from agentic_rag._store.rows import marks_from_json, unpack_text
from agentic_rag._store.schema import DATABASE_NAME, chunk_columns, connect

__all__ = ["MissingFileError", "SpanRequest", "SpanSource", "SpanView", "read_span"]

_STAGE = "show"
_READ_TIMEOUT = 10.0
_COLUMNS = "n, start_line, end_line, section, text, record_id, page, cell, line_marks"


class MissingFileError(StoreError):
    """The file named is neither in the store nor (when files may be read) on disk."""


class SpanSource(str, enum.Enum):
    """Where the lines were read: the store's chunk rows, or the file through its loader."""

    STORE = "store"
    FILE = "file"


@dataclass(frozen=True, slots=True)
class SpanRequest:
    """A span to read back.

    Args:
        path: The file as search cites it (relative to the folder the store was indexed from).
        start_line: First source line (1-based); ``None`` with ``end_line``: the whole file,
            page or cell.
        end_line: Last source line (inclusive, ``>= start_line``).
        page: The PDF page index the lines count in.
        cell: The notebook cell the lines count in.

    Raises:
        InvalidInputError: An empty path, a line or place below 1, only one of the two lines,
            an end before the start, or both a page and a cell.
    """

    path: str
    start_line: int | None = None
    end_line: int | None = None
    page: int | None = None
    cell: int | None = None

    def __post_init__(self) -> None:
        require_text(self.path, "path", stage=_STAGE)
        for name in ("start_line", "end_line", "page", "cell"):
            require_int(getattr(self, name), name, minimum=1, optional=True, stage=_STAGE)
        if (self.start_line is None) != (self.end_line is None):
            raise InvalidInputError(f"give both start_line and end_line or neither, got {self.start_line!r} and {self.end_line!r}", stage=_STAGE)
        if self.start_line is not None and self.end_line is not None and self.end_line < self.start_line:
            raise InvalidInputError(f"end_line {self.end_line} is before start_line {self.start_line}", stage=_STAGE)
        if self.page is not None and self.cell is not None:
            raise InvalidInputError(f"a span is on a page or in a cell, not both: got page {self.page} and cell {self.cell}", stage=_STAGE)

    @property
    def place(self) -> tuple[int | None, int | None]:
        """``(page, cell)``."""
        return self.page, self.cell

    def holds(self, line: RenderedLine) -> bool:
        """True when ``line`` is one of the lines asked for."""
        if (self.page is not None and line.page != self.page) or (self.cell is not None and line.cell != self.cell):
            return False
        return self.start_line is None or line.overlaps(self.start_line, self.end_line or self.start_line)


@dataclass(frozen=True, slots=True)
class SpanView:
    """The rendered lines of a span, with context.

    Args:
        path: The file, as the store names it.
        source: Where the lines were read.
        lines: The lines asked for and their context, in file order, each once.
        complete: False when reading stopped at ``max_chars`` before the span's end.
        ends_at: The last line of text of the file (or of the page or cell asked for) when the
            span asked for lines past it, else ``None``.
        next_page: When a PDF page's span asked for lines past the page's text: the page the
            lines go on to, whose first lines follow (as many as were asked past the end).
    """

    path: str
    source: SpanSource
    lines: tuple[RenderedLine, ...]
    complete: bool = True
    ends_at: int | None = None
    next_page: int | None = None


class _Chunks:
    """The chunks of one file, fetched by position: a store's rows or a list in memory."""

    def __init__(self, chunks: Sequence[ChunkText] = (), *, connection: sqlite3.Connection | None = None, path: str = "") -> None:
        self._chunks = list(chunks)
        self._connection = connection
        self._path = path

    def bounds(self) -> tuple[int, int] | None:
        if self._connection is None:
            return (self._chunks[0].n, self._chunks[-1].n) if self._chunks else None
        low, high = self._connection.execute("SELECT MIN(n), MAX(n) FROM chunks WHERE path = ?", (self._path,)).fetchone()
        return None if low is None else (low, high)

    def places(self) -> tuple[bool, bool]:
        """Whether the file's lines count in pages, in cells."""
        if self._connection is None:
            first = self._chunks[0]
        else:
            row = self._connection.execute(f"SELECT {_COLUMNS} FROM chunks WHERE path = ? ORDER BY n LIMIT 1", (self._path,)).fetchone()
            first = _chunk(row)
        return first.page is not None, first.cell is not None

    def matching(self, request: SpanRequest, *, lines: bool = False) -> tuple[int, int] | None:
        """First and last chunk holding lines of the request's place and range (with
        ``lines``: the first and last source line of those chunks)."""
        if self._connection is None:
            found = [c for c in self._chunks if _chunk_meets(c, request)]
            if not found:
                return None
            if lines:
                return min(c.marks[0][1] for c in found), max(m[2] for c in found for m in c.marks)
            return found[0].n, found[-1].n
        columns = "MIN(start_line), MAX(end_line)" if lines else "MIN(n), MAX(n)"
        sql, parameters = f"SELECT {columns} FROM chunks WHERE path = ?", [self._path]
        for column, value in (("page", request.page), ("cell", request.cell)):
            if value is not None:
                sql += f" AND {column} = ?"
                parameters.append(value)
        if request.start_line is not None:
            sql += " AND start_line <= ? AND end_line >= ?"
            parameters += [request.end_line, request.start_line]
        low, high = self._connection.execute(sql, parameters).fetchone()
        return None if low is None else (low, high)

    def extent(self, request: SpanRequest) -> tuple[int, int] | None:
        """First and last source line of the text in the request's place (the whole file when
        it names none)."""
        return self.matching(replace(request, start_line=None, end_line=None), lines=True)

    def page_after(self, page: int) -> int | None:
        """The first page after ``page`` that holds text, else ``None``."""
        if self._connection is None:
            return min((c.page for c in self._chunks if c.page is not None and c.page > page), default=None)
        (found,) = self._connection.execute("SELECT MIN(page) FROM chunks WHERE path = ? AND page > ?", (self._path, page)).fetchone()
        return found

    def fetch(self, low: int, high: int) -> list[ChunkText]:
        if self._connection is None:
            return [c for c in self._chunks if low <= c.n <= high]
        rows = self._connection.execute(f"SELECT {_COLUMNS} FROM chunks WHERE path = ? AND n BETWEEN ? AND ? ORDER BY n",
                                        (self._path, low, high)).fetchall()
        return [_chunk(row) for row in rows]


def _chunk_meets(chunk: ChunkText, request: SpanRequest) -> bool:
    if (request.page is not None and chunk.page != request.page) or (request.cell is not None and chunk.cell != request.cell):
        return False
    if request.start_line is None:
        return True
    first, last = chunk.marks[0][1], max(mark[2] for mark in chunk.marks)
    return first <= (request.end_line or 0) and last >= request.start_line


def _chunk(row: Sequence[object]) -> ChunkText:
    n, start, end, section, text, _record, page, cell, marks = row
    # From store format 3 on, long texts and line maps are stored compressed.
    text, marks = unpack_text(text), unpack_text(marks)  # type: ignore[arg-type]
    return ChunkText.of(int(n), str(text), marks_from_json(marks), start_line=int(start), end_line=int(end), section=str(section),  # type: ignore[arg-type]
                        page=page if isinstance(page, int) and page >= 1 else None, cell=cell if isinstance(cell, int) and cell >= 1 else None)


def read_span(store: str | os.PathLike[str] | None, request: SpanRequest, *, root: str | os.PathLike[str], context: int = 0,
              max_chars: int | None = None, read_files: bool = True) -> SpanView:
    """The rendered lines of ``request``, from the store's rows, else from the file.

    Args:
        store: The store folder (``KnowledgeStore.directory``) to read; ``None``, a folder
            without a store, or a store without the file: read the file. Only the store's
            database is opened (not its classes), so ``show`` starts fast.
        request: The span.
        root: The folder paths are relative to (``KnowledgeStore.base``): a path given
            absolute is looked up relative to it, and a file not in the store read from it.
        context: Rendered lines to add before and after the span (>= 0).
        max_chars: Stop reading once the span's lines hold this many characters (``None``:
            read it all); the view then says it is not complete.
        read_files: Read a file the store does not hold from disk; ``False`` (a server
            answering clients) shows only what the store holds.

    Returns:
        The view.

    Raises:
        InvalidInputError: ``context`` or ``max_chars`` out of range; a page asked of a file
            without pages (or a cell of one without cells); lines of a PDF or notebook
            without their page or cell; a file its loader cannot read.
        MissingFileError: The file is neither in the store nor on disk (not in the store,
            without ``read_files``); a :class:`StoreError`.
        StoreError: The span holds no rendered text (it is outside the file, or on
            lines without text).
    """
    require_int(context, "context", minimum=0, stage=_STAGE)
    require_int(max_chars, "max_chars", minimum=1, optional=True, stage=_STAGE)
    connection = None
    folder = Path(os.path.abspath(os.fspath(store))) if store is not None else None
    if folder is not None and (folder / DATABASE_NAME).is_file():
        connection = connect(folder, timeout=_READ_TIMEOUT)
    try:
        if connection is not None:
            connection.execute("BEGIN")  # one snapshot for every query of this read
            key = _stored_key(connection, request.path, Path(os.path.abspath(root)))
            if key is not None:
                return _read(_Chunks(connection=connection, path=key), key, SpanSource.STORE, request, context, max_chars)
        if not read_files:
            raise MissingFileError(f"no file {request.path!r} in the store (paths as search cites them)", stage=_STAGE)
        return _read(_file_chunks(request.path, Path(root)), _clean(request.path), SpanSource.FILE, request, context, max_chars)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot read the store's chunks of {request.path!r}: {exc}", stage=_STAGE) from exc
    finally:
        if connection is not None:
            connection.close()


def _clean(path: str) -> str:
    cleaned = posixpath.normpath(path.replace(os.sep, "/")) if path else path
    return cleaned[2:] if cleaned.startswith("./") else cleaned


def _stored_key(connection: sqlite3.Connection, path: str, base: Path) -> str | None:
    """The name the store gives ``path`` when it holds the file with line maps, else ``None``."""
    if "line_marks" not in chunk_columns(connection):
        return None  # written before line maps: the file is read instead
    candidates = [path, _clean(path)]
    absolute = Path(os.path.abspath(path))
    if absolute.is_relative_to(base):
        candidates.append(absolute.relative_to(base).as_posix())
    for key in candidates:
        row = connection.execute("SELECT record_id, line_marks FROM chunks WHERE path = ? ORDER BY n LIMIT 1", (key,)).fetchone()
        if row is not None:
            return key if (row[0] or row[1]) else None
    return None


def _file_chunks(path: str, root: Path) -> _Chunks:
    from agentic_rag._ingest.chunker import chunk_sections
    from agentic_rag._ingest.loaders import SUFFIXES, load_path

    file = Path(path) if os.path.isabs(path) else root / path
    if not file.is_file():
        raise MissingFileError(f"no file {path!r} in the store or on disk (paths are relative to the folder index ran in)", stage=_STAGE)
    if file.suffix.lower() not in SUFFIXES:
        raise InvalidInputError(f"cannot show {path!r}: no loader reads {file.suffix or 'files without an ending'!r} files "
                                f"(one of {', '.join(sorted(SUFFIXES))})", stage=_STAGE)
    parsed = load_path(file)
    if parsed.problem:
        raise InvalidInputError(f"cannot show {path!r}: {parsed.problem}", stage=_STAGE)
    chunks = chunk_sections(parsed.sections, _clean(path) or path, line_marks=True)
    return _Chunks([ChunkText.of(c.n, c.text, c.line_marks, start_line=c.start_line, end_line=c.end_line, section=c.section,
                                 page=c.page, cell=c.cell) for c in chunks])


def _read(chunks: _Chunks, path: str, source: SpanSource, request: SpanRequest, context: int, max_chars: int | None,
          after: int | None = None) -> SpanView:
    bounds = chunks.bounds()
    if bounds is None:
        raise StoreError(f"{path!r} holds no text to show", stage=_STAGE)
    paged, celled = chunks.places()
    _check_place(path, request, paged, celled)
    # A page's span asked past the page's text goes on onto the next page, as many lines as
    # were asked past the end: a PDF's sentences and lists run over page breaks, and readers
    # asked for the lines after a page's last one again and again, a page at a time.
    past, page_end = 0, None
    if request.page is not None and request.start_line is not None and request.end_line is not None:
        extent = chunks.extent(request)
        if extent is not None and request.end_line > extent[1]:
            page_end, past = extent[1], request.end_line - max(extent[1], request.start_line - 1)
            following = chunks.page_after(request.page)
            if request.start_line > extent[1] and following is not None:
                # Nothing asked is on the page: its next page's first lines are the span.
                first = chunks.matching(SpanRequest(request.path, page=following), lines=True)
                if first is not None:
                    view = _read(chunks, path, source, replace(request, page=following, start_line=first[0], end_line=first[0]), context,
                                 max_chars, after=past - 1)
                    return replace(view, ends_at=page_end, next_page=following)
            if following is None:
                past = 0
    found = chunks.matching(request)
    if found is None:
        raise StoreError(f"{_where(path, request)} holds no text: {_outside(path, request, chunks.extent(request))}", stage=_STAGE)
    low, high = found
    after = context + past if after is None else context + after
    # Read the span a few chunks at a time when it is long, so a cap reads no more than it shows.
    step = 8
    end = high if max_chars is None else min(high, low + step)
    while True:
        lines = rendered_lines(chunks.fetch(low, end))
        held = [i for i, line in enumerate(lines) if request.holds(line)]
        if not held:
            extent = chunks.extent(request)
            raise StoreError(f"{_where(path, request)} holds no rendered text (its lines there are blank or markup); "
                             f"{_outside(path, request, extent)}", stage=_STAGE)
        if end < high and sum(len(lines[i].text) for i in held) <= (max_chars or 0):
            end = min(high, end + step)
            continue
        # One line more than the context on each side, so the lines shown are whole.
        wider = False
        if held[0] < context + 1 and low > bounds[0]:
            low, wider = max(bounds[0], low - 1 - context // 8), True
        if held[-1] > len(lines) - after - 2 and end == high and end < bounds[1]:
            end = high = min(bounds[1], end + 1 + after // 8)
            wider = True
        if not wider:
            break
    shown = lines[max(0, held[0] - context):held[-1] + after + 1]
    complete = end >= high
    ends_at = None
    if past:
        return SpanView(path, source, tuple(shown), complete=complete, ends_at=page_end,
                        next_page=next((line.page for line in shown if (line.page or 0) > (request.page or 0)), None))
    if complete and request.end_line is not None and max(line.last_line for line in shown) < request.end_line:
        # The span asked for lines the text does not reach: say where it ends, so a reader
        # does not take the shorter span for a cut.
        extent = chunks.extent(request)
        if extent is not None and extent[1] < request.end_line:
            ends_at = extent[1]
    return SpanView(path, source, tuple(shown), complete=complete, ends_at=ends_at)


def _check_place(path: str, request: SpanRequest, paged: bool, celled: bool) -> None:
    if request.page is not None and not paged:
        raise InvalidInputError(f"{path!r} has no pages: cite it as PATH:LINES, not with p{request.page}", stage=_STAGE)
    if request.cell is not None and not celled:
        raise InvalidInputError(f"{path!r} has no cells: cite it as PATH:LINES, not with c{request.cell}", stage=_STAGE)
    if request.start_line is not None and request.page is None and paged:
        raise InvalidInputError(f"the lines of {path!r} count within a page: give it as PATH:pPAGE:LINES (as search prints it)", stage=_STAGE)
    if request.start_line is not None and request.cell is None and celled:
        raise InvalidInputError(f"the lines of {path!r} count within a cell: give it as PATH:cCELL:LINES (as search prints it)", stage=_STAGE)


def _where(path: str, request: SpanRequest) -> str:
    place = f"p{request.page}:" if request.page is not None else f"c{request.cell}:" if request.cell is not None else ""
    lines = f"{request.start_line}-{request.end_line}" if request.start_line is not None else ""
    return f"{path}:{place}{lines}".rstrip(":")


def _outside(path: str, request: SpanRequest, extent: tuple[int, int] | None) -> str:
    place = f"page {request.page}" if request.page is not None else f"cell {request.cell}" if request.cell is not None else ""
    if extent is None:
        return f"{path!r} has no {place} with text"
    return f"the text of {path!r}{' on ' + place if request.page is not None else ' in ' + place if place else ''} is on lines {extent[0]}-{extent[1]}"
