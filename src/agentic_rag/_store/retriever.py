"""The ``Retriever`` port over a knowledge store, always searching its newest generation."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from agentic_rag._contracts import Snippet
from agentic_rag._contracts.validation import require_int, require_text
from agentic_rag._retrieval.hits import SearchIndex
from agentic_rag._retrieval.index_retriever import IndexRetriever, snippet_from_hit
from agentic_rag._store.list_pages import search_ranked

__all__ = ["IndexSource", "StoreRetriever"]


class IndexSource(Protocol):
    """What the retriever needs of a store (a :class:`~agentic_rag._store.KnowledgeStore`):
    its current indexes. Named here so this module does not import the store's (which imports
    it): the dependency runs one way."""

    @property
    def directory(self) -> Path: ...

    def bm25(self) -> SearchIndex: ...

    def vector_index(self) -> SearchIndex: ...


class StoreRetriever(IndexRetriever):
    """An :class:`IndexRetriever` that asks the store for its current index on every query.

    A store re-indexed while the retriever lives (by this process or another) is searched at
    its new generation from the next query on; each query sees one consistent generation.
    Snippets are whole chunks; their metadata holds ``path``, ``start_line``, ``end_line``,
    ``section``, ``sha256`` and ``title``.

    Args:
        store: The knowledge store (anything with its current ``bm25()`` and ``vector_index()``).
        vector: Search the store's vector index instead of its BM25 index.
        name: A label for traces (default ``"store-bm25"`` / ``"store-vector"``).

    Raises:
        StoreError: The store is missing or empty, or has no vector index when asked for one.
    """

    def __init__(self, store: IndexSource, *, vector: bool = False, name: str = "") -> None:
        self.store = store
        self.vector = vector
        super().__init__(self._current(), name=name or ("store-vector" if vector else "store-bm25"))

    def _current(self) -> SearchIndex:
        return self.store.vector_index() if self.vector else self.store.bm25()

    def retrieve(self, query: str, k: int, *, corpus_ids: Sequence[str] | None = None) -> tuple[Snippet, ...]:
        """Search the store's current generation.

        Args:
            query: The query text.
            k: At most this many snippets (>= 1).
            corpus_ids: Only search these corpora.

        Returns:
            Snippets by score descending, ties by chunk id; chunks of pages that only list
            other pages after the rest (see :mod:`agentic_rag._store.list_pages`).

        Raises:
            InvalidInputError: ``query`` not a string or ``k`` below 1.
            StoreError: The store became unreadable.
        """
        require_text(query, "query", stage="retriever", allow_empty=True)
        require_int(k, "k", minimum=1, stage="retriever")
        index = self._current()
        self.index = index
        hits = search_ranked(index, query, k, corpus_ids=corpus_ids, where=self.where)
        return tuple(snippet_from_hit(index, hit) for hit in hits)

    def __repr__(self) -> str:
        return f"StoreRetriever({self.name}, {str(self.store.directory)!r})"
