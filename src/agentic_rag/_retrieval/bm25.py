"""The in-memory BM25 index (standard library only).

Design, in short:

- **Storage** (:mod:`~agentic_rag._retrieval.bm25_postings`): per-term sorted ``array('i')``
  document numbers and ``array('d')`` title-weighted term frequencies; documents are numbered
  internally and mapped to their string ids. No Python object per posting.
- **Updates**: ``add``/``remove``/``update`` change only the postings of the documents'
  terms and the integer length totals; nothing is rebuilt. Impacts (the score contribution
  of each posting) depend on ``N`` and the mean length, which every write changes, so they
  live in a per-generation :class:`~agentic_rag._retrieval.bm25_derived.DerivedCache` that a
  write replaces in O(1) and searches fill lazily, per query term; an ``add`` that at least
  doubles the index (a bulk load) and ``load`` precompute it in one pass.
- **Search**: a quantised candidate pass (:mod:`~agentic_rag._retrieval.bm25_quantised`:
  scores summed as 16-bit lanes of big integers, in C) whose few candidates are rescored
  exactly; queries it does not suit, filtered searches and ``quantised=False`` use
  term-at-a-time accumulation with MaxScore pruning
  (:mod:`~agentic_rag._retrieval.bm25_topk`). Every path returns the exhaustive pass's
  hits and scores, ties by document id.
- **Threads**: a writer-preferring readers-writer lock (:mod:`~agentic_rag._retrieval.bm25_locking`);
  any number of searches run together, writes run alone. Query analysis runs outside it.
- **Persistence** (:mod:`~agentic_rag._retrieval.bm25_storage`): the shared index-file format.
"""

from __future__ import annotations

import math
import os
import threading
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from agentic_rag._contracts.corpus import Document
from agentic_rag._contracts.validation import require_int, require_number
from agentic_rag._errors import IndexFormatError, InvalidInputError
from agentic_rag._text.version_tails import is_version_tail
from agentic_rag._retrieval.bm25_derived import DerivedCache
from agentic_rag._retrieval.bm25_locking import ReadWriteLock
from agentic_rag._retrieval.bm25_postings import AnalysedDocument, PostingStore, analyse_document
from agentic_rag._retrieval.bm25_quantised import rank_quantised
from agentic_rag._retrieval.bm25_scoring import BM25_VARIANTS
from agentic_rag._retrieval.bm25_storage import BM25Snapshot, read_snapshot, write_snapshot
from agentic_rag._retrieval.bm25_topk import rank_postings
from agentic_rag._retrieval.hits import DocumentFilter, SearchHit, document_batch, ranked_hits
from agentic_rag._text.analyzer import Analyzer

__all__ = ["BM25Index"]

_STAGE = "bm25"
# Documents analysed and applied per write-lock hold (bounds memory and reader stalls).
_CHUNK = 4096


def _number(value: object, name: str, low: float, high: float = math.inf) -> float:
    return require_number(value, name, minimum=low, maximum=None if high == math.inf else high, stage=_STAGE)


class BM25Index:
    """A BM25 inverted index over :class:`Document` objects, searchable from many threads.

    Args:
        analyzer: Turns text into terms (default ``Analyzer()``: English stop words, Snowball).
        variant: Scoring formula, a key of
            :data:`~agentic_rag._retrieval.bm25_scoring.BM25_VARIANTS` (``"lucene"``,
            ``"robertson"``/``"okapi"``, ``"bm25+"``, ``"atire"``; formulas documented there).
        k1: Term-frequency saturation, >= 0.
        b: Length normalisation, in [0, 1].
        delta: BM25+ lower bound for a matching term, >= 0 (other variants ignore it).
        title_weight: Multiplier of the title's term frequencies, >= 0; document lengths
            count the weighted title terms, 0 ignores titles.

    Raises:
        InvalidInputError: An unknown variant, an analyzer that is not an ``Analyzer``, or a
            parameter out of range.
    """

    def __init__(
        self,
        *,
        analyzer: Analyzer | None = None,
        variant: str = "lucene",
        k1: float = 0.9,
        b: float = 0.4,
        delta: float = 1.0,
        title_weight: float = 1.0,
    ) -> None:
        if analyzer is not None and not isinstance(analyzer, Analyzer):
            raise InvalidInputError(f"analyzer must be an Analyzer or None, got {type(analyzer).__name__}", stage=_STAGE)
        if variant not in BM25_VARIANTS:
            raise InvalidInputError(f"unknown BM25 variant {variant!r}; expected one of {sorted(BM25_VARIANTS)}", stage=_STAGE)
        self._analyzer = analyzer if analyzer is not None else Analyzer()
        self._variant = BM25_VARIANTS[variant]
        self._k1 = _number(k1, "k1", 0.0)
        self._b = _number(b, "b", 0.0, 1.0)
        self._delta = _number(delta, "delta", 0.0)
        self._title_weight = _number(title_weight, "title_weight", 0.0)
        self._lock = ReadWriteLock()
        self._writer = threading.Lock()  # one add/remove/update at a time, across its chunks
        self._store = PostingStore(self._title_weight)
        self._written()

    @classmethod
    def from_documents(cls, documents: Iterable[Document], **settings: Any) -> BM25Index:
        """Build an index over ``documents``; ``settings`` are the constructor's arguments.

        Raises:
            InvalidInputError: Bad settings, a non-Document item or duplicate ids.
        """
        index = cls(**settings)
        index.add(documents)
        return index

    analyzer = property(lambda self: self._analyzer, doc="The analyzer (read-only).")
    variant = property(lambda self: self._variant.name, doc="The scoring variant's name.")
    k1 = property(lambda self: self._k1, doc="Term-frequency saturation.")
    b = property(lambda self: self._b, doc="Length normalisation.")
    delta = property(lambda self: self._delta, doc="BM25+ lower bound.")
    title_weight = property(lambda self: self._title_weight, doc="Title term-frequency multiplier.")

    # -- writes -------------------------------------------------------------------------

    def add(self, documents: Iterable[Document]) -> None:
        """Index new documents.

        Documents are analysed in chunks outside the lock searches wait on, so searches go on
        during a long ``add`` and see the batch appear chunk by chunk (every state they see
        is consistent); memory holds one analysed chunk at a time.

        Args:
            documents: Documents whose ids are not in the index yet.

        Raises:
            InvalidInputError: A non-Document item, an id repeated in ``documents`` or
                already indexed (use :meth:`update` to replace). Nothing is added then.
        """
        batch = self._checked(documents, "add")
        with self._writer:
            present = sorted(d.id for d in batch if d.id in self._store.numbers)
            if present:
                raise InvalidInputError(f"documents already indexed: {_names(present)}; use update() to replace them", stage=_STAGE)
            bulk = len(batch) >= max(1, len(self._store.numbers))
            for start in range(0, len(batch), _CHUNK):
                entries = [self._analyse(d) for d in batch[start:start + _CHUNK]]
                self._apply((), entries)
            if bulk:
                self._warm()

    def remove(self, document_ids: Iterable[str]) -> None:
        """Remove documents by id.

        Raises:
            InvalidInputError: ``document_ids`` is a bare string or names unknown ids
                (nothing is removed then).
        """
        if isinstance(document_ids, str):
            raise InvalidInputError(f"document_ids must be a collection of ids, not the string {document_ids!r}", stage=_STAGE)
        wanted = list(dict.fromkeys(document_ids))
        with self._writer:
            unknown = sorted({str(i) for i in wanted if i not in self._store.numbers})
            if unknown:
                raise InvalidInputError(f"cannot remove unknown document ids: {_names(unknown)}", stage=_STAGE)
            for start in range(0, len(wanted), _CHUNK):
                self._apply(self._stored(wanted[start:start + _CHUNK]), ())

    def update(self, documents: Iterable[Document]) -> None:
        """Replace indexed documents by new versions with the same ids.

        Raises:
            InvalidInputError: A non-Document item, a repeated id, or an id not indexed
                (nothing changes then; use :meth:`add` for new documents).
        """
        batch = self._checked(documents, "update")
        with self._writer:
            unknown = sorted(d.id for d in batch if d.id not in self._store.numbers)
            if unknown:
                raise InvalidInputError(f"cannot update documents that are not indexed: {_names(unknown)}; use add()", stage=_STAGE)
            for start in range(0, len(batch), _CHUNK):
                chunk = batch[start:start + _CHUNK]
                self._apply(self._stored([d.id for d in chunk]), [self._analyse(d) for d in chunk])

    def _stored(self, document_ids: list[str]) -> list[tuple[int, AnalysedDocument]]:
        # Only writers change the store and the caller holds the writer mutex, so reading it
        # here, outside the readers-writer lock, is safe.
        store = self._store
        numbers = [store.numbers[i] for i in document_ids]
        return [(n, self._analyse(store.docs[n])) for n in numbers]  # type: ignore[arg-type]

    def _apply(self, removals: Iterable[tuple[int, AnalysedDocument]], additions: Iterable[AnalysedDocument]) -> None:
        self._lock.acquire_write()
        try:
            for number, (_, tfs, text_n, title_n) in removals:
                self._store.delete(number, tfs, text_n, title_n)
            self._store.insert(additions)
            self._store.maybe_compact()
            self._written()
        finally:
            self._lock.release_write()

    def _analyse(self, document: Document) -> AnalysedDocument:
        return (document, *analyse_document(self._analyzer.analyze, self._title_weight, document.text, document.title))

    def _checked(self, documents: Iterable[Document], action: str) -> list[Document]:
        return document_batch(documents, action, _STAGE)

    def _written(self) -> None:
        # Called with the write lock held (or before the index is shared): the statistics
        # changed, so a fresh generation of derived caches replaces the old one.
        self._cache = DerivedCache(self._store, self._variant, k1=self._k1, b=self._b, delta=self._delta)

    def _warm(self) -> None:
        self._lock.acquire_read()
        try:
            self._cache.warm()
        finally:
            self._lock.release_read()

    # -- reads --------------------------------------------------------------------------

    def search(
        self,
        query: str,
        k: int = 10,
        *,
        corpus_ids: Sequence[str] | None = None,
        where: Mapping[str, Any] | None = None,
        exhaustive: bool = False,
        quantised: bool = True,
    ) -> list[SearchHit]:
        """Return the ``k`` best documents for ``query``.

        Args:
            query: Query text, analysed like the documents; a repeated term counts that
                many times. Empty or stop-word-only queries return ``[]``.
            k: Most hits to return (>= 1); fewer when fewer documents match.
            corpus_ids: Only documents of these corpora.
            where: Only documents whose metadata equals these values (a list value: any of).
            exhaustive: Score every matching document instead of pruning (same results;
                for testing and benchmarking the pruning).
            quantised: Use the quantised candidate pass where it applies; ``False`` runs
                the exact MaxScore pass (same results; for testing and benchmarking).

        Returns:
            Hits by score descending, ties by document id ascending.

        Raises:
            InvalidInputError: ``query`` not a string, ``k`` not an int >= 1, or a bad filter.
        """
        if not isinstance(query, str):
            raise InvalidInputError(f"query must be a string, got {type(query).__name__}", stage=_STAGE)
        if type(k) is not int or k < 1:  # the check alone: require_int formats its message up front
            require_int(k, "k", minimum=1, stage=_STAGE)
        doc_filter = None if corpus_ids is None and where is None else DocumentFilter(corpus_ids, where)
        analysed = self._analyzer.analyze(query)
        query_tfs: dict[str, int] = dict.fromkeys(analysed, 1)
        if len(query_tfs) < len(analysed):  # a repeated term (most queries have none)
            query_tfs = Counter(analysed)
        if not query_tfs:
            return []
        self._lock.acquire_read()
        try:
            store, cache = self._store, self._cache
            allowed = None if doc_filter is None or doc_filter.is_empty else cache.allowed(doc_filter)
            if allowed is not None and not allowed:
                return []
            ranked = None
            if quantised and not exhaustive and allowed is None:
                quantised_terms = cache.quantised_terms(query_tfs)
                if quantised_terms is not None:
                    ranked = rank_quantised(quantised_terms, k, store.ids, store.lengths, cache.norm, cache.inverse_step())
            if ranked is None:
                terms, prune = cache.query_terms(query_tfs, prune=not exhaustive)
                if not terms:
                    return []
                ranked = rank_postings(terms, k, store.ids, allowed=allowed, prune=prune)
            return ranked_hits(ranked, store.ids, store.docs)
        finally:
            self._lock.release_read()

    def get(self, document_id: str) -> Document:
        """Return the indexed document with ``document_id``.

        Raises:
            InvalidInputError: No such document.
        """
        self._lock.acquire_read()  # a compaction may renumber documents meanwhile
        try:
            store = self._store
            number = store.numbers.get(document_id) if isinstance(document_id, str) else None
            document = store.docs[number] if number is not None else None
        finally:
            self._lock.release_read()
        if document is None:
            raise InvalidInputError(f"unknown document id {document_id!r}", stage=_STAGE)
        return document

    def document_ids(self) -> list[str]:
        """Every indexed document id, sorted."""
        self._lock.acquire_read()
        try:
            return sorted(self._store.numbers)
        finally:
            self._lock.release_read()

    def versioned_forms(self, term: str) -> tuple[str, ...]:
        """The indexed terms that are ``term`` with a version run after it (``gplv2``,
        ``http2`` for ``gpl``, ``http``), sorted: the same name in a versioned form."""
        if not isinstance(term, str) or not term:
            return ()
        self._lock.acquire_read()
        try:
            return tuple(sorted(t for t in self._store.vocab if t.startswith(term) and is_version_tail(t[len(term):])))
        finally:
            self._lock.release_read()

    def document_frequency(self, term: str) -> int:
        """How many indexed documents hold the analysed ``term`` (0 for an unknown term or a
        non-string); for weighting question terms by how informative they are here."""
        self._lock.acquire_read()
        try:
            tid = self._store.vocab.get(term) if isinstance(term, str) else None
            return 0 if tid is None else len(self._store.docs_of[tid])
        finally:
            self._lock.release_read()

    def __len__(self) -> int:
        return self._store.live

    def __contains__(self, document_id: object) -> bool:
        return isinstance(document_id, str) and document_id in self._store.numbers

    def __repr__(self) -> str:
        return (f"BM25Index({len(self)} documents, {len(self._store.vocab)} terms, variant={self.variant!r}, "
                f"k1={self._k1}, b={self._b}, title_weight={self._title_weight})")

    # -- persistence --------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the index to ``path`` atomically (see :mod:`~agentic_rag._retrieval.bm25_storage`)."""
        self._lock.acquire_read()
        try:
            parts = self._store.snapshot_parts()
        finally:
            self._lock.release_read()
        write_snapshot(path, BM25Snapshot(self._analyzer, self._variant.name, self._k1, self._b, self._delta, self._title_weight, *parts))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> BM25Index:
        """Read an index saved by :meth:`save`.

        Raises:
            IndexFormatError: Missing, truncated, corrupted, future or inconsistent file.
        """
        snapshot = read_snapshot(path)
        try:
            index = cls(analyzer=snapshot.analyzer, variant=snapshot.variant, k1=snapshot.k1, b=snapshot.b,
                        delta=snapshot.delta, title_weight=snapshot.title_weight)
        except InvalidInputError as exc:
            raise IndexFormatError(f"{os.fspath(path)!r} holds invalid BM25 settings: {exc.message}", stage="load") from exc
        index._store = PostingStore.from_snapshot(snapshot)
        index._written()
        index._warm()
        return index


def _names(ids: list[str], limit: int = 10) -> str:
    shown = ", ".join(repr(i) for i in ids[:limit])
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")
