"""Plain functions as the parallel workflow's components (``scripts/workflow.py``'s mapping
of components): a retriever ``fn(query, top_k)``, a rewriter ``fn(query)``, a reranker
``fn(query, documents, top_k)``, and a model-backed rewriter asked with the request's settings.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from agentic_rag._contracts import Snippet
from agentic_rag._errors import InvalidInputError
from agentic_rag._parallel import FunctionRetriever
from agentic_rag._parallel.contracts import RewriteRequest, RewriteResult

__all__ = ["FunctionReranker", "FunctionViewRewriter", "TunedRewriter", "accepts", "function_retriever"]


def accepts(fn: Callable[..., Any], name: str) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == name or p.kind is p.VAR_KEYWORD for p in params)


def function_retriever(item: Any, taken: dict[str, int]) -> Any:
    """A Retriever object as is; a function wrapped, with a distinct name (the second
    ``<lambda>`` is ``<lambda>#2``)."""
    if callable(getattr(item, "retrieve", None)) or not callable(item):
        return item
    base = getattr(item, "name", None) or getattr(item, "__name__", "") or type(item).__name__
    taken[base] = taken.get(base, 0) + 1
    name = base if taken[base] == 1 else f"{base}#{taken[base]}"
    return FunctionRetriever(item, name=name, kind=getattr(item, "kind", "other"))


class FunctionViewRewriter:
    """A function ``fn(query) -> list[str]`` or ``{"queries": [...]}`` as a query-view rewriter."""

    def __init__(self, fn: Callable[[str], Any]) -> None:
        self.fn = fn
        self.name = getattr(fn, "__name__", "") or "rewriter"

    def rewrite(self, request: RewriteRequest) -> RewriteResult:
        made = self.fn(request.query)
        if isinstance(made, Mapping):
            unknown = sorted(set(made) - {"queries"})
            if unknown:
                raise InvalidInputError(f"rewriter returned unknown keys {unknown}; expected {{'queries': [...]}}", stage="workflow")
            made = made.get("queries")
        if not isinstance(made, (list, tuple)) or not made:
            raise InvalidInputError(f"rewriter must return a non-empty list of strings or {{'queries': [...]}}, got {made!r}"[:200], stage="workflow")
        return RewriteResult(queries=tuple(made))


class TunedRewriter:
    """A model-backed rewriter asked with the request's temperature and token cap."""

    def __init__(self, inner: Any, temperature: float | None, max_tokens: int | None) -> None:
        self.inner, self.temperature, self.max_tokens = inner, temperature, max_tokens
        self.name = getattr(inner, "name", "") or type(inner).__name__
        self.requires_vector_retriever = getattr(inner, "requires_vector_retriever", False)

    def rewrite(self, request: RewriteRequest) -> RewriteResult:
        return self.inner.rewrite(RewriteRequest(request.query, temperature=self.temperature, max_tokens=self.max_tokens))


class FunctionReranker:
    """A function ``fn(query, documents, top_k) -> documents`` as a reranker: it sees each hit
    as ``{"id", "corpus_id", "text", "score"}`` and returns those (or their ids), best first; a
    returned ``score`` replaces the hit's score, else the order sets it."""

    def __init__(self, fn: Callable[[str, list[dict[str, Any]], int], Any]) -> None:
        self.fn = fn
        self.name = getattr(fn, "__name__", "") or "reranker"

    def rerank(self, query: str, hits: Sequence[Snippet], top_k: int) -> tuple[Snippet, ...]:
        by_id = {h.document_id: h for h in hits}
        shown = [{"id": h.document_id, "corpus_id": h.corpus_id, "text": h.text, "score": h.score} for h in hits]
        made = self.fn(query, shown, top_k)
        if not isinstance(made, (list, tuple)):
            raise InvalidInputError(f"reranker must return a list of documents, got {type(made).__name__}", stage="workflow")
        out: dict[str, Snippet] = {}
        for n, item in enumerate(made[:top_k]):
            key = item.get("id") if isinstance(item, Mapping) else item
            if key not in by_id:
                raise InvalidInputError(f"reranker returned a document not in its input: {key!r}", stage="workflow")
            score = item.get("score") if isinstance(item, Mapping) and isinstance(item.get("score"), (int, float)) else float(len(made) - n)
            out.setdefault(key, dataclasses.replace(by_id[key], score=float(score)))
        return tuple(out.values())
