"""The persistent knowledge store: SQLite rows plus generation-switched index files.

:class:`KnowledgeStore` indexes folders incrementally and transactionally
(:meth:`~KnowledgeStore.index`) and serves consistent reads to any number of threads and
processes (:meth:`~KnowledgeStore.search`, :meth:`~KnowledgeStore.retriever`,
:meth:`~KnowledgeStore.corpora`, :meth:`~KnowledgeStore.documents`).
"""

from __future__ import annotations

from agentic_rag._store.knowledge_store import DEFAULT_STORE_DIRECTORY, KnowledgeStore
from agentic_rag._store.records import IndexPhase, IndexProgress, IndexReport, StoreHit, StoreStats
from agentic_rag._store.retriever import StoreRetriever

__all__ = [
    "DEFAULT_STORE_DIRECTORY",
    "IndexPhase",
    "IndexProgress",
    "IndexReport",
    "KnowledgeStore",
    "StoreHit",
    "StoreRetriever",
    "StoreStats",
]
