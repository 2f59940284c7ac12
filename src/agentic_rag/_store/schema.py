"""The store's SQLite database: file layout, tables, connections and the ``meta`` table.

One database file (``store.sqlite3``, WAL journal) sits in the store folder beside the saved
index files of the current generation (``bm25-<generation>.idx``, optionally
``vector-<generation>.idx``). Tables:

- ``meta(key, value)``: ``schema_version``, ``generation``, ``bm25_file`` (empty from version 3
  on), ``vector_file``, ``bm25_stats`` (version 3: JSON of the BM25 settings, document count,
  total length, corpus numbers and the rowid sum the postings were built over);
- ``corpora(id, description, root, auto_description)``;
- ``files(path, corpus_id, sha256, mtime, size, chunks, terms, chunking)`` (``terms``: the
  file's most frequent content words as JSON, the raw material of generated descriptions;
  ``chunking``: a digest of the settings its chunks were made with);
- ``chunks(id, path, corpus_id, n, start_line, end_line, section, title, text, sha256 (empty from
  version 3 on: the text's hash is computed when read; ``text`` and ``line_marks`` of a few
  hundred bytes and up are zlib-compressed bytes from version 3 on, see ``rows.pack_text``),
  record_id, page, cell, line_marks, page_facts)`` (``page``/``cell``: the PDF page or notebook
  cell a chunk's lines count in, else NULL; ``line_marks``: the line map of extracted text as
  JSON, else ``''``; ``page_facts``: what is known of the chunk's page as a JSON object,
  ``page_label`` and ``page_kind``, else ``''``).

- ``bm25_postings(term, df, docs, tfs, shortest)`` and ``bm25_blocks(block, lengths, corpora)``
  (version 3): per term its postings over chunk rowids, and per block of rowids the chunks'
  lengths and corpus numbers, packed (see :mod:`~agentic_rag._store.postings`); a search reads
  the rows of its terms and nothing else.

Schema version 3 moved BM25 from the snapshot file into those tables; a version 1 or 2 store
is searched through its snapshot file until the next index run builds the tables. Schema
version 2 added ``page``, ``cell`` and ``line_marks``. A version 1 store is read as it
is (its chunks have no page, cell or line map, as none of its files could) and is upgraded in
place, by adding the three columns, the next time it is indexed. A store of any other version
is refused. ``page_facts`` came later within version 2: a store without it is read as if every
chunk had none, and the column is added the next time the store is indexed (a library that
does not know it writes rows without it, which read as having none).

A reader opens the database with ``mode=ro``; in a folder it cannot write (a store on a
read-only mount or shared read-only), where SQLite could not create the WAL's ``-shm`` file,
it opens it ``immutable`` as well, since nobody can be writing there. Every connection checks
``schema_version`` and ``generation``: a store of another layout version or with a
hand-edited generation is refused with a one-line :class:`~agentic_rag._errors.StoreError`
naming the store and what to do.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from agentic_rag._errors import StoreError

__all__ = ["DATABASE_NAME", "READABLE_VERSIONS", "SCHEMA_VERSION", "check_meta", "chunk_columns", "connect", "create_schema", "generation_of", "read_meta", "write_meta"]

#: Version of the table layout this library writes.
SCHEMA_VERSION = 3
#: Versions it reads (older ones are upgraded by the next index run).
READABLE_VERSIONS = frozenset({1, 2, 3})
#: The database file's name inside the store folder.
DATABASE_NAME = "store.sqlite3"

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS corpora (
    id TEXT PRIMARY KEY, description TEXT NOT NULL, root TEXT NOT NULL, auto_description INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, corpus_id TEXT NOT NULL, sha256 TEXT NOT NULL, mtime REAL NOT NULL,
    size INTEGER NOT NULL, chunks INTEGER NOT NULL, terms TEXT NOT NULL, chunking TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS chunks (
    id TEXT PRIMARY KEY, path TEXT NOT NULL, corpus_id TEXT NOT NULL, n INTEGER NOT NULL,
    start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, section TEXT NOT NULL, title TEXT NOT NULL,
    text TEXT NOT NULL, sha256 TEXT NOT NULL, record_id TEXT NOT NULL,
    page INTEGER, cell INTEGER, line_marks TEXT NOT NULL DEFAULT '', page_facts TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS chunks_by_path ON chunks (path, n);
CREATE TABLE IF NOT EXISTS bm25_postings (
    term TEXT PRIMARY KEY, df INTEGER NOT NULL, docs BLOB NOT NULL, tfs BLOB NOT NULL, shortest BLOB NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS bm25_blocks (block INTEGER PRIMARY KEY, lengths BLOB NOT NULL, corpora BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS files_by_corpus ON files (corpus_id);
"""


_PLACE_COLUMNS = {"page": "page INTEGER", "cell": "cell INTEGER", "line_marks": "line_marks TEXT NOT NULL DEFAULT ''",
                  "page_facts": "page_facts TEXT NOT NULL DEFAULT ''"}


def connect(directory: Path, *, timeout: float, create: bool = False) -> sqlite3.Connection:
    """Open the store's database in autocommit mode (transactions are explicit).

    Args:
        directory: The store folder.
        timeout: Seconds to wait for another writer's lock.
        create: Create the folder and the database when missing (writers only; readers
            must never create a store by looking at it).

    Returns:
        A connection with ``BEGIN``/``COMMIT`` left to the caller.

    Raises:
        StoreError: No store there (when not creating), or the file is not a database.
    """
    database = directory / DATABASE_NAME
    if not create and not database.is_file():
        raise StoreError(f"no knowledge store at {str(directory)!r}: run `index` on some files first", stage="store")
    if create and directory.is_dir() and not _writable(directory):
        raise StoreError(f"the store at {str(directory)!r} is read-only: it can be searched, not indexed; "
                         "index into a folder you can write to", stage="store")
    try:
        if create:
            directory.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(database, timeout=timeout, isolation_level=None, check_same_thread=False)
        else:
            mode = "ro" if _writable(directory) else "ro&immutable=1"
            uri = f"file:{quote(os.fspath(database.absolute()))}?mode={mode}"
            connection = sqlite3.connect(uri, timeout=timeout, isolation_level=None, check_same_thread=False, uri=True)
    except (OSError, sqlite3.Error) as exc:
        raise StoreError(f"cannot open the store database {str(database)!r}: {exc}", stage="store") from exc
    try:
        if create:
            # 16 KiB pages hold a dozen chunk rows each where 4 KiB pages held three and wasted
            # a fifth of the file (it applies to a new database only; bench/retrieval/bench_cold_search.py).
            connection.execute("PRAGMA page_size=16384")
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=FULL")
        else:
            check_meta(read_meta(connection), directory)
    except sqlite3.Error as exc:
        connection.close()
        raise StoreError(f"{str(database)!r} is not a usable store database: {exc}", stage="store") from exc
    except StoreError:
        connection.close()
        raise
    return connection


def _writable(directory: Path) -> bool:
    """Whether this process may create files in ``directory`` (SQLite's ``-shm`` and ``-wal``)."""
    return os.access(directory, os.W_OK | os.X_OK)


def check_meta(meta: dict[str, str], directory: Path) -> None:
    """Refuse a store of another schema version or with a generation that is not a number.

    Args:
        meta: The store's ``meta`` entries (empty for a store never indexed).
        directory: The store folder, named in the error.

    Raises:
        StoreError: One line naming the store, the bad value and what to do.
    """
    version = meta.get("schema_version")
    if version is not None and version not in {str(v) for v in READABLE_VERSIONS}:
        readable = f"{min(READABLE_VERSIONS)} to {max(READABLE_VERSIONS)}"
        raise StoreError(f"the store at {str(directory)!r} has schema version {version}; this library reads versions {readable}: "
                         "index into a new store folder, or delete this one and run index again", stage="store")
    generation_of(meta, directory)


def generation_of(meta: dict[str, str], directory: Path) -> int:
    """The store's generation from its ``meta`` entries (0 when it has none).

    Raises:
        StoreError: The generation is not a whole number >= 0 (the table was edited by hand).
    """
    value = meta.get("generation", "0")
    if not (value.isascii() and value.isdigit()):
        raise StoreError(f"the store at {str(directory)!r} has the generation {value!r} in its meta table, expected a whole number >= 0: "
                         "delete the store folder and run index again", stage="store")
    return int(value)


def create_schema(connection: sqlite3.Connection, directory: Path) -> None:
    """Create the tables if missing and check the schema version (inside a transaction).

    Args:
        connection: A writer's connection, in a transaction.
        directory: The store folder, named in errors.

    Raises:
        StoreError: The database was written by another schema version, or its generation
            was edited by hand.
    """
    for statement in _TABLES.split(";"):
        if statement.strip():
            connection.execute(statement)
    meta = read_meta(connection)
    if meta.get("schema_version") is None:
        write_meta(connection, {"schema_version": str(SCHEMA_VERSION), "generation": "0", "bm25_file": "", "vector_file": ""})
        return
    check_meta(meta, directory)
    # Version 1 lacks the place columns (its chunks have no page, cell or line map), an early
    # version 2 store the page facts.
    present = chunk_columns(connection)
    for column in _PLACE_COLUMNS:
        if column not in present:
            connection.execute(f"ALTER TABLE chunks ADD COLUMN {_PLACE_COLUMNS[column]}")
    if meta["schema_version"] != str(SCHEMA_VERSION):
        # Versions 1 and 2 keep BM25 in a snapshot file: the run builds the postings tables
        # from the chunk rows (it finds no ``bm25_stats`` entry).
        write_meta(connection, {"schema_version": str(SCHEMA_VERSION)})


def chunk_columns(connection: sqlite3.Connection) -> frozenset[str]:
    """The columns of the ``chunks`` table (a version 1 store has no place columns)."""
    return frozenset(row[1] for row in connection.execute("PRAGMA table_info(chunks)"))


def read_meta(connection: sqlite3.Connection) -> dict[str, str]:
    """Every ``meta`` entry (empty when the table does not exist yet)."""
    try:
        return dict(connection.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            return {}
        raise


def write_meta(connection: sqlite3.Connection, values: dict[str, str]) -> None:
    """Insert or replace ``meta`` entries."""
    connection.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", sorted(values.items()))
