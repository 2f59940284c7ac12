"""Reading one file for an index run: hash, parse, chunk; in the run's process or in workers.

:func:`prepare_file` needs no database, so a large run hands it to worker processes (one per
core, :func:`prepared_files`) while the run's process writes rows and postings, in file order.
It returns plain rows, never objects the pickle would have to rebuild.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from agentic_rag._contracts import Document
from agentic_rag._ingest.chunker import chunk_sections
from agentic_rag._ingest.loaders import parse_source, read_source
from agentic_rag._ingest.work_budget import IngestLimits
from agentic_rag._store.descriptions import file_terms, terms_to_json
from agentic_rag._store.layout import StoreSettings
from agentic_rag._store.rows import chunk_row

__all__ = ["FileTask", "FileWork", "PARALLEL_FILES", "prepare_file", "prepared_files"]

#: A run reading at least this many files uses worker processes (where ``fork`` exists and
#: there is more than one core): below it, starting them costs more than they save.
PARALLEL_FILES = 256
_AHEAD = 16


@dataclass(frozen=True, slots=True)
class FileTask:
    """One file to read: where, as what, and what the store holds for it."""

    key: str
    path: Path
    read_as: str
    within: str
    corpus_id: str
    signature: str
    old: tuple[str, str, str] | None  # (corpus id, sha256, chunking signature) stored, or None
    documents: bool  # also make the chunks' Documents (for a vector index)
    stamped: bool = False  # its size and time stamp are the stored ones, from before the last run


@dataclass(frozen=True, slots=True)
class FileWork:
    """What reading a file gave.

    ``state`` is ``"kept"`` (unreadable now, its indexed content stays), ``"skipped"``,
    ``"unchanged"`` or ``"indexed"`` (with ``rows`` for the ``chunks`` table).
    """

    state: str
    problem: str = ""
    sha256: str = ""
    rows: tuple[tuple[object, ...], ...] = ()
    terms: str = ""
    notes: tuple[str, ...] = ()
    documents: tuple[Document, ...] = ()


_UNCHANGED = FileWork("unchanged")


def prepare_file(settings: StoreSettings, task: FileTask) -> FileWork:
    """Read, hash, parse and chunk one file (no database needed)."""
    source = read_source(task.path, max_bytes=settings.walk.max_file_bytes, within=task.within)
    if source.unreadable and task.old is not None:
        return FileWork("kept", f"{source.problem}; its previously indexed content is kept")
    if source.problem:
        return FileWork("skipped", source.problem)
    if task.old is not None and task.old == (task.corpus_id, source.sha256, task.signature):
        return FileWork("unchanged")
    parsed = parse_source(source.data, task.read_as, fields=settings.fields, pdf=settings.pdf)
    cap = IngestLimits().max_chunks
    chunks = chunk_sections(parsed.sections, task.key, settings.chunking, line_marks=True, max_chunks=cap + 1) if not parsed.problem else ()
    if not chunks:
        return FileWork("skipped", parsed.problem or "no indexable text")
    notes = tuple(parsed.notes)
    if len(chunks) > cap:
        # Over the file's chunk budget: what came first is indexed, and the run says so.
        chunks = chunks[:cap]
        notes = (f"over a work limit: only the first {cap:,} chunks are indexed", *notes)
    documents = tuple(c.to_document(task.corpus_id) for c in chunks) if task.documents else ()
    return FileWork("indexed", "", source.sha256, tuple(chunk_row(c, task.corpus_id) for c in chunks),
                    terms_to_json(file_terms(parsed.text)), notes, documents)


def prepared_files(settings: StoreSettings, tasks: list[FileTask]) -> Iterator[FileWork]:
    """Each task's :class:`FileWork`, in order. A file whose size and time stamp are the stored
    ones (from before the previous run) and whose settings and corpus are unchanged is not read;
    the others are read by worker processes when they are many (several cores, ``fork``), else
    one by one here."""
    quick = [_unchanged(task) for task in tasks]
    rest = [task for task, work in zip(tasks, quick) if work is None]
    workers = min(os.cpu_count() or 1, 4)
    if len(rest) < PARALLEL_FILES or workers < 2 or not _can_fork():
        read: Iterator[FileWork] = (prepare_file(settings, task) for task in rest)
    else:
        read = _in_workers(settings, rest, workers)
    return (work if work is not None else next(read) for work in quick)


def _unchanged(task: FileTask) -> FileWork | None:
    old = task.old
    if task.stamped and old is not None and old[0] == task.corpus_id and old[2] == task.signature and os.access(task.path, os.R_OK):
        return _UNCHANGED
    return None


def _can_fork() -> bool:
    # Imported here: a run that reads a few changed files never starts workers.
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _in_workers(settings: StoreSettings, tasks: Iterable[FileTask], workers: int) -> Iterator[FileWork]:
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor

    # fork: the workers start at once and need nothing re-imported; they only read files and
    # never touch the run's database connection, and end with os._exit (no finalisers run).
    # At most _AHEAD files per worker are read ahead, so memory holds a few files' rows.
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"))
    pending: deque[Future[FileWork]] = deque()
    try:
        for task in tasks:
            pending.append(pool.submit(prepare_file, settings, task))
            if len(pending) >= _AHEAD * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
