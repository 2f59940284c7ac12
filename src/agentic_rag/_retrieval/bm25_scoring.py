"""BM25 scoring variants and the per-term impact computation the index caches.

Every variant scores a document ``d`` for a query as a sum over the query's terms ``t``
found in ``d`` of ``qtf(t) * idf(t) * tf_part(t, d)`` where ``qtf`` is how often the query
holds the term, ``N`` the number of documents, ``df`` the term's document frequency, ``tf``
its (title-weighted) frequency in ``d``, ``dl`` the (title-weighted) length of ``d``,
``avgdl`` the mean length, and ``norm = k1 * (1 - b + b * dl / avgdl)``:

============  ==============================================  =====================================
variant       idf                                             tf part
============  ==============================================  =====================================
lucene        ln(1 + (N - df + 0.5) / (df + 0.5))             tf / (tf + norm)
robertson     ln((N - df + 0.5) / (df + 0.5)); a negative     tf * (k1 + 1) / (tf + norm)
(okapi)       idf is floored at 0.25 * (mean idf over the
              vocabulary), as rank_bm25's BM25Okapi does
bm25+         ln((N + 1) / df)                                tf * (k1 + 1) / (tf + norm) + delta
atire         ln(N / df)                                      tf * (k1 + 1) / (tf + norm)
============  ==============================================  =====================================

``lucene`` matches bm25s' "lucene" method (Lucene's BM25Similarity without its constant
``(k1 + 1)`` factor and without its lossy one-byte length encoding). ``bm25+`` follows Lv &
Zhai (2011): ``delta`` is added only to documents that contain the term (rank_bm25 adds it to
every document, which makes every document match).

The product ``idf * tf_part`` of one posting is its *impact*; the index computes a term's
impacts in one pass over its postings and caches them with their maximum (the term's upper
bound for pruning) until the next write changes ``N``, ``avgdl`` or ``df``.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import repeat
from types import MappingProxyType

__all__ = [
    "BM25_VARIANTS", "ROBERTSON_EPSILON", "BM25Variant", "impact_parameters", "largest_impact", "robertson_idf_floor",
    "term_idf", "term_impacts",
]

#: rank_bm25's ``epsilon``: negative Robertson idfs become ``epsilon * mean idf``.
ROBERTSON_EPSILON = 0.25


def _lucene_idf(df: int, n: int) -> float:
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def _robertson_idf(df: int, n: int) -> float:
    return math.log((n - df + 0.5) / (df + 0.5))


def _plus_idf(df: int, n: int) -> float:
    return math.log((n + 1.0) / df)


def _atire_idf(df: int, n: int) -> float:
    return math.log(n / df)


@dataclass(frozen=True, slots=True)
class BM25Variant:
    """One BM25 formula: how idf is computed and how term frequency saturates.

    Args:
        name: Registry key.
        idf: ``idf(df, n)`` for a term in ``df`` of ``n`` documents.
        k1_plus_one: Multiply the tf part by ``(k1 + 1)``.
        uses_delta: Add the index's ``delta`` to the tf part (BM25+).
        floors_negative_idf: Replace negative idfs by ``ROBERTSON_EPSILON * mean idf``.
        summary: The formula in one line, for docs and error messages.
    """

    name: str
    idf: Callable[[int, int], float]
    k1_plus_one: bool
    uses_delta: bool
    floors_negative_idf: bool
    summary: str


_VARIANTS = (
    BM25Variant("lucene", _lucene_idf, False, False, False, "ln(1+(N-df+.5)/(df+.5)) * tf/(tf+norm)"),
    BM25Variant("robertson", _robertson_idf, True, False, True, "ln((N-df+.5)/(df+.5)) * tf(k1+1)/(tf+norm), floored"),
    BM25Variant("okapi", _robertson_idf, True, False, True, "alias of robertson"),
    BM25Variant("bm25+", _plus_idf, True, True, False, "ln((N+1)/df) * (tf(k1+1)/(tf+norm) + delta)"),
    BM25Variant("atire", _atire_idf, True, False, False, "ln(N/df) * tf(k1+1)/(tf+norm)"),
)

#: The scoring variants by name; ``BM25Index(variant=...)`` accepts these keys.
BM25_VARIANTS: Mapping[str, BM25Variant] = MappingProxyType({v.name: v for v in _VARIANTS})


def robertson_idf_floor(document_frequencies: list[int], n: int) -> float:
    """Return the value negative Robertson idfs are raised to: epsilon times the mean idf.

    Args:
        document_frequencies: ``df`` of every term in the vocabulary (terms with ``df`` 0
            are ignored, as a fresh build would not know them).
        n: Number of documents.

    Returns:
        ``ROBERTSON_EPSILON * mean(ln((n - df + 0.5) / (df + 0.5)))`` (0.0 for no terms).
    """
    live = [df for df in document_frequencies if df > 0]
    if not live:
        return 0.0
    # rank_bm25 sums log(N - df + .5) - log(df + .5) in vocabulary order; math.fsum makes the
    # mean independent of that order, so incremental and fresh indexes agree exactly.
    total = math.fsum(map(_robertson_idf, live, repeat(n)))
    return ROBERTSON_EPSILON * (total / len(live))


def term_idf(variant: BM25Variant, df: int, n: int, idf_floor: float) -> float:
    """Return the idf of a term in ``df`` of ``n`` documents under ``variant``."""
    idf = variant.idf(df, n)
    if variant.floors_negative_idf and idf < 0.0:
        return idf_floor
    return idf


def term_impacts(
    docs: array,
    tfs: array,
    lengths: array,
    *,
    idf: float,
    variant: BM25Variant,
    k1: float,
    b: float,
    delta: float,
    avgdl: float,
) -> array:
    """Compute the impact (score contribution) of each posting of one term.

    Args:
        docs: Document numbers of the postings (``array('i')``).
        tfs: Title-weighted term frequencies, aligned with ``docs`` (``array('d')``).
        lengths: Title-weighted length of every document, by document number.
        idf: The term's idf (see :func:`term_idf`).
        variant: The scoring formula.
        k1: Term-frequency saturation.
        b: Length normalisation.
        delta: BM25+ lower bound (ignored by other variants).
        avgdl: Mean document length (> 0 whenever a posting exists).

    Returns:
        ``array('d')`` of impacts aligned with ``docs``.
    """
    # A comprehension measured faster than chained map() calls here (each step makes a
    # float object either way). The quantised pass rescores with this very expression.
    scale, extra, c0, c1 = impact_parameters(idf, variant, k1=k1, b=b, delta=delta, avgdl=avgdl)
    if extra is not None:
        return array("d", [scale * tf / (tf + (c0 + c1 * lengths[d])) + extra for d, tf in zip(docs, tfs)])
    return array("d", [scale * tf / (tf + (c0 + c1 * lengths[d])) for d, tf in zip(docs, tfs)])


def impact_parameters(
    idf: float, variant: BM25Variant, *, k1: float, b: float, delta: float, avgdl: float,
) -> tuple[float, float | None, float, float]:
    """Return ``(scale, extra, c0, c1)``: a posting's impact is
    ``scale * tf / (tf + (c0 + c1 * dl))``, plus ``extra`` when it is not ``None`` (BM25+).

    ``c0 + c1 * dl`` is ``norm = k1 * (1 - b + b * dl / avgdl)`` rearranged.
    """
    c0 = k1 * (1.0 - b)
    c1 = k1 * b / avgdl if avgdl > 0.0 else 0.0
    scale = idf * (k1 + 1.0) if variant.k1_plus_one else idf
    return scale, (idf * delta if variant.uses_delta else None), c0, c1


def largest_impact(variant: BM25Variant, n: int, idf_floor: float, *, k1: float, delta: float) -> float:
    """An upper bound of every impact in an index of ``n`` documents (the quantisation range).

    The idf is largest for a term in one document (a Robertson floor is below it) and the
    tf part is below 1, or ``k1 + 1``, plus BM25+'s ``delta``.
    """
    idf = max(term_idf(variant, 1, n, idf_floor), idf_floor)
    scale = idf * (k1 + 1.0) if variant.k1_plus_one else idf
    return scale + (idf * delta if variant.uses_delta else 0.0)
