"""The ``agentic-rag`` command line.

Commands: ``demo`` runs the agentic workflow on the bundled sample corpus and prints each
iteration, the judge's feedback and the cited answer.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

__all__ = ["main"]


def _demo(args: argparse.Namespace) -> int:
    from agentic_rag.agentic import AgenticRAGOrchestrator, HeuristicPlanner, InMemoryKeywordRetriever, OrchestratorConfig
    from agentic_rag.interfaces.text_report import format_run
    from agentic_rag.samples import PARTIAL_QUESTION, TWO_HOP_QUESTION, sample_corpora, sample_documents, two_hop_facts

    corpora = sample_corpora()
    retriever = InMemoryKeywordRetriever(sample_documents())
    runs = [
        AgenticRAGOrchestrator(retriever=retriever, planner=HeuristicPlanner(two_hop_facts()), config=OrchestratorConfig(top_k=3)).run(TWO_HOP_QUESTION, corpora),
        AgenticRAGOrchestrator(retriever=retriever, config=OrchestratorConfig(top_k=3)).run(PARTIAL_QUESTION, corpora),
    ]
    if args.json:
        print(json.dumps([r.to_dict() for r in runs], sort_keys=True, ensure_ascii=False))
        return 0
    print("Sample corpora: " + ", ".join(f"{c.id} ({c.description})" for c in corpora))
    for run in runs:
        print()
        print(format_run(run))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser (one sub-command per job)."""
    parser = argparse.ArgumentParser(prog="agentic-rag", description="Retrieval-augmented answers that say when the evidence is not enough.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser("demo", help="run the agentic workflow on the bundled sample corpus", description="Run the agentic workflow on the bundled sample corpus: a two-hop question and one that can only be answered in part.")
    demo.add_argument("--json", action="store_true", help="print the runs as JSON")
    demo.set_defaults(handler=_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Args:
        argv: Arguments (default ``sys.argv[1:]``).

    Returns:
        The process exit code: 0 ok, 1 usage error.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return 1
    return int(args.handler(args))
