"""Retrievers backed by search services and by other libraries' retrievers.

Vertex AI RAG Engine, Elasticsearch / OpenSearch, and duck-typed LangChain / LlamaIndex
adapters, all implementing the ``Retriever`` port with the standard library only.
"""

from __future__ import annotations

from agentic_rag.providers.elasticsearch import ElasticsearchRetriever, SearchMode, knn_body, match_body
from agentic_rag.providers.elasticsearch_bulk import BulkFailure, BulkResult
from agentic_rag.providers.vertex import VertexRagRetriever
from agentic_rag.providers.wrappers import LangChainRetriever, LlamaIndexRetriever

__all__ = [
    "BulkFailure",
    "BulkResult",
    "ElasticsearchRetriever",
    "LangChainRetriever",
    "LlamaIndexRetriever",
    "SearchMode",
    "VertexRagRetriever",
    "knn_body",
    "match_body",
]
