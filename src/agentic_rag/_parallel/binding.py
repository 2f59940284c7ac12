"""Binding rules of the parallel workflow: which components fit which slot, retriever names,
vector-retriever detection (for HyDE) and how query views are planned onto retrievers.

A wrong binding raises :class:`~agentic_rag._errors.BindingError` at construction, naming the
slot and what it allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agentic_rag._contracts.validation import require_component
from agentic_rag._errors import BindingError
from agentic_rag._parallel.contracts import QueryView, RewriteResult, ViewKind
from agentic_rag._retrieval.function_retriever import RetrieverKind
from agentic_rag._text.questions import fold_query

__all__ = [
    "MAX_RETRIEVERS",
    "MIN_RETRIEVERS",
    "BoundRetriever",
    "bind_retrievers",
    "check_component",
    "check_hyde_rule",
    "component_name",
    "is_vector_retriever",
    "plan_views",
]

_STAGE = "binding"
MIN_RETRIEVERS = 2
MAX_RETRIEVERS = 4

_SLOT_METHODS = {
    "rewriter": ("rewrite", "rewrite(request: RewriteRequest) -> RewriteResult"),
    "reranker": ("rerank", "rerank(query, hits, top_k) -> tuple[Snippet, ...]"),
    "generator": ("generate", "generate(query, documents) -> GeneratedAnswer"),
}


@dataclass(frozen=True, slots=True)
class BoundRetriever:
    """A retriever in its slot, with the name and kind the workflow knows it by.

    Args:
        name: Unique name (its ``name`` attribute, or class name and position).
        retriever: The retriever object.
        is_vector: Whether it matches on vectors (the HyDE rule needs one).
    """

    name: str
    retriever: Any
    is_vector: bool


def component_name(component: object, fallback: str = "") -> str:
    """The component's ``name`` attribute when it is a non-empty string, else ``fallback`` or
    its class name."""
    name = getattr(component, "name", None)
    if isinstance(name, str) and name.strip():
        return name
    return fallback or type(component).__name__


def is_vector_retriever(retriever: object) -> bool:
    """True when ``retriever`` says it is a vector retriever (``kind == "vector"``) or wraps an
    index that has an embedder (as ``IndexRetriever(VectorIndex(...))`` does)."""
    kind = getattr(retriever, "kind", None)
    if kind is not None:
        try:
            return RetrieverKind(kind) is RetrieverKind.VECTOR
        except ValueError:
            return False
    index = getattr(retriever, "index", None)
    return index is not None and getattr(index, "embedder", None) is not None


def bind_retrievers(retrievers: object) -> tuple[BoundRetriever, ...]:
    """Check the retriever slot and name each retriever.

    Args:
        retrievers: Two to four distinct objects with ``retrieve(query, k, *, corpus_ids=None)``.

    Returns:
        The bound retrievers, in the given order.

    Raises:
        BindingError: Not a sequence, the wrong count, an object without ``retrieve``, the
            same object twice, or two retrievers with the same name.
    """
    allowed = f"{MIN_RETRIEVERS} to {MAX_RETRIEVERS} distinct objects with retrieve(query, k, *, corpus_ids=None)"
    if isinstance(retrievers, (str, bytes)) or not isinstance(retrievers, Sequence):
        raise BindingError(f"slot 'retrievers' takes a list of {allowed}; got {type(retrievers).__name__}", stage=_STAGE)
    if not MIN_RETRIEVERS <= len(retrievers) <= MAX_RETRIEVERS:
        raise BindingError(f"slot 'retrievers' takes {allowed}; got {len(retrievers)}", stage=_STAGE)
    bound: list[BoundRetriever] = []
    for position, retriever in enumerate(retrievers):
        if not callable(getattr(retriever, "retrieve", None)):
            hint = "; wrap a plain function in FunctionRetriever(fn)" if callable(retriever) else ""
            raise BindingError(f"slot 'retrievers' item {position} ({type(retriever).__name__}) has no retrieve method; the slot takes {allowed}{hint}", stage=_STAGE)
        for other in bound:
            if other.retriever is retriever:
                raise BindingError(f"slot 'retrievers' got the same object twice (items {bound.index(other)} and {position}); it takes {allowed}", stage=_STAGE)
        name = component_name(retriever, f"{type(retriever).__name__}-{position + 1}")
        clash = [b.name for b in bound if b.name == name]
        if clash:
            raise BindingError(f"slot 'retrievers' has two retrievers named {name!r}; names label branches, so give each a distinct name", stage=_STAGE)
        bound.append(BoundRetriever(name, retriever, is_vector_retriever(retriever)))
    return tuple(bound)


def check_component(slot: str, component: object, *, required: bool) -> None:
    """Check that ``component`` fits ``slot`` (``rewriter``, ``reranker`` or ``generator``).

    Raises:
        BindingError: A required slot left empty, or an object without the slot's method.
    """
    method, signature = _SLOT_METHODS[slot]
    hint = "; wrap a plain function in FunctionGenerator(fn)" if slot == "generator" and callable(component) else ""
    require_component(component, slot, method, signature=signature, required=required, hint=hint, stage=_STAGE)


def check_hyde_rule(rewriter: object, retrievers: Sequence[BoundRetriever]) -> None:
    """Refuse a HyDE-style rewriter without a vector retriever.

    Raises:
        BindingError: ``rewriter.requires_vector_retriever`` is true and no retriever is a vector one.
    """
    if getattr(rewriter, "requires_vector_retriever", False) is True and not any(b.is_vector for b in retrievers):
        names = [b.name for b in retrievers]
        raise BindingError(
            f"slot 'rewriter' holds {component_name(rewriter)!r}, which searches with a hypothetical document and needs "
            f"at least one vector retriever (kind 'vector' or an index with an embedder); bound retrievers {names} have none",
            stage=_STAGE,
        )


def plan_views(query: str, result: RewriteResult | None, retrievers: Sequence[BoundRetriever]) -> list[tuple[QueryView, tuple[int, ...]]]:
    """Turn a rewrite into query views, each with the retrievers (by position) that search it.

    Without a rewrite the query is the one view. With ``queries`` every retriever searches
    every view, the original first when kept. With a ``rewritten_query`` (HyDE) the
    hypothetical document goes to vector retrievers only, and the original query to every
    other retriever (and to the vector ones too when kept).

    Returns:
        ``(view, retriever positions)`` pairs in view order, repeated texts dropped.
    """
    everyone = tuple(range(len(retrievers)))
    original = QueryView(query, ViewKind.ORIGINAL)
    if result is None:
        return [(original, everyone)]
    if result.rewritten_query is not None:
        vectors = tuple(i for i, b in enumerate(retrievers) if b.is_vector)
        others = tuple(i for i in everyone if i not in vectors)
        plan = []
        original_to = everyone if result.keep_original else others
        if original_to:
            plan.append((original, original_to))
        plan.append((QueryView(result.rewritten_query, ViewKind.HYPOTHETICAL), vectors))
        return plan
    plan = [(original, everyone)] if result.keep_original else []
    original_folded = fold_query(query)
    seen = {original_folded} if result.keep_original else set()
    for text in result.queries:
        folded = fold_query(text)
        if folded in seen:
            continue
        seen.add(folded)
        kind = ViewKind.ORIGINAL if folded == original_folded else ViewKind.REWRITTEN
        plan.append((QueryView(text, kind), everyone))
    return plan
