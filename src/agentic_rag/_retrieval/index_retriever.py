"""The adapter that plugs any :class:`SearchIndex` into the ``Retriever`` port."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agentic_rag._contracts import Snippet
from agentic_rag._contracts.validation import require_int, require_text
from agentic_rag._retrieval.hits import SearchHit, SearchIndex

__all__ = ["IndexRetriever", "snippet_from_hit"]


def snippet_from_hit(index: SearchIndex, hit: SearchHit) -> Snippet:
    """Turn a search hit into a whole-document snippet (title kept in metadata)."""
    document = index.get(hit.document_id)
    metadata: dict[str, Any] = dict(document.metadata)
    if document.title:
        metadata["title"] = document.title
    return Snippet(
        id=f"{document.corpus_id}/{document.id}",
        corpus_id=document.corpus_id,
        document_id=document.id,
        text=document.text,
        score=hit.score,
        metadata=metadata,
    )


class IndexRetriever:
    """A ``Retriever`` over an index: each hit becomes a whole-document :class:`Snippet`.

    Args:
        index: A ``BM25Index``, ``VectorIndex`` or anything with the same ``search``/``get``.
        where: A metadata filter applied to every query.
        name: A label for traces and fusion explanations.
    """

    def __init__(self, index: SearchIndex, *, where: Mapping[str, Any] | None = None, name: str = "") -> None:
        self.index = index
        self.where = dict(where) if where else None
        self.name = name or type(index).__name__

    def retrieve(self, query: str, k: int, *, corpus_ids: Sequence[str] | None = None) -> tuple[Snippet, ...]:
        """Search the index and return snippets best first.

        Args:
            query: The query text.
            k: At most this many snippets.
            corpus_ids: Only search these corpora.

        Returns:
            Snippets ordered by score, ties by document id.

        Raises:
            InvalidInputError: ``query`` not a string or ``k`` below 1.
        """
        require_text(query, "query", stage="retriever", allow_empty=True)
        require_int(k, "k", minimum=1, stage="retriever")
        hits = self.index.search(query, k, corpus_ids=corpus_ids, where=self.where)
        return tuple(snippet_from_hit(self.index, hit) for hit in hits)

    def __repr__(self) -> str:
        return f"IndexRetriever({self.name})"
