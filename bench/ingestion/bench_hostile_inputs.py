"""Time the crafted hostile files of hardening rounds 2 and 3 at full size, each read in a child process.

Every input of the ingest rows (the files that once cost tens of seconds or gigabytes: Flate
inflating into RunLength pairs or ASCII85 ``z`` groups, nested Form XObjects, 200,000 text runs
on a page, a font map giving 30,000 characters per code, the PDF numbers and offsets that
raised, Word parts in Shift_JIS, with 15 million empty elements, a million paragraphs, a 50,000
long ``basedOn`` chain or a UTF-16 DTD, lone surrogates in JSON, a notebook of 100,000 cells,
bidirectional overrides from a font map, a link re-pointed outside the folder) is built here
(``tests/hostile_inputs.py``), written to a file, and read by a fresh Python process the way an
index run reads it: ``read_source`` (with the folder it must stay in), ``parse_source`` with the
default limits, ``chunk_sections``. The child reports its wall-clock seconds and its peak
resident memory; the budget is 10 s and 512 MB per file under 10 MB.

Round 3 adds the text formats at about 9 MB each: a block of short lines (plain text, a Markdown
list, fence or table, an rST field list, an HTML ``<pre>``), the rST sniffing, named-reference,
wide-table and open-span inputs, CSV header names repeated per row, a CSV cell of megabytes,
many open ``<svg>`` with stray end tags, lone Markdown backtick runs, a run of ``>``, files of
many tiny units, ``{#`` repeated in HTML, and (row 25, at question time) one long hex word in a
store asked a question in parallel mode: that child indexes the file first and times the
``ask`` alone.

Issue 37 adds question time (``--round tokens``): a folder holding one 100 KB token (letters,
digits, CJK, base64, URL characters: a data URI, a base64 image, a minified line, a hash list)
between two sentences about a firmware checksum is indexed, then ``search`` and ``ask`` in both
modes are each run as an agent runs them, in a fresh process (``python -m agentic_rag ...
--json``), and the process's wall-clock seconds are the median of ``--runs`` runs; the targets
are 0.5 s for ``search`` and 1 s for ``ask``.

Run: ``python bench/ingestion/bench_hostile_inputs.py`` (``--round 2``, ``--round 3`` or ``--round tokens``
for one table, ``--only NAME`` to run some, ``--no-write`` to leave ``docs/benchmarks.md`` alone).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src"), str(ROOT / "tests")]  # the bench package (repository root), the library, the tests' builders

import hostile_inputs as hostile  # noqa: E402 - the builders the tests use, in tests/
from bench.benchmark_doc import replace_section  # noqa: E402

START = "<!-- bench:hostile-inputs -->"
END = "<!-- /bench:hostile-inputs -->"
START_3 = "<!-- bench:hostile-inputs-round3 -->"
END_3 = "<!-- /bench:hostile-inputs-round3 -->"
FULL = 9_000_000  # round 3's full size: under the 10 MB the budget speaks of
BUDGET_S = 10.0
BUDGET_MB = 512.0

#: (issue row, name, what it is, builder)
CASES = [
    ("1", "runlength", "31 KB-class PDF: Flate inflating to RunLength pairs (30M pairs)", lambda: hostile.pdf_runlength_bomb()),
    ("1", "ascii85", "PDF: Flate inflating to 150M ASCII85 `z` groups", lambda: hostile.pdf_ascii85_bomb()),
    ("2", "forms", "PDF: 12 nested Form XObjects, each drawn 8 times, 10 pages", lambda: hostile.pdf_nested_forms()),
    ("3", "runs", "PDF: 200,000 text runs on one page", lambda: hostile.pdf_many_runs()),
    ("4", "tounicode", "PDF: ToUnicode code to 30,000 characters, shown 6,000 times", lambda: hostile.pdf_to_unicode_bomb()),
    ("5", "startxref", "PDF: 25-digit startxref", lambda: hostile.pdf_long_startxref()),
    ("5", "number", "PDF: a 100,000-digit number", lambda: hostile.pdf_huge_number()),
    ("5", "length", "PDF: /Length referring to its own stream", lambda: hostile.pdf_self_length()),
    ("6", "shift-jis", ".docx: document.xml declaring Shift_JIS", lambda: hostile.docx_declared_encoding("Shift_JIS")),
    ("6", "unknown-enc", ".docx: document.xml declaring an unknown encoding", lambda: hostile.docx_declared_encoding("x-unknown")),
    ("7", "elements", ".docx: 15M empty elements", lambda: hostile.docx_empty_elements()),
    ("7", "paragraphs", ".docx: 1M paragraphs", lambda: hostile.docx_paragraphs()),
    ("8", "based-on", ".docx: 50,000-long basedOn chain", lambda: hostile.docx_based_on_chain()),
    ("9", "utf16-dtd", ".docx: UTF-16 document.xml with an internal DTD", lambda: hostile.docx_utf16_dtd()),
    ("10", "surrogate-ipynb", ".ipynb with a lone surrogate", lambda: hostile.lone_surrogate(".ipynb")),
    ("10", "surrogate-json", ".json with a lone surrogate", lambda: hostile.lone_surrogate(".json")),
    ("10", "surrogate-jsonl", ".jsonl with a lone surrogate", lambda: hostile.lone_surrogate(".jsonl")),
    ("11", "repointed-link", "a link re-pointed outside the folder after the walk", None),
    ("15", "cells", ".ipynb: 100,000 small cells (9 MB)", lambda: hostile.notebook_cells()),
    ("17", "bidi", "PDF: U+202E and U+FEFF from a font map", lambda: hostile.pdf_bidi()),
]

#: Round 3 (issue 28): the text formats. Row 25 is timed at question time (``ask``).
CASES_3 = [
    ("1", "lines-txt", ".txt: one block of short lines (1.8M lines)", lambda: hostile.text_short_lines(".txt", FULL)),
    ("1", "lines-txt-2mb", ".txt: one block of 400,000 short lines (within the unit budget)",
     lambda: hostile.text_short_lines(".txt", 2_000_000)),
    ("1", "lines-md-list", "Markdown: one list of short items", lambda: hostile.text_short_lines(".md-list", FULL)),
    ("1", "lines-md-fence", "Markdown: one fenced block of short lines", lambda: hostile.text_short_lines(".md-fence", FULL)),
    ("1", "lines-md-table", "Markdown: one table of short rows", lambda: hostile.text_short_lines(".md-table", FULL)),
    ("1", "lines-rst-fields", "rST: one field list", lambda: hostile.text_short_lines(".rst-fields", FULL)),
    ("1", "lines-html-pre", "HTML: one `<pre>` of short lines", lambda: hostile.text_short_lines(".html-pre", FULL)),
    ("2", "role-sniff", ".txt: `:a-` repeated on one line", lambda: hostile.text_role_sniff(FULL)),
    ("3", "named-ref", "rST: `a.` repeated, then `_`", lambda: hostile.rst_named_reference(FULL)),
    ("4", "wide-table", "rST: simple table, 100,000 columns", lambda: hostile.rst_wide_table()),
    ("5", "csv-header", "CSV: 50 header names of 2,000 characters", lambda: hostile.csv_long_header(FULL)),
    ("6", "svg-end-tags", "HTML: open `<svg>`s, then stray `</math>`", lambda: hostile.html_svg_end_tags(FULL)),
    ("7", "backticks", "Markdown: backtick runs no later line closes", lambda: hostile.markdown_lone_backticks(FULL)),
    ("8", "quote-run", "Markdown: a run of `>`", lambda: hostile.markdown_quote_run(FULL)),
    ("9", "units-csv", "CSV: one-word rows", lambda: hostile.many_units("csv", FULL)),
    ("9", "units-json", "JSON: an array of one-word strings", lambda: hostile.many_units("json", FULL)),
    ("9", "units-jsonl", "JSONL: one-word records", lambda: hostile.many_units("jsonl", FULL)),
    ("9", "units-headings", "Markdown: a heading and a word, repeated", lambda: hostile.many_units("headings", FULL)),
    ("9", "units-paragraphs", ".txt: one-word paragraphs", lambda: hostile.many_units("paragraphs", FULL)),
    ("10", "csv-big-cell", "CSV: one cell of 9 MB", lambda: hostile.csv_big_field(FULL)),
    ("25", "long-word-ask", "`ask --mode parallel` on a passage holding one 9 MB hex word", lambda: hostile.long_hex_word(FULL)),
    ("26", "open-span", "rST: interpreted text left open, then 9M spaces", lambda: hostile.rst_open_span_spaces(FULL)),
    ("27", "template-openings", "HTML: `{#` repeated", lambda: hostile.html_comment_openings(FULL)),
]
ASKED = frozenset({"long-word-ask"})

#: Issue 37, question time: the token kinds, each in a folder of its own.
START_TOKENS = "<!-- bench:hostile-inputs-long-tokens -->"
END_TOKENS = "<!-- /bench:hostile-inputs-long-tokens -->"
TOKEN_KINDS = ("none", "letters", "digits", "cjk", "base64", "url")  # "none": the same page with a short word, the baseline
TOKEN_SIZE = 100_000
#: (label, command line after ``agentic-rag``, target seconds)
TOKEN_COMMANDS = (
    ("search", ["search", "firmware checksum", "--json"], 0.5),
    ("ask, agentic", ["ask", "what is the firmware checksum", "--mode", "agentic", "--json"], 1.0),
    ("ask, parallel", ["ask", "what is the firmware checksum", "--mode", "parallel", "--json"], 1.0),
)

_CHILD = textwrap.dedent("""
    import json, resource, sys, time
    sys.path.insert(0, {src!r})
    started = time.perf_counter()
    from agentic_rag._ingest import chunk_sections, parse_source, read_source
    path, within, suffix = sys.argv[1], sys.argv[2], sys.argv[3]
    source = read_source(path, within=within)
    if source.problem:
        outcome, chunks, notes = "refused: " + source.problem, 0, ()
    else:
        parsed = parse_source(source.data, suffix)
        found = chunk_sections(parsed.sections, "f" + suffix, line_marks=parsed.extracted) if not parsed.problem else ()
        outcome = ("refused: " + parsed.problem) if parsed.problem else "read"
        chunks, notes = len(found), parsed.notes
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    try:  # VmHWM is this program's own peak (ru_maxrss on Linux keeps the parent's across exec)
        with open("/proc/self/status") as status:
            peak = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration, ValueError):
        pass
    print(json.dumps({{"seconds": seconds, "peak_mb": peak, "outcome": outcome, "chunks": chunks, "notes": list(notes)}}))
""")


_ASK_CHILD = textwrap.dedent("""
    import contextlib, io, json, resource, sys, time
    sys.path.insert(0, {src!r})
    from agentic_rag._interfaces.cli import main
    path, within, suffix = sys.argv[1], sys.argv[2], sys.argv[3]
    store = within + "-store"
    with contextlib.redirect_stdout(io.StringIO()):
        main(["index", within, "--store", store, "--vectors", "--quiet"])
    started = time.perf_counter()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["ask", "what is the firmware checksum", "--store", store, "--mode", "parallel", "--json"])
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    try:
        with open("/proc/self/status") as status:
            peak = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration, ValueError):
        pass
    status = json.loads(out.getvalue()).get("status", "?") if code == 0 else "exit %d" % code
    print(json.dumps({{"seconds": seconds, "peak_mb": peak, "outcome": "asked: " + status, "chunks": 0, "notes": []}}))
""")


def run_case(folder: Path, name: str, build) -> dict:
    """Write the case's file under ``folder`` and read it in a child process."""
    inside = folder / "kb"
    inside.mkdir(exist_ok=True)
    if build is None:  # row 11: the walk saw a link inside; it points outside when read
        (inside / "inside.md").write_text("inside\n", encoding="utf-8")
        (folder / "secret.md").write_text("outside secret\n", encoding="utf-8")
        target = inside / f"{name}.md"
        os.symlink(folder / "secret.md", target)
        suffix, size = ".md", target.stat().st_size
    else:
        suffix, data = build()
        target = inside / f"{name}{suffix}"
        target.write_bytes(data)
        size = len(data)
    child = _ASK_CHILD if name in ASKED else _CHILD
    done = subprocess.run([sys.executable, "-c", child.format(src=str(ROOT / "src")), str(target), str(inside), suffix],
                          capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        return {"seconds": float("nan"), "peak_mb": float("nan"), "outcome": f"child failed: {done.stderr.strip().splitlines()[-1:]}",
                "chunks": 0, "notes": [], "size": size}
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["size"] = size
    return result


def run_token_case(folder: Path, kind: str, runs: int) -> dict[str, float]:
    """Index a folder holding one :data:`TOKEN_SIZE` token of ``kind``, then time each command
    of :data:`TOKEN_COMMANDS` in fresh processes: ``{label: median wall seconds}`` (NaN for a
    command that failed)."""
    kb = folder / "kb"
    kb.mkdir()
    suffix, data = hostile.long_token_markdown("letters" if kind == "none" else kind, 12 if kind == "none" else TOKEN_SIZE)
    (kb / f"firmware{suffix}").write_bytes(data)
    (kb / "notes.md").write_text("# Release notes\n\nVersion 2.1 adds a checksum command.\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}

    def agentic_rag(argv: list[str]) -> tuple[float, int]:
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "agentic_rag", *argv], cwd=folder, env=env, capture_output=True, timeout=600, check=False)
        return time.perf_counter() - started, done.returncode

    _, code = agentic_rag(["index", "kb", "--quiet"])
    if code != 0:
        return {label: float("nan") for label, _, _ in TOKEN_COMMANDS}
    out = {}
    for label, argv, _ in TOKEN_COMMANDS:
        timed = [agentic_rag(argv) for _ in range(runs)]
        out[label] = statistics.median(s for s, _ in timed) if all(c == 0 for _, c in timed) else float("nan")
    return out


def token_table(results: list[tuple[str, dict[str, float]]]) -> str:
    header = " | ".join(f"{label} (s)" for label, _, _ in TOKEN_COMMANDS)
    rows = [f"| token ({TOKEN_SIZE // 1000} KB) | {header} | within {' / '.join(f'{t:g} s' for _, _, t in TOKEN_COMMANDS)} |",
            "|---" * (len(TOKEN_COMMANDS) + 2) + "|"]
    for kind, seconds in results:
        within = all(seconds[label] <= target for label, _, target in TOKEN_COMMANDS)
        rows.append(f"| {kind} | " + " | ".join(f"{seconds[label]:.2f}" for label, _, _ in TOKEN_COMMANDS) + f" | {'yes' if within else '**no**'} |")
    return "\n".join(rows)


def _run_tokens(only: list[str], runs: int) -> list[tuple[str, dict[str, float]]]:
    results = []
    with tempfile.TemporaryDirectory(prefix="agentic-rag-tokens-") as tmp:
        for kind in TOKEN_KINDS:
            if only and kind not in only:
                continue
            folder = Path(tmp) / kind
            folder.mkdir()
            seconds = run_token_case(folder, kind, runs)
            results.append((kind, seconds))
            print(f"{kind:10} " + "  ".join(f"{label} {value:.2f} s" for label, value in seconds.items()), flush=True)
    return results


def _size(count: int) -> str:
    return f"{count / 1024 / 1024:.1f} MB" if count >= 1024 * 1024 else f"{count / 1024:.1f} KB" if count >= 1024 else f"{count} B"


def _outcome(result: dict) -> str:
    text = result["outcome"]
    if text == "read":
        text = f"read, {result['chunks']:,} chunk{'s' if result['chunks'] != 1 else ''}"
        if result["notes"]:
            text += "; " + result["notes"][0]
    return text.replace("|", "/")[:160]


def table(results: list[tuple[str, str, str, dict]]) -> str:
    rows = ["| row | input | file | outcome | seconds | peak RSS (MB) | within 10 s / 512 MB |", "|---|---|---|---|---|---|---|"]
    for row, _name, what, result in results:
        ok = result["seconds"] <= BUDGET_S and result["peak_mb"] <= BUDGET_MB
        rows.append(f"| {row} | {what} | {_size(result['size'])} | {_outcome(result)} | {result['seconds']:.2f} | {result['peak_mb']:.0f} | "
                    f"{'yes' if ok else '**no**'} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], help="run only the cases with this name (repeatable)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    parser.add_argument("--round", choices=("2", "3", "tokens", "all"), default="all",
                        help="which hardening round's inputs to run, or the long tokens at question time (default all)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each long-token command; the median is reported (default 3)")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    rounds = ("2", "3", "tokens") if args.round == "all" else (args.round,)
    ok = True
    for number in rounds:
        if number == "tokens":
            measured = _run_tokens(args.only, max(1, args.runs))
            text = token_table(measured)
            print()
            print(text)
            ok = ok and all(seconds[label] <= target for _, seconds in measured for label, _, target in TOKEN_COMMANDS)
            if not args.no_write and not args.only:
                _write_tokens_section(text, load, max(1, args.runs))
            continue
        results = _run(CASES if number == "2" else CASES_3, args.only)
        text = table(results)
        print()
        print(text)
        ok = ok and all(r["seconds"] <= BUDGET_S and r["peak_mb"] <= BUDGET_MB for _, _, _, r in results)
        if not args.no_write and not args.only:
            _write_section(number, text, load)
    return 0 if ok else 1


def _run(cases: list, only: list[str]) -> list[tuple[str, str, str, dict]]:
    results = []
    with tempfile.TemporaryDirectory(prefix="agentic-rag-hostile-") as tmp:
        for row, name, what, build in cases:
            if only and name not in only:
                continue
            folder = Path(tmp) / name
            folder.mkdir()
            result = run_case(folder, name, build)
            results.append((row, name, what, result))
            print(f"{row:>3} {name:18} {result['seconds']:7.2f} s {result['peak_mb']:6.0f} MB  {_outcome(result)}", flush=True)
    return results


def _write_tokens_section(text: str, load: float | None, runs: int) -> None:
    started = f"{os.cpu_count()} cores" + (f"; 1-minute load average {load:.1f} when it started." if load is not None else ".")
    section = "\n".join([
        "## Hostile inputs at question time: one long token",
        "",
        f"Command: `python bench/ingestion/bench_hostile_inputs.py --round tokens --runs {runs}`; date: {datetime.date.today().isoformat()}; "
        f"CPython {platform.python_version()}, {started}",
        f"A folder holding one {TOKEN_SIZE:,}-character token (no white space in it) on a line between two sentences about a firmware "
        "checksum, and a short second file, is indexed (row `none`: the same folder with a 12-letter word for the token, the "
        "baseline); then each command runs as an agent runs it, in a fresh process "
        f"(`python -m agentic_rag ... --json`), and the table gives the median wall-clock seconds of {runs} runs, interpreter start-up "
        "included. Targets (issue 37): `search` at most 0.5 s, `ask` at most 1 s.",
        "",
        text,
    ])
    replace_section(ROOT / "docs" / "benchmarks.md", START_TOKENS, END_TOKENS, section)


def _write_section(number: str, text: str, load: float | None) -> None:
    command = f"python bench/ingestion/bench_hostile_inputs.py --round {number}"
    started = (f"{os.cpu_count()} cores" + (f"; 1-minute load average {load:.1f} when it started." if load is not None else "."))
    if number == "3":
        section = "\n".join([
            "## Hostile inputs, round 3: the text formats",
            "",
            f"Command: `{command}`; date: {datetime.date.today().isoformat()}; CPython {platform.python_version()}, {started}",
            "Each crafted input of hardening round 3 (issue 28, rows 1-10 and 25-27) is built at about 9 MB and read by a fresh "
            "process as an index run reads it (`read_source`, `parse_source` with the default `IngestLimits`, `chunk_sections`); "
            "row 25's child indexes its file, then times `ask --mode parallel` alone. Seconds and peak resident memory are the "
            "child's own (the interpreter included). The machine was shared with other jobs when this ran (see the load "
            "average): seconds are noisy and high; memory is not.",
            "",
            text,
        ])
        replace_section(ROOT / "docs" / "benchmarks.md", START_3, END_3, section)
        return
    section = "\n".join([
        "## Hostile inputs: one work budget per file",
        "",
        f"Command: `{command}`; date: {datetime.date.today().isoformat()}; CPython {platform.python_version()}, "
        f"{os.cpu_count()} cores" + (f"; 1-minute load average {load:.1f} when it started." if load is not None else "."),
        "Each crafted file of hardening round 2 (ingest rows) is built at full size and read by a fresh process as an index run "
        "reads it (`read_source` inside its folder, `parse_source` with the default `IngestLimits`, `chunk_sections`); "
        "seconds and peak resident memory are the child's own (the interpreter included).",
        "",
        text,
    ])
    replace_section(ROOT / "docs" / "benchmarks.md", START, END, section)


if __name__ == "__main__":
    raise SystemExit(main())
