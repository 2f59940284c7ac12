"""The standard-library PDF extractor against poppler's ``pdftotext`` on real PDFs.

Every ``*.pdf`` and ``*.pdf.gz`` under ``--pdfs DIR`` (recursively, sorted by relative path) is
read by ``pdftotext -enc UTF-8`` (non-layout mode, the reference) and by
``agentic_rag._ingest.pdf.extract_pdf_strict``. For each file the text of each page is
normalised (NFKC, lowercase, words = runs of ``\\w``) and the word lists of the same page are
compared with ``difflib.SequenceMatcher(autojunk=False)``; the file's similarity is
``2 * matched words / (our words + reference words)`` summed over its pages (per page, so
the quadratic matcher stays fast and a page can never match another page's words). Files the
reference finds no text in (fewer than 20 words) are image-only and only checked to be refused.

The files are split in two halves by a hash of their relative path: ``dev`` (used while tuning
the extractor) and ``report`` (not looked at while tuning); the table gives both and all.

Prints a table and rewrites its own section of ``docs/benchmarks.md`` (between the
``bench:pdf`` markers) with the command and the date. Needs ``pdftotext`` (Debian's
``poppler-utils``; ``--install`` runs ``apt-get install -y poppler-utils`` when it is missing).
See bench/README.md for how to fetch the PDF set.

Run: ``python bench/ingestion/bench_pdf.py --pdfs DIR`` (``--no-write`` to leave the docs alone).
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import hashlib
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from difflib import SequenceMatcher
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.benchmark_doc import replace_section  # noqa: E402

from agentic_rag._errors import AgenticRAGError  # noqa: E402
from agentic_rag._ingest.pdf import extract_pdf_strict  # noqa: E402

START = "<!-- bench:pdf -->"
END = "<!-- /bench:pdf -->"
_WORD = re.compile(r"\w+")
MIN_TEXT_WORDS = 20


def words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text).lower())


def half(relative: str) -> str:
    return "dev" if hashlib.sha256(relative.encode("utf-8")).digest()[0] % 2 == 0 else "report"


def reference(path: Path, timeout: float) -> tuple[list[str] | None, float, str]:
    """pdftotext's pages (form-feed separated), its seconds, and an error."""
    started = time.perf_counter()
    try:
        done = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - started, "timeout"
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        return None, seconds, done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:][0] if done.stderr else "failed"
    pages = done.stdout.decode("utf-8", "replace").split("\f")
    if pages and not pages[-1].strip():
        pages.pop()
    return pages, seconds, ""


def similarity(ours: dict[int, str], theirs: list[str]) -> tuple[float, int, int]:
    matched = total = 0
    for number in range(1, max(len(theirs), max(ours, default=0)) + 1):
        a = words(ours.get(number, ""))
        b = words(theirs[number - 1]) if number <= len(theirs) else []
        total += len(a) + len(b)
        if a and b:
            matched += sum(block.size for block in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
    return (2.0 * matched / total if total else 1.0), matched, total


def measure(folder: Path, timeout: float, limit: int | None, only: str) -> list[dict]:
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.name.lower().endswith((".pdf", ".pdf.gz")))
    if only != "all":
        files = [p for p in files if half(p.relative_to(folder).as_posix()) == only]
    if limit:
        files = files[:limit]
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-pdf-") as tmp:
        for path in files:
            relative = path.relative_to(folder).as_posix()
            data = path.read_bytes()
            if path.name.lower().endswith(".gz"):
                data = gzip.decompress(data)
            plain = Path(tmp) / "input.pdf"
            plain.write_bytes(data)
            theirs, their_seconds, their_error = reference(plain, timeout)
            row = {"file": relative, "half": half(relative), "their_seconds": their_seconds,
                   "their_error": their_error, "pages": len(theirs or []), "exception": ""}
            started = time.perf_counter()
            try:
                extraction = extract_pdf_strict(data)
            except AgenticRAGError as exc:
                extraction = None
                row["exception"] = f"library error {type(exc).__name__}: {exc}"
            except Exception as exc:  # noqa: BLE001 - counting exactly these is the point
                extraction = None
                row["exception"] = f"{type(exc).__name__}: {exc}"
            row["our_seconds"] = time.perf_counter() - started
            ours = {page.number: page.text for page in extraction.pages} if extraction else {}
            row["problem"] = extraction.problem if extraction else None
            row["skipped"] = len(extraction.skipped) if extraction else 0
            their_words = sum(len(words(page)) for page in theirs or [])
            row["text_pdf"] = their_words >= MIN_TEXT_WORDS
            row["similarity"], _, _ = similarity(ours, theirs or [])
            results.append(row)
            print(f"{row['similarity']:.3f} {row['pages']:5d}p {row['our_seconds']:7.2f}s {relative}"
                  f"{'  PROBLEM ' + row['problem'] if row['problem'] else ''}{'  EXC ' + row['exception'] if row['exception'] else ''}",
                  flush=True)
    return results


def _reason(problem: str) -> str:
    return problem.split("(")[0].strip()


def summary(rows: list[dict]) -> dict:
    text = [row for row in rows if row["text_pdf"]]
    sims = sorted(row["similarity"] for row in text)
    pages = sum(row["pages"] for row in rows)
    ours = sum(row["our_seconds"] for row in rows)
    theirs = sum(row["their_seconds"] for row in rows)
    def share(low: float) -> str:
        return f"{sum(s >= low for s in sims)}/{len(sims)}"
    return {
        "files": len(rows), "text": len(text), "pages": pages,
        "median": statistics.median(sims) if sims else float("nan"),
        "mean": statistics.fmean(sims) if sims else float("nan"),
        "p10": sims[int(0.1 * (len(sims) - 1))] if sims else float("nan"),
        "min": sims[0] if sims else float("nan"),
        "ge99": share(0.99), "ge97": share(0.97), "ge90": share(0.90),
        "our_pps": pages / ours if ours else float("nan"), "their_pps": pages / theirs if theirs else float("nan"),
        "refused_text": sum(1 for row in text if row["problem"]),
        "refused_other": sum(1 for row in rows if not row["text_pdf"] and row["problem"]),
        "other": len(rows) - len(text),
        "exceptions": sum(1 for row in rows if row["exception"] and not row["exception"].startswith("library")),
    }


def table(rows: list[dict]) -> str:
    halves = {"dev": [r for r in rows if r["half"] == "dev"], "report": [r for r in rows if r["half"] == "report"], "all": rows}
    stats = {name: summary(part) for name, part in halves.items()}
    lines = ["| | dev half | report half | all |", "|---|---|---|---|"]
    spec = [
        ("PDF files", "files", "{}"), ("text PDFs (pdftotext finds ≥ 20 words)", "text", "{}"),
        ("pages (as pdftotext counts them)", "pages", "{}"),
        ("median similarity, text PDFs", "median", "{:.3f}"), ("mean similarity", "mean", "{:.3f}"),
        ("10th percentile", "p10", "{:.3f}"), ("lowest", "min", "{:.3f}"),
        ("text PDFs ≥ 0.99", "ge99", "{}"), ("text PDFs ≥ 0.97", "ge97", "{}"), ("text PDFs ≥ 0.90", "ge90", "{}"),
        ("text PDFs refused (problem)", "refused_text", "{}"),
        ("PDFs without text (image-only) / refused", "other", "{}"),
        ("pages/s, ours (one process)", "our_pps", "{:.1f}"), ("pages/s, pdftotext (incl. process start)", "their_pps", "{:.1f}"),
        ("exceptions outside the library tree", "exceptions", "{}"),
    ]
    for label, key, fmt in spec:
        cells = []
        for name in halves:
            value = fmt.format(stats[name][key])
            if key == "other":
                value = f"{stats[name]['other']} / {stats[name]['refused_other']}"
            cells.append(value)
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def section(rows: list[dict], command: str, load: float | None, started: str) -> str:
    reasons = Counter(_reason(row["problem"]) for row in rows if row["problem"])
    worst = sorted((row for row in rows if row["text_pdf"]), key=lambda row: (row["similarity"], row["file"]))[:8]
    producers = "LaTeX (pdfTeX, LuaTeX, XeTeX/xdvipdfmx, dvips + Ghostscript or Distiller), DocBook with Apache FOP, Texinfo, cairo, Quartz, LibreOffice, pikepdf/qpdf, tiff2pdf, OCRmyPDF/Tesseract text layers"
    load_text = f"; 1-minute load average {load:.2f} when it started" if load is not None else ""
    parts = [
        "## PDF text extraction against pdftotext",
        "",
        f"Command: `{command}`; date: {started}; CPython {platform.python_version()}, 2 cores, one process{load_text}; "
        f"reference: `pdftotext -enc UTF-8` ({poppler_version()}, non-layout mode). The set: the PDFs of the Debian "
        "packages and the sdist listed in bench/README.md (producers: " + producers + "). Similarity: per page, "
        "NFKC-lowercased `\\w+` word lists compared with `difflib.SequenceMatcher(autojunk=False)`, summed per file as "
        "2·matched/(ours+reference). The extractor was tuned on the dev half only.",
        "",
        table(rows),
        "",
        "Refusals (all files): " + (", ".join(f"{reason} ({count})" for reason, count in sorted(reasons.items())) or "none") + ".",
        "",
        "Lowest similarities (all files): " + "; ".join(f"`{row['file']}` {row['similarity']:.3f}" for row in worst) + ".",
        "",
        "Known differences: pdftotext drops duplicated overlapping text (fake bold), detects tables and reads their "
        "cells in its own order, stacks several accents on one letter, and reads encrypted files with an empty user "
        "password, which this extractor refuses; files over `max_pages` (2,000 by default) are refused.",
    ]
    return "\n".join(parts)


def poppler_version() -> str:
    done = subprocess.run(["pdftotext", "-v"], capture_output=True, check=False)
    line = (done.stderr or done.stdout).decode("utf-8", "replace").splitlines()
    return line[0].strip() if line else "pdftotext"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdfs", type=Path, required=True, help="folder of PDFs (searched recursively)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N files (sorted)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds for pdftotext per file")
    parser.add_argument("--install", action="store_true", help="apt-get install poppler-utils when pdftotext is missing")
    parser.add_argument("--half", choices=("dev", "report", "all"), default="all", help="measure one half only (tuning: dev)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    if shutil.which("pdftotext") is None:
        if args.install:
            subprocess.run(["apt-get", "install", "-y", "poppler-utils"], check=False)
        if shutil.which("pdftotext") is None:
            print("pdftotext is not installed (Debian: apt-get install poppler-utils); skipping")
            return 0
    if not args.pdfs.is_dir():
        print(f"--pdfs {args.pdfs} is not a folder; skipping")
        return 0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    started = datetime.date.today().isoformat()
    rows = measure(args.pdfs, args.timeout, args.limit, args.half)
    if not rows:
        print("no PDF files found")
        return 0
    command = "python bench/ingestion/bench_pdf.py --pdfs DIR" + (f" --limit {args.limit}" if args.limit else "") + (
        f" --half {args.half}" if args.half != "all" else "")
    text = section(rows, command, load, started)
    print(text)
    if not args.no_write:
        replace_section(ROOT / "docs" / "benchmarks.md", START, END, text)
        print(f"\nwrote the section to {Path('docs') / 'benchmarks.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
