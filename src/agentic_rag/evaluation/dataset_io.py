"""File reading shared by the dataset loaders: folders, optional gzip, JSON lines, fields.

Every error is an :class:`~agentic_rag._errors.InvalidInputError` of the ``datasets`` stage
that names the path (and line or record) and what was expected. Internal to
:mod:`agentic_rag.evaluation`; the loaders live in :mod:`~agentic_rag.evaluation.datasets`
and :mod:`~agentic_rag.evaluation.qa_files`.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from agentic_rag._contracts.corpus import Document
from agentic_rag._contracts.validation import require_text, require_unique
from agentic_rag._errors import InvalidInputError
from agentic_rag.evaluation.dataset_records import Query

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
