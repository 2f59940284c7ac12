"""One index run: walk, compare hashes, re-chunk what changed, switch generations atomically.

The whole run is one SQLite write transaction (``BEGIN IMMEDIATE``, which also keeps a second
writer out). Rows of changed files are replaced inside it; the BM25 index of the current
generation (and the vector index, when the store keeps one) is loaded only once something
changed, patched, and saved under the *next* generation's file name. The transaction then
moves ``meta.generation`` to that file and commits; only after the commit are the previous
generation's files deleted. An exception anywhere (a failing loader, a progress callback
that raises, Ctrl-C) rolls the transaction back and deletes the unreferenced new files; a
killed process leaves an uncommitted transaction SQLite discards and files the next writer
sweeps. Either way the previous store stays exactly as it was.

Every run first checks the store it is about to build on: each file's chunk rows against its
``files`` row, and the current generation's index files (whole-file checksum, and as many
documents as there are chunk rows). Whatever is damaged or missing is rebuilt from the rows
(files whose rows were lost are re-read), under a new generation, and listed in
:attr:`IndexReport.repaired`. A file or folder that cannot be read this time (permission
denied) keeps what was indexed from it and is listed as skipped; only files that are really
gone, or no longer indexable, are removed.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from agentic_rag._contracts import Document
from agentic_rag._errors import StoreBusyError, StoreError
from agentic_rag._store.descriptions import describe_corpora, terms_from_json
from agentic_rag._store.file_work import FileTask, FileWork, prepared_files
from agentic_rag._store.index_plan import PlannedFile, plan_run, refuse_merged_folders
from agentic_rag._store.layout import StoreSettings, index_file_names, is_index_file
from agentic_rag._store.records import IndexPhase, IndexProgress, IndexReport
from agentic_rag._store.postings import PostingsWriter, postings_damage, read_stats
from agentic_rag._store.repair import damaged_index_files, repair_chunk_rows
from agentic_rag._store.rows import CHUNK_COLUMNS, INSERT_CHUNK, stored_documents
from agentic_rag._store.schema import connect, create_schema, generation_of, read_meta, write_meta

__all__ = ["run_index", "stored_documents"]

_STAGE = "store"
_BATCH = 4096  # documents handed to the indexes at a time
# Seconds a file's time stamp must predate the previous run for the stamp to be trusted
# (file systems with coarse time stamps, clocks a little apart).
_STAMP_MARGIN = 2.0
ProgressCallback = Callable[[IndexProgress], None]


class _IndexRun:
    def __init__(self, settings: StoreSettings, connection: sqlite3.Connection, progress: ProgressCallback | None) -> None:
        self.settings = settings
        self.db = connection
        self.progress = progress
        self.meta = read_meta(connection)
        self.signatures: dict[str, str] = {}  # by file ending: a PDF's also names its extractor
        old_vector = bool(self.meta.get("vector_file"))
        self.vector = old_vector if settings.vector is None else settings.vector
        self.postings: PostingsWriter | None = None
        self.vectors = None
        self.remove_ids: list[str] = []
        self.add_docs: list[Document] = []
        self.kept: dict[str, str] = {}  # key -> corpus id of every file indexed or unchanged
        self.counts = {"added": 0, "updated": 0, "removed": 0, "unchanged": 0, "chunks_added": 0, "chunks_removed": 0}
        self.skipped: list[tuple[str, str]] = []
        self.partial: list[tuple[str, str]] = []
        self.written: list[Path] = []
        self.generation = generation_of(self.meta, settings.directory)
        self.repaired: list[str] = []
        self.from_rows = False  # build the indexes from the chunk rows, not the saved files
        self.rebuild = self.vector != old_vector
        self.started = time.time()
        self.stamps: dict[str, tuple[int, float]] = {}
        try:
            self.trusted_before = float(self.meta.get("indexed_at", "")) - _STAMP_MARGIN
        except ValueError:
            self.trusted_before = float("-inf")  # never indexed with stamps: every file is read

    # -- checks --------------------------------------------------------------------------

    def _check_rows(self, existing: dict[str, tuple[str, str, str]]) -> None:
        found = repair_chunk_rows(self.db, existing)
        if found:
            self.repaired.extend(found)
            self.from_rows = self.rebuild = True

    def _check_files(self) -> None:
        if read_stats(self.db) is None:
            # A new store, or one of schema version 1 or 2 (BM25 in a snapshot file): the
            # postings tables are built from the rows, and the snapshot file is dropped.
            if self.generation and not self.meta.get("bm25_file"):
                self.repaired.append("the store's BM25 postings statistics are missing; rebuilt")
            self.from_rows = self.rebuild = True
            return
        if self.from_rows:
            return
        found = damaged_index_files(self.db, self.settings.directory, self.meta, snapshot=False)
        damage = postings_damage(self.db)
        if damage:
            found.insert(0, f"{damage}; rebuilt")
        if found:
            self.repaired.extend(found)
            self.from_rows = self.rebuild = True

    def _emit(self, phase: IndexPhase, done: int, total: int, path: str = "") -> None:
        if self.progress is not None:
            self.progress(IndexProgress(phase, done, total, self.counts["chunks_added"], path))

    # -- indexes -------------------------------------------------------------------------

    def _indexes(self) -> None:
        """Open the postings (and load the vector index) before the first row changes."""
        if self.postings is not None:
            return
        directory = self.settings.directory
        # Rows this run did not add must be read back; a new store has none, so its postings are
        # built file by file while worker processes read the next files.
        held = self.db.execute("SELECT EXISTS (SELECT 1 FROM chunks)").fetchone()[0]
        self.postings = PostingsWriter(self.db, rebuild=self.from_rows and bool(held), empty=self.from_rows and not held)
        if self.vector:
            from agentic_rag._store.vectors import load_vector_index  # only a store that keeps vectors needs the engine

            saved = "" if self.from_rows else self.meta.get("vector_file", "")
            self.vectors = load_vector_index(directory, saved, lambda: stored_documents(self.db))

    def _flush(self) -> None:
        index = self.vectors
        if index is not None:
            gone = [i for i in self.remove_ids if i in index]
            if gone:
                index.remove(gone)
            if self.add_docs:
                index.add(self.add_docs)
        self.remove_ids, self.add_docs = [], []

    # -- rows ----------------------------------------------------------------------------

    def _drop_rows(self, key: str) -> None:
        ids = [row[0] for row in self.db.execute("SELECT id FROM chunks WHERE path = ?", (key,))]
        self.postings.remove_path(key)  # type: ignore[union-attr]  # opened by _indexes()
        if self.vector:
            self.remove_ids.extend(ids)
        self.counts["chunks_removed"] += len(ids)
        self.db.execute("DELETE FROM chunks WHERE path = ?", (key,))

    def _replace_rows(self, planned: PlannedFile, work: FileWork) -> None:
        """Bring a changed file's rows in line with ``work``. A chunk that reads exactly as
        before keeps its row and rowid, so only the changed chunks' terms have their postings
        rewritten (an edit near a file's end touches a few chunks, not the whole file's
        vocabulary); what a search finds does not depend on rowids (ties break by chunk id)."""
        key = planned.key
        stored = {row[1]: row for row in self.db.execute(f"SELECT rowid, {CHUNK_COLUMNS} FROM chunks WHERE path = ?", (key,))}
        fresh = [row for row in work.rows if stored.get(row[0], ())[1:] != tuple(row)]
        kept = {row[0] for row in work.rows}.difference(row[0] for row in fresh)
        gone = [row for chunk_id, row in stored.items() if chunk_id not in kept]
        postings = self.postings
        if not postings.rebuild:  # type: ignore[union-attr]  # opened by _indexes()
            postings.remove_rows([(row[0], row[9], row[8]) for row in gone])  # type: ignore[union-attr]  # (rowid, text, title)
        if self.vector:  # the vector index drops and adds every chunk of the file, as before
            self.remove_ids.extend(stored)
        self.counts["chunks_removed"] += len(stored)
        self.db.executemany("DELETE FROM chunks WHERE rowid = ?", [(row[0],) for row in gone])
        self._write_rows(planned, work, fresh)

    def _write_rows(self, planned: PlannedFile, work: FileWork, inserted: Sequence[tuple[object, ...]] | None = None) -> None:
        """Insert the rows of ``work`` (only ``inserted`` of them when given: the others are
        stored already) and the file's row."""
        corpus_id, rows = planned.corpus_id, work.rows
        inserted = rows if inserted is None else inserted
        self.db.executemany(INSERT_CHUNK, inserted)
        self.db.execute(
            "INSERT OR REPLACE INTO files (path, corpus_id, sha256, mtime, size, chunks, terms, chunking) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (planned.key, corpus_id, work.sha256, planned.source.mtime, planned.source.size, len(rows), work.terms, self._signature(planned)),
        )
        self.postings.add_path(planned.key, inserted)  # type: ignore[union-attr]  # opened by _indexes()
        if self.vector:
            self.add_docs.extend(work.documents)
        self.counts["chunks_added"] += len(rows)
        if len(self.add_docs) >= _BATCH:
            self._flush()

    def _signature(self, planned: PlannedFile) -> str:
        suffix = planned.read_as
        if suffix not in self.signatures:
            self.signatures[suffix] = self.settings.chunking_signature(suffix)
        return self.signatures[suffix]

    def _task(self, planned: PlannedFile, existing: dict[str, tuple[str, str, str]]) -> FileTask:
        source, old = planned.source, existing.get(planned.key)
        # Trusted only when written before the previous run began (by more than the margin):
        # a file changed during or after it is read again, whatever its time stamp says.
        stamped = (old is not None and old[1] != "" and self.stamps.get(planned.key) == (source.size, source.mtime)
                   and source.mtime < self.trusted_before)
        return FileTask(planned.key, source.path, planned.read_as, planned.within, planned.corpus_id, self._signature(planned),
                        old, self.vector, stamped)

    def _apply(self, planned: PlannedFile, old: tuple[str, str, str] | None, work: FileWork) -> None:
        """Bring the rows of one file in line with what reading it gave."""
        key = planned.key
        if work.state == "kept":  # unreadable for now (permission denied): keep what was indexed
            self.skipped.append((key, work.problem))
            self.kept[key] = old[0]  # type: ignore[index]  # "kept" only when something was stored
            return
        if work.state == "skipped":
            self.skipped.append((key, work.problem))
            return
        if work.state == "unchanged":
            self.counts["unchanged"] += 1
            self.kept[key] = planned.corpus_id
            return
        self._indexes()
        if old is not None:
            self._replace_rows(planned, work)
            self.counts["updated"] += 1
        else:
            self.counts["added"] += 1
            self._write_rows(planned, work)
        self.kept[key] = planned.corpus_id
        self.partial.extend((key, note) for note in work.notes)

    # -- the run -------------------------------------------------------------------------

    def _corpora(self, corpus_roots: Mapping[str, str], corpus: str | None, description: str | None, changed: bool) -> None:
        db = self.db
        db.executemany("INSERT OR IGNORE INTO corpora (id, description, root, auto_description) VALUES (?, '', ?, 1)",
                       sorted((c, corpus_roots.get(c, "")) for c in set(self.kept.values())))
        if corpus is None:  # a corpus named after a folder stands for the folder it was named after this time
            db.executemany("UPDATE corpora SET root = ? WHERE id = ?", sorted((r, c) for c, r in corpus_roots.items()))
        if corpus is not None and description is not None:
            db.execute("UPDATE corpora SET description = ?, auto_description = 0 WHERE id = ?", (description, corpus))
        db.execute("DELETE FROM corpora WHERE id NOT IN (SELECT DISTINCT corpus_id FROM files)")
        automatic = [row[0] for row in db.execute("SELECT id FROM corpora WHERE auto_description = 1 AND (? OR description = '')", (changed,))]
        if automatic:
            files = [(c, terms_from_json(t)) for c, t in db.execute("SELECT corpus_id, terms FROM files")]
            # A file's title is its first chunk's. Its number comes from the (path, n) index alone;
            # only that row is read, not every chunk row of the store.
            titles = db.execute("SELECT c.corpus_id, c.path, c.title FROM (SELECT path, MIN(n) AS n FROM chunks GROUP BY path) AS first "
                                "JOIN chunks AS c ON c.path = first.path AND c.n = first.n ORDER BY c.path").fetchall()
            db.executemany("UPDATE corpora SET description = ? WHERE id = ?", [(d, c) for c, d in describe_corpora(files, automatic, titles)])

    def run(self, paths: Sequence[Path], corpus: str | None, description: str | None, started: float) -> IndexReport:
        plan = plan_run(self.settings, paths, corpus)
        planned, walk_skipped, scopes, unreadable = plan.files, list(plan.skipped), plan.scopes, plan.unreadable
        existing = {p: (c, s, g) for p, c, s, g in self.db.execute("SELECT path, corpus_id, sha256, chunking FROM files")}
        refuse_merged_folders(plan, {key: old[0] for key, old in existing.items()})
        self.stamps = {p: (size, mtime) for p, size, mtime in self.db.execute("SELECT path, size, mtime FROM files")}
        self._check_rows(existing)
        self._check_files()
        self._sweep()
        total = len(planned)
        self._emit(IndexPhase.SCANNED, 0, total)
        works = prepared_files(self.settings, [self._task(item, existing) for item in planned])
        for done, (item, work) in enumerate(zip(planned, works), start=1):
            self._apply(item, existing.get(item.key), work)
            self._emit(IndexPhase.FILE, done, total, item.key)
        for key in sorted(existing):
            if key not in self.kept and any(scope.holds(key) for scope in unreadable):
                self.kept[key] = existing[key][0]  # under a folder that could not be listed
            elif key not in self.kept and any(scope.holds(key) for scope in scopes):
                self._indexes()
                self._drop_rows(key)
                self.db.execute("DELETE FROM files WHERE path = ?", (key,))
                self.counts["removed"] += 1
        changed = bool(self.counts["added"] or self.counts["updated"] or self.counts["removed"])
        self._corpora(plan.corpus_roots, corpus, description, changed)
        generation = self.generation
        previous = [self.meta.get("bm25_file", ""), self.meta.get("vector_file", "")]
        if changed or self.rebuild:
            self._emit(IndexPhase.SAVING, total, total)
            generation = self._save(generation + 1)
        # When this run began: a file whose size and time stamp are what was stored and older
        # than this (less a margin for coarse clocks) is unchanged without being read next time.
        write_meta(self.db, {"indexed_at": repr(self.started)})
        self.db.execute("COMMIT")
        if changed or self.rebuild:
            self.written = []
            for name in previous:
                if name:
                    _unlink(self.settings.directory / name)
        self._emit(IndexPhase.DONE, total, total)
        skipped = tuple(sorted(walk_skipped + self.skipped))
        return IndexReport(files_seen=total + len(walk_skipped), skipped=skipped, seconds=time.monotonic() - started,
                           generation=generation, corpora=tuple(sorted(set(self.kept.values()))), repaired=tuple(self.repaired),
                           partial=tuple(sorted(self.partial)), **self.counts)

    def _save(self, generation: int) -> int:
        self._indexes()
        self._flush()
        vector_name = index_file_names(generation, self.vector)[1]
        directory = self.settings.directory
        self.postings.write()  # type: ignore[union-attr]
        if vector_name:
            self.written.append(directory / vector_name)
            self.vectors.save(directory / vector_name)  # type: ignore[union-attr]
        write_meta(self.db, {"generation": str(generation), "bm25_file": "", "vector_file": vector_name})
        return generation

    def _sweep(self) -> None:
        """Delete index files no generation refers to (left by a killed writer); safe
        because this run holds the write lock, so no other writer is saving one."""
        current = {self.meta.get("bm25_file", ""), self.meta.get("vector_file", "")}
        for entry in os.scandir(self.settings.directory):
            if is_index_file(entry.name) and entry.name not in current:
                _unlink(Path(entry.path))

    def abandon(self) -> None:
        """Remove the files of a generation that was never committed."""
        for path in self.written:
            _unlink(path)


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass  # already gone, or held open elsewhere (Windows): the next writer sweeps it


def _begin(connection: sqlite3.Connection, settings: StoreSettings, progress: ProgressCallback | None = None) -> None:
    """Take the write lock; when another process holds it, say so (a ``WAITING`` event to
    ``progress``) and wait up to ``settings.lock_timeout`` seconds for it."""
    if progress is not None:
        # A first try that does not wait, so a wait is announced before it starts, not after.
        connection.execute("PRAGMA busy_timeout = 0")
        try:
            connection.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError:
            progress(IndexProgress(IndexPhase.WAITING, 0, 0))
        finally:
            connection.execute(f"PRAGMA busy_timeout = {int(settings.lock_timeout * 1000)}")
    try:
        connection.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        raise StoreBusyError(f"the store at {str(settings.directory)!r} is being written by another process: waited "
                             f"{settings.lock_timeout:g} s for its write lock ({exc}); try again later, or wait longer", stage=_STAGE) from exc


def run_index(settings: StoreSettings, paths: Sequence[Path], *, corpus: str | None, description: str | None,
              progress: ProgressCallback | None) -> IndexReport:
    """Index ``paths`` into the store described by ``settings`` in one transaction.

    Args:
        settings: The store's settings.
        paths: Folders or files, already validated to exist.
        corpus: One corpus for every file, or ``None`` for the corpora
            :mod:`~agentic_rag._store.index_plan` assigns (one per folder given).
        description: The description of ``corpus`` (``None``: generated).
        progress: Called with each :class:`IndexProgress` event; an exception it raises
            aborts the run and rolls everything back.

    Returns:
        What the run did.

    Raises:
        StoreError: The store cannot be opened, is locked by another writer past the
            timeout, or a write failed (the store is left as it was).
        InvalidInputError: A path does not exist, or the run would add a folder to a stored
            corpus of its name that holds another folder (nothing is written).
    """
    started = time.monotonic()
    connection = connect(settings.directory, timeout=settings.lock_timeout, create=True)
    run: _IndexRun | None = None
    try:
        _begin(connection, settings, progress)
        try:
            create_schema(connection, settings.directory)
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        # The empty schema is committed on its own: an interrupted first run leaves an empty
        # store, not a half-made one.
        connection.execute("COMMIT")
        _begin(connection, settings)
        try:
            run = _IndexRun(settings, connection, progress)
            return run.run(paths, corpus, description, started)
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            if run is not None:
                run.abandon()
            raise
    except sqlite3.Error as exc:
        raise StoreError(f"writing the store at {str(settings.directory)!r} failed: {exc}; the previous state is kept", stage=_STAGE) from exc
    finally:
        connection.close()
