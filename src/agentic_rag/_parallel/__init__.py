"""The parallel RAG workflow: query views x retrievers run concurrently, fused, answered.

::

    from agentic_rag._parallel import ParallelRAGWorkflow, ExtractiveGenerator, RAGRequest

    workflow = ParallelRAGWorkflow([bm25, vectors], generator=ExtractiveGenerator())
    result = workflow.run(RAGRequest("what causes tides?", deadline_s=2.0))
    print(result.answer.text, result.degraded)
"""

from __future__ import annotations

from agentic_rag._parallel.binding import is_vector_retriever
from agentic_rag._parallel.contracts import (
    BranchOutcome,
    BranchStatus,
    ParallelTrace,
    QueryView,
    RAGRequest,
    RAGResult,
    RewriteRequest,
    RewriteResult,
    ViewKind,
)
from agentic_rag._parallel.evidence import AnswerCitation, Contribution, FusedDocument, GeneratedAnswer
from agentic_rag._parallel.fusion import (
    FusionMethod,
    RankedList,
    default_dedup_key,
    distribution_based_score_fusion,
    fuse,
    fuse_ranked_lists,
    reciprocal_rank_fusion,
    relative_score_fusion,
)
from agentic_rag._parallel.answerability import Answerability, RelevanceAnswerability
from agentic_rag._parallel.generator import ExtractiveGenerator, FunctionGenerator, verify_citations
from agentic_rag._parallel.ports import Generator, QueryViewRewriter, Reranker
from agentic_rag._parallel.rerankers import LexicalReranker, MMRReranker
from agentic_rag._parallel.rewriters import DecompositionRewriter, HyDERewriter, IdentityRewriter, MultiQueryRewriter, RM3Rewriter
from agentic_rag._parallel.workflow import ParallelRAGWorkflow
from agentic_rag._retrieval.function_retriever import FunctionRetriever, RetrieverKind

__all__ = [
    "AnswerCitation",
    "Answerability",
    "BranchOutcome",
    "BranchStatus",
    "Contribution",
    "DecompositionRewriter",
    "ExtractiveGenerator",
    "FunctionGenerator",
    "FunctionRetriever",
    "FusedDocument",
    "FusionMethod",
    "GeneratedAnswer",
    "Generator",
    "HyDERewriter",
    "IdentityRewriter",
    "LexicalReranker",
    "MMRReranker",
    "MultiQueryRewriter",
    "ParallelRAGWorkflow",
    "ParallelTrace",
    "QueryView",
    "QueryViewRewriter",
    "RAGRequest",
    "RAGResult",
    "RM3Rewriter",
    "RankedList",
    "RelevanceAnswerability",
    "Reranker",
    "RetrieverKind",
    "RewriteRequest",
    "RewriteResult",
    "ViewKind",
    "default_dedup_key",
    "distribution_based_score_fusion",
    "fuse",
    "fuse_ranked_lists",
    "is_vector_retriever",
    "reciprocal_rank_fusion",
    "relative_score_fusion",
    "verify_citations",
]
