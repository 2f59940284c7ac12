"""Where a question term stands in a text: on its stem, its root, or its spelling.

A term matches a text's terms on its stem (full credit), on its first characters, a word root
("configur" for "configuration" and "configuring"), on its base after "un" ("unhandled" where a
text says "handled"), or on its spelling (character trigrams, for a misspelt or variant word),
with decreasing credit. :class:`~agentic_rag._text.relevance.RelevanceModel` weighs the terms.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["ROOT_LENGTH", "TextTerms", "term_credit"]

#: Characters of a stem that make its root.
ROOT_LENGTH = 5


class TextTerms:
    """The matchable forms of a text's terms.

    Args:
        stems: The text's analysed terms.
        ordered: Its terms in text order, as the analyzer gives them (``()``: not kept).
    """

    __slots__ = ("credits", "ordered", "roots", "stems", "trigrams")

    def __init__(self, stems: frozenset[str], ordered: tuple[str, ...] = ()) -> None:
        self.stems = stems
        self.ordered = ordered
        self.roots = frozenset(s[:ROOT_LENGTH] for s in stems)
        self.trigrams: list[tuple[frozenset[str], int]] | None = None
        # A term's credit, once asked: one search asks the same text for the same question
        # terms several times (the cheap stage's coverage, the view's, the relevance's). Filled
        # by the one model that made these terms, whose credits do not change.
        self.credits: dict[str, float] = {}

    def spelled_like(self, term: str) -> bool:
        """True when a stem of the text shares most character trigrams with ``term`` (at least
        0.6 of the two sets' union)."""
        if len(term) < 5:
            return False
        if self.trigrams is None:
            self.trigrams = [(grams, len(grams)) for grams in (_trigrams(s) for s in self.stems if len(s) >= 4)]
        wanted = _trigrams(term)
        size = len(wanted)
        # Sets whose sizes differ by more than that share cannot share it (the common part is
        # no larger than the smaller set, the union no smaller than the larger): only stems of
        # a near length are compared.
        return any(0.6 * max(size, count) <= min(size, count) and len(wanted & grams) >= 0.6 * len(wanted | grams)
                   for grams, count in self.trigrams)


def term_credit(term: str, found: TextTerms, root_credit: float, spelling_credit: float) -> float:
    """Credit in [0, 1] for finding analysed ``term`` among ``found``: 1.0 on its stem,
    ``root_credit`` on its root or its base after "un", ``spelling_credit`` on its spelling."""
    if term in found.stems:
        return 1.0
    if len(term) >= ROOT_LENGTH and term[:ROOT_LENGTH] in found.roots:
        return root_credit
    if term.startswith("un") and len(term) > ROOT_LENGTH and term[2:] in found.stems:
        # "unhandled exceptions" are described as "propagated rather than handled": the
        # negated word's base is its topic, though not its meaning, so a root's credit.
        return root_credit
    return spelling_credit if found.spelled_like(term) else 0.0


@lru_cache(maxsize=65536)
def _trigrams(term: str) -> frozenset[str]:
    # A stem recurs in text after text: its trigrams are made once.
    padded = f"^{term}$"
    return frozenset(padded[i:i + 3] for i in range(len(padded) - 2))
