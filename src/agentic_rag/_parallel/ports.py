"""The parallel workflow's own ports: query-view rewriter, reranker and generator.

The retriever slot uses the shared :class:`agentic_rag._ports.Retriever` port, so one retriever
serves both workflows. Each port has one primitive method; the workflow adds the fan-out,
deadline and fusion on top.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from agentic_rag._contracts import Snippet
from agentic_rag._parallel.contracts import RewriteRequest, RewriteResult
from agentic_rag._parallel.evidence import FusedDocument, GeneratedAnswer

__all__ = ["Generator", "QueryViewRewriter", "Reranker"]


@runtime_checkable
class QueryViewRewriter(Protocol):
    """Turns a query into the query views the retrievers search.

    (The agentic workflow's ``QueryRewriter`` turns plans into subqueries; this one only sees
    a query.) A rewriter that sets ``requires_vector_retriever = True``, as HyDE does, is only
    accepted by a workflow that binds a vector retriever.
    """

    def rewrite(self, request: RewriteRequest) -> RewriteResult:
        """Return one HyDE-style ``rewritten_query`` or a non-empty list of ``queries``."""
        ...


@runtime_checkable
class Reranker(Protocol):
    """Reorders one branch's hits for a query."""

    def rerank(self, query: str, hits: Sequence[Snippet], top_k: int) -> tuple[Snippet, ...]:
        """Return at most ``top_k`` of ``hits`` (no duplicates), best first by the reranker's
        score (which replaces ``Snippet.score``), ties broken by snippet id."""
        ...


@runtime_checkable
class Generator(Protocol):
    """Writes the answer from the fused documents."""

    def generate(self, query: str, documents: Sequence[FusedDocument]) -> GeneratedAnswer:
        """Return an answer whose ``[n]`` markers cite ``documents[n - 1]``."""
        ...
