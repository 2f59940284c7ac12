"""Deterministic components that read questions against one collection's statistics.

A knowledge store knows how often each term occurs in it; with that, the judge weighs the
question's informative words over its verbs of asking and reads paraphrase (see
:class:`~agentic_rag._text.relevance.RelevanceModel`), and the drafter quotes the units of the
evidence that answer best. This module builds the orchestrator that uses them.
"""

from __future__ import annotations

from agentic_rag._agentic.config import OrchestratorConfig
from agentic_rag._agentic.extractive import ExtractiveDrafter, ExtractiveGroundedSynthesizer
from agentic_rag._agentic.fact_evidence import FactEvidenceModel
from agentic_rag._agentic.judge import AutoraterStyleSufficiencyJudge
from agentic_rag._agentic.orchestrator import AgenticRAGOrchestrator
from agentic_rag._agentic.planner import HeuristicPlanner
from agentic_rag._agentic.rewriter import PlanFeedbackRewriter
from agentic_rag._agentic.routing import CorpusRouter
from agentic_rag._ports import Retriever
from agentic_rag._text.relevance import RelevanceModel

__all__ = ["RELEVANCE_THRESHOLD", "collection_evidence_model", "collection_orchestrator"]

#: The :meth:`FactEvidenceModel.relevance_share` that covers a plain question; calibrated on
#: the development half of the documentation benchmark (``bench/answers/bench_docs_qa.py``).
RELEVANCE_THRESHOLD = 0.45


def collection_evidence_model(relevance: RelevanceModel, *, threshold: float = RELEVANCE_THRESHOLD) -> FactEvidenceModel:
    """An evidence model that judges plain questions by weighted relevance.

    Args:
        relevance: The collection's relevance model (its analyzer and term weights, e.g.
            ``RelevanceModel(index.analyzer, weights=TermWeights.from_index(index))``).
        threshold: The relevance share that covers a fact.

    Returns:
        The model, to share between a drafter, a judge and a synthesizer.
    """
    return FactEvidenceModel(relevance.analyzer, relevance=relevance, relevance_threshold=threshold)


def collection_orchestrator(retriever: Retriever, relevance: RelevanceModel, *, config: OrchestratorConfig | None = None,
                            router: CorpusRouter | None = None) -> AgenticRAGOrchestrator:
    """The deterministic orchestrator over a collection with known term statistics.

    Args:
        retriever: The collection's retriever.
        relevance: Its relevance model.
        config: Budgets.
        router: Routes facts and follow-up queries (default: by corpus description); a store
            passes one that routes by where the text's best passages stand.

    Returns:
        An orchestrator whose drafter, judge and synthesizer share one relevance-reading
        evidence model.
    """
    evidence = collection_evidence_model(relevance)
    drafter = ExtractiveDrafter(evidence_model=evidence)
    return AgenticRAGOrchestrator(
        retriever=retriever,
        planner=HeuristicPlanner(router=router),
        rewriter=PlanFeedbackRewriter(router=router),
        drafter=drafter,
        judge=AutoraterStyleSufficiencyJudge(evidence_model=evidence),
        synthesizer=ExtractiveGroundedSynthesizer(drafter),
        config=config,
    )
