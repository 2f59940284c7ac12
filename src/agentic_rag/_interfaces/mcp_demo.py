"""The in-memory demo behind ``mcp_server --demo-tools``: the bundled sample corpus served by
the store tools, so the server can be tried (and tested) without a store.

The JSON shapes come from :mod:`agentic_rag._interfaces.payloads`, as for the store.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agentic_rag._errors import InvalidInputError
from agentic_rag._interfaces.evidence_payload import relevance_model
from agentic_rag._interfaces.mcp_tools import AskMode, McpTool, build_store_tools
from agentic_rag._interfaces.payloads import ask_payload, hit_payload

__all__ = ["DEMO_INSTRUCTIONS", "demo_tools"]

DEMO_INSTRUCTIONS = (
    "A demo of agentic-rag over a small bundled sample corpus (company records, biographies, recipes). "
    "Call list_corpora to see what each corpus holds, search to find passages with file:lines, and ask for an answer "
    "whose claims cite file:lines with exact quotes. Read status: answered, partial (see missing_facts) or unanswerable, "
    "and read evidence (the passages the verdict rests on) before saying the documents do not answer."
)


def demo_tools() -> tuple[McpTool, ...]:
    """Return the store tools over the bundled sample corpus, in memory.

    ``search`` uses BM25; ``ask`` runs the agentic workflow (``mode=agentic``) or the parallel
    one over BM25 and hashed-n-gram vectors, fused by RRF (``mode=parallel``).

    Returns:
        The ``search``, ``ask`` and ``list_corpora`` tools.
    """
    from agentic_rag._agentic import AgenticRAGOrchestrator, InMemoryKeywordRetriever, OrchestratorConfig
    from agentic_rag._samples import sample_corpora, sample_documents, sample_folder

    from agentic_rag._retrieval import BM25Index

    documents, corpora, root = sample_documents(), sample_corpora(), sample_folder()
    keyword = InMemoryKeywordRetriever(documents)
    model = relevance_model(BM25Index.from_documents(documents))  # term weights of the sample
    known = [c.id for c in corpora]

    def search(query: str, k: int, corpus: str | None) -> Sequence[dict[str, Any]]:
        if corpus is not None and corpus not in known:
            raise InvalidInputError(f"unknown corpus {corpus!r}; known corpora: {known}", stage="mcp")
        found = keyword.retrieve(query, k, corpus_ids=None if corpus is None else [corpus])
        return [hit_payload(s, root, query=query, model=model) for s in found]

    def ask(question: str, mode: AskMode, evidence: int) -> dict[str, Any]:
        if mode is AskMode.PARALLEL:
            from agentic_rag._parallel import ExtractiveGenerator, ParallelRAGWorkflow, RAGRequest

            workflow = ParallelRAGWorkflow([keyword, _vector_retriever(documents)], generator=ExtractiveGenerator())
            return ask_payload(workflow.run(RAGRequest(question, top_k=3)), root, evidence=evidence, model=model)
        orchestrator = AgenticRAGOrchestrator(retriever=keyword, config=OrchestratorConfig(top_k=3))
        return ask_payload(orchestrator.run(question, corpora), root, evidence=evidence, model=model)

    return build_store_tools(search, ask, lambda: corpora)


def _vector_retriever(documents: Sequence[Any]) -> Any:
    from agentic_rag._retrieval.embedders import HashingEmbedder
    from agentic_rag._retrieval.index_retriever import IndexRetriever
    from agentic_rag._retrieval.vector import VectorIndex

    index = VectorIndex(HashingEmbedder())
    index.add(list(documents))
    return IndexRetriever(index, name="vector")
