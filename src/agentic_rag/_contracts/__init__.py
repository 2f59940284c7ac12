"""Frozen, validated, JSON-serialisable dataclasses shared by both workflows."""

from __future__ import annotations

from agentic_rag._contracts.assessment import (
    AnswerabilityLabel,
    ConflictEvidence,
    ConflictGroup,
    ContextAssessment,
    FactSupport,
    FeedbackQuery,
    SufficiencyStatus,
)
from agentic_rag._contracts.corpus import Corpus, Document, FactPriority, RequiredFact, RetrievalPlan, Route, StopConditions
from agentic_rag._contracts.evidence import Citation, Claim, DraftAnswer, Snippet, Subquery, SubqueryOrigin
from agentic_rag._contracts.results import AnswerStatus, GroundedAnswer, IterationTrace, RunResult, StopReason, Usage
from agentic_rag._contracts.serialization import JsonContract
from agentic_rag._contracts.verification import ClaimCheck, ClaimJudgement, ClaimReview, ReviewOutcome, SupportVerdict

__all__ = [
    "AnswerStatus",
    "AnswerabilityLabel",
    "Citation",
    "Claim",
    "ClaimCheck",
    "ClaimJudgement",
    "ClaimReview",
    "ConflictEvidence",
    "ConflictGroup",
    "ContextAssessment",
    "Corpus",
    "Document",
    "DraftAnswer",
    "FactPriority",
    "FactSupport",
    "FeedbackQuery",
    "GroundedAnswer",
    "IterationTrace",
    "JsonContract",
    "RequiredFact",
    "RetrievalPlan",
    "ReviewOutcome",
    "Route",
    "RunResult",
    "Snippet",
    "StopConditions",
    "StopReason",
    "Subquery",
    "SubqueryOrigin",
    "SufficiencyStatus",
    "SupportVerdict",
    "Usage",
]
