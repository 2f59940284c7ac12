"""The records components pass each other, and their labels.

The root package holds the records most code touches (``Document``, ``Snippet``,
``RetrievalPlan``, ``RunResult``, ``RAGResult``, ...). The rest are here: what you need to
implement a port yourself, read a trace in detail, or type-annotate code that does.

Agentic workflow:
    DraftAnswer, FeedbackQuery, FactSupport, FactPriority, StopConditions, SubqueryOrigin,
    SufficiencyStatus, Route, ConflictGroup, ConflictEvidence

Parallel workflow:
    QueryView, ViewKind, RewriteRequest, RewriteResult, RankedList, FusionMethod, Contribution,
    AnswerCitation, Answerability, BranchStatus, ParallelTrace, RetrieverKind

Retrieval and the store:
    SearchHit, StoreHit, StoreStats, IndexReport, IndexProgress, IndexPhase
"""

from __future__ import annotations

from agentic_rag._contracts import (
    ConflictEvidence,
    ConflictGroup,
    DraftAnswer,
    FactPriority,
    FactSupport,
    FeedbackQuery,
    Route,
    StopConditions,
    SubqueryOrigin,
    SufficiencyStatus,
)
from agentic_rag._parallel import (
    AnswerCitation,
    Answerability,
    BranchStatus,
    Contribution,
    FusionMethod,
    ParallelTrace,
    QueryView,
    RankedList,
    RetrieverKind,
    RewriteRequest,
    RewriteResult,
    ViewKind,
)
from agentic_rag._retrieval import SearchHit
from agentic_rag._store import IndexPhase, IndexProgress, IndexReport, StoreHit, StoreStats

__all__ = [
    "AnswerCitation",
    "Answerability",
    "BranchStatus",
    "ConflictEvidence",
    "ConflictGroup",
    "Contribution",
    "DraftAnswer",
    "FactPriority",
    "FactSupport",
    "FeedbackQuery",
    "FusionMethod",
    "IndexPhase",
    "IndexProgress",
    "IndexReport",
    "ParallelTrace",
    "QueryView",
    "RankedList",
    "RetrieverKind",
    "RewriteRequest",
    "RewriteResult",
    "Route",
    "SearchHit",
    "StopConditions",
    "StoreHit",
    "StoreStats",
    "SubqueryOrigin",
    "SufficiencyStatus",
    "ViewKind",
]
