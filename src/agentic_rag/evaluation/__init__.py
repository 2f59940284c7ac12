"""Evaluation: IR ranking metrics, FRAMES-style run metrics, and dataset loaders (BEIR, TREC,
multi-hop QA folders; HotpotQA, 2WikiMultihopQA and MuSiQue files as published)."""

from __future__ import annotations

from agentic_rag._lazy import lazy_exports

# Where each name lives; a module is imported when one of its names is first used.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "agentic_rag.evaluation.dataset_records": (
        "BeirDataset",
        "DatasetFormat",
        "MultiHopDataset",
        "MultiHopQuestion",
        "Query",
    ),
    "agentic_rag.evaluation.datasets": (
        "detect_format",
        "load_2wikimultihopqa",
        "load_beir",
        "load_dataset",
        "load_hotpotqa",
        "load_multihop",
        "load_musique",
        "load_trec",
    ),
    "agentic_rag.evaluation.frames": (
        "FramesCase",
        "FramesComparison",
        "FramesMetrics",
        "compare_runs",
        "frames_metrics",
        "mean_metrics",
    ),
    "agentic_rag.evaluation.ir_metrics": (
        "SUPPORTED_METRICS",
        "RunEvaluation",
        "average_precision",
        "evaluate_run",
        "ndcg_at_k",
        "precision_at_k",
        "recall_at_k",
        "reciprocal_rank",
    ),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)
