"""The ``agentic-rag`` command line (also ``python -m agentic_rag``).

Commands: ``index`` a folder into a store, list its ``corpora``, ``search`` it, ``show`` a cited span, ``ask`` it a question, ``eval`` a
dataset folder, run the ``demo``, or serve the store over ``mcp``. Exit codes: 0 ok, 1 usage
error, 2 not found or empty store, 3 a partial or unanswerable answer with ``--strict``, 141
(quietly, as a Unix tool stopped by SIGPIPE) when the reader of stdout went away
(``agentic-rag search ... | head -1``). Errors are one line on stderr; ``--debug`` shows the
traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from agentic_rag._errors import AgenticRAGError, IndexFormatError, InvalidInputError, StoreBusyError, StoreError
from agentic_rag._interfaces.ask_mode import DEFAULT_EVIDENCE, DEFAULT_HITS, AskMode

__all__ = ["EXIT_BROKEN_PIPE", "EXIT_BUSY", "EXIT_NOT_FOUND", "EXIT_OK", "EXIT_STRICT", "EXIT_USAGE", "build_parser", "main"]

EXIT_OK, EXIT_USAGE, EXIT_NOT_FOUND, EXIT_STRICT, EXIT_BUSY = 0, 1, 2, 3, 4
EXIT_BROKEN_PIPE = 141


class _Parser(argparse.ArgumentParser):
    """argparse with exit code 1 for usage errors (argparse's own default is 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)

    def format_help(self) -> str:
        # A description given as a function is written when help is asked for: the index
        # command's lists the loaders' file endings, which a search never imports.
        if callable(self.description):
            self.description = self.description()
        return super().format_help()


# The values of evaluation.DatasetFormat, written out so a search never imports the evaluation
# package to build its parser (a test pins them).
DATASET_FORMATS = ("beir", "trec", "multihop", "hotpotqa", "2wikimultihopqa", "musique")


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser: one sub-command per job, each with ``--help``."""
    from agentic_rag._interfaces import cli_commands as c

    parser = _Parser(prog="agentic-rag", description="Answers from your documents, with citations, that say when the evidence is not enough.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def store_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument("--store", default=".agentic-rag", metavar="DIR", help="the store folder (default: ./.agentic-rag)")

    from agentic_rag._ingest.pdf_backend import PdfBackend

    def index_description() -> str:
        from agentic_rag._ingest.loaders import SUFFIXES

        return (f"Index files and folders ({' '.join(sorted(SUFFIXES))}) into the store, incrementally: unchanged files are skipped, changed "
                "ones replaced, deleted ones removed. Citations of a PDF name the page and count lines within it (report.pdf:p12:3-5), of a "
                "notebook the cell (notes.ipynb:c7:1-4).")

    p = sub.add_parser("index", help="index files and folders into the store", description=index_description)
    p.add_argument("paths", nargs="+", metavar="PATH")
    store_arg(p)
    p.add_argument("--corpus", metavar="NAME", help="put every file in this corpus (default: one corpus per folder given, holding all of it; "
                   "one folder alone: one per folder in it)")
    p.add_argument("--description", metavar="TEXT", help="the corpus description used for routing (needs --corpus; default: generated)")
    p.add_argument("--vectors", action="store_true", help="also keep a hashed n-gram vector index (for ask --mode parallel)")
    p.add_argument("--pdf", choices=[b.value for b in PdfBackend], default=PdfBackend.BUILTIN.value,
                   help="how PDF text is extracted: the built-in parser (default) or poppler's pdftotext program, which must then be on PATH")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                   help="leave out paths matching this gitignore-style glob, relative to each indexed folder (repeatable); "
                   "files indexed before and now excluded are removed")
    p.add_argument("--no-ignore", action="store_true", help="do not honour .gitignore, .ignore and the repository's info/exclude "
                   "(honoured by default, as ripgrep does)")
    talk = p.add_mutually_exclusive_group()
    talk.add_argument("--quiet", action="store_true", help="errors only: no progress bar and no summary (errors still go to stderr)")
    talk.add_argument("--verbose", action="store_true", help="after the summary, list every skipped or partly indexed file, every repair and the corpora")
    p.add_argument("--json", action="store_true", help="print the index report as JSON")
    p.add_argument("--wait", type=float, default=60.0, metavar="SECONDS",
                   help="when another index run is writing the store, wait up to this long for it, saying so on stderr "
                        "(default 60; 0: do not wait); then exit 4")
    p.set_defaults(handler=c.cmd_index)

    p = sub.add_parser("corpora", help="list the store's corpora", description="List the store's corpora: each one's name (what "
                       "search --corpus and ask --corpus take), the folder it stands for, its file and chunk counts, and its description "
                       "(what ask routes questions by).")
    store_arg(p)
    p.add_argument("--json", action="store_true", help="print a JSON list of {id, description, root, files, chunks}")
    p.set_defaults(handler=c.cmd_corpora)

    p = sub.add_parser("search", help="ranked chunks with file:lines", description="Search the store (BM25, then a second stage that ranks the candidates by their focus lines) and print, per hit, file:lines of its focus (the few lines that answer best), its relevance (the estimated chance, 0 to 1, that those lines answer), its section heading path and the focus lines themselves.")
    p.add_argument("query")
    store_arg(p)
    p.add_argument("-k", type=int, default=DEFAULT_HITS,
                   help=f"most hits (default {DEFAULT_HITS}: fewer when the first are clearly better than the rest, never a weak one alone; "
                        f"above {DEFAULT_HITS}, every hit up to k)")
    p.add_argument("--corpus", metavar="NAME", help="only this corpus")
    p.add_argument("--context", type=int, default=0, metavar="N", help="show N more lines of each hit around its focus lines (default 0)")
    p.add_argument("--json", action="store_true", help="print a JSON list of {path, start_line, end_line, section, score, text, corpus, focus_start_line, focus_end_line, focus_text, relevance}, "
                   "with page (PDF) or cell (notebook) when the hit has one")
    p.set_defaults(handler=c.cmd_search)

    p = sub.add_parser("show", help="print a cited span as rendered text", description="Print the lines a location names (PATH:N-M, PATH:pPAGE:N-M for a PDF page, PATH:cCELL:N-M for a notebook cell, as search prints them; PATH:N one line; PATH, PATH:pPAGE or PATH:cCELL all of it) as the loader read them: the text of HTML without its tags, a PDF page's extracted lines. Each run of lines in one section comes under a path:lines header with its heading path, each line after its source line number. Read from the store; a file the store does not hold is read with its loader.")
    p.add_argument("location", metavar="LOCATION")
    store_arg(p)
    p.add_argument("--context", type=int, default=0, metavar="N", help="also show N rendered lines before and after the span (default 0)")
    # show_span.DEFAULT_MAX_BYTES, written out so the parser never imports the reader (a test pins it).
    p.add_argument("--max-bytes", type=int, default=4000, metavar="N", help="print at most N bytes, then say where to read on (default 4000; 0: no cap)")
    p.add_argument("--json", action="store_true", help="print one JSON object: {path, source, blocks: [{start_line, end_line, section, page?, cell?, lines: [{line, text}]}], truncated, next}")
    p.set_defaults(handler=c.cmd_show)

    p = sub.add_parser("ask", help="answer a question with citations", description="Answer a question from the store: the answer, its status (answered / partial / unanswerable), each claim with file:lines citations, and the missing facts when partial.")
    p.add_argument("question")
    store_arg(p)
    p.add_argument("--mode", choices=[m.value for m in AskMode], default=AskMode.AGENTIC.value, help="iterative with sufficiency judging (default), or parallel BM25 + vector branches fused by RRF")
    p.add_argument("--corpus", metavar="NAME", help="only this corpus")
    p.add_argument("--llm", metavar="URL", help="an OpenAI-compatible base URL (default: $AGENTIC_RAG_LLM_BASE_URL when --model or $AGENTIC_RAG_LLM_MODEL is set)")
    p.add_argument("--model", metavar="NAME", help="the model name for --llm")
    p.add_argument("--evidence", type=int, default=DEFAULT_EVIDENCE, metavar="N", help=f"show at most N ranked evidence passages (default {DEFAULT_EVIDENCE}; 0 for none)")
    p.add_argument("--json", action="store_true", help="print one JSON object: status, answer, claims, missing_facts, iterations, stop_reason, evidence")
    p.add_argument("--full-text", action="store_true", help="give each evidence passage's whole text in the JSON (default: its focus lines)")
    p.add_argument("--trace", metavar="FILE", help="write the whole run (plan, iterations, snippets) as JSON")
    p.add_argument("--report", metavar="FILE.html", help="write a self-contained HTML report of the run")
    p.add_argument("--strict", action="store_true", help="exit 3 when the answer is partial or unanswerable")
    p.set_defaults(handler=c.cmd_ask)

    p = sub.add_parser("eval", help="compare one-shot, iterative and parallel retrieval on a dataset", description="Evaluate one-shot, iterative and parallel configurations on a BEIR, TREC or multi-hop folder, or a HotpotQA, 2WikiMultihopQA or MuSiQue file as published, and print one table of metrics.")
    p.add_argument("dataset", metavar="DATASET", help="a dataset folder or file")
    p.add_argument("--limit", type=int, help="only the first N queries")
    p.add_argument("--half", choices=("all", "tune", "report"), default="all", help="multi-hop only: even (tune) or odd (report) lines")
    p.add_argument("--split", default="test", help="BEIR qrels split (default: test)")
    p.add_argument("--format", choices=["auto", *DATASET_FORMATS], default="auto",
                   help="the dataset's format (default: detected from the folder's files or the file's records)")
    p.add_argument("--json", action="store_true", help="print {configuration: {metric: value}}")
    p.set_defaults(handler=c.cmd_eval)

    p = sub.add_parser("demo", help="index the bundled sample corpus and ask it questions", description="Index the bundled sample corpus (three corpora with descriptions) into a temporary store and ask it a two-hop question and one it can only answer in part.")
    p.add_argument("--json", action="store_true", help="print the answers as JSON")
    p.set_defaults(handler=c.cmd_demo)

    p = sub.add_parser("mcp", help="serve the store over MCP (stdio)", description="Serve the store's search, ask, list_corpora and show tools over MCP on stdin/stdout.")
    store_arg(p)
    p.add_argument("--llm", metavar="URL|sampling", help="an OpenAI-compatible base URL for ask, or 'sampling': the MCP client's own model "
                   "through sampling/createMessage when the client declares the sampling capability (otherwise ask answers "
                   "deterministically and its model key says why)")
    p.add_argument("--model", metavar="NAME", help="the model name for --llm URL; with --llm sampling, a model hint sent to the client")
    p.set_defaults(handler=c.cmd_mcp)
    return parser


def _reader_gone() -> int:
    """Exit quietly when the reader of stdout went away (``agentic-rag search ... | head -1``),
    as a Unix tool killed by SIGPIPE does: no message, exit code 141 (128 + SIGPIPE)."""
    try:
        # Unwritten output must not fail again at interpreter exit: send it nowhere.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout is no file (redirected in-process)
        pass
    return EXIT_BROKEN_PIPE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Args:
        argv: Arguments (default ``sys.argv[1:]``).

    Returns:
        The exit code.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        code = int(args.handler(args))
        sys.stdout.flush()  # a reader that went away is found here, not at interpreter exit
        return code
    except BrokenPipeError:
        return _reader_gone()
    except KeyboardInterrupt:
        print("agentic-rag: interrupted", file=sys.stderr)
        return 130
    except StoreBusyError as exc:
        if args.debug:
            raise
        print(f"agentic-rag: error: {exc}", file=sys.stderr)
        return EXIT_BUSY
    except (StoreError, IndexFormatError, FileNotFoundError) as exc:
        if args.debug:
            raise
        print(f"agentic-rag: error: {exc}", file=sys.stderr)
        return EXIT_NOT_FOUND
    except (InvalidInputError, AgenticRAGError, OSError) as exc:
        if args.debug:
            raise
        print(f"agentic-rag: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
