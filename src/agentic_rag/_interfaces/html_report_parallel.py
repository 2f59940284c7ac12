"""The sections of an HTML run report for a parallel run: answer, query views, branches, the
fusion table and sources.

The fusion table has one row per fused document and one column per branch (query view x
retriever): the document's rank in that branch and what the branch added to its fused score,
so the final order can be checked by hand.
"""

from __future__ import annotations

from agentic_rag._answering.compose import CITATION_MARKER
from agentic_rag._interfaces.html_evidence import EvidenceIndex, esc, fmt_score
from agentic_rag._parallel.contracts import RAGResult
from agentic_rag._parallel.evidence import AnswerCitation

__all__ = ["parallel_sections"]



def parallel_sections(result: RAGResult) -> list[tuple[str, str, str]]:
    """Render a parallel run.

    Args:
        result: The run.

    Returns:
        ``(section id, title, html)`` triples in page order.
    """
    snippets = {doc.document_id: doc.snippet for doc in result.documents if doc.snippet is not None}
    evidence = EvidenceIndex(snippets.values())
    for citation in result.answer.citations:
        if citation.document_id in snippets:
            evidence.cite(snippets[citation.document_id].id, citation.quote, citation.start, citation.end)
    sources = [snippets[doc.document_id].id for doc in result.documents if doc.document_id in snippets]
    ranks = {snippets[doc.document_id].id: f' <span class="fused-rank">fused rank {doc.rank}</span>' for doc in result.documents if doc.document_id in snippets}
    return [
        ("answer", "Answer", _answer(result, evidence, snippets)),
        ("views", "Query views", _views(result)),
        ("branches", "Branches", _branches(result)),
        ("fusion", "Fusion", _fusion(result, evidence, snippets)),
        ("sources", "Sources", evidence.render_sources(sources, extra=ranks) or "<p>No passages were fused.</p>"),
        ("trace", "Trace", _trace(result)),
    ]


def _link(citation: AnswerCitation, evidence: EvidenceIndex, snippets: dict, text: str) -> str:
    snippet = snippets.get(citation.document_id)
    target = None if snippet is None else evidence.target(snippet.id, citation.quote, citation.start, citation.end)
    if target is None:
        return f'<span class="citation missing" title="document not among the fused documents">{esc(text)}</span>'
    if not target.verified:
        return f'<a class="citation unverified" href="{esc(target.href)}" title="quote not found in the source">{esc(text)}</a>'
    return f'<a class="citation" href="{esc(target.href)}">{esc(text)}</a>'


def _answer(result: RAGResult, evidence: EvidenceIndex, snippets: dict) -> str:
    answer = result.answer
    status = "refused" if answer.refused else ("answered" if answer.citations else "uncited")
    pending = list(answer.citations)
    pieces, cursor = [], 0
    # Each [n] marker links to the next not-yet-used citation with that number.
    for match in CITATION_MARKER.finditer(answer.text):
        citation = next((c for c in pending if c.number == int(match.group(1))), None)
        pieces.append(esc(answer.text[cursor:match.start()]))
        if citation is None:
            pieces.append(esc(match.group()))
        else:
            pending.remove(citation)
            pieces.append(_link(citation, evidence, snippets, match.group()))
        cursor = match.end()
    pieces.append(esc(answer.text[cursor:]))
    items = "".join(
        f'<li class="claim">[{c.number}] {_link(c, evidence, snippets, evidence.label(snippets[c.document_id].id) if c.document_id in snippets else c.document_id)}'
        f'<blockquote class="quote">{esc(c.quote)}</blockquote></li>'
        for c in answer.citations
    )
    degraded = ' · <span class="degraded">degraded: a branch failed, timed out or the rewriter fell back</span>' if result.degraded else ""
    return (
        f'<p class="status-line"><span class="status status-{status}" id="answer-status">{status}</span> '
        f"{len(result.documents)} fused documents · {len(result.outcomes)} branches{degraded}</p>"
        f'<p class="answer-text">{"".join(pieces) or "<em>(no answer text)</em>"}</p>'
        + (f'<h3>Citations</h3><ol class="claims">{items}</ol>' if items else "")
    )


def _views(result: RAGResult) -> str:
    rows = "".join(f"<tr><td>q{n}</td><td>{esc(v.kind.value)}</td><td>{esc(v.text)}</td></tr>" for n, v in enumerate(result.trace.views, 1))
    return f'<table class="views"><thead><tr><th>View</th><th>Kind</th><th>Text</th></tr></thead><tbody>{rows}</tbody></table>'


def _branches(result: RAGResult) -> str:
    rows = "".join(
        f'<tr class="branch status-{esc(o.status.value)}"><td><code>{esc(o.branch)}</code></td><td>{esc(o.retriever)}</td>'
        f"<td>{esc(o.view_kind.value)}: {esc(o.query)}</td><td>{esc(o.status.value)}</td><td>{o.hit_count}</td>"
        f"<td>{o.elapsed_s * 1000:.1f}</td><td>{esc((o.error_type + ': ' if o.error_type else '') + o.error_message)}</td></tr>"
        for o in result.outcomes
    )
    return (
        '<table class="branches"><thead><tr><th>Branch</th><th>Retriever</th><th>Query view</th><th>Status</th><th>Hits</th>'
        f"<th>ms</th><th>Error</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def _fusion(result: RAGResult, evidence: EvidenceIndex, snippets: dict) -> str:
    trace = result.trace
    columns = sorted({(c.branch_index, c.branch) for doc in result.documents for c in doc.contributions})
    seen = {name for _, name in columns}
    columns += [(len(columns) + n, o.branch) for n, o in enumerate(o for o in result.outcomes if o.ok and o.branch not in seen)]
    head = "".join(f'<th class="branch-col" scope="col">{esc(name)}</th>' for _, name in columns)
    rows = []
    for doc in result.documents:
        by_branch = {c.branch: c for c in doc.contributions}
        cells = []
        for _, name in columns:
            c = by_branch.get(name)
            if c is None:
                cells.append('<td class="contribution none">—</td>')
            else:
                raw = "" if c.raw_score is None else f' title="raw score {fmt_score(c.raw_score)}, weight {c.weight:g}"'
                cells.append(f'<td class="contribution"{raw}><span class="rank">#{c.rank}</span> <span class="value">+{c.value:.6f}</span></td>')
        name = esc(doc.document_id)
        if doc.document_id in snippets:
            name = f'<a href="#{evidence.source_id(snippets[doc.document_id].id)}">{name}</a>'
        rows.append(
            f'<tr class="fused-document" data-document-id="{esc(doc.document_id)}"><td>{doc.rank}</td><th scope="row">{name}</th>'
            f"<td>{esc(doc.corpus_id)}</td><td>{doc.score:.6f}</td><td>{doc.normalized_score:.3f}</td>{''.join(cells)}</tr>"
        )
    window = "all ranks" if trace.rank_window is None else f"ranks 1-{trace.rank_window}"
    return (
        f'<p class="fusion-method">Method <code>{esc(trace.fusion)}</code>, k = {trace.rank_constant}, window: {esc(window)}. '
        "Each cell: the document's rank in that branch and what the branch added to its fused score.</p>"
        '<table class="fusion" id="fusion-table"><thead><tr><th>Rank</th><th>Document</th><th>Corpus</th><th>Fused score</th>'
        f'<th>Normalized</th>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
    )


def _trace(result: RAGResult) -> str:
    trace = result.trace
    timings = (("rewrite", trace.rewrite_s), ("retrieve", trace.retrieve_s), ("fuse", trace.fuse_s), ("generate", trace.generate_s), ("total", trace.elapsed_s))
    items = "".join(f"<dt>{esc(k)} ms</dt><dd>{v * 1000:.1f}</dd>" for k, v in timings)
    components = "".join(f"<li>{esc(slot)}: <code>{esc(name)}</code></li>" for slot, name in trace.components)
    notes = "".join(f"<li>{esc(note)}</li>" for note in trace.notes)
    return (
        f'<dl class="usage">{items}</dl>'
        + (f'<h3>Components</h3><ul class="components">{components}</ul>' if components else "")
        + (f'<h3>Notes</h3><ul class="notes">{notes}</ul>' if notes else "")
    )
