"""What fusion and generation produce: contributions, fused documents, the cited answer.

Frozen, validated, JSON-serialisable contracts (they inherit
:class:`~agentic_rag._contracts.JsonContract`). Fusion builds thousands of these at a time and
sets their slots directly after validating its inputs once; everything else goes through
``__post_init__``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agentic_rag._contracts import AnswerStatus, ClaimReview, Snippet
from agentic_rag._contracts.serialization import JsonContract
from agentic_rag._contracts.validation import instance_tuple, require_bool, require_enum, require_int, require_number, require_text, text_tuple
from agentic_rag._errors import InvalidInputError

__all__ = ["AnswerCitation", "Contribution", "FusedDocument", "GeneratedAnswer", "finite_number", "take_citations"]

_STAGE = "parallel"


def finite_number(value: object, name: str, *, minimum: float | None = None, allow_none: bool = False) -> float | None:
    """Return ``value`` as a finite float (at least ``minimum``), or ``None`` when allowed.

    Raises:
        InvalidInputError: Not a finite number, or below ``minimum``.
    """
    return require_number(value, name, minimum=minimum, optional=allow_none, stage=_STAGE)


@dataclass(frozen=True, slots=True)
class Contribution(JsonContract):
    """What one branch added to one fused document.

    Args:
        branch: The branch (ranking) name.
        branch_index: Its position among the fused rankings (0-based; breaks ties).
        rank: The document's rank in that branch, from 1, duplicates collapsed.
        weight: The branch's weight.
        value: What it added to the fused score (RRF: ``weight / (k + rank)``).
        raw_score: The branch's own score for the document (``None`` for bare ids).
        retriever: The retriever behind the branch ("" outside the workflow).
        query: The query view the branch searched ("" outside the workflow).
    """

    branch: str
    branch_index: int
    rank: int
    weight: float
    value: float
    raw_score: float | None = None
    retriever: str = ""
    query: str = ""

    def __post_init__(self) -> None:
        require_text(self.branch, "Contribution.branch", stage=_STAGE)
        require_int(self.branch_index, "Contribution.branch_index", minimum=0, stage=_STAGE)
        require_int(self.rank, "Contribution.rank", minimum=1, stage=_STAGE)
        object.__setattr__(self, "weight", finite_number(self.weight, "Contribution.weight", minimum=0.0))
        object.__setattr__(self, "value", finite_number(self.value, "Contribution.value"))
        object.__setattr__(self, "raw_score", finite_number(self.raw_score, "Contribution.raw_score", allow_none=True))


@dataclass(frozen=True, slots=True)
class FusedDocument(JsonContract):
    """One document of a fused ranking, with how each branch contributed.

    Args:
        document_id: The document.
        corpus_id: Its corpus (``"default"`` for bare ids and hits without one).
        score: The fused score (higher is better).
        normalized_score: ``score`` divided by the best score fusion could give (a document
            ranked first by every branch), in [0, 1], for thresholds.
        rank: Position in the fused ranking, from 1.
        contributions: One per branch that found it, in branch order.
        snippet: The passage from its best-ranked branch (``None`` for bare ids).
    """

    document_id: str
    corpus_id: str
    score: float
    normalized_score: float
    rank: int
    contributions: tuple[Contribution, ...]
    snippet: Snippet | None = None

    def __post_init__(self) -> None:
        require_text(self.document_id, "FusedDocument.document_id", stage=_STAGE)
        require_text(self.corpus_id, "FusedDocument.corpus_id", stage=_STAGE, allow_empty=True)
        object.__setattr__(self, "score", finite_number(self.score, "FusedDocument.score"))
        normalized = finite_number(self.normalized_score, "FusedDocument.normalized_score")
        if not 0.0 <= normalized <= 1.0:  # type: ignore[operator]
            raise InvalidInputError(f"FusedDocument.normalized_score must be in [0, 1], got {normalized!r}", stage=_STAGE)
        object.__setattr__(self, "normalized_score", normalized)
        require_int(self.rank, "FusedDocument.rank", minimum=1, stage=_STAGE)
        object.__setattr__(self, "contributions", tuple(self.contributions))

    @property
    def text(self) -> str:
        """The passage text ("" for bare ids)."""
        return self.snippet.text if self.snippet is not None else ""

    @property
    def best_rank(self) -> int:
        """The best (lowest) rank any branch gave this document."""
        return min((c.rank for c in self.contributions), default=0)

    def explain(self) -> str:
        """Say which branches found the document, at what rank, and what each contributed.

        Returns:
            One line per contribution under a header line, for example
            ``"#1 d7 score=0.032522 (normalized 1.000) = bm25/q1 rank 1 (1/(k+1) x 1) ..."``.
        """
        lines = [f"#{self.rank} {self.document_id} score={self.score:.6f} (normalized {self.normalized_score:.3f})"]
        for c in self.contributions:
            raw = "" if c.raw_score is None else f", branch score {c.raw_score:.4f}"
            lines.append(f"  + {c.value:.6f} from {c.branch} (rank {c.rank}, weight {c.weight:g}{raw})")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class AnswerCitation(JsonContract):
    """One ``[n]`` marker of an answer: the fused document it points at and the quoted span.

    Args:
        number: The marker number ``n`` (1-based position among the generator's documents).
        document_id: The cited document.
        quote: The quoted text, verbatim from the document's passage.
        start: Offset of ``quote`` in the passage text.
        end: End offset (exclusive); ``-1`` means ``start + len(quote)``.
    """

    number: int
    document_id: str
    quote: str
    start: int = 0
    end: int = -1

    def __post_init__(self) -> None:
        require_int(self.number, "AnswerCitation.number", minimum=1, stage=_STAGE)
        require_text(self.document_id, "AnswerCitation.document_id", stage=_STAGE)
        require_text(self.quote, "AnswerCitation.quote", stage=_STAGE)
        require_int(self.start, "AnswerCitation.start", minimum=0, stage=_STAGE)
        end = self.start + len(self.quote) if self.end == -1 else require_int(self.end, "AnswerCitation.end", minimum=self.start, stage=_STAGE)
        object.__setattr__(self, "end", end)


def take_citations(pending: list[AnswerCitation], numbers: Sequence[int]) -> list[AnswerCitation]:
    """The citations of one claim's ``[n]`` markers: each marker takes the first citation of
    its number not yet taken, in order, out of ``pending`` ("[1] [1]" takes two).

    Args:
        pending: The answer's citations not yet taken (changed in place).
        numbers: The claim's marker numbers, in order.

    Returns:
        The claim's citations, in marker order.
    """
    cited = []
    for number in numbers:
        citation = next((c for c in pending if c.number == number), None)
        if citation is not None:
            pending.remove(citation)
            cited.append(citation)
    return cited


@dataclass(frozen=True, slots=True)
class GeneratedAnswer(JsonContract):
    """The generator's answer.

    Args:
        text: The answer, with ``[n]`` markers pointing at the generator's documents.
        citations: The cited spans, in the order they appear.
        refused: True when the generator declined because the evidence is insufficient.
        status: What the generator claims: ANSWERED, or PARTIAL when it says the documents
            answer only part of the question; a refusal is always UNANSWERABLE.
        missing: The parts of the question the generator found unanswered (``()`` when it
            does not say).
        reviews: The claims the library's check doubted or dropped, with the reasons.
    """

    text: str
    citations: tuple[AnswerCitation, ...] = ()
    refused: bool = False
    status: AnswerStatus = AnswerStatus.ANSWERED
    missing: tuple[str, ...] = ()
    reviews: tuple[ClaimReview, ...] = ()

    def __post_init__(self) -> None:
        require_text(self.text, "GeneratedAnswer.text", stage=_STAGE, allow_empty=True)
        object.__setattr__(self, "citations", tuple(self.citations))
        require_bool(self.refused, "GeneratedAnswer.refused", stage=_STAGE)
        status = require_enum(AnswerStatus, self.status, "GeneratedAnswer.status", stage=_STAGE)
        object.__setattr__(self, "status", AnswerStatus.UNANSWERABLE if self.refused else status)
        object.__setattr__(self, "missing", text_tuple(self.missing, "GeneratedAnswer.missing", stage=_STAGE))
        object.__setattr__(self, "reviews", instance_tuple(self.reviews, ClaimReview, "GeneratedAnswer.reviews", stage=_STAGE))
