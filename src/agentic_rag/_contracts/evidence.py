"""What retrieval finds and what drafts claim: subqueries, snippets, citations, claims."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from agentic_rag._contracts.serialization import JsonContract, contract_from_dict
from agentic_rag._contracts.validation import freeze_metadata, instance_tuple, require_enum, require_int, require_number, require_text, text_tuple
from agentic_rag._errors import InvalidInputError

__all__ = ["Citation", "Claim", "DraftAnswer", "Snippet", "Subquery", "SubqueryOrigin"]


class SubqueryOrigin(str, enum.Enum):
    """Where a subquery came from: the initial plan or the judge's feedback."""

    PLAN = "plan"
    FEEDBACK = "feedback"


@dataclass(frozen=True, slots=True)
class Subquery(JsonContract):
    """One query sent to a retriever, with its lineage.

    Args:
        id: Unique id within the run (for example ``"q2.1"``).
        fact_id: The fact it looks for.
        text: The query text.
        corpus_ids: Corpora it is sent to.
        reason: Why it was issued (for the trace).
        parent_id: The earlier subquery this one follows up, if any.
        iteration: The iteration (from 1) that issued it.
        origin: ``plan`` or ``feedback``.
    """

    id: str
    fact_id: str
    text: str
    corpus_ids: tuple[str, ...]
    reason: str = ""
    parent_id: str | None = None
    iteration: int = 1
    origin: SubqueryOrigin = SubqueryOrigin.PLAN

    def __post_init__(self) -> None:
        require_text(self.id, "Subquery.id")
        require_text(self.fact_id, "Subquery.fact_id")
        require_text(self.text, "Subquery.text")
        object.__setattr__(self, "corpus_ids", text_tuple(self.corpus_ids, "Subquery.corpus_ids"))
        require_int(self.iteration, "Subquery.iteration", minimum=1)
        object.__setattr__(self, "origin", require_enum(SubqueryOrigin, self.origin, "Subquery.origin"))


@dataclass(frozen=True, slots=True)
class Snippet(JsonContract):
    """A retrieved passage: where it came from, its text and score, and which query found it.

    ``start``/``end`` are character offsets of ``text`` inside its document; ``end`` defaults
    to ``start + len(text)``. The id defaults to ``corpus/document#start-end`` so the same
    passage always gets the same id.

    Args:
        id: Unique snippet id (derived when empty).
        corpus_id: Corpus of the document.
        document_id: Document the text comes from.
        text: The passage text.
        score: Retrieval score (higher is better; scales differ between retrievers).
        start: Offset of the passage in the document.
        end: End offset (exclusive); ``-1`` means ``start + len(text)``.
        metadata: JSON-compatible data (title, source path, line range...).
        query_id: The subquery that found it ("" outside a run).
        fact_id: The fact that subquery looked for.
        lineage: Every (query id, fact id) pair that found this passage, merged on dedup.
    """

    id: str
    corpus_id: str
    document_id: str
    text: str
    score: float = 0.0
    start: int = 0
    end: int = -1
    metadata: Mapping[str, Any] = field(default_factory=dict)
    query_id: str = ""
    fact_id: str = ""
    lineage: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        require_text(self.corpus_id, "Snippet.corpus_id")
        require_text(self.document_id, "Snippet.document_id")
        require_text(self.text, "Snippet.text", allow_empty=True)
        object.__setattr__(self, "score", require_number(self.score, "Snippet.score"))
        require_int(self.start, "Snippet.start", minimum=0)
        end = self.start + len(self.text) if self.end == -1 else require_int(self.end, "Snippet.end", minimum=self.start)
        object.__setattr__(self, "end", end)
        if not self.id:
            object.__setattr__(self, "id", f"{self.corpus_id}/{self.document_id}#{self.start}-{end}")
        require_text(self.id, "Snippet.id")
        object.__setattr__(self, "metadata", freeze_metadata(self.metadata, "Snippet.metadata"))
        require_text(self.query_id, "Snippet.query_id", allow_empty=True)
        require_text(self.fact_id, "Snippet.fact_id", allow_empty=True)
        lineage = _lineage(self.lineage)
        if self.query_id and (self.query_id, self.fact_id) not in lineage:
            lineage = ((self.query_id, self.fact_id),) + lineage
        object.__setattr__(self, "lineage", lineage)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Snippet:
        """Rebuild a snippet from :meth:`to_dict` output; its ``id`` must be given (citations
        name it, so it is never derived again from data).

        Raises:
            InvalidInputError: A missing or empty ``id``, or any field of the wrong type.
        """
        if isinstance(data, Mapping):
            value = data.get("id")
            if not isinstance(value, str) or not value.strip():
                raise InvalidInputError(f"Snippet.id must be a non-empty string in serialized data (citations refer to it), got {value!r}",
                                        stage="serialization")
        return contract_from_dict(cls, data)

    @property
    def key(self) -> tuple[str, str, int, int]:
        """The dedup key: (corpus id, document id, start, end)."""
        return (self.corpus_id, self.document_id, self.start, self.end)

    @property
    def title(self) -> str:
        """The document title carried in metadata, or ``""``."""
        value = self.metadata.get("title", "")
        return value if isinstance(value, str) else ""


def _lineage(value: object) -> tuple[tuple[str, str], ...]:
    """Return ``value`` as (query id, fact id) string pairs."""
    pairs = value if isinstance(value, (list, tuple)) else None
    out = []
    for pair in pairs if pairs is not None else (value,):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2 or not all(isinstance(item, str) for item in pair):
            raise InvalidInputError(f"Snippet.lineage must hold (query id, fact id) string pairs, got {pair!r}", stage="contracts")
        out.append((pair[0], pair[1]))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Citation(JsonContract):
    """A claim's pointer into a snippet: the snippet id and the exact quoted span.

    Args:
        snippet_id: The cited snippet.
        quote: The text quoted from the snippet, verbatim.
        start: Offset of ``quote`` inside the snippet's text.
        end: End offset (exclusive); ``-1`` means ``start + len(quote)``.
    """

    snippet_id: str
    quote: str
    start: int = 0
    end: int = -1

    def __post_init__(self) -> None:
        require_text(self.snippet_id, "Citation.snippet_id")
        require_text(self.quote, "Citation.quote")
        require_int(self.start, "Citation.start", minimum=0)
        end = self.start + len(self.quote) if self.end == -1 else require_int(self.end, "Citation.end", minimum=self.start)
        object.__setattr__(self, "end", end)

    def is_supported_by(self, snippet: Snippet) -> bool:
        """True when ``quote`` stands at ``start:end`` of the snippet's text."""
        return snippet.id == self.snippet_id and snippet.text[self.start:self.end] == self.quote


@dataclass(frozen=True, slots=True)
class Claim(JsonContract):
    """One statement of an answer, with the citations that support it.

    Args:
        text: The statement.
        citations: Supporting citations (a claim without any is unsupported).
        fact_id: The required fact the claim answers, if known.
    """

    text: str
    citations: tuple[Citation, ...] = ()
    fact_id: str = ""

    def __post_init__(self) -> None:
        require_text(self.text, "Claim.text")
        object.__setattr__(self, "citations", instance_tuple(self.citations, Citation, "Claim.citations"))


@dataclass(frozen=True, slots=True)
class DraftAnswer(JsonContract):
    """An intermediate answer drafted from the evidence so far.

    Args:
        text: The draft's text.
        claims: Its claims with citations.
    """

    text: str
    claims: tuple[Claim, ...] = ()

    def __post_init__(self) -> None:
        require_text(self.text, "DraftAnswer.text", allow_empty=True)
        object.__setattr__(self, "claims", instance_tuple(self.claims, Claim, "DraftAnswer.claims"))
