"""The records components pass each other, and their labels.

The root package holds the records most code touches (``Document``, ``Snippet``,
``RetrievalPlan``, ``RunResult``, ``RAGResult``, ...). The rest are here: what you need to
implement a port yourself, read a trace in detail, or type-annotate code that does.

Both workflows (the claim check):
    ClaimVerifier (the port: reads whether quotes state the claims the lexical grounding check
    doubts), ClaimCheck, ClaimJudgement, ClaimReview, ReviewOutcome, SupportVerdict

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
    ClaimCheck,
    ClaimJudgement,
    ClaimReview,
    ConflictEvidence,
    ConflictGroup,
    DraftAnswer,
    FactPriority,
    FactSupport,
    FeedbackQuery,
    Route,
    StopConditions,
    ReviewOutcome,
    SubqueryOrigin,
    SufficiencyStatus,
    SupportVerdict,
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
from agentic_rag._ports import ClaimVerifier
from agentic_rag._retrieval import SearchHit
from agentic_rag._store import IndexPhase, IndexProgress, IndexReport, StoreHit, StoreStats

__all__ = [
    "AnswerCitation",
    "Answerability",
    "BranchStatus",
    "ClaimCheck",
    "ClaimJudgement",
    "ClaimReview",
    "ClaimVerifier",
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
    "ReviewOutcome",
    "RewriteRequest",
    "RewriteResult",
    "Route",
    "SearchHit",
    "StopConditions",
    "StoreHit",
    "StoreStats",
    "SubqueryOrigin",
    "SufficiencyStatus",
    "SupportVerdict",
    "ViewKind",
]
