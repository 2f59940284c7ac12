"""The persistent knowledge store: SQLite rows plus generation-switched index files.

:class:`KnowledgeStore` indexes folders incrementally and transactionally
(:meth:`~KnowledgeStore.index`) and serves consistent reads to any number of threads and
processes (:meth:`~KnowledgeStore.search`, :meth:`~KnowledgeStore.retriever`,
:meth:`~KnowledgeStore.corpora`, :meth:`~KnowledgeStore.documents`).
"""

from __future__ import annotations

from agentic_rag._lazy import lazy_exports

# Where each name lives; a module is imported when one of its names is first used.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "agentic_rag._store.knowledge_store": ("DEFAULT_STORE_DIRECTORY", "KnowledgeStore"),
    "agentic_rag._store.records": ("IndexPhase", "IndexProgress", "IndexReport", "StoreHit", "StoreStats"),
    "agentic_rag._store.retriever": ("StoreRetriever",),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)
