"""Chunk rows: what the ``chunks`` table holds for a chunk, and the documents read back from it.

A chunk of a PDF page or a notebook cell keeps its ``page`` or ``cell``, and a chunk of any
extracted text (PDF, Word, notebook) its line map as JSON in ``line_marks``; the documents
read back carry them in their metadata (and the page's label and kind, kept as a JSON object
in ``page_facts``) exactly as :meth:`Chunk.to_document` puts them, so an
index rebuilt from the rows equals the one built while indexing. A version 1 store (no such
columns) is read with none of them.
"""

from __future__ import annotations

import json
import re
import sqlite3
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentic_rag._contracts import Document
from agentic_rag._contracts.validation import is_int
from agentic_rag._errors import StoreError
from agentic_rag._ingest.chunk_metadata import LIST_PAGE, chunk_metadata
from agentic_rag._store.records import StoreHit
from agentic_rag._store.schema import chunk_columns, connect

if TYPE_CHECKING:  # a search reads rows and never imports the chunker
    from agentic_rag._ingest.chunker import Chunk

__all__ = [
    "CHUNK_COLUMNS", "INSERT_CHUNK", "ChunkRecord", "chunk_documents", "chunk_row", "chunk_rows", "marks_from_json", "pack_text", "read_documents", "record_facts", "row_document",
    "stored_documents", "stored_facts", "stored_hit", "stored_place", "unpack_text",
]

#: The statement :func:`chunk_row` fills.
#: The columns of a chunk row, in the order of :func:`chunk_row`'s values.
CHUNK_COLUMNS = "id, path, corpus_id, n, start_line, end_line, section, title, text, sha256, record_id, page, cell, line_marks, page_facts"
INSERT_CHUNK = f"INSERT INTO chunks ({CHUNK_COLUMNS}) VALUES ({', '.join('?' * len(CHUNK_COLUMNS.split(', ')))})"


# Texts shorter than this are stored as they are (compression would not pay).
_PACK_FROM = 160
# A line map as chunk_row writes it: [[offset,line],...] with whole numbers.
_MARKS = re.compile(r"\[\[-?\d{1,18},-?\d{1,18}\](?:,\[-?\d{1,18},-?\d{1,18}\])*\]")


def chunk_row(chunk: Chunk, corpus_id: str) -> tuple[object, ...]:
    """The values of :data:`INSERT_CHUNK` for ``chunk`` in ``corpus_id``."""
    marks = json.dumps([list(mark) for mark in chunk.line_marks], separators=(",", ":")) if chunk.line_marks else ""
    facts = {key: value for key, value in (("page_label", chunk.page_label), ("page_kind", LIST_PAGE if chunk.list_page else "")) if value}
    # The text's SHA-256 is not stored (64 bytes a chunk): it is computed again when read.
    return (chunk.id, chunk.path, corpus_id, chunk.n, chunk.start_line, chunk.end_line, chunk.section, chunk.title, pack_text(chunk.text),
            "", chunk.record_id, chunk.page, chunk.cell, pack_text(marks), json.dumps(facts, sort_keys=True) if facts else "")


def stored_facts(value: object) -> tuple[str, bool]:
    """``(page_label, list_page)`` from a stored ``page_facts`` (nothing for a malformed one)."""
    if not isinstance(value, str) or not value:
        return "", False
    try:
        facts = json.loads(value)
    except ValueError:
        return "", False
    if not isinstance(facts, dict):
        return "", False
    label = facts.get("page_label")
    return (label if isinstance(label, str) else ""), facts.get("page_kind") == LIST_PAGE


def pack_text(text: str) -> str | bytes:
    """``text`` as stored: zlib-compressed bytes when that saves a tenth or more (a chunk's
    text or line map of a few hundred bytes and up), else the string itself."""
    if len(text) < _PACK_FROM:
        return text
    raw = text.encode("utf-8")
    packed = zlib.compress(raw, 1)  # the fastest level: most of the gain for a fraction of the time
    return packed if len(packed) * 10 <= len(raw) * 9 else text


def unpack_text(value: str | bytes) -> str:
    """The string :func:`pack_text` stored (a stored string is returned as it is)."""
    return zlib.decompress(value).decode("utf-8") if isinstance(value, bytes) else value


def marks_from_json(value: object) -> tuple[tuple[int, int], ...]:
    """A stored line map (``''`` or a JSON list of ``[offset, line]`` pairs); ``()`` for
    anything else, so a hand-edited row costs precise quote lines, never a failed read."""
    if not isinstance(value, str) or not value:
        return ()
    if _MARKS.fullmatch(value):  # what chunk_row writes: checked in one step, then parsed
        return tuple(map(tuple, json.loads(value)))  # type: ignore[arg-type]
    try:
        pairs = json.loads(value)
    except ValueError:
        return ()
    if not isinstance(pairs, list):
        return ()
    marks = []
    for pair in pairs:
        if not (isinstance(pair, list) and len(pair) == 2 and all(is_int(v) for v in pair)):
            return ()
        marks.append((pair[0], pair[1]))
    return tuple(marks)


def stored_place(value: object) -> int | None:
    """A stored page or cell number, or ``None`` for NULL or anything that is not one."""
    return value if is_int(value) and value >= 1 else None


def stored_documents(connection: sqlite3.Connection, corpus_ids: Sequence[str] | None = None, batch: int = 1000) -> Iterator[Document]:
    """Yield every stored chunk as a :class:`Document`, by path then chunk number.

    Args:
        connection: An open store database (in a transaction for one consistent snapshot).
        corpus_ids: Only chunks of these corpora.
        batch: Rows fetched at a time.

    Returns:
        An iterator of documents whose metadata holds ``path``, ``start_line``,
        ``end_line``, ``section``, ``sha256`` (and ``record_id`` for records, ``page`` or
        ``cell`` and ``line_marks`` for extracted text).
    """
    condition, parameters = "", ()
    if corpus_ids is not None:
        parameters = tuple(sorted(set(corpus_ids)))
        condition = f"WHERE corpus_id IN ({', '.join('?' for _ in parameters)})"
    for _, document in chunk_documents(connection, condition + " ORDER BY path, n", parameters, batch=batch):
        yield document


def chunk_documents(connection: sqlite3.Connection, condition: str, parameters: Sequence[object] = (), *,
                    batch: int = 1000) -> Iterator[tuple[int, Document]]:
    """Yield ``(rowid, document)`` for the chunk rows ``condition`` selects.

    Args:
        connection: An open store database.
        condition: SQL after ``FROM chunks`` (a ``WHERE`` and/or ``ORDER BY`` clause; may be empty).
        parameters: Its parameters.
        batch: Rows fetched at a time.
    """
    for row in chunk_rows(connection, condition, parameters, batch=batch):
        yield row[0], row_document(row)


#: What :func:`chunk_rows` yields: rowid, id, path, corpus id, start and end line, section,
#: title, text, sha256 ('' from schema 3 on), record id, page, cell, line map JSON, page facts JSON.
ChunkRecord = tuple[int, str, str, str, int, int, str, str, str, str, str, "int | None", "int | None", str, str]


def record_facts(row: ChunkRecord) -> tuple[str, bool]:
    """``(page_label, list_page)`` of a raw chunk row (see :func:`stored_facts`)."""
    return stored_facts(row[-1])


def chunk_rows(connection: sqlite3.Connection, condition: str, parameters: Sequence[object] = (), *,
               batch: int = 1000) -> Iterator[ChunkRecord]:
    """Yield the raw chunk rows ``condition`` selects (SQL after ``FROM chunks``), fields as
    :data:`ChunkRecord` names them: what a search needs without making Documents."""
    columns = chunk_columns(connection)
    places = "page, cell, line_marks" if "line_marks" in columns else "NULL, NULL, ''"
    places += ", page_facts" if "page_facts" in columns else ", ''"
    query = f"SELECT rowid, id, path, corpus_id, start_line, end_line, section, title, text, sha256, record_id, {places} FROM chunks "
    cursor = connection.execute(query + condition, tuple(parameters))
    while True:
        rows = cursor.fetchmany(batch)
        if not rows:
            return
        for row in rows:
            if isinstance(row[8], bytes) or isinstance(row[13], bytes):
                row = (*row[:8], unpack_text(row[8]), *row[9:13], unpack_text(row[13]), row[14])
            yield row


def row_document(row: ChunkRecord) -> Document:
    """The :class:`Document` of a raw chunk row (its text's SHA-256 computed when not stored)."""
    _, chunk_id, path, corpus_id, start, end, section, title, text, sha, record_id, page, cell, marks, facts = row
    if not sha:
        import hashlib  # only a Document made from a row needs it: a search makes none (OpenSSL's load is 4 ms)

        sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    metadata = chunk_metadata(path, start, end, section, sha, record_id, stored_place(page), stored_place(cell), marks_from_json(marks),
                              *stored_facts(facts))
    return Document(chunk_id, text, title, corpus_id, metadata)


def stored_hit(index: Any, chunk_id: str, score: float) -> StoreHit:
    """The stored chunk ``chunk_id`` of ``index`` (the store's BM25 index, stored or loaded) as
    a hit scored ``score``.

    Raises:
        InvalidInputError: No such chunk.
    """
    read_row = getattr(index, "row", None)  # a stored index reads a chunk row (not imported: it imports this module)
    if read_row is not None:  # the row's fields as they are: no Document to make
        _, chunk_id, path, corpus_id, start, end, section, _, text, _, _, page, cell, marks, facts = read_row(chunk_id)
        return StoreHit(chunk_id, path, start, end, score, text, corpus_id, section, stored_place(page), stored_place(cell),
                        marks_from_json(marks), stored_facts(facts)[0])
    document = index.get(chunk_id)
    meta = document.metadata
    return StoreHit(document.id, meta["path"], meta["start_line"], meta["end_line"], score, document.text, document.corpus_id,
                    meta.get("section", ""), meta.get("page"), meta.get("cell"), tuple(tuple(mark) for mark in meta.get("line_marks", ())),
                    meta.get("page_label", ""))


def read_documents(directory: Path, corpus_ids: Sequence[str] | None, *, timeout: float) -> Iterator[Document]:
    """The store's chunks in ``directory`` as documents (of ``corpus_ids``, or all), read in one
    snapshot.

    Raises:
        StoreError: The chunks cannot be read.
    """
    # The connection opens on the first item and closes when the iteration ends or the
    # iterator is dropped, so an iterator never started holds nothing open.
    connection = connect(directory, timeout=timeout)
    try:
        connection.execute("BEGIN")  # one read snapshot for the whole iteration
        yield from stored_documents(connection, corpus_ids)
        connection.execute("COMMIT")
    except sqlite3.Error as exc:
        raise StoreError(f"cannot read the store's chunks: {exc}", stage="store") from exc
    finally:
        connection.close()
