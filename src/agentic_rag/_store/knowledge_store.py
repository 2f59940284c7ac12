"""The knowledge store: index folders once, then search and cite them from any process.

A store is a folder (default ``./.agentic-rag/``) holding one SQLite database (WAL journal)
with the corpora, files and chunks, and beside it the saved BM25 index (and optionally a
vector index) of the current *generation*. Writes go through :meth:`KnowledgeStore.index`
(see :mod:`~agentic_rag._store.indexer`: one transaction, a new generation of index files,
switched in by the commit). Reads take the generation from SQLite and load that generation's
file, retrying if a writer replaced it in between, so every reader sees one committed state,
never a mix; loaded indexes are cached per generation.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentic_rag._contracts import Corpus, Document
from agentic_rag._contracts.validation import require_bool, require_enum, require_int, require_number, require_text
from agentic_rag._errors import IndexFormatError, InvalidInputError, StoreError
from agentic_rag._ingest.pdf_backend import PdfBackend, require_pdf_backend
from agentic_rag._store.records import IndexReport, StoreHit, StoreStats
from agentic_rag._store.rows import read_documents, stored_hit
from agentic_rag._store.schema import DATABASE_NAME, connect, generation_of
from agentic_rag._store.state_reader import StateReader

if TYPE_CHECKING:  # the indexer, the in-memory engines and the loaders are imported when used:
    # a search process never loads them (bench/retrieval/bench_cold_search.py); nor does an
    # index process load the search's modules
    from agentic_rag._ingest.chunker import ChunkOptions
    from agentic_rag._ingest.structured_loader import FieldMapping
    from agentic_rag._ingest.walker import WalkOptions
    from agentic_rag._retrieval.bm25 import BM25Index
    from agentic_rag._store.layout import StoreSettings
    from agentic_rag._store.retriever import StoreRetriever
    from agentic_rag._store.stored_bm25 import StoredBM25Index
    from agentic_rag._text.relevance import RelevanceModel
    from agentic_rag._retrieval.vector import VectorIndex
    from agentic_rag._store.indexer import ProgressCallback

__all__ = ["DEFAULT_STORE_DIRECTORY", "KnowledgeStore"]

#: Where a store lives when no directory is given (relative to the working directory).
DEFAULT_STORE_DIRECTORY = ".agentic-rag"
_STAGE = "store"
_READ_TIMEOUT = 10.0
_LOAD_ATTEMPTS = 8


class KnowledgeStore:
    """A persistent, incrementally updated store of chunked files, searchable with BM25.

    Args:
        directory: The store folder; created by the first :meth:`index`.
        base: The folder stored paths are relative to (default: the store folder's parent,
            so ``./.agentic-rag`` cites ``docs/guide.md`` for ``./docs/guide.md``).
        chunking: Chunk size and overlap (changing them re-chunks files on the next index).
        fields: Where JSON, JSONL and CSV records keep their text, title and id.
        walk: Which files a folder walk visits.
        pdf: Which extractor reads PDF files: ``"builtin"`` (default, no dependency) or
            ``"pdftotext"`` (poppler's program, which must be on ``PATH`` when indexing;
            switching re-reads the PDFs on the next index).
        vector: Also keep a vector index (hashing embedder): ``True`` builds it on the next
            index, ``False`` drops it, ``None`` keeps what the store has.
        lock_timeout: Seconds :meth:`index` waits while another process writes.

    Raises:
        InvalidInputError: An argument of the wrong type or out of range (an unknown ``pdf``
            extractor).
    """

    def __init__(
        self,
        directory: str | os.PathLike[str] = DEFAULT_STORE_DIRECTORY,
        *,
        base: str | os.PathLike[str] | None = None,
        chunking: ChunkOptions | None = None,
        fields: FieldMapping | None = None,
        walk: WalkOptions | None = None,
        vector: bool | None = None,
        lock_timeout: float = 60.0,
        pdf: PdfBackend | str = PdfBackend.BUILTIN,
    ) -> None:
        if not isinstance(directory, (str, os.PathLike)) or not os.fspath(directory):
            raise InvalidInputError(f"directory must be a non-empty path, got {directory!r}", stage=_STAGE)
        folder = Path(os.path.abspath(os.fspath(directory)))
        checks = (("chunking", chunking, "ChunkOptions"), ("fields", fields, "FieldMapping"), ("walk", walk, "WalkOptions"))
        for name, value, kind in checks:
            if value is not None and not isinstance(value, _option_types()[kind]):
                raise InvalidInputError(f"{name} must be {kind} or None, got {type(value).__name__}", stage=_STAGE)
        backend = require_enum(PdfBackend, pdf, "pdf", stage=_STAGE)
        require_bool(vector, "vector", optional=True, stage=_STAGE)
        require_number(lock_timeout, "lock_timeout (seconds)", minimum=0, stage=_STAGE)
        self._directory = folder
        self._base = Path(os.path.abspath(os.fspath(base))) if base is not None else folder.parent
        # The settings of a write, made when one first needs them: building the default options
        # imports the walker and the loaders, which a search never uses.
        self._options = (chunking, fields, walk, vector, float(lock_timeout), backend)
        self._made_settings: StoreSettings | None = None
        self._lock = threading.Lock()
        self._state_reader = StateReader(folder, self._connect)  # a search reads the state several times
        self._cache: dict[str, tuple[int, Any]] = {}
        self._relevance: tuple[Any, RelevanceModel] | None = None

    directory = property(lambda self: self._directory, doc="The store folder (absolute).")
    base = property(lambda self: self._base, doc="The folder stored paths are relative to.")

    @property
    def _settings(self) -> StoreSettings:
        if self._made_settings is None:
            from agentic_rag._store.layout import StoreSettings

            chunking, fields, walk, vector, lock_timeout, backend = self._options
            types = _option_types()
            self._made_settings = StoreSettings(
                directory=self._directory, base=self._base, chunking=chunking or types["ChunkOptions"](),
                fields=fields or types["FieldMapping"](), walk=walk or types["WalkOptions"](), vector=vector,
                lock_timeout=lock_timeout, pdf=backend,
            )
        return self._made_settings

    @property
    def exists(self) -> bool:
        """True once an index run has created the store's database."""
        return (self._directory / DATABASE_NAME).is_file()

    # -- writes -------------------------------------------------------------------------

    def index(
        self,
        paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
        *,
        corpus: str | None = None,
        description: str | None = None,
        progress: ProgressCallback | None = None,
    ) -> IndexReport:
        """Bring the store in line with the files under ``paths``, incrementally.

        Without ``corpus``: given several paths, each folder is one corpus named after it,
        holding all of it, and each file goes to the corpus named after its folder; given one
        folder, each of its top-level folders is a corpus named after it, and the files directly
        in it one named after it. Two folders of one name are named by their paths' last parts
        (``v1/docs``, ``v2/docs``). With ``corpus``, every file goes to that corpus. Files whose SHA-256 is unchanged are not re-read; changed ones are
        re-chunked; files under ``paths`` that are gone (or no longer indexable) are removed.
        The run is one transaction: if it fails or is interrupted, the store is unchanged.

        Args:
            paths: Folders or files (one path or several).
            corpus: Put every file in this corpus.
            description: The corpus's description (needs ``corpus``); without it one is
                generated from the folder name and the corpus's most distinctive words.
            progress: Called with an :class:`~agentic_rag._store.records.IndexProgress` after
                the walk, after each file, before saving and at the end (e.g.
                :class:`~agentic_rag._interfaces.progress.ProgressBar`).

        Returns:
            What changed, what was skipped and why.

        Raises:
            InvalidInputError: No paths, a path that does not exist, a bad corpus name, a
                description without a corpus, ``pdf="pdftotext"`` without the program on
                ``PATH``; without ``corpus``, a path inside another folder given, or a folder
                whose name a stored corpus holds for another folder this run leaves alone.
            StoreError: The store cannot be written (locked by another writer past
                ``lock_timeout``, not a store database, disk error); nothing changed then.
        """
        from agentic_rag._store.index_plan import distinct_paths, index_roots

        roots = index_roots(paths)
        require_pdf_backend(self._settings.pdf)  # a missing pdftotext is said now, not per file
        if corpus is not None:
            require_text(corpus, "corpus", stage=_STAGE)
            if corpus != corpus.strip() or "\n" in corpus:
                raise InvalidInputError(f"corpus must not start or end with white space or hold a newline, got {corpus!r}", stage=_STAGE)
        if description is not None:
            require_text(description, "description", stage=_STAGE)
            if corpus is None:
                raise InvalidInputError("description needs a corpus: pass corpus=NAME with it", stage=_STAGE)
        if progress is not None and not callable(progress):
            raise InvalidInputError(f"progress must be callable or None, got {type(progress).__name__}", stage=_STAGE)
        if self._directory.exists() and not self._directory.is_dir():
            raise StoreError(f"the store path {str(self._directory)!r} is a file, not a folder", stage=_STAGE)
        from agentic_rag._store.indexer import run_index

        roots = distinct_paths(self._settings, roots, named=corpus is not None)
        return run_index(self._settings, roots, corpus=corpus, description=description, progress=progress)

    # -- reads --------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        return connect(self._directory, timeout=_READ_TIMEOUT)

    def _query(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        connection = self._connect()
        try:
            return connection.execute(sql, tuple(parameters)).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the store at {str(self._directory)!r}: {exc}", stage=_STAGE) from exc
        finally:
            connection.close()

    def _state(self) -> tuple[dict[str, str], bool]:
        """The ``meta`` entries and whether any chunk is stored, from one snapshot."""
        return self._state_reader.read()

    @property
    def generation(self) -> int:
        """The committed index generation (0 for a missing or never-indexed store)."""
        if not self.exists:
            return 0
        return generation_of(self._state()[0], self._directory)

    @property
    def is_empty(self) -> bool:
        """True when the store is missing or holds no chunk (never raises for a missing store)."""
        if not self.exists:
            return True
        return not self._state()[1]

    def corpora(self) -> tuple[Corpus, ...]:
        """Every corpus, sorted by id; metadata holds ``root``, ``files``, ``chunks`` and
        ``generated_description``.

        Raises:
            StoreError: No store at the directory.
        """
        rows = self._query(
            "SELECT c.id, c.description, c.root, c.auto_description, COUNT(f.path), COALESCE(SUM(f.chunks), 0) "
            "FROM corpora c LEFT JOIN files f ON f.corpus_id = c.id GROUP BY c.id ORDER BY c.id"
        )
        return tuple(Corpus(cid, description, {"root": root, "files": files, "chunks": chunks, "generated_description": bool(auto)})
                     for cid, description, root, auto, files, chunks in rows)

    def documents(self, corpus_ids: Sequence[str] | None = None) -> Iterator[Document]:
        """Every chunk as a :class:`Document` (by path, then chunk number), read from one
        consistent snapshot of the database.

        Args:
            corpus_ids: Only chunks of these corpora.

        Raises:
            StoreError: No store at the directory.
            InvalidInputError: ``corpus_ids`` given as a bare string.
        """
        if isinstance(corpus_ids, str):
            raise InvalidInputError(f"corpus_ids must be a sequence of ids, not the string {corpus_ids!r}", stage=_STAGE)
        if not self.exists:
            self._connect()  # raises the "no knowledge store" error
        return read_documents(self._directory, corpus_ids, timeout=_READ_TIMEOUT)

    def bm25(self) -> BM25Index | StoredBM25Index:
        """The BM25 index of the current generation, shared by every caller of this store
        object (treat it as read-only): a :class:`~agentic_rag._store.stored_bm25.StoredBM25Index`
        reading the postings of each query's terms from the database, or, for a store of schema
        version 1 or 2 not indexed since, its snapshot file loaded whole (once per generation).

        Raises:
            StoreError: The store is missing or empty, or its index is unreadable.
        """
        meta, filled = self._state()
        if "bm25_stats" in meta:
            from agentic_rag._store.stored_bm25 import StoredBM25Index

            if not filled:
                raise StoreError(f"the store at {str(self._directory)!r} is empty: index some files first", stage=_STAGE)
            generation = generation_of(meta, self._directory)
            with self._lock:
                cached = self._cache.get("bm25_stats")
                if cached is None or cached[0] != generation:
                    cached = self._cache["bm25_stats"] = (generation, StoredBM25Index(self._connect, json.loads(meta["bm25_stats"])))
                return cached[1]
        from agentic_rag._retrieval.bm25 import BM25Index

        return self._load("bm25_file", BM25Index.load)

    def vector_index(self) -> VectorIndex:
        """The vector index of the current generation (loaded once per generation).

        Raises:
            StoreError: The store is missing or empty, keeps no vector index (index with
                ``vector=True``), or its file is unreadable.
        """
        from agentic_rag._retrieval.vector import VectorIndex

        return self._load("vector_file", VectorIndex.load)

    def _load(self, key: str, loader: Any) -> Any:
        for _ in range(_LOAD_ATTEMPTS):
            meta, filled = self._state()
            generation, name = generation_of(meta, self._directory), meta.get(key, "")
            if not filled:
                raise StoreError(f"the store at {str(self._directory)!r} is empty: index some files first", stage=_STAGE)
            if not name:
                raise StoreError(f"the store at {str(self._directory)!r} keeps no vector index: index with vector=True", stage=_STAGE)
            with self._lock:
                cached = self._cache.get(key)
                if cached is not None and cached[0] == generation:
                    return cached[1]
            try:
                index = loader(self._directory / name)
            except IndexFormatError as exc:
                if generation_of(self._state()[0], self._directory) != generation:
                    continue  # a writer switched generations and deleted this file meanwhile
                raise StoreError(f"the store's index file {name!r} cannot be loaded ({exc.message}); run index again to rebuild it", stage=_STAGE) from exc
            with self._lock:
                cached = self._cache.get(key)
                if cached is None or cached[0] < generation:
                    self._cache[key] = (generation, index)
            return index
        raise StoreError(f"the store at {str(self._directory)!r} kept changing while loading its index; try again", stage=_STAGE)

    def retriever(self, *, vector: bool = False) -> StoreRetriever:
        """A ``Retriever`` over the store that follows new generations.

        Args:
            vector: Search the vector index instead of BM25.

        Raises:
            StoreError: The store is missing or empty (or keeps no vector index).
        """
        from agentic_rag._store.retriever import StoreRetriever

        return StoreRetriever(self, vector=vector)

    def search(self, query: str, k: int = 10, corpus_ids: Sequence[str] | None = None, *, context: int = 0, cut: bool = True) -> list[StoreHit]:
        """The ``k`` best chunks for ``query``, with file and line range, each carrying the
        lines an agent should read (its focus) and its relevance.

        BM25 finds the candidates; the second stage (:mod:`~agentic_rag._store.second_stage`)
        reads their focus lines, ranks them again by what those lines hold, keeps each span
        once and stops where the hits stop being worth reading; a hit whose statements an
        earlier hit prints is folded into it (:mod:`~agentic_rag._store.repeated_hits`).

        Args:
            query: Query text (an empty or stop-word-only query finds nothing).
            k: Most hits (>= 1).
            corpus_ids: Only these corpora; each must exist.
            context: Lines of context around each hit's focus lines (>= 0).
            cut: Stop where the hits stop being worth reading (fewer than ``k`` when the first
                are clearly better); ``False``: every hit up to ``k``, within the output's size
                budget.

        Returns:
            Hits best first (ties by chunk id); ``score`` is the BM25 score; ``also_at`` lists
            where the hits folded into a hit stand. Chunks of pages that
            only list other pages (an index, a table of contents) come after the rest unless
            the query asks for one.

        Raises:
            InvalidInputError: ``query`` not a string, ``k`` not an int >= 1, ``context`` not
                an int >= 0, or an unknown corpus id.
            StoreError: The store is missing or empty.
        """
        from agentic_rag._store.repeated_hits import fold_repeats
        from agentic_rag._store.second_stage import DEFAULT_WEIGHTS, finish_hits, first_stage_size

        require_text(query, "query", stage=_STAGE, allow_empty=True)
        require_int(k, "k", minimum=1, stage=_STAGE)
        context = require_int(context, "context", minimum=0, stage=_STAGE)
        index = self.bm25()  # one snapshot of the store's state for the whole search
        candidates = self._first_stage(query, first_stage_size(k), corpus_ids, index)
        # A hit that only repeats an earlier one's statements (a patch release restating its
        # release's notes) is printed as a place of the earlier hit, not as a hit of its own.
        weights = DEFAULT_WEIGHTS if cut else dataclasses.replace(DEFAULT_WEIGHTS, keep_ratio=0.0)
        return fold_repeats(finish_hits(query, candidates, self._model_of(index), k, context=context, weights=weights, following=self._next_chunk))

    def relevance_model(self) -> RelevanceModel:
        """The relevance model of the current generation (IDF weights from its BM25 index, with
        its analyzer), built once per generation."""
        return self._model_of(self.bm25())  # the same index object until the store switches generations

    def _model_of(self, index: BM25Index | StoredBM25Index) -> RelevanceModel:
        with self._lock:
            if self._relevance is None or self._relevance[0] is not index:
                from agentic_rag._text.relevance import RelevanceModel

                self._relevance = (index, RelevanceModel.of_index(index))
            return self._relevance[1]

    def _first_stage(self, query: str, k: int, corpus_ids: Sequence[str] | None,
                     index: BM25Index | StoredBM25Index | None = None) -> list[StoreHit]:
        """The ``k`` best chunks by BM25 alone (ties by chunk id), of ``index`` (default: the
        current generation's)."""
        if isinstance(corpus_ids, str):
            raise InvalidInputError(f"corpus_ids must be a sequence of ids, not the string {corpus_ids!r}", stage=_STAGE)
        from agentic_rag._store.list_pages import search_ranked
        from agentic_rag._store.version_files import VERSION_FILE_HITS, with_version_files

        index = self.bm25() if index is None else index
        if corpus_ids is not None:
            known = {row[0] for row in self._query("SELECT id FROM corpora")}
            unknown = sorted(set(corpus_ids) - known)
            if unknown:
                raise InvalidInputError(f"unknown corpus ids {unknown}; the store has {sorted(known)}", stage=_STAGE)
        hits = with_version_files(
            search_ranked(index, query, k, corpus_ids=corpus_ids), query,
            lambda: [path for path, corpus in self._query("SELECT path, corpus_id FROM files") if corpus_ids is None or corpus in corpus_ids],
            lambda paths: search_ranked(index, query, VERSION_FILE_HITS, corpus_ids=corpus_ids, where={"path": paths}))
        return [stored_hit(index, hit.document_id, hit.score) for hit in hits]

    def _next_chunk(self, hit: StoreHit) -> StoreHit | None:
        """The chunk after ``hit``'s in its file (``None`` after its last chunk), for a focus
        whose last sentence goes on over a page break."""
        path, _, n = hit.chunk_id.rpartition("#")
        if not n.isdigit():
            return None
        try:
            return stored_hit(self.bm25(), f"{path}#{int(n) + 1}", 0.0)
        except InvalidInputError:
            return None

    def stats(self) -> StoreStats:
        """Counts and size on disk.

        Raises:
            StoreError: No store at the directory.
        """
        meta = self._state()[0]
        corpora, files, chunks = self._query(
            "SELECT (SELECT COUNT(*) FROM corpora), (SELECT COUNT(*) FROM files), (SELECT COUNT(*) FROM chunks)")[0]
        directory = self._directory
        names = [DATABASE_NAME, DATABASE_NAME + "-wal", meta.get("bm25_file", ""), meta.get("vector_file", "")]
        size = sum((directory / n).stat().st_size for n in names if n and (directory / n).is_file())
        return StoreStats(str(directory), generation_of(meta, directory), corpora, files, chunks, bool(meta.get("vector_file")), size)

    def __repr__(self) -> str:
        return f"KnowledgeStore({str(self._directory)!r})"


def _option_types() -> dict[str, type]:
    """The option classes of a store's writes, imported when first checked or built."""
    from agentic_rag._ingest.chunker import ChunkOptions
    from agentic_rag._ingest.structured_loader import FieldMapping
    from agentic_rag._ingest.walker import WalkOptions

    return {"ChunkOptions": ChunkOptions, "FieldMapping": FieldMapping, "WalkOptions": WalkOptions}
