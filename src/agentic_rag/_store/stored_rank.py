"""Exact top-k over postings read from the store, computing impacts only where they are needed.

The in-memory engine keeps every term's impacts between queries; a new process would have to
compute them for every posting of every query term, which grows with the store. Here each
term's largest impact comes from its ``shortest`` pairs (a few per term, see
:mod:`~agentic_rag._store.postings`), so the terms are ordered exactly as the in-memory engine
orders them, and MaxScore decides which terms are merged whole: those (the rare, high-scoring
ones) get the impacts of all their postings; the others are only looked up, by binary search,
for the candidates still able to reach the top k, impact by impact, with the very expression
:func:`~agentic_rag._retrieval.bm25_scoring.term_impacts` uses. Every candidate gets the same
additions in the same term order as in the in-memory engine, so scores and ties are identical.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from heapq import nlargest
from itertools import compress
from operator import add

from agentic_rag._retrieval.bm25_topk import keep_complete

__all__ = ["StoredTerm", "rank_stored"]

# Relative slack on bound comparisons (as the in-memory engine's): far above the rounding error
# of summing a few hundred doubles, far below any real score gap.
_SLACK = 1e-9


class StoredTerm:
    """One query term's postings and what its impacts are computed from.

    Args:
        docs: Sorted document numbers.
        tfs: Frequencies aligned with ``docs``.
        scale: ``impact_parameters``' scale (idf, times ``k1 + 1`` for some variants).
        extra: BM25+'s addition, or ``None``.
        weight: How often the query holds the term (its impacts are multiplied by it when > 1).
        bound: The term's largest impact, times ``weight``.
    """

    __slots__ = ("bound", "docs", "extra", "scale", "tfs", "weight")

    def __init__(self, docs: Sequence[int], tfs: Sequence[float], scale: float, extra: float | None, weight: int, bound: float) -> None:
        self.docs, self.tfs, self.scale, self.extra, self.weight, self.bound = docs, tfs, scale, extra, weight, bound


def rank_stored(terms: Sequence[StoredTerm], k: int, lengths: Sequence[int], norm: tuple[float, float], ids: object, *,
                allowed: frozenset[int] | None = None, prune: bool = True) -> list[tuple[int, float]]:
    """The ``k`` best documents, by score descending then id ascending.

    Args:
        terms: The query's terms in summation order (largest bound first, then by term).
        k: How many (>= 1).
        lengths: Every document's length, by number.
        norm: ``(c0, c1)``: a document's length normalisation is ``c0 + c1 * length``.
        ids: Document id by number (``ids[n]``; the tie-breaker).
        allowed: Only these document numbers (``None``: any).
        prune: MaxScore; ``False`` merges every term whole (impacts must be >= 0 to prune).
    """
    count = len(terms)
    suffix = [0.0] * (count + 1)
    for i in range(count - 1, -1, -1):
        suffix[i] = suffix[i + 1] + terms[i].bound
    slack = _SLACK * (abs(suffix[0]) + 1.0)
    acc: dict[int, float] = {}
    i = 0
    while i < count:
        if prune and len(acc) >= k:
            theta = nlargest(k, acc.values())[-1]
            if suffix[i] + slack < theta:
                acc = _finish(acc, terms[i:], suffix[i:], k, theta, slack, lengths, norm)
                break
        acc = _merge(acc, _impacts(terms[i], lengths, norm, allowed))
        i += 1
    if len(acc) > k:
        theta = nlargest(k, acc.values())[-1]
        numbers = list(compress(acc, map(theta.__le__, acc.values())))
    else:
        numbers = list(acc)
    numbers.sort(key=lambda n: (-acc[n], ids[n]))  # type: ignore[index]
    return [(n, acc[n]) for n in numbers[:k]]


def _impacts(term: StoredTerm, lengths: Sequence[int], norm: tuple[float, float], allowed: frozenset[int] | None) -> dict[int, float]:
    c0, c1 = norm
    docs, tfs = term.docs, term.tfs
    if allowed is not None:
        keep = list(map(allowed.__contains__, docs))
        docs, tfs = list(compress(docs, keep)), list(compress(tfs, keep))
    scale, extra = term.scale, term.extra
    # term_impacts' expression, so every value is the in-memory engine's to the bit.
    if extra is not None:
        impacts = [scale * tf / (tf + (c0 + c1 * lengths[d])) + extra for d, tf in zip(docs, tfs)]
    else:
        impacts = [scale * tf / (tf + (c0 + c1 * lengths[d])) for d, tf in zip(docs, tfs)]
    if term.weight != 1:
        weight = float(term.weight)
        return {d: impact * weight for d, impact in zip(docs, impacts)}
    return dict(zip(docs, impacts))


def _merge(acc: dict[int, float], new: dict[int, float]) -> dict[int, float]:
    """Add ``new`` into ``acc`` (shared documents get ``acc + new``, as the in-memory merge)."""
    if not acc:
        return new
    common = list(compress(new, map(acc.__contains__, new)))
    sums = list(map(add, map(acc.__getitem__, common), map(new.__getitem__, common)))
    acc.update(new)
    acc.update(zip(common, sums))
    return acc


def _finish(acc: dict[int, float], tail: Sequence[StoredTerm], suffix: Sequence[float], k: int, theta: float, slack: float,
            lengths: Sequence[int], norm: tuple[float, float]) -> dict[int, float]:
    """Complete the candidates that can still reach ``theta`` over the terms not merged."""
    c0, c1 = norm
    plan = [(t.docs, t.tfs, len(t.docs), t.scale, t.extra, float(t.weight), t.weight != 1, after + slack)
            for t, after in zip(tail, suffix[1:])]
    cutoff = theta - (suffix[0] + slack)
    done: dict[int, float] = {}
    heap: list[float] = []
    for doc, score in list(acc.items()):
        if score < cutoff:
            continue
        for docs, tfs, size, scale, extra, weight, weighted, after in plan:
            position = bisect_left(docs, doc)
            if position < size and docs[position] == doc:
                tf = tfs[position]
                # term_impacts' expression, so the value is the in-memory engine's to the bit.
                gain = scale * tf / (tf + (c0 + c1 * lengths[doc]))
                if extra is not None:
                    gain = gain + extra
                score += gain * weight if weighted else gain
            if score + after < theta:
                break
        else:
            theta = keep_complete(done, heap, k, theta, doc, score)
            cutoff = theta - (suffix[0] + slack)
    return done
