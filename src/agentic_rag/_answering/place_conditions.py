"""Whether a sentence gives its value for another place than the asked one.

"How many batteries did Hearthcell's Tarnock plant produce in 2024?" meets "Hearthcell
assembles all of its batteries today at its Pellbridge site, which ... made 9,300 batteries
in 2024": the figure is another named site's, though the document is about Tarnock and its
heading lends the name. "How much does delivery outside the ring road cost?" meets "We
deliver within the ring road for £6.50": the price is for the complement of the asked area.
:func:`place_problem` reads one sentence or line against the asked clause of one question part.
"""

from __future__ import annotations

import re

from agentic_rag._regex import lazy_regex

__all__ = ["place_problem"]

# The nouns a named site of one body goes by: "the Tarnock plant", "its Pellbridge site".
_SITE_NOUNS = r"(?:plant|site|factory|works|mill|depot|warehouse|branch|store|shop|campus|office|yard|brewery|facility|centre|center)s?"
# A named site: one to three capitalised words right before a site noun.
_NAMED_SITE = lazy_regex(rf"\b((?:[A-Z][\w'’-]*\s+){{1,3}}?){_SITE_NOUNS}\b")
# A word a sentence starts with or a body's possessive: no site's name.
_NOT_A_NAME = frozenset("the a an its their our this that each every new old main".split())
# An area named by its edge, and the side asked: "outside the ring road", "within the M25".
_SIDE = lazy_regex(r"\b(outside|beyond|within|inside)\s+(?:of\s+)?(?:the\s+)?([\w'’-]+)", re.IGNORECASE)
_OUTER = frozenset({"outside", "beyond"})


def place_problem(question: str, piece: str) -> str:
    """``"another subject"`` when ``piece`` names another site of the asked kind than the
    one ``question`` names and not the asked one ("its Pellbridge site" for the Tarnock
    plant), or gives its value for the other side of the area the question asks about
    ("within the ring road" for delivery outside it) and never names the asked side;
    ``""`` otherwise.

    Args:
        question: The asked clause of one question part.
        piece: A sentence, a line or a table row with its header.
    """
    asked = _sites(question)
    if asked:
        named = _sites(piece)
        if named and not named & asked and not any(re.search(rf"\b{re.escape(name)}\b", piece, re.IGNORECASE) for name in asked):
            return "another subject"
    for side, area in ((m.group(1).casefold(), m.group(2).casefold()) for m in _SIDE.finditer(question)):
        sides = [(m.group(1).casefold(), m.group(2).casefold()) for m in _SIDE.finditer(piece)]
        # The asked side named anywhere ("and outside the bypass for £9") may carry the value.
        if any(a == area for _, a in sides) and not any((s in _OUTER) == (side in _OUTER) for s, _ in sides):
            return "another subject"
    return ""


def _sites(text: str) -> set[str]:
    """The names of the sites ``text`` names before a site noun, case-folded."""
    out: set[str] = set()
    for match in _NAMED_SITE.finditer(text):
        words = [w for w in match.group(1).split() if w.casefold() not in _NOT_A_NAME]
        # A possessive names the body, not the site: "Corvane Glass's Ardley works" is the
        # Ardley site, as "its Ardley works" is.
        owner = max((i for i, w in enumerate(words) if re.search(r"['’]s?$", w)), default=-1)
        words = words[owner + 1:]
        if words:
            out.add(" ".join(words).casefold())
    return out
