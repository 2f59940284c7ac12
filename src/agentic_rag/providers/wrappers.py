"""Duck-typed adapters for retrievers users already have (LangChain, LlamaIndex).

Neither library is imported: the adapters only call the methods and read the attributes
below, so any object of the same shape works.

* LangChain: ``obj.invoke(query)`` returns documents with ``page_content``, ``metadata`` and,
  in recent versions, ``id``. Scores are read from ``metadata["score"]`` or
  ``metadata["relevance_score"]`` when present; otherwise the retriever's order is kept by a
  rank score ``1 / (1 + rank)``.
* LlamaIndex: ``obj.retrieve(query)`` returns nodes with ``score`` and ``node``; the text is
  ``node.get_content()`` (or ``node.text``), the id ``node.node_id`` (or ``node.id_``).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from typing import Any

from agentic_rag._contracts import Snippet
from agentic_rag._contracts.validation import is_number, require_enum, require_int, require_text, text_tuple
from agentic_rag._errors import InvalidInputError, RetrievalError
from agentic_rag._retrieval.function_retriever import RetrieverKind

__all__ = ["LangChainRetriever", "LlamaIndexRetriever"]

_SCORE_KEYS = ("score", "relevance_score", "similarity_score")
# What the wrapped retriever matches on; the parallel workflow sends HyDE text only to "vector".
_JSON_SCALARS = (str, int, bool, type(None))


def _json_safe(value: Any, depth: int = 0) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, _JSON_SCALARS):
        return value
    if depth < 4 and isinstance(value, Mapping):
        return {str(k): _json_safe(v, depth + 1) for k, v in value.items()}
    if depth < 4 and isinstance(value, (list, tuple)):
        return [_json_safe(v, depth + 1) for v in value]
    return str(value)


def _number(value: Any) -> float | None:
    return float(value) if is_number(value) else None


class _WrappedRetriever:
    """Shared corpus filtering, id fallback and ordering for the duck-typed adapters."""

    stage = "wrapper"

    def __init__(self, obj: Any, method: str, *, corpus_id: str, corpus_key: str | None, id_key: str, name: str, kind: str) -> None:
        if not callable(getattr(obj, method, None)):
            raise InvalidInputError(f"{type(self).__name__} needs an object with a callable .{method}(query), got {type(obj).__name__}", stage=self.stage)
        self.obj = obj
        self._method = method
        self.corpus_id = require_text(corpus_id, "corpus_id", stage=self.stage)
        self.corpus_key = corpus_key
        self.id_key = id_key
        self.name = require_text(name, "name", stage=self.stage)
        self.kind = require_enum(RetrieverKind, kind, "kind", stage=self.stage).value

    def _call(self, query: str) -> list[Any]:
        try:
            found = getattr(self.obj, self._method)(query)
        except Exception as exc:  # user code: surface it as a retrieval failure with its cause
            raise RetrievalError(f"{type(self.obj).__name__}.{self._method} failed: {type(exc).__name__}: {exc}", stage=self.stage) from exc
        if found is None or isinstance(found, (str, bytes)) or not hasattr(found, "__iter__"):
            raise RetrievalError(f"{type(self.obj).__name__}.{self._method} returned {type(found).__name__}, expected a list", stage=self.stage)
        return list(found)

    def _build(self, rows: list[tuple[str | None, str, Mapping[str, Any], float | None]], k: int, corpus_ids: Sequence[str] | None) -> tuple[Snippet, ...]:
        wanted = None if corpus_ids is None else set(text_tuple(corpus_ids, "corpus_ids", stage=self.stage))
        scored = all(score is not None for *_, score in rows)
        snippets = []
        for rank, (doc_id, text, metadata, score) in enumerate(rows):
            meta = _json_safe(dict(metadata))
            corpus = str(meta.get(self.corpus_key) or self.corpus_id) if self.corpus_key else self.corpus_id
            if wanted is not None and corpus not in wanted:
                continue
            if not doc_id:
                doc_id = str(meta.get(self.id_key) or "") or "sha256-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
            value = score if scored and score is not None else 1.0 / (1 + rank)
            snippets.append(Snippet(id=f"{corpus}/{doc_id}", corpus_id=corpus, document_id=doc_id, text=text, score=value, metadata=meta))
        snippets.sort(key=lambda s: (-s.score, s.id))
        return tuple(snippets[:k])


class LangChainRetriever(_WrappedRetriever):
    """Adapts a LangChain retriever (anything with ``invoke(query)`` returning documents).

    Args:
        obj: The retriever.
        corpus_id: Corpus of every snippet unless ``corpus_key`` names one in the metadata.
        corpus_key: Metadata key holding the corpus id (used by ``corpus_ids`` filtering).
        id_key: Metadata key holding the document id when the document has no ``id``.
        name: Label for traces and branch names.
        kind: ``"lexical"``, ``"vector"`` or ``"other"``: what the wrapped retriever matches on.

    Raises:
        InvalidInputError: ``obj`` has no callable ``invoke``, or an unknown ``kind``.
    """

    stage = "langchain"

    def __init__(
        self,
        obj: Any,
        *,
        corpus_id: str = "langchain",
        corpus_key: str | None = None,
        id_key: str = "id",
        name: str = "langchain",
        kind: str = "other",
    ) -> None:
        super().__init__(obj, "invoke", corpus_id=corpus_id, corpus_key=corpus_key, id_key=id_key, name=name, kind=kind)

    def retrieve(self, query: str, k: int, *, corpus_ids: Sequence[str] | None = None) -> tuple[Snippet, ...]:
        """Call ``invoke(query)`` and return at most ``k`` snippets best first.

        Raises:
            InvalidInputError: Empty query or ``k`` below 1.
            RetrievalError: The wrapped retriever failed or returned something else than
                documents with ``page_content``.
        """
        require_text(query, "query", stage=self.stage)
        require_int(k, "k", minimum=1, stage=self.stage)
        rows = []
        for i, doc in enumerate(self._call(query)):
            text = getattr(doc, "page_content", None)
            if not isinstance(text, str):
                raise RetrievalError(f"result {i} has no string page_content (got {type(doc).__name__})", stage=self.stage)
            metadata = getattr(doc, "metadata", None) or {}
            metadata = metadata if isinstance(metadata, Mapping) else {}
            score = next((_number(metadata.get(key)) for key in _SCORE_KEYS if _number(metadata.get(key)) is not None), None)
            doc_id = getattr(doc, "id", None)
            rows.append((str(doc_id) if doc_id else None, text, metadata, score))
        return self._build(rows, k, corpus_ids)

    def __repr__(self) -> str:
        return f"LangChainRetriever({type(self.obj).__name__}, corpus_id={self.corpus_id!r})"


class LlamaIndexRetriever(_WrappedRetriever):
    """Adapts a LlamaIndex retriever (anything with ``retrieve(query)`` returning scored nodes).

    Args:
        obj: The retriever.
        corpus_id: Corpus of every snippet unless ``corpus_key`` names one in the metadata.
        corpus_key: Node metadata key holding the corpus id.
        id_key: Metadata key holding the document id when the node has no id.
        name: Label for traces and branch names.
        kind: ``"lexical"``, ``"vector"`` or ``"other"``: what the wrapped retriever matches on.

    Raises:
        InvalidInputError: ``obj`` has no callable ``retrieve``, or an unknown ``kind``.
    """

    stage = "llamaindex"

    def __init__(
        self,
        obj: Any,
        *,
        corpus_id: str = "llamaindex",
        corpus_key: str | None = None,
        id_key: str = "id",
        name: str = "llamaindex",
        kind: str = "other",
    ) -> None:
        super().__init__(obj, "retrieve", corpus_id=corpus_id, corpus_key=corpus_key, id_key=id_key, name=name, kind=kind)

    def retrieve(self, query: str, k: int, *, corpus_ids: Sequence[str] | None = None) -> tuple[Snippet, ...]:
        """Call ``retrieve(query)`` and return at most ``k`` snippets best first.

        Raises:
            InvalidInputError: Empty query or ``k`` below 1.
            RetrievalError: The wrapped retriever failed or returned nodes without text.
        """
        require_text(query, "query", stage=self.stage)
        require_int(k, "k", minimum=1, stage=self.stage)
        rows = []
        for i, item in enumerate(self._call(query)):
            node = getattr(item, "node", item)
            getter = getattr(node, "get_content", None)
            text = getter() if callable(getter) else getattr(node, "text", None)
            if not isinstance(text, str):
                raise RetrievalError(f"node {i} has no text (neither get_content() nor .text)", stage=self.stage)
            node_id = getattr(node, "node_id", None) or getattr(node, "id_", None)
            metadata = getattr(node, "metadata", None) or {}
            metadata = metadata if isinstance(metadata, Mapping) else {}
            rows.append((str(node_id) if node_id else None, text, metadata, _number(getattr(item, "score", None))))
        return self._build(rows, k, corpus_ids)

    def __repr__(self) -> str:
        return f"LlamaIndexRetriever({type(self.obj).__name__}, corpus_id={self.corpus_id!r})"
