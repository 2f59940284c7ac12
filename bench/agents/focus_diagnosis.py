"""Where an answer is lost between retrieval and what an agent reads: three figures per set.

For every answerable question of a docs set (``bench/corpora/docs_qa_sets.py``), ``search -k 5`` is
run through the CLI entry point, in text and in JSON, over the set indexed once; then:

- **in chunks**: every part's key stands in the five retrieved chunks' texts (retrieval found it);
- **in printed lines**: every part's key stands in what ``search -k 5`` prints (what the agent
  reads without another call);
- **in top hit**: every part's key stands in the first hit's chunk text;
- **in top printed**: every part's key stands in what ``search -k 5`` prints of its first hit
  (its header and focus lines);
- **median bytes**: of what ``search -k 5`` prints, over every question of the set (the
  unanswerable ones too: an agent pays for those calls as well).

Keys match as in ``bench/agents/agent_cost_measures.py`` (case-insensitive, white space folded).
``bench/agents/bench_agent_cost.py`` reports these figures with its tables; run this module alone to
list the questions lost between the first and the second figure:

    python bench/agents/focus_diagnosis.py --split dev [--sets attrs,flask] [--misses]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the bench package (repository root)

from bench.agents import agent_cost_measures as m  # noqa: E402

__all__ = ["Diagnosis", "count", "diagnose_question", "first_hit", "indexed_copy", "table"]


@dataclass
class Diagnosis:
    """Counts of one set (or of all): answerable questions, and how many hold their key in the
    retrieved chunks, in the printed lines and in the top hit."""

    questions: int = 0
    in_chunks: int = 0
    in_printed: int = 0
    in_top: int = 0
    in_top_printed: int = 0
    printed_bytes: list[int] = field(default_factory=list)  # of every question's `search -k 5` output
    lost: list[str] = field(default_factory=list)  # ids: key in the chunks, not in the printed lines

    def add(self, other: Diagnosis) -> None:
        """Add another set's counts to these."""
        self.questions += other.questions
        self.in_chunks += other.in_chunks
        self.in_printed += other.in_printed
        self.in_top += other.in_top
        self.in_top_printed += other.in_top_printed
        self.printed_bytes.extend(other.printed_bytes)
        self.lost.extend(other.lost)

    def row(self, name: str) -> str:
        """One Markdown table row: name, questions, the three figures with their shares."""
        def share(n: int) -> str:
            return f"{n} ({100 * n / self.questions:.0f} %)" if self.questions else "-"
        printed_of_found = f"{100 * self.in_printed / self.in_chunks:.0f} %" if self.in_chunks else "-"
        median = f"{statistics.median(self.printed_bytes):.0f}" if self.printed_bytes else "-"
        return (f"| {name} | {self.questions} | {share(self.in_chunks)} | {share(self.in_printed)} | {printed_of_found} | "
                f"{share(self.in_top)} | {share(self.in_top_printed)} | {median} |")


HEADER = ("| set | answerable | key in the 5 chunks | key in the printed lines | printed, of found | key in the top hit "
          "| key in the top hit's printed lines | median bytes printed |\n"
          "|---|---|---|---|---|---|---|---|")


def diagnose_question(run: Callable[[list[str]], str], question: dict, into: Diagnosis) -> None:
    """Run ``search -k 5`` for one question and record its bytes; for an answerable one, run
    it in JSON too and count where its key is."""
    text = question["question"]
    printed = run(["search", text, "-k", "5"])
    into.printed_bytes.append(len(printed.encode("utf-8")))
    if question["kind"] != "unanswerable":
        count(question, printed, json.loads(run(["search", text, "-k", "5", "--json"])), into)


def first_hit(printed: str) -> str:
    """What the text output of ``search`` prints of its first hit: the lines up to the second
    hit's header (``2. path:...``)."""
    match = re.search(r"^2\. ", printed, flags=re.MULTILINE)
    return printed[:match.start()] if match else printed


def count(question: dict, printed: str, hits: Sequence[dict], into: Diagnosis) -> None:
    """Count one answerable question from what ``search -k 5`` printed and its JSON hits."""
    parts = question["answers"]
    chunks = "\n".join(hit.get("text", "") for hit in hits)
    into.questions += 1
    found = m.holds_key(chunks, parts, every=True)
    into.in_chunks += found
    shown = m.holds_key(printed, parts, every=True)
    into.in_printed += shown
    into.in_top += bool(hits) and m.holds_key(hits[0].get("text", ""), parts, every=True)
    into.in_top_printed += bool(hits) and m.holds_key(first_hit(printed), parts, every=True)
    if found and not shown:
        into.lost.append(question["id"])


def table(diagnoses: dict[str, Diagnosis]) -> str:
    """The Markdown table of the three figures per set, and pooled when there are several."""
    rows = [HEADER] + [d.row(name) for name, d in diagnoses.items()]
    if len(diagnoses) > 1:
        total = Diagnosis()
        for d in diagnoses.values():
            total.add(d)
        rows.append(total.row("all"))
    return "\n".join(rows)


def indexed_copy(folder: Path, name: str, work: Path) -> Path:
    """``work / name``: a copy of ``folder`` indexed as corpus ``name`` (made once, then reused,
    so a second run over the same work folder reads the store the first one made)."""
    import shutil

    from bench.agents.in_process_cli import run_cli  # noqa: PLC0415 - the CLI in this process (imports src/)

    copy = work / name
    if not (copy / ".agentic-rag").is_dir():
        shutil.copytree(folder, copy, dirs_exist_ok=True)
        run_cli(["index", ".", "--corpus", name, "--quiet"], copy)
    return copy


def main(argv: Sequence[str] | None = None) -> int:
    import tempfile

    from bench.agents.in_process_cli import run_cli  # noqa: PLC0415 - the CLI in this process
    from bench.corpora.docs_qa_sets import load_sets

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", default="dev", choices=("dev", "report", "all"))
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all present)")
    parser.add_argument("--misses", action="store_true", help="print each lost question's printed output")
    parser.add_argument("--keep", default="", help="index into this folder and reuse it on the next run (default: a temporary one)")
    args = parser.parse_args(argv)
    sets = load_sets(args.split, [s for s in args.sets.split(",") if s] or None, say=lambda line: print(line, file=sys.stderr))
    total = Diagnosis()
    rows = []
    with tempfile.TemporaryDirectory(prefix="focus-diagnosis-") as scratch:
        work = Path(args.keep) if args.keep else Path(scratch)
        for loaded in sets:
            name = loaded.spec.name
            copy = indexed_copy(loaded.folder, name, work)
            diagnosis = Diagnosis()
            for q in loaded.questions:
                diagnose_question(lambda argv: run_cli(argv, copy), q, diagnosis)
            rows.append(diagnosis.row(name))
            total.add(diagnosis)
            if args.misses:
                by_id = {q["id"]: q for q in loaded.questions}
                for qid in diagnosis.lost:
                    q = by_id[qid]
                    print(f"\n=== {qid}: {q['question']}\n    keys {q['answers']}")
                    print(run_cli(["search", q["question"], "-k", "5"], copy))
    print(HEADER)
    print("\n".join(rows))
    print(total.row("all"))
    print("lost:", " ".join(total.lost))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
