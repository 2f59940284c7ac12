"""The documentation sets of the docs-QA and agent-cost benchmarks, in one table.

Each set is one project's documentation folder and the question file that holds its
questions (``bench/data/docs_qa/``, format in that folder's README). The three bundled
projects share ``questions.jsonl``; jinja2 and Python-Markdown are dev-only
(``questions_extra_dev.jsonl``); the large Django folder, the folder of PDFs and the HTML
manuals of Python 3.11 and SQLite are fetched into ``bench/.cache/docs_sets/`` by
``bench/corpora/docs_set_django.py``, ``bench/corpora/docs_set_pdfs.py``, ``bench/corpora/docs_set_pyhtml.py`` and
``bench/corpora/docs_set_sqlite.py``
(``fetch(cache_dir) -> Path``). A set whose question file, fetch script or folder is missing
is skipped with a message, never silently.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CACHE", "DATA", "SETS", "DocsSet", "LoadedSet", "load_sets"]

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "bench" / "data" / "docs_qa"
CACHE = ROOT / "bench" / ".cache" / "docs_sets"


def _bundled(project: str) -> Callable[[], Path]:
    return lambda: DATA / project


def _fetched(script: str) -> Callable[[], Path]:
    """The folder that ``bench/corpora/SCRIPT.py``'s ``fetch(cache_dir)`` returns (downloads once)."""

    def resolve() -> Path:
        path = ROOT / "bench" / "corpora" / f"{script}.py"
        if not path.exists():
            raise FileNotFoundError(f"bench/corpora/{script}.py is absent")
        spec = importlib.util.spec_from_file_location(f"agentic_rag_bench_{script}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses in the script look their module up
        spec.loader.exec_module(module)
        return Path(module.fetch(CACHE))

    return resolve


@dataclass(frozen=True, slots=True)
class DocsSet:
    """One project's documentation: its name (the questions' ``project``), the question
    file under ``bench/data/docs_qa/`` and how to get the folder."""

    name: str
    questions: str
    folder: Callable[[], Path]
    pdf: bool = False  # the folder holds PDFs: plain grep cannot read them


SETS: tuple[DocsSet, ...] = (
    DocsSet("attrs", "questions.jsonl", _bundled("attrs")),
    DocsSet("flask", "questions.jsonl", _bundled("flask")),
    DocsSet("structlog", "questions.jsonl", _bundled("structlog")),
    DocsSet("jinja2", "questions_extra_dev.jsonl", _bundled("jinja2")),
    DocsSet("markdown", "questions_extra_dev.jsonl", _bundled("markdown")),
    DocsSet("django", "questions_django.jsonl", _fetched("docs_set_django")),
    DocsSet("pdfs", "questions_pdfs.jsonl", _fetched("docs_set_pdfs"), pdf=True),
    DocsSet("pyhtml", "questions_pyhtml.jsonl", _fetched("docs_set_pyhtml")),
    DocsSet("sqlite", "questions_sqlite.jsonl", _fetched("docs_set_sqlite")),
)


@dataclass(frozen=True, slots=True)
class LoadedSet:
    """A set ready to run: its folder and its questions of the split (file order)."""

    spec: DocsSet
    folder: Path
    questions: tuple[dict, ...]


def _read_questions(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def load_sets(split: str, names: Sequence[str] | None = None, *, say: Callable[[str], None] = print) -> list[LoadedSet]:
    """The sets with questions in ``split`` (``dev``, ``report`` or ``all``), in table order.

    Args:
        split: Which half of the questions.
        names: Only these sets (``None``: all).
        say: Where skip messages go.

    Returns:
        One entry per set that has its question file, its folder and questions in the split.

    Raises:
        ValueError: A name in ``names`` is not a set of the table.
    """
    known = [s.name for s in SETS]
    unknown = [n for n in names or () if n not in known]
    if unknown:
        raise ValueError(f"unknown docs set(s) {', '.join(unknown)}; expected some of {', '.join(known)}")
    loaded = []
    for spec in SETS:
        if names and spec.name not in names:
            continue
        path = DATA / spec.questions
        if not path.exists():
            say(f"skipped set {spec.name}: bench/data/docs_qa/{spec.questions} is absent")
            continue
        questions = [q for q in _read_questions(path) if q["project"] == spec.name and (split == "all" or q["split"] == split)]
        if not questions:
            say(f"skipped set {spec.name}: no {split} questions in {spec.questions}")
            continue
        try:
            folder = spec.folder()
        except (OSError, RuntimeError, ValueError) as exc:  # a download that failed, a script not there yet
            say(f"skipped set {spec.name}: its folder is not available ({exc})")
            continue
        if not folder.is_dir():
            say(f"skipped set {spec.name}: {folder.name} is not a folder")
            continue
        loaded.append(LoadedSet(spec, folder, tuple(questions)))
    return loaded
