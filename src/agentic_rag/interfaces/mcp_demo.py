"""The in-memory demo behind ``mcp_server --demo-tools``: the bundled sample corpus served by
the store tools, so the server can be tried (and tested) without a store.

Also holds the conversions from a run to the ``ask`` / ``search`` JSON shapes: file path and
1-based line range of each hit and citation, the quote verbatim. Snippets that carry
``start_line`` / ``end_line`` in their metadata (as stored chunks do) use them; otherwise the
lines are found by locating the text in the source file under ``root``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agentic_rag.contracts import RunResult, Snippet
from agentic_rag.errors import InvalidInputError
from agentic_rag.interfaces.mcp_tools import AskMode, McpTool, build_store_tools
from agentic_rag.parallel.contracts import RAGResult

__all__ = ["DEMO_INSTRUCTIONS", "ask_payload", "demo_tools", "hit_payload"]

DEMO_INSTRUCTIONS = (
    "A demo of agentic-rag over a small bundled sample corpus (company records, biographies, recipes). "
    "Call list_corpora to see what each corpus holds, search to find passages with file:lines, and ask for an answer "
    "whose claims cite file:lines with exact quotes. Read status: answered, partial (see missing_facts) or unanswerable."
)
_MARKER = re.compile(r"\[(\d+)\]")


def hit_payload(snippet: Snippet, root: Path | None = None) -> dict[str, Any]:
    """Return a snippet as a ``search`` hit: ``{path, start_line, end_line, score, text}``.

    Args:
        snippet: A retrieved snippet (its metadata ``path`` names the file).
        root: Folder the paths are relative to, for finding line numbers.

    Returns:
        The hit as a JSON object.
    """
    path, start, end = _location(snippet, snippet.text, root)
    return {"path": path, "start_line": start, "end_line": end, "score": snippet.score, "text": snippet.text}


def ask_payload(result: RunResult | RAGResult, root: Path | None = None) -> dict[str, Any]:
    """Return a run as the ``ask`` answer: status, answer, cited claims, missing facts.

    Args:
        result: An agentic :class:`RunResult` or a parallel :class:`RAGResult`.
        root: Folder the snippet paths are relative to, for finding line numbers.

    Returns:
        ``{status, answer, claims: [{text, citations: [{path, start_line, end_line, quote}]}],
        missing_facts, iterations, stop_reason}``. A parallel run is one pass: ``iterations``
        is 1, ``stop_reason`` ``single_pass`` (``refused`` when the generator declined).

    Raises:
        InvalidInputError: ``result`` is neither kind of result.
    """
    if isinstance(result, RunResult):
        snippets = {s.id: s for s in result.snippets}
        claims = [
            {"text": claim.text, "citations": [_citation(snippets[c.snippet_id], c.quote, root) for c in claim.citations if c.snippet_id in snippets]}
            for claim in result.answer.claims
        ]
        return {
            "status": result.answer.status.value,
            "answer": result.answer.text,
            "claims": claims,
            "missing_facts": [fact.description for fact in result.answer.missing_facts],
            "iterations": len(result.iterations),
            "stop_reason": result.stop_reason.value,
        }
    if isinstance(result, RAGResult):
        return _parallel_payload(result, root)
    raise InvalidInputError(f"result must be a RunResult or a RAGResult, got {type(result).__name__}", stage="mcp")


def _parallel_payload(result: RAGResult, root: Path | None) -> dict[str, Any]:
    from agentic_rag.parallel.generator import sentence_spans

    answer = result.answer
    snippets = {doc.document_id: doc.snippet for doc in result.documents if doc.snippet is not None}
    pending = list(answer.citations)
    claims = []
    # Each sentence takes the citations of its [n] markers, in order of appearance.
    for start, end in sentence_spans(answer.text):
        sentence = answer.text[start:end]
        cited = []
        for number in (int(n) for n in _MARKER.findall(sentence)):
            match = next((c for c in pending if c.number == number), None)
            if match is not None:
                pending.remove(match)
                cited.append(match)
        if cited:
            text = " ".join(_MARKER.sub("", sentence).split()).replace(" .", ".")
            claims.append({"text": text, "citations": [_citation(snippets[c.document_id], c.quote, root) for c in cited if c.document_id in snippets]})
    for leftover in pending:
        if leftover.document_id in snippets:
            claims.append({"text": " ".join(leftover.quote.split()), "citations": [_citation(snippets[leftover.document_id], leftover.quote, root)]})
    status = "unanswerable" if answer.refused or not claims else "answered"
    return {
        "status": status,
        "answer": answer.text,
        "claims": claims,
        "missing_facts": [],
        "iterations": 1,
        "stop_reason": "refused" if answer.refused else "single_pass",
    }


def _citation(snippet: Snippet, quote: str, root: Path | None) -> dict[str, Any]:
    path, start, end = _location(snippet, quote, root)
    return {"path": path, "start_line": start, "end_line": end, "quote": quote}


def _location(snippet: Snippet, text: str, root: Path | None) -> tuple[str, int, int]:
    """``(path, start_line, end_line)`` of ``text`` inside the snippet's source file."""
    meta = snippet.metadata
    stored = meta.get("path")
    path = stored if isinstance(stored, str) else f"{snippet.corpus_id}/{snippet.document_id}"
    start, end = meta.get("start_line"), meta.get("end_line")
    chunk = (start, max(start, end)) if isinstance(start, int) and isinstance(end, int) and start >= 1 else None
    if root is not None and (root / path).is_file():
        # The quote's own lines, searched within the chunk's lines when they are known.
        span = _line_span(str(root / path), " ".join(text.split()), chunk)
        if span is not None:
            return path, *span
    if chunk is not None:
        return path, *chunk  # a stored chunk knows its lines
    return path, 1, 1


@functools.lru_cache(maxsize=256)
def _line_span(file: str, target: str, within: tuple[int, int] | None = None) -> tuple[int, int] | None:
    """Lines where ``target`` (white space collapsed) starts and ends in ``file`` (only lines
    ``within`` when given), or ``None`` when it is not found."""
    try:
        lines = Path(file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    joined: list[str] = []
    owner: list[int] = []  # the line of each character of the joined text
    for number, line in enumerate(lines, 1):
        if within is not None and not within[0] <= number <= within[1]:
            continue
        piece = " ".join(line.split())
        if piece:
            if joined:
                joined.append(" ")
                owner.append(number)
            joined.append(piece)
            owner.extend([number] * len(piece))
    text = "".join(joined)
    head, tail = target[:60], target[-60:]
    first = text.find(head) if head else -1
    last = text.find(tail, max(first, 0)) if tail else -1
    if first < 0 or last < 0:
        return None
    return owner[first], owner[last + len(tail) - 1]


def demo_tools() -> tuple[McpTool, ...]:
    """Return the store tools over the bundled sample corpus, in memory.

    ``search`` uses BM25; ``ask`` runs the agentic workflow (``mode=agentic``) or the parallel
    one over BM25 and hashed-n-gram vectors, fused by RRF (``mode=parallel``).

    Returns:
        The ``search``, ``ask`` and ``list_corpora`` tools.
    """
    from agentic_rag.agentic import AgenticRAGOrchestrator, InMemoryKeywordRetriever, OrchestratorConfig
    from agentic_rag.samples import sample_corpora, sample_documents, sample_folder

    documents, corpora, root = sample_documents(), sample_corpora(), sample_folder()
    keyword = InMemoryKeywordRetriever(documents)
    known = [c.id for c in corpora]

    def search(query: str, k: int, corpus: str | None) -> Sequence[dict[str, Any]]:
        if corpus is not None and corpus not in known:
            raise InvalidInputError(f"unknown corpus {corpus!r}; known corpora: {known}", stage="mcp")
        return [hit_payload(s, root) for s in keyword.retrieve(query, k, corpus_ids=None if corpus is None else [corpus])]

    def ask(question: str, mode: AskMode) -> dict[str, Any]:
        if mode is AskMode.PARALLEL:
            from agentic_rag.parallel import ExtractiveGenerator, ParallelRAGWorkflow, RAGRequest

            workflow = ParallelRAGWorkflow([keyword, _vector_retriever(documents)], generator=ExtractiveGenerator())
            return ask_payload(workflow.run(RAGRequest(question, top_k=3)), root)
        orchestrator = AgenticRAGOrchestrator(retriever=keyword, config=OrchestratorConfig(top_k=3))
        return ask_payload(orchestrator.run(question, corpora), root)

    return build_store_tools(search, ask, lambda: corpora)


def _vector_retriever(documents: Sequence[Any]) -> Any:
    from agentic_rag.retrieval.embedders import HashingEmbedder
    from agentic_rag.retrieval.index_retriever import IndexRetriever
    from agentic_rag.retrieval.vector import VectorIndex

    index = VectorIndex(HashingEmbedder())
    index.add(list(documents))
    return IndexRetriever(index, name="vector")
