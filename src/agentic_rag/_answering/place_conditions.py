"""Whether a sentence gives its value for another place, or another case, than the asked one.

"How many batteries did Hearthcell's Tarnock plant produce in 2024?" meets "Hearthcell
assembles all of its batteries today at its Pellbridge site, which ... made 9,300 batteries
in 2024": the figure is another named site's, though the document is about Tarnock and its
heading lends the name. "How much does delivery outside the ring road cost?" meets "We
deliver within the ring road for £6.50": the price is for the complement of the asked area.
"In a two-player game, how many cards does each player start with?" meets "In a 3-, 4- or
5-player game each player starts with 5 cards" or "In a solo game you start with 6 cards": the
sentence names the cases it covers, counted by the noun the question counts, and the asked
count is not among them.
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
_NUMBER_WORDS = {w: n for n, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
_COUNT = r"(?:\d{1,3}|" + "|".join(_NUMBER_WORDS) + r")"
# A case counted by a noun, as a compound or a plain count: "two-player", "4-person", "a game
# for 3 players".
_COUNTED_CASE = lazy_regex(rf"\b({_COUNT})(?:-|\s+)([a-z]+?)s?\b(?:\s+([a-z]+))?", re.IGNORECASE)
# A case of one said in a word before the thing it qualifies: "a solo game", "a single game".
_CASE_OF_ONE = lazy_regex(r"\b(?:solo|single|solitaire)\s+([a-z]+)", re.IGNORECASE)
# The counts a sentence lists before the noun: "3-, 4- or 5-player", "3–5 players", "2 or 3
# people"; the run ends at the noun.
_LISTED_COUNTS = lazy_regex(
    rf"\b({_COUNT}(?:\s*[-–]?\s*(?:,|or|and|to|[-–])\s*{_COUNT})*)\s*[-–]?\s*(?:-|\s)?([a-z]+?)s?\b", re.IGNORECASE)


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
    return "another subject" if _another_count(question, piece) else ""


def _another_count(question: str, piece: str) -> bool:
    """``question`` asks about a case counted by a noun ("a two-player game", two or more) and ``piece``
    gives its value for listed counts of that noun which leave the asked one out ("In a 3-, 4-
    or 5-player game", or "a solo game" for the thing the count qualifies); a range ("3–5
    players") covers the counts between its ends."""
    for match in _COUNTED_CASE.finditer(question):
        asked, noun = _number(match.group(1)), match.group(2).casefold()
        if asked < 2:
            continue  # "one-way", "one-off", "one-time" are idioms more often than counts
        listed: set[int] = set()
        for run in _LISTED_COUNTS.finditer(piece):
            if run.group(2).casefold() == noun:
                listed |= _counts(run.group(1))
        # "two-player game" against "a solo game": the thing the count qualifies, had alone.
        if match.group(3) and any(m.group(1).casefold() == match.group(3).casefold() for m in _CASE_OF_ONE.finditer(piece)):
            listed.add(1)
        if listed and asked not in listed:
            return True
    return False


def _number(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBER_WORDS[word.casefold()]


def _counts(run: str) -> set[int]:
    """The counts a run lists: each number, and every count between the ends of a range
    ("3–5", "3 to 5")."""
    numbers = [_number(n) for n in re.findall(_COUNT, run, re.IGNORECASE)]
    out = set(numbers)
    for low, high in re.findall(rf"({_COUNT})\s*(?:–|to|-(?!\s*,))\s*({_COUNT})", run, re.IGNORECASE):
        a, b = _number(low), _number(high)
        if a < b <= a + 50:
            out |= set(range(a, b + 1))
    return out


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
