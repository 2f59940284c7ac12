"""Grounded generation from fused documents: a deterministic extractive generator, an adapter
for plain functions, and the citation check every answer goes through.

An answer cites ``[n]`` for ``documents[n - 1]``, the n-th fused document handed to the
generator. :func:`verify_citations` checks that every marker is in range and every quoted
span stands verbatim at its offsets in the cited document.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from agentic_rag._answering.compose import CITATION_MARKER
from agentic_rag._answering.earned import ClaimContext, checks_value, earned_verdict
from agentic_rag._answering.render import quote_span, render_claim, select_claims
from agentic_rag._contracts import AnswerStatus
from agentic_rag._contracts.validation import require_int, require_number, require_text
from agentic_rag._errors import InvalidInputError
from agentic_rag._parallel.evidence import AnswerCitation, FusedDocument, GeneratedAnswer
from agentic_rag._text.analyzer import Analyzer
from agentic_rag._text.focus import answer_units, snippet_title
from agentic_rag._text.questions import split_compound
from agentic_rag._text.relevance import RelevanceModel, ScoredUnit

__all__ = ["EARNING_UNITS", "ExtractiveGenerator", "FunctionGenerator", "verify_citations"]

_STAGE = "generator"
#: How many of a question part's best units are tried, when the picked ones do not earn it,
#: for one that states its value (:meth:`ExtractiveGenerator._earning`).
EARNING_UNITS = 8


def verify_citations(answer: GeneratedAnswer, documents: Sequence[FusedDocument]) -> tuple[str, ...]:
    """Check an answer's citations against the documents it was generated from.

    Args:
        answer: The generated answer.
        documents: The fused documents the generator was given, in order.

    Returns:
        One message per problem (empty when every ``[n]`` in the text is in range and every
        citation's quote stands verbatim at its offsets in document ``n`` with its id).
    """
    problems: list[str] = []
    count = len(documents)
    for match in CITATION_MARKER.finditer(answer.text):
        number = int(match.group(1))
        if not 1 <= number <= count:
            problems.append(f"marker [{number}] is out of range; there are {count} documents")
    for citation in answer.citations:
        if not 1 <= citation.number <= count:
            problems.append(f"citation [{citation.number}] is out of range; there are {count} documents")
            continue
        document = documents[citation.number - 1]
        if citation.document_id != document.document_id:
            problems.append(f"citation [{citation.number}] names {citation.document_id!r} but document {citation.number} is {document.document_id!r}")
        elif document.text[citation.start:citation.end] != citation.quote:
            problems.append(f"citation [{citation.number}] quote {citation.quote[:40]!r} is not at {citation.start}:{citation.end} of {document.document_id!r}")
        if f"[{citation.number}]" not in answer.text:
            problems.append(f"citation [{citation.number}] has no marker in the answer text")
    return tuple(problems)


def _check_documents(query: object, documents: object) -> list[FusedDocument]:
    require_text(query, "query", stage=_STAGE)
    if isinstance(documents, (str, bytes)) or not isinstance(documents, Sequence):
        raise InvalidInputError(f"documents must be a sequence of FusedDocument, got {type(documents).__name__}", stage=_STAGE)
    for position, document in enumerate(documents):
        if not isinstance(document, FusedDocument):
            raise InvalidInputError(f"documents[{position}] must be a FusedDocument, got {type(document).__name__}", stage=_STAGE)
    return list(documents)


class ExtractiveGenerator:
    """Answers with the documents' best units (sentences, list items, table rows, code with
    its lead-in), each cited ``[n]``, or refuses.

    Units are each document's focus lines (:func:`~agentic_rag._text.focus.answer_units`, the
    same choice the agentic drafter quotes from): the best one first, then up to
    ``max_sentences - 1`` more scoring at least ``keep_ratio`` of it; for a compound question
    (:func:`~agentic_rag._text.questions.split_compound`), each part's best unit first, then
    those, at most ``max_sentences`` in all. When no unit covers any
    of the question, the answer is a refusal. Whether the documents really answer the
    question is the workflow's answerability check, not the generator's.

    Args:
        analyzer: The analyzer for content terms (default: English, Snowball); ignored when
            ``relevance`` is given.
        max_sentences: Most units in an answer.
        keep_ratio: Share of the best unit's score a further unit needs, in (0, 1].
        relevance: The relevance model (default: uniform weights over ``analyzer``).
        name: Label for traces.

    Raises:
        InvalidInputError: ``max_sentences`` below 1 or ``keep_ratio`` outside (0, 1].
    """

    #: The workflow may refuse in its place when the evidence does not answer (its abstention).
    workflow_guards_text = True

    def __init__(
        self,
        analyzer: Analyzer | None = None,
        *,
        max_sentences: int = 3,
        keep_ratio: float = 0.8,
        relevance: RelevanceModel | None = None,
        name: str = "extractive",
    ) -> None:
        require_int(max_sentences, "max_sentences", minimum=1, stage=_STAGE)
        require_number(keep_ratio, "keep_ratio", above=0, maximum=1, stage=_STAGE)
        self.relevance = relevance or RelevanceModel(analyzer)
        self.max_sentences = max_sentences
        self.keep_ratio = float(keep_ratio)
        self.name = require_text(name, "name", stage=_STAGE)

    def generate(self, query: str, documents: Sequence[FusedDocument]) -> GeneratedAnswer:
        """Answer ``query`` from ``documents`` with cited units, or refuse.

        Args:
            query: The user's question.
            documents: Fused documents, best first; ``[n]`` cites ``documents[n - 1]``.

        Returns:
            The answer; ``refused`` is True when no unit covers any of the question.

        Raises:
            InvalidInputError: An empty query or a document that is not a FusedDocument.
        """
        docs = _check_documents(query, documents)
        if not self.relevance.question_terms(query):
            return _refusal("the question has no content terms to look for")
        passages = [(snippet_title(d.snippet) if d.snippet is not None else "", d.text) for d in docs]
        picked = answer_units(query, passages, self.relevance, max_units=self.max_sentences, keep_ratio=self.keep_ratio)
        question_parts = split_compound(query)
        if picked and len(question_parts) > 1:
            # A compound question: each part's own best unit first (the whole question's best
            # units may all answer its first part), then the whole question's, each span
            # once, at most max_sentences in all.
            chosen: dict[tuple[int, int, int], ScoredUnit] = {}
            for part in question_parts:
                for unit in answer_units(part, passages, self.relevance, max_units=1, keep_ratio=self.keep_ratio):
                    chosen.setdefault((unit.passage, unit.unit.start, unit.unit.end), unit)
            for unit in picked:
                chosen.setdefault((unit.passage, unit.unit.start, unit.unit.end), unit)
            picked = list(chosen.values())[:self.max_sentences]
        if not picked:
            return _refusal("no retrieved document mentions the question's terms")
        picked = (self._earning(question_parts, passages, picked) + picked)[:self.max_sentences]
        rendered = [render_claim(f"{s.heading}: {s.unit.text}" if s.heading else s.unit.text) or s.unit.text for s in picked]
        # Rendered, each sentence once, padding dropped, ordered by the question's parts.
        shown_order = select_claims(question_parts, [(*passages[s.passage], text) for s, text in zip(picked, rendered)], self.relevance)
        parts, citations = [], []
        for index, shown in shown_order:
            scored = picked[index]
            number, unit = scored.passage + 1, scored.unit
            start, end = quote_span(unit.text, shown) if shown != rendered[index] else (-1, -1)
            if shown != rendered[index] and end < 0:
                shown = rendered[index]  # a cut whose span is not found is shown whole
            quote = unit.text[start:end] if end >= 0 else unit.text
            offset = unit.start + max(start, 0)
            parts.append(_with_marker(shown, number))
            citations.append(AnswerCitation(number, docs[number - 1].document_id, quote, offset, offset + len(quote)))
        return GeneratedAnswer(" ".join(parts), tuple(citations))


    def _earning(self, parts: Sequence[str], passages: list[tuple[str, str]], picked: list[ScoredUnit]) -> list[ScoredUnit]:
        """For each question part no picked unit earns (:func:`~agentic_rag._answering.
        earned.earned_verdict`), the first of its :data:`EARNING_UNITS` best units that earns
        it alone: a line that states the value, put first, rather than lines that only talk
        about it. The workflow's earned check still decides the status."""
        def earns(part: str, unit: ScoredUnit) -> bool:
            title, text = passages[unit.passage]
            quoted = f"{unit.heading}: {unit.unit.text}" if unit.heading else unit.unit.text
            return earned_verdict(part, [ClaimContext(title, quoted, text)], self.relevance).status is AnswerStatus.ANSWERED

        out: list[ScoredUnit] = []
        for part in parts:
            if not checks_value(part) or any(earns(part, unit) for unit in picked + out):
                continue
            spans = {(u.passage, u.unit.start, u.unit.end) for u in picked + out}
            for unit in answer_units(part, passages, self.relevance, max_units=EARNING_UNITS, keep_ratio=0.0):
                if (unit.passage, unit.unit.start, unit.unit.end) not in spans and earns(part, unit):
                    out.append(unit)
                    break
        return out


def _with_marker(sentence: str, number: int) -> str:
    """Put ``[n]`` before the sentence's final punctuation ("X is Y [1].")."""
    if sentence and sentence[-1] in ".!?":
        return f"{sentence[:-1]} [{number}]{sentence[-1]}"
    return f"{sentence} [{number}]"


def _refusal(reason: str) -> GeneratedAnswer:
    return GeneratedAnswer(f"The retrieved evidence is insufficient to answer: {reason}.", (), refused=True)


class FunctionGenerator:
    """Adapts a plain function ``fn(query, documents) -> str`` to the ``Generator`` port.

    The function receives the fused documents (``document.text``, ``document.document_id``...)
    and returns the answer text, citing ``[n]`` for ``documents[n - 1]``. Markers in the text
    are checked by :func:`verify_citations`; no quoted spans are recorded.

    Args:
        fn: The function.
        name: Label for traces (default: the function's name).

    Raises:
        InvalidInputError: ``fn`` is not callable.
    """

    def __init__(self, fn: Callable[[str, Sequence[FusedDocument]], str], *, name: str = "") -> None:
        if not callable(fn):
            raise InvalidInputError(f"fn must be callable as fn(query, documents) -> str, got {fn!r}", stage=_STAGE)
        self.fn = fn
        self.name = name or getattr(fn, "__name__", "") or type(self).__name__

    def generate(self, query: str, documents: Sequence[FusedDocument]) -> GeneratedAnswer:
        """Call the function and wrap its text.

        Raises:
            InvalidInputError: Bad arguments, or the function returned something other than a string.
        """
        docs = _check_documents(query, documents)
        text = self.fn(query, docs)
        if not isinstance(text, str):
            raise InvalidInputError(f"generator function {self.name!r} must return a string, got {type(text).__name__}", stage=_STAGE)
        return GeneratedAnswer(text)
