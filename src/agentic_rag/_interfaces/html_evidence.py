"""The evidence part of an HTML run report: source snippets with each cited span in a
``<mark>``, and the page ids citation links point at.

Citations are registered first (:meth:`EvidenceIndex.cite`), then the page is rendered, so a
span cited twice gets one mark and overlapping spans are merged into one mark that holds
every quote. A citation whose quote is not at its offsets is looked up in the snippet text;
when it is not there at all the citation links to the whole snippet and is flagged.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from dataclasses import dataclass

from agentic_rag._contracts import Snippet
from agentic_rag._interfaces.locations import location_label
from agentic_rag._interfaces.text_report import snippet_location

__all__ = ["CitationTarget", "EvidenceIndex", "esc", "fmt_score", "render_evidence"]


def esc(value: object) -> str:
    """Escape any value for HTML text or a quoted attribute."""
    return html.escape(str(value), quote=True)


def fmt_score(value: float, digits: int = 4) -> str:
    """Format a score the same way everywhere (fixed digits, so output is stable)."""
    return f"{value:.{digits}f}"


@dataclass(frozen=True, slots=True)
class CitationTarget:
    """Where a citation link goes.

    Args:
        href: ``#id`` of the mark (or of the snippet when the quote was not found).
        verified: True when the quote stands in the snippet text.
        label: The snippet's location (``path:lines``, ``path:p12:lines`` on a PDF page,
            ``path:c7:lines`` in a notebook cell, or its id).
    """

    href: str
    verified: bool
    label: str


class EvidenceIndex:
    """Gives each source snippet a page id and each cited span a mark id.

    Args:
        snippets: The source snippets, in page order (duplicates by id keep the first).
        prefix: Id prefix for the sources (``src`` gives ``src-1``, ``src-1-m1``...).
    """

    def __init__(self, snippets: Iterable[Snippet], prefix: str = "src") -> None:
        self._snippets: dict[str, Snippet] = {}
        for snippet in snippets:
            self._snippets.setdefault(snippet.id, snippet)
        self._numbers = {sid: n for n, sid in enumerate(self._snippets, 1)}
        self._spans: dict[str, set[tuple[int, int]]] = {}
        self._prefix = prefix

    def __contains__(self, snippet_id: object) -> bool:
        return snippet_id in self._snippets

    def snippet(self, snippet_id: str) -> Snippet:
        """Return the snippet with ``snippet_id`` (it must be known)."""
        return self._snippets[snippet_id]

    def source_id(self, snippet_id: str) -> str:
        """The page id of a snippet's article (``src-3``)."""
        return f"{self._prefix}-{self._numbers[snippet_id]}"

    def label(self, snippet_id: str) -> str:
        """The snippet's location, ``path:start-end`` when its lines are known."""
        return snippet_location(self._snippets[snippet_id])

    def cite(self, snippet_id: str, quote: str, start: int, end: int) -> None:
        """Register a cited span (call for every citation before rendering).

        Args:
            snippet_id: The cited snippet (unknown ids are ignored).
            quote: The quoted text.
            start: Its claimed offset in the snippet text.
            end: Its claimed end offset.
        """
        span = self._resolve(snippet_id, quote, start, end)
        if span is not None:
            self._spans.setdefault(snippet_id, set()).add(span)

    def target(self, snippet_id: str, quote: str, start: int, end: int) -> CitationTarget | None:
        """Where a registered citation links to (``None``: the snippet is not in the report)."""
        if snippet_id not in self._snippets:
            return None
        span = self._resolve(snippet_id, quote, start, end)
        if span is None:
            return CitationTarget(f"#{self.source_id(snippet_id)}", False, self.label(snippet_id))
        for number, (low, high) in enumerate(self._groups(snippet_id), 1):
            if low <= span[0] and span[1] <= high:
                return CitationTarget(f"#{self.source_id(snippet_id)}-m{number}", True, self.label(snippet_id))
        return CitationTarget(f"#{self.source_id(snippet_id)}", False, self.label(snippet_id))  # not registered first

    def highlighted_text(self, snippet_id: str) -> str:
        """The snippet text, escaped, with each merged cited span in a ``<mark id=...>``."""
        text = self._snippets[snippet_id].text
        parts, cursor = [], 0
        for number, (low, high) in enumerate(self._groups(snippet_id), 1):
            parts.append(esc(text[cursor:low]))
            parts.append(f'<mark id="{self.source_id(snippet_id)}-m{number}" class="cited">{esc(text[low:high])}</mark>')
            cursor = high
        parts.append(esc(text[cursor:]))
        return "".join(parts)

    def render_sources(self, ids: Sequence[str] | None = None, *, extra: dict[str, str] | None = None) -> str:
        """Render the source articles.

        Args:
            ids: Which snippets, in order (default: all, in page order).
            extra: HTML to add to a snippet's header, by snippet id (already escaped).

        Returns:
            One ``<article class="source">`` per snippet.
        """
        out = []
        for sid in ids if ids is not None else list(self._snippets):
            snippet = self._snippets[sid]
            lineage = ", ".join(f"{q} ({f})" if f else q for q, f in snippet.lineage)
            title = f'<span class="title">{esc(snippet.title)}</span> ' if snippet.title else ""
            out.append(
                f'<article class="source" id="{self.source_id(sid)}" data-snippet-id="{esc(sid)}">'
                f'<header>{title}<span class="loc">{esc(self.label(sid))}</span> <span class="corpus">{esc(snippet.corpus_id)}</span> '
                f'<span class="score">score {fmt_score(snippet.score)}</span>'
                + (f' <span class="lineage">found by {esc(lineage)}</span>' if lineage else "")
                + (extra or {}).get(sid, "")
                + f'</header><p class="snippet-text">{self.highlighted_text(sid)}</p></article>'
            )
        return "\n".join(out)

    def _resolve(self, snippet_id: str, quote: str, start: int, end: int) -> tuple[int, int] | None:
        snippet = self._snippets.get(snippet_id)
        if snippet is None or not quote:
            return None
        if snippet.text[start:end] == quote:
            return (start, end)
        found = snippet.text.find(quote)
        return None if found < 0 else (found, found + len(quote))

    def _groups(self, snippet_id: str) -> list[tuple[int, int]]:
        """The registered spans of a snippet, overlapping ones merged, in text order."""
        merged: list[list[int]] = []
        for low, high in sorted(self._spans.get(snippet_id, ())):
            if merged and low < merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], high)
            else:
                merged.append([low, high])
        return [(low, high) for low, high in merged]


def render_evidence(items: Sequence[Mapping[str, Any]], source_ids: Sequence[str | None]) -> str:
    """Render the ``evidence`` of an ``ask`` payload as a table, best first.

    Args:
        items: The payload's evidence passages.
        source_ids: Per passage, the page id of its source article (``None``: not on the page).

    Returns:
        A ``<table class="evidence-table">``, or a paragraph when there is no evidence.
    """
    if not items:
        return "<p>No passages were considered.</p>"
    rows = []
    for rank, (item, source) in enumerate(zip(items, source_ids), 1):
        where = location_label(item)
        loc = f'<a class="evidence-link" href="#{esc(source)}">{esc(where)}</a>' if source else esc(where)
        rows.append(
            f'<tr class="evidence-item"><td>{rank}</td><td>{loc}</td>'
            f"<td>{esc(item['focus_start_line'])}-{esc(item['focus_end_line'])}</td>"
            f'<td class="relevance">{fmt_score(item["relevance"], 2)}</td><td>{fmt_score(item["score"])}</td>'
            f"<td>{esc(', '.join(item['fact_ids'])) or '—'}</td></tr>"
        )
    return (
        '<p>The passages the verdict was reached on, best first. Relevance is the IDF-weighted share of the question '
        "the passage holds; the best lines are the unit that matches it best.</p>"
        '<table class="evidence-table"><thead><tr><th>#</th><th>Passage</th><th>Best lines</th><th>Relevance</th>'
        "<th>Score</th><th>Supports</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
    )
