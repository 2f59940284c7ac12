"""What ``agentic-rag show`` costs as the store grows, and against ``search``.

``show`` reads one file's chunk rows by path and line range, never an index file, so its cost
should follow the request, not the store. Measured on generated Markdown stores of growing
size (``--files`` small files, plus one long file of ``--long`` paragraphs):

1. ``show`` in-process (:func:`~agentic_rag._interfaces.show_span.show_location`) of a
   three-line span of a random small file, median and p90 over ``--calls`` calls;
2. the same for a span in the middle of the long file;
3. ``agentic-rag show`` and ``agentic-rag search`` as fresh processes (wall, median of
   ``--runs``) on the largest store.

Usage::

    python bench/retrieval/bench_show.py [--files 100 1000 4000] [--long 3000] [--calls 200] [--runs 5] [--no-write]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.benchmark_doc import replace_section  # noqa: E402

DOC = ROOT / "docs" / "benchmarks.md"
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
WORDS = "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega vector index store chunk query".split()


def write_files(folder: Path, files: int, long: int, rng: random.Random) -> None:
    """``files`` Markdown files of 12 paragraphs, and ``long.md`` of ``long`` paragraphs."""
    def paragraph(n: int) -> str:
        return "\n".join(" ".join(rng.choice(WORDS) for _ in range(10)) + f" item{n}x{k}." for k in range(3))

    for i in range(files):
        sub = folder / f"part{i % 20:02d}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"page{i:05d}.md").write_text(f"# Page {i}\n\n" + "\n\n".join(paragraph(p) for p in range(12)) + "\n", encoding="utf-8")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "long.md").write_text("# Long\n\n" + "\n\n".join(paragraph(p) for p in range(long)) + "\n", encoding="utf-8")


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.9 * (len(ordered) - 1))))]


def wall_s(args: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "agentic_rag", *args], capture_output=True, text=True, env=ENV, check=True, cwd=cwd)
    return time.perf_counter() - start


def main() -> None:
    from agentic_rag._interfaces.show_span import show_location
    from agentic_rag._store import KnowledgeStore

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, nargs="+", default=[100, 1000, 4000])
    parser.add_argument("--long", type=int, default=3000)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()

    rows = []
    processes: dict[str, float] = {}
    for files in args.files:
        rng = random.Random(files)
        with tempfile.TemporaryDirectory(prefix="bench-show-") as tmp:
            root = Path(tmp)
            write_files(root / "docs", files, args.long, rng)
            store = KnowledgeStore(root / ".agentic-rag", base=root)
            report = store.index([root / "docs"])
            small = [f"docs/part{i % 20:02d}/page{i:05d}.md" for i in range(files)]
            long_lines = 2 + 4 * args.long
            timings: dict[str, list[float]] = {"small file": [], "long file": []}
            for _ in range(args.calls):
                for kind, location in (("small file", f"{rng.choice(small)}:{(start := 3 + 4 * rng.randrange(12))}-{start + 2}"),
                                       ("long file", f"docs/long.md:{(mid := 3 + 4 * rng.randrange(args.long // 3, 2 * args.long // 3))}-{mid + 2}")):
                    begin = time.perf_counter()
                    show_location(store.directory, location, root=root)
                    timings[kind].append((time.perf_counter() - begin) * 1000)
            for kind, values in timings.items():
                rows.append((f"{report.chunks_added:,}", f"{files + 1:,}", kind, f"{statistics.median(values):.2f}", f"{p90(values):.2f}"))
            if files == max(args.files):
                location = f"{small[0]}:3-5"
                processes["agentic-rag show PATH:3-5"] = statistics.median(wall_s(["show", location], root) for _ in range(args.runs))
                processes["agentic-rag search QUERY -k 5"] = statistics.median(wall_s(["search", "gamma kappa item7x1", "-k", "5"], root)
                                                                              for _ in range(args.runs))
                biggest = (report.chunks_added, files + 1, long_lines)

    header = "| chunks in store | files | span in | show median (ms) | show p90 (ms) |"
    table = "\n".join(f"| {' | '.join(row)} |" for row in rows)
    process_table = "\n".join(f"| {name} | {value:.3f} |" for name, value in processes.items())
    print(header)
    print(table)
    print(process_table)
    if args.no_write:
        return
    command = f"python bench/retrieval/bench_show.py --files {' '.join(map(str, args.files))} --long {args.long} --calls {args.calls} --runs {args.runs}"
    text = f"""## Reading a cited span back (`show`)

Command: `{command}` ({datetime.date.today().isoformat()}, Python {platform.python_version()},
{os.cpu_count()} CPUs, shared with other jobs while measured: timings are noisy). Generated
Markdown stores: small files of 12 three-line paragraphs, plus one long file of {args.long}
paragraphs ({biggest[2]:,} lines). Each call shows a three-line span in-process, opening the
store's database as a command does ({args.calls} calls per row); `show` reads that file's chunk
rows by path and line range, never the BM25 index.

{header}
|---|---|---|---|---|
{table}

Fresh processes on the largest store ({biggest[0]:,} chunks, {biggest[1]:,} files), median of
{args.runs} runs (wall, s):

| command | wall (s) |
|---|---|
{process_table}
"""
    replace_section(DOC, "<!-- bench:show -->", "<!-- /bench:show -->", text)
    print(f"wrote {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
