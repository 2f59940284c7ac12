"""How informative each term is in one collection, and a cache whose memory stays bounded.

The relevance model weighs a question's terms by their inverse document frequency in the
indexed collection (see :mod:`agentic_rag._text.relevance`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import TypeVar

__all__ = ["TermWeights", "bounded_cache"]

_T = TypeVar("_T")


class TermWeights:
    """Inverse document frequencies of analysed terms in one collection.

    ``idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))`` as in BM25. Without statistics every
    term weighs 1.

    Args:
        document_count: Documents in the collection (0: no statistics).
        frequency: Document frequency of an analysed term.
    """

    def __init__(self, document_count: int = 0, frequency: Callable[[str], int] | None = None) -> None:
        self.document_count = max(0, int(document_count))
        self._frequency = frequency
        self._idf = lru_cache(maxsize=16384)(self._idf_uncached)

    @classmethod
    def from_index(cls, index: object) -> TermWeights:
        """Weights from an index with ``document_frequency(term)`` and ``len()`` (a
        :class:`~agentic_rag._retrieval.BM25Index`)."""
        return cls(len(index), index.document_frequency)  # type: ignore[arg-type, attr-defined]

    @property
    def has_statistics(self) -> bool:
        """True when weights come from a collection."""
        return self._frequency is not None and self.document_count > 0

    def frequency(self, term: str) -> int:
        """Document frequency of ``term`` (0 without statistics)."""
        return self._frequency(term) if self.has_statistics else 0  # type: ignore[misc]

    def idf(self, term: str) -> float:
        """The term's inverse document frequency (1.0 without statistics)."""
        return self._idf(term)

    def _idf_uncached(self, term: str) -> float:
        if not self.has_statistics:
            return 1.0
        n, df = self.document_count, self.frequency(term)
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


#: Arguments longer than this (characters, all string arguments together) are not cached: a
#: long-running server asked huge queries must not keep them.
_CACHED_CHARS = 16384


def bounded_cache(function: Callable[..., _T], maxsize: int) -> Callable[..., _T]:
    """``function`` with a least-recently-used cache of ``maxsize`` entries that skips calls
    whose string arguments are long, so the cache's memory stays bounded."""
    cached = lru_cache(maxsize=maxsize)(function)

    def call(*args: str) -> _T:
        if sum(len(a) for a in args) > _CACHED_CHARS:
            return function(*args)
        return cached(*args)

    call.cache_info = cached.cache_info  # type: ignore[attr-defined]
    return call
