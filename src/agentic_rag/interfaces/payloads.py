"""The JSON shapes of ``ask`` and ``search`` results, shared by the CLI and the MCP tools.

File path and 1-based line range of each hit and citation, the quote verbatim. Snippets that
carry ``start_line`` / ``end_line`` in their metadata (as stored chunks do) are located within
those lines; otherwise the lines are found by locating the text in the source file under
``root``.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from agentic_rag.contracts import RunResult, Snippet
from agentic_rag.errors import InvalidInputError
from agentic_rag.parallel.contracts import RAGResult

__all__ = ["ask_payload", "hit_payload"]

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
