"""Frozen, validated, JSON-serialisable dataclasses shared by both workflows."""

from __future__ import annotations

from agentic_rag._lazy import lazy_exports

# Where each name lives; a module is imported when one of its names is first used (a search
# reads snippets and corpora, never the judge's or the verifier's contracts).
_EXPORTS: dict[str, tuple[str, ...]] = {
    "agentic_rag._contracts.assessment": (
        "AnswerabilityLabel", "ConflictEvidence", "ConflictGroup", "ContextAssessment", "FactSupport", "FeedbackQuery",
        "SufficiencyStatus",
    ),
    "agentic_rag._contracts.corpus": ("Corpus", "Document", "FactPriority", "RequiredFact", "RetrievalPlan", "Route", "StopConditions"),
    "agentic_rag._contracts.evidence": ("Citation", "Claim", "DraftAnswer", "Snippet", "Subquery", "SubqueryOrigin"),
    "agentic_rag._contracts.results": ("GroundedAnswer", "IterationTrace", "RunResult", "StopReason", "Usage"),
    "agentic_rag._contracts.serialization": ("JsonContract",),
    "agentic_rag._contracts.status": ("AnswerStatus",),
    "agentic_rag._contracts.verification": ("ClaimCheck", "ClaimJudgement", "ClaimReview", "ReviewOutcome", "SupportVerdict"),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)
