"""Convert docs-QA question files to the question format of the agent A/B kit.

The docs-QA files (``bench/data/docs_qa/questions*.jsonl``, format in that folder's README)
hold one question per line with ``split``, ``kind`` (``single``, ``two_part`` or
``unanswerable``), ``answers``, ``files`` and ``note``. The A/B kit reads one JSON object per
line with only ``id``, ``project``, ``question``, ``kind`` (``single``, ``multi`` or
``unanswerable``) and ``keys``. This script keeps the questions of one split (and, if asked,
of some projects only), in the order of the input files, and maps ``two_part`` to ``multi``
and ``answers`` to ``keys`` unchanged (one list of alternative keys per part; ``[]`` for an
unanswerable question). The split, the files and the note stay behind, so the agent under
test cannot see where the answer is.

Run::

    python bench/agents/ab_questions.py bench/data/docs_qa/questions_pyhtml.jsonl \\
        bench/data/docs_qa/questions_sqlite.jsonl --split report --out ab_report.jsonl
    python bench/agents/ab_questions.py bench/data/docs_qa/questions.jsonl \\
        --split dev --projects attrs,flask --out ab_dev.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

KINDS = {"single": "single", "two_part": "multi", "unanswerable": "unanswerable"}
SPLITS = ("dev", "report")
PARTS = {"single": 1, "two_part": 2, "unanswerable": 0}


def convert(rows: Iterable[dict], split: str, projects: Sequence[str] = ()) -> list[dict]:
    """The kit's records for the ``rows`` of ``split`` (and of ``projects``, when given).

    Raises:
        ValueError: ``split`` is not dev/report, or a row lacks a field, has an unknown kind,
            or has a number of answer parts that does not match its kind.
    """
    if split not in SPLITS:
        raise ValueError(f"split {split!r}: expected one of {', '.join(SPLITS)}")
    wanted = set(projects)
    out = []
    for row in rows:
        missing = [name for name in ("id", "project", "split", "kind", "question", "answers")
                   if name not in row]
        if missing:
            raise ValueError(f"question {row.get('id', '?')!r} lacks {', '.join(missing)}")
        kind = row["kind"]
        if kind not in KINDS:
            raise ValueError(f"question {row['id']!r} has kind {kind!r}: expected one of "
                             f"{', '.join(KINDS)}")
        answers = row["answers"]
        if len(answers) != PARTS[kind] or not all(
                isinstance(part, list) and part for part in answers):
            raise ValueError(f"question {row['id']!r} of kind {kind!r} has answers {answers!r}:"
                             f" expected {PARTS[kind]} non-empty list(s) of keys")
        if row["split"] != split or (wanted and row["project"] not in wanted):
            continue
        out.append({"id": row["id"], "project": row["project"], "question": row["question"],
                    "kind": KINDS[kind], "keys": [list(part) for part in answers]})
    return out


def read_rows(paths: Sequence[Path]) -> list[dict]:
    """The question records of the JSON-lines ``paths``, in order; blank lines are skipped."""
    rows = []
    for path in paths:
        with Path(path).open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{path}:{number}: not JSON ({exc})") from exc
    return rows


def write_jsonl(records: Sequence[dict], out: Path) -> None:
    """Write ``records`` as JSON lines to ``out`` through a temporary file and a rename."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    handle = tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=out.parent, prefix=f".{out.name}-", delete=False)
    try:
        with handle:
            for record in records:
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        os.replace(handle.name, out)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: convert the given question files; print how many records were written."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("questions", nargs="+", type=Path, help="docs-QA question files")
    parser.add_argument("--split", required=True, choices=SPLITS)
    parser.add_argument("--projects", default="",
                        help="comma-separated project names to keep (default: all)")
    parser.add_argument("--out", required=True, type=Path, help="JSON-lines file to write")
    args = parser.parse_args(argv)
    projects = [name for name in args.projects.split(",") if name]
    try:
        records = convert(read_rows(args.questions), args.split, projects)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not records:
        print(f"error: no {args.split} questions for projects {projects or 'all'}",
              file=sys.stderr)
        return 2
    write_jsonl(records, args.out)
    print(f"{args.out}: {len(records)} questions ({args.split})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
