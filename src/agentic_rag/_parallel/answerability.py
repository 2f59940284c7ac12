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

from agentic_rag._answering.compose import marked_segments
from agentic_rag._answering.earned import ClaimContext, earned_verdict
from agentic_rag._contracts import AnswerStatus
from agentic_rag._contracts.validation import require_fraction
from agentic_rag._parallel.evidence import FusedDocument, GeneratedAnswer
from agentic_rag._text.focus import snippet_title
from agentic_rag._text.questions import split_compound
from agentic_rag._text.relevance import RelevanceModel

__all__ = ["Answerability", "RelevanceAnswerability"]

#: The answer share that covers a question part; calibrated on the development half of the
#: documentation benchmark (``bench/answers/bench_docs_qa.py``), as the agentic judge's threshold.
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

    def earned(self, query: str, answer: GeneratedAnswer, documents: Sequence[FusedDocument]) -> Answerability:
        """Judge whether the answer's claims hold what ``query`` asks for
        (:func:`~agentic_rag._answering.earned.earned_verdict`): passages about the topic
        pass :meth:`check`, but only claims that state the version, default, number or name
        asked for earn ANSWERED.

        Args:
            query: The question.
            answer: The generated answer (its cited quotes, else its ``[n]``-marked text).
            documents: The fused documents it cites.

        Returns:
            The verdict; ``score`` is 1.0 when earned, else 0.0.
        """
        def claim(number: int, text: str) -> ClaimContext:
            document = documents[number - 1] if 1 <= number <= len(documents) else None
            if document is None:
                return ClaimContext("", text, text)
            return ClaimContext(snippet_title(document.snippet) if document.snippet is not None else "", text, document.text)

        claims = [claim(c.number, c.quote) for c in answer.citations]
        if not claims:
            claims = [claim(numbers[0] if numbers else 0, text) for text, numbers in marked_segments(answer.text)]
        verdict = earned_verdict(query, claims, self.model)
        return Answerability(verdict.status, 1.0 if verdict.status is AnswerStatus.ANSWERED else 0.0, verdict.missing)
