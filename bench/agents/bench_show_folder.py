"""Every hit ``search`` prints, read back with ``show``: does it print the focus lines, and in
how many bytes against printing the same source lines (``sed -n START,ENDp``)?

Indexes ``--folder`` into a temporary store, runs each question of ``--questions`` (the
docs-QA questions by default) as a search of ``-k`` hits, and for every hit shows its focus
location (``path:START-END``, with the page or cell) as ``agentic-rag show`` prints it, with
the default byte cap. A hit reads back when each of its focus lines (``…`` pieces) stands in
the rendered line that holds its source line. Bytes are those of the text output; the source
lines are those of the file (none for PDF, Word and notebooks, which ``sed`` cannot read).

Usage::

    python bench/agents/bench_show_folder.py --folder DIR [--questions FILE] [-k 5] [--no-write]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.benchmark_doc import replace_section  # noqa: E402

DOC = ROOT / "docs" / "benchmarks.md"
QUESTIONS = ROOT / "bench" / "data" / "docs_qa" / "questions.jsonl"
_NO_SED = {".pdf", ".docx", ".ipynb"}


def reads_back(hit: dict, payload: dict) -> bool:
    """Whether every focus line of ``hit`` stands in the rendered line holding its number."""
    shown: dict[int, list[str]] = {}  # several rendered lines may start on one source line
    for block in payload["blocks"]:
        for line in block["lines"]:
            shown.setdefault(line["line"], []).append(" ".join(line["text"].split()))
    for focus in hit["focus_text"].split("\n"):
        match = re.fullmatch(r"(\d+): (.*)", focus)
        number, text = (int(match.group(1)), match.group(2)) if match else (None, focus)
        # A paragraph the chunker cut at a sentence is one rendered line, numbered by its first
        # source line: the focus line is in the nearest line at or before its number.
        before = [n for n in shown if number is None or n <= number]
        candidates = shown[max(before)] if before and number is not None else [t for texts in shown.values() for t in texts]
        pieces = [p.strip() for p in text.split("\u2026") if p.strip()]
        if not any(all(p in c for p in pieces) for c in candidates):
            return False
    return True


def main() -> None:
    from agentic_rag._interfaces.locations import location_label
    from agentic_rag._interfaces.show_span import show_location, show_text
    from agentic_rag._interfaces.store_service import StoreService
    from agentic_rag._store import KnowledgeStore
    from agentic_rag._text.lines import split_lines

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", required=True, type=Path)
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("-k", type=int, default=5)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()

    folder = args.folder.resolve()
    questions = [json.loads(line)["question"] for line in args.questions.read_text(encoding="utf-8").splitlines() if line.strip()]
    per_format: dict[str, dict[str, list[int]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-show-folder-") as tmp:
        store = KnowledgeStore(Path(tmp) / "store", base=folder.parent)
        report = store.index([folder])
        service = StoreService(store)
        for question in questions:
            for hit in service.search(question, args.k):
                location = location_label({**hit, "start_line": hit["focus_start_line"], "end_line": hit["focus_end_line"]})
                payload = show_location(store.directory, location, root=folder.parent)
                suffix = Path(hit["path"]).suffix.lower()
                row = per_format.setdefault(suffix, {"ok": [], "show": [], "sed": []})
                row["ok"].append(int(reads_back(hit, payload)))
                row["show"].append(len((show_text(payload) + "\n").encode("utf-8")))
                if suffix not in _NO_SED:
                    lines = split_lines((folder.parent / hit["path"]).read_text(encoding="utf-8-sig"))
                    span = lines[hit["focus_start_line"] - 1:hit["focus_end_line"]]
                    row["sed"].append(sum(len(line.encode("utf-8")) + 1 for line in span))

    rows = []
    for suffix, row in sorted(per_format.items()):
        sed = f"{statistics.median(row['sed']):.0f}" if row["sed"] else "(no text)"
        rows.append((suffix, f"{len(row['ok'])}", f"{sum(row['ok'])}", f"{statistics.median(row['show']):.0f}", sed))
    total_ok = sum(sum(row["ok"]) for row in per_format.values())
    total = sum(len(row["ok"]) for row in per_format.values())
    header = "| format | hits | focus lines read back | show bytes (median) | source lines bytes (median) |"
    table = "\n".join(f"| {' | '.join(row)} |" for row in rows)
    print(f"{report.files_seen} files, {report.chunks_added} chunks; {len(questions)} questions, -k {args.k}; read back {total_ok}/{total}")
    print(header)
    print(table)
    if args.no_write:
        return
    command = f"python bench/agents/bench_show_folder.py --folder DIR -k {args.k}"
    text = f"""## Every search hit read back with `show`

Command: `{command}` ({datetime.date.today().isoformat()}, Python {platform.python_version()}).
DIR held {report.files_seen} files ({report.chunks_added} chunks): the Python 3 HTML documentation's
`library/` and `tutorial/` (Debian `python3-doc`), the flask (reStructuredText) and attrs
(Markdown) documentation of `bench/data/docs_qa/`, and two PDF manuals (Debian `bzip2-doc`
`manual.pdf`, `nettle-dev` `nettle.pdf`). Each of the {len(questions)} docs-QA questions was
searched with `-k {args.k}` and every hit's focus location shown with the default byte cap:
{total_ok} of {total} hits print their focus lines. Source-line bytes are what printing the
same lines of the file prints (markup included; none for PDF); `show` prints more because of
its header line (the path and the section's heading path) and because a line it prints is the
whole rendered line (an HTML paragraph cited by its first source line prints whole).

{header}
|---|---|---|---|---|
{table}
"""
    replace_section(DOC, "<!-- bench:show-folder -->", "<!-- /bench:show-folder -->", text)
    print(f"wrote {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
