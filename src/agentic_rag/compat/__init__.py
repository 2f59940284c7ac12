"""Code written for the earlier agentic-rag scaffold, running on this library.

Rewrite ``agentic_rag.X`` imports to ``agentic_rag.compat.X``: ``contracts``, ``orchestrator``,
``sufficiency``, ``evaluation``, ``adapters.in_memory``, ``adapters.retriever`` and
``adapters.llm`` keep the scaffold's names and call shapes, and this package holds the
scaffold's top-level names. Everything translates to the modern contracts and runs on the
modern engine; MIGRATION.md lists the names and the intended differences.
"""

from __future__ import annotations

from agentic_rag.compat.pipeline import (
    AgenticRAGPipeline,
    CorpusDescriptor,
    CoverageSufficiencyJudge,
    ExtractiveSynthesizer,
    InMemoryDocument,
    InMemoryKeywordRetriever,
    KeywordPlanner,
    TemplateQueryRewriter,
)

__all__ = [
    "AgenticRAGPipeline",
    "CorpusDescriptor",
    "CoverageSufficiencyJudge",
    "ExtractiveSynthesizer",
    "InMemoryDocument",
    "InMemoryKeywordRetriever",
    "KeywordPlanner",
    "TemplateQueryRewriter",
]
