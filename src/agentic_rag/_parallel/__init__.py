"""The parallel RAG workflow: query views x retrievers run concurrently, fused, answered.

::

    from agentic_rag._parallel import ParallelRAGWorkflow, ExtractiveGenerator, RAGRequest

    workflow = ParallelRAGWorkflow([bm25, vectors], generator=ExtractiveGenerator())
    result = workflow.run(RAGRequest("what causes tides?", deadline_s=2.0))
    print(result.answer.text, result.degraded)
"""

from __future__ import annotations

from agentic_rag._lazy import lazy_exports

# Where each name lives; a module is imported when one of its names is first used.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "agentic_rag._parallel.binding": ("is_vector_retriever",),
    "agentic_rag._parallel.contracts": (
        "BranchOutcome",
        "BranchStatus",
        "ParallelTrace",
        "QueryView",
        "RAGRequest",
        "RAGResult",
        "RewriteRequest",
        "RewriteResult",
        "ViewKind",
    ),
    "agentic_rag._parallel.evidence": ("AnswerCitation", "Contribution", "FusedDocument", "GeneratedAnswer"),
    "agentic_rag._parallel.fusion": (
        "FusionMethod",
        "RankedList",
        "default_dedup_key",
        "distribution_based_score_fusion",
        "fuse",
        "fuse_ranked_lists",
        "reciprocal_rank_fusion",
        "relative_score_fusion",
    ),
    "agentic_rag._parallel.answerability": ("Answerability", "RelevanceAnswerability"),
    "agentic_rag._parallel.generator": ("ExtractiveGenerator", "FunctionGenerator", "verify_citations"),
    "agentic_rag._parallel.ports": ("Generator", "QueryViewRewriter", "Reranker"),
    "agentic_rag._parallel.rerankers": ("LexicalReranker", "MMRReranker"),
    "agentic_rag._parallel.rewriters": (
        "DecompositionRewriter",
        "HyDERewriter",
        "IdentityRewriter",
        "MultiQueryRewriter",
        "RM3Rewriter",
    ),
    "agentic_rag._parallel.workflow": ("ParallelRAGWorkflow",),
    "agentic_rag._retrieval.function_retriever": ("FunctionRetriever", "RetrieverKind"),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)
