"""agentic-rag: retrieval-augmented generation that knows when its evidence is enough.

Two workflows over one set of contracts and ports:

* :class:`AgenticRAGOrchestrator`: plan, route, rewrite, retrieve, draft, judge
  sufficiency, iterate on the judge's feedback, then answer with claim-level citations, or
  say PARTIAL / UNANSWERABLE and name what is missing.
* :class:`ParallelRAGWorkflow`: rewrite into query views, run every retriever for every view
  concurrently, rerank each branch, fuse with reciprocal rank fusion, generate a grounded
  answer.

The public surface is this module's ``__all__`` plus the public subpackages
``agentic_rag.components`` (every built-in planner, rewriter, judge, reranker, generator and
text-analysis component), ``agentic_rag.types`` (the records components pass each other),
``agentic_rag.llm``, ``agentic_rag.providers``, ``agentic_rag.evaluation``,
``agentic_rag.testing`` and ``agentic_rag.compat``. Modules and packages whose name starts
with ``_`` are the implementation and may change without notice.

Workflows and the store:
    AgenticRAGOrchestrator, OrchestratorConfig, ParallelRAGWorkflow, RAGRequest, RAGResult, KnowledgeStore

What the agentic workflow reads and returns:
    Corpus, Document, Snippet, RetrievalPlan, RequiredFact, Subquery, ContextAssessment, IterationTrace, RunResult, GroundedAnswer, Claim, Citation, AnswerStatus, AnswerabilityLabel, StopReason, Usage

What the parallel workflow returns:
    FusedDocument, GeneratedAnswer, BranchOutcome

Ports (typing.Protocol): implement one to plug in your own component:
    Planner, QueryRewriter, Retriever, Drafter, SufficiencyJudge, Synthesizer, Embedder, QueryViewRewriter, Reranker, Generator

Retrieval engines:
    BM25Index, VectorIndex, HashingEmbedder, BM25Retriever, IndexRetriever, FunctionRetriever

Default components:
    AutoraterStyleSufficiencyJudge, MultiQueryRewriter, ExtractiveGenerator, reciprocal_rank_fusion

Budgets:
    RunBudget, use_budget, current_budget

Errors (one tree, rooted at AgenticRAGError):
    AgenticRAGError, InvalidInputError, BindingError, IndexFormatError, RetrievalError, BranchFailureError, StoreError, BudgetExhaustedError, ProviderError, ProviderHTTPError, ProviderTimeoutError, StructuredOutputError

Names are imported on first use, so ``import agentic_rag`` costs almost nothing and a CLI
call only pays for the commands it runs.
"""

from __future__ import annotations

import importlib
import warnings
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# Where each root name lives. Nothing is imported until a name is first used (PEP 562).
_EXPORTS: dict[str, tuple[str, ...]] = {
    "agentic_rag._agentic": (
        "AgenticRAGOrchestrator", "AutoraterStyleSufficiencyJudge", "OrchestratorConfig",
    ),
    "agentic_rag._parallel": (
        "BranchOutcome", "ExtractiveGenerator", "FusedDocument", "GeneratedAnswer", "Generator",
        "MultiQueryRewriter", "ParallelRAGWorkflow", "QueryViewRewriter", "RAGRequest",
        "RAGResult", "Reranker", "reciprocal_rank_fusion",
    ),
    "agentic_rag._store": (
        "KnowledgeStore",
    ),
    "agentic_rag._contracts": (
        "AnswerStatus", "AnswerabilityLabel", "Citation", "Claim", "ContextAssessment", "Corpus",
        "Document", "GroundedAnswer", "IterationTrace", "RequiredFact", "RetrievalPlan",
        "RunResult", "Snippet", "StopReason", "Subquery", "Usage",
    ),
    "agentic_rag._ports": (
        "Drafter", "Embedder", "Planner", "QueryRewriter", "Retriever", "SufficiencyJudge",
        "Synthesizer",
    ),
    "agentic_rag._retrieval": (
        "BM25Index", "BM25Retriever", "FunctionRetriever", "HashingEmbedder", "IndexRetriever",
        "VectorIndex",
    ),
    "agentic_rag._budget": (
        "RunBudget", "current_budget", "use_budget",
    ),
    "agentic_rag._errors": (
        "AgenticRAGError", "BindingError", "BranchFailureError", "BudgetExhaustedError",
        "IndexFormatError", "InvalidInputError", "ProviderError", "ProviderHTTPError",
        "ProviderTimeoutError", "RetrievalError", "StoreError", "StructuredOutputError",
    ),
}
_HOME: dict[str, str] = {name: module for module, names in _EXPORTS.items() for name in names}

# Names the root used to export, with their public home now. They still resolve, with a
# DeprecationWarning naming the import to use instead.
_MOVED_TO_COMPONENTS = (
    "AbstentionPolicy", "Analyzer", "CallableEmbedder", "CorpusRouter", "DecompositionRewriter",
    "ExtractiveDrafter", "ExtractiveGroundedSynthesizer", "HeuristicPlanner", "HyDERewriter",
    "IdentityRewriter", "LexicalReranker", "MMRReranker", "PlanFeedbackRewriter", "RM3Rewriter",
    "RelevanceAnswerability", "RelevanceModel", "TermWeights", "collection_orchestrator",
    "distribution_based_score_fusion", "relative_score_fusion",
)
_MOVED_TO_TYPES = (
    "ConflictEvidence", "ConflictGroup", "DraftAnswer", "FactPriority", "FactSupport",
    "FeedbackQuery", "Route", "SearchHit", "StopConditions", "SubqueryOrigin", "SufficiencyStatus",
)
_MOVED_TO_COMPAT = (
    "AgenticRAGPipeline", "CoverageSufficiencyJudge", "ExtractiveSynthesizer",
    "InMemoryKeywordRetriever", "KeywordPlanner", "TemplateQueryRewriter",
)
_MOVED: dict[str, str] = {
    **dict.fromkeys(_MOVED_TO_COMPONENTS, "agentic_rag.components"),
    **dict.fromkeys(_MOVED_TO_TYPES, "agentic_rag.types"),
    **dict.fromkeys(_MOVED_TO_COMPAT, "agentic_rag.compat"),
}

__all__ = [
    "AgenticRAGError", "AgenticRAGOrchestrator", "AnswerStatus", "AnswerabilityLabel",
    "AutoraterStyleSufficiencyJudge", "BM25Index", "BM25Retriever", "BindingError",
    "BranchFailureError", "BranchOutcome", "BudgetExhaustedError", "Citation", "Claim",
    "ContextAssessment", "Corpus", "Document", "Drafter", "Embedder", "ExtractiveGenerator",
    "FunctionRetriever", "FusedDocument", "GeneratedAnswer", "Generator", "GroundedAnswer",
    "HashingEmbedder", "IndexFormatError", "IndexRetriever", "InvalidInputError", "IterationTrace",
    "KnowledgeStore", "MultiQueryRewriter", "OrchestratorConfig", "ParallelRAGWorkflow", "Planner",
    "ProviderError", "ProviderHTTPError", "ProviderTimeoutError", "QueryRewriter",
    "QueryViewRewriter", "RAGRequest", "RAGResult", "RequiredFact", "Reranker", "RetrievalError",
    "RetrievalPlan", "Retriever", "RunBudget", "RunResult", "Snippet", "StopReason", "StoreError",
    "StructuredOutputError", "Subquery", "SufficiencyJudge", "Synthesizer", "Usage", "VectorIndex",
    "current_budget", "reciprocal_rank_fusion", "use_budget",
]


def __getattr__(name: str) -> Any:
    """Import a public name on first use (and cache it in the module namespace)."""
    module = _HOME.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value
        return value
    new_home = _MOVED.get(name)
    if new_home is not None:
        warnings.warn(
            f"agentic_rag.{name} moved: import it as 'from {new_home} import {name}'",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module(new_home), name)
    raise AttributeError(f"module 'agentic_rag' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


if TYPE_CHECKING:  # static type checkers and IDEs see the names; a test keeps this in step
    from agentic_rag._agentic import (
        AgenticRAGOrchestrator, AutoraterStyleSufficiencyJudge, OrchestratorConfig,
    )
    from agentic_rag._parallel import (
        BranchOutcome, ExtractiveGenerator, FusedDocument, GeneratedAnswer, Generator,
        MultiQueryRewriter, ParallelRAGWorkflow, QueryViewRewriter, RAGRequest, RAGResult,
        Reranker, reciprocal_rank_fusion,
    )
    from agentic_rag._store import (
        KnowledgeStore,
    )
    from agentic_rag._contracts import (
        AnswerStatus, AnswerabilityLabel, Citation, Claim, ContextAssessment, Corpus, Document,
        GroundedAnswer, IterationTrace, RequiredFact, RetrievalPlan, RunResult, Snippet,
        StopReason, Subquery, Usage,
    )
    from agentic_rag._ports import (
        Drafter, Embedder, Planner, QueryRewriter, Retriever, SufficiencyJudge, Synthesizer,
    )
    from agentic_rag._retrieval import (
        BM25Index, BM25Retriever, FunctionRetriever, HashingEmbedder, IndexRetriever, VectorIndex,
    )
    from agentic_rag._budget import (
        RunBudget, current_budget, use_budget,
    )
    from agentic_rag._errors import (
        AgenticRAGError, BindingError, BranchFailureError, BudgetExhaustedError, IndexFormatError,
        InvalidInputError, ProviderError, ProviderHTTPError, ProviderTimeoutError, RetrievalError,
        StoreError, StructuredOutputError,
    )
