"""The iterative (agentic) workflow and its deterministic components."""

from __future__ import annotations

from agentic_rag._lazy import lazy_exports

# Where each name lives; a module is imported when one of its names is first used.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "agentic_rag._agentic.chains": ("Chain", "ChainRanker"),
    "agentic_rag._agentic.collection": ("collection_evidence_model", "collection_orchestrator"),
    "agentic_rag._agentic.config": ("OrchestratorConfig",),
    "agentic_rag._agentic.extractive": ("ExtractiveDrafter", "ExtractiveGroundedSynthesizer"),
    "agentic_rag._agentic.fact_evidence": ("FactEvidence", "FactEvidenceModel"),
    "agentic_rag._agentic.judge": ("AutoraterStyleSufficiencyJudge", "unsupported_claims"),
    "agentic_rag._agentic.orchestrator": ("AgenticRAGOrchestrator",),
    "agentic_rag._agentic.planner": ("HeuristicPlanner",),
    "agentic_rag._agentic.policy": ("AbstentionPolicy",),
    "agentic_rag._agentic.rewriter": ("PlanFeedbackRewriter",),
    "agentic_rag._agentic.routing": ("CorpusRouter", "RoutingDecision"),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)
