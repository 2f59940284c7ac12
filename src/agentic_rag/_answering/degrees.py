"""Whether a sentence says how much of a quality the asked thing has, there.

"How hard is the tap water in Felbury?" asks a degree of one quality (hardness) of a thing in
one place. The slot readers see an open question, which a sentence may answer in any words;
but a sentence that never says the quality ("Dunmarsh Water Authority supplies ... Felbury")
says nothing of how hard the water is, and one that says it of another place (a hardness
row under "Water quality report — Felbridge supply zone") says nothing of Felbury's.
:func:`degree_problem` reads one sentence, with its heading and what its paragraph says
before it.
"""

from __future__ import annotations

import re

from agentic_rag._regex import lazy_regex
from agentic_rag._text.porter import PorterStemmer

__all__ = ["degree_problem"]

_STEMMER = PorterStemmer()
# "How hard is ...", "How safe are ...": "how", an adjective, then a form of "be". The
# amounts ("how many", "how long", "how old") are the number slot's to read, and "how do I"
# or "how to" asks a way, not a degree.
_DEGREE = lazy_regex(
    r"^\W*(?:(?:so|and|but)\s+)?how\s+(?!(?:many|much|long|old|often|big|large|small|heavy|fast|far|tall|high|deep|wide|do|does|did|can|could|"
    r"should|would|will|to|come|is|are|was|were)\b)([a-z]{3,})\s+(?:is|are|was|were)\b",
    re.IGNORECASE,
)
# The place a question asks about: "in Felbury", "at Orlen Bay" (capitalised words after the
# preposition).
_PLACE = lazy_regex(r"\b(?:in|at)\s+((?:[A-Z][\w'’-]+)(?:\s+[A-Z][\w'’-]+){0,2})")


def degree_problem(question: str, context: str, piece: str) -> str:
    """Why ``piece`` does not say how much of the asked quality the asked thing has.

    Args:
        question: The asked clause of one question part.
        context: The piece's heading path and what its paragraph or list says before it.
        piece: A sentence, a line, or a table row with its header row.

    Returns:
        ``""`` for a question that asks no degree ("how hard is ..."), or a piece that
        answers it; ``"another attribute"`` when the piece never names the quality (the
        adjective or a word of its root: "hard", "hardness"); ``"another subject"`` when the
        question names a place ("in Felbury") that neither the piece nor its heading names.
    """
    asked = _DEGREE.match(question)
    if not asked:
        return ""
    quality = _stem(asked.group(1))
    # A word of the quality's root names it: "hardness" for "hard", "safety" for "safe".
    if not any(word.casefold().startswith(quality) or _stem(word) == quality for word in re.findall(r"[\w'’-]+", piece)):
        return "another attribute"
    text = f"{context}\n{piece}".casefold()
    for place in _PLACE.findall(question):
        if not re.search(rf"(?<!\w){re.escape(place.casefold())}(?!\w)", text):
            return "another subject"  # a figure for another town is no figure for this one
    return ""


def _stem(word: str) -> str:
    return _STEMMER.stem(word.casefold().strip("'’"))

