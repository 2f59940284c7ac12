"""Parallel RAG in one screen: BM25 and vector branches, a branch that times out, the fusion
explanation and the cited answer.

Run from the repository root (no install needed)::

    python examples/parallel_rag.py

One query fans out to three retrievers at once: BM25, a hashed n-gram vector index and a
"remote" search service that is slow today. The request has a 0.5 s deadline, so the remote
branch is reported as timed out and the answer comes back from the other two, flagged
``degraded``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from agentic_rag import (  # noqa: E402
    BM25Retriever,
    Document,
    ExtractiveGenerator,
    FunctionRetriever,
    HashingEmbedder,
    IndexRetriever,
    ParallelRAGWorkflow,
    RAGRequest,
    VectorIndex,
)
from agentic_rag.components import LexicalReranker  # noqa: E402

DOCUMENTS = [
    Document(
        "tides",
        "Ocean tides are caused mainly by the gravitational pull of the Moon. "
        "The Sun adds a smaller pull, so spring tides occur when the Sun and the Moon line up.",
        title="Ocean tides",
    ),
    Document(
        "bulges",
        "The Moon's gravity raises two bulges of water on opposite sides of Earth. "
        "As Earth turns, most coasts pass through both bulges and see two high tides a day.",
        title="Tidal bulges",
    ),
    Document("moon", "The Moon orbits Earth every 27.3 days at an average distance of 384,400 kilometres.", title="The Moon"),
    Document("currents", "Ocean currents are driven by wind, by differences in water density and by the rotation of Earth.", title="Ocean currents"),
    Document("photosynthesis", "Photosynthesis converts light energy into chemical energy stored in sugars.", title="Photosynthesis"),
    Document("volcano", "Volcanic eruptions release ash and sulfur dioxide, which can cool the climate for a year or two.", title="Volcanoes"),
    Document("glaciers", "Glaciers carve U-shaped valleys as they slowly move downhill under their own weight.", title="Glaciers"),
]


def slow_remote_search(query: str, k: int) -> list[dict]:
    """A remote search service having a bad day: it answers, but after 1.5 s."""
    time.sleep(1.5)
    return [{"id": "tides", "text": DOCUMENTS[0].text, "score": 1.0}]


def main() -> None:
    vectors = VectorIndex(HashingEmbedder())
    vectors.add(DOCUMENTS)
    workflow = ParallelRAGWorkflow(
        [
            BM25Retriever.from_documents(DOCUMENTS),
            IndexRetriever(vectors, name="vector"),
            FunctionRetriever(slow_remote_search, name="remote"),
        ],
        reranker=LexicalReranker(),
        generator=ExtractiveGenerator(),
    )
    request = RAGRequest("What causes ocean tides, and why are there two a day?", top_k=3, deadline_s=0.5)

    started = time.monotonic()
    result = workflow.run(request)
    elapsed = time.monotonic() - started

    print(f"Query: {request.query}")
    print(f"Returned in {elapsed:.2f} s (deadline {request.deadline_s} s); degraded = {result.degraded}\n")
    print("Branches:")
    for outcome in result.outcomes:
        detail = f"{outcome.hit_count} hits" if outcome.ok else outcome.error_message
        print(f"  {outcome.branch:<10} {outcome.status.value:<8} {outcome.elapsed_s:6.3f} s  {detail}")
    print("\nFusion (reciprocal rank fusion, k = 60, ranks from 1):")
    for document in result.documents:
        print(document.explain())
    print("\nAnswer:")
    print(f"  {result.answer.text}")
    for citation in result.answer.citations:
        print(f"  [{citation.number}] {citation.document_id}: \"{citation.quote}\"")
    print("\n(The remote branch is still sleeping; its late answer is discarded when it arrives.)")


if __name__ == "__main__":
    main()
