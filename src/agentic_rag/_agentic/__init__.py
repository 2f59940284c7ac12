"""The iterative (agentic) workflow and its deterministic components."""

from __future__ import annotations

from agentic_rag._agentic.collection import collection_evidence_model, collection_orchestrator
from agentic_rag._agentic.config import OrchestratorConfig
from agentic_rag._agentic.extractive import ExtractiveDrafter, ExtractiveGroundedSynthesizer
from agentic_rag._agentic.fact_evidence import FactEvidence, FactEvidenceModel
from agentic_rag._agentic.judge import AutoraterStyleSufficiencyJudge, unsupported_claims
from agentic_rag._agentic.orchestrator import AgenticRAGOrchestrator
from agentic_rag._agentic.planner import HeuristicPlanner
from agentic_rag._agentic.policy import AbstentionPolicy
from agentic_rag._agentic.rewriter import PlanFeedbackRewriter
from agentic_rag._agentic.routing import CorpusRouter, RoutingDecision

__all__ = [
    "AbstentionPolicy",
    "AgenticRAGOrchestrator",
    "AutoraterStyleSufficiencyJudge",
    "CorpusRouter",
    "ExtractiveDrafter",
    "ExtractiveGroundedSynthesizer",
    "FactEvidence",
    "FactEvidenceModel",
    "HeuristicPlanner",
    "OrchestratorConfig",
    "PlanFeedbackRewriter",
    "RoutingDecision",
    "collection_evidence_model",
    "collection_orchestrator",
    "unsupported_claims",
]
