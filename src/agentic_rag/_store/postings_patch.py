"""One term's packed postings patched where they change, not decoded and packed again whole.

A changed file's chunks leave the postings of every term they hold, and its new chunks join
them; in a real folder those terms are most of the vocabulary's large lists (one changed page
of the Python manual touches two thirds of all postings). Decoding each list into Python
numbers and packing it again cost a re-index far more than reading the changed file did.

Here a list stays an :mod:`array` of gaps (and one of frequencies) while it is patched: the
document numbers are summed once, in C, to find the removed chunks by bisection (a file's
chunks have consecutive rowids, so they form a few runs), the kept stretches are copied as
array slices, the first gap after a removed stretch is merged, and the added chunks' gaps are
appended. The result is packed exactly as :func:`~agentic_rag._store.postings.pack_numbers`
packs the same numbers (the narrowest whole type), so a patched store holds the bytes a
decode-and-pack run wrote. Frequencies that are not whole numbers (a title weight other than
1) are left to the writer's general path.
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate, compress
from operator import sub

__all__ = ["Added", "PatchedTerm", "can_patch", "patch_term", "rowid_runs"]

_SWAP = sys.byteorder == "big"
# The whole types pack_numbers writes, narrowest first.
_ORDER = "BHIq"
Added = tuple[array, array, dict[float, int]]  # rowids, frequencies, shortest length per frequency
PatchedTerm = tuple[int, bytes, bytes, bytes]  # df, docs, tfs, shortest


def rowid_runs(rowids: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted ``rowids`` as runs of consecutive numbers ``(first, last)``."""
    runs: list[tuple[int, int]] = []
    for rowid in sorted(rowids):
        if runs and runs[-1][1] == rowid - 1:
            runs[-1] = (runs[-1][0], rowid)
        else:
            runs.append((rowid, rowid))
    return runs


def can_patch(row: tuple[bytes, bytes, bytes] | None) -> bool:
    """Whether a stored row (``docs``, ``tfs``, ``shortest`` blobs) is one this module patches."""
    return row is None or all(chr(blob[0]) in _ORDER for blob in row)


def _code(top: int) -> str:
    return "B" if top < 1 << 8 else "H" if top < 1 << 16 else "I" if top < 1 << 32 else "q"


def _unpack(blob: bytes) -> array:
    out = array(chr(blob[0]))
    out.frombytes(blob[1:])
    if _SWAP:
        out.byteswap()
    return out


def _pack(values: array) -> bytes:
    if _SWAP:
        values = array(values.typecode, values)
        values.byteswap()
    return values.typecode.encode("ascii") + values.tobytes()


def _widened(values: array, code: str) -> array:
    """``values`` in the wider of its own type and ``code``."""
    if _ORDER.index(code) > _ORDER.index(values.typecode):
        return array(code, values)
    return values


def _extend(values: array, more: list[int]) -> array:
    """``values`` with ``more`` appended, in a wider type when one of them needs it."""
    if more:
        values = _widened(values, _code(max(more)))
        values.fromlist(more)
    return values


def _narrowest(values: array, gone: Iterable[int]) -> array:
    """``values`` in the narrowest whole type that holds them (as pack_numbers chooses it),
    once the numbers ``gone`` left them: the type was the narrowest before, so it can only
    narrow when one of those needed it (then every value is looked at)."""
    code = values.typecode
    if code == _ORDER[0] or not gone or _code(max(gone)) != code:
        return values
    code = _code(max(values, default=0))
    return values if code == values.typecode else array(code, values)


def patch_term(row: tuple[bytes, bytes, bytes] | None, runs: Sequence[tuple[int, int]], removed: dict[int, int],
               added: Added | None, all_lengths: Callable[[], Sequence[int]]) -> PatchedTerm | None:
    """One term's postings without the removed chunks and with the added ones.

    Args:
        row: The stored ``docs``, ``tfs`` and ``shortest`` blobs (:func:`can_patch` must hold),
            or ``None`` for a term the store does not hold yet.
        runs: The removed rowids as :func:`rowid_runs`.
        removed: Removed rowid -> the length it had (to tell whether it was a shortest chunk).
        added: The added chunks holding the term, in increasing rowid order (all above every
            stored rowid), or ``None``.
        all_lengths: Every rowid's length as the run leaves it; called only when a removed
            chunk was the shortest holding the term at its frequency.

    Returns:
        ``(df, docs, tfs, shortest)`` packed, or ``None`` when no chunk holds the term any more.
    """
    if row is None:
        gaps, tfs, shortest = array("B"), array("B"), {}
    else:
        gaps, tfs = _unpack(row[0]), _unpack(row[1])
        pairs = _unpack(row[2])
        shortest = dict(zip(pairs[::2], pairs[1::2]))
    last, gone_gaps, gone_tfs = 0, array("q"), array("q")
    if gaps:
        sums = list(accumulate(gaps))
        spans = [(a, b) for a, b in ((bisect_left(sums, lo), bisect_right(sums, hi)) for lo, hi in runs) if a < b]
        if spans:
            if spans[-1][1] == len(gaps):  # the last gaps are dropped, not merged into a later one
                gone_gaps = gaps[spans[-1][0]:]
            gone_tfs = array(tfs.typecode, (tf for a, b in spans for tf in tfs[a:b]))
            gaps, tfs, last, lost = _cut(gaps, tfs, sums, spans, shortest, removed)
            if lost:
                _recompute(shortest, lost, gaps, tfs, all_lengths())
        else:
            last = sums[-1]
    if added is not None:
        docs, frequencies, new_shortest = added
        gaps = _extend(gaps, [docs[0] - last, *map(sub, docs[1:], docs[:-1])])
        tfs = _extend(tfs, frequencies.tolist())
        for tf, length in new_shortest.items():
            if shortest.get(tf, length + 1) > length:
                shortest[tf] = length
    if not gaps:
        return None
    # A removed gap or frequency may have been the only one needing the wider type (a merged
    # gap is at least as wide as the two it joins).
    gaps, tfs = _narrowest(gaps, gone_gaps), _narrowest(tfs, gone_tfs)
    pairs = array("q", [value for tf in sorted(shortest) for value in (tf, shortest[tf])])
    packed_pairs = _pack(array(_code(max(pairs)), pairs))
    return len(gaps), _pack(gaps), _pack(tfs), packed_pairs


def _cut(gaps: array, tfs: array, sums: list[int], spans: list[tuple[int, int]], shortest: dict[float, int],
         removed: dict[int, int]) -> tuple[array, array, int, set[float]]:
    """The gaps and frequencies without the positions of ``spans``; the last kept document
    number; the frequencies whose shortest chunk was removed."""
    kept_gaps, kept_tfs = array(gaps.typecode), array(tfs.typecode)
    lost: set[float] = set()
    start, previous = 0, 0
    for a, b in [*spans, (len(gaps), len(gaps))]:
        if start < a:
            # The first kept gap after a removed stretch spans it: the stored gaps after it hold.
            kept_gaps = _extend(kept_gaps, [sums[start] - previous])
            kept_gaps.extend(_widened(gaps[start + 1:a], kept_gaps.typecode))
            kept_tfs.extend(tfs[start:a])
            previous = sums[a - 1]
        for doc, tf in zip(sums[a:b], tfs[a:b]):
            if shortest.get(tf) == removed[doc]:
                lost.add(tf)
        start = b
    return kept_gaps, kept_tfs, previous, lost


def _recompute(shortest: dict[float, int], lost: set[float], gaps: array, tfs: array, lengths: Sequence[int]) -> None:
    """Find again, per frequency in ``lost``, the shortest kept chunk holding the term that often."""
    docs = list(accumulate(gaps))
    for tf in lost:
        found = [lengths[doc] for doc in compress(docs, map(tf.__eq__, tfs))]
        if found:
            shortest[tf] = min(found)
        else:
            del shortest[tf]
