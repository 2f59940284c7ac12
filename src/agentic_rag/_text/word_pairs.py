"""Whether a passage keeps the question's words together: the question's word pairs, found
near each other.

A bag of words does not tell a passage about "the development server" from one that says
"server" in one paragraph and "development" in another, nor "the output format" from a page
that uses "output" and "format" apart. Two content words next to each other in the question
(within one clause: a pair never spans a comma or a question mark) name one thing together;
a passage that names it holds them within a few words of each other, in either order ("the
format of the output"). :func:`pair_share` is the weighted share of the question's pairs that a
text holds that close: each pair weighs what the lighter of its two words weighs in the
collection (:meth:`~agentic_rag._text.relevance.RelevanceModel.question_terms`), so a pair of
a rare word and a verb of asking ("want", "use") counts little.

The text is read once, term by term, as the index reads it (stop words dropped, so "a block
marked as required" keeps "block" and "requir" two terms apart); each pair is then found by
one merge of the two words' positions, so the pass is linear in the text.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from agentic_rag._regex import lazy_regex
from agentic_rag._text.relevance import RelevanceModel

__all__ = ["PAIR_WINDOW", "WordPair", "pair_share", "question_pairs"]

#: Two words of a pair stand together when at most this many analysed terms apart (stop
#: words are not counted): "block ... required" of "a block marked as required" are two apart.
#: Chosen on the development halves of the docs-QA sets with the second stage's weights.
PAIR_WINDOW = 4

# Where a question's clause ends: punctuation, or a joining word between two clauses.
_CLAUSE_END = lazy_regex(r"[.,;:?!()\[\]\"]+(?:\s|$)|\s(?:and|or|but)\s")

WordPair = tuple[str, str, float]
"""Two analysed terms adjacent in the question, and what the pair weighs."""


@lru_cache(maxsize=256)
def question_pairs(question: str, model: RelevanceModel) -> tuple[WordPair, ...]:
    """The pairs of content terms next to each other in ``question`` (each clause apart), once
    each in question order, with the weight of the lighter term of each (kept for the last
    few questions: a search asks it of every candidate).

    Args:
        question: The question or query.
        model: The collection's relevance model (its analyzer and term weights).
    """
    weights = {t.term: t.weight for t in model.question_terms(question)}
    out: dict[tuple[str, str], float] = {}
    for clause in _CLAUSE_END.split(question):
        terms = model.analyzer.analyze(clause)
        for first, second in zip(terms, terms[1:]):
            if first != second and first in weights and second in weights:
                out.setdefault((first, second), min(weights[first], weights[second]))
    return tuple((first, second, weight) for (first, second), weight in out.items())


def pair_share(question: str, text: str, model: RelevanceModel, *, window: int = PAIR_WINDOW) -> float:
    """The weighted share of ``question``'s word pairs (:func:`question_pairs`) that ``text``
    holds within ``window`` terms of each other, in either order; 0.0 for a question without
    pairs.

    Args:
        question: The question or query.
        text: The passage (with its heading path, when the reader sees it).
        model: The collection's relevance model.
        window: Most terms apart (>= 1).

    Returns:
        The share, in [0, 1].
    """
    pairs = question_pairs(question, model)
    total = sum(weight for _, _, weight in pairs)
    if total <= 0:
        return 0.0
    wanted = {term for first, second, _ in pairs for term in (first, second)}
    positions: dict[str, list[int]] = {}
    for at, term in enumerate(model.terms_in_order(text)):
        if term in wanted:
            positions.setdefault(term, []).append(at)
    found = sum(weight for first, second, weight in pairs
                if _near(positions.get(first, ()), positions.get(second, ()), window))
    return min(1.0, found / total)


def _near(first: Sequence[int], second: Sequence[int], window: int) -> bool:
    """Whether a position of ``first`` and one of ``second`` (both increasing) are at most
    ``window`` apart: one merge of the two lists."""
    i = j = 0
    while i < len(first) and j < len(second):
        if abs(first[i] - second[j]) <= window:
            return True
        if first[i] < second[j]:
            i += 1
        else:
            j += 1
    return False
