"""The ``Retriever`` port over a BM25 index."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from agentic_rag._contracts.corpus import Document
from agentic_rag._errors import InvalidInputError
from agentic_rag._retrieval.bm25 import BM25Index
from agentic_rag._retrieval.index_retriever import IndexRetriever

__all__ = ["BM25Retriever"]


class BM25Retriever(IndexRetriever):
    """The ``Retriever`` port over a :class:`BM25Index` (whole documents as snippets).

    Args:
        index: The index to search.
        where: A metadata filter applied to every query.
        name: Label for traces.

    Raises:
        InvalidInputError: ``index`` is not a ``BM25Index``.
    """

    def __init__(self, index: BM25Index, *, where: Mapping[str, Any] | None = None, name: str = "bm25") -> None:
        if not isinstance(index, BM25Index):
            raise InvalidInputError(f"BM25Retriever needs a BM25Index, got {type(index).__name__}", stage="retriever")
        super().__init__(index, where=where, name=name)

    @classmethod
    def from_documents(
        cls,
        documents: Iterable[Document],
        *,
        where: Mapping[str, Any] | None = None,
        name: str = "bm25",
        **settings: Any,
    ) -> BM25Retriever:
        """Index ``documents`` (``settings`` as for :class:`BM25Index`) and wrap the index."""
        return cls(BM25Index.from_documents(documents, **settings), where=where, name=name)
