"""Whether the fused passages answer the question: the parallel workflow's abstention check.

A generator quotes the best sentences it is given; it cannot tell whether those sentences are
about the question or merely share its words. This check decides that the same way the
agentic judge does for a plain question: each part of the question (a compound question has
several, see :func:`~agentic_rag._text.questions.split_compound`) is covered when some fused
passage's :meth:`~agentic_rag._text.relevance.RelevanceModel.answer_share` reaches the
threshold and the passage holds every name, identifier and number the part states. All parts
covered: ANSWERED; some: PARTIAL; none: UNANSWERABLE.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agentic_rag._contracts import AnswerStatus
from agentic_rag._contracts.validation import require_fraction
from agentic_rag._parallel.evidence import FusedDocument
from agentic_rag._text.questions import split_compound
from agentic_rag._text.relevance import RelevanceModel

__all__ = ["Answerability", "RelevanceAnswerability"]

#: The answer share that covers a question part; calibrated on the development half of the
#: documentation benchmark (``bench/bench_docs_qa.py``), as the agentic judge's threshold.
DEFAULT_THRESHOLD = 0.45


@dataclass(frozen=True, slots=True)
class Answerability:
    """The verdict on one question.

    Args:
        status: ANSWERED, PARTIAL or UNANSWERABLE.
        score: The lowest best share over the question's parts, in [0, 1].
        missing: The parts no passage covers, in question order.
    """

    status: AnswerStatus
    score: float
    missing: tuple[str, ...] = ()


class RelevanceAnswerability:
    """Checks fused passages against every part of the question.

    Args:
        model: The relevance model (default: uniform weights; give it the collection's
            :class:`~agentic_rag._text.relevance.TermWeights` to read paraphrase).
        threshold: The answer share that covers a part, in [0, 1].

    Raises:
        InvalidInputError: ``threshold`` outside [0, 1].
    """

    def __init__(self, model: RelevanceModel | None = None, *, threshold: float = DEFAULT_THRESHOLD) -> None:
        self.model = model or RelevanceModel()
        self.threshold = require_fraction(threshold, "threshold", stage="parallel")

    def check(self, query: str, documents: Sequence[FusedDocument]) -> Answerability:
        """Judge whether ``documents`` answer ``query``.

        Args:
            query: The question.
            documents: The fused documents the generator was given.

        Returns:
            The verdict.
        """
        parts = split_compound(query)
        passages = [(d.snippet.title if d.snippet is not None else "", d.text) for d in documents]
        shares = [self.model.best_passage(part, passages)[0] for part in parts]
        missing = tuple(p for p, s in zip(parts, shares) if s < self.threshold)
        if not missing:
            status = AnswerStatus.ANSWERED
        elif len(missing) < len(parts):
            status = AnswerStatus.PARTIAL
        else:
            status = AnswerStatus.UNANSWERABLE
        return Answerability(status, round(min(shares), 6), missing)
