"""Quantised candidate pass for BM25 top-k, with exact rescoring: same hits as the exact pass.

Why: in CPython a per-posting Python step costs tens of nanoseconds, while adding two big
integers runs in C over 30-bit digits. So each posting's impact is quantised to an integer
``q`` in ``1..LEVELS`` (``q - 1 = floor(impact / step)``, as Lucene and PISA store 8-bit
impacts), and a query's scores are accumulated as 16-bit *lanes* of one big integer, lane
``d`` holding document ``d``'s quantised score:

- a frequent term's quantised postings are kept as such a big integer (its *dense lanes*),
  so adding the term to the accumulator is one integer addition, whatever its length;
- a rare term's postings are added lane by lane through a ``memoryview`` of the
  accumulator's bytes (``map`` over the postings, no Python loop);
- the top lanes are read back with ``bytes.translate`` (counting lanes above a threshold
  in C) and ``bytes.find`` (finding them), not by visiting every document.

The pass is a filter, not an approximation. With ``u`` the score of one lane unit, every
document's exact score ``s`` lies in ``[(L - R) * u, L * u)`` where ``L`` is its lane and
``R`` the query's total quantisation error in lanes (one unit per query-term occurrence,
scaled). If ``Q`` is the k-th largest lane, the k documents at or above it score at least
``(Q - R) * u``, so every document of the exact top k, ties with the k-th score included,
has ``L > Q - R`` (two more units of margin absorb float rounding). Those candidates are
rescored exactly, adding the terms' exact impacts
in the same order as the exact pass, in decreasing lane order until a lane can no longer
reach the k-th exact score: scores, ranking and tie order are the exact pass's, bit for
bit. A query the lanes cannot hold (a lane sum over 16 bits, negative impacts, or too many
weak candidates) returns ``None`` and the caller runs the exact pass.
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from heapq import heappush, heapreplace
from itertools import compress, repeat
from operator import add, mul

__all__ = ["LEVELS", "QuantisedTerm", "dense_lanes", "lanes_usable", "quantise", "rank_quantised"]

#: Largest quantised impact (10 bits): lanes of 16 bits hold the sum of 64 maximal terms.
LEVELS = 1023
_LANE_LIMIT = 0xFFFF
# Rare postings beyond 1/_SEPARATE_SPARSE_DIVISOR of the lanes go to a buffer of their own.
_SEPARATE_SPARSE_DIVISOR = 24
# Past this many candidates to rescore the exact pass is cheaper (a query with very many
# weak, near-equal matches).
_MAX_CANDIDATES = 4096
# Relative slack on the early stop of the rescoring: far above the rounding of a few
# hundred float additions, far below one lane unit.
_SLACK = 1e-9
# memoryview(...).cast("H") reads lanes in the machine's byte order; the lanes are laid out
# little-endian, so other machines use the exact pass.
lanes_usable = sys.byteorder == "little"
_BELOW = [bytes(range(v)) for v in range(257)]
# The threshold search stops once this few lanes survive and sorts them (a sort of many
# small ints costs more than a few more C passes over the summary bytes).
_SORTED_SURVIVORS = 96
# Where that search starts: lanes are scaled so the largest possible sum fills 16 bits, and
# the k-th best lane is typically an eighth to a half of it, so its high byte is above 16.
_FIRST_THRESHOLD = 16
_RANGES: dict[tuple[int, int], bytes] = {}


class QuantisedTerm:
    """One query term as the quantised pass needs it.

    Args:
        qtf: How often the query holds the term.
        docs: Sorted document numbers (``array('i')``).
        tfs: Title-weighted term frequencies aligned with ``docs``.
        levels: Quantised impacts aligned with ``docs`` (``array('H')``, each >= 1).
        top_level: The largest of ``levels``.
        dense: The term's dense lanes (see :func:`dense_lanes`), or ``None``.
        scale: ``idf`` (times ``k1 + 1`` where the variant has it): the impact's numerator factor.
        extra: The BM25+ addend (``idf * delta``), else ``None``.
        bound: The largest exact impact (times ``qtf``): orders the terms.
    """

    __slots__ = ("bound", "dense", "docs", "extra", "levels", "qtf", "scale", "tfs", "top_level")

    def __init__(self, qtf: int, docs: array, tfs: array, levels: array, top_level: int, dense: int | None,
                 scale: float, extra: float | None, bound: float) -> None:
        self.qtf = qtf
        self.docs = docs
        self.tfs = tfs
        self.levels = levels
        self.top_level = top_level
        self.dense = dense
        self.scale = scale
        self.extra = extra
        self.bound = bound

    def repeated(self, qtf: int) -> QuantisedTerm:
        """The same term held ``qtf`` times by the query."""
        return QuantisedTerm(qtf, self.docs, self.tfs, self.levels, self.top_level, self.dense, self.scale, self.extra,
                             self.bound * float(qtf))


def quantise(impacts: Sequence[float], inverse_step: float) -> array:
    """Quantise impacts to ``int(impact / step) + 1`` (``array('H')``; impacts must be >= 0
    and at most ``(LEVELS - 1) * step``)."""
    return array("H", [int(x * inverse_step) + 1 for x in impacts])


def dense_lanes(docs: array, levels: array, count: int) -> int:
    """The big integer whose 16-bit lane ``d`` is the level of document ``d`` (0: absent).

    Args:
        docs: Sorted document numbers, each below ``count``.
        levels: Their quantised impacts.
        count: Number of lanes (document numbers in use).
    """
    buffer = bytearray(2 * count)
    with memoryview(buffer) as raw, raw.cast("H") as lanes:
        any(map(lanes.__setitem__, docs, levels))  # setitem returns None: any() runs it all in C
    return int.from_bytes(buffer, "little")


def _positions(data: bytes | bytearray, low: int, high: int = 255) -> list[int]:
    """Indexes of the bytes of ``data`` in ``low..high``.

    The bytes are mapped to 0/1 by ``bytes.translate`` and the ones found by ``find``
    (memchr): both run in C, so Python steps only once per index found (a regular
    expression scans several times slower).
    """
    table = _RANGES.get((low, high))
    if table is None:
        table = _RANGES[(low, high)] = bytes(1 if low <= v <= high else 0 for v in range(256))
    find = data.translate(table).find
    found = []
    position = find(1)
    while position >= 0:
        found.append(position)
        position = find(1, position + 1)
    return found


def _kth_largest_byte(data: bytes | bytearray, k: int) -> int:
    """The k-th largest byte of ``data`` (0 when fewer than k bytes are non-zero).

    A binary search on the threshold, counting the bytes at or above it with
    ``bytes.translate`` (in C); once a threshold keeps at least k bytes, the higher ones
    are tried on those bytes only, and a few enough are sorted.
    """
    low, high = 0, 256  # at least k bytes are >= low; fewer than k are >= high
    source = data  # holds every byte >= low
    middle = _FIRST_THRESHOLD  # the k-th lane's high byte is usually above it: one full pass
    while high - low > 1:
        kept = source.translate(None, _BELOW[middle])
        if len(kept) >= k:
            if len(kept) <= _SORTED_SURVIVORS:
                return sorted(kept)[-k]
            low, source = middle, kept
        else:
            high = middle
        middle = (low + high) >> 1
    return low


def _add_postings(lanes: memoryview, pairs: list[tuple[array, array, int]], shift: int) -> None:
    """Add ``levels * (qtf << shift)`` to the lanes of ``docs`` for each pair, in C."""
    get, put = lanes.__getitem__, lanes.__setitem__
    for docs, levels, qtf in pairs:
        factor = qtf << shift
        scaled = levels if factor == 1 else map(mul, levels, repeat(factor))
        any(map(put, docs, map(add, map(get, docs), scaled)))  # put returns None: any() runs it all


def rank_quantised(
    terms: Sequence[QuantisedTerm],
    k: int,
    ids: Sequence[str | None],
    lengths: array,
    norm: tuple[float, float],
    inverse_step: float,
) -> list[tuple[int, float]] | None:
    """Return the ``k`` best documents, exactly as the exact pass would, or ``None``.

    Args:
        terms: The query's terms in the exact pass's summation order.
        k: How many documents to return (>= 1).
        ids: Document id by document number (the tie-breaker); its length is the lane count.
        lengths: Title-weighted document lengths by number.
        norm: ``(c0, c1)`` of the length normalisation ``c0 + c1 * length``.
        inverse_step: ``1 / step`` of the quantisation the terms' levels were made with.

    Returns:
        ``(document_number, score)`` pairs, score descending then id ascending; ``None``
        when the quantised pass does not apply (the caller runs the exact pass).
    """
    total = sum(t.qtf * t.top_level for t in terms)
    if not lanes_usable or not terms or total > _LANE_LIMIT:
        return None
    # Scale every lane so the largest possible sum uses the top bits: the high byte of a
    # lane is then a fine enough summary to threshold on.
    shift = 16 - total.bit_length()
    count = len(ids)
    acc = 0
    sparse = []
    for term in terms:
        if term.dense is None:
            sparse.append(term)
        else:
            acc += term.dense * term.qtf if term.qtf != 1 else term.dense
    pairs = []
    if sparse:
        if len(sparse) > 1 and all(t.qtf == 1 for t in sparse):
            # One pass over all their postings (arrays joined in C). A document in
            # several of them is read after its previous write: map() is lazy.
            pairs = [(array("i", b"".join([t.docs for t in sparse])), array("H", b"".join([t.levels for t in sparse])), 1)]
        else:
            pairs = [(t.docs, t.levels, t.qtf) for t in sparse]
    # Many rare postings are added into a buffer of their own, unscaled, joined to the
    # dense sum as one integer; a few are added, scaled, into the final lanes (cheaper
    # than one more conversion of every lane).
    direct = sum(len(docs) for docs, _, _ in pairs) * _SEPARATE_SPARSE_DIVISOR < count
    if pairs and not direct:
        scratch = bytearray(2 * count)
        with memoryview(scratch) as raw, raw.cast("H") as lanes:
            _add_postings(lanes, pairs, 0)
        acc += int.from_bytes(scratch, "little")
    # One shift of the sum scales every lane (none overflows: the lanes' bound is total).
    buffer: bytes | bytearray = (acc << shift).to_bytes(2 * count, "little")
    if pairs and direct:
        buffer = bytearray(buffer)
    with memoryview(buffer) as raw, raw.cast("H") as lanes:
        if pairs and direct:
            _add_postings(lanes, pairs, shift)
        get = lanes.__getitem__
        margin = (sum(t.qtf for t in terms) << shift) + 2
        high = buffer[1::2]  # each lane's high byte: a summary of the lanes, thresholded in C
        kth = _kth_largest_byte(high, k)
        if kth:
            # The lanes of the top k are all among those whose high byte is >= kth; the
            # band just below is needed only when the margin reaches into it.
            positions = _positions(high, kth)
            values = list(map(get, positions))
            cut = max(1, sorted(values)[-k] - margin)
            floor = max(1, cut >> 8)
            if floor < kth:
                positions += _positions(high, floor, kth - 1)
                values = list(map(get, positions))
        else:
            positions = list(compress(range(count), lanes))
            values = list(map(get, positions))
            cut = max(1, sorted(values)[-k] - margin) if len(values) > k else 1
    chosen = sorted(((v, p) for v, p in zip(values, positions) if v >= cut), reverse=True)
    if len(chosen) > _MAX_CANDIDATES:
        return None
    unit = 1.0 / (inverse_step * (1 << shift)) * (1.0 + _SLACK)
    return _rescore(chosen, terms, k, ids, lengths, norm, unit)


def _rescore(
    chosen: list[tuple[int, int]],
    terms: Sequence[QuantisedTerm],
    k: int,
    ids: Sequence[str | None],
    lengths: array,
    norm: tuple[float, float],
    unit: float,
) -> list[tuple[int, float]]:
    """Exact scores of the candidates, best lanes first, stopping once a lane's ceiling
    (``lane * unit``) falls below the k-th exact score."""
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
