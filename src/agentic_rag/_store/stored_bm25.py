"""BM25 search read straight from the store's SQLite tables: a query costs what its terms cost.

A search reads, in one read transaction, the statistics row, the postings rows of the query's
terms, the chunk lengths (a few packed blocks), and the rows of the chunks it returns; nothing
else is loaded, so a new process answers in about the time Python takes to start. Impacts
are computed with the in-memory engine's own functions
(:func:`~agentic_rag._retrieval.bm25_scoring.term_impacts`), the terms are ordered as its
exact pass orders them (largest bound first, then by term) and ranked by its
:func:`~agentic_rag._retrieval.bm25_topk.rank_postings`, so the hits and scores equal a
:class:`~agentic_rag._retrieval.BM25Index` built from the same chunks, ties by chunk id.
"""

from __future__ import annotations

import sqlite3
import threading
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import repeat
from typing import Any

from agentic_rag._contracts import Document
from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import InvalidInputError, StoreError
from agentic_rag._retrieval.bm25_scoring import BM25_VARIANTS, impact_parameters, robertson_idf_floor, term_idf
from agentic_rag._retrieval.hits import DocumentFilter, SearchHit
from agentic_rag._store.postings import BLOCK, HOLE, read_stats, unpack_docs, unpack_numbers
from agentic_rag._store.rows import ChunkRecord, chunk_documents, chunk_rows, row_document
from agentic_rag._store.stored_rank import StoredTerm, rank_stored
from agentic_rag._text.analyzer import Analyzer
from agentic_rag._text.version_tails import is_version_tail

__all__ = ["StoredBM25Index"]

_STAGE = "bm25"
# Documents of recent hits kept for get(): a retriever asks for each hit's document next.
_RECENT = 1024


class StoredBM25Index:
    """The ``SearchIndex`` of a store whose BM25 postings live in its database.

    Args:
        connect: Opens a read-only connection to the store's database (called once; the
            connection is kept, so a long-lived server pays nothing per query).
        stats: The store's ``bm25_stats`` entry when this object is made (its settings).

    Raises:
        StoreError: The settings name an unknown scoring variant.
    """

    def __init__(self, connect: Callable[[], sqlite3.Connection], stats: Mapping[str, Any]) -> None:
        settings = stats["settings"]
        if settings.get("variant") not in BM25_VARIANTS:
            raise StoreError(f"the store's BM25 settings name an unknown variant {settings.get('variant')!r}; run index again", stage="store")
        self._connect = connect
        self._connection: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._analyzer = Analyzer.from_dict(settings["analyzer"])
        self._variant = BM25_VARIANTS[settings["variant"]]
        self._k1, self._b, self._delta = float(settings["k1"]), float(settings["b"]), float(settings["delta"])
        self._documents = int(stats["documents"])
        self._recent = threading.local()  # per thread: its own last searches' documents
        # Every chunk's length, read whole by each search (half a millisecond for 20,000 chunks):
        # kept with what it was read under, the store's generation and statistics, which every
        # index run that changes a chunk moves.
        self._lengths: tuple[tuple[object, ...], array] | None = None

    analyzer = property(lambda self: self._analyzer, doc="The analyzer the chunks were indexed with.")

    def _db(self) -> sqlite3.Connection:
        if self._connection is None:
            self._connection = self._connect()
        return self._connection

    def search(self, query: str, k: int = 10, *, corpus_ids: Sequence[str] | None = None,
               where: Mapping[str, Any] | None = None) -> list[SearchHit]:
        """Return the ``k`` best chunks for ``query`` (as ``BM25Index.search``).

        Args:
            query: Query text; a repeated term counts that many times.
            k: Most hits (>= 1).
            corpus_ids: Only chunks of these corpora.
            where: Only chunks whose metadata equals these values (a list value: any of).

        Returns:
            Hits by score descending, ties by chunk id ascending.

        Raises:
            InvalidInputError: ``query`` not a string, ``k`` not an int >= 1, or a bad filter.
            StoreError: The database cannot be read.
        """
        if not isinstance(query, str):
            raise InvalidInputError(f"query must be a string, got {type(query).__name__}", stage=_STAGE)
        if type(k) is not int or k < 1:
            require_int(k, "k", minimum=1, stage=_STAGE)
        doc_filter = None if corpus_ids is None and where is None else DocumentFilter(corpus_ids, where)
        analysed = self._analyzer.analyze(query)
        query_tfs: dict[str, int] = dict.fromkeys(analysed, 1)
        if len(query_tfs) < len(analysed):
            query_tfs = Counter(analysed)
        if not query_tfs:
            return []
        with self._lock:
            db = self._db()
            try:
                db.execute("BEGIN")  # one snapshot: statistics, postings and rows agree
                try:
                    return self._search(db, query_tfs, k, doc_filter)
                finally:
                    db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise StoreError(f"cannot read the store's BM25 postings: {exc}", stage="store") from exc

    def _search(self, db: sqlite3.Connection, query_tfs: Mapping[str, int], k: int, doc_filter: DocumentFilter | None) -> list[SearchHit]:
        stats = read_stats(db)
        if stats is None:
            raise StoreError("the store's BM25 postings are gone (rebuilt by an older version?); run index again", stage="store")
        count = int(stats["documents"])
        self._documents = count
        rows = []
        for term, qtf in query_tfs.items():
            row = db.execute("SELECT df, docs, tfs, shortest FROM bm25_postings WHERE term = ?", (term,)).fetchone()
            if row is not None:
                rows.append((term, qtf, row))
        if not rows or not count:
            return []
        avgdl = stats["total_length"] / count
        floor = 0.0
        if self._variant.floors_negative_idf:
            floor = robertson_idf_floor([r[0] for r in db.execute("SELECT df FROM bm25_postings")], count)
        terms = [self._term(term, qtf, row, count, avgdl, floor) for term, qtf, row in rows]
        allowed = None
        if doc_filter is not None and not doc_filter.is_empty:
            allowed = self._allowed(db, stats, doc_filter, [t[0].docs for t in terms])
            if allowed is not None and not allowed:
                return []
        lengths = self._lengths_of(db, stats)
        negative = any(t[2] < 0.0 for t in terms)
        if negative:
            # A negative idf (a variant without a floor): impacts fall with frequency, so the
            # shortest pairs bound nothing; every posting's impact is computed, nothing pruned.
            _exact_bounds([t[0] for t in terms], lengths, _norm(self, avgdl))
        terms.sort(key=lambda t: (-t[0].bound, t[1]))  # the in-memory engine's summation order
        ranked = rank_stored([t[0] for t in terms], k, lengths, _norm(self, avgdl), _RowIds(db), allowed=allowed, prune=not negative)
        return self._hits(db, ranked)

    def _lengths_of(self, db: sqlite3.Connection, stats: Mapping[str, Any]) -> array:
        """Every chunk's length (see :func:`_lengths`), read again only when the store's generation
        or statistics changed since the last search (called inside the search's read snapshot)."""
        row = db.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        key = (row[0] if row else None, stats["documents"], stats["total_length"], stats.get("rowid_sum"))
        kept = self._lengths
        if kept is None or kept[0] != key:
            kept = self._lengths = (key, _lengths(db))
        return kept[1]

    def _term(self, term: str, qtf: int, row: tuple[int, bytes, bytes, bytes], count: int, avgdl: float, floor: float) -> tuple[StoredTerm, str, float]:
        """A query term with its largest impact, from its ``shortest`` pairs (see
        :mod:`~agentic_rag._store.stored_rank`); and its idf."""
        df, packed_docs, packed_tfs, packed_shortest = row
        idf = term_idf(self._variant, df, count, floor)
        scale, extra, c0, c1 = impact_parameters(idf, self._variant, k1=self._k1, b=self._b, delta=self._delta, avgdl=avgdl)
        pairs = unpack_numbers(packed_shortest)
        # term_impacts' expression on each (frequency, shortest length) pair: the largest is
        # the largest impact of all the term's postings (impacts rise with the frequency and
        # fall with the length, and rounding keeps that order).
        bound = max(scale * tf / (tf + (c0 + c1 * length)) for tf, length in zip(pairs[::2], pairs[1::2]))
        if extra is not None:
            bound = max(scale * tf / (tf + (c0 + c1 * length)) + extra for tf, length in zip(pairs[::2], pairs[1::2]))
        if qtf != 1:
            bound = bound * float(qtf)
        return StoredTerm(unpack_docs(packed_docs), unpack_numbers(packed_tfs), scale, extra, qtf, bound), term, idf

    def _allowed(self, db: sqlite3.Connection, stats: Mapping[str, Any], doc_filter: DocumentFilter, union: list[Sequence[int]]) -> Any:
        """What ``doc_filter`` keeps: ``None`` when it keeps every chunk, else an object that
        answers ``number in allowed`` (and is false when nothing can be kept)."""
        wanted = doc_filter.corpus_ids
        accepted = None
        if wanted is not None:
            accepted = frozenset(n for n, c in enumerate(stats["corpora"]) if c in wanted)
            if not accepted:
                return frozenset()
        if not doc_filter.where:
            if accepted is None or len(accepted) == len(stats["corpora"]):
                return None  # every corpus (ask names them all)
            return _CorpusFilter(_corpora(db), accepted)
        numbers = sorted(set().union(*union))
        if accepted is not None:
            numbers = [n for n in numbers if n in _CorpusFilter(_corpora(db), accepted)]
        if [key for key, _ in doc_filter.where] == ["path"]:
            # A filter by file (the version rule's) reads the named files' rowids through the
            # path index: making a Document of every chunk a common word is in took seconds.
            return frozenset(_path_rowids(db, doc_filter.where[0][1])).intersection(numbers)
        kept = []
        for start in range(0, len(numbers), 500):  # SQLite's parameter limit
            part = numbers[start:start + 500]
            marks = ", ".join("?" * len(part))
            kept.extend(n for n, d in chunk_documents(db, f"WHERE rowid IN ({marks})", part) if doc_filter.accepts(d))
        return frozenset(kept)

    def _hits(self, db: sqlite3.Connection, ranked: list[tuple[int, float]]) -> list[SearchHit]:
        if not ranked:
            return []
        numbers = [n for n, _ in ranked]
        found = {row[0]: row for row in chunk_rows(db, f"WHERE rowid IN ({', '.join('?' * len(numbers))})", numbers)}
        recent = getattr(self._recent, "rows", None)
        if recent is None or len(recent) + len(found) > _RECENT:
            recent = self._recent.rows = {}
        hits = []
        for number, score in ranked:
            row = found[number]
            recent[row[1]] = row
            hits.append(SearchHit(row[1], score, row[3]))
        return hits

    def row(self, document_id: str) -> ChunkRecord:
        """The raw chunk row of ``document_id`` (a recent hit's as it was found), for callers
        that need its fields, not a :class:`Document`.

        Raises:
            InvalidInputError: No such chunk.
        """
        recent = getattr(self._recent, "rows", None) or {}
        found = recent.get(document_id) if isinstance(document_id, str) else None
        if found is None and isinstance(document_id, str):
            with self._lock:
                found = next(chunk_rows(self._db(), "WHERE id = ?", (document_id,)), None)
        if found is None:
            raise InvalidInputError(f"unknown document id {document_id!r}", stage=_STAGE)
        return found

    def get(self, document_id: str) -> Document:
        """The stored chunk with ``document_id`` (a recent hit's as it was found).

        Raises:
            InvalidInputError: No such chunk.
        """
        return row_document(self.row(document_id))

    def versioned_forms(self, term: str) -> tuple[str, ...]:
        """The stored terms that are ``term`` with a version run after it (``gplv2`` for
        ``gpl``), sorted; read as one range of the term index."""
        if not isinstance(term, str) or not term:
            return ()
        with self._lock:
            rows = self._db().execute("SELECT term FROM bm25_postings WHERE term > ? AND term < ? ORDER BY term LIMIT 1000",
                                      (term, term + "\U0010ffff")).fetchall()
        return tuple(t for (t,) in rows if t.startswith(term) and is_version_tail(t[len(term):]))

    def document_frequency(self, term: str) -> int:
        """How many chunks hold the analysed ``term`` (0 for an unknown term or a non-string)."""
        if not isinstance(term, str):
            return 0
        with self._lock:
            row = self._db().execute("SELECT df FROM bm25_postings WHERE term = ?", (term,)).fetchone()
        return int(row[0]) if row else 0

    def __len__(self) -> int:
        return self._documents

    def __contains__(self, document_id: object) -> bool:
        try:
            self.get(document_id)  # type: ignore[arg-type]
        except InvalidInputError:
            return False
        return True

    def __repr__(self) -> str:
        return f"StoredBM25Index({self._documents} chunks, variant={self._variant.name!r}, k1={self._k1}, b={self._b})"


class _CorpusFilter:
    """``number in filter``: whether chunk ``number`` is in one of the accepted corpora."""

    __slots__ = ("_accepted", "_corpora")

    def __init__(self, corpora: array, accepted: frozenset[int]) -> None:
        self._corpora, self._accepted = corpora, accepted

    def __contains__(self, number: object) -> bool:
        return isinstance(number, int) and 0 <= number < len(self._corpora) and self._corpora[number] in self._accepted

    def __bool__(self) -> bool:
        return True


def _exact_bounds(terms: list[StoredTerm], lengths: Sequence[int], norm: tuple[float, float]) -> None:
    """Give each term its largest impact over every posting (term_impacts' expression)."""
    c0, c1 = norm
    for term in terms:
        scale, extra = term.scale, term.extra
        if extra is not None:
            top = max(scale * tf / (tf + (c0 + c1 * lengths[d])) + extra for d, tf in zip(term.docs, term.tfs))
        else:
            top = max(scale * tf / (tf + (c0 + c1 * lengths[d])) for d, tf in zip(term.docs, term.tfs))
        term.bound = top * float(term.weight) if term.weight != 1 else top


def _norm(index: StoredBM25Index, avgdl: float) -> tuple[float, float]:
    """``(c0, c1)`` of ``impact_parameters``: a chunk's length normalisation is ``c0 + c1 * length``."""
    return impact_parameters(0.0, index._variant, k1=index._k1, b=index._b, delta=index._delta, avgdl=avgdl)[2:]


class _RowIds:
    """Chunk ids by rowid, looked up when the ranking breaks a tie (a few per search)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._ids: dict[int, str] = {}

    def __getitem__(self, rowid: int) -> str:
        found = self._ids.get(rowid)
        if found is None:
            found = self._ids[rowid] = self._db.execute("SELECT id FROM chunks WHERE rowid = ?", (rowid,)).fetchone()[0]
        return found


def _path_rowids(db: sqlite3.Connection, paths: Any) -> Iterator[int]:
    """The rowids of the chunks of ``paths`` (one path, or a frozenset of them: a filter's
    normalised value)."""
    # A chunk's path is a string: any other value matches no chunk (and is not sorted with them).
    wanted = sorted(path for path in (paths if isinstance(paths, frozenset) else (paths,)) if isinstance(path, str))
    for start in range(0, len(wanted), 500):  # SQLite's parameter limit
        part = wanted[start:start + 500]
        for (rowid,) in db.execute(f"SELECT rowid FROM chunks WHERE path IN ({', '.join('?' * len(part))})", part):
            yield rowid


def _lengths(db: sqlite3.Connection) -> array:
    """Every rowid's length, from the packed blocks (0 where no chunk is)."""
    return _blocks(db, "lengths", 0)


def _corpora(db: sqlite3.Connection) -> array:
    return _blocks(db, "corpora", HOLE)


def _blocks(db: sqlite3.Connection, column: str, hole: int) -> array:
    out = array("I")
    for block, blob in db.execute(f"SELECT block, {column} FROM bm25_blocks ORDER BY block"):
        start = block * BLOCK
        if len(out) < start:
            out.extend(repeat(hole, start - len(out)))
        values = unpack_numbers(blob)
        if values.typecode == out.typecode:
            out.extend(values)
        else:
            out.extend(array("I", values))
    return out
