"""Where a question term stands in a text: on its stem, its root, or its spelling.

A term matches a text's terms on its stem (full credit), on its first characters, a word root
("configur" for "configuration" and "configuring"), on its base after "un" ("unhandled" where a
text says "handled"), or on its spelling (character trigrams, for a misspelt or variant word),
with decreasing credit. :class:`~agentic_rag._text.relevance.RelevanceModel` weighs the terms.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING

from agentic_rag._regex import lazy_regex
from agentic_rag._text.long_runs import bounded_runs

if TYPE_CHECKING:
    from agentic_rag._text.analyzer import Analyzer

__all__ = ["CAMEL_STEP", "ROOT_LENGTH", "TextTerms", "read_text_terms", "term_credit"]

#: Characters of a stem that make its root.
ROOT_LENGTH = 5
_ROOT_OF = itemgetter(slice(0, ROOT_LENGTH))  # a stem's root, s[:ROOT_LENGTH], without a Python frame per stem
#: Where a camel-case name's words meet ("get|Logger").
CAMEL_STEP = lazy_regex(r"(?<=[a-z0-9])(?=[A-Z])")


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
        self.roots = frozenset(map(_ROOT_OF, stems))
        self.trigrams: frozenset[str] | None = None  # the stems compared by spelling (4 characters or more)
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
            self.trigrams = frozenset(s for s in self.stems if len(s) >= 4)
        return _SPELLINGS.any_alike(term, self.trigrams)


def read_text_terms(analyzer: Analyzer, text: str) -> TextTerms:
    """The terms of ``text`` as ``analyzer`` reads them, with the parts of its camel-case names
    ("getLogger" holds "logger"); a run of data thousands of characters long is read up to a
    bound (see :mod:`~agentic_rag._text.long_runs`): stemming and spelling each of its pieces,
    pass after pass, cost seconds.

    Args:
        analyzer: The collection's analyzer.
        text: Any text.
    """
    bounded = bounded_runs(text)
    tokens = analyzer.tokenize(bounded)
    ordered = tuple(analyzer.terms_of(tokens))
    stems = set(ordered)
    if CAMEL_STEP.search(bounded):
        # Only the tokens the split makes anew need stemming.
        parts = set(analyzer.tokenize(CAMEL_STEP.sub(" ", bounded))).difference(tokens)
        if parts:
            stems.update(analyzer.terms_of(sorted(parts)))
    return TextTerms(frozenset(stems), ordered)


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


def _alike(term: str, stem: str) -> bool:
    """Whether ``stem`` shares at least 0.6 of the union of its character trigrams with ``term``."""
    wanted, grams = _trigrams(term), _trigrams(stem)
    size, count = len(wanted), len(grams)
    # Sets whose sizes differ by more than that share cannot share it (the common part is no
    # larger than the smaller set, the union no smaller than the larger).
    return 0.6 * max(size, count) <= min(size, count) and len(wanted & grams) >= 0.6 * len(wanted | grams)


class _Spellings:
    """For the last few hundred question terms, the stems already compared with each, alike or
    not: one search compares its few terms with the same stems in text after text (a passage,
    then each of its statements), so each pair is compared once. Bounded: a term's record is
    dropped when it grows past :data:`_MOST_STEMS` stems, the oldest term past
    :data:`_MOST_TERMS` terms."""

    def __init__(self) -> None:
        self._seen: OrderedDict[str, tuple[set[str], set[str]]] = OrderedDict()
        self._lock = threading.Lock()  # the parallel workflow's branches share it

    def any_alike(self, term: str, stems: frozenset[str]) -> bool:
        """Whether any of ``stems`` is spelled like ``term`` (:func:`_alike`)."""
        with self._lock:
            record = self._seen.get(term)
            if record is None or len(record[0]) + len(record[1]) > _MOST_STEMS:
                record = self._seen[term] = (set(), set())
                if len(self._seen) > _MOST_TERMS:
                    self._seen.popitem(last=False)
            else:
                self._seen.move_to_end(term)
            alike, unlike = record
            if not alike.isdisjoint(stems):
                return True
            found = False
            for stem in stems - unlike:
                if _alike(term, stem):
                    alike.add(stem)
                    found = True
                else:
                    unlike.add(stem)
            return found


_MOST_TERMS = 512
_MOST_STEMS = 50_000
_SPELLINGS = _Spellings()


@lru_cache(maxsize=65536)
def _trigrams(term: str) -> frozenset[str]:
    # A stem recurs in text after text: its trigrams are made once.
    padded = f"^{term}$"
    return frozenset(padded[i:i + 3] for i in range(len(padded) - 2))
