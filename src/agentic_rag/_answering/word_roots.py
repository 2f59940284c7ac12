"""A word's stem, and whether two stems share a root: how the subject checks match a
question's words in a sentence ("booking" and "booked", "withdrawal" and "withdrawn").

One copy for every reading of :mod:`agentic_rag._answering`: Porter stems, compared whole or
on their first :data:`~agentic_rag._text.term_match.ROOT_LENGTH` letters.
"""

from __future__ import annotations

from collections.abc import Collection

from agentic_rag._text.porter import PorterStemmer
from agentic_rag._text.term_match import ROOT_LENGTH

__all__ = ["same_root", "shares_root", "stem_word"]

_STEMMER = PorterStemmer()


def stem_word(word: str) -> str:
    """The Porter stem of ``word``, case-folded, without the quotes around it."""
    return _STEMMER.stem(word.casefold().strip("'’"))


def same_root(a: str, b: str) -> bool:
    """One stem, or one root of five letters ("booking", "booked")."""
    return a == b or (len(a) >= ROOT_LENGTH and len(b) >= ROOT_LENGTH and a[:ROOT_LENGTH] == b[:ROOT_LENGTH])


def shares_root(term: str, asked: Collection[str]) -> bool:
    """``term`` is one of ``asked`` or shares a root of five letters with one ("withdrawal",
    "withdrawn")."""
    return term in asked or (len(term) >= ROOT_LENGTH and any(same_root(term, a) for a in asked))
