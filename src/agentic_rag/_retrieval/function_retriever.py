"""``FunctionRetriever``: any search function as a ``Retriever``, for tests and quick adapters.

The function is called as ``fn(query, k)`` and may return :class:`Snippet` objects or plain
mappings ``{"id", "text", "score"?, "corpus_id"?, "title"?, "metadata"?}``. The adapter turns
the answer into the port's contract: snippets filtered by corpus, best first by score with ties
broken by id, at most ``k``. Hits without a score keep the function's order (the n-th gets
``1 / n``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from agentic_rag._contracts import Snippet
from agentic_rag._contracts.validation import is_number, require_enum, require_int, require_text
from agentic_rag._errors import InvalidInputError, RetrievalError

__all__ = ["FunctionRetriever", "RetrieverKind"]

_STAGE = "function_retriever"
_KNOWN_KEYS = frozenset({"id", "text", "score", "corpus_id", "title", "metadata"})


class RetrieverKind(str, enum.Enum):
    """What a retriever matches on; the parallel workflow's HyDE rule needs a ``vector`` one."""

    LEXICAL = "lexical"
    VECTOR = "vector"
    OTHER = "other"


class FunctionRetriever:
    """A ``Retriever`` that calls a function.

    Args:
        fn: ``fn(query, k)`` returning an iterable of :class:`Snippet` or mappings.
        name: Label for traces and fusion explanations (default: the function's name, or
            ``""`` for a lambda so the workflow names it).
        kind: What the function matches on (``lexical``, ``vector`` or ``other``).
        corpus_id: Corpus given to mapping hits that name none.

    Raises:
        InvalidInputError: ``fn`` not callable, an unknown ``kind``, or an empty ``corpus_id``.
    """

    def __init__(
        self,
        fn: Callable[[str, int], Iterable[Snippet | Mapping[str, Any]]],
        *,
        name: str = "",
        kind: RetrieverKind | str = RetrieverKind.OTHER,
        corpus_id: str = "default",
    ) -> None:
        if not callable(fn):
            raise InvalidInputError(f"fn must be callable as fn(query, k), got {fn!r}", stage=_STAGE)
        self.kind = require_enum(RetrieverKind, kind, "kind", stage=_STAGE)
        self.fn = fn
        self.corpus_id = require_text(corpus_id, "corpus_id", stage=_STAGE)
        default = getattr(fn, "__name__", "")
        self.name = require_text(name, "name", stage=_STAGE, allow_empty=True) or (default if default.isidentifier() else "")

    def retrieve(self, query: str, k: int, *, corpus_ids: Sequence[str] | None = None) -> tuple[Snippet, ...]:
        """Call the function and return its hits as the port promises.

        Args:
            query: The query text.
            k: At most this many snippets.
            corpus_ids: Only keep snippets of these corpora.

        Returns:
            Snippets best first (score descending, then id).

        Raises:
            InvalidInputError: ``query`` not a string, ``k`` below 1, or ``corpus_ids`` a bare string.
            RetrievalError: The function returned something that is not hits.
        """
        require_text(query, "query", stage=_STAGE, allow_empty=True)
        require_int(k, "k", minimum=1, stage=_STAGE)
        if isinstance(corpus_ids, str):
            raise InvalidInputError(f"corpus_ids must be a sequence of ids, not the string {corpus_ids!r}", stage=_STAGE)
        raw = self.fn(query, k)
        if raw is None or isinstance(raw, (str, bytes, Mapping)) or not isinstance(raw, Iterable):
            raise RetrievalError(f"retriever function {self.name or self.fn!r} must return a list of hits, got {type(raw).__name__}", stage=_STAGE)
        hits = [self._snippet(item, position) for position, item in enumerate(raw)]
        if corpus_ids is not None:
            allowed = set(corpus_ids)
            hits = [h for h in hits if h.corpus_id in allowed]
        hits.sort(key=lambda h: (-h.score, h.id))
        return tuple(hits[:k])

    def _snippet(self, item: object, position: int) -> Snippet:
        if isinstance(item, Snippet):
            return item
        if not isinstance(item, Mapping):
            raise RetrievalError(f"hit {position} from {self.name or self.fn!r} must be a Snippet or a mapping with 'id' and 'text', got {type(item).__name__}", stage=_STAGE)
        if not isinstance(item.get("id"), str) or not item["id"] or not isinstance(item.get("text"), str):
            raise RetrievalError(f"hit {position} from {self.name or self.fn!r} needs a non-empty string 'id' and a string 'text', got keys {sorted(map(str, item))}", stage=_STAGE)
        score = item.get("score", 1.0 / (position + 1))
        if not is_number(score):  # the retriever's output is bad, not the caller's input
            raise RetrievalError(f"hit {position} ({item['id']!r}) has score {score!r}; expected a finite number", stage=_STAGE)
        metadata = dict(item.get("metadata") or {})
        if item.get("title"):
            metadata["title"] = item["title"]
        metadata.update({str(key): value for key, value in item.items() if key not in _KNOWN_KEYS})
        corpus = item.get("corpus_id") or self.corpus_id
        try:
            return Snippet(id=f"{corpus}/{item['id']}", corpus_id=corpus, document_id=item["id"], text=item["text"], score=float(score), metadata=metadata)
        except InvalidInputError as exc:
            raise RetrievalError(f"hit {position} ({item['id']!r}) is not a valid snippet: {exc.message}", stage=_STAGE) from exc

    def __repr__(self) -> str:
        return f"FunctionRetriever({self.name or self.fn!r}, kind={self.kind.value})"
