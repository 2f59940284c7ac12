"""The records an evaluation dataset loads into: queries, judged collections, multi-hop questions.

Frozen, validated dataclasses built by :mod:`agentic_rag.evaluation.datasets`; a hand-built
one is checked the same way, so a dataset in memory always satisfies the same invariants.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from agentic_rag._contracts.corpus import Document
from agentic_rag._contracts.serialization import JsonContract
from agentic_rag._contracts.validation import require_int, require_text, require_unique, text_tuple
from agentic_rag._errors import InvalidInputError

__all__ = ["BeirDataset", "DatasetFormat", "MultiHopDataset", "MultiHopQuestion", "Query"]

_STAGE = "datasets"


def _fail(message: str) -> InvalidInputError:
    return InvalidInputError(message, stage=_STAGE)


class DatasetFormat(str, enum.Enum):
    """The on-disk layout of an evaluation dataset.

    ``BEIR``, ``TREC`` and ``MULTIHOP`` (the normalised ``corpus.jsonl`` + ``questions.jsonl``
    layout) are folders; ``HOTPOTQA`` and ``TWOWIKI`` (a JSON list, as published) and
    ``MUSIQUE`` (JSON lines, as published) are single files.
    """

    BEIR = "beir"
    TREC = "trec"
    MULTIHOP = "multihop"
    HOTPOTQA = "hotpotqa"
    TWOWIKI = "2wikimultihopqa"
    MUSIQUE = "musique"

    @property
    def is_file(self) -> bool:
        """Whether the format is one published file rather than a folder."""
        return self in (DatasetFormat.HOTPOTQA, DatasetFormat.TWOWIKI, DatasetFormat.MUSIQUE)


#: The formats that load into a :class:`MultiHopDataset` (the others are judged collections).
MULTIHOP_FORMATS = (DatasetFormat.MULTIHOP, DatasetFormat.HOTPOTQA, DatasetFormat.TWOWIKI, DatasetFormat.MUSIQUE)


@dataclass(frozen=True, slots=True)
class Query(JsonContract):
    """One evaluation query.

    Args:
        id: Query id, as used in the qrels.
        text: The query text.
    """

    id: str
    text: str

    def __post_init__(self) -> None:
        require_text(self.id, "Query.id", stage=_STAGE)
        require_text(self.text, f"Query {self.id!r} text", stage=_STAGE)


@dataclass(frozen=True, slots=True)
class BeirDataset:
    """A retrieval test collection: documents, judged queries and their relevance grades.

    Args:
        name: Collection name (the folder name by default).
        format: The layout it was loaded from (BEIR or TREC).
        split: The qrels split (``"all"`` for TREC collections, which have one).
        corpus: Documents in file order, ids unique.
        queries: Exactly the queries that have qrels, in file order.
        qrels: Query id -> (document id -> int grade); frozen into read-only mappings.

    Raises:
        InvalidInputError: Duplicate ids, a non-int grade, or queries and qrels that differ.
    """

    name: str
    format: DatasetFormat
    split: str
    corpus: tuple[Document, ...]
    queries: tuple[Query, ...]
    qrels: Mapping[str, Mapping[str, int]]

    def __post_init__(self) -> None:
        require_text(self.name, "BeirDataset.name", stage=_STAGE)
        require_text(self.split, "BeirDataset.split", stage=_STAGE)
        if self.format not in (DatasetFormat.BEIR, DatasetFormat.TREC):
            raise _fail(f"BeirDataset.format must be 'beir' or 'trec', got {self.format!r}")
        object.__setattr__(self, "format", DatasetFormat(self.format))
        _check_items(self.corpus, Document, "BeirDataset.corpus")
        query_ids = _check_items(self.queries, Query, "BeirDataset.queries")
        if not isinstance(self.qrels, Mapping):
            raise _fail(f"BeirDataset.qrels must be a mapping, got {type(self.qrels).__name__}")
        frozen: dict[str, Mapping[str, int]] = {}
        for query_id, judged in self.qrels.items():
            if not isinstance(judged, Mapping):
                raise _fail(f"qrels of query {query_id!r} must be a mapping, got {judged!r:.80}")
            for doc_id, grade in judged.items():
                require_text(doc_id, f"qrels document id of query {query_id!r}", stage=_STAGE)
                require_int(grade, f"qrels grade of ({query_id!r}, {doc_id!r})", stage=_STAGE)
            frozen[query_id] = MappingProxyType(dict(judged))
        object.__setattr__(self, "qrels", MappingProxyType(frozen))
        if query_ids != frozenset(frozen):
            raise _fail(
                "BeirDataset.queries must be exactly the judged queries; without qrels: "
                f"{sorted(query_ids - set(frozen))[:5]}, without text: "
                f"{sorted(set(frozen) - query_ids)[:5]}"
            )


@dataclass(frozen=True, slots=True)
class MultiHopQuestion(JsonContract):
    """One multi-hop question with its answer and the paragraphs that support it.

    Args:
        id: Question id.
        question: The question text.
        answer: The reference answer.
        aliases: Other accepted spellings of the answer.
        type: Question type (for example ``"bridge"`` or ``"3hop1"``).
        gold_doc_ids: Supporting paragraph ids; non-empty, inside the pool when there is one.
        pool_doc_ids: The question's candidate paragraphs (may be empty).
        line_number: 0-based line in ``questions.jsonl``, for even/odd tuning/report splits.
        decomposition: One sub-question per hop, when the dataset gives them.
    """

    id: str
    question: str
    answer: str
    aliases: tuple[str, ...]
    type: str
    gold_doc_ids: tuple[str, ...]
    pool_doc_ids: tuple[str, ...]
    line_number: int
    decomposition: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        where = f"MultiHopQuestion {self.id!r}"
        require_text(self.id, "MultiHopQuestion.id", stage=_STAGE)
        require_text(self.question, f"{where} question", stage=_STAGE)
        require_text(self.answer, f"{where} answer", stage=_STAGE)
        require_text(self.type, f"{where} type", stage=_STAGE, allow_empty=True)
        require_int(self.line_number, f"{where} line_number", minimum=0, stage=_STAGE)
        for name in ("aliases", "gold_doc_ids", "pool_doc_ids", "decomposition"):
            values = text_tuple(getattr(self, name), f"{where} {name}", stage=_STAGE)
            object.__setattr__(self, name, values)
        if not self.gold_doc_ids:
            raise _fail(f"{where} gold_doc_ids must name at least one document")
        require_unique(self.gold_doc_ids, f"{where} gold doc id", stage=_STAGE)
        require_unique(self.pool_doc_ids, f"{where} pool doc id", stage=_STAGE)
        outside = [doc_id for doc_id in self.gold_doc_ids if doc_id not in self.pool_doc_ids]
        if self.pool_doc_ids and outside:
            raise _fail(f"{where} gold_doc_ids {outside} are not in its pool_doc_ids")

    @property
    def answers(self) -> tuple[str, ...]:
        """The answer followed by its aliases: every string a prediction may match."""
        return (self.answer, *self.aliases)


@dataclass(frozen=True, slots=True)
class MultiHopDataset:
    """A multi-hop QA collection: one open corpus and the questions asked over it.

    Args:
        name: Collection name (the folder or file name by default).
        corpus: Paragraphs in file order, ids unique.
        questions: Questions in file order, ids unique.
        format: The layout it was loaded from (``multihop`` or a published QA format).
        notes: What the loader repaired or left out, one sentence each (duplicate pool
            entries dropped, unanswerable questions skipped); empty when nothing was.

    Raises:
        InvalidInputError: Duplicate ids, a question naming a paragraph not in the corpus, or a
            BEIR or TREC format.
    """

    name: str
    corpus: tuple[Document, ...]
    questions: tuple[MultiHopQuestion, ...]
    format: DatasetFormat = DatasetFormat.MULTIHOP
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        require_text(self.name, "MultiHopDataset.name", stage=_STAGE)
        if self.format not in MULTIHOP_FORMATS:
            raise _fail(f"MultiHopDataset.format must be one of {[f.value for f in MULTIHOP_FORMATS]}, "
                        f"got {self.format!r}")
        object.__setattr__(self, "format", DatasetFormat(self.format))
        object.__setattr__(self, "notes", text_tuple(self.notes, "MultiHopDataset.notes", stage=_STAGE))
        doc_ids = _check_items(self.corpus, Document, "MultiHopDataset.corpus")
        _check_items(self.questions, MultiHopQuestion, "MultiHopDataset.questions")
        for question in self.questions:
            named = question.gold_doc_ids + question.pool_doc_ids
            missing = [doc_id for doc_id in named if doc_id not in doc_ids]
            if missing:
                raise _fail(f"question {question.id!r} names documents not in the corpus: "
                            f"{missing[:5]}")


def _check_items(items: object, kind: type, field: str) -> frozenset[str]:
    """Check ``items`` is a tuple of ``kind`` with unique ids; return the ids."""
    if not isinstance(items, tuple) or not all(isinstance(item, kind) for item in items):
        raise _fail(f"{field} must be a tuple of {kind.__name__}, got {type(items).__name__}")
    ids = [item.id for item in items]
    require_unique(ids, f"{field} id", stage=_STAGE)
    return frozenset(ids)
