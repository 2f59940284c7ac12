"""A run as one self-contained HTML page: question, plan, iterations, verdicts, fusion table
and the answer with each citation linked to the highlighted span of its source.

The page has inline CSS and a few lines of inline JavaScript (expand/collapse, flash the cited
span a link jumps to), no external asset, and a Content-Security-Policy that forbids any
network load. Every piece of run text is escaped with :func:`html.escape`. The same result
always gives the same bytes: no clock, no random ids, ids numbered in page order.

Agentic runs (:class:`~agentic_rag._contracts.RunResult`) show the plan and each iteration;
parallel runs (:class:`~agentic_rag._parallel.RAGResult`) show the query views, branches and
the fusion table (per document, each branch's rank and contribution).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from agentic_rag._contracts import RunResult
from agentic_rag._errors import InvalidInputError
from agentic_rag._files import atomic_write
from agentic_rag._interfaces.evidence_payload import evidence_payload, evidence_snippets
from agentic_rag._interfaces.html_evidence import EvidenceIndex, esc, render_evidence
from agentic_rag._interfaces.html_report_agentic import agentic_sections
from agentic_rag._interfaces.html_report_parallel import parallel_sections
from agentic_rag._parallel.contracts import RAGResult

__all__ = ["render_run_report", "write_run_report"]

_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

_CSS = """
:root{--fg:#1d232a;--muted:#5b6570;--line:#d6dbe0;--bg:#fff;--soft:#f4f6f8;--accent:#1f5fa8;--ok:#1e7b3a;--warn:#9a6200;--bad:#a12a2a;--mark:#ffe58a}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header.page,main,footer{max-width:1100px;margin:0 auto;padding:0 20px}
header.page{padding-top:18px;border-bottom:1px solid var(--line)}
h1{font-size:1.35rem;margin:.2em 0}h2{font-size:1.15rem;margin:1.4em 0 .5em;border-bottom:1px solid var(--line)}
h3{font-size:1rem;margin:1em 0 .4em}h4{font-size:.92rem;margin:.8em 0 .3em;color:var(--muted)}
.question{font-size:1.1rem;font-weight:600}
nav a{margin-right:.9em}nav{margin:.4em 0 .8em}
button{font:inherit;padding:2px 10px;border:1px solid var(--line);border-radius:4px;background:var(--soft);cursor:pointer}
table{border-collapse:collapse;width:100%;margin:.4em 0;font-size:.9rem}
th,td{border:1px solid var(--line);padding:4px 6px;text-align:left;vertical-align:top}
thead th{background:var(--soft)}
td.contribution{white-space:nowrap;font-variant-numeric:tabular-nums}td.none{color:var(--muted);text-align:center}
.status{display:inline-block;padding:1px 8px;border-radius:10px;color:#fff;font-weight:600;background:var(--muted)}
.status-answered{background:var(--ok)}.status-partial{background:var(--warn)}.status-unanswerable,.status-refused{background:var(--bad)}
.answer-text{font-size:1.05rem;background:var(--soft);padding:10px 12px;border-radius:6px}
.claim{margin:.4em 0}.quote{margin:.2em 0 .2em 1em;padding-left:.6em;border-left:3px solid var(--line);color:var(--muted)}
a.citation{display:inline-block;font-size:.82rem;padding:0 6px;border-radius:4px;background:#e8f0fb;color:var(--accent);text-decoration:none}
a.citation.unverified,.citation.missing{background:#fbe9e9;color:var(--bad)}
.verdict{border-left:4px solid var(--muted);background:var(--soft);padding:6px 10px;margin:.6em 0}
.verdict.label-sufficient{border-color:var(--ok)}.verdict.label-useful_but_incomplete{border-color:var(--warn)}
.verdict.label-insufficient,.verdict.label-unanswerable,.verdict.label-conflicting{border-color:var(--bad)}
.iteration{border:1px solid var(--line);border-radius:6px;padding:4px 14px 10px;margin:.8em 0}
.source{border:1px solid var(--line);border-radius:6px;padding:6px 12px;margin:.6em 0}
.source header{font-size:.85rem;color:var(--muted)}.source .loc{font-weight:600;color:var(--fg)}
.snippet-text{white-space:pre-wrap;margin:.3em 0}
mark.cited{background:var(--mark);padding:0 1px;border-radius:2px}
.flash{outline:3px solid var(--accent);outline-offset:2px}
:target{scroll-margin-top:12px}mark:target{outline:2px solid var(--accent)}
dl.usage{display:grid;grid-template-columns:max-content auto;gap:2px 14px}dl.usage dd{margin:0;font-variant-numeric:tabular-nums}
.degraded,.missing{color:var(--bad)}code{font-size:.88em}
footer{color:var(--muted);font-size:.8rem;padding:20px}
"""

_JS = """
(function () {
  function flash() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var el = id ? document.getElementById(id) : null;
    if (!el) { return; }
    el.classList.add('flash');
    window.setTimeout(function () { el.classList.remove('flash'); }, 1600);
  }
  var button = document.getElementById('toggle-details');
  if (button) {
    button.addEventListener('click', function () {
      var open = button.getAttribute('aria-pressed') !== 'true';
      var all = document.querySelectorAll('details');
      for (var i = 0; i < all.length; i++) { all[i].open = open; }
      button.setAttribute('aria-pressed', open ? 'true' : 'false');
      button.textContent = open ? 'Collapse all' : 'Expand all';
    });
  }
  window.addEventListener('hashchange', flash);
  document.body.setAttribute('data-report-ready', 'true');
})();
"""


def render_run_report(result: RunResult | RAGResult, *, evidence: Sequence[Mapping[str, Any]] | None = None) -> str:
    """Render a run as one self-contained HTML page.

    Args:
        result: An agentic :class:`~agentic_rag._contracts.RunResult` or a parallel
            :class:`~agentic_rag._parallel.RAGResult`.
        evidence: The ``evidence`` of the run's ``ask`` payload, shown after the answer
            (default: computed from the run, five passages, without line look-ups).

    Returns:
        The page (UTF-8 text, ending with a newline); identical for identical results.

    Raises:
        InvalidInputError: ``result`` is neither kind of result.
    """
    if isinstance(result, RunResult):
        workflow, question, sections = "agentic", result.question, agentic_sections(result)
    elif isinstance(result, RAGResult):
        workflow, question, sections = "parallel", result.query, parallel_sections(result)
    else:
        raise InvalidInputError(f"result must be a RunResult or a RAGResult, got {type(result).__name__}", stage="report")
    items = list(evidence) if evidence is not None else evidence_payload(result)
    sections.insert(1, ("evidence", "Evidence", render_evidence(items, _source_ids(result, len(items)))))
    from agentic_rag import __version__

    nav = " ".join(f'<a href="#{sid}">{esc(title)}</a>' for sid, title, _ in sections)
    body = "\n".join(f'<section id="{sid}" class="report-section"><h2>{esc(title)}</h2>\n{content}\n</section>' for sid, title, content in sections)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="agentic-rag {esc(__version__)}">\n'
        f"<title>agentic-rag run report: {esc(question)}</title>\n<style>{_CSS}</style>\n</head>\n"
        f'<body data-workflow="{workflow}">\n<header class="page"><h1>agentic-rag run report</h1>\n'
        f'<p class="workflow">Workflow: <strong>{workflow}</strong></p>\n'
        f'<p id="question" class="question">{esc(question)}</p>\n'
        f'<nav>{nav} <button type="button" id="toggle-details" aria-pressed="false">Expand all</button></nav>\n</header>\n'
        f"<main>\n{body}\n</main>\n"
        "<footer>Written by agentic-rag. This page is self-contained: it loads nothing from the network.</footer>\n"
        f"<script>{_JS}</script>\n</body>\n</html>\n"
    )


def _source_ids(result: RunResult | RAGResult, count: int) -> list[str | None]:
    """The page ids of the first ``count`` evidence passages' source articles, numbered as
    the sections number them."""
    if isinstance(result, RunResult):
        index = EvidenceIndex(result.snippets)
    else:
        index = EvidenceIndex({doc.document_id: doc.snippet for doc in result.documents if doc.snippet is not None}.values())
    return [index.source_id(s.id) if s.id in index else None for s in evidence_snippets(result)[:count]]


def write_run_report(result: RunResult | RAGResult, path: str | os.PathLike[str], *, evidence: Sequence[Mapping[str, Any]] | None = None) -> None:
    """Render a run and write it to ``path`` atomically (a temporary file renamed into place).

    Args:
        result: The run (see :func:`render_run_report`).
        path: Destination file; its folder is created when missing.
        evidence: The ``evidence`` of the run's ``ask`` payload (see :func:`render_run_report`).

    Raises:
        InvalidInputError: ``result`` is neither kind of result.
        OSError: The file cannot be written.
    """
    data = render_run_report(result, evidence=evidence).encode("utf-8")
    atomic_write(path, data, mode=0o644)  # a page to open and share, not a private temporary file
