"""What the knowledge store reports: index runs, progress events, search hits, statistics."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from agentic_rag._contracts.serialization import JsonContract
from agentic_rag._contracts.validation import require_bool, require_int, require_number, require_text
from agentic_rag._errors import InvalidInputError

__all__ = ["AlsoAt", "IndexPhase", "IndexProgress", "IndexReport", "StoreHit", "StoreStats"]

_STAGE = "store"


def _count(value: object, name: str) -> int:
    return require_int(value, name, minimum=0, stage=_STAGE)


class IndexPhase(str, enum.Enum):
    """Where an index run is: waiting for another writer, files found, one file done, indexes
    being written, finished."""

    WAITING = "waiting"  # another process holds the write lock: the run waits up to its lock timeout
    SCANNED = "scanned"
    FILE = "file"
    SAVING = "saving"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class IndexProgress(JsonContract):
    """One progress event of :meth:`KnowledgeStore.index`, passed to its ``progress`` callback.

    Args:
        phase: What just happened.
        files_done: Files handled so far (indexed, unchanged or skipped).
        files_total: Files found under the indexed paths.
        chunks: Chunks written so far.
        path: The file just handled (``""`` outside :attr:`IndexPhase.FILE`).
    """

    phase: IndexPhase
    files_done: int
    files_total: int
    chunks: int = 0
    path: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "phase", IndexPhase(self.phase))
        for name in ("files_done", "files_total", "chunks"):
            _count(getattr(self, name), f"IndexProgress.{name}")


@dataclass(frozen=True, slots=True)
class IndexReport(JsonContract):
    """What one :meth:`KnowledgeStore.index` run did.

    ``files_seen == added + updated + unchanged + len(skipped)``; ``removed`` counts files
    dropped from the store (deleted from disk, or no longer indexable).

    Args:
        files_seen: Files found under the indexed paths (skipped ones included).
        added: New files indexed.
        updated: Changed files re-indexed (content, corpus or chunking settings changed).
        removed: Files removed from the store.
        unchanged: Files whose SHA-256 matched the stored one (not re-read).
        chunks_added: Chunks written.
        chunks_removed: Chunks deleted (of updated and removed files).
        skipped: ``(path, reason)`` of every file passed over, sorted by path.
        seconds: Wall-clock time of the run.
        generation: The store's index generation after the run (unchanged when nothing was
            written).
        corpora: Ids of the corpora the indexed files belong to, sorted.
        repaired: What the run found damaged in the store and rebuilt (an index file that
            was missing, truncated or corrupted, chunk rows that were lost), one line each.
        partial: ``(path, note)`` of files indexed in part (PDF pages that held no text),
            sorted; such a file counts as added or updated, not skipped.
    """

    files_seen: int
    added: int
    updated: int
    removed: int
    unchanged: int
    chunks_added: int
    chunks_removed: int
    skipped: tuple[tuple[str, str], ...] = ()
    seconds: float = 0.0
    generation: int = 0
    corpora: tuple[str, ...] = ()
    repaired: tuple[str, ...] = ()
    partial: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "partial", tuple((str(p), str(n)) for p, n in self.partial))
        for name in ("files_seen", "added", "updated", "removed", "unchanged", "chunks_added", "chunks_removed", "generation"):
            _count(getattr(self, name), f"IndexReport.{name}")
        skipped = tuple((str(p), str(r)) for p, r in self.skipped)
        object.__setattr__(self, "skipped", skipped)
        object.__setattr__(self, "corpora", tuple(self.corpora))
        object.__setattr__(self, "repaired", tuple(str(r) for r in self.repaired))
        object.__setattr__(self, "seconds", require_number(self.seconds, "IndexReport.seconds", minimum=0, stage=_STAGE))

    @property
    def changed(self) -> bool:
        """True when the run added, updated or removed anything."""
        return bool(self.added or self.updated or self.removed)


@dataclass(frozen=True, slots=True)
class AlsoAt(JsonContract):
    """Another place a search hit's focus statements stand (a later hit that repeated them,
    folded into this one by :func:`~agentic_rag._store.repeated_hits.fold_repeats`).

    Args:
        path: The file, relative to the store's base folder.
        start_line: First of its focus lines.
        end_line: Last of its focus lines (inclusive).
        page: The PDF page they are on, else ``None``.
        cell: The notebook cell they are in, else ``None``.
        page_label: The number the page prints (or its label), else ``""``.
    """

    path: str
    start_line: int
    end_line: int
    page: int | None = None
    cell: int | None = None
    page_label: str = ""

    def __post_init__(self) -> None:
        require_text(self.path, "AlsoAt.path", stage=_STAGE)
        require_int(self.start_line, "AlsoAt.start_line", minimum=1, stage=_STAGE)
        require_int(self.end_line, "AlsoAt.end_line", minimum=self.start_line, stage=_STAGE)
        for name in ("page", "cell"):
            if getattr(self, name) is not None:
                require_int(getattr(self, name), f"AlsoAt.{name}", minimum=1, stage=_STAGE)
        require_text(self.page_label, "AlsoAt.page_label", stage=_STAGE, allow_empty=True)


@dataclass(frozen=True, slots=True)
class StoreHit(JsonContract):
    """One search result: a chunk with where it comes from.

    Args:
        chunk_id: ``"<path>#<n>"``.
        path: The file, relative to the store's base folder (``/``-separated).
        start_line: First line of the chunk in the file (1-based).
        end_line: Last line (inclusive).
        score: BM25 score (higher is better).
        text: The chunk's text.
        corpus_id: Its corpus.
        section: The section title (``""`` before any heading).
        page: The PDF page the chunk is on (its lines count that page's lines), else ``None``.
        cell: The notebook cell it is in (its lines count that cell's lines), else ``None``.
        line_marks: The chunk's line map, ``(offset, line)``: ``text`` from ``offset`` on
            comes from ``line`` (``()`` in a store written before chunks kept one).
        focus_start_line: First source line of the hit's focus lines (``None`` when the hit
            was not made by a search).
        focus_end_line: Last source line of its focus lines.
        focus_text: The focus lines, each after its source line number.
        relevance: The estimated chance that the focus lines answer the query, in [0, 1]
            (``None`` when the hit was not made by a search).
        instruction_like: The chunk's text or heading path holds text addressed to a model
            (set by a search).
        page_label: The number the chunk's PDF page prints (``"160"``) or its page label,
            else ``""``.
        also_at: Where else its focus statements stand, in file-name order (numbers by
            value, so release 3_38_1 comes before 3_38_10): the later hits that repeated them,
            folded into this one (set by a search).
    """

    chunk_id: str
    path: str
    start_line: int
    end_line: int
    score: float
    text: str
    corpus_id: str
    section: str = ""
    page: int | None = None
    cell: int | None = None
    line_marks: tuple[tuple[int, int], ...] = ()
    page_label: str = ""
    focus_start_line: int | None = None
    focus_end_line: int | None = None
    focus_text: str = ""
    relevance: float | None = None
    instruction_like: bool = False
    also_at: tuple[AlsoAt, ...] = ()

    def __post_init__(self) -> None:
        require_text(self.chunk_id, "StoreHit.chunk_id", stage=_STAGE)
        object.__setattr__(self, "also_at", tuple(self.also_at))
        for place in self.also_at:
            if not isinstance(place, AlsoAt):
                raise InvalidInputError(f"StoreHit.also_at must hold AlsoAt places, got {place!r}", stage=_STAGE)
        for name in ("focus_start_line", "focus_end_line"):
            if getattr(self, name) is not None:
                require_int(getattr(self, name), f"StoreHit.{name}", minimum=1, stage=_STAGE)
        if self.relevance is not None:
            object.__setattr__(self, "relevance", require_number(self.relevance, "StoreHit.relevance", stage=_STAGE))
        require_bool(self.instruction_like, "StoreHit.instruction_like", stage=_STAGE)
        for name in ("page", "cell"):
            if getattr(self, name) is not None:
                require_int(getattr(self, name), f"StoreHit.{name}", minimum=1, stage=_STAGE)
        object.__setattr__(self, "line_marks", tuple((int(o), int(n)) for o, n in self.line_marks))
        require_text(self.page_label, "StoreHit.page_label", stage=_STAGE, allow_empty=True)
        require_text(self.path, "StoreHit.path", stage=_STAGE)
        require_int(self.start_line, "StoreHit.start_line", minimum=1, stage=_STAGE)
        require_int(self.end_line, "StoreHit.end_line", minimum=self.start_line, stage=_STAGE)
        object.__setattr__(self, "score", require_number(self.score, "StoreHit.score", stage=_STAGE))

    @property
    def citation(self) -> str:
        """``path:start-end``; ``path:p12:3-5`` on page 12 of a PDF, ``path:c7:1-4`` in cell
        7 of a notebook."""
        place = f"p{self.page}:" if self.page is not None else f"c{self.cell}:" if self.cell is not None else ""
        return f"{self.path}:{place}{self.start_line}-{self.end_line}"


@dataclass(frozen=True, slots=True)
class StoreStats(JsonContract):
    """The size of a store.

    Args:
        directory: The store's folder.
        generation: Index generation (0 before the first index run).
        corpora: Number of corpora.
        files: Number of indexed files.
        chunks: Number of chunks.
        vector: Whether the store keeps a vector index too.
        bytes: Size on disk of the database and the current index files.
    """

    directory: str
    generation: int
    corpora: int
    files: int
    chunks: int
    vector: bool
    bytes: int

    def __post_init__(self) -> None:
        for name in ("generation", "corpora", "files", "chunks", "bytes"):
            _count(getattr(self, name), f"StoreStats.{name}")
