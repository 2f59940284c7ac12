"""Whether a sentence gives one member's value or a total over several.

"How many members has the Northgate club signed up?" meets "11,600 members across both
clubs": the figure sums the clubs the line before names, and says nothing of one club,
whatever the heading lends it. Only a count is summed so: "£5 across all stores" is one price
that holds at each store. A question that asks a total itself ("across all its clubs", "in
total", "combined") is answered by one. :func:`sums_several` reads one piece against the
question.
"""

from __future__ import annotations

import re

from agentic_rag._regex import lazy_regex
from agentic_rag._text.asked_values import counted_noun

__all__ = ["sums_several"]

# The words that put several members of a kind under one figure: "both", "all", "the two",
# "each of the three", with a possessive or an article between ("all our clubs").
_SEVERAL = (r"(?:both|all(?:\s+(?:two|three|four|five|six|\d+))?|the\s+(?:two|three|four|five|six|\d+)|"
            r"each\s+of\s+(?:the\s+)?(?:two|three|four|five|six|\d+))\s+(?:(?:the|our|its|their|of\s+(?:the|our|its|their))\s+)?(?:[\w-]+\s+)?")
_OVER = r"\b(?:across|between|over|for|in|at)\s+"
# A question that asks a total itself.
_ASKS_TOTAL = lazy_regex(r"\b(?:both|all|total|totals|combined|altogether|together|across|overall|sum|each|every)\b", re.IGNORECASE)
# A singular noun of the question, after an article, a name or a possessive: "the Northgate club".
_NOUN = lazy_regex(r"(?<![\w'’-])([a-z][a-z-]{2,})(?![\w'’-])")


def sums_several(question: str, piece: str) -> str:
    """``"another subject"`` when ``question`` counts things ("how many members") and
    ``piece`` gives its count over several members of a kind the question names one of ("11,600 members across both clubs" for the Northgate club's
    members), ``""`` otherwise and when the question asks a total."""
    if not counted_noun(question) or _ASKS_TOTAL.search(question):
        return ""
    for noun in dict.fromkeys(_NOUN.findall(question)):
        if noun.endswith("s"):
            continue  # the question names several itself ("the clubs")
        plural = rf"{re.escape(noun)}(?:s|es)"
        if re.search(rf"{_OVER}{_SEVERAL}{plural}\b", piece, re.IGNORECASE):
            return "another subject"
    return ""
