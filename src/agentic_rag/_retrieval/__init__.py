"""Retrieval engines in pure Python: BM25, exact vector search, embedders, the saved-index
format, and the adapters that plug any of them into the ``Retriever`` port."""

from __future__ import annotations

from agentic_rag._lazy import lazy_exports

# Where each name lives; a module is imported when one of its names is first used.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "agentic_rag._retrieval.bm25": ("BM25Index",),
    "agentic_rag._retrieval.bm25_retriever": ("BM25Retriever",),
    "agentic_rag._retrieval.bm25_scoring": ("BM25_VARIANTS",),
    "agentic_rag._retrieval.embedders": ("CallableEmbedder", "HashingEmbedder", "SparseEmbedder"),
    "agentic_rag._retrieval.function_retriever": ("FunctionRetriever", "RetrieverKind"),
    "agentic_rag._retrieval.hits": ("DocumentFilter", "SearchHit", "SearchIndex"),
    "agentic_rag._retrieval.index_retriever": ("IndexRetriever",),
    "agentic_rag._retrieval.vector": ("VectorIndex",),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)
