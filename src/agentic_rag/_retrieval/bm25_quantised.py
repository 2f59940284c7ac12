"""Quantised candidate pass for BM25 top-k, with exact rescoring: same hits as the exact pass.

Why: in CPython a per-posting Python step costs tens of nanoseconds, while adding two big
integers runs in C over 30-bit digits. So each posting's impact is quantised to an integer
``q`` in ``1..LEVELS`` (``q - 1 = floor(impact / step)``, as Lucene and PISA store 8-bit
impacts), and a query's scores are accumulated as 16-bit *lanes* of one big integer, lane
``d`` holding document ``d``'s quantised score:

- a frequent term's quantised postings are kept as such a big integer (its *dense lanes*),
  so adding the term to the accumulator is one integer addition, whatever its length;
- a rare term's postings are added lane by lane through a ``memoryview`` of the
  accumulator's bytes (a plain loop: ``lanes[doc] += level`` runs on the view's C slots);
- the top lanes are read back with ``bytes.translate`` (counting lanes above a threshold
  in C) and ``bytes.find`` (finding them), not by visiting every document.

The pass is a filter, not an approximation. With ``u`` the score of one lane unit, every
document's exact score ``s`` lies in ``[(L - R) * u, L * u)`` where ``L`` is its lane and
``R`` the query's total quantisation error in lanes (one unit per query-term occurrence,
scaled). If ``Q`` is the k-th largest lane, the k documents at or above it score at least
``(Q - R) * u``, so every document of the exact top k, ties with the k-th score included,
has ``L > Q - R`` (two more units of margin absorb float rounding). Those candidates are
rescored exactly, adding the terms' exact impacts in the same order as the exact pass:
scores, ranking and tie order are the exact pass's, bit for bit. A few candidates (the
usual case) are rescored one term at a time, a frequent term's frequencies read for all
of them at once from its *dense frequencies* (one byte per document, built on the term's
first search), a rare term's from its ``{document: frequency}`` dict where the index keeps
one; many are rescored in decreasing lane order until a lane can no longer reach the k-th
exact score (:mod:`~agentic_rag._retrieval.bm25_rescoring`). A query the lanes cannot
hold (a lane sum over 16 bits, negative impacts, or too many weak candidates) returns
``None`` and the caller runs the exact pass.
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from itertools import compress, repeat
from operator import itemgetter

from agentic_rag._retrieval.bm25_rescoring import rescore_by_lane

__all__ = ["LANE_OFFSET", "LEVELS", "QuantisedTerm", "dense_lanes", "dense_tfs", "lanes_usable", "level_lift", "quantise", "rank_quantised"]

#: Largest quantised impact (10 bits): lanes of 16 bits hold the sum of 64 maximal terms.
LEVELS = 1023
_LANE_LIMIT = 0xFFFF
# Rare postings beyond 1/_SEPARATE_SPARSE_DIVISOR of the lanes go to a buffer of their own
# (6 and 2 measured alike on SciFact, 24 slower since the postings loop got cheaper).
_SEPARATE_SPARSE_DIVISOR = 6
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
_SORTED_SURVIVORS = 64
# Where that search starts: lanes are scaled so the largest possible sum fills 16 bits, and
# the k-th best lane is typically an eighth to a half of it (high byte 32 to 128; SciFact's
# median is 48). Starting near the low end keeps few lanes for the next passes, and a miss
# costs one more pass (starting at 16 kept ten times more and took twice as long).
_FIRST_THRESHOLD = 40
_RANGES: dict[tuple[int, int], bytes] = {}
#: Bits the dense lanes are built shifted up by: a query whose lane sum fits in
#: ``16 - LANE_OFFSET`` bits (most do) then needs no shift of its sum for its lanes' high
#: bytes to be a fine summary; the others shift it down, never up.
LANE_OFFSET = 4
# Term frequencies a byte of dense frequencies holds exactly.
_BYTE_TFS = frozenset(float(v) for v in range(1, 256))
# Up to this many candidates are rescored term by term, all of them (no early stop).
_BY_TERM_CANDIDATES = 64
# A posting list up to this many times the candidates is intersected with them in C; a
# longer one is binary-searched per candidate.
_INTERSECT_RATIO = 8


class QuantisedTerm:
    """One query term as the quantised pass needs it.

    Args:
        qtf: How often the query holds the term.
        docs: Sorted document numbers (``array('i')``).
        tfs: Title-weighted term frequencies aligned with ``docs``.
        levels: Quantised impacts aligned with ``docs``, each >= 1 and stored
            :func:`level_lift` bits up (``array('H')``).
        top_level: The largest quantised impact (not lifted).
        dense: The term's dense lanes, built ``LANE_OFFSET`` bits up (see :func:`dense_lanes`),
            or ``None``.
        scale: ``idf`` (times ``k1 + 1`` where the variant has it): the impact's numerator factor.
        extra: The BM25+ addend (``idf * delta``), else ``None``.
        bound: The largest exact impact (times ``qtf``): orders the terms.
        dense_tfs: The term's dense frequencies (see :func:`dense_tfs`; ``b""``: none),
            or ``None`` until the index decides.
        tf_of: A rare term's ``{document number: frequency}`` (the rescoring probes it for
            the candidates), or ``None``.
    """

    __slots__ = ("bound", "dense", "dense_tfs", "docs", "extra", "levels", "qtf", "scale", "tf_of", "tfs", "top_level")

    def __init__(self, qtf: int, docs: array, tfs: array, levels: array, top_level: int, dense: int | None,
                 scale: float, extra: float | None, bound: float, dense_tfs: bytes | None = None,
                 tf_of: dict[int, float] | None = None) -> None:
        self.qtf = qtf
        self.tf_of = tf_of
        self.dense_tfs = dense_tfs
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
                             self.bound * float(qtf), self.dense_tfs, self.tf_of)


def quantise(impacts: Sequence[float], inverse_step: float, lift: int = 0) -> array:
    """Quantise impacts to ``int(impact / step) + 1``, shifted ``lift`` bits up
    (``array('H')``; impacts must be >= 0 and at most ``(LEVELS - 1) * step``)."""
    if lift:
        return array("H", [(int(x * inverse_step) + 1) << lift for x in impacts])
    return array("H", [int(x * inverse_step) + 1 for x in impacts])


def level_lift() -> int:
    """Bits the stored levels are shifted up by: ``LANE_OFFSET`` if 16 bits hold it, else 0
    (most queries' lanes are at that scale: rare levels are added unmultiplied)."""
    return LANE_OFFSET if LEVELS << LANE_OFFSET <= _LANE_LIMIT else 0


def dense_lanes(docs: array, levels: array, count: int, offset: int = 0) -> int:
    """The big integer whose 16-bit lane ``d`` is the level of document ``d`` (0: absent).

    Args:
        docs: Sorted document numbers, each below ``count``.
        levels: Their quantised impacts.
        count: Number of lanes (document numbers in use).
        offset: Bits the whole integer is shifted up by (lane ``d`` then starts at bit
            ``16 * d + offset``).
    """
    buffer = bytearray(2 * count)
    with memoryview(buffer) as raw, raw.cast("H") as lanes:
        for doc, level in zip(docs, levels):  # see _add_postings: faster than a map chain
            lanes[doc] = level
    return int.from_bytes(buffer, "little") << offset


def dense_tfs(docs: array, tfs: array, count: int) -> bytes | None:
    """The bytes whose byte ``d`` is document ``d``'s term frequency (0: absent), or ``None``
    when a frequency is not a whole number in ``1..255`` (title weights, long documents).

    Why: reading a candidate's frequency is then one index, not a binary search, and the
    whole number converts to the very float the postings hold, so scores stay bit-identical.
    """
    if not all(map(_BYTE_TFS.__contains__, tfs)):
        return None
    buffer = bytearray(count)
    for doc, tf in zip(docs, tfs):
        buffer[doc] = int(tf)
    return bytes(buffer)


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


def _kth_largest_byte(data: bytes | bytearray, k: int, first: int = _FIRST_THRESHOLD) -> int:
    """The k-th largest byte of ``data`` (0 when fewer than k bytes are non-zero).

    A binary search on the threshold, counting the bytes at or above it with
    ``bytes.translate`` (in C); once a threshold keeps at least k bytes, the higher ones
    are tried on those bytes only, and a few enough are sorted. ``first`` is the first
    threshold tried (lower it when the bytes cannot reach the top of their range).
    """
    low, high = 0, 256  # at least k bytes are >= low; fewer than k are >= high
    source = data  # holds every byte >= low
    middle = first  # the k-th lane's high byte is usually above it: one full pass
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


def _add_postings(lanes: memoryview, pairs: list[tuple[array, array, int]], shift: int, lift: int) -> None:
    """Add ``(levels >> lift) * (qtf << shift)`` to the lanes of ``docs`` for each pair.

    A plain loop: ``lanes[doc] += level`` runs on the memoryview's C slots, about twice as
    fast as a ``map`` chain over its ``__getitem__``/``__setitem__`` method wrappers.
    """
    down = lift - shift
    for docs, levels, qtf in pairs:
        if down > 0:  # the levels' low bits shifted out are the lift's zeros
            for doc, level in zip(docs, levels):
                lanes[doc] += (level >> down) * qtf
            continue
        factor = qtf << -down
        if factor == 1:  # the common case: levels at the lanes' scale
            for doc, level in zip(docs, levels):
                lanes[doc] += level
        else:
            for doc, level in zip(docs, levels):
                lanes[doc] += level * factor


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
    if not lanes_usable or not terms:
        return None
    total = occurrences = acc = rare = 0
    pairs = []
    for term in terms:  # one pass: the bound of the lanes, the dense terms summed, the rare listed
        qtf = term.qtf
        total += qtf * term.top_level
        occurrences += qtf
        dense = term.dense
        if dense is None:
            docs = term.docs
            pairs.append((docs, term.levels, qtf))
            rare += len(docs)
        elif acc:
            acc += dense * qtf if qtf != 1 else dense
        else:  # the first: 0 + dense would copy every lane for nothing
            acc = dense * qtf if qtf != 1 else dense
    if total > _LANE_LIMIT:
        return None
    # Scale every lane so the largest possible sum uses the top bits, the high byte of a
    # lane is then a fine enough summary to threshold on; a sum of at most 16 - LANE_OFFSET
    # bits is left where the dense lanes put it (a shift of every lane spared; the summary
    # loses a bit or two of the few shortest queries).
    shift = min(16 - total.bit_length(), LANE_OFFSET)
    count = len(ids)
    # Many rare postings are added into a buffer of their own joined to the dense sum as one
    # integer; a few into the final lanes (cheaper than one more conversion of every lane).
    direct, lift = rare * _SEPARATE_SPARSE_DIVISOR < count, level_lift()
    # At most one shift of the dense sum scales every lane (none overflows: the lanes'
    # bound is total; the bits shifted out are the offset's zeros).
    if shift < LANE_OFFSET:
        acc >>= LANE_OFFSET - shift
    if pairs and not direct:
        scratch = bytearray(2 * count)
        with memoryview(scratch) as raw, raw.cast("H") as lanes:
            _add_postings(lanes, pairs, shift, lift)
        acc += int.from_bytes(scratch, "little")
    buffer: bytes | bytearray = acc.to_bytes(2 * count, "little")
    if pairs and direct:
        buffer = bytearray(buffer)
    with memoryview(buffer) as raw, raw.cast("H") as lanes:
        if pairs and direct:
            _add_postings(lanes, pairs, shift, lift)
        get = lanes.__getitem__
        margin = (occurrences << shift) + 2
        high = buffer[1::2]  # each lane's high byte: a summary of the lanes, thresholded in C
        kth = _kth_largest_byte(high, k, _FIRST_THRESHOLD >> max(0, 16 - total.bit_length() - shift))
        if kth:
            # The lanes of the top k are all among those whose high byte is >= kth, so the
            # k-th lane is at least kth << 8 and no lane within the margin of it has a
            # high byte below this floor: one pass finds them all (a second pass for the
            # band just below, when needed, cost more than the few extra lanes it spares).
            positions = _positions(high, max(1, ((kth << 8) - margin) >> 8))
            values = list(map(get, positions))
            cut = max(1, sorted(values)[-k] - margin)
        else:
            positions = list(compress(range(count), lanes))
            values = list(map(get, positions))
            cut = max(1, sorted(values)[-k] - margin) if len(values) > k else 1
    candidates = list(compress(positions, map(cut.__le__, values)))
    if len(candidates) <= _BY_TERM_CANDIDATES:
        return _rescore_by_term(candidates, terms, k, ids, lengths, norm)
    if len(candidates) > _MAX_CANDIDATES:
        return None
    chosen = sorted(((v, p) for v, p in zip(values, positions) if v >= cut), reverse=True)
    unit = 1.0 / (inverse_step * (1 << shift)) * (1.0 + _SLACK)
    return rescore_by_lane(chosen, terms, k, ids, lengths, norm, unit)


def _rescore_by_term(
    candidates: list[int],
    terms: Sequence[QuantisedTerm],
    k: int,
    ids: Sequence[str | None],
    lengths: array,
    norm: tuple[float, float],
) -> list[tuple[int, float]]:
    """Exact scores of every candidate, one term at a time (for a few candidates).

    Each candidate's score adds the terms' impacts in the terms' order, as the exact pass
    does; a term a candidate lacks adds nothing, so the floats are the exact pass's. A term
    with dense frequencies reads every candidate's at once (``itemgetter``, in C) and
    ``compress`` skips the absent ones; a short posting list is intersected with the
    candidates (in C), a long one binary-searched per candidate.
    """
    c0, c1 = norm
    count = len(candidates)
    pick = itemgetter(*candidates) if count > 1 else (lambda seq: (seq[candidates[0]],))
    norms = [c0 + c1 * length for length in pick(lengths)]
    scores = [0.0] * count
    slots = range(count)
    wanted: set[int] | None = None
    slot_of: dict[int, int] | None = None
    for term in terms:
        scale, extra, qtf = term.scale, term.extra, term.qtf
        found = term.dense_tfs
        if found:
            frequencies = pick(found)
            if extra is None and qtf == 1:  # the common case, without a list of pairs
                for i in compress(slots, frequencies):
                    tf = frequencies[i]
                    scores[i] += scale * tf / (tf + norms[i])
                continue
            pairs: Iterable[tuple[int, float]] = [(i, frequencies[i]) for i in compress(slots, frequencies)]
        elif term.tf_of is not None:
            tf_of = term.tf_of
            if slot_of is None:  # candidate -> its slot, and the set the dicts are intersected with
                slot_of = dict(zip(candidates, slots))
            if extra is None and qtf == 1:
                for doc in tf_of.keys() & slot_of.keys():
                    i = slot_of[doc]
                    tf = tf_of[doc]
                    scores[i] += scale * tf / (tf + norms[i])
                continue
            pairs = [(slot_of[doc], tf_of[doc]) for doc in tf_of.keys() & slot_of.keys()]
        else:
            docs, tfs = term.docs, term.tfs
            if len(docs) <= _INTERSECT_RATIO * count:
                if wanted is None:
                    wanted = set(candidates)
                if extra is None and qtf == 1:
                    for doc in wanted.intersection(docs):
                        i = candidates.index(doc)
                        tf = tfs[bisect_left(docs, doc)]
                        scores[i] += scale * tf / (tf + norms[i])
                    continue
                pairs = [(candidates.index(doc), tfs[bisect_left(docs, doc)]) for doc in wanted.intersection(docs)]
            else:
                last = len(docs) - 1  # hi=last keeps the position a valid index
                pairs = [(i, tfs[pos]) for i, pos in enumerate(map(bisect_left, repeat(docs), candidates, repeat(0), repeat(last)))
                         if docs[pos] == candidates[i]]
        if extra is None and qtf == 1:  # the common case, without the BM25+ and query-frequency steps
            for i, tf in pairs:
                scores[i] += scale * tf / (tf + norms[i])
        else:
            for i, tf in pairs:
                # The very expression of bm25_scoring.term_impacts, so the floats are equal.
                impact = scale * tf / (tf + norms[i]) if extra is None else scale * tf / (tf + norms[i]) + extra
                scores[i] += impact if qtf == 1 else impact * float(qtf)
    ranked = sorted(zip(candidates, scores), key=lambda entry: (-entry[1], ids[entry[0]]))
    return ranked[:k]
