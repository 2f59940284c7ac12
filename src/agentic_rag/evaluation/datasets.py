"""Loaders for evaluation collections: BEIR, TREC (Vaswani-style) and multi-hop QA folders,
and :func:`load_dataset`, which also reads HotpotQA, 2WikiMultihopQA and MuSiQue files as
published (:mod:`agentic_rag.evaluation.qa_files`) and detects the format by itself.

Every file may also be gzip-compressed (``name`` or ``name.gz``, never both). Corpus,
queries and questions keep their file order, so a load is the same byte for byte each time.
Bad or missing files raise :class:`~agentic_rag._errors.InvalidInputError` naming the path
(and line) and what was expected. The records loaded into live in
:mod:`agentic_rag.evaluation.dataset_records` and are re-exported here.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from agentic_rag._contracts.corpus import Document
from agentic_rag._contracts.validation import require_unique
from agentic_rag.evaluation.dataset_io import (
    _STAGE,
    _PathArg,
    _add_judgement,
    _corpus,
    _document,
    _fail,
    _field,
    _folder,
    _judged,
    _load_jsonl_corpus,
    _locate,
    _read_lines,
    _records,
)
from agentic_rag.evaluation.dataset_records import (
    BeirDataset,
    DatasetFormat,
    MultiHopDataset,
    MultiHopQuestion,
    Query,
)
from agentic_rag.evaluation.qa_files import (
    PoolNotes,
    build_question,
    detect_file_format,
    load_2wikimultihopqa,
    load_hotpotqa,
    load_musique,
    sub_questions,
)

__all__ = [
    "BeirDataset",
    "DatasetFormat",
    "MultiHopDataset",
    "MultiHopQuestion",
    "Query",
    "detect_format",
    "load_2wikimultihopqa",
    "load_beir",
    "load_dataset",
    "load_hotpotqa",
    "load_multihop",
    "load_musique",
    "load_trec",
]

# --- the three folder layouts -----------------------------------------------------------------------


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


def load_multihop(folder: _PathArg, *, corpus_id: str | None = None) -> MultiHopDataset:
    """Load the normalised multi-hop folder: ``corpus.jsonl`` and ``questions.jsonl``.

    Each question line holds ``id``, ``question``, ``answer``, ``type``, ``gold_doc_ids``,
    ``pool_doc_ids`` and optionally ``answer_aliases`` and ``decomposition`` (null, a list of
    strings, MuSiQue's list of objects, of which each ``question`` is kept, or
    2WikiMultihopQA's ``[subject, relation, object]`` evidence triples, kept as
    ``"subject >> relation"``). A paragraph listed twice in a pool (or in the gold list) is
    kept once, the first; the pool repeats are counted in :attr:`MultiHopDataset.notes`.

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
    notes = PoolNotes()
    for line_number, where, record in _records(questions_path):
        question_id = _field(record, "id", where)
        gold = _field(record, "gold_doc_ids", where, list)
        pool = _field(record, "pool_doc_ids", where, list)
        for key, ids in (("gold_doc_ids", gold), ("pool_doc_ids", pool)):
            if not all(isinstance(doc_id, str) for doc_id in ids):
                raise _fail(f"{where}: field {key!r} must be a list of document id strings, got {ids!r:.80}")
        questions.append(build_question(
            where, id=question_id, question=_field(record, "question", where),
            answer=_field(record, "answer", where),
            aliases=tuple(_field(record, "answer_aliases", where, list, optional=True) or ()),
            type=_field(record, "type", where),
            gold_doc_ids=notes.first_of_each(question_id, gold, count=False),
            pool_doc_ids=notes.first_of_each(question_id, pool),
            line_number=line_number,
            decomposition=sub_questions(record.get("decomposition"), where),
        ))
    if not questions:
        raise _fail(f"{str(questions_path)!r} holds no questions")
    require_unique((q.id for q in questions), f"question id in {questions_path}", stage=_STAGE)
    return MultiHopDataset(name, corpus, tuple(questions), DatasetFormat.MULTIHOP, notes.notes())


_MARKERS = {
    DatasetFormat.BEIR: ("corpus.jsonl", "queries.jsonl", "qrels/"),
    DatasetFormat.TREC: ("doc-text.trec", "query-text.trec", "qrels"),
    DatasetFormat.MULTIHOP: ("corpus.jsonl", "questions.jsonl"),
}


def detect_format(path: _PathArg) -> DatasetFormat:
    """Tell which format a dataset folder or file holds.

    A folder by the files present (``.gz`` variants count): BEIR, TREC or the normalised
    multi-hop layout. A file by its first record: HotpotQA, 2WikiMultihopQA or MuSiQue as
    published (see :func:`~agentic_rag.evaluation.qa_files.detect_file_format`).

    Args:
        path: The dataset folder or file.

    Returns:
        The single matching :class:`DatasetFormat`.

    Raises:
        InvalidInputError: The path is missing, or matches no format or more than one.
    """
    if isinstance(path, (str, os.PathLike)) and not Path(path).exists():
        raise _fail(f"no dataset folder or file at {str(path)!r}")
    if isinstance(path, (str, os.PathLike)) and Path(path).is_file():
        return detect_file_format(path)
    folder = _folder(path, None)[0]

    def present(marker: str) -> bool:
        if marker.endswith("/"):
            return (folder / marker).is_dir()
        return (folder / marker).is_file() or (folder / f"{marker}.gz").is_file()

    matches = [fmt for fmt, markers in _MARKERS.items() if all(present(m) for m in markers)]
    if len(matches) != 1:
        layouts = "; ".join(f"{fmt.value}: {', '.join(m)}" for fmt, m in _MARKERS.items())
        files = ", ".join(fmt.value for fmt in DatasetFormat if fmt.is_file)
        found = f"several layouts {[m.value for m in matches]}" if matches else "no known layout"
        raise _fail(f"{str(folder)!r} matches {found}; expected the files of exactly one of: "
                    f"{layouts} (or pass a {files} file itself)")
    return matches[0]


def _loaders() -> dict[DatasetFormat, Callable[..., BeirDataset | MultiHopDataset]]:
    return {
        DatasetFormat.BEIR: load_beir,
        DatasetFormat.TREC: load_trec,
        DatasetFormat.MULTIHOP: load_multihop,
        DatasetFormat.HOTPOTQA: load_hotpotqa,
        DatasetFormat.TWOWIKI: load_2wikimultihopqa,
        DatasetFormat.MUSIQUE: load_musique,
    }


def load_dataset(path: _PathArg, *, split: str = "test", corpus_id: str | None = None,
                 format: DatasetFormat | str | None = None) -> BeirDataset | MultiHopDataset:
    """Load a dataset folder or file with the loader of its format.

    Args:
        path: The dataset folder (BEIR, TREC, normalised multi-hop) or file (HotpotQA,
            2WikiMultihopQA, MuSiQue as published).
        split: Qrels split for BEIR folders (ignored by the other formats).
        corpus_id: Corpus id given to every document; the folder or file name by default.
        format: A :class:`DatasetFormat` or its value; ``None`` or ``"auto"`` detects it.

    Returns:
        A :class:`BeirDataset` (BEIR, TREC) or a :class:`MultiHopDataset`.

    Raises:
        InvalidInputError: An unknown format, a folder given for a file format (or the other way
            round), a format that cannot be detected, or a missing or malformed file.
    """
    if format is None or format == "auto":
        fmt = detect_format(path)
    else:
        try:
            fmt = DatasetFormat(format)
        except ValueError:
            choices = ["auto", *(f.value for f in DatasetFormat)]
            raise _fail(f"format must be one of {choices}, got {format!r}") from None
        if isinstance(path, (str, os.PathLike)) and not Path(path).exists():
            raise _fail(f"no dataset folder or file at {str(path)!r}")
        is_file = isinstance(path, (str, os.PathLike)) and Path(path).is_file()
        if is_file != fmt.is_file:
            wanted = "a file" if fmt.is_file else "a folder"
            raise _fail(f"format {fmt.value!r} expects {wanted}, got {str(path)!r}")
    if fmt is DatasetFormat.BEIR:
        return load_beir(path, split, corpus_id=corpus_id)
    return _loaders()[fmt](path, corpus_id=corpus_id)
