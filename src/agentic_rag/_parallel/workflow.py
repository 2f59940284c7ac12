"""The parallel RAG workflow: query views x retrievers run concurrently, each branch reranked on
its own, fused, then answered with citations.

::

    RAGRequest -> rewriter (query views) -> every retriever x every view, on a bounded thread
    pool, under one deadline -> reranker per branch (original query) -> fusion -> generator
    -> RAGResult

The deadline is computed once, ``time.monotonic()`` at the start of the request plus
``deadline_s`` (or the run budget's remaining time when that is sooner); rewriting and every
branch must finish by then. Branches still running at the deadline are reported as timed out
and abandoned: results are read only from futures collected before ``run`` returns, the result
is immutable, and a late branch only completes a future nobody reads. Branches run on daemon
threads, so an abandoned one never keeps the process from exiting. Generation runs after
the deadline's check, on the branches that made it.
"""

from __future__ import annotations

import dataclasses
import concurrent.futures
import contextvars
import threading
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from agentic_rag._budget import current_budget
from agentic_rag._contracts import Snippet
from agentic_rag._contracts.validation import require_enum, require_int
from agentic_rag._daemon_threads import DaemonExecutor
from agentic_rag._errors import BranchFailureError, BudgetExhaustedError, InvalidInputError, RetrievalError
from agentic_rag._parallel.binding import BoundRetriever, bind_retrievers, check_component, check_hyde_rule, component_name, plan_views
from agentic_rag._parallel.contracts import (
    BranchOutcome,
    BranchStatus,
    ParallelTrace,
    QueryView,
    RAGRequest,
    RAGResult,
    RewriteRequest,
    RewriteResult,
    ViewKind,
)
from agentic_rag._parallel.answerability import RelevanceAnswerability
from agentic_rag._parallel.evidence import GeneratedAnswer
from agentic_rag._parallel.fusion_engine import FusionMethod, RankedList, fuse_ranked_lists
from agentic_rag._parallel.generator import verify_citations
from agentic_rag._parallel.ports import Generator, QueryViewRewriter, Reranker
from agentic_rag._parallel.verdict import answer_verdict
from agentic_rag._ports import ClaimVerifier, Retriever
from agentic_rag._text.questions import fold_query

__all__ = ["DEFAULT_MAX_WORKERS", "ParallelRAGWorkflow"]

_STAGE = "parallel"
DEFAULT_MAX_WORKERS = 16


@dataclass(frozen=True, slots=True)
class _BranchReport:
    """What a branch task hands back through its future (never raised, always returned)."""

    hits: tuple[Snippet, ...]
    error: Exception | None
    elapsed_s: float


@dataclass(frozen=True, slots=True)
class _Branch:
    label: str
    view: QueryView
    bound: BoundRetriever


class ParallelRAGWorkflow:
    """Fan a query out to several retrievers and query views at once, fuse, and answer.

    Args:
        retrievers: Two to four distinct retrievers (``Retriever`` port), each with a distinct
            name (its ``name`` attribute, or class name and position).
        rewriter: At most one ``QueryViewRewriter`` (``None``: the query is the one view).
        reranker: At most one ``Reranker``, applied to each branch with the original query.
        generator: Exactly one ``Generator``. Its answer text is the answer, and the verdict
            (``status``, ``missing``, trace notes) goes beside it; only the library's own
            generators (``workflow_guards_text = True``) have claims that do not hold dropped
            and an unanswerable verdict turned into a refusal.
        max_workers: Threads per request (>= 1; default 16).
        fusion: ``rrf`` (default), ``relative_score`` or ``dbsf``.
        dedup_key: Fusion dedup key of a snippet (default ``(corpus id, document id)``).
        answerability: Decides whether the fused documents answer the question (default
            :class:`RelevanceAnswerability` with uniform term weights); ``False`` turns the
            check off, so the generator's own status stands. A generator that reads meaning
            (``judges_answerability = True``, as the LLM generator) keeps its own verdict and
            the check's reading is a trace note.
        verifier: Settles the claims the lexical grounding check doubts
            (:class:`~agentic_rag._ports.ClaimVerifier`; default: the generator's own
            ``verifier`` when it has one, else none: every doubt drops its claim).

    Raises:
        BindingError: A slot bound wrongly (the message names the slot and what it takes), or
            a HyDE-style rewriter without a vector retriever.
        InvalidInputError: A bad ``max_workers``, ``fusion`` or ``dedup_key``.
    """

    def __init__(
        self,
        retrievers: Sequence[Retriever],
        *,
        rewriter: QueryViewRewriter | None = None,
        reranker: Reranker | None = None,
        generator: Generator | None = None,
        max_workers: int | None = None,
        fusion: FusionMethod | str = FusionMethod.RRF,
        dedup_key: Callable[[Snippet], Hashable] | None = None,
        answerability: RelevanceAnswerability | Literal[False] | None = None,
        verifier: ClaimVerifier | None = None,
    ) -> None:
        self.retrievers = bind_retrievers(retrievers)
        check_component("rewriter", rewriter, required=False)
        check_component("reranker", reranker, required=False)
        check_component("generator", generator, required=True)
        check_hyde_rule(rewriter, self.retrievers)
        self.rewriter = rewriter
        self.reranker = reranker
        self.generator: Generator = generator  # type: ignore[assignment]
        self.max_workers = DEFAULT_MAX_WORKERS if max_workers is None else require_int(max_workers, "max_workers", minimum=1, stage=_STAGE)
        self.fusion = require_enum(FusionMethod, fusion, "fusion", stage=_STAGE)
        if dedup_key is not None and not callable(dedup_key):
            raise InvalidInputError(f"dedup_key must be a callable snippet -> hashable, got {dedup_key!r}", stage=_STAGE)
        self.dedup_key = dedup_key
        if answerability is not None and answerability is not False and not callable(getattr(answerability, "check", None)):
            raise InvalidInputError(f"answerability must have a check(query, documents) method, or be False, got {answerability!r}", stage=_STAGE)
        self.answerability = RelevanceAnswerability() if answerability is None else answerability
        chosen = verifier if verifier is not None else getattr(generator, "verifier", None)
        if chosen is not None and not callable(getattr(chosen, "verify", None)):
            raise InvalidInputError(f"verifier must be a ClaimVerifier (with verify(checks)), got {type(chosen).__name__}", stage=_STAGE)
        self.verifier = chosen

    @property
    def retriever_names(self) -> tuple[str, ...]:
        """The retrievers' names, in binding order."""
        return tuple(b.name for b in self.retrievers)

    def run(self, request: RAGRequest | str | Mapping[str, Any]) -> RAGResult:
        """Answer one request.

        Args:
            request: A :class:`RAGRequest`, a query string, or a mapping of its fields.

        Returns:
            The answer, fused documents with explanations, one outcome per branch, the
            ``degraded`` flag and the trace.

        Raises:
            InvalidInputError: A bad request, weights naming unknown retrievers, or a generator
                that returned something other than a :class:`GeneratedAnswer`.
            BranchFailureError: Fewer branches succeeded than ``request.min_branches``; its
                ``outcomes`` hold every branch's outcome.
        """
        request = self._request(request)
        started = time.monotonic()
        deadline = self._deadline(request, started)
        notes: list[str] = []
        abandoned = threading.Event()
        # Daemon threads: a branch stuck past the deadline is abandoned and never holds up exit.
        executor = DaemonExecutor(self.max_workers, thread_name_prefix="agentic-rag-branch")
        try:
            rewrite, fell_back = self._rewrite(executor, request, deadline, notes)
            plan = plan_views(request.query, rewrite, self.retrievers)
            rewrite_s = time.monotonic() - started
            branches = [
                _Branch(f"{self.retrievers[pos].name}/q{number}", view, self.retrievers[pos])
                for number, (view, positions) in enumerate(plan, 1)
                for pos in positions
            ]
            hypothetical = frozenset(fold_query(v.text) for v, _ in plan if v.kind is ViewKind.HYPOTHETICAL)
            fan_out = time.monotonic()
            futures = [
                executor.submit(contextvars.copy_context().run, self._branch, b, request, abandoned)
                for b in branches
            ]
            concurrent.futures.wait(futures, timeout=_remaining(deadline))
            waited = time.monotonic() - fan_out
            reports = _without_hypothetical(branches, [f.result() if f.done() and not f.cancelled() else None for f in futures], hypothetical)
        finally:
            abandoned.set()
            executor.shutdown(wait=False, cancel_futures=True)
        outcomes = tuple(_outcome(b, r, waited) for b, r in zip(branches, reports))
        succeeded = [(b, r) for b, r in zip(branches, reports) if r is not None and r.error is None]
        if len(succeeded) < request.min_branches:
            summary = ", ".join(f"{o.branch}={o.status.value}" for o in outcomes)
            raise BranchFailureError(
                f"{len(succeeded)} of {len(outcomes)} branches succeeded but the request needs at least {request.min_branches} ({summary})",
                outcomes=outcomes,
            )
        fuse_start = time.monotonic()
        lists = [
            RankedList(b.label, r.hits, request.weights.get(b.bound.name, 1.0), b.bound.name, b.view.text)  # type: ignore[union-attr]
            for b, r in succeeded
        ]
        documents = fuse_ranked_lists(lists, method=self.fusion, k=request.rank_constant, rank_window=request.rank_window, key=self.dedup_key, limit=request.top_k)
        generate_start = time.monotonic()
        owns_text = _workflow_guards_text(self.generator)
        judges = getattr(self.generator, "judges_answerability", False) is True
        try:
            answer = self.generator.generate(request.query, documents)
        except BudgetExhaustedError as exc:
            # A spent budget ends the request gracefully, as in the agentic workflow: the
            # deterministic generator (which charges nothing) answers from the same evidence.
            from agentic_rag._parallel.generator import ExtractiveGenerator

            answer = ExtractiveGenerator().generate(request.query, documents)
            notes.append(f"generator stopped by the budget ({exc.reason}); answered extractively")
            fell_back, owns_text, judges = True, True, False
        if not isinstance(answer, GeneratedAnswer):
            raise InvalidInputError(f"generator {component_name(self.generator)!r} returned {type(answer).__name__}; expected a GeneratedAnswer", stage=_STAGE)
        notes.extend(f"citation problem: {p}" for p in verify_citations(answer, documents))
        finished = time.monotonic()
        trace = ParallelTrace(
            views=tuple(view for view, _ in plan),
            components=self._components(),
            fusion=self.fusion.value,
            rank_constant=request.rank_constant,
            rank_window=request.rank_window,
            rewrite_s=rewrite_s,
            retrieve_s=waited,
            fuse_s=generate_start - fuse_start,
            generate_s=finished - generate_start,
            elapsed_s=finished - started,
            notes=tuple(notes),
        )
        degraded = fell_back or any(not o.ok for o in outcomes)
        # A model generator that fell back answered extractively: no meaning was read.
        judges = judges and not getattr(self.generator, "last_fallback_reason", None)
        answer, status, missing = answer_verdict(request.query, answer, documents, notes, self.answerability, owns_text=owns_text,
                                                 verifier=self.verifier, judges=judges)
        trace = dataclasses.replace(trace, notes=tuple(notes))
        return RAGResult(request.query, answer, documents, outcomes, degraded, trace, status, missing)

    async def arun(self, request: RAGRequest | str | Mapping[str, Any]) -> RAGResult:
        """Answer one request without blocking the event loop (``run`` in a worker thread,
        with the caller's context, so a run budget set by the caller is charged).

        Raises:
            The same errors as :meth:`run`.
        """
        import asyncio  # only async callers pay for importing asyncio

        return await asyncio.to_thread(self.run, request)

    def _request(self, request: RAGRequest | str | Mapping[str, Any]) -> RAGRequest:
        if isinstance(request, str):
            request = RAGRequest(query=request)
        elif isinstance(request, Mapping):
            request = RAGRequest.from_dict(request)
        elif not isinstance(request, RAGRequest):
            raise InvalidInputError(f"request must be a RAGRequest, a query string or a mapping, got {type(request).__name__}", stage=_STAGE)
        unknown = sorted(set(request.weights) - set(self.retriever_names))
        if unknown:
            raise InvalidInputError(f"weights name unknown retrievers {unknown}; bound retrievers are {list(self.retriever_names)}", stage=_STAGE)
        return request

    @staticmethod
    def _deadline(request: RAGRequest, started: float) -> float | None:
        deadline = None if request.deadline_s is None else started + request.deadline_s
        budget = current_budget()
        left = budget.remaining_s() if budget is not None else None
        if left is not None:
            deadline = started + left if deadline is None else min(deadline, started + left)
        return deadline

    def _rewrite(self, executor: concurrent.futures.Executor, request: RAGRequest, deadline: float | None, notes: list[str]) -> tuple[RewriteResult | None, bool]:
        """Run the rewriter under the deadline; on failure fall back to the query alone.

        Returns:
            The rewrite (``None``: search the query alone) and whether that is a fallback.
        """
        if self.rewriter is None:
            return None, False
        name = component_name(self.rewriter)
        future = executor.submit(contextvars.copy_context().run, self.rewriter.rewrite, RewriteRequest(request.query))
        try:
            result = future.result(timeout=_remaining(deadline))
        except concurrent.futures.TimeoutError:
            future.cancel()
            notes.append(f"rewriter {name!r} timed out; searched the original query only")
            return None, True
        except Exception as exc:  # a failing rewriter degrades the request, it does not fail it
            notes.append(f"rewriter {name!r} failed ({type(exc).__name__}: {exc}); searched the original query only")
            return None, True
        if not isinstance(result, RewriteResult):
            notes.append(f"rewriter {name!r} returned {type(result).__name__}, not a RewriteResult; searched the original query only")
            return None, True
        return result, False

    def _branch(self, branch: _Branch, request: RAGRequest, abandoned: threading.Event) -> _BranchReport:
        """One branch: retrieve, rerank. Never raises."""
        start = time.monotonic()
        k = request.hits_per_branch
        try:
            budget = current_budget()
            if budget is not None:
                budget.charge_retrieval()
            hits = _snippets(branch.bound.retriever.retrieve(branch.view.text, k, corpus_ids=request.corpus_ids), branch.bound.name, k)
            if self.reranker is not None and hits and not abandoned.is_set():
                hits = _snippets(self.reranker.rerank(request.query, hits, k), component_name(self.reranker), k)
            return _BranchReport(hits, None, time.monotonic() - start)
        except Exception as exc:  # reported as the branch's outcome
            return _BranchReport((), exc, time.monotonic() - start)

    def _components(self) -> tuple[tuple[str, str], ...]:
        out = [("retriever", b.name) for b in self.retrievers]
        if self.rewriter is not None:
            out.append(("rewriter", component_name(self.rewriter)))
        if self.reranker is not None:
            out.append(("reranker", component_name(self.reranker)))
        out.append(("generator", component_name(self.generator)))
        return tuple(out)


def _workflow_guards_text(generator: object) -> bool:
    """Whether the workflow may rewrite the generator's text (drop claims that do not hold,
    turn an unanswerable verdict into a refusal). Only the library's own generators say so
    (``workflow_guards_text = True``); a caller's generator decides its answer text."""
    return getattr(generator, "workflow_guards_text", False) is True


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.monotonic())


def _without_hypothetical(branches: list[_Branch], reports: list[_BranchReport | None], hypothetical: frozenset[str]) -> list[_BranchReport | None]:
    """Keep a HyDE passage from becoming evidence: a hit of a hypothetical-view branch whose
    text is the passage is dropped, unless a branch that searched a real query found the same
    document (then it is a real document that says the same thing, and it stays everywhere)."""
    if not hypothetical:
        return reports
    real = {(h.corpus_id, h.document_id) for b, r in zip(branches, reports) if r is not None and b.view.kind is not ViewKind.HYPOTHETICAL for h in r.hits}
    return [
        dataclasses.replace(r, hits=tuple(h for h in r.hits if fold_query(h.text) not in hypothetical or (h.corpus_id, h.document_id) in real))
        if r is not None and b.view.kind is ViewKind.HYPOTHETICAL else r
        for b, r in zip(branches, reports)
    ]


def _snippets(hits: object, source: str, k: int) -> tuple[Snippet, ...]:
    """Check a component's hits and cut them to ``k``.

    Raises:
        RetrievalError: Not a sequence of :class:`Snippet`.
    """
    if isinstance(hits, (str, bytes)) or not isinstance(hits, Sequence):
        raise RetrievalError(f"{source!r} returned {type(hits).__name__}; expected a tuple of Snippet", stage=_STAGE)
    for position, hit in enumerate(hits):
        if not isinstance(hit, Snippet):
            raise RetrievalError(f"{source!r} returned {type(hit).__name__} at position {position}; expected Snippet", stage=_STAGE)
    return tuple(hits[:k])


def _outcome(branch: _Branch, report: _BranchReport | None, waited: float) -> BranchOutcome:
    common = {"branch": branch.label, "retriever": branch.bound.name, "query": branch.view.text, "view_kind": branch.view.kind}
    if report is None:
        return BranchOutcome(**common, status=BranchStatus.TIMEOUT, elapsed_s=waited, error_message=f"no answer within the deadline ({waited:.3f} s)")
    if report.error is not None:
        return BranchOutcome(
            **common,
            status=BranchStatus.ERROR,
            elapsed_s=report.elapsed_s,
            error_type=type(report.error).__name__,
            error_message=str(report.error),
        )
    return BranchOutcome(**common, status=BranchStatus.OK, elapsed_s=report.elapsed_s, hit_count=len(report.hits))
