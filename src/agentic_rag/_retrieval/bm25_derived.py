"""What a BM25 index derives from its postings between two writes, computed lazily.

A write changes ``N``, the mean length and document frequencies, so the index replaces its
:class:`DerivedCache` by a fresh one on every write (O(1)); searches fill it as they go:

- **impacts**: per term, the score contribution of each posting (``array('d')``) and its
  largest values (the pruning bounds), computed in one pass on first use;
- **lookup dicts** ``{doc: impact}`` of terms merged whole by a search (merging and probing
  dicts beats arrays), within a posting budget, starting over when it is exceeded;
- **presence maps** (bitmap + rank counts) of long lists probed for a few candidates;
- **filter sets**: document numbers a ``corpus_ids``/``where`` filter accepts.

Several searches may fill it at once: each entry is one dict store of a value any reader
would compute identically, so a race costs at most duplicated work.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from functools import partial
from heapq import nlargest
from itertools import repeat
from operator import mul
from typing import Any

from agentic_rag._retrieval.bm25_postings import PostingStore
from agentic_rag._retrieval.bm25_scoring import BM25Variant, robertson_idf_floor, term_idf, term_impacts
from agentic_rag._retrieval.bm25_topk import QueryTerm
from agentic_rag._retrieval.hits import DocumentFilter

__all__ = ["DerivedCache"]

# Postings whose {doc: impact} dicts may be cached at once (~100 bytes each); beyond it the
# dict cache starts over. Impact arrays (8 bytes a posting) are always cached.
_LOOKUP_BUDGET = 4_000_000
# Terms with fewer postings are left to lazy computation by warm() (cheap on first use, and
# the many rare terms would make the warm-up pass slow).
_WARM_MIN_POSTINGS = 8
# How many of each term's largest impacts are kept for the pruning's cheap theta bound.
_TOP_IMPACTS = 32
_MAX_CACHED_FILTERS = 256
# (upper bound, has negative impacts, doc numbers, impacts, largest impacts)
_Impacts = tuple[float, bool, array, array, tuple[float, ...]]


class DerivedCache:
    """Impacts, lookup dicts, presence maps and filter sets of one index generation.

    Args:
        store: The postings (not changed while this cache is in use).
        variant: Scoring formula.
        k1: Saturation.
        b: Length normalisation.
        delta: BM25+ lower bound.
    """

    def __init__(self, store: PostingStore, variant: BM25Variant, *, k1: float, b: float, delta: float) -> None:
        self._store = store
        self._variant = variant
        self._k1, self._b, self._delta = k1, b, delta
        self._avgdl = store.average_length()
        self._idf_floor: float | None = None
        self._impacts: dict[int, _Impacts] = {}
        self._lookups: dict[int, dict[int, float]] = {}
        self._lookup_size = 0
        self._presences: dict[int, tuple[array, array]] = {}
        self._filters: dict[Any, tuple[frozenset[int] | None]] = {}

    def query_terms(self, query_tfs: Mapping[str, int], *, prune: bool) -> tuple[list[QueryTerm], bool]:
        """The query's terms found in the index, in the order scores are summed.

        Args:
            query_tfs: Analysed query terms and how often each occurs.
            prune: Whether pruning is wanted.

        Returns:
            The terms sorted by upper bound (largest first), then by term, which fixes the
            summation order for every search path; and whether pruning is allowed (not
            when an impact can be negative).
        """
        vocab, cache, lookups, presences = self._store.vocab, self._impacts, self._lookups, self._presences
        found = []
        for term, qtf in query_tfs.items():
            tid = vocab.get(term)
            if tid is None:
                continue
            entry = cache.get(tid)
            if entry is None:
                entry = self._compute_impacts(tid)
                if entry is None:
                    continue
            bound, negative, docs, impacts, tops = entry
            if qtf == 1:
                lookup = lookups.get(tid)
                # With a cached dict nothing else gets built, so no cache hook is needed.
                keep = None if lookup is not None else partial(self._keep, tid, True)
                query_term = QueryTerm(bound, docs, impacts, tops, lookup, presences.get(tid), keep)
            else:
                keep = partial(self._keep, tid, False)
                scale = float(qtf)
                query_term = QueryTerm(bound * scale, docs, array("d", map(mul, impacts, repeat(scale))),
                                       tuple(map(mul, tops, repeat(scale))), None, presences.get(tid), keep)
            prune = prune and not negative
            found.append((-query_term.bound, term, query_term))
        found.sort(key=lambda f: (f[0], f[1]))
        return [f[2] for f in found], prune

    def allowed(self, doc_filter: DocumentFilter) -> frozenset[int] | None:
        """Document numbers ``doc_filter`` accepts (``None``: all), cached per filter."""
        key = (doc_filter.corpus_ids, doc_filter.where)
        try:
            cached = self._filters.get(key)
        except TypeError:  # an unhashable metadata value: compute without caching
            return self._store.filter_numbers(doc_filter)
        if cached is None:
            cached = (self._store.filter_numbers(doc_filter),)
            if len(self._filters) >= _MAX_CACHED_FILTERS:
                self._filters = {}
            self._filters[key] = cached
        return cached[0]

    def warm(self) -> None:
        """Precompute the impacts of every term with a few postings, so the first searches
        do not pay for them.

        The index runs this after an ``add`` that at least doubles it (a bulk load) and
        after ``load``: one pass over the postings, so amortised O(1) per posting however
        documents arrive; smaller writes leave everything to lazy computation. The per-term
        lookup dicts are left to the searches that need them: built eagerly for every term
        they doubled the index's memory and added a fifth to its build time.
        """
        store, cache = self._store, self._impacts
        for tid, docs in enumerate(store.docs_of):
            if len(docs) >= _WARM_MIN_POSTINGS and tid not in cache:
                self._compute_impacts(tid)

    def _keep(self, tid: int, unscaled: bool, term: QueryTerm) -> None:
        # Racing readers may miscount the budget slightly or drop one another's entry: the
        # budget is a soft memory bound and a lost entry is simply rebuilt.
        if term.presence is not None:
            self._presences[tid] = term.presence
        lookup = term.lookup
        if lookup is None or not unscaled or len(lookup) > _LOOKUP_BUDGET // 4 or tid in self._lookups:
            return
        if self._lookup_size + len(lookup) > _LOOKUP_BUDGET:
            self._lookups = {}
            self._lookup_size = 0
        self._lookups[tid] = lookup
        self._lookup_size += len(lookup)

    def _compute_impacts(self, tid: int) -> _Impacts | None:
        store = self._store
        docs = store.docs_of[tid]
        if not docs:
            return None
        floor = self._idf_floor
        if floor is None and self._variant.floors_negative_idf:
            floor = self._idf_floor = robertson_idf_floor(list(map(len, store.docs_of)), store.live)
        idf = term_idf(self._variant, len(docs), store.live, floor or 0.0)
        impacts = term_impacts(docs, store.tfs_of[tid], store.lengths, idf=idf, variant=self._variant,
                               k1=self._k1, b=self._b, delta=self._delta, avgdl=self._avgdl)
        tops = tuple(nlargest(_TOP_IMPACTS, impacts))
        entry = (tops[0], idf < 0.0, docs, impacts, tops)
        self._impacts[tid] = entry
        return entry
