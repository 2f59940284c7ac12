"""Embedders in pure Python: a deterministic hashing embedder and an adapter for any encoder.

:class:`~agentic_rag._retrieval.hashing_embedder.HashingEmbedder` (defined in its own module,
re-exported here) needs no model: it hashes character n-grams and whole words into a large
sparse space with tf-idf weights, so it matches spelling and morphology variants that
exact-term BM25 misses. :class:`CallableEmbedder` wraps a function such as a
sentence-transformers ``model.encode`` without importing it. :class:`SparseEmbedder` is what
lets :class:`~agentic_rag._retrieval.vector.VectorIndex` take its sparse path, and
:func:`describe_embedder` gives the JSON description a saved index stores.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import InvalidInputError
from agentic_rag._retrieval.embedding_checks import coerce_vectors, require_texts
from agentic_rag._retrieval.hashing_embedder import MAX_DENSE_DIMENSIONS, HashingEmbedder

__all__ = ["MAX_DENSE_DIMENSIONS", "CallableEmbedder", "HashingEmbedder", "SparseEmbedder", "describe_embedder"]

_STAGE = "embedder"


@runtime_checkable
class SparseEmbedder(Protocol):
    """An embedder whose vectors are sparse tf-idf, so an index can keep the idf itself.

    :class:`~agentic_rag._retrieval.vector.VectorIndex` takes its sparse path (inverted file,
    document frequencies learned from the indexed documents) for any embedder with these
    methods, and its dense path for every other ``Embedder``.
    """

    def term_weights(self, texts: Sequence[str]) -> list[tuple[Sequence[int], Sequence[float]]]:
        """Return, per text, ``(dimensions, tf weights)``: dimensions strictly ascending,
        weights of the same length, no idf, no normalisation."""
        ...

    def idf(self, document_frequency: int, document_count: int) -> float:
        """Return the inverse document frequency of a dimension held by ``document_frequency``
        of ``document_count`` documents."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """Describe the embedder's settings (stored in saved indexes)."""
        ...


class CallableEmbedder:
    """An ``Embedder`` around any ``fn(list[str]) -> sequence of vectors``.

    Works with sentence-transformers' ``model.encode``, an HTTP client or a plain function,
    without importing any of them: numpy rows are converted with ``list(map(float, row))``.

    Args:
        fn: Called with a list of at most ``batch_size`` texts; returns one vector per text.
        batch_size: Texts per call of ``fn``.
        dimensions: The dimension every vector must have; ``None`` learns it from the first
            vector returned and holds every later one to it.
        name: A label stored in saved indexes and used in errors (default: ``fn``'s name).

    Raises:
        InvalidInputError: ``fn`` not callable, ``batch_size`` or ``dimensions`` not an int >= 1,
            ``name`` not a string.

    Exceptions raised by ``fn`` itself propagate unchanged.
    """

    def __init__(
        self,
        fn: Callable[[list[str]], Any],
        *,
        batch_size: int = 64,
        dimensions: int | None = None,
        name: str = "",
    ) -> None:
        if not callable(fn):
            raise InvalidInputError(f"fn must be callable, got {type(fn).__name__} {fn!r:.60}", stage=_STAGE)
        require_int(batch_size, "batch_size", minimum=1, stage=_STAGE)
        if dimensions is not None:
            require_int(dimensions, "dimensions", minimum=1, stage=_STAGE)
        if not isinstance(name, str):
            raise InvalidInputError(f"name must be a string, got {type(name).__name__} {name!r}", stage=_STAGE)
        self._fn = fn
        self.batch_size = batch_size
        self._dimensions = dimensions
        self.name = name or getattr(fn, "__qualname__", "") or type(fn).__qualname__
        self._lock = threading.Lock()

    @property
    def dimensions(self) -> int | None:
        """The vector dimension: as given, or learned from the first call (``None`` before)."""
        return self._dimensions

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed ``texts`` in batches of ``batch_size``.

        Args:
            texts: The texts, in order.

        Returns:
            One list of floats per text, all of :attr:`dimensions`.

        Raises:
            InvalidInputError: ``texts`` not a sequence of strings, or ``fn`` returned a wrong
                number of vectors, a vector of another dimension, or a non-numeric/non-finite one.
        """
        items = require_texts(texts)
        out: list[list[float]] = []
        for start in range(0, len(items), self.batch_size):
            batch = items[start:start + self.batch_size]
            vectors = coerce_vectors(self._fn(batch), count=len(batch), dimensions=self._dimensions, source=f"embedder {self.name!r}", offset=start)
            if self._dimensions is None:
                with self._lock:
                    if self._dimensions is None:
                        self._dimensions = len(vectors[0])
                if len(vectors[0]) != self._dimensions:
                    raise InvalidInputError(f"embedder {self.name!r} returned dimension {len(vectors[0])}, expected {self._dimensions}", stage=_STAGE)
            out.extend(vectors)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Describe the embedder for a saved index: its name and dimension only."""
        return {"type": "callable", "name": self.name, "dimensions": self._dimensions}

    def __repr__(self) -> str:
        return f"CallableEmbedder(name={self.name!r}, dimensions={self._dimensions}, batch_size={self.batch_size})"


def describe_embedder(embedder: object, dimensions: int | None = None) -> dict[str, Any]:
    """Return the JSON description a saved index stores for ``embedder``.

    Args:
        embedder: Any embedder; one with a ``to_dict`` method describes itself.
        dimensions: The dimension the index holds, filled in when the description lacks it.

    Returns:
        A JSON-compatible dict with at least ``type`` and ``name`` (``type`` ``"external"`` for
        an embedder that cannot describe itself).
    """
    to_dict = getattr(embedder, "to_dict", None)
    description = dict(to_dict()) if callable(to_dict) else {"type": "external"}
    description.setdefault("type", "external")
    description.setdefault("name", getattr(embedder, "name", "") or type(embedder).__qualname__)
    if description.get("dimensions") is None and dimensions is not None:
        description["dimensions"] = dimensions
    return description
