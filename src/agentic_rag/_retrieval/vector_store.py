"""The vector tables behind ``VectorIndex``: dense rows in one float32 array, sparse postings.

Both tables are immutable: adding or removing rows returns a new table, so a search running
on one never sees a half-applied change. Scores depend only on a row's own vector and the
query (never on its row number or on insertion order), so an index grown by adds and removes
scores exactly like one built fresh from the same documents.
"""

from __future__ import annotations

import math
import sys
import threading
from array import array
from bisect import bisect_left
from collections import defaultdict, deque
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from itertools import compress, repeat
from operator import ge, mul

__all__ = ["DenseVectors", "SparsePostings", "array_from_bytes", "array_to_bytes", "l2_normalised"]

_dot: Callable[[Sequence[float], Sequence[float]], float]
if hasattr(math, "sumprod"):  # Python 3.12+: one C loop, and more accurate
    _dot = math.sumprod  # type: ignore[attr-defined]
else:
    def _dot(a: Sequence[float], b: Sequence[float]) -> float:
        return sum(map(mul, a, b))


def _consume(iterator: Iterator[object]) -> None:
    deque(iterator, maxlen=0)


def l2_normalised(vector: list[float]) -> list[float]:
    """Return ``vector`` scaled to unit length (a zero vector is returned unchanged)."""
    norm = math.sqrt(math.fsum(v * v for v in vector))
    return [v / norm for v in vector] if norm else vector


def array_to_bytes(values: array) -> bytes:
    """Serialise an array little-endian, whatever the machine's byte order."""
    if sys.byteorder == "big":
        values = array(values.typecode, values)
        values.byteswap()
    return values.tobytes()


def array_from_bytes(typecode: str, blob: bytes) -> array:
    """Read an array written by :func:`array_to_bytes`.

    Raises:
        ValueError: ``blob`` is not a whole number of items.
    """
    values = array(typecode)
    if len(blob) % values.itemsize:
        raise ValueError(f"{len(blob)} bytes is not a whole number of {values.itemsize}-byte items")
    values.frombytes(blob)
    if sys.byteorder == "big":
        values.byteswap()
    return values


class DenseVectors:
    """Row ``r`` is ``vectors[r * dimensions:(r + 1) * dimensions]`` (float32).

    Args:
        dimensions: Length of every row.
        vectors: The rows back to back.
    """

    __slots__ = ("dimensions", "vectors")

    def __init__(self, dimensions: int, vectors: array | None = None) -> None:
        self.dimensions = dimensions
        self.vectors = vectors if vectors is not None else array("f")

    def __len__(self) -> int:
        return len(self.vectors) // self.dimensions

    def appended(self, rows: Sequence[Sequence[float]]) -> DenseVectors:
        """Return a table with ``rows`` added after the existing ones."""
        vectors = array("f", self.vectors)
        for row in rows:
            vectors.extend(row)
        return DenseVectors(self.dimensions, vectors)

    def kept(self, rows: Sequence[int]) -> DenseVectors:
        """Return a table of only ``rows`` (old row numbers), renumbered in that order."""
        d, old = self.dimensions, memoryview(self.vectors)
        vectors = array("f")
        for row in rows:
            vectors.frombytes(old[row * d:(row + 1) * d].tobytes())
        return DenseVectors(d, vectors)

    def scores(self, query: Sequence[float]) -> list[float]:
        """Return the dot product of ``query`` with every row, by row number."""
        d, view, dot = self.dimensions, memoryview(self.vectors), _dot
        return [dot(query, view[offset:offset + d]) for offset in range(0, len(self.vectors), d)]


class SparsePostings:
    """An inverted file of tf weights: for each dimension, the rows holding it.

    Dimension ``dims[j]`` is held by rows ``rows[offsets[j]:offsets[j + 1]]`` (ascending) with
    tf weights ``weights[...]`` (float32, no idf). A dimension's document frequency is its
    posting count, so the idf and each row's norm follow from the table and are computed
    once per table, on the first search (:meth:`statistics`).

    Args:
        row_count: Number of rows (documents), rows without postings included.
        dims: Sorted distinct dimensions (``'i'``).
        offsets: ``len(dims) + 1`` posting offsets (``'q'``).
        rows: Row numbers (``'i'``).
        weights: tf weights (``'f'``).
    """

    __slots__ = ("_lock", "_stats", "dims", "offsets", "row_count", "rows", "weights")

    def __init__(
        self,
        row_count: int = 0,
        dims: array | None = None,
        offsets: array | None = None,
        rows: array | None = None,
        weights: array | None = None,
    ) -> None:
        self.row_count = row_count
        self.dims = dims if dims is not None else array("i")
        self.offsets = offsets if offsets is not None else array("q", [0])
        self.rows = rows if rows is not None else array("i")
        self.weights = weights if weights is not None else array("f")
        self._stats: tuple[array, array] | None = None
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self.row_count

    def appended(self, vectors: Sequence[tuple[Sequence[int], Sequence[float]]]) -> SparsePostings:
        """Return a table with ``vectors`` as new rows numbered after the existing ones.

        Args:
            vectors: Per row, ``(dimensions strictly ascending, tf weights)``.
        """
        first = self.row_count
        # Per-dimension arrays filled through map() so the per-posting work stays in C.
        new_rows: defaultdict[int, array] = defaultdict(partial(array, "i"))
        new_weights: defaultdict[int, array] = defaultdict(partial(array, "f"))
        rows_of, weights_of, append = new_rows.__getitem__, new_weights.__getitem__, array.append
        for row, (dims, weights) in enumerate(vectors, start=first):
            _consume(map(append, map(rows_of, dims), repeat(row)))
            _consume(map(append, map(weights_of, dims), weights))
        dims, offsets, rows, weights = array("i"), array("q", [0]), array("i"), array("f")
        old_dims, old_offsets, old_rows, old_weights = self.dims, self.offsets, self.rows, self.weights
        added = sorted(new_rows)
        i = j = 0
        while i < len(old_dims) or j < len(added):
            old_dim = old_dims[i] if i < len(old_dims) else None
            new_dim = added[j] if j < len(added) else None
            dim = old_dim if new_dim is None or (old_dim is not None and old_dim <= new_dim) else new_dim
            if dim == old_dim:
                a, b = old_offsets[i], old_offsets[i + 1]
                rows.extend(old_rows[a:b])
                weights.extend(old_weights[a:b])
                i += 1
            if dim == new_dim:
                rows.extend(new_rows[dim])
                weights.extend(new_weights[dim])
                j += 1
            dims.append(dim)
            offsets.append(len(rows))
        return SparsePostings(first + len(vectors), dims, offsets, rows, weights)

    def kept(self, keep: Sequence[int]) -> SparsePostings:
        """Return a table of only the rows in ``keep`` (ascending old numbers), renumbered 0...

        Ascending order keeps every posting list sorted without a sort.
        """
        renumber = array("i", [-1]) * self.row_count
        for new, old in enumerate(keep):
            renumber[old] = new
        dims, offsets, rows, weights = array("i"), array("q", [0]), array("i"), array("f")
        old_offsets, old_rows, old_weights, lookup = self.offsets, self.rows, self.weights, renumber.__getitem__
        for j, dim in enumerate(self.dims):
            a, b = old_offsets[j], old_offsets[j + 1]
            numbers = list(map(lookup, old_rows[a:b]))
            mask = list(map(ge, numbers, repeat(0)))
            before = len(rows)
            rows.extend(compress(numbers, mask))
            if len(rows) > before:
                weights.extend(compress(old_weights[a:b], mask))
                dims.append(dim)
                offsets.append(len(rows))
        return SparsePostings(len(keep), dims, offsets, rows, weights)

    def statistics(self, idf: Callable[[int, int], float]) -> tuple[array, array]:
        """Return ``(idf per dimension aligned with dims, L2 norm of each row's tf-idf)``.

        Computed on first use and kept: the table never changes.
        """
        stats = self._stats
        if stats is not None:
            return stats
        with self._lock:
            if self._stats is None:
                n, offsets = self.row_count, self.offsets
                idfs = array("d", (idf(offsets[j + 1] - offsets[j], n) for j in range(len(self.dims))))
                squares = [0.0] * n
                rows, weights = self.rows, self.weights
                # Dimensions in ascending order, so each row's sum is added up in the same
                # order whatever its row number: a rebuilt table gives identical norms.
                for j in range(len(self.dims)):
                    factor = idfs[j] * idfs[j]
                    a, b = offsets[j], offsets[j + 1]
                    for r, w in zip(rows[a:b], weights[a:b]):
                        squares[r] += w * w * factor
                self._stats = (idfs, array("d", map(math.sqrt, squares)))
            return self._stats

    def scores(
        self,
        query: tuple[Sequence[int], Sequence[float]],
        idf: Callable[[int, int], float],
        *,
        normalize: bool = True,
    ) -> list[float] | None:
        """Return the tf-idf dot product (cosine when ``normalize``) of ``query`` with every row.

        Args:
            query: The query's ``(dimensions ascending, tf weights)``.
            idf: The embedder's idf function ``(df, N) -> float``.
            normalize: Divide by both norms.

        Returns:
            Scores by row number, or ``None`` when the query vector is zero.
        """
        idfs, norms = self.statistics(idf)
        n, dims, offsets, rows, weights = self.row_count, self.dims, self.offsets, self.rows, self.weights
        unseen = idf(0, n)
        matched: list[tuple[int, float]] = []
        query_square = 0.0
        for dim, tf in zip(*query):
            j = bisect_left(dims, dim)
            if j < len(dims) and dims[j] == dim:
                weight = tf * idfs[j]
                matched.append((j, weight * idfs[j]))
            else:
                weight = tf * unseen
            query_square += weight * weight
        if query_square == 0.0:
            return None
        totals = [0.0] * n
        for j, factor in matched:
            a, b = offsets[j], offsets[j + 1]
            for r, w in zip(rows[a:b], weights[a:b]):
                totals[r] += factor * w
        if not normalize:
            return totals
        query_norm = math.sqrt(query_square)
        return [t / (query_norm * m) if m else 0.0 for t, m in zip(totals, norms)]
