"""Names from the earlier agentic-rag scaffold, kept for users migrating from it.

Each is a thin subclass of the modern class with no behaviour of its own, so there is one
implementation. New code should use the modern names.

=========================  ==========================================================
scaffold name              modern class
=========================  ==========================================================
AgenticRAGPipeline         :class:`AgenticRAGOrchestrator` (``answer`` = ``run``)
KeywordPlanner             :class:`HeuristicPlanner`
TemplateQueryRewriter      :class:`PlanFeedbackRewriter`
InMemoryKeywordRetriever   :class:`IndexRetriever` over a :class:`BM25Index`
CoverageSufficiencyJudge   :class:`AutoraterStyleSufficiencyJudge`
ExtractiveSynthesizer      :class:`ExtractiveGroundedSynthesizer`
=========================  ==========================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from agentic_rag._agentic.extractive import ExtractiveGroundedSynthesizer
from agentic_rag._agentic.judge import AutoraterStyleSufficiencyJudge
from agentic_rag._agentic.orchestrator import AgenticRAGOrchestrator
from agentic_rag._agentic.planner import HeuristicPlanner
from agentic_rag._agentic.rewriter import PlanFeedbackRewriter
from agentic_rag._contracts import Corpus, Document, RunResult
from agentic_rag._retrieval.index_retriever import IndexRetriever

__all__ = [
    "AgenticRAGPipeline",
    "CoverageSufficiencyJudge",
    "ExtractiveSynthesizer",
    "InMemoryKeywordRetriever",
    "KeywordPlanner",
    "TemplateQueryRewriter",
]


class AgenticRAGPipeline(AgenticRAGOrchestrator):
    """Scaffold name of :class:`AgenticRAGOrchestrator`; ``answer`` is ``run``."""

    def answer(self, question: str, corpora: Sequence[Corpus]) -> RunResult:
        """Run the workflow (same as :meth:`AgenticRAGOrchestrator.run`).

        Args:
            question: The question.
            corpora: The corpora to route over.

        Returns:
            The run result; ``.answer`` holds the grounded answer.
        """
        return self.run(question, corpora)


class KeywordPlanner(HeuristicPlanner):
    """Scaffold name of :class:`HeuristicPlanner`."""


class TemplateQueryRewriter(PlanFeedbackRewriter):
    """Scaffold name of :class:`PlanFeedbackRewriter`."""


class CoverageSufficiencyJudge(AutoraterStyleSufficiencyJudge):
    """Scaffold name of :class:`AutoraterStyleSufficiencyJudge`."""


class ExtractiveSynthesizer(ExtractiveGroundedSynthesizer):
    """Scaffold name of :class:`ExtractiveGroundedSynthesizer`."""


class InMemoryKeywordRetriever(IndexRetriever):
    """Scaffold name for a retriever over in-memory documents: a BM25 index behind
    :class:`IndexRetriever`.

    Args:
        documents: The documents to index.
    """

    def __init__(self, documents: Iterable[Document] = ()) -> None:
        from agentic_rag._retrieval.bm25 import BM25Index

        index = BM25Index()
        index.add(list(documents))
        super().__init__(index, name="InMemoryKeywordRetriever")
