"""Loaders for multi-hop QA files as published: HotpotQA, 2WikiMultihopQA and MuSiQue.

* HotpotQA (``hotpot_dev_distractor_v1.json``): a JSON list of ``{_id, question, answer,
  supporting_facts: [[title, sentence index]], context: [[title, [sentences]]], type, level}``.
* 2WikiMultihopQA (``dev.json``): the same shape plus ``evidences``, ``[subject, relation,
  object]`` triples, one per hop.
* MuSiQue (``musique_ans_v1.0_dev.jsonl``): JSON lines of ``{id, question, answer,
  answer_aliases, paragraphs: [{idx, title, paragraph_text, is_supporting}],
  question_decomposition: [{id, question, answer, paragraph_support_idx}], answerable}``.

Either container (a JSON list or JSON lines, optionally gzip-compressed) is read for any of
the three; the records' keys tell the format. The questions' paragraphs become one open
corpus: a paragraph is its (title, text), listed once however many pools hold it, with its
title as id (``title#2``, ``title#3``... for later paragraphs with the same title and another
text). A question's pool is its paragraphs in file order and its gold paragraphs are the
supporting ones, in hop order. Decompositions become one sub-question per hop: MuSiQue's
``question``, or ``"subject >> relation"`` for an evidence triple (MuSiQue's own notation).

What a loader repairs or leaves out goes into :attr:`MultiHopDataset.notes`: a paragraph
listed twice in one pool is kept once (the first), and MuSiQue's unanswerable questions are
skipped. Malformed input raises :class:`~agentic_rag._errors.InvalidInputError` naming the
file, the line or record, and the expected shape.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from agentic_rag._contracts.corpus import Document
from agentic_rag._contracts.validation import require_text, require_unique
from agentic_rag._errors import InvalidInputError
from agentic_rag.evaluation.dataset_io import _STAGE, _PathArg, _document, _fail, _field, _read_lines
from agentic_rag.evaluation.dataset_records import DatasetFormat, MultiHopDataset, MultiHopQuestion

__all__ = ["detect_file_format", "load_2wikimultihopqa", "load_hotpotqa", "load_musique"]

_HOTPOT_SHAPE = ("{_id, question, answer, supporting_facts: [[title, sentence index]], "
                 "context: [[title, [sentences]]], type}")
_TWOWIKI_SHAPE = _HOTPOT_SHAPE[:-1] + ", evidences: [[subject, relation, object]]}"
_MUSIQUE_SHAPE = ("{id, question, answer, paragraphs: [{idx, title, paragraph_text, is_supporting}], "
                  "question_decomposition: [{id, question, answer, paragraph_support_idx}], answerable}")
_SHAPES = {DatasetFormat.HOTPOTQA: _HOTPOT_SHAPE, DatasetFormat.TWOWIKI: _TWOWIKI_SHAPE,
           DatasetFormat.MUSIQUE: _MUSIQUE_SHAPE}


# --- shared by every multi-hop loader --------------------------------------------------------


class PoolNotes:
    """Counts what the loader dropped, and writes it up as :attr:`MultiHopDataset.notes`."""

    def __init__(self) -> None:
        self.duplicates = 0
        self.questions_with_duplicates: list[tuple[str, str]] = []
        self.unanswerable = 0

    def first_of_each(self, question_id: str, doc_ids: Sequence[str], *, count: bool = True) -> tuple[str, ...]:
        """Return ``doc_ids`` with repeats dropped, the first of each kept.

        Args:
            question_id: The question, named in the note.
            doc_ids: A pool (or gold list) as the file gives it.
            count: Count the repeats for the notes (pools); gold lists repeat a title once per
                supporting sentence, which is no defect.
        """
        kept = tuple(dict.fromkeys(doc_ids))
        if count and len(kept) < len(doc_ids):
            self.duplicates += len(doc_ids) - len(kept)
            repeated = next(doc_id for n, doc_id in enumerate(doc_ids) if doc_id in doc_ids[:n])
            self.questions_with_duplicates.append((question_id, repeated))
        return kept

    def notes(self) -> tuple[str, ...]:
        """One sentence per kind of repair, for :attr:`MultiHopDataset.notes`."""
        out = []
        if self.duplicates:
            question_id, doc_id = self.questions_with_duplicates[0]
            out.append(f"{self.duplicates} duplicate pool entries in {len(self.questions_with_duplicates)} "
                       f"questions dropped, the first of each kept (e.g. question {question_id!r} "
                       f"lists {doc_id!r} twice)")
        if self.unanswerable:
            out.append(f"{self.unanswerable} unanswerable questions (answerable: false) skipped")
        return tuple(out)


def sub_questions(steps: object, where: str, key: str = "decomposition") -> tuple[str, ...]:
    """One sub-question per hop from a decomposition.

    Args:
        steps: ``None``, or a list of strings, of objects with a ``question`` string (MuSiQue),
            or of ``[subject, relation, object]`` evidence triples (2WikiMultihopQA), which
            become ``"subject >> relation"``, MuSiQue's notation (the object is the answer).
        where: ``file:line`` or ``file: record n``, for errors.
        key: The field's name, for errors.

    Returns:
        The sub-questions in order.

    Raises:
        InvalidInputError: Anything else.
    """
    if steps is None:
        return ()
    if not isinstance(steps, list):
        raise _fail(f"{where}: {key} must be a list, got {steps!r:.80}")
    out = []
    for step in steps:
        if isinstance(step, dict) and isinstance(step.get("question"), str):
            out.append(step["question"])
        elif isinstance(step, str):
            out.append(step)
        elif isinstance(step, list) and len(step) == 3 and all(isinstance(part, str) for part in step):
            out.append(f"{step[0]} >> {step[1]}")
        else:
            raise _fail(f"{where}: {key} must hold strings, objects with a 'question' string or "
                        f"[subject, relation, object] triples of strings, got {step!r:.80}")
    return tuple(out)


def build_question(where: str, **fields: Any) -> MultiHopQuestion:
    """Build a :class:`MultiHopQuestion`, its errors prefixed with ``where`` (file and line)."""
    try:
        return MultiHopQuestion(**fields)
    except InvalidInputError as exc:
        raise _fail(exc.message if exc.message.startswith(where) else f"{where}: {exc.message}") from exc


# --- reading the published files -------------------------------------------------------------


class _Paragraphs:
    """The open corpus: each distinct (title, text) once, with a readable, unique id."""

    def __init__(self, corpus_id: str) -> None:
        self.corpus_id = corpus_id
        self.documents: list[Document] = []
        self._ids: dict[tuple[str, str], str] = {}
        self._used: set[str] = set()

    def add(self, title: str, text: str, where: str) -> str:
        known = self._ids.get((title, text))
        if known is not None:
            return known
        base = " ".join(title.split()) or "paragraph"
        doc_id, n = base, 1
        while doc_id in self._used:
            n += 1
            doc_id = f"{base}#{n}"
        self._used.add(doc_id)
        self._ids[(title, text)] = doc_id
        self.documents.append(_document(doc_id, text, title, self.corpus_id, where))
        return doc_id


def _join(sentences: Sequence[str]) -> str:
    """Join sentences with one space where the file has none (HotpotQA keeps leading spaces)."""
    text = ""
    for sentence in sentences:
        if text and not text[-1].isspace() and not sentence[:1].isspace():
            text += " "
        text += sentence
    return " ".join(text.split())


def _file_records(path: Path) -> Iterator[tuple[int, str, Any]]:
    """Yield ``(position, label, record)`` from a JSON list or JSON lines file."""
    lines = _read_lines(path)
    text = "\n".join(lines)
    if text.lstrip().startswith("["):
        try:
            records = json.loads(text)
        except json.JSONDecodeError as exc:
            raise _fail(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON ({exc.msg}); expected a JSON list "
                        "of question objects") from exc
        for number, record in enumerate(records):
            yield number, f"{path}: record {number + 1}", record
        return
    for line_number, line in enumerate(lines):
        if not line.strip():
            continue
        where = f"{path}:{line_number + 1}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise _fail(f"{where}: invalid JSON ({exc.msg}); expected a JSON list of question objects "
                        "or one question object per line") from exc
        yield line_number, where, record


def _format_of(record: Any) -> DatasetFormat | None:
    if not isinstance(record, dict):
        return None
    if "paragraphs" in record:
        return DatasetFormat.MUSIQUE
    if "evidences" in record:
        return DatasetFormat.TWOWIKI
    if "context" in record and "supporting_facts" in record:
        return DatasetFormat.HOTPOTQA
    return None


def _file(path_arg: _PathArg, corpus_id: str | None) -> tuple[Path, str, str]:
    if not isinstance(path_arg, (str, os.PathLike)):
        raise _fail(f"path must be a path, got {type(path_arg).__name__} {path_arg!r}")
    path = Path(path_arg)
    if not path.is_file():
        raise _fail(f"dataset file {str(path)!r} does not exist or is not a file")
    name = path.name
    for suffix in (".gz", ".jsonl", ".json"):
        name = name.removesuffix(suffix)
    name = name or "dataset"
    if corpus_id is not None:
        require_text(corpus_id, "corpus_id", stage=_STAGE)
    return path, name, name if corpus_id is None else corpus_id


def detect_file_format(path: _PathArg) -> DatasetFormat:
    """Tell a published QA file's format from its first record's keys.

    Args:
        path: A HotpotQA or 2WikiMultihopQA JSON file, or a MuSiQue JSON-lines file.

    Returns:
        ``HOTPOTQA`` (``context`` and ``supporting_facts``), ``TWOWIKI`` (also ``evidences``)
        or ``MUSIQUE`` (``paragraphs``).

    Raises:
        InvalidInputError: A missing or unreadable file, or a first record of none of the shapes.
    """
    checked = _file(path, None)[0]
    for _, where, record in _file_records(checked):
        found = _format_of(record)
        if found is None:
            keys = sorted(record) if isinstance(record, dict) else type(record).__name__
            shapes = "; ".join(f"{fmt.value}: {shape}" for fmt, shape in _SHAPES.items())
            raise _fail(f"{where}: a record with {keys} is none of the published QA formats; expected {shapes}")
        return found
    raise _fail(f"{str(checked)!r} holds no questions")


def _items(record: Mapping[str, Any], key: str, where: str, shape: str) -> list[Any]:
    value = record.get(key)
    if not isinstance(value, list):
        raise _fail(f"{where}: field {key!r} must be a list of {shape}, got {value!r:.80}")
    return value


def _load(path_arg: _PathArg, corpus_id: str | None, expected: DatasetFormat) -> MultiHopDataset:
    path, name, corpus_id = _file(path_arg, corpus_id)
    paragraphs, notes = _Paragraphs(corpus_id), PoolNotes()
    questions = []
    for number, where, record in _file_records(path):
        found = _format_of(record)
        if found is not expected and not (expected is DatasetFormat.HOTPOTQA and found is DatasetFormat.TWOWIKI):
            raise _fail(f"{where}: expected a {expected.value} record {_SHAPES[expected]}, got "
                        f"{sorted(record) if isinstance(record, dict) else type(record).__name__}")
        if expected is DatasetFormat.MUSIQUE:
            question = _musique_question(record, where, number, paragraphs, notes)
        else:
            question = _hotpot_question(record, where, number, paragraphs, notes, expected)
        if question is not None:
            questions.append(question)
    if not questions:
        raise _fail(f"{str(path)!r} holds no answerable questions")
    require_unique((q.id for q in questions), f"question id in {path}", stage=_STAGE)
    return MultiHopDataset(name, tuple(paragraphs.documents), tuple(questions), expected, notes.notes())


def _hotpot_question(record: Mapping[str, Any], where: str, number: int, paragraphs: _Paragraphs,
                     notes: PoolNotes, fmt: DatasetFormat) -> MultiHopQuestion:
    question_id = _field(record, "_id", where)
    pool, by_title = [], {}
    for item in _items(record, "context", where, "[title, [sentences]] pairs"):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and isinstance(item[1], list)
                and all(isinstance(s, str) for s in item[1])):
            raise _fail(f"{where}: context entries must be [title, [sentences]], got {item!r:.80}")
        doc_id = paragraphs.add(item[0], _join(item[1]), where)
        pool.append(doc_id)
        by_title.setdefault(item[0], doc_id)
    gold = []
    for fact in _items(record, "supporting_facts", where, "[title, sentence index] pairs"):
        if not (isinstance(fact, list) and len(fact) == 2 and isinstance(fact[0], str) and type(fact[1]) is int):
            raise _fail(f"{where}: supporting_facts entries must be [title, sentence index], got {fact!r:.80}")
        if fact[0] not in by_title:
            raise _fail(f"{where}: supporting fact title {fact[0]!r} is not a context title")
        gold.append(by_title[fact[0]])
    steps = record.get("evidences") if fmt is DatasetFormat.TWOWIKI else None
    return build_question(
        where, id=question_id, question=_field(record, "question", where), answer=_field(record, "answer", where),
        aliases=tuple(_field(record, "answer_aliases", where, list, optional=True) or ()),
        type=_field(record, "type", where, optional=True) or "",
        gold_doc_ids=notes.first_of_each(question_id, gold, count=False),
        pool_doc_ids=notes.first_of_each(question_id, pool), line_number=number,
        decomposition=sub_questions(steps, where, "evidences"),
    )


def _musique_question(record: Mapping[str, Any], where: str, number: int, paragraphs: _Paragraphs,
                      notes: PoolNotes) -> MultiHopQuestion | None:
    question_id = _field(record, "id", where)
    answerable = record.get("answerable", True)
    if not isinstance(answerable, bool):
        raise _fail(f"{where}: field 'answerable' must be true or false, got {answerable!r:.80}")
    if not answerable:
        notes.unanswerable += 1
        return None
    pool, by_idx, supporting = [], {}, []
    for item in _items(record, "paragraphs", where, "{idx, title, paragraph_text, is_supporting} objects"):
        if not (isinstance(item, dict) and type(item.get("idx")) is int and isinstance(item.get("title"), str)
                and isinstance(item.get("paragraph_text"), str) and isinstance(item.get("is_supporting"), bool)):
            raise _fail(f"{where}: paragraphs entries must be {{idx: int, title: str, paragraph_text: str, "
                        f"is_supporting: bool}}, got {item!r:.80}")
        doc_id = paragraphs.add(item["title"], " ".join(item["paragraph_text"].split()), where)
        pool.append(doc_id)
        by_idx.setdefault(item["idx"], doc_id)
        if item["is_supporting"]:
            supporting.append(doc_id)
    steps = _items(record, "question_decomposition", where, "{id, question, answer, paragraph_support_idx} objects")
    hops = []
    for step in steps:
        idx = step.get("paragraph_support_idx") if isinstance(step, dict) else None
        if idx is not None and idx not in by_idx:
            raise _fail(f"{where}: question_decomposition paragraph_support_idx {idx!r} is no paragraph idx "
                        f"(have {sorted(by_idx)[:20]})")
        if idx is not None:
            hops.append(by_idx[idx])
    question_type = question_id.split("__", 1)[0] if "__" in question_id else ""
    return build_question(
        where, id=question_id, question=_field(record, "question", where), answer=_field(record, "answer", where),
        aliases=tuple(_field(record, "answer_aliases", where, list, optional=True) or ()), type=question_type,
        gold_doc_ids=notes.first_of_each(question_id, hops + supporting, count=False),
        pool_doc_ids=notes.first_of_each(question_id, pool), line_number=number,
        decomposition=sub_questions(steps, where, "question_decomposition"),
    )


def load_hotpotqa(path: _PathArg, *, corpus_id: str | None = None) -> MultiHopDataset:
    """Load HotpotQA as published (``hotpot_dev_distractor_v1.json`` and its shape).

    Args:
        path: The JSON file (a list of questions; JSON lines and ``.gz`` are read too).
        corpus_id: Corpus id given to every paragraph; the file name without suffixes by default.

    Returns:
        A :class:`MultiHopDataset` (format ``hotpotqa``): gold paragraphs are the
        ``supporting_facts`` titles, pools the ``context`` paragraphs.

    Raises:
        InvalidInputError: A missing or malformed file (naming the record and expected shape).
    """
    return _load(path, corpus_id, DatasetFormat.HOTPOTQA)


def load_2wikimultihopqa(path: _PathArg, *, corpus_id: str | None = None) -> MultiHopDataset:
    """Load 2WikiMultihopQA as published (``dev.json``): HotpotQA's shape plus ``evidences``.

    Args:
        path: The JSON file.
        corpus_id: Corpus id given to every paragraph; the file name without suffixes by default.

    Returns:
        A :class:`MultiHopDataset` (format ``2wikimultihopqa``) whose decomposition holds one
        ``"subject >> relation"`` sub-question per evidence triple.

    Raises:
        InvalidInputError: A missing or malformed file (naming the record and expected shape).
    """
    return _load(path, corpus_id, DatasetFormat.TWOWIKI)


def load_musique(path: _PathArg, *, corpus_id: str | None = None) -> MultiHopDataset:
    """Load MuSiQue as published (``musique_ans_v1.0_dev.jsonl``; ``musique_full`` too).

    Args:
        path: The JSON-lines file.
        corpus_id: Corpus id given to every paragraph; the file name without suffixes by default.

    Returns:
        A :class:`MultiHopDataset` (format ``musique``): gold paragraphs are the decomposition's
        supporting paragraphs in hop order (then any other ``is_supporting`` one), the type is
        the id's prefix (``2hop``, ``3hop1``...); unanswerable questions are skipped and counted
        in the notes.

    Raises:
        InvalidInputError: A missing or malformed file (naming the line and expected shape).
    """
    return _load(path, corpus_id, DatasetFormat.MUSIQUE)
