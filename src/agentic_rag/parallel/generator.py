"""Grounded generation from fused documents: a deterministic extractive generator, an adapter
for plain functions, and the citation check every answer goes through.

An answer cites ``[n]`` for ``documents[n - 1]``, the n-th fused document handed to the
generator. :func:`verify_citations` checks that every marker is in range and every quoted
span stands verbatim at its offsets in the cited document.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from agentic_rag.contracts.validation import require_int, require_text
from agentic_rag.errors import InvalidInputError
from agentic_rag.parallel.evidence import AnswerCitation, FusedDocument, GeneratedAnswer
from agentic_rag.text.analyzer import Analyzer

__all__ = ["ExtractiveGenerator", "FunctionGenerator", "sentence_spans", "verify_citations"]

_STAGE = "generator"
_MARKER = re.compile(r"\[(\d+)\]")
# A sentence ends at . ! or ? (plus closing quotes or brackets) followed by white space and a
# capital, digit or opening quote; or at a blank line.
_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+(?=[\"'\u201c\u2018(\[]?[A-Z0-9])|\n\s*\n")
# Words after which a full stop does not end a sentence.
_ABBREVIATIONS = frozenset({"al", "approx", "cf", "dr", "e.g", "eg", "etc", "fig", "i.e", "ie", "inc", "jr", "ltd", "mr", "mrs", "ms", "no", "prof", "sr", "st", "vol", "vs"})


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Split ``text`` into sentences, returned as ``(start, end)`` offsets with surrounding
    white space excluded, so ``text[start:end]`` is the sentence verbatim.

    Args:
        text: Any string.

    Returns:
        Offsets of the non-empty sentences, in order.
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _END.finditer(text):
        if match.group().startswith((".",)):
            before = text[start:match.start()].rsplit(None, 1)
            word = before[-1].casefold().lstrip("(\"'") if before else ""
            if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
                continue
        cut = match.start() + len(match.group().rstrip())
        spans.append((start, cut))
        start = match.end()
    spans.append((start, len(text)))
    out = []
    for begin, end in spans:
        segment = text[begin:end]
        stripped = segment.strip()
        if stripped:
            begin += len(segment) - len(segment.lstrip())
            out.append((begin, begin + len(stripped)))
    return out


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
    for match in _MARKER.finditer(answer.text):
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
    """Answers with the documents' best sentences, each cited ``[n]``, or refuses.

    The query's content terms are its analysed terms (stop words removed, stemmed). A
    document *carries* the query when it holds at least ``min_coverage`` of them; when no
    document does, the answer is a refusal saying the evidence is insufficient. Otherwise
    sentences are picked greedily: each pick is the sentence adding the most query terms not
    yet covered (then the most terms overall, then the better-ranked document, then the earlier
    sentence), until every term is covered, no sentence adds one, or ``max_sentences`` are
    picked. Each sentence is quoted verbatim and cited.

    Args:
        analyzer: The analyzer for content terms (default: English, Snowball).
        max_sentences: Most sentences in an answer.
        min_coverage: Share of the query's content terms a document must hold, in (0, 1].
        name: Label for traces.

    Raises:
        InvalidInputError: ``max_sentences`` below 1 or ``min_coverage`` outside (0, 1].
    """

    def __init__(self, analyzer: Analyzer | None = None, *, max_sentences: int = 3, min_coverage: float = 0.5, name: str = "extractive") -> None:
        require_int(max_sentences, "max_sentences", minimum=1, stage=_STAGE)
        if isinstance(min_coverage, bool) or not isinstance(min_coverage, (int, float)) or not 0.0 < min_coverage <= 1.0:
            raise InvalidInputError(f"min_coverage must be a number in (0, 1], got {min_coverage!r}", stage=_STAGE)
        self.analyzer = analyzer or Analyzer()
        self.max_sentences = max_sentences
        self.min_coverage = float(min_coverage)
        self.name = require_text(name, "name", stage=_STAGE)

    def generate(self, query: str, documents: Sequence[FusedDocument]) -> GeneratedAnswer:
        """Answer ``query`` from ``documents`` with cited sentences, or refuse.

        Args:
            query: The user's question.
            documents: Fused documents, best first; ``[n]`` cites ``documents[n - 1]``.

        Returns:
            The answer; ``refused`` is True when no document carries the query's terms.

        Raises:
            InvalidInputError: An empty query or a document that is not a FusedDocument.
        """
        docs = _check_documents(query, documents)
        wanted = list(dict.fromkeys(self.analyzer.analyze(query)))
        if not wanted:
            return _refusal("the question has no content terms to look for")
        candidates = []  # (document number, start, end, matched terms)
        for number, document in enumerate(docs, 1):
            text = document.text
            if len(set(self.analyzer.analyze(text)).intersection(wanted)) < self.min_coverage * len(wanted):
                continue
            for start, end in sentence_spans(text):
                matched = frozenset(self.analyzer.analyze(text[start:end])).intersection(wanted)
                if matched:
                    candidates.append((number, start, end, matched))
        if not candidates:
            return _refusal(f"no retrieved document mentions enough of {', '.join(wanted)}")
        picked = []
        covered: set[str] = set()
        while candidates and len(picked) < self.max_sentences and len(covered) < len(wanted):
            best = min(candidates, key=lambda c: (-len(c[3] - covered), -len(c[3]), c[0], c[1]))
            if not best[3] - covered:
                break
            picked.append(best)
            covered |= best[3]
            candidates.remove(best)
        parts, citations = [], []
        for number, start, end, _ in picked:
            quote = docs[number - 1].text[start:end]
            parts.append(_with_marker(" ".join(quote.split()), number))
            citations.append(AnswerCitation(number, docs[number - 1].document_id, quote, start, end))
        return GeneratedAnswer(" ".join(parts), tuple(citations))


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
