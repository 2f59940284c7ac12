"""The JSON shape of ``ask`` results, shared by the CLI and the MCP tools (``search`` hits are
built by :func:`~agentic_rag._interfaces.evidence_payload.store_hits_payload`, the one builder).

File path and 1-based line range of each hit and citation (see
:mod:`~agentic_rag._interfaces.locations`), the quote verbatim. Every ``ask`` payload carries
the ranked ``evidence`` and every hit its focus lines and relevance (see
:mod:`~agentic_rag._interfaces.evidence_payload`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from agentic_rag._answering import marked_segments
from agentic_rag._contracts import RunResult, Snippet
from agentic_rag._errors import InvalidInputError
from agentic_rag._interfaces.evidence_payload import DEFAULT_EVIDENCE, evidence_payload
from agentic_rag._interfaces.locations import citation_location
from agentic_rag._parallel.contracts import RAGResult
from agentic_rag._parallel.evidence import take_citations
from agentic_rag._text.relevance import RelevanceModel

__all__ = ["ask_payload"]


def ask_payload(result: RunResult | RAGResult, root: Path | None = None, *, evidence: int = DEFAULT_EVIDENCE,
                model: RelevanceModel | None = None, full_text: bool = False) -> dict[str, Any]:
    """Return a run as the ``ask`` answer: status, answer, cited claims, missing facts and the
    evidence behind the verdict.

    Args:
        result: An agentic :class:`RunResult` or a parallel :class:`RAGResult`.
        root: Folder the snippet paths are relative to, for finding line numbers.
        evidence: At most this many passages in ``evidence`` (>= 0).
        model: The collection's relevance model (default: every term weighs the same).
        full_text: Give each evidence passage's whole text too (default: its focus lines).

    Returns:
        ``{status, answer, claims: [{text, citations: [{path, start_line, end_line, quote}]}],
        missing_facts, iterations, stop_reason, evidence}`` and, when the check doubted or dropped
        a claim, ``reviewed_claims`` (``{claim, outcome, reason, verifier?, verifier_reason?}``
        each): a citation's ``quote`` is ``""``
        when it is the claim's text (white space aside); ``evidence`` as
        :func:`~agentic_rag._interfaces.evidence_payload.evidence_payload` gives it, whatever
        the status, without the focus lines a claim quotes. A parallel run is one pass: ``iterations`` is 1, ``stop_reason``
        ``single_pass`` (``refused`` when the generator declined).

    Raises:
        InvalidInputError: ``result`` is neither kind of result, or ``evidence`` is not an
            int >= 0.
    """
    payload = _answer_payload(result, root)
    reviews = result.answer.reviews
    if reviews:
        # Every claim the check dropped, and every doubted claim kept on a verifier's word.
        payload["reviewed_claims"] = [
            {"claim": r.claim, "outcome": r.outcome.value, "reason": r.reason, **({"verifier": r.verdict.value} if r.verdict is not None else {}),
             **({"verifier_reason": r.verifier_reason} if r.verifier_reason else {})}
            for r in reviews
        ]
    payload["evidence"] = _unquoted_focus(evidence_payload(result, root, limit=evidence, model=model, full_text=full_text), payload["claims"])
    return payload


# A focus piece after its source lines ("147: SESSION_COOKIE_NAME", "150-152: The name of ...").
_NUMBERED = re.compile(r"^(\d+)(?:-(\d+))?: (.*)$", re.DOTALL)


def _unquoted_focus(evidence: list[dict[str, Any]], claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``evidence`` whose ``focus_text`` leaves out the lines a claim already quotes (a line
    of the cited file, page or cell, within the citation's lines, whose words the claim
    holds): an agent reads them once, in the claims."""
    cited = [(c["path"], c.get("page"), c.get("cell"), c["start_line"], c["end_line"], " ".join(f"{claim['text']} {c.get('quote', '')}".split()))
             for claim in claims for c in claim["citations"]]
    for item in evidence:
        spans = [(start, end, said) for path, page, cell, start, end, said in cited
                 if path == item["path"] and page == item.get("page") and cell == item.get("cell")]
        if not spans or not item.get("focus_text"):
            continue
        kept = []
        for line in item["focus_text"].split("\n"):
            numbered = _NUMBERED.match(line)
            words = " ".join(numbered.group(3).split()) if numbered else ""
            if numbered and words and any(start <= int(numbered.group(1)) and int(numbered.group(2) or numbered.group(1)) <= end and words in said
                                          for start, end, said in spans):
                continue
            kept.append(line)
        item["focus_text"] = "\n".join(kept)
    return evidence


def _answer_payload(result: RunResult | RAGResult, root: Path | None) -> dict[str, Any]:
    if isinstance(result, RunResult):
        snippets = {s.id: s for s in result.snippets}
        claims = [
            {"text": claim.text, "citations": [_citation(snippets[c.snippet_id], c.quote, root, claim.text) for c in claim.citations if c.snippet_id in snippets]}
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
    answer = result.answer
    snippets = {doc.document_id: doc.snippet for doc in result.documents if doc.snippet is not None}
    pending = list(answer.citations)
    claims = []
    # Each claim is the text up to its run of [n] markers (and the punctuation closing it),
    # taking those markers' citations: a cited unit may hold several sentences.
    for text, numbers in marked_segments(answer.text):
        cited = take_citations(pending, numbers)
        if cited and any(ch.isalnum() for ch in text):
            claims.append({"text": text, "citations": [_citation(snippets[c.document_id], c.quote, root, text) for c in cited if c.document_id in snippets]})
    for leftover in pending:
        if leftover.document_id in snippets:
            text = " ".join(leftover.quote.split())
            claims.append({"text": text, "citations": [_citation(snippets[leftover.document_id], leftover.quote, root, text)]})
    status = "unanswerable" if answer.refused or not claims else result.status.value
    return {
        "status": status,
        "answer": answer.text,
        "claims": claims,
        "missing_facts": list(result.missing),
        "iterations": 1,
        "stop_reason": "refused" if answer.refused else "unearned" if any(n.startswith("earned:") for n in result.trace.notes) else "single_pass",
    }


def _citation(snippet: Snippet, quote: str, root: Path | None, claim_text: str) -> dict[str, Any]:
    """A citation as JSON: where the quote stands (with page or cell for a PDF or notebook)
    and the quote, ``""`` when it is the claim's own text (white space aside): an agent pays
    for every byte, and the claim already says it."""
    shown = "" if " ".join(quote.split()) == " ".join(claim_text.split()) else quote
    return {**citation_location(snippet, quote, root), "quote": shown}
