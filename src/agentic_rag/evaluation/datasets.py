"""Loaders for evaluation collections: BEIR, TREC (Vaswani-style) and multi-hop QA folders.

Every file may also be gzip-compressed (``name`` or ``name.gz``, never both). Corpus,
queries and questions keep their file order, so a load is the same byte for byte each time.
Bad or missing files raise :class:`~agentic_rag._errors.InvalidInputError` naming the path
(and line) and what was expected. The records loaded into live in
:mod:`agentic_rag.evaluation.dataset_records` and are re-exported here.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from agentic_rag._contracts.corpus import Document
from agentic_rag._contracts.validation import require_text, require_unique
from agentic_rag._errors import InvalidInputError
from agentic_rag.evaluation.dataset_records import (
    BeirDataset,
    DatasetFormat,
    MultiHopDataset,
    MultiHopQuestion,
    Query,
)

__all__ = [
    "BeirDataset",
    "DatasetFormat",
    "MultiHopDataset",
    "MultiHopQuestion",
    "Query",
    "detect_format",
    "load_beir",
    "load_dataset",
    "load_multihop",
    "load_trec",
]

_STAGE = "datasets"
_PathArg = str | os.PathLike[str]


def _fail(message: str) -> InvalidInputError:
    return InvalidInputError(message, stage=_STAGE)


# --- reading files ---------------------------------------------------------------------------


def _folder(folder: _PathArg, corpus_id: str | None) -> tuple[Path, str, str]:
    """Check the folder; return it, the dataset name (folder name) and the corpus id."""
    if not isinstance(folder, (str, os.PathLike)):
        raise _fail(f"folder must be a path, got {type(folder).__name__} {folder!r}")
    path = Path(folder)
    if not path.is_dir():
        raise _fail(f"dataset folder {str(path)!r} does not exist or is not a directory")
    name = path.resolve().name or "dataset"
    if corpus_id is not None:
        require_text(corpus_id, "corpus_id", stage=_STAGE)
    return path, name, name if corpus_id is None else corpus_id


def _locate(folder: Path, name: str) -> Path:
    """Find ``name`` or ``name.gz`` in ``folder``; both at once is ambiguous and refused."""
    found = [p for p in (folder / name, folder / f"{name}.gz") if p.is_file()]
    if len(found) > 1:
        raise _fail(f"both {str(found[0])!r} and {str(found[1])!r} exist; keep only one")
    if not found:
        raise _fail(f"expected {name} or {name}.gz in {str(folder)!r}")
    return found[0]


def _read_lines(path: Path) -> list[str]:
    """Read a UTF-8 (optionally gzip) text file as lines, splitting on ``\\n`` only."""
    try:
        if path.name.endswith(".gz"):
            with gzip.open(path, "rt", encoding="utf-8") as handle:
                text = handle.read()
        else:
            text = path.read_text(encoding="utf-8")
    except (OSError, EOFError, UnicodeDecodeError, zlib.error) as exc:
        raise _fail(f"cannot read {str(path)!r}: {exc}; expected UTF-8 text") from exc
    # str.splitlines would also break on U+2028 and friends, which JSON strings may hold raw.
    return [line.rstrip("\r") for line in text.split("\n")]


def _records(path: Path) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """Yield ``(0-based line, "path:line" label, object)`` per non-blank JSON-lines line."""
    for line_number, line in enumerate(_read_lines(path)):
        if not line.strip():
            continue
        where = f"{path}:{line_number + 1}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise _fail(f"{where}: invalid JSON ({exc.msg}); expected one object per line") from exc
        if not isinstance(record, dict):
            raise _fail(f"{where}: expected a JSON object, got {type(record).__name__}")
        yield line_number, where, record


def _field(record: Mapping[str, Any], key: str, where: str, kind: type = str, *,
           optional: bool = False) -> Any:
    """Return ``record[key]`` if it is a ``kind`` (an int id becomes a str); None if optional."""
    value = record.get(key)
    if value is None and optional:
        return None
    if kind is str and key in ("_id", "id") and type(value) is int:
        return str(value)
    if not isinstance(value, kind):
        raise _fail(f"{where}: field {key!r} must be a {kind.__name__}, got {value!r:.80}")
    return value


def _document(doc_id: str, text: str, title: str, corpus_id: str, where: str) -> Document:
    try:
        return Document(id=doc_id, text=text, title=title, corpus_id=corpus_id, metadata={})
    except InvalidInputError as exc:
        raise _fail(f"{where}: {exc.message}") from exc


def _corpus(documents: list[Document], path: Path) -> tuple[Document, ...]:
    if not documents:
        raise _fail(f"{str(path)!r} holds no documents")
    require_unique((doc.id for doc in documents), f"document id in {path}", stage=_STAGE)
    return tuple(documents)


def _load_jsonl_corpus(folder: Path, corpus_id: str) -> tuple[Document, ...]:
    path = _locate(folder, "corpus.jsonl")
    documents = [
        _document(_field(record, "_id", where), _field(record, "text", where, optional=True) or "",
                  _field(record, "title", where, optional=True) or "", corpus_id, where)
        for _, where, record in _records(path)
    ]
    return _corpus(documents, path)


def _add_judgement(qrels: dict[str, dict[str, int]], query_id: str, doc_id: str,
                   grade_text: str, where: str) -> None:
    try:
        grade = int(grade_text)
    except ValueError:
        raise _fail(f"{where}: relevance {grade_text!r} must be an integer") from None
    judged = qrels.setdefault(query_id, {})
    if judged.get(doc_id, grade) != grade:
        raise _fail(f"{where}: ({query_id!r}, {doc_id!r}) judged twice: {judged[doc_id]}, {grade}")
    judged[doc_id] = grade


def _judged(queries: list[Query], qrels: Mapping[str, Any], source: Path) -> tuple[Query, ...]:
    """Keep the judged queries; refuse qrels naming a query the query file lacks."""
    require_unique((query.id for query in queries), f"query id in {source}", stage=_STAGE)
    known = {query.id for query in queries}
    missing = [query_id for query_id in qrels if query_id not in known]
    if missing:
        raise _fail(f"qrels name {len(missing)} queries absent from {str(source)!r}: {missing[:5]}")
    return tuple(query for query in queries if query.id in qrels)


# --- the three layouts -----------------------------------------------------------------------


def load_beir(folder: _PathArg, split: str = "test", *,
              corpus_id: str | None = None) -> BeirDataset:
    """Load a BEIR folder: ``corpus.jsonl``, ``queries.jsonl`` and ``qrels/{split}.tsv``.

    Args:
        folder: The dataset folder.
        split: Qrels split to load (``qrels/{split}.tsv``, header ``query-id corpus-id score``).
        corpus_id: Corpus id given to every document; the folder name by default.

    Returns:
        A :class:`BeirDataset` whose queries are only those judged in the split.

    Raises:
        InvalidInputError: A missing or malformed file, or qrels naming an unknown query.
    """
    path, name, corpus_id = _folder(folder, corpus_id)
    if not isinstance(split, str) or not re.fullmatch(r"[\w.-]+", split):
        raise _fail(f"split must be a name such as 'test', got {split!r}")
    qrels_dir = path / "qrels"
    found = qrels_dir.glob("*.tsv*") if qrels_dir.is_dir() else ()
    splits = sorted({p.name.removesuffix(".gz").removesuffix(".tsv") for p in found})
    if split not in splits:
        raise _fail(f"expected qrels/{split}.tsv[.gz] in {str(path)!r}; available splits: {splits}")
    qrels_path = _locate(qrels_dir, f"{split}.tsv")
    qrels: dict[str, dict[str, int]] = {}
    for line_number, line in enumerate(_read_lines(qrels_path)):
        fields = [field.strip() for field in (line.split("\t") if "\t" in line else line.split())]
        if not line.strip() or (line_number == 0 and fields[-1].lower() == "score"):
            continue
        where = f"{qrels_path}:{line_number + 1}"
        if len(fields) != 3:
            raise _fail(f"{where}: expected 'query-id<TAB>corpus-id<TAB>score', got {line!r}")
        _add_judgement(qrels, *fields, where)
    queries_path = _locate(path, "queries.jsonl")
    queries = [Query(_field(record, "_id", where), _field(record, "text", where))
               for _, where, record in _records(queries_path)]
    corpus = _load_jsonl_corpus(path, corpus_id)
    queries_kept = _judged(queries, qrels, queries_path)
    return BeirDataset(name, DatasetFormat.BEIR, split, corpus, queries_kept, qrels)


def _tag(name: str) -> re.Pattern[str]:
    return re.compile(rf"<\s*{name}\s*>(.*?)<\s*/\s*{name}\s*>", re.IGNORECASE | re.DOTALL)


_DOC, _DOCNO, _DOC_TITLE, _DOC_TEXT, _TOP = map(_tag, ("DOC", "DOCNO", "TITLE", "TEXT", "top"))
_DOC_OPEN = re.compile(r"<\s*DOC\s*>", re.IGNORECASE)
_ANY_TAG = re.compile(r"<[^>]*>")
# Classic TREC topics leave <num> and <title> unclosed, so each runs to the next tag.
_NUM = re.compile(r"<\s*num\s*>\s*(?:number\s*:)?\s*([^<\s]+)", re.IGNORECASE)
_TITLE = re.compile(r"<\s*title\s*>([^<]*)", re.IGNORECASE)


def _squash(text: str) -> str:
    return " ".join(text.split())


def _trec_documents(path: Path, corpus_id: str) -> tuple[Document, ...]:
    raw = "\n".join(_read_lines(path))
    blocks = _DOC.findall(raw)
    opened = len(_DOC_OPEN.findall(raw))
    if len(blocks) != opened:
        raise _fail(f"{str(path)!r}: {opened} <DOC> tags but {len(blocks)} closed by </DOC>; "
                    "expected <DOC>...</DOC> blocks")
    documents: list[Document] = []
    for number, block in enumerate(blocks, start=1):
        where = f"{path}: document #{number}"
        docno = _DOCNO.search(block)
        if docno is None or not docno.group(1).strip():
            raise _fail(f"{where}: expected a <DOCNO>id</DOCNO> tag")
        body = block[: docno.start()] + block[docno.end():]
        title = _DOC_TITLE.search(body)
        texts = _DOC_TEXT.findall(body)
        if texts:
            body = " ".join(texts)
        elif title is not None:
            body = body.replace(title.group(0), " ")
        title_text = _squash(title.group(1)) if title else ""
        documents.append(_document(_squash(docno.group(1)), _squash(_ANY_TAG.sub(" ", body)),
                                   title_text, corpus_id, where))
    return _corpus(documents, path)


def load_trec(folder: _PathArg, *, corpus_id: str | None = None) -> BeirDataset:
    """Load a TREC-format collection such as Vaswani.

    Expects ``doc-text.trec`` (``<DOC><DOCNO>id</DOCNO> text </DOC>``; an inner ``<TITLE>`` or
    ``<TEXT>`` is used when present), ``query-text.trec`` (``<top><num>id</num><title> text
    </title></top>``) and ``qrels`` (``qid iteration docid relevance`` lines). Whitespace
    inside tags and text is collapsed to single spaces.

    Args:
        folder: The dataset folder.
        corpus_id: Corpus id given to every document; the folder name by default.

    Returns:
        A :class:`BeirDataset` with ``split="all"`` whose queries are only the judged ones.

    Raises:
        InvalidInputError: A missing or malformed file, or qrels naming an unknown query.
    """
    path, name, corpus_id = _folder(folder, corpus_id)
    names = ("doc-text.trec", "query-text.trec", "qrels")
    doc_path, topic_path, qrels_path = (_locate(path, name) for name in names)
    queries: list[Query] = []
    for number, block in enumerate(_TOP.findall("\n".join(_read_lines(topic_path))), start=1):
        num, title = _NUM.search(block), _TITLE.search(block)
        if num is None or title is None or not title.group(1).strip():
            raise _fail(f"{topic_path}: topic #{number}: expected <num>id</num> and a "
                        "non-empty <title>")
        queries.append(Query(num.group(1), _squash(title.group(1))))
    if not queries:
        raise _fail(f"{str(topic_path)!r} holds no <top>...</top> topics")
    qrels: dict[str, dict[str, int]] = {}
    for line_number, line in enumerate(_read_lines(qrels_path)):
        fields = line.split()
        where = f"{qrels_path}:{line_number + 1}"
        if fields and len(fields) != 4:
            raise _fail(f"{where}: expected 'qid iteration docid relevance', got {line!r}")
        if fields:
            _add_judgement(qrels, fields[0], fields[2], fields[3], where)
    corpus = _trec_documents(doc_path, corpus_id)
    queries_kept = _judged(queries, qrels, topic_path)
    return BeirDataset(name, DatasetFormat.TREC, "all", corpus, queries_kept, qrels)


def _sub_questions(record: Mapping[str, Any], where: str) -> tuple[str, ...]:
    steps = _field(record, "decomposition", where, list, optional=True) or []
    questions = tuple(step.get("question") if isinstance(step, dict) else step for step in steps)
    if not all(isinstance(question, str) for question in questions):
        raise _fail(f"{where}: decomposition must hold strings or objects with a 'question' string")
    return questions


def load_multihop(folder: _PathArg, *, corpus_id: str | None = None) -> MultiHopDataset:
    """Load a HotpotQA/MuSiQue-style folder: ``corpus.jsonl`` and ``questions.jsonl``.

    Each question line holds ``id``, ``question``, ``answer``, ``type``, ``gold_doc_ids``,
    ``pool_doc_ids`` and optionally ``answer_aliases`` and ``decomposition`` (null, a list of
    strings, or MuSiQue's list of objects, of which each ``question`` is kept).

    Args:
        folder: The dataset folder.
        corpus_id: Corpus id given to every paragraph; the folder name by default.

    Returns:
        A :class:`MultiHopDataset` with questions in file order.

    Raises:
        InvalidInputError: A missing or malformed file, or a question naming an unknown paragraph.
    """
    path, name, corpus_id = _folder(folder, corpus_id)
    corpus = _load_jsonl_corpus(path, corpus_id)
    questions_path = _locate(path, "questions.jsonl")
    questions: list[MultiHopQuestion] = []
    for line_number, where, record in _records(questions_path):
        try:
            questions.append(MultiHopQuestion(
                id=_field(record, "id", where),
                question=_field(record, "question", where),
                answer=_field(record, "answer", where),
                aliases=tuple(_field(record, "answer_aliases", where, list, optional=True) or ()),
                type=_field(record, "type", where),
                gold_doc_ids=tuple(_field(record, "gold_doc_ids", where, list)),
                pool_doc_ids=tuple(_field(record, "pool_doc_ids", where, list)),
                line_number=line_number,
                decomposition=_sub_questions(record, where),
            ))
        except InvalidInputError as exc:
            located = exc.message.startswith(where)
            raise _fail(exc.message if located else f"{where}: {exc.message}") from exc
    if not questions:
        raise _fail(f"{str(questions_path)!r} holds no questions")
    require_unique((q.id for q in questions), f"question id in {questions_path}", stage=_STAGE)
    return MultiHopDataset(name, corpus, tuple(questions))


_MARKERS = {
    DatasetFormat.BEIR: ("corpus.jsonl", "queries.jsonl", "qrels/"),
    DatasetFormat.TREC: ("doc-text.trec", "query-text.trec", "qrels"),
    DatasetFormat.MULTIHOP: ("corpus.jsonl", "questions.jsonl"),
}


def detect_format(folder: _PathArg) -> DatasetFormat:
    """Tell which layout a folder holds from the files present (``.gz`` variants count).

    Args:
        folder: The dataset folder.

    Returns:
        The single matching :class:`DatasetFormat`.

    Raises:
        InvalidInputError: The folder is missing, or matches no layout or more than one.
    """
    path = _folder(folder, None)[0]

    def present(marker: str) -> bool:
        if marker.endswith("/"):
            return (path / marker).is_dir()
        return (path / marker).is_file() or (path / f"{marker}.gz").is_file()

    matches = [fmt for fmt, markers in _MARKERS.items() if all(present(m) for m in markers)]
    if len(matches) != 1:
        layouts = "; ".join(f"{fmt.value}: {', '.join(m)}" for fmt, m in _MARKERS.items())
        found = f"several layouts {[m.value for m in matches]}" if matches else "no known layout"
        raise _fail(f"{str(path)!r} matches {found}; expected the files of exactly one of: "
                    f"{layouts}")
    return matches[0]


def load_dataset(folder: _PathArg, *, split: str = "test",
                 corpus_id: str | None = None) -> BeirDataset | MultiHopDataset:
    """Detect a folder's layout and load it with the matching loader.

    Args:
        folder: The dataset folder.
        split: Qrels split for BEIR folders (ignored by the other layouts).
        corpus_id: Corpus id given to every document; the folder name by default.

    Returns:
        A :class:`BeirDataset` (BEIR, TREC) or a :class:`MultiHopDataset`.

    Raises:
        InvalidInputError: The layout matches none or several, or a file is missing or malformed.
    """
    fmt = detect_format(folder)
    if fmt is DatasetFormat.BEIR:
        return load_beir(folder, split, corpus_id=corpus_id)
    if fmt is DatasetFormat.TREC:
        return load_trec(folder, corpus_id=corpus_id)
    return load_multihop(folder, corpus_id=corpus_id)
