"""The built-in components: every planner, rewriter, judge, drafter, synthesizer, reranker,
generator, fusion function and text-analysis model that ships with agentic-rag.

Each one implements a port from the root package (``agentic_rag.Planner``,
``agentic_rag.QueryViewRewriter``, ...) and can be swapped for your own. The defaults most
setups start with (``AutoraterStyleSufficiencyJudge``, ``MultiQueryRewriter``,
``ExtractiveGenerator``, ``reciprocal_rank_fusion``) live at the root.

Agentic workflow:
    HeuristicPlanner, CorpusRouter, PlanFeedbackRewriter, ExtractiveDrafter,
    ExtractiveGroundedSynthesizer, AbstentionPolicy, collection_orchestrator

Parallel workflow:
    IdentityRewriter, DecompositionRewriter, HyDERewriter, RM3Rewriter, LexicalReranker,
    MMRReranker, RelevanceAnswerability, FunctionGenerator, fuse, relative_score_fusion,
    distribution_based_score_fusion, verify_citations

Both workflows:
    LexicalClaimVerifier (the claim verifier that reads no meaning: every doubt of the
    grounding check stands)

Retrieval and text analysis:
    CallableEmbedder, Analyzer, RelevanceModel, TermWeights
"""

from __future__ import annotations

from agentic_rag._agentic import (
    AbstentionPolicy,
    CorpusRouter,
    ExtractiveDrafter,
    ExtractiveGroundedSynthesizer,
    HeuristicPlanner,
    PlanFeedbackRewriter,
    collection_orchestrator,
)
from agentic_rag._answering.review import LexicalClaimVerifier
from agentic_rag._parallel import (
    DecompositionRewriter,
    FunctionGenerator,
    HyDERewriter,
    IdentityRewriter,
    LexicalReranker,
    MMRReranker,
    RelevanceAnswerability,
    RM3Rewriter,
    distribution_based_score_fusion,
    fuse,
    relative_score_fusion,
    verify_citations,
)
from agentic_rag._retrieval import CallableEmbedder
from agentic_rag._text import Analyzer, RelevanceModel, TermWeights

__all__ = [
    "AbstentionPolicy",
    "Analyzer",
    "CallableEmbedder",
    "CorpusRouter",
    "DecompositionRewriter",
    "ExtractiveDrafter",
    "ExtractiveGroundedSynthesizer",
    "FunctionGenerator",
    "HeuristicPlanner",
    "HyDERewriter",
    "IdentityRewriter",
    "LexicalClaimVerifier",
    "LexicalReranker",
    "MMRReranker",
    "PlanFeedbackRewriter",
    "RM3Rewriter",
    "RelevanceAnswerability",
    "RelevanceModel",
    "TermWeights",
    "collection_orchestrator",
    "distribution_based_score_fusion",
    "fuse",
    "relative_score_fusion",
    "verify_citations",
]
