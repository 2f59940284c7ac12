"""The scaffold's lexical retriever (``agentic_rag.adapters.retriever``), over a modern BM25 index.

Documents are keyed by (corpus id, document id): a later document with the same key replaces
the earlier one. A subquery searches only its target corpora; each hit becomes a whole-document
:class:`~agentic_rag.compat.contracts.Snippet` stamped with the subquery's id and fact, with a
``span`` on the words that matched. The same object also answers the modern
``retrieve(query, k, corpus_ids=...)`` call, so it can stand in either workflow.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentic_rag._contracts import Document
from agentic_rag._contracts.validation import freeze_metadata, require_int, require_text
from agentic_rag._errors import InvalidInputError
from agentic_rag._retrieval.bm25 import BM25Index
from agentic_rag.compat.contracts import Snippet, Subquery

__all__ = ["LEXICAL_SCORING_RULE", "LexicalDocument", "LexicalRetriever", "match_span"]

LEXICAL_SCORING_RULE = (
    "BM25 (the library's BM25Index: stemmed, stop words removed) over the documents of the "
    "routed corpora; a document with no overlapping query terms is not returned. Results are "
    "ordered by score, then corpus id, then document id. The span is the exact phrase of the "
    "query when the text contains it (case-insensitive), else the stretch from the first to "
    "the last overlapping query term."
)

_WORD = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class LexicalDocument:
    """A document of one corpus.

    Args:
        corpus_id: Its corpus.
        document_id: Its id within the corpus.
        text: Its text.
        metadata: JSON-compatible provenance, copied onto every snippet.
    """

    corpus_id: str
    document_id: str
    text: str
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        require_text(self.corpus_id, "LexicalDocument.corpus_id", stage="compat")
        require_text(self.document_id, "LexicalDocument.document_id", stage="compat")
        require_text(self.text, "LexicalDocument.text", stage="compat")
        object.__setattr__(self, "metadata", freeze_metadata(self.metadata, "LexicalDocument.metadata", stage="compat"))


def match_span(text: str, query: str) -> tuple[int, int] | None:
    """The exact query phrase in ``text`` (case-insensitive), else the stretch from the first
    to the last word of ``text`` that is also a query word; ``None`` when no word matches."""
    phrase = " ".join(query.split())
    if phrase:
        at = text.casefold().find(phrase.casefold())
        if at >= 0:
            return (at, at + len(phrase))
    words = {w.casefold() for w in _WORD.findall(query)}
    hits = [m for m in _WORD.finditer(text) if m.group().casefold() in words]
    return (hits[0].start(), hits[-1].end()) if hits else None


class LexicalRetriever:
    """BM25 over in-memory documents, in the scaffold's call shape and the modern one.

    Args:
        documents: ``LexicalDocument`` (or modern ``Document``) objects.
        top_k: Snippets returned per subquery.
        name: A label for traces.

    Raises:
        InvalidInputError: A document of another type, or ``top_k`` below 1.
    """

    def __init__(self, documents: Iterable[LexicalDocument | Document] = (), *, top_k: int = 10, name: str = "") -> None:
        self.top_k = require_int(top_k, "top_k", minimum=1, stage="compat")
        self.name = name or type(self).__name__
        self.calls: list[Subquery] = []
        self.documents: dict[str, LexicalDocument] = {}
        for doc in documents:
            if isinstance(doc, Document):
                doc = LexicalDocument(doc.corpus_id, doc.id, doc.text or doc.title, doc.metadata)
            if not isinstance(doc, LexicalDocument):
                raise InvalidInputError(f"documents must be LexicalDocument or Document objects, got {type(doc).__name__} {doc!r}", stage="compat")
            self.documents[f"{doc.corpus_id}/{doc.document_id}"] = doc  # a later copy replaces an earlier one
        self.index = BM25Index.from_documents(
            Document(id=key, text=doc.text, corpus_id=doc.corpus_id) for key, doc in sorted(self.documents.items())
        )

    def retrieve(self, query: Subquery | str, k: int | None = None, *, corpus_ids: Sequence[str] | None = None) -> tuple[Snippet, ...]:
        """Search for a scaffold ``Subquery`` (its target corpora, ``top_k`` results, stamped
        with its id and fact) or for a query text (``k`` results from ``corpus_ids``).

        Returns:
            Snippets best first; ties by corpus id, then document id.

        Raises:
            InvalidInputError: A query of another type or ``k`` below 1.
        """
        if isinstance(query, Subquery):
            self.calls.append(query)
            text, corpora, stamp = query.query, query.target_corpus_ids or None, (query.id, query.fact_id)
        elif isinstance(query, str):
            text, corpora, stamp = query, (tuple(corpus_ids) if corpus_ids is not None else None), ("", "")
        else:
            raise InvalidInputError(f"query must be a Subquery or a string, got {type(query).__name__} {query!r}", stage="retriever")
        limit = self.top_k if k is None else require_int(k, "k", minimum=1, stage="retriever")
        if not self.documents or not text.strip():
            return ()
        hits = [h for h in self.index.search(text, limit, corpus_ids=corpora) if h.score > 0]
        hits.sort(key=lambda h: (-h.score, self.documents[h.document_id].corpus_id, self.documents[h.document_id].document_id))
        out = []
        for hit in hits:
            doc = self.documents[hit.document_id]
            out.append(Snippet(
                id=f"{doc.corpus_id}/{doc.document_id}", corpus_id=doc.corpus_id, document_id=doc.document_id,
                text=doc.text, score=hit.score, metadata=doc.metadata, query_id=stamp[0], fact_id=stamp[1],
                span=match_span(doc.text, text),
            ))
        return tuple(out)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self.documents)} documents)"
