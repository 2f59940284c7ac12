"""What an index run checks before it builds on a store: chunk rows against their files, and
the current generation's index files against the rows.

Whatever is found damaged is described in one line each (for :attr:`IndexReport.repaired`);
the caller rebuilds the indexes from the rows.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentic_rag._errors import IndexFormatError
from agentic_rag._retrieval.index_file import verify_index_file

__all__ = ["damaged_index_files", "repair_chunk_rows"]


def repair_chunk_rows(db: sqlite3.Connection, existing: dict[str, tuple[str, str, str]]) -> list[str]:
    """Files whose chunk rows do not match their ``files`` row lose their rows and are
    re-read (their stored hash is cleared, in ``existing`` too); chunk rows of no file are
    deleted.

    Args:
        db: The store's connection, inside the run's transaction.
        existing: ``path -> (corpus id, sha256, chunking signature)`` of the indexed files.

    Returns:
        One line per kind of repair (empty when the rows are whole).
    """
    counts = dict(db.execute("SELECT path, COUNT(*) FROM chunks GROUP BY path"))
    listed = dict(db.execute("SELECT path, chunks FROM files"))
    damaged = sorted(p for p, n in listed.items() if counts.get(p, 0) != n)
    orphans = sorted(set(counts) - set(listed))
    for path in damaged + orphans:
        db.execute("DELETE FROM chunks WHERE path = ?", (path,))
    for path in damaged:
        db.execute("UPDATE files SET sha256 = '', chunks = 0 WHERE path = ?", (path,))
        corpus_id, _, signature = existing[path]
        existing[path] = (corpus_id, "", signature)
    out = []
    if damaged:
        shown = ", ".join(damaged[:3]) + (f" and {len(damaged) - 3} more" if len(damaged) > 3 else "")
        out.append(f"chunk rows of {len(damaged)} file{'s' if len(damaged) > 1 else ''} lost or incomplete ({shown}); re-read")
    if orphans:
        out.append(f"chunk rows of {len(orphans)} file{'s' if len(orphans) > 1 else ''} no longer listed; deleted")
    return out


def damaged_index_files(db: sqlite3.Connection, directory: Path, meta: Mapping[str, Any], *, snapshot: bool = True) -> list[str]:
    """The current generation's index files that are damaged or missing: a failed whole-file
    checksum or format check, or a document count other than the chunk rows'.

    Args:
        db: The store's connection.
        directory: The store folder.
        meta: The store's ``meta`` table.
        snapshot: The store keeps BM25 in a snapshot file (schema versions 1 and 2), so
            one must be named.

    Returns:
        One line per damaged file (empty when all hold).
    """
    chunks = db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
    out = []
    for key, kind, count_key in (("bm25_file", "bm25", "documents"), ("vector_file", "vector", "count")):
        name = meta.get(key, "")
        if not name:
            if kind == "bm25" and snapshot:
                out.append("the store names no BM25 index file; rebuilt")
            continue
        try:
            held = verify_index_file(directory / name, kind).get(count_key)
        except IndexFormatError as exc:
            problem = exc.message
        else:
            problem = "" if held == chunks else f"{name!r} holds {held!r} documents, the store has {chunks} chunks"
        if problem:
            out.append(f"{problem}; rebuilt")
    return out
