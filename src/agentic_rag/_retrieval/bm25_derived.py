"""What a BM25 index derives from its postings between two writes, computed lazily.

A write changes ``N``, the mean length and document frequencies, so the index replaces its
:class:`DerivedCache` by a fresh one on every write (O(1)); searches fill it as they go:

- **levels**: per term, its postings' impacts quantised to ``1..LEVELS``
  (``array('H')``, 2 bytes a posting) for the quantised pass
  (:mod:`~agentic_rag._retrieval.bm25_quantised`), with the exact largest impact (the term's
  bound, which orders the terms); and the **dense lanes** of frequent terms, within a byte
  budget, with their **dense frequencies** (one byte per document, for the exact
  rescoring) built on a term's first search within a quarter of that budget; rare terms'
  **frequency dicts** ``{doc: tf}`` (for the same rescoring), within a share of the
  postings; and per analysed term its **entry** (sort key, unit, posting count), so a
  search skips the vocabulary and unit look-ups;
- **impacts**: per term, the score contribution of each posting (``array('d')``) and its
  largest values (the pruning bounds), for the exact pass, computed in one pass on first use;
- **lookup dicts** ``{doc: impact}`` of terms merged whole by a search (merging and probing
  dicts beats arrays), within a posting budget, starting over when it is exceeded;
- **presence maps** (bitmap + rank counts) of long lists probed for a few candidates;
- **filter sets**: document numbers a ``corpus_ids``/``where`` filter accepts.

Several searches may fill it at once: each entry is one dict store of a value any reader
would compute identically, so a race costs at most duplicated work.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Mapping
from functools import partial
from heapq import nlargest
from itertools import repeat
from operator import mul
from typing import Any

from agentic_rag._retrieval.bm25_postings import PostingStore
from agentic_rag._retrieval.bm25_quantised import LANE_OFFSET, QuantisedTerm, dense_lanes, dense_tfs, lanes_usable, level_lift, quantise
from agentic_rag._retrieval.bm25_quantised import LEVELS as _LEVELS
from agentic_rag._retrieval.bm25_scoring import (
    BM25Variant, impact_parameters, largest_impact, robertson_idf_floor, term_idf, term_impacts,
)
from agentic_rag._retrieval.bm25_topk import QueryTerm
from agentic_rag._retrieval.hits import DocumentFilter

__all__ = ["DerivedCache"]

# Postings whose {doc: impact} dicts may be cached at once (~100 bytes each); beyond it the
# dict cache starts over. Impact arrays (8 bytes a posting; the exact pass's) are always cached.
_LOOKUP_BUDGET = 4_000_000
# Terms with fewer postings are left to lazy computation by warm() (cheap on first use, and
# the many rare terms would make the warm-up pass slow).
_WARM_MIN_POSTINGS = 8
# How many of each term's largest impacts are kept for the pruning's cheap theta bound.
_TOP_IMPACTS = 32
_MAX_CACHED_FILTERS = 256
# (upper bound, has negative impacts, doc numbers, impacts, largest impacts)
_Impacts = tuple[float, bool, array, array, tuple[float, ...]]
# (upper bound, levels, largest level, scale, extra): see bm25_quantised.QuantisedTerm
_Levels = tuple[float, array, int, float, "float | None"]
# A term gets dense lanes (2 bytes per document) once it is in 1/_DENSE_DIVISOR of the
# documents: adding them is then cheaper than adding its postings one by one.
_DENSE_DIVISOR = 64
# Past the budget, a search builds dense lanes for itself for terms in 1/_UNCACHED_DENSE_DIVISOR
# of the documents (building them costs about what adding their postings one by one does
# for rarer terms).
_UNCACHED_DENSE_DIVISOR = 32
# Dense lanes kept at once: this many bytes per posting of the index, or _DENSE_FLOOR bytes
# if more; past it they are built per query and dropped.
_DENSE_BYTES_PER_POSTING = 12
_DENSE_FLOOR = 16 << 20
# Rare terms' {doc: frequency} dicts hold at most 1/_TF_DICT_SHARE of the index's postings,
# and never more than _TF_DICT_CAP (~100 bytes each: about 26 MB); only terms with up to
# _TF_DICT_MAX_POSTINGS get one (the rescoring binary-searches longer lists anyway).
_TF_DICT_SHARE = 16
_TF_DICT_CAP = 1 << 18
_TF_DICT_MAX_POSTINGS = 256
# Queries with fewer postings than 1/_SMALL_QUERY_DIVISOR of the documents go to the exact
# pass: its dict merges beat the quantised pass's per-document steps there.
_SMALL_QUERY_DIVISOR = 32


class DerivedCache:
    """Levels, dense lanes, impacts, lookup dicts, presence maps and filter sets of one index generation.

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
        #: ``(c0, c1)``: a document's length normalisation is ``c0 + c1 * length``.
        self.norm: tuple[float, float] = impact_parameters(0.0, variant, k1=k1, b=b, delta=delta, avgdl=self._avgdl)[2:]
        self._idf_floor: float | None = None
        self._inverse_step: float | None = None
        self._levels: dict[int, _Levels | None] = {}
        self._units: dict[int, QuantisedTerm | None] = {}
        # Per analysed term (cached units only): its sort key, unit and posting count, so a
        # search skips the vocabulary and unit look-ups and checks (bounded by the vocabulary).
        self._entries: dict[str, tuple[float, str, int, QuantisedTerm, int]] = {}
        self._dense_budget: int | None = None
        self._tfs_budget: int | None = None
        self._tf_dict_budget: int | None = None
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


    def inverse_step(self) -> float:
        """``1 / step`` of this generation's quantisation (0.0: impacts cannot be quantised)."""
        inverse = self._inverse_step
        if inverse is None:
            top = 0.0
            if self._store.live and lanes_usable:
                top = largest_impact(self._variant, self._store.live, self._floor(), k1=self._k1, delta=self._delta)
            inverse = (_LEVELS - 1) / top if top > 0.0 and math.isfinite(top) else 0.0
            self._inverse_step = inverse
        return inverse

    def quantised_terms(self, query_tfs: Mapping[str, int]) -> list[QuantisedTerm] | None:
        """The query's terms for the quantised pass, in the exact pass's order, or ``None``
        when that pass does not apply (no quantisation, a negative impact, or a query with
        so few postings that the exact pass is cheaper)."""
        if not self.inverse_step():
            return None
        vocab, units, entries = self._store.vocab, self._units, self._entries
        found = []
        postings = 0
        repeated = False
        for term, qtf in query_tfs.items():
            entry = entries.get(term)
            if entry is None:
                tid = vocab.get(term)
                if tid is None:
                    continue
                unit = units.get(tid, False)
                if unit is False:
                    unit = self._quantised_term(tid)
                if unit is None:
                    return None  # a negative impact
                if units.get(tid) is unit:  # a cached term's (a per-search one would not pay them back)
                    if unit.dense_tfs is None and unit.dense is not None:
                        self._add_dense_tfs(unit)
                    elif unit.dense is None and unit.tf_of is None:
                        self._add_tf_dict(unit)
                    entry = entries[term] = (-unit.bound, term, 1, unit, len(unit.docs))
                else:
                    entry = (-unit.bound, term, 1, unit, len(unit.docs))
            if qtf != 1:
                unit = entry[3]
                entry = (-(unit.bound * float(qtf)), term, qtf, unit, entry[4])
                repeated = True
            found.append(entry)
            postings += entry[4]
        if not found or postings * _SMALL_QUERY_DIVISOR < len(self._store.ids):
            return None
        found.sort()  # by bound, then term: terms are distinct, so nothing further is compared
        if not repeated:
            return [entry[3] for entry in found]
        return [unit if qtf == 1 else unit.repeated(qtf) for _, _, qtf, unit, _ in found]

    def _quantised_term(self, tid: int, *, uncached_dense: bool = True) -> QuantisedTerm | None:
        # Racing readers may both build and store the same value: harmless (the budget is
        # a soft bound). Past the budget a search builds dense lanes of very frequent terms
        # for itself only, warm() none.
        entry = self._levels.get(tid, False)
        if entry is False:
            entry = self._compute_levels(tid)
        if entry is None:
            self._units[tid] = None
            return None
        bound, levels, top_level, scale, extra = entry
        store = self._store
        docs, count = store.docs_of[tid], len(store.ids)
        dense = None
        keep = True
        if len(docs) * _DENSE_DIVISOR >= count:
            keep = self._reserve(2 * count)
            if keep or (uncached_dense and len(docs) * _UNCACHED_DENSE_DIVISOR >= count):
                dense = dense_lanes(docs, levels, count, LANE_OFFSET - level_lift())
        unit = QuantisedTerm(1, docs, store.tfs_of[tid], levels, top_level, dense, scale, extra, bound)
        if keep:
            self._units[tid] = unit
        return unit

    def _add_dense_tfs(self, unit: QuantisedTerm) -> None:
        # Built on a term's first search, not by warm() (it would slow every build), within
        # a quarter of the dense lanes' budget (each is half its term's lanes); b"": none.
        # Racing readers may both build it: the same bytes, the budget a soft bound.
        count = len(self._store.ids)
        budget = self._tfs_budget
        if budget is None:
            budget = self._dense_bytes() // 4
        found = dense_tfs(unit.docs, unit.tfs, count) if budget >= count else None
        if found is not None:
            budget -= count
        self._tfs_budget = budget
        unit.dense_tfs = found if found is not None else b""

    def _add_tf_dict(self, unit: QuantisedTerm) -> None:
        # A rare term's {doc: frequency}, for the exact rescoring: probing it for the few
        # candidates beats intersecting them with the postings and binary-searching each.
        # Built on a term's first search, within the budget above; racing readers may both
        # build it (the same dict, a soft bound).
        budget = self._tf_dict_budget
        if budget is None:
            budget = min(sum(map(len, self._store.docs_of)) // _TF_DICT_SHARE, _TF_DICT_CAP)
        if budget >= len(unit.docs) and len(unit.docs) <= _TF_DICT_MAX_POSTINGS:
            unit.tf_of = dict(zip(unit.docs, unit.tfs))
            budget -= len(unit.docs)
        self._tf_dict_budget = budget

    def _dense_bytes(self) -> int:
        return max(_DENSE_FLOOR, _DENSE_BYTES_PER_POSTING * sum(map(len, self._store.docs_of)))

    def _reserve(self, size: int) -> bool:
        """Whether ``size`` more bytes of dense lanes may be cached (and count them if so)."""
        budget = self._dense_budget
        if budget is None:
            budget = self._dense_bytes()
        if budget < size:
            self._dense_budget = budget
            return False
        self._dense_budget = budget - size
        return True

    def _compute_levels(self, tid: int) -> _Levels | None:
        store = self._store
        docs = store.docs_of[tid]
        entry: _Levels | None = None
        if docs:
            idf = term_idf(self._variant, len(docs), store.live, self._floor())
            if idf >= 0.0:  # negative impacts: the exact pass (it does not prune then either)
                impacts = term_impacts(docs, store.tfs_of[tid], store.lengths, idf=idf, variant=self._variant,
                                       k1=self._k1, b=self._b, delta=self._delta, avgdl=self._avgdl)
                lift = level_lift()
                levels = quantise(impacts, self.inverse_step(), lift)
                scale, extra, _, _ = impact_parameters(idf, self._variant, k1=self._k1, b=self._b, delta=self._delta,
                                                       avgdl=self._avgdl)
                entry = (max(impacts), levels, max(levels) >> lift, scale, extra)
        self._levels[tid] = entry
        return entry

    def _floor(self) -> float:
        floor = self._idf_floor
        if floor is None:
            store = self._store
            floor = robertson_idf_floor(list(map(len, store.docs_of)), store.live) if self._variant.floors_negative_idf else 0.0
            self._idf_floor = floor
        return floor

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
        """Precompute the levels of every term with a few postings, and the dense lanes of
        the most frequent terms, so the first searches do not pay for them.

        The index runs this after an ``add`` that at least doubles it (a bulk load) and
        after ``load``: one pass over the postings, so amortised O(1) per posting however
        documents arrive; smaller writes leave everything to lazy computation. The exact
        impacts (8 bytes a posting) and lookup dicts are left to the exact pass, which
        builds those it needs.
        """
        store, cache = self._store, self._levels
        if not self.inverse_step():
            for tid, docs in enumerate(store.docs_of):
                if len(docs) >= _WARM_MIN_POSTINGS and tid not in self._impacts:
                    self._compute_impacts(tid)
            return
        # Most frequent terms first: they get the dense lanes while the budget lasts.
        order = sorted((tid for tid, docs in enumerate(store.docs_of) if len(docs) >= _WARM_MIN_POSTINGS),
                       key=lambda tid: -len(store.docs_of[tid]))
        for tid in order:
            if tid not in self._units:
                self._quantised_term(tid, uncached_dense=False)

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
        idf = term_idf(self._variant, len(docs), store.live, self._floor())
        impacts = term_impacts(docs, store.tfs_of[tid], store.lengths, idf=idf, variant=self._variant,
                               k1=self._k1, b=self._b, delta=self._delta, avgdl=self._avgdl)
        tops = tuple(nlargest(_TOP_IMPACTS, impacts))
        entry = (tops[0], idf < 0.0, docs, impacts, tops)
        self._impacts[tid] = entry
        return entry
