"""Search hits, the index protocol both engines follow, and the filters they share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from agentic_rag._contracts import Document
from agentic_rag._contracts.serialization import JsonContract
from agentic_rag._errors import InvalidInputError

__all__ = ["DocumentFilter", "SearchHit", "SearchIndex", "document_batch", "ranked_hits"]


@dataclass(frozen=True, slots=True)
class SearchHit(JsonContract):
    """One ranked result of an index search.

    Args:
        document_id: The matching document.
        score: Its score (higher is better).
        corpus_id: The document's corpus.
    """

    document_id: str
    score: float
    corpus_id: str = "default"


def document_batch(documents: Any, action: str, stage: str) -> list[Document]:
    """``documents`` as a list, refused unless it is a collection of Documents with unique ids.

    Args:
        documents: What an index's ``add``/``update`` was given.
        action: The method's name, for the messages.
        stage: The error's stage.

    Raises:
        InvalidInputError: A single Document or string, not iterable, a non-Document item, or
            an id given twice.
    """
    if isinstance(documents, (Document, str)):
        raise InvalidInputError(f"{action}() takes a collection of Documents, got a single {type(documents).__name__}", stage=stage)
    try:
        batch = list(documents)
    except TypeError:
        raise InvalidInputError(f"{action}() takes an iterable of Documents, got {type(documents).__name__}", stage=stage) from None
    seen: set[str] = set()
    for position, document in enumerate(batch):
        if not isinstance(document, Document):
            raise InvalidInputError(f"{action}() item {position} must be a Document, got {type(document).__name__}", stage=stage)
        if document.id in seen:
            raise InvalidInputError(f"duplicate document id {document.id!r} in one {action}() batch; ids must be unique", stage=stage)
        seen.add(document.id)
    return batch


_new_object = object.__new__
# The slots' descriptors: frozen blocks only __setattr__, and setting a slot directly skips
# the generated __init__ (a Python call setting each field through object.__setattr__).
_set_document_id = SearchHit.document_id.__set__  # type: ignore[attr-defined]
_set_score = SearchHit.score.__set__  # type: ignore[attr-defined]
_set_corpus_id = SearchHit.corpus_id.__set__  # type: ignore[attr-defined]


def ranked_hits(ranked: Sequence[tuple[int, float]], ids: Sequence[str | None], documents: Sequence[Any]) -> list[SearchHit]:
    """An index's hits from its ranked ``(document number, score)`` pairs, built without
    the dataclass ``__init__`` (twice as fast; the index's own ids, floats and documents).

    Args:
        ranked: Document numbers and scores, best first.
        ids: Document id by number.
        documents: Stored :class:`~agentic_rag._contracts.Document` by number (its corpus id).

    Returns:
        The hits, equal to ``SearchHit(ids[n], score, documents[n].corpus_id)`` each.
    """
    hits = []
    for number, score in ranked:
        hit = _new_object(SearchHit)
        _set_document_id(hit, ids[number])
        _set_score(hit, score)
        _set_corpus_id(hit, documents[number].corpus_id)
        hits.append(hit)
    return hits


@runtime_checkable
class SearchIndex(Protocol):
    """What :class:`~agentic_rag._retrieval.index_retriever.IndexRetriever` needs of an index."""

    def search(self, query: str, k: int = 10, *, corpus_ids: Sequence[str] | None = None,
               where: Mapping[str, Any] | None = None) -> list[SearchHit]:
        """Return at most ``k`` hits best first."""
        ...

    def get(self, document_id: str) -> Document:
        """Return a stored document by id."""
        ...


class DocumentFilter:
    """A corpus-id and metadata-equality filter, validated once and applied per document.

    Args:
        corpus_ids: Keep only documents of these corpora (``None``: all).
        where: Keep only documents whose metadata equals every given value; a list value
            matches documents whose field equals any of its items.

    Raises:
        InvalidInputError: ``corpus_ids`` given as a bare string, or ``where`` not a mapping.
    """

    __slots__ = ("corpus_ids", "where")

    def __init__(self, corpus_ids: Sequence[str] | None = None, where: Mapping[str, Any] | None = None) -> None:
        if isinstance(corpus_ids, str):
            raise InvalidInputError(f"corpus_ids must be a sequence of ids, not the string {corpus_ids!r}", stage="search")
        if where is not None and not isinstance(where, Mapping):
            raise InvalidInputError(f"where must be a mapping of metadata field to value, got {type(where).__name__}", stage="search")
        self.corpus_ids = frozenset(corpus_ids) if corpus_ids is not None else None
        self.where = tuple(sorted((str(k), _normalise(v)) for k, v in (where or {}).items()))

    @property
    def is_empty(self) -> bool:
        """True when the filter keeps every document."""
        return self.corpus_ids is None and not self.where

    def accepts(self, document: Document) -> bool:
        """True when ``document`` passes the filter."""
        if self.corpus_ids is not None and document.corpus_id not in self.corpus_ids:
            return False
        for key, expected in self.where:
            if key not in document.metadata:
                return False
            value = _normalise(document.metadata[key])
            if isinstance(expected, frozenset) and not isinstance(value, frozenset):
                if value not in expected:
                    return False
            elif value != expected:
                return False
        return True


def _normalise(value: Any) -> Any:
    # Lists in a filter mean "any of"; tuples stored in frozen metadata compare as lists would.
    if isinstance(value, (list, tuple, set, frozenset)):
        return frozenset(_normalise(v) for v in value)
    return value
