"""BM25 at scale: a corpus of up to 1,000,000 passages sampled from real sentences.

Corpus (:func:`passages`): every sentence of the shared corpora (``../shared/data``: SciFact
abstracts, Vaswani abstracts, HotpotQA and MuSiQue paragraphs) with 4 to 80 words is a
pool; passage ``n`` takes random sentences from the pool (``random.Random(seed)``) until it
has its length, drawn uniformly from 40 to 60 words (mean 50), and is cut there. The stream
is deterministic and every smaller corpus is a prefix of a larger one.
``--write-corpus PATH`` writes it as BEIR-style JSONL (``_id``, ``text``) instead of
benchmarking.

Queries: 1,000 real ones, deterministic: all 93 Vaswani queries, all 200 HotpotQA
questions and 707 SciFact claims sampled from ``queries.jsonl``.

For each size (default 10k, 100k, 1M) a fresh subprocess generates the corpus, then measures:

- build: ``BM25Index().add(passages)`` (default analyzer and Lucene BM25), analysis included;
- resident memory: ``resource.getrusage(RUSAGE_SELF).ru_maxrss`` after build and searches,
  and the RSS the generated corpus alone took before the build;
- search latency, top 10, each of the 1,000 queries timed on its own: a first pass right
  after the build (our index derives per-term impacts lazily, on first use) and a second,
  warm pass; p50, p99 and mean; then a third pass with the exact MaxScore pass
  (``quantised=False``), which must give the same hits and scores;
- ``save`` to a temporary file and ``BM25Index.load`` of it (after the built index and the
  corpus are freed), and 100 queries that must give the very same hits after the load.

Prints a table and rewrites its own section of ``docs/benchmarks.md`` (between the
``bench:scale`` markers) with the command and the date. Skips with a message when the
shared data is absent. Standard library only: ``python bench/retrieval/bench_scale.py``.

Usage: ``python bench/retrieval/bench_scale.py [--sizes 10000,100000,1000000] [--no-write]``
"""

from __future__ import annotations

import argparse
import datetime
import gc
import gzip
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.benchmark_doc import replace_section, revision  # noqa: E402

from agentic_rag._contracts.corpus import Document
from agentic_rag.evaluation import load_trec
from agentic_rag._retrieval import BM25Index
from agentic_rag._text.sentences import split_sentences

DATA = ROOT.parent / "shared" / "data"
START = "<!-- bench:scale -->"
END = "<!-- /bench:scale -->"
SEED = 20261129
SOURCES = (
    DATA / "scifact" / "corpus.jsonl.gz",
    DATA / "vaswani" / "doc-text.trec.gz",
    DATA / "hotpotqa" / "corpus.jsonl.gz",
    DATA / "musique" / "corpus.jsonl.gz",
    DATA / "scifact" / "queries.jsonl",
    DATA / "vaswani" / "query-text.trec",
    DATA / "hotpotqa" / "questions.jsonl",
)
# Issue 15 targets at 1M passages (issue 3 had 300 s, 4 GB, 30 ms and 200 ms).
TARGETS = {"build_s": 100.0, "rss_gb": 2.0, "p50_ms": 10.0, "p99_ms": 100.0, "save_load_s": 60.0}


# -- corpus and queries -----------------------------------------------------------------------


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def sentence_pool() -> tuple[list[str], dict[str, int]]:
    """Every sentence of 4 to 80 words in the shared corpora, in a fixed order; and counts."""
    pool: list[str] = []
    counts: dict[str, int] = {}

    def take(name: str, texts: Iterator[str]) -> None:
        before = len(pool)
        for text in texts:
            pool.extend(s for s in (" ".join(span.text.split()) for span in split_sentences(text)) if 4 <= len(s.split()) <= 80)
        counts[name] = len(pool) - before

    take("scifact", (r.get("text", "") for r in _jsonl(DATA / "scifact" / "corpus.jsonl.gz")))
    # Vaswani abstracts are lower case without full stops: one abstract is one "sentence".
    take("vaswani", (d.text for d in load_trec(DATA / "vaswani").corpus))
    take("hotpotqa", (s for r in _jsonl(DATA / "hotpotqa" / "corpus.jsonl.gz") for s in (r.get("sentences") or [r.get("text", "")])))
    take("musique", (r.get("text", "") for r in _jsonl(DATA / "musique" / "corpus.jsonl.gz")))
    return pool, counts


def passages(pool: list[str], count: int, seed: int = SEED) -> Iterator[Document]:
    """The first ``count`` passages of the deterministic stream (about 50 words each)."""
    rng = random.Random(seed)
    words_of = [s.split() for s in pool]
    choose = rng.randrange
    size = len(words_of)
    for n in range(count):
        target = rng.randint(40, 60)
        words: list[str] = []
        while len(words) < target:
            words.extend(words_of[choose(size)])
        yield Document(id=f"p{n:07d}", text=" ".join(words[:target]))


def real_queries(count: int = 1000, seed: int = SEED) -> list[str]:
    """Vaswani queries, HotpotQA questions, then SciFact claims sampled to make ``count``."""
    vaswani = [q.text for q in load_trec(DATA / "vaswani").queries]
    hotpot = [r["question"] for r in _jsonl(DATA / "hotpotqa" / "questions.jsonl")]
    scifact = [r["text"] for r in _jsonl(DATA / "scifact" / "queries.jsonl")]
    rest = max(0, count - len(vaswani) - len(hotpot))
    return (vaswani + hotpot + random.Random(seed).sample(scifact, min(rest, len(scifact))))[:count]


# -- one size, in its own process -------------------------------------------------------------


def _rss_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def _maxrss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kilobytes on Linux


def _latencies(index: BM25Index, queries: list[str], **options: Any) -> tuple[list[float], list[list[tuple[str, float]]]]:
    times, hits = [], []
    clock = time.perf_counter
    for query in queries:
        t = clock()
        found = index.search(query, 10, **options)
        times.append(clock() - t)
        hits.append([(h.document_id, h.score) for h in found])
    return times, hits


def _summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]
    return {"p50_ms": statistics.median(ordered) * 1e3, "p99_ms": pick(0.99) * 1e3, "mean_ms": statistics.fmean(ordered) * 1e3,
            "max_ms": ordered[-1] * 1e3}


def measure(size: int) -> dict[str, Any]:
    """Generate ``size`` passages, then build, search, save and load (one process)."""
    base_rss = _rss_bytes()
    t = time.perf_counter()
    pool, counts = sentence_pool()
    docs = list(passages(pool, size))
    queries = real_queries()
    del pool
    gc.collect()
    generate_s = time.perf_counter() - t
    words = sum(len(d.text.split()) for d in docs)
    corpus_rss = _rss_bytes() - base_rss
    index = BM25Index()
    t = time.perf_counter()
    index.add(docs)
    build_s = time.perf_counter() - t
    try:  # internals, for the report only: absent if the store changes shape
        vocabulary = len(index._store.vocab)
        postings = sum(map(len, index._store.docs_of))
    except AttributeError:
        vocabulary = postings = None
    rss_after_build = _rss_bytes()
    cold, _ = _latencies(index, queries)
    warm, hits = _latencies(index, queries)
    peak_search = _maxrss_bytes()
    exact, exact_hits = _latencies(index, queries, quantised=False)  # the exact MaxScore pass, for comparison
    analyze = index.analyzer.analyze
    slowest = sorted(range(len(queries)), key=lambda i: -warm[i])[:5]
    slowest_queries = [{"ms": warm[i] * 1e3, "terms": len(set(analyze(queries[i]))), "query": queries[i][:80]} for i in slowest]
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as folder:
        path = Path(folder) / "index.bm25"
        t = time.perf_counter()
        index.save(path)
        save_s = time.perf_counter() - t
        file_bytes = path.stat().st_size
        del index, docs
        gc.collect()
        t = time.perf_counter()
        loaded = BM25Index.load(path)
        load_s = time.perf_counter() - t
    check = list(range(0, len(queries), max(1, len(queries) // 100)))[:100]
    same = all([(h.document_id, h.score) for h in loaded.search(queries[i], 10)] == hits[i] for i in check)
    return {
        "size": size, "words": words, "pool": counts, "queries": len(queries), "generate_s": generate_s,
        "corpus_rss": corpus_rss, "build_s": build_s, "vocabulary": vocabulary, "postings": postings,
        "rss_after_build": rss_after_build, "peak_rss_search": peak_search, "peak_rss_all": _maxrss_bytes(),
        "cold": _summary(cold), "warm": _summary(warm), "exact": _summary(exact), "exact_same": exact_hits == hits, "save_s": save_s, "load_s": load_s, "file_bytes": file_bytes,
        "same_after_load": same, "checked_after_load": len(check), "slowest": slowest_queries,
        "median_terms": statistics.median(len(set(analyze(q))) for q in queries),
    }


# -- driver -----------------------------------------------------------------------------------


def run_size(size: int, timeout_s: float) -> dict[str, Any] | None:
    started = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, __file__, "--worker", str(size)], capture_output=True, text=True, timeout=timeout_s, check=False)
    except subprocess.TimeoutExpired:
        print(f"  {size:,} passages: did not finish within {timeout_s:.0f} s; not measured", file=sys.stderr)
        return None
    if proc.returncode != 0:
        print(f"  {size:,} passages failed (exit {proc.returncode}): {proc.stderr.strip()[-600:]}", file=sys.stderr)
        return None
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["wall_s"] = time.monotonic() - started
    return result


def _gb(n: float) -> str:
    return f"{n / 1e9:.2f} GB"


def report(results: list[dict[str, Any]], failed: list[int], command: str, load: float | None, code: str) -> str:
    head = ["measure", *(f"{r['size']:,} passages" for r in results), "target (1M)", "met (1M)"]
    big = next((r for r in results if r["size"] == 1_000_000), None)

    def row(label: str, values: list[str], target: str = "", met: bool | None = None) -> list[str]:
        return [label, *values, target, "" if met is None or big is None else ("yes" if met else "no")]

    rows = [
        row("words (mean per passage)", [f"{r['words']:,} ({r['words'] / r['size']:.1f})" for r in results]),
        row("vocabulary / postings", [f"{r['vocabulary']:,} / {r['postings']:,}" if r["postings"] is not None else "n/a" for r in results]),
        row("build (`BM25Index().add`, analysis included)", [f"{r['build_s']:.1f} s" for r in results], f"<= {TARGETS['build_s']:.0f} s",
            big and big["build_s"] <= TARGETS["build_s"]),
        row("RSS of the generated corpus alone", [_gb(r["corpus_rss"]) for r in results]),
        row("RSS after build", [_gb(r["rss_after_build"]) for r in results]),
        row("peak RSS (maxrss) through build + 2,000 searches", [_gb(r["peak_rss_search"]) for r in results], f"<= {TARGETS['rss_gb']:.0f} GB",
            big and big["peak_rss_search"] <= TARGETS["rss_gb"] * 1e9),
        row("search p50, warm pass", [f"{r['warm']['p50_ms']:.2f} ms" for r in results], f"<= {TARGETS['p50_ms']:.0f} ms",
            big and big["warm"]["p50_ms"] <= TARGETS["p50_ms"]),
        row("search p99, warm pass", [f"{r['warm']['p99_ms']:.1f} ms" for r in results], f"<= {TARGETS['p99_ms']:.0f} ms",
            big and big["warm"]["p99_ms"] <= TARGETS["p99_ms"]),
        row("search mean / max, warm pass", [f"{r['warm']['mean_ms']:.2f} / {r['warm']['max_ms']:.0f} ms" for r in results]),
        row("search p50 / p99, first pass after build", [f"{r['cold']['p50_ms']:.2f} / {r['cold']['p99_ms']:.1f} ms" for r in results]),
        row("search p50 / p99, exact MaxScore pass (`quantised=False`)", [f"{r['exact']['p50_ms']:.2f} / {r['exact']['p99_ms']:.1f} ms" for r in results]),
        row("same hits and scores, quantised and exact passes", ["yes" if r["exact_same"] else "NO" for r in results]),
        row("save", [f"{r['save_s']:.1f} s ({r['file_bytes'] / 1e6:,.0f} MB file)" for r in results]),
        row("load", [f"{r['load_s']:.1f} s" for r in results]),
        row("save + load", [f"{r['save_s'] + r['load_s']:.1f} s" for r in results], f"<= {TARGETS['save_load_s']:.0f} s",
            big and big["save_s"] + big["load_s"] <= TARGETS["save_load_s"]),
        row("same hits after load (queries checked)", [f"{'yes' if r['same_after_load'] else 'NO'} ({r['checked_after_load']})" for r in results]),
        row("peak RSS of the whole run (incl. load)", [_gb(r["peak_rss_all"]) for r in results]),
        row("wall time of the size's process", [f"{r['wall_s']:.0f} s" for r in results]),
    ]
    widths = [max(len(head[i]), *(len(r[i]) for r in rows)) for i in range(len(head))]
    fmt = lambda cells: "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
    table = "\n".join([fmt(head), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(fmt, rows)])
    pool = results[0]["pool"] if results else {}
    lines = [
        "## BM25 at scale (up to 1,000,000 passages)",
        "",
        f"Command: `{command}`; date: {datetime.date.today().isoformat()}; code: commit {code}; CPython {platform.python_version()}, "
        f"{os.cpu_count()} cores, 24 GiB, one thread, each size in a fresh process"
        + (f"; 1-minute load average {load:.2f} when it started." if load is not None else "."),
        (f"Corpus: passages of 40 to 60 words (uniform) made of random sentences (seed {SEED}) from a pool of "
        f"{sum(pool.values()):,} sentences of 4 to 80 words ({', '.join(f'{k} {v:,}' for k, v in pool.items())}; "
        "`../shared/data`), cut at their length; no titles. Queries: 1,000 real ones (93 Vaswani, 200 HotpotQA, "
        "707 SciFact claims), each timed alone, top 10. Default `BM25Index()` (Lucene, English stop words, Snowball)."),
        "",
        table,
    ]
    if big is not None:
        lines += ["", f"Slowest warm queries at 1M passages (distinct query terms; the median query has {big['median_terms']:.0f}): "
                  + "; ".join(f"{q['ms']:.0f} ms ({q['terms']} terms) \"{q['query']}\"" for q in big["slowest"][:3]) + "."]
    if failed:
        lines += ["", "Not measured (the size's process failed or ran out of time): "
                  + ", ".join(f"{s:,} passages" for s in failed) + "."]
    return "\n".join(lines)


def write_section(text: str, path: Path) -> None:
    """Replace (or append) this benchmark's marked section, writing atomically."""
    replace_section(path, START, END, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="comma-separated corpus sizes (default 10000,100000,1000000)")
    parser.add_argument("--timeout", type=float, default=1500.0, help="seconds each size may take (default 1500)")
    parser.add_argument("--write-corpus", metavar="PATH", help="write the passages of the largest size as JSONL and exit")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    missing = [str(p.relative_to(ROOT.parent)) for p in SOURCES if not p.exists()]
    if missing:
        print(f"skipped: shared data missing: {', '.join(missing)}", file=sys.stderr)
        return 0
    if args.worker:
        print(json.dumps(measure(args.worker)))
        return 0
    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    if args.write_corpus:
        pool, _ = sentence_pool()
        target = Path(args.write_corpus)
        with open(target, "w", encoding="utf-8") as handle:
            handle.writelines(json.dumps({"_id": doc.id, "text": doc.text}) + "\n" for doc in passages(pool, max(sizes)))
        print(f"wrote {max(sizes):,} passages to {target}")
        return 0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    code = revision()
    results, failed = [], []
    for size in sizes:
        print(f"{size:,} passages...", flush=True)
        result = run_size(size, args.timeout)
        if result is None:
            failed.append(size)
            continue
        results.append(result)
        print(f"  build {result['build_s']:.1f} s, warm p50 {result['warm']['p50_ms']:.2f} ms, p99 {result['warm']['p99_ms']:.1f} ms, "
              f"maxrss {_gb(result['peak_rss_all'])}, save+load {result['save_s'] + result['load_s']:.1f} s", flush=True)
        for q in result["slowest"]:
            print(f"    slow: {q['ms']:.1f} ms, {q['terms']} terms: {q['query']}", flush=True)
    if not results:
        print("nothing measured", file=sys.stderr)
        return 1
    command = "python bench/retrieval/bench_scale.py" + (f" --sizes {args.sizes}" if args.sizes != "10000,100000,1000000" else "")
    text = report(results, failed, command, load, code)
    print(text)
    if not args.no_write:
        write_section(text, ROOT / "docs" / "benchmarks.md")
        print("\nwrote the section to docs/benchmarks.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
