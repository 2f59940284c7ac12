"""How well the instruction detector tells text addressed to a model from ordinary text.

Measures :func:`agentic_rag._text.instructions.is_instruction_like` on

1. the phrasing sets under ``tests/data/``: ``instructions_dev.json`` (the detector was written
   against it) and ``instructions_held_out.json`` (written before the detector, never used to
   tune it): recall on the injections, false flags on the benign look-alikes, precision;
2. real text that holds no injection, each unit (sentence, list item, code block) as the
   answer path sees it: the docs-QA documentation under ``bench/data/docs_qa/`` and, when
   ``../shared/data/`` is there, the SciFact and HotpotQA passages; every flag there is false;
3. the cost, CPU nanoseconds per character over those units.

Usage::

    python bench/bench_instructions.py [--no-write]
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from benchmark_doc import replace_section  # noqa: E402 - the sibling module in bench/

from agentic_rag._text.instructions import _family_uncached, instruction_family  # noqa: E402
from agentic_rag._text.segments import split_units  # noqa: E402

DATA = ROOT / "tests" / "data"
SHARED = ROOT.parent / "shared" / "data"
DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- bench:instructions -->", "<!-- /bench:instructions -->"


def phrasing_row(name: str) -> tuple[str, list[str]]:
    data = json.loads((DATA / name).read_text(encoding="utf-8"))
    injections, benign = data["injections"], data["benign"]
    found = sum(bool(instruction_family(t)) for _, t in injections)
    false = [t for _, t in benign if instruction_family(t)]
    missed = [t for _, t in injections if not instruction_family(t)]
    languages = len({lang for lang, _ in injections})
    precision = found / (found + len(false)) if found + len(false) else 1.0
    row = (f"| {name} | {len(injections)} in {languages} languages | {found}/{len(injections)} ({found / len(injections):.1%}) | "
           f"{len(benign)} | {len(false)} | {precision:.1%} |")
    return row, [f"missed: {t!r}" for t in missed] + [f"false flag: {t!r}" for t in false]


def real_units() -> dict[str, list[str]]:
    sets: dict[str, list[str]] = {}
    docs = [u.text for p in sorted((ROOT / "bench" / "data" / "docs_qa").rglob("*"))
            if p.is_file() and p.suffix in (".md", ".rst", ".txt") for u in split_units(p.read_text(encoding="utf-8", errors="replace"))]
    sets["docs-QA documentation (attrs, flask, jinja2, markdown, structlog)"] = docs
    for name, limit in (("scifact", 5183), ("hotpotqa", 2000)):
        path = SHARED / name / "corpus.jsonl.gz"
        if not path.exists():
            print(f"skipping {name}: {path} is absent", file=sys.stderr)
            continue
        units = []
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for n, line in enumerate(handle):
                if n == limit:
                    break
                record = json.loads(line)
                units.extend(u.text for u in split_units(f"{record.get('title', '')}\n{record.get('text', '')}"))
        sets[f"{name} passages (first {limit})"] = units
    return sets


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-write", action="store_true", help="do not update docs/benchmarks.md")
    args = parser.parse_args()
    lines = ["| set | injections | found (recall) | look-alikes | flagged | precision |", "|---|---|---|---|---|---|"]
    notes: list[str] = []
    for name in ("instructions_dev.json", "instructions_held_out.json"):
        row, detail = phrasing_row(name)
        lines.append(row)
        notes.extend(f"{name}: {d}" for d in detail)
    lines += ["", "| real text (no injection) | units | characters | flagged (false) | CPU ns / character |", "|---|---|---|---|---|"]
    for label, units in real_units().items():
        chars = sum(map(len, units))
        started = time.process_time()
        flagged = [u for u in units if _family_uncached(u)]
        elapsed = time.process_time() - started
        lines.append(f"| {label} | {len(units):,} | {chars:,} | {len(flagged)} | {elapsed / max(chars, 1) * 1e9:.0f} |")
        notes.extend(f"{label}: false flag: {u[:100]!r}" for u in flagged[:5])
    table = "\n".join(lines)
    print(table)
    for note in notes:
        print(note)
    if args.no_write:
        return 0
    date = datetime.date.today().isoformat()
    text = "\n".join([
        "## Instructions addressed to a model (prompt injection in documents)",
        "",
        f"Command: `python bench/bench_instructions.py` ({date}, Python {platform.python_version()}). The detector "
        "(`_text/instructions.py`) was written against the dev phrasings; the held-out phrasings were written and committed "
        "before it and never used to tune it. Real text is split into the units the answer path ranks; no unit of it is an "
        "injection, so every flag there is a false one. The first held-out run, on the detector as first committed, found "
        "59/60 with no false flag; a rule added later for a dev case (text closed by an end-of-turn token) flags one look-alike.",
        "",
        table,
        "",
        *(f"- {note}" for note in notes),
    ])
    replace_section(DOC, START, END, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
