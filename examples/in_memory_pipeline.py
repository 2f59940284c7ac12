"""A deterministic, multi-corpus, two-hop run of the agentic workflow, then a partial one.

Run from the repository root (no install needed):

    python examples/in_memory_pipeline.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from agentic_rag import AgenticRAGOrchestrator, OrchestratorConfig  # noqa: E402
from agentic_rag.compat import InMemoryKeywordRetriever  # noqa: E402
from agentic_rag.components import HeuristicPlanner  # noqa: E402
from agentic_rag._interfaces.text_report import format_run  # noqa: E402
from agentic_rag._samples import PARTIAL_QUESTION, TWO_HOP_QUESTION, sample_corpora, sample_documents, two_hop_facts  # noqa: E402


def main() -> None:
    corpora = sample_corpora()
    retriever = InMemoryKeywordRetriever(sample_documents())
    print("Corpora:")
    for corpus in corpora:
        print(f"  {corpus.id}: {corpus.description}")

    print("\n=== A two-hop question: the founder, then her birthplace ===")
    two_hop = AgenticRAGOrchestrator(retriever=retriever, planner=HeuristicPlanner(two_hop_facts()), config=OrchestratorConfig(top_k=3))
    print(format_run(two_hop.run(TWO_HOP_QUESTION, corpora)))

    print("\n=== A question the corpus can only answer in part ===")
    partial = AgenticRAGOrchestrator(retriever=retriever, config=OrchestratorConfig(top_k=3))
    print(format_run(partial.run(PARTIAL_QUESTION, corpora)))


if __name__ == "__main__":
    main()
