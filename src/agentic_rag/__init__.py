"""agentic-rag: retrieval-augmented generation that knows when its evidence is enough.

Two workflows over one set of contracts and ports:

* :class:`AgenticRAGOrchestrator`: plan, route, rewrite, retrieve, draft, judge
  sufficiency, iterate on the judge's feedback, then answer with claim-level citations, or
  say PARTIAL / UNANSWERABLE and name what is missing.
* ``ParallelRAGWorkflow``: rewrite into query views, run every retriever for every view
  concurrently, rerank each branch, fuse with reciprocal rank fusion, generate a grounded
  answer.

Everything public is importable from here; the implementation lives in the sub-packages.
"""

from __future__ import annotations

from agentic_rag.agentic import (
    AbstentionPolicy,
    AgenticRAGOrchestrator,
    AgenticRAGPipeline,
    AutoraterStyleSufficiencyJudge,
    CorpusRouter,
    CoverageSufficiencyJudge,
    ExtractiveDrafter,
    ExtractiveGroundedSynthesizer,
    ExtractiveSynthesizer,
    HeuristicPlanner,
    InMemoryKeywordRetriever,
    KeywordPlanner,
    OrchestratorConfig,
    PlanFeedbackRewriter,
    TemplateQueryRewriter,
)
from agentic_rag.budget import RunBudget, current_budget, use_budget
from agentic_rag.contracts import (
    AnswerabilityLabel,
    AnswerStatus,
    Citation,
    Claim,
    ConflictEvidence,
    ConflictGroup,
    ContextAssessment,
    Corpus,
    Document,
    DraftAnswer,
    FactPriority,
    FactSupport,
    FeedbackQuery,
    GroundedAnswer,
    IterationTrace,
    RequiredFact,
    RetrievalPlan,
    Route,
    RunResult,
    Snippet,
    StopConditions,
    StopReason,
    Subquery,
    SubqueryOrigin,
    SufficiencyStatus,
    Usage,
)
from agentic_rag.errors import (
    AgenticRAGError,
    BindingError,
    BranchFailureError,
    BudgetExhaustedError,
    IndexFormatError,
    InvalidInputError,
    ProviderError,
    ProviderHTTPError,
    ProviderTimeoutError,
    RetrievalError,
    StoreError,
    StructuredOutputError,
)
from agentic_rag.ports import Drafter, Embedder, Planner, QueryRewriter, Retriever, SufficiencyJudge, Synthesizer
from agentic_rag.retrieval.hits import SearchHit
from agentic_rag.retrieval.index_retriever import IndexRetriever
from agentic_rag.text import Analyzer

__version__ = "0.1.0"

__all__ = [
    "AbstentionPolicy",
    "AgenticRAGError",
    "AgenticRAGOrchestrator",
    "AgenticRAGPipeline",
    "Analyzer",
    "AnswerStatus",
    "AnswerabilityLabel",
    "AutoraterStyleSufficiencyJudge",
    "BindingError",
    "BranchFailureError",
    "BudgetExhaustedError",
    "Citation",
    "Claim",
    "ConflictEvidence",
    "ConflictGroup",
    "ContextAssessment",
    "Corpus",
    "CorpusRouter",
    "CoverageSufficiencyJudge",
    "Document",
    "DraftAnswer",
    "Drafter",
    "Embedder",
    "ExtractiveDrafter",
    "ExtractiveGroundedSynthesizer",
    "ExtractiveSynthesizer",
    "FactPriority",
    "FactSupport",
    "FeedbackQuery",
    "GroundedAnswer",
    "HeuristicPlanner",
    "InMemoryKeywordRetriever",
    "IndexFormatError",
    "IndexRetriever",
    "InvalidInputError",
    "IterationTrace",
    "KeywordPlanner",
    "OrchestratorConfig",
    "PlanFeedbackRewriter",
    "Planner",
    "ProviderError",
    "ProviderHTTPError",
    "ProviderTimeoutError",
    "QueryRewriter",
    "RequiredFact",
    "RetrievalError",
    "RetrievalPlan",
    "Retriever",
    "Route",
    "RunBudget",
    "RunResult",
    "SearchHit",
    "Snippet",
    "StopConditions",
    "StopReason",
    "StoreError",
    "StructuredOutputError",
    "Subquery",
    "SubqueryOrigin",
    "SufficiencyJudge",
    "SufficiencyStatus",
    "Synthesizer",
    "TemplateQueryRewriter",
    "Usage",
    "current_budget",
    "use_budget",
]
