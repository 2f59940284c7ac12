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
from collections.abc import Callable, Mapping, Sequence
from heapq import nlargest
from itertools import compress, repeat
from operator import mul
from typing import Any

from agentic_rag._contracts import Document
from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import InvalidInputError, StoreError
from agentic_rag._retrieval.bm25_scoring import BM25_VARIANTS, robertson_idf_floor, term_idf, term_impacts
from agentic_rag._retrieval.bm25_topk import QueryTerm, rank_postings
from agentic_rag._retrieval.hits import DocumentFilter, SearchHit
from agentic_rag._store.postings import BLOCK, read_stats, unpack_docs, unpack_numbers
from agentic_rag._store.rows import chunk_documents
from agentic_rag._text.analyzer import Analyzer

__all__ = ["StoredBM25Index"]

_STAGE = "bm25"
# How many of each term's largest impacts the pruning's theta bound uses (as the in-memory engine).
_TOP_IMPACTS = 32
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
            row = db.execute("SELECT df, docs, tfs FROM bm25_postings WHERE term = ?", (term,)).fetchone()
            if row is not None:
                rows.append((term, qtf, row))
        if not rows or not count:
            return []
        terms, prune, union = self._terms(db, stats, rows)
        allowed = None
        if doc_filter is not None and not doc_filter.is_empty:
            allowed = self._allowed(db, stats, doc_filter, union)
            if not allowed:
                return []
        ranked = rank_postings(terms, k, _RowIds(db), allowed=allowed, prune=prune)
        return self._hits(db, ranked)

    def _terms(self, db: sqlite3.Connection, stats: Mapping[str, Any], rows: list[tuple[str, int, tuple[int, bytes, bytes]]]) -> tuple[list[QueryTerm], bool, list[list[int]]]:
        """The query's terms in the exact pass's order (bound descending, then term)."""
        count = int(stats["documents"])
        avgdl = stats["total_length"] / count
        lengths = _lengths(db)
        variant = self._variant
        floor = 0.0
        if variant.floors_negative_idf:
            floor = robertson_idf_floor([r[0] for r in db.execute("SELECT df FROM bm25_postings")], count)
        found = []
        prune = True
        union = []
        for term, qtf, (df, packed_docs, packed_tfs) in rows:
            docs = unpack_docs(packed_docs)
            idf = term_idf(variant, df, count, floor)
            impacts = term_impacts(docs, unpack_numbers(packed_tfs), lengths, idf=idf, variant=variant, k1=self._k1, b=self._b,
                                   delta=self._delta, avgdl=avgdl)
            tops = tuple(nlargest(_TOP_IMPACTS, impacts))
            if qtf == 1:
                query_term = QueryTerm(tops[0], docs, impacts, tops)
            else:
                scale = float(qtf)
                query_term = QueryTerm(tops[0] * scale, docs, array("d", map(mul, impacts, repeat(scale))), tuple(map(mul, tops, repeat(scale))))
            prune = prune and idf >= 0.0
            found.append((-query_term.bound, term, query_term))
            union.append(docs)
        found.sort(key=lambda f: (f[0], f[1]))
        return [f[2] for f in found], prune, union

    def _allowed(self, db: sqlite3.Connection, stats: Mapping[str, Any], doc_filter: DocumentFilter, union: list[list[int]]) -> frozenset[int]:
        """The rowids among the query's postings that ``doc_filter`` keeps."""
        numbers = sorted(set().union(*union))
        wanted = doc_filter.corpus_ids
        if wanted is not None:
            accepted = frozenset(n for n, c in enumerate(stats["corpora"]) if c in wanted)
            corpora = _corpora(db)
            numbers = list(compress(numbers, (corpora[n] in accepted if n < len(corpora) else False for n in numbers)))
        if not doc_filter.where:
            return frozenset(numbers)
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
        found = dict(chunk_documents(db, f"WHERE rowid IN ({', '.join('?' * len(numbers))})", numbers))
        recent = getattr(self._recent, "documents", None)
        if recent is None or len(recent) + len(found) > _RECENT:
            recent = self._recent.documents = {}
        hits = []
        for number, score in ranked:
            document = found[number]
            recent[document.id] = document
            hits.append(SearchHit(document.id, score, document.corpus_id))
        return hits

    def get(self, document_id: str) -> Document:
        """The stored chunk with ``document_id`` (a recent hit's as it was found).

        Raises:
            InvalidInputError: No such chunk.
        """
        recent = getattr(self._recent, "documents", None) or {}
        document = recent.get(document_id) if isinstance(document_id, str) else None
        if document is None and isinstance(document_id, str):
            with self._lock:
                found = list(chunk_documents(self._db(), "WHERE id = ?", (document_id,)))
            document = found[0][1] if found else None
        if document is None:
            raise InvalidInputError(f"unknown document id {document_id!r}", stage=_STAGE)
        return document

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


def _lengths(db: sqlite3.Connection) -> array:
    """Every rowid's length, from the packed blocks (0 where no chunk is)."""
    return _blocks(db, "lengths", 0)


def _corpora(db: sqlite3.Connection) -> array:
    return _blocks(db, "corpora", -1)


def _blocks(db: sqlite3.Connection, column: str, hole: int) -> array:
    out = array("l")
    for block, blob in db.execute(f"SELECT block, {column} FROM bm25_blocks ORDER BY block"):
        start = block * BLOCK
        if len(out) < start:
            out.extend(repeat(hole, start - len(out)))
        out.extend(unpack_numbers(blob).tolist())
    return out
