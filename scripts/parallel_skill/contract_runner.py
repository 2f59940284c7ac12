"""``run(request, components)`` as the earlier parallel skill defined it, on this library.

::

    rewriter (optional)  -> branch queries: rewritten_query, then queries
    every branch query   -> call_all("retrievers", {query, documents, top_k: top_k * 2})
                            (a HyDE passage reaches only the retrievers known to be vector ones)
    each branch          -> reranker (optional) with the original query
    fusion               -> RRF, 1 / (rank_constant + rank), ties by document id, top_k kept
    generator            -> {query, documents, max_tokens} -> answer (its text is the answer)

The result is ``{"answer", "documents", "trace"}``: the documents are the retrievers' own
objects with the fused ``score``; the trace starts with the earlier skill's step records,
unchanged, and this workflow's additions follow them (``branches``, ``fusion``,
``answerability``, ``note``). Branch queries run concurrently when there are several.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Mapping, Sequence
from typing import Any

from agentic_rag._contracts import Snippet
from agentic_rag._errors import BindingError, InvalidInputError
from agentic_rag._parallel.answerability import RelevanceAnswerability
from agentic_rag._parallel.fusion_engine import FusionMethod, RankedList, fuse_ranked_lists
from agentic_rag._text.questions import fold_query

from .contract_request import ContractRequest, View, ViewKind, retriever_kinds

__all__ = ["run_contract"]

_STAGE = "workflow"
MAX_CONCURRENT_CALLS = 8


def run_contract(request: Mapping[str, Any], components: Any) -> dict[str, Any]:
    """Run one request through the earlier contract's slots.

    Args:
        request: ``query`` and optional ``top_k`` (3), ``rank_constant`` (60), ``documents``,
            ``rewrite_temperature`` (0.0), ``rewrite_max_tokens`` (256), ``max_tokens``.
        components: An object with ``has(slot)``, ``call(slot, payload)`` and
            ``call_all(slot, payload)``; slots ``rewriter``, ``retrievers``, ``reranker``,
            ``generator``.

    Returns:
        ``answer`` (the generator's text), ``documents`` (fused, each the first retriever
        object seen for its id with the fused ``score``) and ``trace`` (step records).

    Raises:
        InvalidInputError: A bad request (``top_k`` or ``rank_constant`` <= 0...), a rewriter
            that returned no query, or a component result that breaks the contract.
        BindingError: No retriever or no generator bound.
    """
    req = ContractRequest.from_mapping(request)
    for slot in ("retrievers", "generator"):
        if not components.has(slot):
            raise BindingError(f"the {slot!r} slot is empty; the contract binds {'two to four retrievers' if slot == 'retrievers' else 'one generator'}", stage=_STAGE)
    trace: list[dict[str, Any]] = []
    added: list[dict[str, Any]] = [{"step": "note", "message": f"request keys {list(req.ignored)} are not part of the contract; ignored"}] if req.ignored else []
    views = _views(req, components, trace, added)

    branches = _retrieve(req, components, views)
    trace.append({"step": "parallel_retrieve_and_rerank", "branch_count": len(branches)})
    branches = _without_hypothetical(branches, views, added, _request_ids(req))
    added.append({"step": "branches", "branches": [
        {"branch": n, "query": view.text, "view": view.kind.value, "retriever": position, "documents": len(docs)}
        for n, (view, position, docs) in enumerate(branches, 1)
    ]})

    fused, first_seen = _fuse(req, branches)
    documents = [dict(first_seen[d.document_id], score=d.score) for d in fused]
    trace.append({"step": "fuse", "document_count": len(documents)})
    added.append({"step": "fusion", "method": "rrf", "rank_constant": req.rank_constant, "per_branch_top_k": req.branch_top_k, "ties": "document id",
                  "documents": [{"id": d.document_id, "score": d.score, "contributions": [[c.branch_index + 1, c.rank] for c in d.contributions]} for d in fused]})

    generated = components.call("generator", {"query": req.query, "documents": documents, "max_tokens": req.max_tokens})
    if not isinstance(generated, Mapping) or "answer" not in generated:
        raise InvalidInputError(f"the generator must return a mapping with 'answer', got {generated!r:.80}", stage=_STAGE)
    trace.append({"step": "generate"})
    verdict = RelevanceAnswerability().check(req.query, fused)
    added.append({"step": "answerability", "status": verdict.status.value, "score": verdict.score, "missing": list(verdict.missing),
                  "answer": "the generator's text, unchanged"})
    return {"answer": str(generated["answer"]), "documents": documents, "trace": trace + added}


def _views(req: ContractRequest, components: Any, trace: list[dict[str, Any]], added: list[dict[str, Any]]) -> list[View]:
    """The branch queries: the original query alone, or the rewriter's, routed by kind."""
    if not components.has("rewriter"):
        return [View(req.query, ViewKind.ORIGINAL)]
    rewritten = components.call("rewriter", {"query": req.query, "temperature": req.rewrite_temperature, "max_tokens": req.rewrite_max_tokens})
    if not isinstance(rewritten, Mapping):
        raise InvalidInputError(f"the rewriter must return a mapping with 'rewritten_query' or 'queries', got {rewritten!r:.80}", stage=_STAGE)
    views: list[View] = []
    passage = rewritten.get("rewritten_query")
    if isinstance(passage, str) and passage.strip():
        views.append(View(passage.strip(), ViewKind.HYPOTHETICAL))
    queries = rewritten.get("queries", ())
    if isinstance(queries, (str, bytes)) or not isinstance(queries, Sequence):
        raise InvalidInputError(f"the rewriter's 'queries' must be a list of strings, got {queries!r:.80}", stage=_STAGE)
    for item in queries:
        text = str(item).strip()
        if text and text not in [v.text for v in views]:
            views.append(View(text, ViewKind.REWRITTEN))
    if not views:
        raise InvalidInputError(f"rewriter returned no non-empty rewritten_query or queries (got keys {sorted(map(str, rewritten))})", stage=_STAGE)
    trace.append({"step": "rewrite", "query_count": len(views)})
    return _routed(req, views, retriever_kinds(components), added)


def _routed(req: ContractRequest, views: list[View], kinds: tuple[str, ...] | None, added: list[dict[str, Any]]) -> list[View]:
    """Send a HyDE passage to the vector retrievers only, when the slots say which they are;
    the other retrievers then search the original query (unless a rewritten query is there)."""
    if not any(v.kind is ViewKind.HYPOTHETICAL for v in views):
        return views
    if kinds is None:
        added.append({"step": "note", "message": "no retriever is marked as a vector retriever, so the hypothetical passage went to every retriever, as the earlier skill did"})
        return views
    vector = tuple(n for n, kind in enumerate(kinds) if kind == "vector")
    others = tuple(n for n, kind in enumerate(kinds) if kind != "vector")
    out = [View(v.text, v.kind, vector) if v.kind is ViewKind.HYPOTHETICAL else v for v in views]
    if others and all(v.kind is ViewKind.HYPOTHETICAL for v in views):
        out.insert(0, View(req.query, ViewKind.ORIGINAL, others))
        added.append({"step": "note", "message": f"the hypothetical passage searched the vector retrievers {list(vector)} only; retrievers {list(others)} searched the original query"})
    return out


def _retrieve(req: ContractRequest, components: Any, views: list[View]) -> list[tuple[View, int, list[Mapping[str, Any]]]]:
    """Every branch, in order (view by view, retriever by retriever): its reranked documents."""

    def job(view: View) -> list[tuple[View, int, list[Mapping[str, Any]]]]:
        payload = {"documents": req.documents, "top_k": req.branch_top_k, "query": view.text}
        if view.retrievers is None:
            found = components.call_all("retrievers", payload)
            if isinstance(found, (str, bytes, Mapping)) or not isinstance(found, Sequence):
                raise InvalidInputError(f"call_all('retrievers', ...) must return one result per retriever, got {found!r:.80}", stage=_STAGE)
            pairs = list(enumerate(found))
        else:
            pairs = [(n, components.call("retrievers", payload, index=n)) for n in view.retrievers]
        return [(view, n, _reranked(req, components, _documents(result, f"retriever {n}"))) for n, result in pairs]

    if len(views) == 1:
        return job(views[0])
    with concurrent.futures.ThreadPoolExecutor(min(len(views), MAX_CONCURRENT_CALLS), thread_name_prefix="parallel-contract") as pool:
        futures = [pool.submit(job, view) for view in views]
        # Results read in view order: the same branches, in the same order, as run one by one.
        return [branch for future in futures for branch in future.result()]


def _reranked(req: ContractRequest, components: Any, documents: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    if not components.has("reranker"):
        return documents
    reranked = components.call("reranker", {"query": req.query, "documents": documents, "top_k": req.branch_top_k})
    return _documents(reranked, "the reranker")


def _documents(result: object, source: str) -> list[Mapping[str, Any]]:
    """``result["documents"]``, each an object with an ``id``.

    Raises:
        InvalidInputError: Not a mapping, or a document that is not an object with an id.
    """
    if not isinstance(result, Mapping):
        raise InvalidInputError(f"{source} must return a mapping with 'documents', got {result!r:.80}", stage=_STAGE)
    documents = list(result.get("documents", ()))
    for n, document in enumerate(documents):
        if not isinstance(document, Mapping) or "id" not in document or not str(document["id"]):
            raise InvalidInputError(f"{source} returned documents[{n}] = {document!r:.80}; expected an object with a non-empty 'id'", stage=_STAGE)
    return documents


def _request_ids(req: ContractRequest) -> frozenset[str]:
    """The ids of the request's own documents (real text, whatever a rewriter wrote)."""
    return frozenset(str(d["id"]) for d in req.documents if isinstance(d, Mapping) and "id" in d)


def _without_hypothetical(branches: list[tuple[View, int, list[Mapping[str, Any]]]], views: list[View], added: list[dict[str, Any]],
                          request_ids: frozenset[str] = frozenset()) -> list[tuple[View, int, list[Mapping[str, Any]]]]:
    """Keep a HyDE passage out of the evidence: a document of a hypothetical branch whose text
    is the passage is dropped, unless it is one of the request's documents or a branch that
    searched a real query found the same id. Only the passage itself is never evidence: a
    request document whose text the rewriter happened to write out stays, as in the earlier
    skill."""
    passages = {fold_query(v.text) for v in views if v.kind is ViewKind.HYPOTHETICAL}
    if not passages:
        return branches
    real = set(request_ids) | {str(d["id"]) for view, _, docs in branches if view.kind is not ViewKind.HYPOTHETICAL for d in docs}
    out, dropped = [], 0
    for view, position, docs in branches:
        if view.kind is ViewKind.HYPOTHETICAL:
            kept = [d for d in docs if fold_query(str(d.get("text", ""))) not in passages or str(d["id"]) in real]
            dropped += len(docs) - len(kept)
            docs = kept
        out.append((view, position, docs))
    if dropped:
        added.append({"step": "note", "message": f"{dropped} document(s) whose text is the hypothetical passage were dropped: it is never evidence"})
    return out


def _fuse(req: ContractRequest, branches: list[tuple[View, int, list[Mapping[str, Any]]]]) -> tuple[list[Any], dict[str, Mapping[str, Any]]]:
    """RRF over the branches on the library's fusion engine, then the contract's order:
    fused score, ties by document id, the best ``top_k``.

    Returns:
        The fused documents and, per id, the first retriever object seen for it.
    """
    first_seen: dict[str, Mapping[str, Any]] = {}
    lists = []
    for n, (view, position, docs) in enumerate(branches, 1):
        hits = []
        for document in docs:
            doc_id = str(document["id"])
            first_seen.setdefault(doc_id, document)
            title = document.get("title")
            hits.append(Snippet(id="", corpus_id="default", document_id=doc_id, text=str(document.get("text", "")),
                                metadata={"title": title} if isinstance(title, str) else {}))
        lists.append(RankedList(f"branch{n}", tuple(hits), 1.0, f"retrievers[{position}]", view.text))
    fused = fuse_ranked_lists(lists, method=FusionMethod.RRF, k=req.rank_constant)
    return sorted(fused, key=lambda d: (-d.score, d.document_id))[: req.top_k], first_seen
