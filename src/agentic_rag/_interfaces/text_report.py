"""Plain-text rendering of an agentic run: each iteration, the judge's feedback, the answer."""

from __future__ import annotations

from agentic_rag._contracts import RunResult, Snippet
from agentic_rag._interfaces.locations import display_path, location_label, place_fields

__all__ = ["format_run", "snippet_location"]


def snippet_location(snippet: Snippet) -> str:
    """Say where a snippet comes from: ``path:start-end`` when lines are known (with the page
    or cell, ``report.pdf:p12:3-5``, ``notes.ipynb:c7:1-4``), else its path or id."""
    meta = snippet.metadata
    path = meta.get("path")
    if isinstance(path, str) and isinstance(meta.get("start_line"), int):
        end = meta.get("end_line", meta["start_line"])
        return location_label({"path": path, "start_line": meta["start_line"], "end_line": end, **place_fields(meta)})
    return display_path(path) if isinstance(path, str) else display_path(snippet.id)


def format_run(result: RunResult, *, show_iterations: bool = True) -> str:
    """Render a run for a terminal.

    Args:
        result: The run.
        show_iterations: Include each iteration's subqueries, snippets and verdict.

    Returns:
        Multi-line text (no trailing newline).
    """
    lines = [f"Question: {result.question}", "Plan:"]
    for fact in result.plan.facts:
        route = result.plan.route(fact.id)
        deps = f" (after {', '.join(fact.depends_on)})" if fact.depends_on else ""
        lines.append(f"  - {fact.id} [{fact.priority.value}]{deps}: {fact.description} -> {', '.join(route.corpus_ids)}")
    if show_iterations:
        for trace in result.iterations:
            lines.append(f"Iteration {trace.iteration}:")
            for sq in trace.subqueries:
                parent = f" (follows {sq.parent_id})" if sq.parent_id else ""
                lines.append(f"  {sq.id} [{sq.origin.value}] {sq.text!r} -> {', '.join(sq.corpus_ids)}{parent}")
            for snippet in trace.new_snippets:
                lines.append(f"    found {snippet_location(snippet)} (score {snippet.score:.3f})")
            a = trace.assessment
            lines.append(f"  judge: {a.label.value}, score {a.sufficiency_score:.2f}; {a.rationale}")
            for fb in a.feedback_queries:
                lines.append(f"  feedback for {fb.fact_id}: {fb.text!r} ({fb.reason})")
    answer = result.answer
    lines.append(f"Status: {answer.status.value} (stop: {result.stop_reason.value}, iterations: {answer.iterations})")
    lines.append(f"Answer: {answer.text}")
    snippets = {s.id: s for s in result.snippets}
    for n, claim in enumerate(answer.claims, start=1):
        lines.append(f"  [{n}] {claim.text}")
        for citation in claim.citations:
            where = snippet_location(snippets[citation.snippet_id]) if citation.snippet_id in snippets else citation.snippet_id
            lines.append(f"      cites {where} chars {citation.start}-{citation.end}")
    for fact in answer.missing_facts:
        lines.append(f"  missing: {fact.id}: {fact.description}")
    return "\n".join(lines)
