"""Exact rescoring of many quantised-pass candidates, best lanes first, with an early stop.

Why a module of its own: :mod:`~agentic_rag._retrieval.bm25_quantised` rescores a few
candidates term by term; a query with many near-equal candidates (up to a few thousand)
is rescored here one candidate at a time, in decreasing lane order, until a lane can no
longer reach the k-th exact score. Scores add the terms' exact impacts in the exact pass's
order, so they are its floats bit for bit.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Sequence
from heapq import heappush, heapreplace
from typing import Any

__all__ = ["rescore_by_lane"]


def rescore_by_lane(
    chosen: list[tuple[int, int]],
    terms: Sequence[Any],
    k: int,
    ids: Sequence[str | None],
    lengths: array,
    norm: tuple[float, float],
    unit: float,
) -> list[tuple[int, float]]:
    """Exact scores of the candidates, best lanes first, stopping once a lane's ceiling
    (``lane * unit``) falls below the k-th exact score.

    Args:
        chosen: ``(lane, document_number)`` pairs, lane descending.
        terms: The query's terms (``bm25_quantised.QuantisedTerm``, not imported: that
            module imports this one) in the exact pass's summation order.
        k: How many documents to return (>= 1).
        ids: Document id by document number (the tie-breaker).
        lengths: Title-weighted document lengths by number.
        norm: ``(c0, c1)`` of the length normalisation ``c0 + c1 * length``.
        unit: An upper bound of the exact score of one lane unit.

    Returns:
        ``(document_number, score)`` pairs, score descending then id ascending.
    """
    c0, c1 = norm
    simple = all(t.extra is None and t.qtf == 1 for t in terms)
    plan = [(t.docs, len(t.docs) - 1, t.tfs, t.scale, t.extra, float(t.qtf)) for t in terms]
    scored: list[tuple[int, float]] = []
    heap: list[float] = []
    theta = -1.0
    for value, doc in chosen:
        if value * unit < theta:
            break
        score = 0.0
        norm_d = c0 + c1 * lengths[doc]
        if simple:  # the common case, without the BM25+ and query-frequency steps
            for docs, last, tfs, scale, _, _ in plan:
                pos = bisect_left(docs, doc, 0, last)  # hi=last keeps pos a valid index
                if docs[pos] == doc:
                    tf = tfs[pos]
                    score += scale * tf / (tf + norm_d)
        else:
            for docs, last, tfs, scale, extra, qtf in plan:
                pos = bisect_left(docs, doc, 0, last)
                if docs[pos] == doc:
                    tf = tfs[pos]
                    # The very expression of bm25_scoring.term_impacts, so the floats are equal.
                    impact = scale * tf / (tf + norm_d) if extra is None else scale * tf / (tf + norm_d) + extra
                    score += impact if qtf == 1.0 else impact * qtf
        scored.append((doc, score))
        if len(heap) < k:
            heappush(heap, score)
            if len(heap) == k:
                theta = heap[0]
        elif score > heap[0]:
            heapreplace(heap, score)
            theta = heap[0]
    scored.sort(key=lambda entry: (-entry[1], ids[entry[0]]))
    return scored[:k]
