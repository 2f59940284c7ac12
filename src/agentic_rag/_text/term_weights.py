"""How informative each term is in one collection, and a cache whose memory stays bounded.

The relevance model weighs a question's terms by their inverse document frequency in the
indexed collection (see :mod:`agentic_rag._text.relevance`).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
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

    def __init__(self, document_count: int = 0, frequency: Callable[[str], int] | None = None,
                 versioned_forms: Callable[[str], tuple[str, ...]] | None = None) -> None:
        self.document_count = max(0, int(document_count))
        self._frequency = frequency
        self._versioned_forms = versioned_forms
        self._idf = lru_cache(maxsize=16384)(self._idf_uncached)

    @classmethod
    def from_index(cls, index: object) -> TermWeights:
        """Weights from an index with ``document_frequency(term)`` and ``len()`` (a
        :class:`~agentic_rag._retrieval.BM25Index`), and its ``versioned_forms(term)`` when it
        has one."""
        return cls(len(index), index.document_frequency, getattr(index, "versioned_forms", None))  # type: ignore[arg-type, attr-defined]

    def versioned_forms(self, term: str) -> tuple[str, ...]:
        """The collection's terms that are ``term`` in a versioned form (``gplv2`` for ``gpl``);
        empty without statistics or when the index cannot say."""
        return self._versioned_forms(term) if self.has_statistics and self._versioned_forms is not None else ()

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


#: Arguments longer than this (characters, all string arguments together) are not kept as
#: keys: a long-running server asked huge queries must not keep them.
_CACHED_CHARS = 16384
#: Results for long arguments kept at once (by default), keyed by a fingerprint of the arguments.
_LONG_ENTRIES = 32
#: Arguments longer than this (characters, all together) are not cached at all.
_LONG_CHARS = 1 << 20


def _fingerprint(text: str) -> tuple[int, int, str, str]:
    # Length, hash and both ends: a string keeps its hash once computed, so a long passage
    # asked about again costs nothing to key, and two texts alike in all four do not occur.
    return len(text), hash(text), text[:32], text[-32:]


def bounded_cache(function: Callable[..., _T], maxsize: int, *, long_entries: int = _LONG_ENTRIES) -> Callable[..., _T]:
    """``function`` with a least-recently-used cache of ``maxsize`` entries whose memory stays
    bounded: calls whose string arguments are long are cached apart, at most ``long_entries``
    of them, under a fingerprint of the arguments rather than the arguments themselves (one
    question asks about the same long passage dozens of times, and each pass over it is
    linear in its length); calls with arguments of over a million characters are not cached."""
    cached = lru_cache(maxsize=maxsize)(function)
    long_results: OrderedDict[tuple[tuple[int, int, str, str], ...], _T] = OrderedDict()
    lock = threading.Lock()  # the parallel workflow's branches share the caches

    def call(*args: str) -> _T:
        size = sum(len(a) for a in args)
        if size <= _CACHED_CHARS:
            return cached(*args)
        if size > _LONG_CHARS:
            return function(*args)
        key = tuple(map(_fingerprint, args))
        with lock:
            if key in long_results:
                long_results.move_to_end(key)
                return long_results[key]
        value = function(*args)
        with lock:
            long_results[key] = value
            if len(long_results) > long_entries:
                long_results.popitem(last=False)
        return value

    call.cache_info = cached.cache_info  # type: ignore[attr-defined]
    return call
