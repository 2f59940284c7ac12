"""LLM-backed components for both workflows, on the same ports as the deterministic ones.

Agentic workflow: :class:`LLMPlanner`, :class:`LLMQueryRewriter`, :class:`LLMDrafter`,
:class:`LLMSufficiencyJudge`, :class:`LLMSynthesizer` (or all at once with
:func:`llm_orchestrator`). Both workflows: :class:`LLMClaimVerifier`, which reads whether a
quote states a claim the lexical grounding check doubts (the synthesizer and generator make
one of their own). Parallel workflow: :class:`LLMQueryViewRewriter` (multi-query or
decomposition), :class:`LLMHyDEWriter` for ``HyDERewriter`` and :class:`LLMGenerator`.

Each asks its model for the role's JSON (schema-validated, one repair round by default; one
:class:`RoleSettings` sets the model call and evidence options of every role), verifies every
citation against the snippet it names, and falls back to the deterministic component of its
port when the answer stays malformed or the endpoint is flaky (``fallback=None`` raises
instead). Budget exhaustion always propagates so the workflow stops gracefully. Every
component's ``events`` and ``last_fallback_reason`` say what happened::

    from agentic_rag.llm import OpenAICompatibleLLM
    from agentic_rag.llm.components import llm_orchestrator

    llm = OpenAICompatibleLLM()  # AGENTIC_RAG_LLM_BASE_URL, AGENTIC_RAG_LLM_MODEL
    result = llm_orchestrator(llm, retriever=retriever).run(question, corpora)
"""

from __future__ import annotations

from agentic_rag.llm.components.assembly import llm_orchestrator
from agentic_rag.llm.components.citations import (
    ClaimVerification,
    DroppedClaim,
    ModelCitation,
    ModelClaim,
    VerifiedClaim,
    locate_quote,
    parse_model_claims,
    verify_model_claims,
)
from agentic_rag.llm.components.drafting import LLMDrafter, LLMSynthesizer
from agentic_rag.llm.components.fallback import ComponentEvent, ComponentEventKind, FallbackChoice, LLMComponent
from agentic_rag.llm.components.generator import LLMGenerator
from agentic_rag.llm.components.judge import LLMSufficiencyJudge
from agentic_rag.llm.components.planner import LLMPlanner
from agentic_rag.llm.components.rewriters import (
    LLMHyDEWriter,
    LLMQueryRewriter,
    LLMQueryViewRewriter,
    QueryViewStrategy,
    hyde_generate_fn,
    statement_document,
)
from agentic_rag.llm.components.settings import RoleSettings
from agentic_rag.llm.components.verifier import LLMClaimVerifier

__all__ = [
    "ClaimVerification",
    "ComponentEvent",
    "ComponentEventKind",
    "DroppedClaim",
    "FallbackChoice",
    "LLMClaimVerifier",
    "LLMComponent",
    "LLMDrafter",
    "LLMGenerator",
    "LLMHyDEWriter",
    "LLMPlanner",
    "LLMQueryRewriter",
    "LLMQueryViewRewriter",
    "LLMSufficiencyJudge",
    "LLMSynthesizer",
    "ModelCitation",
    "ModelClaim",
    "QueryViewStrategy",
    "RoleSettings",
    "VerifiedClaim",
    "hyde_generate_fn",
    "llm_orchestrator",
    "locate_quote",
    "parse_model_claims",
    "statement_document",
    "verify_model_claims",
]
