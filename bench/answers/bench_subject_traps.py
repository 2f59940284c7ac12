"""Whether ``answered`` stays on the question's subject: hand-written near-miss traps.

A set folder (default ``bench/data/subject_traps/dev``) holds ``corpus/`` (Markdown files)
and ``questions.jsonl``: one object a line with ``id``, ``kind`` (``trap`` or ``control``),
``family``, ``question`` and, for a control, ``answer`` (the string its file states). A trap
shares words with a sentence of the corpus that does not answer it: another attribute
(offices for employees), the other bound (a minimum for a maximum), a neighbouring entity (a
client's port for the server's), another stage of a life cycle ("deprecated" for "added",
"will be removed" for "was removed"), another term's definition, a setting with no value
given, a planned or hypothetical value. No file answers it. A control is answered plainly by
its file, sometimes in a table row or a list item, sometimes in other words.

The whole corpus is indexed into one temporary store, and every question is asked in both
workflows, deterministically, through the service behind ``agentic-rag ask``. A trap
answered is a false answer; a control answered with its ``answer`` in the answer text (case
and white space folded) is a right one. Precision of ``answered`` = right / all answered.

Usage::

    python bench/answers/bench_subject_traps.py [--set DIR] [--verbose] [--no-write]
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.benchmark_doc import replace_section  # noqa: E402

from agentic_rag._interfaces.store_service import StoreService  # noqa: E402
from agentic_rag._store import KnowledgeStore  # noqa: E402

DOC = ROOT / "docs" / "benchmarks.md"
DEFAULT_SET = ROOT / "bench" / "data" / "subject_traps" / "dev"
START, END = "<!-- bench:subject-traps -->", "<!-- /bench:subject-traps -->"
MODES = ("agentic", "parallel")


def _folded(text: str) -> str:
    return " ".join(text.casefold().split())


def load(folder: Path) -> list[dict[str, str]]:
    """The set's questions, in file order."""
    with (folder / "questions.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def run(folder: Path, questions: list[dict[str, str]], *, verbose: bool = False) -> dict[str, Counter]:
    """Ask every question in both workflows over one store of the set's corpus."""
    tally: dict[str, Counter] = {mode: Counter() for mode in MODES}
    with tempfile.TemporaryDirectory(prefix="subject-traps-") as tmp:
        corpus = folder / "corpus"
        store = KnowledgeStore(Path(tmp) / "store", base=corpus)
        store.index(corpus, corpus="docs", description="company, product and country notes")
        service = StoreService(store)
        for question in questions:
            kind, family = question["kind"], question["family"]
            for mode, counts in tally.items():
                payload = service.ask(question["question"], mode).payload
                counts[(kind, family, "n")] += 1
                answered = payload["status"] == "answered"
                right = kind == "control" and _folded(question["answer"]) in _folded(payload["answer"])
                if answered:
                    counts[(kind, family, "answered")] += 1
                    counts["right" if right else "wrong"] += 1
                if verbose:
                    mark = "WRONG" if answered and not right else ("ok" if answered or kind == "trap" else "miss")
                    print(f"{question['id']:<5} {mode:<8} {kind:<7} {payload['status']:<12} {mark:<5} {question['question']}")
                    if mark != "ok" or answered:
                        print(f"      {payload['answer'][:300]!r}")
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=DEFAULT_SET, help="the set's folder (corpus/ and questions.jsonl)")
    parser.add_argument("--verbose", action="store_true", help="print every question's outcome")
    parser.add_argument("--no-write", action="store_true", help="do not update docs/benchmarks.md")
    args = parser.parse_args(argv)
    folder = args.set.absolute()
    if not (folder / "questions.jsonl").exists() or not (folder / "corpus").is_dir():
        print(f"skipped: {folder} has no questions.jsonl and corpus/", file=sys.stderr)
        return 0
    questions = load(folder)
    tally = run(folder, questions, verbose=args.verbose)
    rows = sorted({(q["kind"], q["family"]) for q in questions}, key=lambda r: (r[0] != "trap", r[1]))
    lines = ["| cases | n | answered, agentic | answered, parallel |", "|---|---:|---:|---:|"]
    for kind, family in rows:
        n = tally["agentic"][(kind, family, "n")]
        lines.append(f"| {kind}: {family} | {n} | {tally['agentic'][(kind, family, 'answered')]} | {tally['parallel'][(kind, family, 'answered')]} |")
    traps = sum(1 for q in questions if q["kind"] == "trap")
    controls = len(questions) - traps
    summary = []
    for mode, counts in tally.items():
        answered = counts["right"] + counts["wrong"]
        precision = f"{counts['right'] / answered:.1%}" if answered else "n/a"
        wrong_traps = sum(counts[(k, f, "answered")] for k, f in rows if k == "trap")
        summary.append(f"| {mode} | {wrong_traps} of {traps} | {counts['right']} of {controls} | {precision} |")
    table = "\n".join(lines)
    totals = "\n".join(["| mode | traps answered | controls answered with their answer | precision of `answered` |", "|---|---:|---:|---:|", *summary])
    print(table, "\n", totals, sep="\n")
    if not args.no_write:
        try:
            shown = folder.relative_to(ROOT)
        except ValueError:
            shown = folder
        date = datetime.date.today().isoformat()
        text = (f"Command: `python bench/answers/bench_subject_traps.py --set {shown}` ({date}, Python {platform.python_version()}). "
                f"{len(questions)} hand-written questions over the set's {sum(1 for _ in (folder / 'corpus').glob('*.md'))} files in one "
                f"store, each asked in both workflows: a trap shares words with a sentence that does not answer it (another attribute, "
                f"the other bound, a neighbouring entity, another stage of a life cycle, another term's definition, no value given, a "
                f"planned or hypothetical value) and no file answers it; a control is stated by its file.\n\n{totals}\n\n{table}\n")
        # The development set writes `subject-traps`; another set (the held-out one) its own section.
        start, end = (START, END) if folder.name == "dev" else (f"<!-- bench:subject-traps-{folder.name} -->", f"<!-- /bench:subject-traps-{folder.name} -->")
        replace_section(DOC, start, end, f"## Subject traps: {folder.name} set\n\n{text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
