"""The store's state, read through one connection kept open.

Every search asks the store's state (its ``meta`` entries and whether it holds a chunk) a few
times: to follow a new generation, to find its BM25 index, its relevance model, the chunk after
a hit. Opening a connection for each read cost about half a millisecond, more than the read.
:class:`StateReader` keeps one read-only connection and starts a new transaction for each read,
which sees the last commit as a new connection would (the store is in WAL mode). It opens a new
connection when the database file is another one (deleted and made again) and checks the
schema version of every read, as opening one does; a store folder this process cannot write
to is opened read-only and immutable, which caches what it read, so it is read through a new
connection each time, as before.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

from agentic_rag._errors import StoreError
from agentic_rag._store.schema import DATABASE_NAME, check_meta, read_meta

__all__ = ["StateReader"]


class StateReader:
    """Reads a store's state through a kept connection (see the module docstring).

    Args:
        directory: The store folder.
        connect: Opens a read connection (raises :class:`StoreError` for a missing store).
    """

    def __init__(self, directory: Path, connect: Callable[[], sqlite3.Connection]) -> None:
        self._directory = directory
        self._connect = connect
        self._lock = threading.Lock()
        self._kept: tuple[tuple[int, int], sqlite3.Connection] | None = None  # (device, inode) of its file, connection

    def read(self) -> tuple[dict[str, str], bool]:
        """The ``meta`` entries and whether any chunk is stored, from one snapshot.

        Raises:
            StoreError: No store there, or its database cannot be read.
        """
        try:
            status = os.stat(self._directory / DATABASE_NAME)
            identity: tuple[int, int] | None = (status.st_dev, status.st_ino)
        except OSError:
            identity = None  # opening it says why
        if identity is None or not os.access(self._directory, os.W_OK | os.X_OK):
            self.close()
            connection = self._connect()
            try:
                return self._read(connection)
            finally:
                connection.close()
        with self._lock:
            if self._kept is None or self._kept[0] != identity:
                self._close_kept()
                self._kept = (identity, self._connect())
            try:
                meta, filled = self._read(self._kept[1])
                check_meta(meta, self._directory)
            except StoreError:
                self._close_kept()
                raise
            return meta, filled

    def _read(self, connection: sqlite3.Connection) -> tuple[dict[str, str], bool]:
        try:
            connection.execute("BEGIN")
            meta = read_meta(connection)
            filled = bool(connection.execute("SELECT EXISTS (SELECT 1 FROM chunks)").fetchone()[0]) if meta else False
            connection.execute("COMMIT")
            return meta, filled
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the store at {str(self._directory)!r}: {exc}", stage="store") from exc

    def close(self) -> None:
        """Close the kept connection (a later read opens another)."""
        with self._lock:
            self._close_kept()

    def _close_kept(self) -> None:
        if self._kept is not None:
            kept, self._kept = self._kept[1], None
            try:
                kept.rollback()
            finally:
                kept.close()
