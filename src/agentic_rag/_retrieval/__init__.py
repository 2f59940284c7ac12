"""Retrieval engines in pure Python: BM25, exact vector search, embedders, the saved-index
format, and the adapters that plug any of them into the ``Retriever`` port."""

from __future__ import annotations

from agentic_rag._retrieval.bm25 import BM25Index
from agentic_rag._retrieval.bm25_retriever import BM25Retriever
from agentic_rag._retrieval.bm25_scoring import BM25_VARIANTS
from agentic_rag._retrieval.embedders import CallableEmbedder, HashingEmbedder, SparseEmbedder
from agentic_rag._retrieval.function_retriever import FunctionRetriever, RetrieverKind
from agentic_rag._retrieval.hits import DocumentFilter, SearchHit, SearchIndex
from agentic_rag._retrieval.index_retriever import IndexRetriever
from agentic_rag._retrieval.vector import VectorIndex

__all__ = [
    "BM25Index",
    "BM25Retriever",
    "BM25_VARIANTS",
    "CallableEmbedder",
    "DocumentFilter",
    "FunctionRetriever",
    "HashingEmbedder",
    "IndexRetriever",
    "RetrieverKind",
    "SearchHit",
    "SearchIndex",
    "SparseEmbedder",
    "VectorIndex",
]
