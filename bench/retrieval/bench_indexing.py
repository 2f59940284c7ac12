"""Indexing throughput, incremental re-index and search latency of the knowledge store.

Builds a deterministic folder of synthetic files (default 10,000, a few KB each: Markdown and
text, ten top-level folders so there are ten corpora) in a temporary directory, from real
sentences of ``../shared/data/scifact/corpus.jsonl.gz`` when present (else from a word list),
then measures:

- the first ``KnowledgeStore.index`` of the folder (files per second);
- re-indexing the unchanged folder (target: under 10% of the first run's time);
- re-indexing after 1% of the files changed;
- opening the store in a fresh ``KnowledgeStore`` and loading its BM25 index;
- ``search`` latency over 200 queries (SciFact claims, else word pairs): p50 and p99.

Prints a table and rewrites its own section of ``docs/benchmarks.md`` (between the
``bench:indexing`` markers) with the command and the date.

Run: ``python bench/retrieval/bench_indexing.py`` (``--files N`` for a smaller folder,
``--no-write`` to leave the docs alone).
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.benchmark_doc import replace_section  # noqa: E402

from agentic_rag._store import KnowledgeStore  # noqa: E402
from agentic_rag._text.sentences import split_sentences  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "scifact"
START = "<!-- bench:indexing -->"
END = "<!-- /bench:indexing -->"
FALLBACK_WORDS = (
    "river valley mountain forest ocean island desert glacier volcano canyon meadow prairie tundra reef "
    "protein enzyme membrane receptor neuron tissue genome mutation pathway signal molecule catalyst "
    "algorithm compiler network protocol database index cache kernel thread memory storage latency"
).split()


def sentence_pool() -> tuple[list[str], str]:
    """Real sentences from SciFact, or generated ones when the data set is absent."""
    path = DATA / "corpus.jsonl.gz"
    if path.exists():
        sentences = []
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                sentences.extend(s.text for s in split_sentences(record.get("text", "")) if 6 <= len(s.text.split()) <= 60)
        return sentences, "SciFact corpus sentences (`../shared/data/scifact/corpus.jsonl.gz`)"
    rng = random.Random(7)
    generated = [" ".join(rng.choice(FALLBACK_WORDS) for _ in range(rng.randint(8, 20))).capitalize() + "." for _ in range(20000)]
    return generated, "a built-in word list (SciFact absent)"


def build_folder(root: Path, files: int, sentences: list[str]) -> int:
    """Write ``files`` deterministic files under ``root``; return the total bytes written."""
    rng = random.Random(20261129)
    total = 0
    for i in range(files):
        topic, part = i % 10, (i // 10) % 10
        folder = root / f"topic{topic:02d}" / f"part{part:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        paragraphs = []
        for _ in range(rng.randint(3, 6)):
            paragraphs.append(" ".join(rng.choice(sentences) for _ in range(rng.randint(2, 5))))
        if i % 5 == 4:
            path, text = folder / f"note-{i:05d}.txt", "\n\n".join(paragraphs) + "\n"
        else:
            body = []
            for n, paragraph in enumerate(paragraphs):
                if n % 2 == 0:
                    body.append(f"## Section {n // 2 + 1}")
                body.append(paragraph)
            path, text = folder / f"doc-{i:05d}.md", f"# Document {i}\n\n" + "\n\n".join(body) + "\n"
        path.write_text(text, encoding="utf-8")
        total += len(text.encode("utf-8"))
    return total


def queries(count: int, sentences: list[str]) -> list[str]:
    path = DATA.parent / "scifact" / "queries.jsonl"
    if path.exists():
        with open(path, encoding="utf-8") as handle:
            texts = [json.loads(line)["text"] for line in handle]
        return texts[:count]
    rng = random.Random(11)
    return [" ".join(rng.choice(rng.choice(sentences).split()) for _ in range(3)) for _ in range(count)]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def run(files: int, query_count: int) -> dict[str, object]:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    sentences, source = sentence_pool()
    with tempfile.TemporaryDirectory(prefix="bench-indexing-") as tmp:
        base = Path(tmp)
        folder = base / "corpus"
        size = build_folder(folder, files, sentences)
        store = KnowledgeStore(base / ".agentic-rag")

        started = time.perf_counter()
        first = store.index([folder])
        first_seconds = time.perf_counter() - started

        started = time.perf_counter()
        again = store.index([folder])
        again_seconds = time.perf_counter() - started

        changed = max(1, files // 100)
        for i in range(0, files, files // changed):
            target = next((folder / f"topic{i % 10:02d}" / f"part{(i // 10) % 10:02d}").glob(f"*-{i:05d}.*"))
            target.write_text(target.read_text(encoding="utf-8") + "\nAn appended closing remark.\n", encoding="utf-8")
        started = time.perf_counter()
        partial = store.index([folder])
        partial_seconds = time.perf_counter() - started

        started = time.perf_counter()
        reader = KnowledgeStore(store.directory)
        reader.bm25()
        load_seconds = time.perf_counter() - started

        texts = queries(query_count, sentences)
        for text in texts[:10]:
            reader.search(text, k=10)
        latencies = []
        for text in texts:
            started = time.perf_counter()
            reader.search(text, k=10)
            latencies.append((time.perf_counter() - started) * 1000.0)
        stats = reader.stats()
    return {
        "files": files, "bytes": size, "source": source, "first": first, "first_seconds": first_seconds,
        "again": again, "again_seconds": again_seconds, "partial": partial, "partial_seconds": partial_seconds,
        "changed": changed, "load_seconds": load_seconds, "latencies": latencies, "chunks": stats.chunks,
        "corpora": stats.corpora, "store_bytes": stats.bytes, "load": load,
    }


def table(results: dict[str, object]) -> str:
    files = results["files"]
    first_seconds = results["first_seconds"]
    again_seconds = results["again_seconds"]
    rate = files / first_seconds
    ratio = again_seconds / first_seconds
    latencies = results["latencies"]
    rows = [
        ("first index", f"{first_seconds:.1f} s; {rate:.0f} files/s", ">= 200 files/s", "yes" if rate >= 200 else "no"),
        ("re-index, nothing changed", f"{again_seconds:.2f} s ({ratio * 100:.1f}% of the first run)", "< 10%", "yes" if ratio < 0.10 else "no"),
        (f"re-index, {results['changed']} files changed", f"{results['partial_seconds']:.2f} s ({results['partial_seconds'] / first_seconds * 100:.1f}%)", "", ""),
        ("open the store and load BM25", f"{results['load_seconds']:.2f} s", "", ""),
        (f"search k=10, {len(latencies)} queries: p50", f"{statistics.median(latencies):.2f} ms", "", ""),
        (f"search k=10, {len(latencies)} queries: p99", f"{percentile(latencies, 0.99):.2f} ms", "", ""),
    ]
    widths = [max(len(r[i]) for r in rows + [("measure", "result", "target", "met")]) for i in range(4)]
    lines = ["| " + " | ".join(h.ljust(w) for h, w in zip(("measure", "result", "target", "met"), widths)) + " |",
             "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    lines += ["| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |" for row in rows]
    return "\n".join(lines)


def section(results: dict[str, object], command: str) -> str:
    first = results["first"]
    return "\n".join([
        "## Indexing a folder (knowledge store)",
        "",
        f"Command: `{command}`; date: {datetime.date.today().isoformat()}; CPython {platform.python_version()}, "
        f"{os.cpu_count()} cores, single process"
        + (f"; 1-minute load average {results['load']:.1f} when it started (other jobs share the machine)." if results["load"] is not None else "."),
        f"Folder: {results['files']:,} synthetic files ({results['bytes'] / 1e6:.1f} MB, {results['bytes'] / results['files'] / 1000:.1f} KB "
        f"a file; 80% Markdown with headings, 20% plain text; ten top-level folders, so {results['corpora']} corpora) built from "
        f"{results['source']}, in a temporary directory. Default chunking (180 words, 30 overlap); BM25 only "
        f"(no vector index). First index: {first.added:,} files, {first.chunks_added:,} chunks; store on disk "
        f"{results['store_bytes'] / 1e6:.0f} MB. Queries: SciFact claims (or word triples without the data set), "
        f"10 warm-up searches first.",
        "",
        table(results),
    ])


def write_section(text: str, path: Path) -> None:
    """Replace (or append) this benchmark's marked section, writing atomically."""
    replace_section(path, START, END, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=10_000, help="files to generate (default 10000)")
    parser.add_argument("--queries", type=int, default=200, help="search queries to time (default 200)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    results = run(args.files, args.queries)
    command = "python bench/retrieval/bench_indexing.py" + (f" --files {args.files}" if args.files != 10_000 else "") + (
        f" --queries {args.queries}" if args.queries != 200 else "")
    text = section(results, command)
    print(text)
    if not args.no_write:
        write_section(text, ROOT / "docs" / "benchmarks.md")
        print(f"\nwrote the section to {Path('docs') / 'benchmarks.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
