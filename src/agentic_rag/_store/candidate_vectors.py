"""The vector branch of a parallel ``ask`` over a store that keeps no vector index.

Embedding every chunk of the store on each call (what a new process had to do before) costs
in proportion to the folder. This branch instead takes BM25's best candidates for the query
(:data:`CANDIDATES` of them, read from the postings like any search) and ranks them by the
hashing embedder's cosine similarity, with document frequencies over those candidates: a
second, character n-gram opinion on the passages the lexical branch found, which RRF fuses
with BM25's own order. A chunk sharing no analysed term with the query is not found by this
branch (the full vector index, ``index --vector``, still finds it). ``bench/retrieval/bench_cold_search.py``
measures what a cold parallel ``ask`` costs with it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from agentic_rag._contracts import Document, Snippet
from agentic_rag._contracts.validation import require_int, require_text
from agentic_rag._retrieval.embedders import HashingEmbedder
from agentic_rag._retrieval.hits import SearchIndex
from agentic_rag._retrieval.index_retriever import snippet_from_hit
from agentic_rag._retrieval.vector import VectorIndex
from agentic_rag._text.long_runs import bounded_runs

__all__ = ["CANDIDATES", "CandidateVectorRetriever"]

#: How many BM25 candidates the vector branch ranks.
CANDIDATES = 50


class CandidateVectorRetriever:
    """Rank BM25's best candidates by hashing-embedder similarity (a ``Retriever``).

    Args:
        bm25: Returns the store's current BM25 index (called per query, so a new generation
            is followed).
        candidates: How many BM25 hits to rank (>= 1).
        name: A label for traces.
    """

    def __init__(self, bm25: object, *, candidates: int = CANDIDATES, name: str = "hashing-vectors") -> None:
        if not callable(bm25):
            raise TypeError("bm25 must be a callable returning the store's BM25 index")
        self._bm25 = bm25
        self.candidates = require_int(candidates, "candidates", minimum=1, stage="retriever")
        self.name = name
        self._embedder = HashingEmbedder()  # one embedder: its word features are cached across queries

    def retrieve(self, query: str, k: int, *, corpus_ids: Sequence[str] | None = None) -> tuple[Snippet, ...]:
        """The ``k`` candidates most similar to ``query``, best first (ties by chunk id).

        Raises:
            InvalidInputError: ``query`` not a string or ``k`` below 1.
        """
        require_text(query, "query", stage="retriever", allow_empty=True)
        require_int(k, "k", minimum=1, stage="retriever")
        index: SearchIndex = self._bm25()
        hits = index.search(query, max(k, self.candidates), corpus_ids=corpus_ids)
        if not hits:
            return ()
        vectors = VectorIndex(self._embedder)
        vectors.add([_read_bounded(index.get(hit.document_id)) for hit in hits])
        # The snippets carry the chunks as stored; only the ranking read them bounded.
        return tuple(snippet_from_hit(index, hit) for hit in vectors.search(query, k))

    def __repr__(self) -> str:
        return f"CandidateVectorRetriever({self.name}, candidates={self.candidates})"


def _read_bounded(document: Document) -> Document:
    """``document`` with a run of data thousands of characters long read up to a bound (see
    :mod:`agentic_rag._text.long_runs`): embedding each piece of a 100 KB base64 token at every
    question cost seconds, and says nothing about what the chunk is about."""
    text = bounded_runs(document.text)
    return document if text is document.text else dataclasses.replace(document, text=text)
