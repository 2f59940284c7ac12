"""Ready-made evaluation runs over a dataset folder: one-shot, iterative and parallel
configurations side by side, with the metrics that fit the folder's format.

Used by ``agentic-rag eval`` and the multi-hop benchmark, so both measure the same thing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from agentic_rag._agentic import AgenticRAGOrchestrator, AutoraterStyleSufficiencyJudge, OrchestratorConfig
from agentic_rag._contracts import Corpus, Document
from agentic_rag._contracts.serialization import JsonContract
from agentic_rag._contracts.validation import require_int
from agentic_rag.evaluation.dataset_records import BeirDataset, DatasetFormat, MultiHopDataset
from agentic_rag.evaluation.datasets import load_dataset
from agentic_rag.evaluation.ir_metrics import ndcg_at_k, recall_at_k
from agentic_rag.evaluation.multihop import EvidenceRun, MultiHopConfiguration, compare_configurations, split_questions
from agentic_rag._ports import Retriever

__all__ = ["CONFIGURATION_NAMES", "EvalReport", "EvalRow", "MULTIHOP_LOOP", "evidence_runners", "run_eval"]

#: The configurations compared, in table order.
CONFIGURATION_NAMES = ("one_shot", "iterative", "parallel")

#: The iterative loop's settings for open multi-hop evidence, tuned on the HotpotQA and
#: MuSiQue tuning halves (see docs/benchmarks.md): up to 8 rounds, from the third on only
#: while a round finds passages carrying what the question still misses; final evidence
#: ranked as chains.
MULTIHOP_LOOP = OrchestratorConfig(top_k=10, max_iterations=8, max_subqueries_per_iteration=6, max_snippets=300, deadline_s=None,
                                   progress_after=3, rank_chains=True)
MULTIHOP_JUDGE_THRESHOLD = 0.8
MULTIHOP_FEEDBACK_PER_FACT = 16


@dataclass(frozen=True, slots=True)
class EvalRow(JsonContract):
    """One configuration's metrics (``None`` where a metric does not apply to the format)."""

    configuration: str
    queries: int
    ndcg_at_10: float | None
    recall_at_10: float | None
    recall_at_100: float | None
    all_gold_at_10: float | None
    iterations: float
    retriever_calls: float
    seconds: float

    def metrics(self) -> dict[str, float]:
        """The metrics under their public names (``ndcg@10``, ``all_gold@10``...), without
        those that do not apply."""
        named = {
            "ndcg@10": self.ndcg_at_10,
            "recall@10": self.recall_at_10,
            "recall@100": self.recall_at_100,
            "all_gold@10": self.all_gold_at_10,
            "iterations": self.iterations,
            "retriever_calls": self.retriever_calls,
            "seconds": self.seconds,
        }
        return {k: v for k, v in named.items() if v is not None}


@dataclass(frozen=True, slots=True)
class EvalReport(JsonContract):
    """Every configuration's row for one dataset, and what the loader repaired or skipped
    (:attr:`MultiHopDataset.notes`)."""

    dataset: str
    format: str
    rows: tuple[EvalRow, ...]
    notes: tuple[str, ...] = ()

    def by_configuration(self) -> dict[str, dict[str, float]]:
        """``{configuration: {metric: value}}``, the ``eval --json`` shape."""
        return {row.configuration: row.metrics() for row in self.rows}

    def table(self) -> str:
        """A Markdown table of the rows."""
        header = "| configuration | queries | nDCG@10 | recall@10 | recall@100 | all-gold@10 | iterations | retriever calls | ms / query |"
        lines = [header, "|---|---|---|---|---|---|---|---|---|"]
        fmt = lambda v: "-" if v is None else f"{v:.3f}"  # noqa: E731
        for r in self.rows:
            lines.append(f"| {r.configuration} | {r.queries} | {fmt(r.ndcg_at_10)} | {fmt(r.recall_at_10)} | {fmt(r.recall_at_100)} | {fmt(r.all_gold_at_10)} | {r.iterations:.2f} | {r.retriever_calls:.2f} | {r.seconds * 1000:.1f} |")
        return "\n".join(lines)


def evidence_runners(documents: Sequence[Document], corpus_id: str, *, depth: int = 10) -> dict[str, Callable[[str], EvidenceRun]]:
    """Build the three configurations over one in-memory corpus.

    Args:
        documents: The corpus.
        corpus_id: Its corpus id.
        depth: Evidence length each configuration returns (one-shot and parallel).

    Returns:
        ``{"one_shot", "iterative", "parallel"}`` -> function from a query to its evidence.
    """
    from agentic_rag._parallel import DecompositionRewriter, ExtractiveGenerator, ParallelRAGWorkflow, RAGRequest
    from agentic_rag._retrieval.bm25 import BM25Index
    from agentic_rag._retrieval.bm25_retriever import BM25Retriever
    from agentic_rag._retrieval.embedders import HashingEmbedder
    from agentic_rag._retrieval.index_retriever import IndexRetriever
    from agentic_rag._retrieval.vector import VectorIndex

    bm25: Retriever = BM25Retriever(BM25Index.from_documents(documents))
    corpora = (Corpus(id=corpus_id, description="evaluation corpus"),)
    judge = AutoraterStyleSufficiencyJudge(term_threshold=MULTIHOP_JUDGE_THRESHOLD, feedback_per_fact=MULTIHOP_FEEDBACK_PER_FACT)
    loop = AgenticRAGOrchestrator(retriever=bm25, judge=judge, config=MULTIHOP_LOOP)
    vectors = VectorIndex(HashingEmbedder())
    vectors.add(documents)
    parallel = ParallelRAGWorkflow([bm25, IndexRetriever(vectors, name="hashing-vectors")], rewriter=DecompositionRewriter(), generator=ExtractiveGenerator())

    def one_shot(query: str) -> EvidenceRun:
        hits = bm25.retrieve(query, depth)
        return EvidenceRun(tuple(h.document_id for h in hits), tuple(h.text for h in hits), 1, 1)

    def iterative(query: str) -> EvidenceRun:
        run = loop.run(query, corpora)
        return EvidenceRun(tuple(s.document_id for s in run.snippets), tuple(s.text for s in run.snippets), run.usage.retriever_calls, len(run.iterations))

    def fused(query: str) -> EvidenceRun:
        result = parallel.run(RAGRequest(query, top_k=depth, branch_k=depth))
        texts = tuple(d.snippet.text if d.snippet is not None else "" for d in result.documents)
        return EvidenceRun(tuple(d.document_id for d in result.documents), texts, len(result.outcomes), 1)

    return {"one_shot": one_shot, "iterative": iterative, "parallel": fused}


def run_eval(folder: str | Path, *, limit: int | None = None, half: str = "all", split: str = "test",
             format: DatasetFormat | str | None = None) -> EvalReport:
    """Evaluate the three configurations on a BEIR, TREC or multi-hop folder, or a HotpotQA,
    2WikiMultihopQA or MuSiQue file as published.

    Args:
        folder: The dataset folder or file.
        limit: Only the first ``limit`` queries (after ``half``).
        half: ``"all"``, ``"tune"`` (even lines or records) or ``"report"`` (odd ones);
            multi-hop only.
        split: Qrels split for BEIR folders.
        format: The :class:`DatasetFormat` (or its value); ``None`` or ``"auto"`` detects it.

    Returns:
        One row per configuration: nDCG@10 and recall@10/100 for judged collections,
        all-gold@10 and recall@10 for multi-hop questions; iterations, retriever calls and
        seconds per query for both.

    Raises:
        InvalidInputError: An unreadable folder or a bad ``limit``.
    """
    require_int(limit, "limit", minimum=1, optional=True, stage="evaluation")
    dataset = load_dataset(folder, split=split, format=format)
    corpus_id = dataset.corpus[0].corpus_id if dataset.corpus else "corpus"
    if isinstance(dataset, MultiHopDataset):
        questions = split_questions(dataset.questions, half)[:limit]
        runners = evidence_runners(dataset.corpus, corpus_id)
        configs = [MultiHopConfiguration(name, lambda q, fn=runners[name]: fn(q.question)) for name in CONFIGURATION_NAMES]
        reports = compare_configurations(questions, configs, k=10)
        rows = tuple(EvalRow(r.name, r.questions, None, round(r.gold_recall_at_k, 4), None, r.all_gold_at_k, r.iterations, r.retriever_calls, r.seconds) for r in reports)
        return EvalReport(dataset.name, dataset.format.value, rows, dataset.notes)
    assert isinstance(dataset, BeirDataset)
    queries = dataset.queries[:limit]
    runners = evidence_runners(dataset.corpus, corpus_id, depth=100)
    rows = []
    for name in CONFIGURATION_NAMES:
        ndcg = r10 = r100 = calls = iters = seconds = 0.0
        for query in queries:
            start = time.perf_counter()
            run = runners[name](query.text)
            seconds += time.perf_counter() - start
            ranked = list(run.document_ids)
            qrels = dataset.qrels.get(query.id, {})
            ndcg += ndcg_at_k(ranked, qrels, 10)
            r10 += recall_at_k(ranked, qrels, 10)
            r100 += recall_at_k(ranked, qrels, 100)
            calls += run.retriever_calls
            iters += run.iterations
        n = max(1, len(queries))
        rows.append(EvalRow(name, len(queries), round(ndcg / n, 4), round(r10 / n, 4), round(r100 / n, 4), None, round(iters / n, 2), round(calls / n, 2), round(seconds / n, 4)))
    return EvalReport(dataset.name, dataset.format.value, tuple(rows))
