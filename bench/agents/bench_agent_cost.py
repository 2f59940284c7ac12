"""What an agent reads before it has the answer: the skill's commands against grep.

For every question of the docs sets (``bench/corpora/docs_qa_sets.py``) and every scripted policy, the
UTF-8 bytes of tool output read until the answer key first appears: the outputs of the
policy's calls concatenated in order, and "appears" meaning every part's key (any of its
alternatives) stands in the prefix, case-insensitive, white space folded. No model runs; the
same files give the same figures.

Policies:

- ``search -k K`` (K = 3, 5, 10), text output, one call;
- ``ask`` text and ``ask --json``, ``--mode agentic`` and ``--mode parallel``, one call each;
- grep: the question's content words (tokens matching
  ``[A-Za-z0-9_]+(?:[./-][A-Za-z0-9_]+)*``, at least 3 characters, not in the stop-word list
  of ``bench/agents/agent_cost_measures.py``, de-duplicated case-insensitively) ordered rarest first
  by the number of files of the folder holding them (``grep -li -F -- WORD``), ties by the
  case-folded word; words in no file are dropped. For each word in turn,
  ``grep -n -H -i -F -C 2 -- WORD`` over every file of the folder, named ``./PATH`` in sorted
  path order (the lines ``grep -rn -i -F -C 2 -- WORD .`` prints, in an order that does not
  depend on the file system), ``LC_ALL=C.UTF-8``; outputs concatenated until the key appears
  or 32 KB have been read. The file counts that order the words are not counted as read.
  For a folder of PDFs also "grep after pdftotext": the same over a copy of the folder with
  each PDF replaced by ``pdftotext FILE.pdf FILE.txt`` (made once per run);
- gold file: the first listed answer file that holds the key, read from its start to the end
  of the key (a PDF as its pdftotext text); when no single listed file holds every part, the
  listed files read whole in order;
- route: ``search -k 5`` text, then, when the key is not in it, ``ask --json`` (agentic).

Each folder is copied into a temporary folder and indexed there once per run with the real
``index . --corpus NAME`` (its default store, so the paths printed are relative to the
folder); every command runs through the CLI entry point in this process with its standard
output captured, so the figures are of whatever the CLI prints.

Also measured on the same run: ROC AUC of ``relevance`` of ``search --json -k 10`` hits
separating answer-bearing hits (the hit's ``text`` holds any part's key) from the others, the
precision and recall of the documented weak line, and the output budgets of issue 20.

Run: ``python bench/agents/bench_agent_cost.py`` (report split, all sets present, writes the
``agent-cost`` section); ``--split dev``, ``--sets attrs,flask``, ``--no-write``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.agents import agent_cost_measures as m  # noqa: E402
from bench.agents import focus_diagnosis  # noqa: E402
from bench.agents.agent_cost_report import Observations, report_text  # noqa: E402
from bench.agents.in_process_cli import run_cli  # noqa: E402
from bench.corpora.docs_qa_sets import SETS, LoadedSet, load_sets  # noqa: E402

from agentic_rag._interfaces.evidence_payload import WEAK_RELEVANCE  # noqa: E402

MODES = ("agentic", "parallel")
GREP_ENV = {**os.environ, "LC_ALL": "C.UTF-8"}


def _utf8(text: str) -> int:
    return len(text.encode("utf-8", "surrogateescape"))


class GrepFolder:
    """A folder as the grep policy sees it: its files in sorted order, word counts cached."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files = sorted("./" + p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
        self._counts: dict[str, int] = {}
        self._outputs: dict[str, str] = {}

    def _grep(self, options: list[str], word: str) -> str:
        done = subprocess.run(["grep", *options, "--", word, *self.files], cwd=self.folder, env=GREP_ENV,
                              capture_output=True, check=False)
        if done.returncode > 1:
            raise RuntimeError(f"grep {' '.join(options)} {word!r} failed: {done.stderr.decode(errors='replace').strip()}")
        return done.stdout.decode("utf-8", "surrogateescape")

    def files_with(self, word: str) -> int:
        if word not in self._counts:
            self._counts[word] = len(self._grep(["-l", "-i", "-F"], word).splitlines())
        return self._counts[word]

    def output(self, word: str) -> str:
        if word not in self._outputs:
            self._outputs[word] = self._grep(["-n", "-H", "-i", "-F", "-C", "2"], word)
        return self._outputs[word]

    def policy(self, question: str, parts: list[list[str]]) -> tuple[int | None, int, list[int]]:
        """(bytes to the key or None, bytes read, bytes of each call) under the grep policy."""
        words = m.content_words(question)
        ordered = m.rarest_first(words, {w: self.files_with(w) for w in words})
        stream, calls = "", []
        for word in ordered:
            text = self.output(word)
            stream += text
            calls.append(_utf8(text))
            found = m.bytes_to_key(stream, parts) if parts else None
            if found is not None:
                return (found if found <= m.CAP else None), sum(calls), calls
            if sum(calls) >= m.CAP:
                break
        return None, sum(calls), calls


def pdftotext_copy(folder: Path, target: Path) -> Path | None:
    """A copy of ``folder`` with every ``.pdf`` replaced by its pdftotext ``.txt``; None
    without pdftotext."""
    if shutil.which("pdftotext") is None:
        return None
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        out = target / path.relative_to(folder)
        out.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix.lower() == ".pdf":
            subprocess.run(["pdftotext", str(path), str(out.with_suffix(".txt"))], capture_output=True, check=False)
        else:
            shutil.copyfile(path, out)
    return target


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8", "surrogateescape") if path.is_file() else ""


def gold_policy(folder: Path, files: list[str], parts: list[list[str]], *, texts: Path | None) -> tuple[int | None, int]:
    """(bytes to the key, bytes of the file read) reading the listed answer files."""
    def text_of(name: str) -> str:
        if texts is not None and name.lower().endswith(".pdf"):
            return _read((texts / name).with_suffix(".txt"))
        return _read(folder / name)

    contents = [text_of(name) for name in files]
    for text in contents:
        found = m.bytes_to_key(text, parts)
        if found is not None:
            return (found if found <= m.CAP else None), _utf8(text)
    whole = "".join(contents)
    found = m.bytes_to_key(whole, parts)
    return (found if found is not None and found <= m.CAP else None), _utf8(whole)


@dataclass
class Runner:
    """One docs set, indexed, with its grep folders."""

    loaded: LoadedSet
    work: Path
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        name = self.loaded.spec.name
        self.copy = self.work / name
        shutil.copytree(self.loaded.folder, self.copy)
        index_out = run_cli(["index", ".", "--corpus", name], self.copy)  # the summary line (--quiet prints nothing)
        # The first line without its seconds, which vary from run to run.
        self.index_line = re.sub(r" \([0-9.]+ s\)", "", index_out.splitlines()[0]) if index_out else ""
        self.grep = GrepFolder(self.loaded.folder)
        self.texts: Path | None = None
        self.grep_texts: GrepFolder | None = None
        if self.loaded.spec.pdf:
            self.texts = pdftotext_copy(self.loaded.folder, self.work / f"{name}-pdftotext")
            if self.texts is None:
                self.notes.append(f"{name}: pdftotext is not on PATH, so no 'grep after pdftotext' row and gold PDFs are read as bytes")
            else:
                self.grep_texts = GrepFolder(self.texts)

    def question(self, q: dict, obs: Observations, diagnosis: focus_diagnosis.Diagnosis) -> None:
        """Run every policy on one question and record what was read, and where its answer is
        lost between retrieval and the printed lines (``diagnosis``)."""
        text, parts = q["question"], q["answers"] if q["kind"] != "unanswerable" else []
        name = self.loaded.spec.name
        outputs: dict[str, str] = {}
        for k in (3, 5, 10):
            outputs[f"search -k {k}"] = run_cli(["search", text, "-k", str(k)], self.copy)
        for mode in MODES:
            outputs[f"ask ({mode})"] = run_cli(["ask", text, "--mode", mode], self.copy)
            outputs[f"ask --json ({mode})"] = raw = run_cli(["ask", text, "--mode", mode, "--json"], self.copy)
            obs.answer_chars(name, mode, len(json.loads(raw)["answer"]))
        diagnosis.printed_bytes.append(_utf8(outputs["search -k 5"]))
        if parts:
            hits5 = json.loads(run_cli(["search", text, "-k", "5", "--json"], self.copy))
            focus_diagnosis.count(q, outputs["search -k 5"], hits5, diagnosis)
        for policy, out in outputs.items():
            obs.add(name, policy, parts, m.bytes_to_key(out, parts) if parts else None, _utf8(out), [_utf8(out)])
        first, then = outputs["search -k 5"], outputs["ask --json (agentic)"]
        found = m.bytes_to_key(first, parts) if parts else None
        if found is not None:
            obs.add(name, "route: search -k 5, then ask --json", parts, found, _utf8(first), [_utf8(first)])
        else:
            both = first + then
            found = m.bytes_to_key(both, parts) if parts else None
            obs.add(name, "route: search -k 5, then ask --json", parts, found, _utf8(both), [_utf8(first), _utf8(then)])
        found, read, calls = self.grep.policy(text, parts)
        obs.add(name, "grep", parts, found, read, calls)
        if self.grep_texts is not None:
            found, read, calls = self.grep_texts.policy(text, parts)
            obs.add(name, "grep after pdftotext", parts, found, read, calls)
        if parts and q.get("files"):
            found, size = gold_policy(self.loaded.folder, q["files"], parts, texts=self.texts)
            obs.add(name, "gold file", parts, found, size, [size])
        hits = json.loads(run_cli(["search", text, "-k", "10", "--json"], self.copy))
        for hit in hits:
            if "text" not in hit and "focus_text" in hit:  # hits without the whole chunk: judge what is shown
                hit["text"] = hit["focus_text"]
                note = f"{name}: `search --json` hits carry no `text`; answer-bearing judged on `focus_text`"
                if note not in self.notes:
                    self.notes.append(note)
            obs.hit(name, float(hit["relevance"]), bool(parts) and m.holds_key(hit["text"], parts, every=False))


def run(split: str, names: list[str] | None) -> tuple[Observations, list[str], list[str], dict[str, focus_diagnosis.Diagnosis]]:
    """Every policy on every question of the split; (observations, notes, index lines, the
    diagnosis of ``search -k 5`` per set)."""
    notes: list[str] = []
    sets = load_sets(split, names, say=lambda line: (print(line, file=sys.stderr), notes.append(line)))
    obs = Observations()
    indexed = []
    diagnoses: dict[str, focus_diagnosis.Diagnosis] = {}
    with tempfile.TemporaryDirectory(prefix="agent-cost-") as tmp:
        for loaded in sets:
            print(f"{loaded.spec.name}: indexing, then {len(loaded.questions)} questions", file=sys.stderr)
            runner = Runner(loaded, Path(tmp))
            indexed.append(f"{loaded.spec.name}: {runner.index_line}")
            diagnosis = diagnoses.setdefault(loaded.spec.name, focus_diagnosis.Diagnosis())
            for q in loaded.questions:
                runner.question(q, obs, diagnosis)
            notes += runner.notes
    return obs, notes, indexed, diagnoses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=("dev", "report"), default="report")
    parser.add_argument("--sets", metavar="NAMES", help=f"comma-separated, some of {','.join(s.name for s in SETS)} (default: all present)")
    parser.add_argument("--no-write", action="store_true", help="do not update docs/benchmarks.md")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.sets.split(",") if n.strip()] if args.sets else None
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    try:
        obs, notes, indexed, diagnoses = run(args.split, names)
    except ValueError as exc:
        parser.error(str(exc))
    if not obs.sets():
        print("no docs set to run", file=sys.stderr)
        return 0
    command = "python bench/agents/bench_agent_cost.py" + (f" --split {args.split}" if args.split != "report" else "") + (f" --sets {args.sets}" if args.sets else "")
    machine = (f"CPython {platform.python_version()}, {os.cpu_count()} cores, 1-minute load average {load:.2f} when it started; "
               f"grep: {_grep_version()}")
    body = report_text(obs, weak=WEAK_RELEVANCE, split=args.split, notes=notes, indexed=indexed)
    body += ("\n\nWhere the answer is lost (`search -k 5`, answerable questions): every part's key in the five hits' chunks "
             "(retrieval found it), in the printed lines (what the agent reads without another call), in the top hit's chunk.\n\n"
             + focus_diagnosis.table(diagnoses))
    print(body)
    if args.no_write or args.split != "report" or names:
        return 0
    from bench.benchmark_doc import replace_section

    header = (f"## What an agent reads: the skill's commands against grep ({args.split} split)\n\n"
              f"Command: `{command}`; date: {datetime.date.today().isoformat()}; {machine}; no language model.\n\n")
    replace_section(ROOT / "docs" / "benchmarks.md", "<!-- bench:agent-cost -->", "<!-- /bench:agent-cost -->", header + body)
    return 0


def _grep_version() -> str:
    done = subprocess.run(["grep", "--version"], capture_output=True, text=True, check=False)
    return done.stdout.splitlines()[0] if done.stdout else "unknown"


if __name__ == "__main__":
    sys.exit(main())
