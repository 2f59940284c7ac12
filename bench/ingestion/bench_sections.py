"""Sections, page furniture, page labels and index pages in real PDF and HTML manuals, before and after.

What an agent reads of a PDF or HTML hit besides its text: the heading path (§), the page it
can check, and whether the hit is content or an index that merely lists content. Measured on
the PDF set of ``bench/corpora/docs_set_pdfs.py`` (eight Debian manuals) and on an HTML manual (the
PostgreSQL manual of Debian's ``postgresql-doc-15``, with note and tip boxes and an
alphabetical index), by this tree's code and, with ``--before REF``, by the code of git
revision ``REF`` (its ``src`` taken with ``git archive`` into a temporary folder and run in a
child process, so both are measured the same way):

- **PDF chunks with a section**, in files that have an outline or running chapter titles
  (every file of the set has one or the other, as this tree's parser reads them).
- **Running header/footer lines left in chunk text**: a page's edge line (one of its first or
  last three non-blank lines, as the parser extracts the page) whose text, with every number
  replaced by ``#``, is an edge line of at least a fifth of the file's pages (a line that is
  only a number: when it differs from the page index by the file's most common offset), counted
  once per page whose chunks still hold it as a line. This reference rule is not the loader's (the
  loader compares nearby pages); it misses chapter titles repeated on few pages.
- **Pages that print their number, and show it**: a page prints its number when one of its
  edge lines holds an Arabic number that differs from the page index by the file's most common
  such offset; it shows it when its chunks carry that number as ``page_label``.
- **HTML chunks whose last section element is a box title** (Note, Tip, Warning, Caution,
  Important) and chunks still holding navigation text (a line that is only ``Prev``, ``Up``,
  ``Home``, ``Next`` words).
- **Index pages at the top**: a store of the HTML manual is searched (``KnowledgeStore.search``,
  k=5) with content questions and with two that ask for a list (the top hit, and the hits among
  the first five); an index page is one this
  tree's loader flags as a list page (the alphabetical index, chapter tables of contents).

Prints a table and rewrites its section of ``docs/benchmarks.md`` (between the
``bench:sections`` markers) with the command and the date.

With ``--man-pages [NAME ...]`` it measures PDFs without an outline instead: the man pages
named (default: ``man_pages.REPORT_PAGES``, bash and four others) typeset on this machine
with ``man -Tpdf`` (skipped with a message when groff's ``pdf`` device is missing) beside the
eight manuals: the rows above for each set, and the share of search hits carrying a section
(``KnowledgeStore.search``, top 5, over one store of both sets, for the questions in
``man_pages.py``). That table goes between the ``bench:sections-man`` markers.

Run: ``python bench/ingestion/bench_sections.py --html /usr/share/doc/postgresql-doc-15/html --before REF``
or ``python bench/ingestion/bench_sections.py --man-pages --before REF`` (PDFs from
``bench/.cache/docs_sets/pdfs``, fetched by ``python bench/corpora/docs_set_pdfs.py``; ``--no-write`` to
leave the docs alone).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # the bench package (repository root)

from bench.benchmark_doc import replace_section  # noqa: E402
from bench.ingestion.man_pages import REPORT_PAGES, TOP as HIT_TOP, measure_hits, pdf_device, typeset  # noqa: E402

START = "<!-- bench:sections -->"
END = "<!-- /bench:sections -->"
MAN_START = "<!-- bench:sections-man -->"
MAN_END = "<!-- /bench:sections-man -->"
EDGE = 3
TOP = 5
_NUMBER = re.compile(r"\d+")
_NAV_LINE = re.compile(r"^(?:(?:Prev|Up|Home|Next)\s*)+$")
_BOXES = {"note", "tip", "warning", "caution", "important"}

CONTENT_QUESTIONS = (
    "What does deadlock_timeout control?",
    "How do I raise max_locks_per_transaction?",
    "How does pg_restore read a custom-format archive made by pg_dump?",
    "How do I create an index on an expression?",
    "What is the default value of shared_buffers?",
    "How does VACUUM FULL differ from plain VACUUM?",
    "Which function returns the current date and time?",
    "How do I configure SSL certificates for the server?",
    "Which transaction isolation levels does PostgreSQL support?",
    "How do I load a CSV file with COPY?",
    "What does the jsonb containment operator do?",
    "What does autovacuum_naptime set?",
)
LIST_QUESTIONS = ("alphabetical index of the documentation", "table of contents of the server configuration chapter")


def _key(line: str) -> str:
    return _NUMBER.sub("#", " ".join(line.split()).casefold())


def measure_pdfs(folder: Path) -> dict:
    """The PDF figures with the code importable as ``agentic_rag`` (whichever tree that is)."""
    from agentic_rag._ingest.chunker import chunk_sections
    from agentic_rag._ingest.pdf import extract_pdf
    from agentic_rag._ingest.pdf_loader import parse_pdf

    out = {"files": 0, "pages": 0, "chunks": 0, "with_section": 0, "edge_lines": 0, "edge_left": 0, "printing": 0, "shown": 0}
    for path in sorted(folder.rglob("*.pdf")):
        data = path.read_bytes()
        extraction = extract_pdf(data)
        chunks = chunk_sections(parse_pdf(data).sections, path.name)
        out["files"] += 1
        out["pages"] += len(extraction.pages)
        out["chunks"] += len(chunks)
        out["with_section"] += sum(1 for chunk in chunks if chunk.section)
        page_lines: dict[int, set[str]] = {}
        labels: dict[int, set[str]] = {}
        for chunk in chunks:
            page_lines.setdefault(chunk.page, set()).update(" ".join(line.split()) for line in chunk.text.split("\n"))
            labels.setdefault(chunk.page, set()).add(getattr(chunk, "page_label", ""))
        edges = {}
        for page in extraction.pages:
            filled = [" ".join(line.split()) for line in page.text.split("\n") if line.strip()]
            edges[page.number] = filled[:EDGE] + filled[-EDGE:] if len(filled) > 2 * EDGE else filled
        counts = Counter(key for lines in edges.values() for key in {_key(line) for line in lines})
        running = {key for key, n in counts.items() if n >= max(3, len(edges) / 5) and re.search(r"[\w#]", key)}
        offsets = Counter(int(m.group()) - number for number, lines in edges.items() for line in lines if _key(line) in running
                          for m in _NUMBER.finditer(line) if len(m.group()) <= 5)
        offset = offsets.most_common(1)[0][0] if offsets else None
        for number, lines in edges.items():
            # A lone number is a page number only at the file's offset (else a table's or a
            # table of contents' number).
            furniture = {line for line in lines if _key(line) in running and (_key(line) != "#" or (line.isdecimal() and int(line) - number == offset))}
            out["edge_lines"] += len(furniture)
            out["edge_left"] += len(furniture & page_lines.get(number, set()))
            printed = {str(int(m.group())) for line in furniture for m in _NUMBER.finditer(line)
                       if offset is not None and int(m.group()) - number == offset}
            if printed:
                out["printing"] += 1
                out["shown"] += bool(printed & labels.get(number, set()))
    return out


def measure_html(folder: Path, index_pages: list[str]) -> dict:
    """The HTML figures: box titles and navigation in chunks, index pages at the top."""
    from agentic_rag._ingest.chunker import chunk_sections
    from agentic_rag._ingest.html_loader import parse_html
    from agentic_rag._store import KnowledgeStore

    out = {"pages": 0, "chunks": 0, "box_last": 0, "nav_chunks": 0}
    for path in sorted(folder.glob("*.html")):
        chunks = chunk_sections(parse_html(path.read_text(encoding="utf-8", errors="replace")), path.name)
        out["pages"] += 1
        out["chunks"] += len(chunks)
        out["box_last"] += sum(1 for c in chunks if c.section.split(" \u203a ")[-1].rstrip(":").casefold() in _BOXES)
        out["nav_chunks"] += sum(1 for c in chunks if any(_NAV_LINE.match(line.strip()) for line in c.text.split("\n")))
    with tempfile.TemporaryDirectory() as tmp:
        store = KnowledgeStore(Path(tmp) / "store", base=folder)
        store.index(folder)
        listed = set(index_pages)
        found = {q: [hit.path for hit in store.search(q, TOP)] for q in CONTENT_QUESTIONS + LIST_QUESTIONS}
    out["content_questions"] = len(CONTENT_QUESTIONS)
    out["index_on_top"] = sum(1 for q in CONTENT_QUESTIONS if found[q][:1] and found[q][0] in listed)
    out["index_in_top"] = sum(1 for q in CONTENT_QUESTIONS for path in found[q] if path in listed)
    out["list_questions"] = len(LIST_QUESTIONS)
    out["list_found"] = sum(1 for q in LIST_QUESTIONS if any(path in listed for path in found[q]))
    out["tops"] = {q: found[q][0] if found[q] else "" for q in found}
    return out


def list_pages(folder: Path) -> list[str]:
    """The HTML pages this tree's loader flags as list pages (its names as the store keys them)."""
    sys.path.insert(0, str(ROOT / "src"))
    from agentic_rag._ingest.html_loader import parse_html

    return [path.name for path in sorted(folder.glob("*.html"))
            if any(s.list_page for s in parse_html(path.read_text(encoding="utf-8", errors="replace")))]


def run_tree(src: Path, settings: dict) -> dict:
    """Measure with the ``agentic_rag`` package under ``src``, in a child process."""
    config = json.dumps(settings)
    done = subprocess.run([sys.executable, __file__, "--child", config], env={**os.environ, "PYTHONPATH": str(src)},
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"measuring {src} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def child(config: str) -> None:
    settings = json.loads(config)
    result = {}
    if settings.get("pdfs"):
        result["pdf"] = measure_pdfs(Path(settings["pdfs"]))
    if settings.get("man"):
        result["man"] = measure_pdfs(Path(settings["man"]))
    if settings.get("hits"):
        result["hits"] = measure_hits(Path(settings["hits"]))
    if settings.get("html"):
        result["html"] = measure_html(Path(settings["html"]), settings["index_pages"])
    print(json.dumps(result))


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f} %)" if whole else "-"


def table(results: dict[str, dict]) -> str:
    names = list(results)
    rows = ["| | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]

    def row(label: str, cell) -> None:
        rows.append(f"| {label} | " + " | ".join(cell(results[n]) for n in names) + " |")

    sets = [(key, name) for key, name in (("man", "man pages"), ("pdf", "manuals")) if all(key in r for r in results.values())]
    for key, name in sets:
        lead = f"{name}: " if any(k == "man" for k, _ in sets) else ""
        row(f"{lead}PDF files / pages / chunks", lambda r, key=key: f"{r[key]['files']} / {r[key]['pages']} / {r[key]['chunks']}")
        row(f"{lead}PDF chunks with a section", lambda r, key=key: _share(r[key]["with_section"], r[key]["chunks"]))
        row(f"{lead}running header/footer lines left in chunk text (page, line)",
            lambda r, key=key: _share(r[key]["edge_left"], r[key]["edge_lines"]))
        row(f"{lead}pages that print their number and show it", lambda r, key=key: _share(r[key]["shown"], r[key]["printing"]))
    if all("hits" in r for r in results.values()):
        row(f"man-page hits with a section (top {HIT_TOP})", lambda r: _share(*r["hits"]["man"]))
        row(f"manual hits with a section (top {HIT_TOP})", lambda r: _share(*r["hits"]["manuals"]))
        row(f"all PDF hits with a section (top {HIT_TOP})",
            lambda r: _share(r["hits"]["man"][0] + r["hits"]["manuals"][0], r["hits"]["man"][1] + r["hits"]["manuals"][1]))
    if all("html" in r for r in results.values()):
        row("HTML pages / chunks", lambda r: f"{r['html']['pages']} / {r['html']['chunks']}")
        row("HTML chunks whose last section element is a box title", lambda r: str(r["html"]["box_last"]))
        row("HTML chunks holding a navigation line", lambda r: str(r["html"]["nav_chunks"]))
        row("content questions whose top hit is an index page", lambda r: f"{r['html']['index_on_top']}/{r['html']['content_questions']}")
        row(f"index-page hits among the content questions' top {TOP}", lambda r: f"{r['html']['index_in_top']}/{TOP * r['html']['content_questions']}")
        row(f"list questions with an index page in their top {TOP}", lambda r: f"{r['html']['list_found']}/{r['html']['list_questions']}")
    return "\n".join(rows)


def _trees(before: str | None, settings: dict) -> dict[str, dict]:
    """The figures of git revision ``before`` (when given) and of this tree."""
    results: dict[str, dict] = {}
    if before:
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", before, "src"], capture_output=True, check=True).stdout
            with tarfile.open(fileobj=__import__("io").BytesIO(archive)) as tar:
                tar.extractall(tmp, filter="data")
            results[f"before ({before})"] = run_tree(Path(tmp) / "src", settings)
    results["after"] = run_tree(ROOT / "src", settings)
    return results


def _write(text: str, start: str, end: str, no_write: bool) -> None:
    print(text)
    if not no_write:
        replace_section(ROOT / "docs" / "benchmarks.md", start, end, text)
        print(f"\nwrote the section to {Path('docs') / 'benchmarks.md'}")


def man_report(names: tuple[str, ...], pdfs: Path, before: str | None, no_write: bool) -> int:
    """The man pages beside the eight manuals: sections, furniture, labels and hits."""
    reason = pdf_device()
    if reason:
        print(f"man-page PDFs skipped: {reason}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "set"
        built = typeset(names, folder / "man")
        if not built:
            print(f"man-page PDFs skipped: none of {', '.join(names)} could be typeset (man -Tpdf)")
            return 0
        shutil.copytree(pdfs, folder / "manuals")
        results = _trees(before, {"pdfs": str(folder / "manuals"), "man": str(folder / "man"), "hits": str(folder)})
    after = results["after"]["hits"]
    flags = (" --man-pages" + ("" if names == REPORT_PAGES else " " + " ".join(names))) + (f" --before {before}" if before else "")
    lines = ["## PDF sections where no outline exists: man pages beside the manuals", "",
             f"Command: `python bench/ingestion/bench_sections.py{flags}`; date: {datetime.date.today().isoformat()}. Man pages: "
             + ", ".join(f"`{name}`" for name in built) + " typeset by `man -Tpdf` (groff "
             + subprocess.run(["groff", "--version"], capture_output=True, text=True, check=False).stdout.split("\n", 1)[0].split()[-1]
             + "), no outline, a running header naming the page"
             + ("; held out: the loader's heading rules were developed on other man pages (`bench/ingestion/man_pages.py`)" if names == REPORT_PAGES
                else "; not the report set") + ". Manuals: the set of `bench/corpora/docs_set_pdfs.py` (eight, each with an outline or running "
             f"chapter titles). Hits: one store of both sets, `KnowledgeStore.search` top {HIT_TOP} for the questions in "
             "`bench/ingestion/man_pages.py`. Counts, not timings. The reference rules for furniture and printed numbers are the script's own.",
             "", table(results), ""]
    if after["bare"]:
        lines.append("Hits without a section after: " + ", ".join(f"`{hit}`" for hit in after["bare"]) + ".")
    _write("\n".join(lines), MAN_START, MAN_END, no_write)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdfs", type=Path, default=ROOT / "bench" / ".cache" / "docs_sets" / "pdfs")
    parser.add_argument("--html", type=Path, help="a folder of HTML pages (the PostgreSQL manual of postgresql-doc-15)")
    parser.add_argument("--man-pages", nargs="*", metavar="NAME",
                        help=f"measure man pages typeset as PDFs beside the manuals instead (default: {' '.join(REPORT_PAGES)})")
    parser.add_argument("--before", help="a git revision to measure too (the code before the change)")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return 0
    pdfs = args.pdfs if args.pdfs.is_dir() else None
    if args.man_pages is not None:
        if pdfs is None:
            print("no PDF folder (run python bench/corpora/docs_set_pdfs.py); nothing to measure")
            return 0
        return man_report(tuple(args.man_pages) or REPORT_PAGES, pdfs, args.before, args.no_write)
    html = args.html if args.html and args.html.is_dir() else None
    if pdfs is None and html is None:
        print("no PDF folder (run python bench/corpora/docs_set_pdfs.py) and no --html folder; nothing to measure")
        return 0
    index_pages = list_pages(html) if html else []
    results = _trees(args.before, {"pdfs": str(pdfs) if pdfs else "", "html": str(html) if html else "", "index_pages": index_pages})
    lines = ["## Sections, page furniture, page labels and index pages", "",
             f"Command: `python bench/ingestion/bench_sections.py{' --html DIR' if html else ''}{' --before ' + args.before if args.before else ''}`; "
             f"date: {datetime.date.today().isoformat()}. PDFs: the set of `bench/corpora/docs_set_pdfs.py` (eight manuals, each with an outline "
             "or running chapter titles). HTML: "
             + (f"the PostgreSQL 15 manual of Debian's `postgresql-doc-15` ({len(index_pages)} pages flagged as index pages by the new "
                "loader, the alphabetical index and chapter tables of contents among them)." if html else "not measured.")
             + " The reference rules are the script's own (its docstring), not the loaders'.", "", table(results), ""]
    if html:
        lines += ["Pages flagged as index pages: " + ", ".join(f"`{name}`" for name in index_pages) + ".", ""]
        after = results["after"]["html"]["tops"]
        lines.append("Top hits after: " + "; ".join(f"{q!r} → `{after[q]}`" for q in CONTENT_QUESTIONS + LIST_QUESTIONS) + ".")
    _write("\n".join(lines), START, END, args.no_write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
