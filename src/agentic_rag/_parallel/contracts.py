"""The parallel workflow's contracts: rewrites, query views, the request, branch outcomes, the
trace and the result (fused documents and the answer are in :mod:`agentic_rag._parallel.evidence`).

Every contract is a frozen, slotted dataclass validated in ``__post_init__`` and inherits
:class:`~agentic_rag._contracts.JsonContract`, so ``RAGResult.from_dict(result.to_dict())``
rebuilds an equal object and ``json.dumps(result.to_dict(), sort_keys=True)`` is stable.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from agentic_rag._contracts.serialization import JsonContract
from agentic_rag._contracts import AnswerStatus
from agentic_rag._contracts.validation import instance_tuple, require_bool, require_enum, require_int, require_text, text_tuple
from agentic_rag._errors import InvalidInputError
from agentic_rag._parallel.evidence import FusedDocument, GeneratedAnswer, finite_number

__all__ = [
    "BranchOutcome",
    "BranchStatus",
    "ParallelTrace",
    "QueryView",
    "RAGRequest",
    "RAGResult",
    "RewriteRequest",
    "RewriteResult",
    "ViewKind",
]

_STAGE = "parallel"


def _pairs(values: object, name: str) -> tuple[tuple[str, str], ...]:
    """Return ``values`` as a tuple of (string, string) pairs, or refuse it."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, (list, tuple)):
        raise InvalidInputError(f"{name} must be a sequence of (slot, name) string pairs, got {type(values).__name__} {values!r:.80}", stage=_STAGE)
    for pair in values:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2 or not all(isinstance(item, str) for item in pair):
            raise InvalidInputError(f"{name} must hold (slot, name) string pairs, got {pair!r:.80}", stage=_STAGE)
    return tuple((a, b) for a, b in values)


class ViewKind(str, enum.Enum):
    """What a query view is: the user's query, a rewritten query, or a HyDE hypothetical
    document (searched by vector retrievers only, never used as evidence)."""

    ORIGINAL = "original"
    REWRITTEN = "rewritten"
    HYPOTHETICAL = "hypothetical"


class BranchStatus(str, enum.Enum):
    """How one branch (query view x retriever) ended."""

    OK = "ok"
    TIMEOUT = "timeout"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class RewriteRequest(JsonContract):
    """What a query-view rewriter is asked to rewrite.

    Args:
        query: The user's query.
        temperature: Sampling temperature for model-backed rewriters (ignored by deterministic ones).
        max_tokens: Output cap for model-backed rewriters.
    """

    query: str
    temperature: float | None = None
    max_tokens: int | None = None

    def __post_init__(self) -> None:
        require_text(self.query, "RewriteRequest.query", stage=_STAGE)
        object.__setattr__(self, "temperature", finite_number(self.temperature, "RewriteRequest.temperature", minimum=0.0, allow_none=True))
        if self.max_tokens is not None:
            require_int(self.max_tokens, "RewriteRequest.max_tokens", minimum=1, stage=_STAGE)


@dataclass(frozen=True, slots=True)
class RewriteResult(JsonContract):
    """A rewriter's answer: either one ``rewritten_query`` (HyDE style: a hypothetical document
    searched by vector retrievers) or ``queries``, a non-empty list of query views.

    Args:
        rewritten_query: The HyDE-style rewrite, or ``None``.
        queries: The query views, or empty.
        keep_original: Also search the user's query as its own view (on by default). For a
            ``rewritten_query`` the original query is always searched by the retrievers that are
            not vector retrievers, since a hypothetical document is no query for them.

    Raises:
        InvalidInputError: Both or neither of ``rewritten_query`` and ``queries`` given, or an
            empty query.
    """

    rewritten_query: str | None = None
    queries: tuple[str, ...] = ()
    keep_original: bool = True

    def __post_init__(self) -> None:
        queries = text_tuple(self.queries, "RewriteResult.queries", stage=_STAGE)
        object.__setattr__(self, "queries", queries)
        if self.rewritten_query is not None:
            require_text(self.rewritten_query, "RewriteResult.rewritten_query", stage=_STAGE)
        if (self.rewritten_query is None) == (not queries):
            raise InvalidInputError(
                "RewriteResult needs exactly one of rewritten_query (a string) or queries (a non-empty list), "
                f"got rewritten_query={self.rewritten_query!r:.60} and {len(queries)} queries",
                stage=_STAGE,
            )
        require_bool(self.keep_original, "RewriteResult.keep_original", stage=_STAGE)


@dataclass(frozen=True, slots=True)
class QueryView(JsonContract):
    """One query text the workflow searches, and what kind of text it is.

    Args:
        text: The text sent to retrievers.
        kind: Original query, rewritten query, or hypothetical document.
    """

    text: str
    kind: ViewKind = ViewKind.ORIGINAL

    def __post_init__(self) -> None:
        require_text(self.text, "QueryView.text", stage=_STAGE)
        object.__setattr__(self, "kind", require_enum(ViewKind, self.kind, "QueryView.kind", stage=_STAGE))


@dataclass(frozen=True, slots=True)
class RAGRequest(JsonContract):
    """One question for the parallel workflow.

    Args:
        query: The question.
        top_k: Fused documents kept and passed to the generator.
        rank_constant: ``k`` of reciprocal rank fusion (``w / (k + rank)``, ranks from 1).
        weights: Fusion weight per retriever name (missing names weigh 1.0).
        rank_window: Only the first N documents of each branch count in fusion (``None``: all).
        deadline_s: Seconds the rewriting and all branches may take, counted once from the
            start of the request (``None``: wait for every branch).
        min_branches: Fewest successful branches that still give an answer.
        branch_k: Hits asked of each retriever (``None``: ``max(top_k, rank_window or 0, 10)``).
        corpus_ids: Only search these corpora (``None``: all).

    Raises:
        InvalidInputError: A field of the wrong type or out of range.
    """

    query: str
    top_k: int = 5
    rank_constant: int = 60
    weights: Mapping[str, float] = field(default_factory=dict)
    rank_window: int | None = None
    deadline_s: float | None = None
    min_branches: int = 1
    branch_k: int | None = None
    corpus_ids: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        require_text(self.query, "RAGRequest.query", stage=_STAGE)
        require_int(self.top_k, "RAGRequest.top_k", minimum=1, stage=_STAGE)
        require_int(self.rank_constant, "RAGRequest.rank_constant", minimum=0, stage=_STAGE)
        if not isinstance(self.weights, Mapping):
            raise InvalidInputError(f"RAGRequest.weights must map retriever names to numbers, got {type(self.weights).__name__}", stage=_STAGE)
        weights = {}
        for name in sorted(self.weights):
            require_text(name, "RAGRequest.weights key", stage=_STAGE)
            weights[name] = finite_number(self.weights[name], f"RAGRequest.weights[{name!r}]", minimum=0.0)
        object.__setattr__(self, "weights", MappingProxyType(weights))
        if self.rank_window is not None:
            require_int(self.rank_window, "RAGRequest.rank_window", minimum=1, stage=_STAGE)
        if self.deadline_s is not None and finite_number(self.deadline_s, "RAGRequest.deadline_s") <= 0:  # type: ignore[operator]
            raise InvalidInputError(f"RAGRequest.deadline_s must be > 0 seconds or None, got {self.deadline_s!r}", stage=_STAGE)
        if self.deadline_s is not None:
            object.__setattr__(self, "deadline_s", float(self.deadline_s))
        require_int(self.min_branches, "RAGRequest.min_branches", minimum=1, stage=_STAGE)
        if self.branch_k is not None:
            require_int(self.branch_k, "RAGRequest.branch_k", minimum=1, stage=_STAGE)
        if self.corpus_ids is not None:
            object.__setattr__(self, "corpus_ids", text_tuple(self.corpus_ids, "RAGRequest.corpus_ids", stage=_STAGE))

    @property
    def hits_per_branch(self) -> int:
        """How many hits each retriever is asked for."""
        if self.branch_k is not None:
            return self.branch_k
        return max(self.top_k, self.rank_window or 0, 10)


@dataclass(frozen=True, slots=True)
class BranchOutcome(JsonContract):
    """How one branch (query view x retriever) ended.

    Args:
        branch: The branch label, ``"<retriever>/q<view number>"``.
        retriever: The retriever's name.
        query: The query view text it searched.
        view_kind: What kind of view that was.
        status: ok, timeout or error.
        elapsed_s: Seconds the branch ran (for a timeout: how long it was waited for).
        hit_count: Hits it returned (0 unless ok).
        error_type: The exception class name (errors only).
        error_message: The exception message (errors and timeouts).
    """

    branch: str
    retriever: str
    query: str
    view_kind: ViewKind
    status: BranchStatus
    elapsed_s: float
    hit_count: int = 0
    error_type: str = ""
    error_message: str = ""

    def __post_init__(self) -> None:
        require_text(self.branch, "BranchOutcome.branch", stage=_STAGE)
        require_text(self.retriever, "BranchOutcome.retriever", stage=_STAGE)
        require_text(self.query, "BranchOutcome.query", stage=_STAGE)
        object.__setattr__(self, "view_kind", require_enum(ViewKind, self.view_kind, "BranchOutcome.view_kind", stage=_STAGE))
        object.__setattr__(self, "status", require_enum(BranchStatus, self.status, "BranchOutcome.status", stage=_STAGE))
        object.__setattr__(self, "elapsed_s", finite_number(self.elapsed_s, "BranchOutcome.elapsed_s", minimum=0.0))
        require_int(self.hit_count, "BranchOutcome.hit_count", minimum=0, stage=_STAGE)
        require_text(self.error_type, "BranchOutcome.error_type", stage=_STAGE, allow_empty=True)
        require_text(self.error_message, "BranchOutcome.error_message", stage=_STAGE, allow_empty=True)

    @property
    def ok(self) -> bool:
        """True when the branch returned its hits."""
        return self.status is BranchStatus.OK


@dataclass(frozen=True, slots=True)
class ParallelTrace(JsonContract):
    """What the workflow did, for audits.

    Args:
        views: The query views searched, in order.
        components: ``(slot, name)`` pairs of the bound components.
        fusion: The fusion method used.
        rank_constant: The RRF ``k``.
        rank_window: The rank window (``None``: all).
        rewrite_s: Seconds spent rewriting.
        retrieve_s: Seconds from fan-out to the last branch collected.
        fuse_s: Seconds spent fusing.
        generate_s: Seconds spent generating.
        elapsed_s: Seconds for the whole request.
        notes: Events worth knowing (a rewriter that failed, citation problems...).
    """

    views: tuple[QueryView, ...]
    components: tuple[tuple[str, str], ...]
    fusion: str
    rank_constant: int
    rank_window: int | None
    rewrite_s: float = 0.0
    retrieve_s: float = 0.0
    fuse_s: float = 0.0
    generate_s: float = 0.0
    elapsed_s: float = 0.0
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "views", instance_tuple(self.views, QueryView, "ParallelTrace.views", stage=_STAGE))
        object.__setattr__(self, "components", _pairs(self.components, "ParallelTrace.components"))
        require_text(self.fusion, "ParallelTrace.fusion", stage=_STAGE)
        require_int(self.rank_constant, "ParallelTrace.rank_constant", minimum=0, stage=_STAGE)
        if self.rank_window is not None:
            require_int(self.rank_window, "ParallelTrace.rank_window", minimum=1, stage=_STAGE)
        for name in ("rewrite_s", "retrieve_s", "fuse_s", "generate_s", "elapsed_s"):
            object.__setattr__(self, name, finite_number(getattr(self, name), f"ParallelTrace.{name}", minimum=0.0))
        object.__setattr__(self, "notes", text_tuple(self.notes, "ParallelTrace.notes", stage=_STAGE))


@dataclass(frozen=True, slots=True)
class RAGResult(JsonContract):
    """Everything one parallel request produced.

    Args:
        query: The question asked.
        answer: The generated answer with citations.
        documents: The fused documents passed to the generator, best first.
        outcomes: One outcome per branch, in branch order.
        degraded: True when a branch timed out or failed, or the rewriter fell back.
        trace: What the workflow did.
        status: The verdict: the generator's own status, lowered by the answerability check
            and by citations that do not hold; for the library's generators never ANSWERED
            without a cited claim (a caller's generator keeps its text, and the status is
            the verdict on the evidence beside it).
        missing: The question parts the answerability check found no passage for.
    """

    query: str
    answer: GeneratedAnswer
    documents: tuple[FusedDocument, ...]
    outcomes: tuple[BranchOutcome, ...]
    degraded: bool
    trace: ParallelTrace
    status: AnswerStatus = AnswerStatus.ANSWERED
    missing: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        require_text(self.query, "RAGResult.query", stage=_STAGE)
        if not isinstance(self.answer, GeneratedAnswer):
            raise InvalidInputError(f"RAGResult.answer must be a GeneratedAnswer, got {type(self.answer).__name__} {self.answer!r:.80}", stage=_STAGE)
        object.__setattr__(self, "documents", instance_tuple(self.documents, FusedDocument, "RAGResult.documents", stage=_STAGE))
        object.__setattr__(self, "outcomes", instance_tuple(self.outcomes, BranchOutcome, "RAGResult.outcomes", stage=_STAGE))
        require_bool(self.degraded, "RAGResult.degraded", stage=_STAGE)
        if not isinstance(self.trace, ParallelTrace):
            raise InvalidInputError(f"RAGResult.trace must be a ParallelTrace, got {type(self.trace).__name__} {self.trace!r:.80}", stage=_STAGE)
        object.__setattr__(self, "status", require_enum(AnswerStatus, self.status, "RAGResult.status", stage=_STAGE))
        object.__setattr__(self, "missing", text_tuple(self.missing, "RAGResult.missing", stage=_STAGE))

    def explain(self) -> str:
        """Return every fused document's explanation, best first, one block each."""
        return "\n".join(doc.explain() for doc in self.documents)
