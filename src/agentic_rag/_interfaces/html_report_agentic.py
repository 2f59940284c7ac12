"""The sections of an HTML run report for an agentic run: answer, plan, iterations, sources.

Each iteration shows its subqueries with their lineage (plan route or judge feedback, and the
subquery they follow up), the snippets first found, the draft and the judge's verdict with the
missing facts and the feedback queries it asked for.
"""

from __future__ import annotations

from agentic_rag._contracts import Citation, IterationTrace, RunResult
from agentic_rag._interfaces.html_evidence import EvidenceIndex, esc, fmt_score

__all__ = ["agentic_sections"]


def agentic_sections(result: RunResult) -> list[tuple[str, str, str]]:
    """Render an agentic run.

    Args:
        result: The run.

    Returns:
        ``(section id, title, html)`` triples in page order.
    """
    evidence = EvidenceIndex(result.snippets)
    citations = [c for claim in result.answer.claims for c in claim.citations]
    for citation in citations:
        evidence.cite(citation.snippet_id, citation.quote, citation.start, citation.end)
    subquery_ids = {sq.id: f"sq-{n}" for n, sq in enumerate((sq for t in result.iterations for sq in t.subqueries), 1)}
    return [
        ("answer", "Answer", _answer(result, evidence)),
        ("plan", "Plan", _plan(result)),
        ("iterations", "Iterations", "\n".join(_iteration(t, evidence, subquery_ids) for t in result.iterations) or "<p>No iterations ran.</p>"),
        ("sources", "Sources", evidence.render_sources() or "<p>No snippets were retrieved.</p>"),
        ("usage", "Usage", _usage(result)),
    ]


def _citation_link(citation: Citation, evidence: EvidenceIndex) -> str:
    target = evidence.target(citation.snippet_id, citation.quote, citation.start, citation.end)
    if target is None:
        return f'<span class="citation missing" title="snippet not in this run">{esc(citation.snippet_id)}</span>'
    if not target.verified:
        return f'<a class="citation unverified" href="{esc(target.href)}" title="quote not found in the source">{esc(target.label)}</a>'
    return f'<a class="citation" href="{esc(target.href)}">{esc(target.label)}</a>'


def _answer(result: RunResult, evidence: EvidenceIndex) -> str:
    answer = result.answer
    parts = [
        f'<p class="status-line"><span class="status status-{esc(answer.status.value)}" id="answer-status">{esc(answer.status.value)}</span> '
        f'stop: <span class="stop-reason">{esc(result.stop_reason.value)}</span> · iterations: {len(result.iterations)} · '
        f"sufficiency {fmt_score(answer.final_score, 2)}</p>",
        f'<p class="answer-text">{esc(answer.text) or "<em>(no answer text)</em>"}</p>',
    ]
    if answer.claims:
        items = []
        for n, claim in enumerate(answer.claims, 1):
            links = " ".join(_citation_link(c, evidence) for c in claim.citations) or '<span class="unsupported">no citation</span>'
            quotes = "".join(f'<blockquote class="quote">{esc(c.quote)}</blockquote>' for c in claim.citations)
            fact = f' <span class="fact-ref">fact {esc(claim.fact_id)}</span>' if claim.fact_id else ""
            items.append(f'<li class="claim" id="claim-{n}"><span class="claim-text">{esc(claim.text)}</span>{fact} <span class="citations">{links}</span>{quotes}</li>')
        parts.append('<h3>Claims</h3><ol class="claims">' + "".join(items) + "</ol>")
    if answer.missing_facts:
        missing = "".join(f'<li><code>{esc(f.id)}</code> [{esc(f.priority.value)}] {esc(f.description)}</li>' for f in answer.missing_facts)
        parts.append(f'<h3>Missing facts</h3><ul class="missing-facts">{missing}</ul>')
    if answer.conflicts:
        rows = []
        for conflict in answer.conflicts:
            sides = "; ".join(
                f"{esc(g.value)}: " + ", ".join(f'<a href="#{evidence.source_id(s)}">{esc(evidence.label(s))}</a>' if s in evidence else esc(s) for s in g.snippet_ids)
                for g in conflict.groups
            )
            rows.append(f"<li><code>{esc(conflict.fact_id)}</code>: {sides}</li>")
        parts.append(f'<h3>Conflicts</h3><ul class="conflicts">{"".join(rows)}</ul>')
    return "\n".join(parts)


def _plan(result: RunResult) -> str:
    plan = result.plan
    rows = []
    for fact in plan.facts:
        route = next((r for r in plan.routes if r.fact_id == fact.id), None)
        rows.append(
            f'<tr class="fact" id="fact-{esc(fact.id)}"><td><code>{esc(fact.id)}</code></td><td>{esc(fact.priority.value)}</td>'
            f"<td>{esc(fact.description)}</td><td>{esc(', '.join(fact.depends_on)) or '—'}</td>"
            f"<td>{esc(', '.join(fact.required_terms)) or '—'}</td>"
            f"<td>{esc(', '.join(route.corpus_ids)) if route else '—'}</td><td>{esc(route.reason) if route else ''}</td></tr>"
        )
    table = (
        '<table class="plan-table"><thead><tr><th>Fact</th><th>Priority</th><th>Description</th><th>After</th>'
        "<th>Required terms</th><th>Route</th><th>Why</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
    )
    corpora = "".join(f"<li><code>{esc(c.id)}</code> {esc(c.description)}</li>" for c in plan.corpora)
    stop = plan.stop_conditions
    return (
        table
        + (f'<h3>Corpora</h3><ul class="corpora">{corpora}</ul>' if corpora else "")
        + f'<p class="stop-conditions">Stop when every MUST fact is covered and sufficiency ≥ {fmt_score(stop.min_sufficiency, 2)}'
        + ("; stop on a conflict" if stop.stop_on_conflict else "")
        + ".</p>"
    )


def _iteration(trace: IterationTrace, evidence: EvidenceIndex, subquery_ids: dict[str, str]) -> str:
    rows = []
    for sq in trace.subqueries:
        parent = "—"
        if sq.parent_id:
            parent = f'<a href="#{subquery_ids[sq.parent_id]}">{esc(sq.parent_id)}</a>' if sq.parent_id in subquery_ids else esc(sq.parent_id)
        rows.append(
            f'<tr class="subquery" id="{subquery_ids[sq.id]}"><td><code>{esc(sq.id)}</code></td><td>{esc(sq.origin.value)}</td>'
            f"<td><code>{esc(sq.fact_id)}</code></td><td>{esc(sq.text)}</td><td>{esc(', '.join(sq.corpus_ids))}</td>"
            f"<td>{parent}</td><td>{esc(sq.reason)}</td></tr>"
        )
    subqueries = (
        '<table class="subqueries"><thead><tr><th>Subquery</th><th>Origin</th><th>Fact</th><th>Text</th><th>Corpora</th>'
        "<th>Follows</th><th>Why</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
    )
    found = []
    for snippet in trace.new_snippets:
        link = f'<a href="#{evidence.source_id(snippet.id)}">{esc(evidence.label(snippet.id))}</a>' if snippet.id in evidence else esc(snippet.id)
        by = ", ".join(q for q, _ in snippet.lineage)
        found.append(
            f'<li class="retrieved-snippet">{link} <span class="score">score {fmt_score(snippet.score)}</span>'
            + (f' <span class="lineage">via {esc(by)}</span>' if by else "")
            + f'<details><summary>text</summary><p class="snippet-text">{esc(snippet.text)}</p></details></li>'
        )
    snippets = f'<ul class="retrieved">{"".join(found)}</ul>' if found else "<p>No new snippets.</p>"
    a = trace.assessment
    feedback = "".join(
        f'<li class="feedback-query"><code>{esc(fb.fact_id)}</code>: “{esc(fb.text)}”'
        + (f" — {esc(fb.reason)}" if fb.reason else "")
        + (f' (follows <a href="#{subquery_ids[fb.parent_id]}">{esc(fb.parent_id)}</a>)' if fb.parent_id in subquery_ids else "")
        + "</li>"
        for fb in a.feedback_queries
    )
    verdict = (
        f'<div class="verdict label-{esc(a.label.value)}"><p><strong>Judge:</strong> <span class="verdict-label">{esc(a.label.value)}</span> '
        f'({esc(a.status.value)}), score <span class="verdict-score">{fmt_score(a.sufficiency_score, 2)}</span></p>'
        f'<p class="rationale">{esc(a.rationale)}</p>'
        f"<p>Covered: {esc(', '.join(a.covered_fact_ids)) or '—'} · Missing: <span class=\"missing\">{esc(', '.join(a.missing_fact_ids)) or '—'}</span>"
        + (f" · Unsupported claims: {len(a.unsupported_claims)}" if a.unsupported_claims else "")
        + (f" · Conflicts: {esc(', '.join(c.fact_id for c in a.conflicts))}" if a.conflicts else "")
        + "</p>"
        + (f'<h4>Feedback queries</h4><ul class="feedback">{feedback}</ul>' if feedback else "")
        + "</div>"
    )
    draft = f'<details class="draft"><summary>Draft answer</summary><p>{esc(trace.draft.text) or "<em>(empty)</em>"}</p></details>'
    return (
        f'<section class="iteration" id="iteration-{trace.iteration}"><h3>Iteration {trace.iteration}</h3>'
        f"<h4>Subqueries</h4>{subqueries}<h4>Retrieved</h4>{snippets}{draft}{verdict}</section>"
    )


def _usage(result: RunResult) -> str:
    u = result.usage
    items = (
        ("retriever calls", u.retriever_calls),
        ("subqueries", u.subqueries),
        ("LLM calls", u.llm_calls),
        ("prompt tokens", u.prompt_tokens),
        ("completion tokens", u.completion_tokens),
        ("seconds", f"{u.elapsed_s:.3f}"),
    )
    return '<dl class="usage">' + "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in items) + "</dl>"
