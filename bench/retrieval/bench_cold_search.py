"""What one ``search`` or ``ask`` costs an agent that starts a new process per call, by store size.

Measures, each command in a fresh process as an agent runs it:

1. indexing a real folder into a new store (``agentic-rag index``): wall and CPU seconds of the
   process, and the folder's HTML source megabytes per CPU second and per wall second;
2. the store's size on disk against the indexed text (the chunks' UTF-8 bytes);
3. cold ``search --json``: median wall time over ``--runs`` queries (the folder's own section
   headings, a fixed sample), side by side with a cold standard-library ``sqlite3`` FTS5 query
   over the same chunk texts (a new process opening an FTS5 table and reading the 10 best rows);
4. cold ``ask --json`` in both modes: median wall time;
5. the peak resident memory of every search and ask process (``ru_maxrss`` from ``wait4``);
6. re-indexing after one file changed (wall and CPU seconds of the index process);
7. a warm ``search`` through the MCP server (the server keeps the store open), at the tool's
   default ``k`` and at ``k=10``, each of 30 queries asked once (a query asked again would be
   served partly from the server's caches): median round trip over stdio;
8. ``--synthetic N`` chunks (default 1,000,000; 0 skips): generated passages (the sentence pool
   of ``bench_scale.py``, from the shared corpora) written as JSONL files and indexed with the
   CLI, then cold ``search`` median and peak memory.

Targets (issue "search whose cost per call does not grow with the folder"): cold search at 10k
chunks <= 0.25 s and <= 1.5x FTS5; at 1M chunks <= 0.5 s; cold ask at 10k <= 0.5 s; peak RSS of
a search or ask <= 100 MB; HTML indexing >= 4 MB/s; store <= 2x the indexed text; re-index of one
changed file <= 0.5 s; warm MCP search <= 20 ms.

Usage::

    python bench/retrieval/bench_cold_search.py --folder DIR [--runs 9] [--synthetic N] [--no-write]

``--folder`` should be a real documentation folder of at least 1,000 files; the figures here
were taken on the Python 3.11 HTML manual (Debian's ``python3.11-doc`` package).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # the bench package (repository root)

from bench.benchmark_doc import replace_section  # noqa: E402

DOC = ROOT / "docs" / "benchmarks.md"
# Byte-code caches are written, as an installed package has them (a shell may turn them off).
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONPATH": str(ROOT / "src")}
CLI = [sys.executable, "-m", "agentic_rag"]
_FTS_QUERY = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT rowid, text FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 10", (sys.argv[2],)).fetchall()
print(len(rows))
"""


# Runs the measured command from a small process: the peak memory the kernel reports for a
# child includes what the process that started it held before exec, so a command started
# straight from this (large) benchmark process would be charged for the benchmark's memory.
_LAUNCH = """
import json, os, sys, time
started = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(json.dumps([time.perf_counter() - started, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, os.waitstatus_to_exitcode(status)]), file=sys.stderr)
"""


def measured(command: list[str], cwd: Path | None = None) -> tuple[float, float, int, str]:
    """Run ``command`` in a new process; return its wall seconds, CPU seconds (its workers'
    included), peak RSS (KiB) and stdout."""
    done = subprocess.run([sys.executable, "-c", _LAUNCH, *command], env=ENV, cwd=cwd, capture_output=True)
    *lines, last = done.stderr.decode("utf-8", "replace").rstrip("\n").split("\n")
    wall, cpu, peak, code = json.loads(last)
    if code != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {chr(10).join(lines)[-2000:]}")
    return wall, cpu, peak, done.stdout.decode("utf-8", "replace")


def store_size(store: Path) -> int:
    """Bytes of every file in the store folder, after folding the WAL into the database."""
    with sqlite3.connect(store / "store.sqlite3") as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return sum(p.stat().st_size for p in store.iterdir() if p.is_file())


def chunk_texts(store: Path) -> list[str]:
    sys.path.insert(0, str(ROOT / "src"))
    from agentic_rag._store import KnowledgeStore

    return [d.text for d in KnowledgeStore(store).documents()]


def heading_queries(store: Path, count: int, seed: int = 7) -> list[str]:
    """A fixed sample of the folder's section headings (two words or more), as agents ask them."""
    with sqlite3.connect(store / "store.sqlite3") as db:
        sections = sorted({row[0].split(" \u203a ")[-1] for row in db.execute("SELECT DISTINCT section FROM chunks")})
    usable = [s for s in sections if len(re.findall(r"[A-Za-z]{3,}", s)) >= 2]
    return random.Random(seed).sample(usable, min(count, len(usable)))


def fts_database(texts: list[str], path: Path) -> bool:
    """An FTS5 table of ``texts`` at ``path``; False when this sqlite3 has no FTS5."""
    try:
        with sqlite3.connect(path) as db:
            db.execute("CREATE VIRTUAL TABLE docs USING fts5(text)")
            db.executemany("INSERT INTO docs (text) VALUES (?)", ((t,) for t in texts))
    except sqlite3.OperationalError:
        return False
    return True


def fts_query(query: str) -> str:
    return " OR ".join(f'"{w}"' for w in re.findall(r"\w+", query.lower())) or '""'


def cold(commands: list[list[str]], cwd: Path | None = None) -> dict[str, float]:
    """Median and worst wall time and the peak RSS (MB) over fresh processes."""
    walls, cpus, peaks = [], [], []
    for command in commands:
        wall, cpu, peak, _ = measured(command, cwd)
        walls.append(wall)
        cpus.append(cpu)
        peaks.append(peak / 1024)
    return {"median": statistics.median(walls), "max": max(walls), "cpu": statistics.median(cpus), "rss": max(peaks), "n": len(walls)}


def mcp_warm(store: Path, queries: list[str], k: int) -> float:
    """Median round trip of a ``search`` tool call with ``k`` hits to a running server: three
    warm-up calls, then each query once (no query is asked twice, so no call is served by what an
    earlier call of the same query left in the server's caches)."""
    from bench.retrieval.soak_mcp import Client  # the soak's stdio client

    client = Client(store, store.parent / "mcp.log")
    try:
        client.send(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                                "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}))
        client.receive(60)
        client.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        times = []
        warm_up = ["configuration options", "command line interface", "error handling"]
        for n, query in enumerate(warm_up + queries, start=1):
            started = time.perf_counter()
            client.send(json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": "search", "arguments": {"query": query, "k": k}}}))
            answer = json.loads(client.receive(60))
            if "error" in answer:
                raise RuntimeError(f"MCP search failed: {answer['error']}")
            if n > len(warm_up):
                times.append(time.perf_counter() - started)
        return statistics.median(times)
    finally:
        client.close()


def real_folder(folder: Path, runs: int, work: Path) -> dict[str, Any]:
    copy = work / "docs"
    shutil.copytree(folder, copy)
    store = work / "store"
    files = [p for p in copy.rglob("*") if p.is_file()]
    html = sum(p.stat().st_size for p in files if p.suffix.lower() in {".html", ".htm"})
    wall, cpu, _, _ = measured(CLI + ["index", str(copy), "--store", str(store), "--quiet"])
    texts = chunk_texts(store)
    r: dict[str, Any] = {"files": len(files), "html_mb": html / 1e6, "index_wall": wall, "index_cpu": cpu, "chunks": len(texts),
                         "text_mb": sum(len(t.encode("utf-8")) for t in texts) / 1e6, "store_mb": store_size(store) / 1e6}
    queries = heading_queries(store, runs)
    r["queries"] = len(queries)
    r["search"] = cold([CLI + ["search", q, "--store", str(store), "--json"] for q in queries])
    r["ask"] = cold([CLI + ["ask", q, "--store", str(store), "--json"] for q in queries])
    r["ask_parallel"] = cold([CLI + ["ask", q, "--store", str(store), "--json", "--mode", "parallel"] for q in queries])
    fts = work / "fts.sqlite3"
    if fts_database(texts, fts):
        r["fts"] = cold([[sys.executable, "-c", _FTS_QUERY, str(fts), fts_query(q)] for q in queries])
    changed = sorted(p for p in files if p.suffix.lower() in {".html", ".htm", ".md", ".rst", ".txt"})[len(files) // 2]
    changed.write_text(changed.read_text(encoding="utf-8", errors="replace") + "\n<p>One more paragraph about configuration.</p>\n",
                       encoding="utf-8")
    r["reindex_wall"], r["reindex_cpu"], _, _ = measured(CLI + ["index", str(copy), "--store", str(store), "--quiet"])
    # Distinct queries for the warm server: 30 headings of another sample.
    warm_queries = [q for q in heading_queries(store, 30 + len(queries), seed=11) if q not in queries][:30]
    from agentic_rag._interfaces.ask_mode import DEFAULT_HITS  # the search tool's default k (src is on the path: chunk_texts)

    r["mcp_warm"] = mcp_warm(store, warm_queries, DEFAULT_HITS)
    r["mcp_warm_10"] = mcp_warm(store, warm_queries, 10)
    return r


def synthetic(size: int, runs: int, work: Path) -> dict[str, Any] | None:
    from bench.retrieval.bench_scale import DATA, passages, real_queries, sentence_pool  # the scale benchmark's generator

    if not (DATA / "scifact" / "corpus.jsonl.gz").exists():
        print("the shared corpora are absent: the synthetic store is skipped")
        return None
    folder = work / "synthetic"
    folder.mkdir()
    pool, _ = sentence_pool()
    per_file = 100  # a hit's file is read to place its lines: small files, as real ones are
    handle = None
    for n, document in enumerate(passages(pool, size)):
        if n % per_file == 0:
            if handle is not None:
                handle.close()
            handle = (folder / f"part{n // per_file:05d}.jsonl").open("w", encoding="utf-8")
        handle.write(json.dumps({"id": document.id, "text": document.text}) + "\n")  # type: ignore[union-attr]
    if handle is not None:
        handle.close()
    store = work / "synthetic-store"
    wall, cpu, _, _ = measured(CLI + ["index", str(folder), "--store", str(store), "--quiet"])
    with sqlite3.connect(store / "store.sqlite3") as db:
        chunks = db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
    queries = real_queries(runs)
    return {"size": size, "chunks": chunks, "index_wall": wall, "index_cpu": cpu, "store_mb": store_size(store) / 1e6,
            "search": cold([CLI + ["search", q, "--store", str(store), "--json"] for q in queries])}


def _row(label: str, value: str, target: str, met: bool | None) -> str:
    mark = "" if met is None else (" (met)" if met else " (**missed**)")
    return f"| {label} | {value} | {target}{mark} |"


def report(real: dict[str, Any] | None, synth: dict[str, Any] | None, command: str, load: float | None, name: str = "") -> str:
    rows = ["| measure | value | target |", "|---|---|---|"]
    if real is not None:
        rows += _real_rows(real)
    if synth is not None:
        ss = synth["search"]
        target = 0.5 if synth["size"] >= 1_000_000 else None
        rows += [
            _row(f"synthetic store: {synth['chunks']:,} chunks indexed (wall / CPU)", f"{synth['index_wall']:.0f} s / {synth['index_cpu']:.0f} s; "
                 f"{synth['store_mb']:.0f} MB on disk", "", None),
            _row(f"cold `search` at {synth['chunks']:,} chunks, median (max); peak RSS", f"{ss['median']:.3f} s ({ss['max']:.3f} s); CPU {ss['cpu']:.3f} s; {ss['rss']:.0f} MB",
                 "<= 0.5 s (at 1M), <= 100 MB", None if target is None else (ss["median"] <= target and ss["rss"] <= 100)),
        ]
    shared = f"load average {load:.1f} on {os.cpu_count()} cores at the start" if load is not None else f"{os.cpu_count()} cores"
    queries = f"{real['queries']} queries (the folder's own section headings)" if real is not None else f"{synth['search']['n'] if synth else 0} queries"
    return "\n".join([
        "## Cold search, ask and indexing by store size",
        "",
        f"`{command}` on {datetime.date.today().isoformat()}, Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
        f"{shared}. {f'DIR: {name}. ' if name and real is not None else ''}"
        f"Every search, ask and FTS5 query is a new process, as an agent runs them; {queries}. "
        "Wall times on a shared machine are noisy: CPU seconds are given beside them.",
        "",
        *rows,
    ])


def _real_rows(real: dict[str, Any]) -> list[str]:
    s, a, p = real["search"], real["ask"], real["ask_parallel"]
    fts = real.get("fts")
    rows = [
        _row(f"index {real['files']:,} files ({real['html_mb']:.1f} MB HTML), HTML MB per CPU second",
             f"{real['html_mb'] / real['index_cpu']:.2f} (wall {real['html_mb'] / real['index_wall']:.2f})", ">= 4", real["html_mb"] / real["index_cpu"] >= 4),
        _row(f"store on disk / indexed text ({real['chunks']:,} chunks, {real['text_mb']:.1f} MB text)",
             f"{real['store_mb']:.1f} MB / {real['text_mb']:.1f} MB = {real['store_mb'] / real['text_mb']:.2f}x", "<= 2x", real["store_mb"] <= 2 * real["text_mb"]),
        _row("cold `search`, median (max) of new processes", f"{s['median']:.3f} s ({s['max']:.3f} s); CPU {s['cpu']:.3f} s", "<= 0.25 s", s["median"] <= 0.25),
    ]
    if fts is not None:
        ratio = s["median"] / fts["median"]
        rows.append(_row("cold FTS5 query over the same text, median", f"{fts['median']:.3f} s; CPU {fts['cpu']:.3f} s (search is {ratio:.2f}x, CPU {s['cpu'] / fts['cpu']:.2f}x)", "search <= 1.5x", ratio <= 1.5))
    else:
        rows.append(_row("cold FTS5 query", "this sqlite3 has no FTS5", "", None))
    rows += [
        _row("cold `ask` (agentic), median (max)", f"{a['median']:.3f} s ({a['max']:.3f} s); CPU {a['cpu']:.3f} s", "<= 0.5 s", a["median"] <= 0.5),
        _row("cold `ask --mode parallel`, median (max)", f"{p['median']:.3f} s ({p['max']:.3f} s); CPU {p['cpu']:.3f} s", "<= 0.5 s", p["median"] <= 0.5),
        _row("peak RSS of one search / ask / parallel ask", f"{s['rss']:.0f} / {a['rss']:.0f} / {p['rss']:.0f} MB", "<= 100 MB",
             max(s["rss"], a["rss"], p["rss"]) <= 100),
        _row("re-index after one file changed (wall / CPU of the process)", f"{real['reindex_wall']:.2f} s / {real['reindex_cpu']:.2f} s", "<= 0.5 s",
             real["reindex_wall"] <= 0.5),
        _row("warm `search` through the MCP server (the tool's default k=5), median round trip of 30 distinct queries",
             f"{real['mcp_warm'] * 1000:.1f} ms", "<= 20 ms", real["mcp_warm"] <= 0.02),
        _row("warm `search` through the MCP server, k=10, the same queries", f"{real['mcp_warm_10'] * 1000:.1f} ms", "(no target)", None),
    ]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folder", type=Path, help="a real documentation folder (>= 1,000 files); without it only the synthetic store is measured")
    parser.add_argument("--name", default="", help="what the folder is, for the report (e.g. which manual)")
    parser.add_argument("--runs", type=int, default=9, help="queries (new processes) per measurement")
    parser.add_argument("--synthetic", type=int, default=1_000_000, help="synthetic chunks (0 skips)")
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    with tempfile.TemporaryDirectory(prefix="agentic-rag-cold-") as tmp:
        work = Path(tmp)
        real = real_folder(args.folder, args.runs, work) if args.folder is not None else None
        synth = synthetic(args.synthetic, args.runs, work) if args.synthetic > 0 else None
    shown = ["python bench/retrieval/bench_cold_search.py", *(["--folder", "DIR"] if args.folder else []), "--runs", str(args.runs),
             "--synthetic", str(args.synthetic)]
    text = report(real, synth, " ".join(shown), load, args.name)
    print(text)
    if not args.no_write:
        replace_section(DOC, "<!-- bench:cold-search -->", "<!-- /bench:cold-search -->", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
