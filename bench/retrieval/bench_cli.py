"""How fast the command line starts and answers.

Measures, each in fresh processes as a user runs them:

1. the import time of the CLI module (``python -X importtime -c "import agentic_rag._interfaces.cli"``,
   cumulative microseconds of that module), median of ``--runs`` processes;
2. the import time of the bare package (``import agentic_rag``);
3. the wall time of ``agentic-rag --help``;
4. ``agentic-rag ask`` end to end (process start to exit) on a store of real documentation
   (one project of the docs-QA set, about 300 chunks), in both modes, median and p90 over
   ``--questions`` questions of that project.

Targets (issue "speed and retrieval quality"): CLI import <= 120 ms, ``ask`` median <= 0.25 s.

Usage::

    python bench/retrieval/bench_cli.py [--runs 9] [--questions 20] [--project structlog] [--no-write]
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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # the bench package (repository root)

from bench.benchmark_doc import replace_section  # noqa: E402

DATA = ROOT / "bench" / "data" / "docs_qa"
DOC = ROOT / "docs" / "benchmarks.md"
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTHONDONTWRITEBYTECODE": "0"}


def import_time_ms(module: str) -> float:
    """Cumulative import time of ``module`` in a fresh interpreter, in milliseconds."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                          capture_output=True, text=True, env=ENV, check=True)
    for line in reversed(done.stderr.splitlines()):
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 3 and parts[2] == module:
            return int(parts[1]) / 1000.0
    raise RuntimeError(f"no import-time line for {module}")


def wall_s(args: list[str]) -> float:
    """Wall time of one CLI process, in seconds."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "agentic_rag", *args], capture_output=True, text=True, env=ENV, check=True)
    return time.perf_counter() - start


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.9 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--project", default="structlog")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()

    # Warm the bytecode cache once so every measured run reads .pyc files, as an installed
    # package does.
    import_time_ms("agentic_rag._interfaces.cli")
    cli_ms = [import_time_ms("agentic_rag._interfaces.cli") for _ in range(args.runs)]
    root_ms = [import_time_ms("agentic_rag") for _ in range(args.runs)]
    help_s = [wall_s(["--help"]) for _ in range(args.runs)]

    questions = [json.loads(line) for line in (DATA / "questions.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    questions = [q["question"] for q in questions if q["project"] == args.project][: args.questions]
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        store = str(Path(tmp) / "store")
        report = subprocess.run([sys.executable, "-m", "agentic_rag", "index", str(DATA / args.project), "--store", store,
                                 "--corpus", args.project, "--vectors", "--quiet", "--json"],
                                capture_output=True, text=True, env=ENV, check=True)
        chunks = json.loads(report.stdout)["chunks_added"]
        ask = {mode: [wall_s(["ask", q, "--store", store, "--mode", mode, "--json"]) for q in questions]
               for mode in ("agentic", "parallel")}

    rows = [
        ("import agentic_rag._interfaces.cli (ms, median)", f"{statistics.median(cli_ms):.1f}", "<= 120"),
        ("import agentic_rag (ms, median)", f"{statistics.median(root_ms):.1f}", ""),
        ("agentic-rag --help wall (s, median)", f"{statistics.median(help_s):.3f}", ""),
    ]
    for mode, times in ask.items():
        rows.append((f"agentic-rag ask --mode {mode} wall (s, median)", f"{statistics.median(times):.3f}", "<= 0.25"))
        rows.append((f"agentic-rag ask --mode {mode} wall (s, p90)", f"{p90(times):.3f}", ""))
    width = max(len(r[0]) for r in rows)
    print(f"store: {args.project} docs, {chunks} chunks; {len(questions)} questions; {args.runs} runs per start-up figure")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>8}  {target}")
    if args.no_write:
        return
    command = f"python bench/retrieval/bench_cli.py --runs {args.runs} --questions {args.questions} --project {args.project}"
    table = "\n".join(f"| {name} | {value} | {target} |" for name, value, target in rows)
    text = f"""## Command-line start-up and ask latency

Command: `{command}` ({datetime.date.today().isoformat()}, Python {platform.python_version()},
{os.cpu_count()} CPUs). Every figure is a fresh process, as a user runs it; the store holds the
{args.project} documentation from its PyPI sdist ({chunks} chunks, BM25 and hashed vectors),
asked {len(questions)} of the docs-QA questions about it.

| figure | measured | target |
|---|---|---|
{table}
"""
    replace_section(DOC, "<!-- bench:cli -->", "<!-- /bench:cli -->", text)
    print(f"wrote {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
