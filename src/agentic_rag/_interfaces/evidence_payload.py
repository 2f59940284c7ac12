"""The passages behind a verdict and the focus of a search hit, as JSON for agents.

Every ``ask`` payload carries ``evidence``: the ranked passages the run considered, best first,
whatever its status, so an agent can read them and decide for itself. Every passage and every
``search`` hit says how much of the query it covers (``relevance``, in [0, 1]) and which of its
lines answer best (``focus_start_line`` / ``focus_end_line``, inside the chunk's lines).

Relevance is :func:`~agentic_rag._answering.answer_likelihood.answer_likelihood`: the estimated
chance that the lines shown of a passage answer the query, from features of that passage alone
(the IDF-weighted share of the query's terms in the chunk and in its focus lines with the
heading path; whether a focus line states the value the query asks for; whether a name the
query states is missing; how long the query is; whether a query word no document uses is
missing; whether a focus statement states the asked value of what the query asks about, or a
value of another setting, subject or bound), so it is comparable across queries of one store.
Below :data:`WEAK_RELEVANCE` a hit is a weak match (the line is made below the interfaces,
where the search that never prints a weak best hit alone reads it; here it is only printed).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentic_rag._contracts import Snippet
from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import InvalidInputError
from agentic_rag._answering.answer_likelihood import WEAK_RELEVANCE, answer_likelihood
from agentic_rag._interfaces.ask_mode import DEFAULT_EVIDENCE
from agentic_rag._interfaces.locations import citation_location, line_marks, line_span
from agentic_rag._text.focus import snippet_title, view_passage
from agentic_rag._text.instructions import is_instruction_like, screened_heading
from agentic_rag._text.lines import split_lines
from agentic_rag._text.relevance import RelevanceModel

if TYPE_CHECKING:
    # Imported where a result is read (_result_types): a search, which every CLI call may be,
    # reads no run's result.
    from agentic_rag._contracts.results import RunResult
    from agentic_rag._parallel.contracts import RAGResult

__all__ = [
    "DEFAULT_EVIDENCE",
    "WEAK_RELEVANCE",
    "evidence_payload",
    "evidence_snippets",
    "focus_fields",
    "require_evidence_count",
    "snippet_title",
    "store_hits_payload",
]



SEARCH_FOCUS_LINES = 3
"""Most focus lines of a search hit."""
EVIDENCE_FOCUS_LINES = 2
"""Most focus lines of an ``ask`` evidence passage: its claims already quote the best units, so
the evidence only has to show where else to look (measured: keeps ``ask --json`` near 2.5 KB)."""


def require_evidence_count(value: object) -> int:
    """Return ``value`` if it is an int >= 0 (how many evidence passages to return).

    Raises:
        InvalidInputError: Not an int, or negative.
    """
    return require_int(value, "evidence", minimum=0, stage="ask")


def focus_fields(query: str, model: RelevanceModel, *, path: str, lines: tuple[int, int] | None, title: str, text: str,
                 root: Path | None = None, marks: Sequence[tuple[int, int]] = (), context: int = 0,
                 max_lines: int = SEARCH_FOCUS_LINES) -> dict[str, Any]:
    """``{focus_start_line, focus_end_line, focus_text, relevance}`` of one passage for ``query``.

    The focus is made below the interfaces (:func:`~agentic_rag._text.focus.view_passage`):
    the few lines of the passage that answer best, placed on their source lines through the
    chunk's line map. Only a store written before chunks kept their line map has the file read
    to place them.

    Args:
        query: The query or question.
        model: The store's relevance model (:meth:`KnowledgeStore.relevance_model`).
        path: The passage's file, relative to ``root``.
        lines: The chunk's ``(start_line, end_line)`` when known.
        title: Its section heading path (``""`` for none).
        text: The chunk's text.
        root: Folder ``path`` is relative to (for a store without line maps).
        marks: The chunk's line map.
        context: Lines of context around the focus lines.
        max_lines: Most focus lines.

    Returns:
        The focus lines (the chunk's own lines when they cannot be placed), the focus text
        (each line after its source line number when known, long lines trimmed) and the
        relevance rounded to 4 places; ``instruction_like: true`` when the text or its heading
        path holds a sentence addressed to a model (absent otherwise).
    """
    view = view_passage(query, text, model, title=title, marks=marks, context=context, max_lines=max_lines, rate=answer_likelihood)
    start, end = lines or (1, 1)
    if view.span is not None:
        start, end = view.span
    elif view.focus is not None and root is not None and lines is not None and (root / path).is_file():
        first, last = view.focus.lines[0], view.focus.lines[-1]
        span = _unit_lines(str(root / path), f"{text[first.start:first.end]}\n{text[last.start:last.end]}", lines)
        if span is not None:
            start, end = span
    fields: dict[str, Any] = {"focus_start_line": start, "focus_end_line": end, "focus_text": view.numbered_text, "relevance": view.relevance}
    if is_instruction_like(text) or screened_heading(title)[1]:  # words addressed to a model: the agent reading them is warned
        fields["instruction_like"] = True
    return fields


def _unit_lines(file: str, unit: str, within: tuple[int, int] | None) -> tuple[int, int] | None:
    """The file lines of a unit: the whole unit, else its first and last lines (loaders strip
    markup, so a long unit may not be found verbatim while its ends are)."""
    span = line_span(file, " ".join(unit.split()), within)
    if span is not None:
        return span
    pieces = [" ".join(line.split()) for line in split_lines(unit) if line.strip()]
    if len(pieces) < 2:
        return None
    first, last = line_span(file, pieces[0], within), line_span(file, pieces[-1], within)
    if first is None or last is None or last[1] < first[0]:
        return None
    return first[0], last[1]


def _result_types() -> tuple[type[RunResult], type[RAGResult]]:
    from agentic_rag._contracts.results import RunResult
    from agentic_rag._parallel.contracts import RAGResult

    return RunResult, RAGResult


def evidence_snippets(result: RunResult | RAGResult) -> list[Snippet]:
    """The passages a run considered, best first: an agentic run's final evidence ranking, or
    a parallel run's fused documents that carry a passage.

    Raises:
        InvalidInputError: ``result`` is neither kind of result.
    """
    RunResult, RAGResult = _result_types()
    if isinstance(result, RunResult):
        return list(result.snippets)
    if isinstance(result, RAGResult):
        return [doc.snippet for doc in result.documents if doc.snippet is not None]
    raise InvalidInputError(f"result must be a RunResult or a RAGResult, got {type(result).__name__}", stage="ask")


def evidence_payload(result: RunResult | RAGResult, root: Path | None = None, *, limit: int = DEFAULT_EVIDENCE,
                     model: RelevanceModel | None = None, full_text: bool = False) -> list[dict[str, Any]]:
    """The ``evidence`` list of an ``ask`` payload.

    Args:
        result: An agentic :class:`RunResult` or a parallel :class:`RAGResult`.
        root: Folder the snippet paths are relative to, for finding line numbers.
        limit: At most this many passages (>= 0).
        model: The store's relevance model (default: every term weighs the same).
        full_text: Also give each passage's whole ``text`` (an agent usually needs only its
            focus lines).

    Returns:
        Best first, each ``{path, start_line, end_line, section, score, corpus, fact_ids,
        focus_start_line, focus_end_line, focus_text, relevance}`` (and ``text`` when
        ``full_text``), and ``page`` or ``cell`` for a
        passage of a PDF page or a notebook cell (absent otherwise; ``page_label`` beside
        ``page`` when the page prints its number). ``fact_ids`` are the plan's facts the
        passage supports (a claim cites it, or the last judge's verdict found it best for the
        fact), in plan order; a parallel run has no plan, so they are ``[]``. ``score`` is the
        retrieval score (the fused score for a parallel run), rounded to 4 places.

    Raises:
        InvalidInputError: ``limit`` is not an int >= 0, or ``result`` is neither kind.
    """
    limit = require_evidence_count(limit)
    model = model or RelevanceModel()
    RunResult, RAGResult = _result_types()
    if isinstance(result, RunResult):
        question, facts, scores = result.question, _fact_ids(result), {}
    elif isinstance(result, RAGResult):
        question, facts = result.query, {}
        scores = {doc.snippet.id: doc.score for doc in result.documents if doc.snippet is not None}
    else:
        raise InvalidInputError(f"result must be a RunResult or a RAGResult, got {type(result).__name__}", stage="ask")
    items = []
    for snippet in evidence_snippets(result)[:limit]:
        item = citation_location(snippet, snippet.text, root)
        path, start, end = item["path"], item["start_line"], item["end_line"]
        known = isinstance(snippet.metadata.get("start_line"), int)
        title = snippet_title(snippet)
        item.update({
            "section": screened_heading(title)[0],  # a heading addressed to a model is not shown
            "score": round(scores.get(snippet.id, snippet.score), 4),
            "corpus": snippet.corpus_id,
            "fact_ids": facts.get(snippet.id, []),
        })
        if full_text:
            item["text"] = snippet.text
        item.update(focus_fields(question, model, path=path, lines=(start, end) if known else None, title=title,
                                 text=snippet.text, root=root, marks=line_marks(snippet.metadata), max_lines=EVIDENCE_FOCUS_LINES))
        items.append(item)
    return items


def _fact_ids(result: RunResult) -> dict[str, list[str]]:
    """Snippet id -> the facts it supports, in plan order (unplanned ids after, sorted)."""
    found: dict[str, set[str]] = {}
    for claim in result.answer.claims:
        if claim.fact_id:
            for citation in claim.citations:
                found.setdefault(citation.snippet_id, set()).add(claim.fact_id)
    if result.iterations:
        for support in result.iterations[-1].assessment.support:
            for snippet_id in support.snippet_ids:
                found.setdefault(snippet_id, set()).add(support.fact_id)
    order = {fact.id: n for n, fact in enumerate(result.plan.facts)}
    return {sid: sorted(ids, key=lambda f: (order.get(f, len(order)), f)) for sid, ids in found.items()}


def store_hits_payload(query: str, hits: Sequence[Any], model: RelevanceModel, root: Path | None = None, *, context: int = 0) -> list[dict[str, Any]]:
    """Store hits as ``search --json`` objects.

    Args:
        query: The query the hits were found for.
        hits: :class:`~agentic_rag._store.StoreHit` objects, best first.
        model: The store's relevance model (:meth:`KnowledgeStore.relevance_model`).
        root: The store's base folder (for a store without line maps).
        context: Lines of context around each hit's focus lines.

    Returns:
        ``{path, start_line, end_line, section, score, text, corpus, focus_start_line,
        focus_end_line, focus_text, relevance}`` per hit, in the given order, and ``page`` or
        ``cell`` for a hit on a PDF page or in a notebook cell (absent otherwise), with
        ``page_label`` for a page that prints its number (or has a label). ``score``
        is rounded to 4 places. A hit that later hits repeating its statements were folded
        into has ``also_at``: their ``{path, start_line, end_line}`` (focus lines, with
        ``page``, ``cell``, ``page_label`` as above), in rank order.
    """
    out = []
    for h in hits:
        hit = {"path": h.path, "start_line": h.start_line, "end_line": h.end_line, "section": screened_heading(h.section)[0], "score": round(h.score, 4),
               "text": h.text, "corpus": h.corpus_id}
        for key in ("page", "cell"):
            if getattr(h, key, None) is not None:
                hit[key] = getattr(h, key)
        if "page" in hit and getattr(h, "page_label", ""):
            hit["page_label"] = h.page_label
        if getattr(h, "relevance", None) is not None:  # the store's search made the focus
            hit.update({"focus_start_line": h.focus_start_line, "focus_end_line": h.focus_end_line, "focus_text": h.focus_text,
                        "relevance": h.relevance})
            if h.instruction_like:
                hit["instruction_like"] = True
            if getattr(h, "also_at", ()):
                hit["also_at"] = [_place_payload(place) for place in h.also_at]
        else:
            hit.update(focus_fields(query, model, path=h.path, lines=(h.start_line, h.end_line), title=h.section, text=h.text, root=root,
                                    marks=getattr(h, "line_marks", ()), context=context))
        out.append(hit)
    return out


def _place_payload(place: Any) -> dict[str, Any]:
    """One ``also_at`` entry: where a folded hit's focus lines stand, with its page or cell."""
    out: dict[str, Any] = {"path": place.path, "start_line": place.start_line, "end_line": place.end_line}
    for key in ("page", "cell"):
        if getattr(place, key) is not None:
            out[key] = getattr(place, key)
    if place.page is not None and place.page_label:
        out["page_label"] = place.page_label
    return out
