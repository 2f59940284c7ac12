"""The handlers of the ``agentic-rag`` sub-commands (see :mod:`agentic_rag._interfaces.cli`)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from agentic_rag._errors import InvalidInputError, StoreError

__all__ = ["cmd_ask", "cmd_corpora", "cmd_demo", "cmd_eval", "cmd_index", "cmd_mcp", "cmd_search", "cmd_show", "json_line"]


def json_line(value: Any) -> str:
    """``value`` as every ``--json`` output prints it: one line, sorted keys, no indentation and
    no blank after a separator (an agent pays for every byte; pipe through ``jq`` to read)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _print_json(value: Any) -> None:
    print(json_line(value))


def _store(args: argparse.Namespace, *, must_exist: bool = True):
    from agentic_rag._store import KnowledgeStore

    store = KnowledgeStore(args.store, base=os.getcwd())
    if must_exist and not store.exists:
        raise StoreError(f"no store at {args.store!r}: run `agentic-rag index PATH --store {args.store}` first", stage="cli")
    return store


def _llm(args: argparse.Namespace) -> Any:
    """The LLM asked for by --llm/--model or the environment, else None (deterministic)."""
    # The variable names only: the LLM package is imported when a model is asked for.
    from agentic_rag._http.environment import ENV_LLM_BASE_URL as LLM_BASE_URL_ENV, ENV_LLM_MODEL as LLM_MODEL_ENV

    base = args.llm or os.environ.get(LLM_BASE_URL_ENV)
    model = args.model or os.environ.get(LLM_MODEL_ENV)
    if not (args.llm or args.model):
        return None
    if not base or not model:
        raise InvalidInputError(f"--llm needs a base URL and --model a name (or set {LLM_BASE_URL_ENV} and {LLM_MODEL_ENV})", stage="cli")
    from agentic_rag._http.environment import ENV_LLM_JSON_MODE
    from agentic_rag.llm import OpenAICompatibleLLM

    return OpenAICompatibleLLM(base, model, json_mode=os.environ.get(ENV_LLM_JSON_MODE, "").strip() or "json_schema")


def _warn_about_model(payload: dict[str, Any]) -> dict[str, Any]:
    """Say on stderr when the model asked for was not used (or some of its calls failed)."""
    from agentic_rag._interfaces.model_report import model_warning

    warning = model_warning(payload.get("model"))
    if warning:
        print(f"agentic-rag: {warning}", file=sys.stderr)
    return payload


def cmd_index(args: argparse.Namespace) -> int:
    """Index paths into the store."""
    from agentic_rag._ingest.walker import WalkOptions
    from agentic_rag._interfaces.progress import ProgressBar
    from agentic_rag._store import IndexPhase, KnowledgeStore

    if args.description and not args.corpus:
        raise InvalidInputError("--description needs --corpus NAME", stage="cli")
    if not args.wait >= 0 or args.wait == float("inf"):
        raise InvalidInputError(f"--wait must be a number of seconds >= 0, got {args.wait!r}", stage="cli")
    for path in args.paths:
        if not Path(path).exists():
            raise FileNotFoundError(f"no such file or folder: {path!r}")
    walk = WalkOptions(ignore_files=not args.no_ignore, exclude=tuple(args.exclude))
    store = KnowledgeStore(args.store, base=os.getcwd(), vector=True if args.vectors else None, pdf=args.pdf, walk=walk,
                           lock_timeout=args.wait)
    with ProgressBar(quiet=args.quiet or args.json) as bar:
        def progress(event: Any) -> None:
            if event.phase is IndexPhase.WAITING:
                # Said even with --quiet: without it a busy store looks like a hung command.
                print(f"agentic-rag: another process is writing the store {args.store}; waiting up to {args.wait:g} s for it "
                      "(--wait SECONDS)", file=sys.stderr, flush=True)
            bar(event)

        report = store.index(args.paths, corpus=args.corpus, description=args.description, progress=progress)
    if args.json:
        _print_json(report.to_dict())
        return 0
    if args.quiet:
        return 0  # errors only, and an error never reaches this line
    print(_index_summary(report, args.store) + ("" if args.verbose or not _listed(report) else " (--verbose lists them)"))
    if args.verbose:
        from agentic_rag._interfaces.locations import display_path

        for repair in report.repaired:
            print(f"  repaired: {repair}")
        for path, reason in report.skipped:
            print(f"  skipped {display_path(path)}: {reason}")
        for path, note in report.partial:
            print(f"  partly indexed {display_path(path)}: {note}")
        for corpus in store.corpora():
            print(f"  corpus {corpus.id}: {corpus.description}")
    return 0


def _listed(report: Any) -> int:
    """How many lines ``--verbose`` would add about files and repairs."""
    return len(report.skipped) + len(report.partial) + len(report.repaired)


def _index_summary(report: Any, store: str) -> str:
    """One line of counts; the files behind the counts are listed by ``--verbose``."""
    # Skipped files are found but not indexed: counted apart, never as indexed.
    line = (f"indexed {report.added + report.updated} of {report.files_seen} files found into {store}: {report.added} added, "
            f"{report.updated} updated, {report.unchanged} unchanged, {len(report.skipped)} skipped; {report.removed} removed")
    if report.partial:
        line += f", {len(report.partial)} partly indexed"
    if report.repaired:
        line += f", {len(report.repaired)} repairs"
    return line + f"; {report.chunks_added} chunks added, {report.chunks_removed} removed ({report.seconds:.2f} s)"


def cmd_corpora(args: argparse.Namespace) -> int:
    """List the store's corpora: name, folder, file and chunk counts, description."""
    from agentic_rag._interfaces.corpora_payload import corpora_payload
    from agentic_rag._interfaces.locations import display_path
    from agentic_rag._interfaces.store_service import StoreService

    corpora = corpora_payload(StoreService(_store(args)).corpora())
    if args.json:
        _print_json(corpora)
        return 0
    for corpus in corpora:
        files, chunks = corpus["files"], corpus["chunks"]
        print(f"{display_path(corpus['id'])}  {display_path(corpus['root'] or '.')}  {files} file{'' if files == 1 else 's'}, "
              f"{chunks} chunk{'' if chunks == 1 else 's'}")
        print(_indented(corpus["description"], "   "))
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    """Print ranked hits: where each one's focus lines are, its relevance, its section, and
    the focus lines themselves (with where else they stand, when later hits repeat them)."""
    from agentic_rag._interfaces.store_service import StoreService

    service = StoreService(_store(args))
    hits = service.search(args.query, args.k, args.corpus, context=args.context)
    if args.json:
        _print_json(hits)
        return 0
    if not hits:
        print("no matching chunks")
    for n, hit in enumerate(hits, start=1):
        print(f"{n}. {_passage_header(hit)}")
        print(_indented(hit["focus_text"], "   "))
        if hit.get("also_at"):  # later hits that repeat these statements, printed as places only
            print("   also: " + _places(hit["also_at"]))
    unused = service.unused_names(args.query, args.corpus)
    if unused:  # the hits above are about something else: no need to search again to be sure
        where = f"any document of {args.corpus}" if args.corpus else "any indexed document"
        print(f"not in {where}: {', '.join(unused)}")
    return 0


# A paragraph restated by every later patch release can stand in a dozen files: the text
# output names the first few (best first) and counts the rest; ``--json`` lists them all.
_PLACES_SHOWN = 3


def _places(places: list[dict[str, Any]]) -> str:
    from agentic_rag._interfaces.locations import location_label

    shown = ", ".join(location_label(place) for place in places[:_PLACES_SHOWN])
    return shown + (f" (+{len(places) - _PLACES_SHOWN} more)" if len(places) > _PLACES_SHOWN else "")


def cmd_show(args: argparse.Namespace) -> int:
    """Print a cited span as the loader read it (from the store, else from the file)."""
    from agentic_rag._interfaces.show_span import show_location, show_text

    # The store's rows are read directly (a missing store: the file is), never its index.
    payload = show_location(args.store, args.location, root=os.getcwd(), context=args.context, max_bytes=args.max_bytes)
    if args.json:
        _print_json(payload)
    else:
        print(show_text(payload, args.max_bytes))
    return 0


def _passage_header(item: dict[str, Any]) -> str:
    """``path:15-17  relevance 0.83  § Guide › Install``: where the focus lines are (with the
    page or cell), the relevance, and the section heading path (its last levels when long; the
    last one whole up to :data:`_LAST_LEVEL_WIDTH` characters)."""
    from agentic_rag._interfaces.locations import location_label

    where = location_label({**item, "start_line": item["focus_start_line"], "end_line": item["focus_end_line"]})
    section = item.get("section") or ""
    if len(section) > _SECTION_WIDTH:
        levels = section.split(" \u203a ")
        while len(levels) > 1 and len(" \u203a ".join(levels)) > _SECTION_WIDTH - 2:
            levels = levels[1:]
        # The last level is the hit's own heading, and the asked value often stands in it ("CVE-
        # 2024-53908: Potential SQL injection via HasKey(lhs, rhs) on Oracle"): it is printed
        # whole up to a longer width. Longer still, it keeps its start (what names it: an
        # identifier, a version, a CVE number) and loses its end, at a word boundary.
        section = ("\u2026 " if len(levels) < section.count(" \u203a ") + 1 else "") + _cut_end(" \u203a ".join(levels), _LAST_LEVEL_WIDTH)
    return f"{where}  relevance {_relevance(item)}" + (f"  \u00a7 {section}" if section else "")


_SECTION_WIDTH = 60
_LAST_LEVEL_WIDTH = 100


def _cut_end(text: str, width: int) -> str:
    if len(text) <= width:
        return text
    cut = text[:width - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > width // 2 else cut).rstrip() + "\u2026"


def _indented(text: str, prefix: str) -> str:
    return "\n".join(prefix + line for line in text.split("\n")) if text else prefix + "(no text)"


def _relevance(item: dict[str, Any]) -> str:
    from agentic_rag._interfaces.evidence_payload import WEAK_RELEVANCE

    return f"{item['relevance']:.2f}" + (" (weak)" if item["relevance"] < WEAK_RELEVANCE else "")


def _print_answer(payload: dict[str, Any]) -> None:
    from agentic_rag._interfaces.locations import location_label

    print(f"Status: {payload['status']} (iterations: {payload['iterations']}, stop: {payload['stop_reason']})")
    print(f"Answer: {payload['answer']}")
    for n, claim in enumerate(payload["claims"], start=1):
        where = ", ".join(location_label(c) for c in claim["citations"])
        print(f"  [{n}] {' '.join(claim['text'].split())}  ({where})")
    for fact in payload["missing_facts"]:
        print(f"  missing: {fact}")
    if payload.get("evidence"):
        print("Evidence (best first):")
        for item in payload["evidence"]:
            facts = f"  supports {', '.join(item['fact_ids'])}" if item["fact_ids"] else ""
            print(f"  - {_passage_header(item)}{facts}")
            # Empty when the claims above quote every focus line (the payload says each once).
            print(_indented(item["focus_text"] or "(its focus lines are quoted above)", "    "))


def cmd_ask(args: argparse.Namespace) -> int:
    """Answer a question from the store."""
    from agentic_rag._files import atomic_write
    from agentic_rag._interfaces.store_service import StoreService

    outcome = StoreService(_store(args), llm=_llm(args)).ask(args.question, args.mode, corpus=args.corpus, evidence=args.evidence,
                                                              full_text=args.full_text)
    _warn_about_model(outcome.payload)
    if args.trace:
        atomic_write(args.trace, json.dumps(outcome.result.to_dict(), ensure_ascii=False, sort_keys=True, indent=1).encode("utf-8"))
    if args.report:
        from agentic_rag._interfaces.html_report import write_run_report

        write_run_report(outcome.result, args.report, evidence=outcome.payload["evidence"])
    if args.json:
        _print_json(outcome.payload)
    else:
        _print_answer(outcome.payload)
    if args.strict and outcome.payload["status"] != "answered":
        return 3
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    """Compare configurations on a dataset folder."""
    from agentic_rag.evaluation.suites import run_eval

    if not Path(args.dataset).exists():
        raise FileNotFoundError(f"no dataset folder or file at {args.dataset!r}")
    report = run_eval(args.dataset, limit=args.limit, half=args.half, split=args.split, format=args.format)
    if args.json:
        _print_json(report.by_configuration())
        for note in report.notes:  # stdout stays one JSON object
            print(f"note: {note}", file=sys.stderr)
    else:
        print(f"{report.dataset} ({report.format})")
        for note in report.notes:
            print(f"note: {note}")
        print(report.table())
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """Index the bundled sample into a temporary store and ask it two questions."""
    from agentic_rag._interfaces.mcp_demo import demo_service
    from agentic_rag._samples import PARTIAL_QUESTION, TWO_HOP_QUESTION, sample_corpora

    with demo_service() as service:
        outcomes = [service.ask(q) for q in (TWO_HOP_QUESTION, PARTIAL_QUESTION)]
    if args.json:
        _print_json([o.payload for o in outcomes])
        return 0
    print("Sample corpora:")
    for corpus in sample_corpora():
        print(f"  {corpus.id}: {corpus.description}")
    for question, outcome in zip((TWO_HOP_QUESTION, PARTIAL_QUESTION), outcomes):
        print(f"\nQuestion: {question}")
        result = outcome.result
        for trace in getattr(result, "iterations", ()):
            queries = "; ".join(sq.text for sq in trace.subqueries)
            print(f"  iteration {trace.iteration}: {queries} -> judge: {trace.assessment.label.value}")
        _print_answer(outcome.payload)
    return 0


SAMPLING = "sampling"
"""``mcp --llm sampling``: ask the MCP client's own model (``sampling/createMessage``)."""


def cmd_mcp(args: argparse.Namespace) -> int:
    """Serve the store over MCP on stdio; ``--llm sampling`` runs the LLM-backed roles on the
    client's model when the client declares the ``sampling`` capability, deterministically
    (with a note in ``ask``'s ``model``) when it does not."""
    from agentic_rag._interfaces.mcp_server import STORE_INSTRUCTIONS, McpServer, serve_stdio, store_tools
    from agentic_rag._interfaces.store_service import StoreService

    channel = llm = None
    if args.llm == SAMPLING:
        from agentic_rag._interfaces.mcp_channel import McpClientChannel
        from agentic_rag.llm.sampling import McpSamplingLLM

        channel = McpClientChannel()  # the server's requests to its client, shared with the model
        llm = McpSamplingLLM(channel, model_hint=args.model)
    else:
        llm = _llm(args)
    tools = store_tools(StoreService(_store(args), llm=llm), on_answer=_warn_about_model)
    using = " with the client's model (sampling)" if channel is not None else ""
    print(f"agentic-rag: serving {args.store} over MCP (stdio){using}", file=sys.stderr)
    return serve_stdio(McpServer(tools, instructions=STORE_INSTRUCTIONS, channel=channel))
