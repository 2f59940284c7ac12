"""What kind of value a question wants beyond its slot, and whether a text holds one.

:func:`~agentic_rag._text.answer_slots.read_slot` reads the slot a question asks to fill (a
version, a number, a default, a name, or something open). Some questions say more about the
value in their words: "When did the shared plans get HTTP/3?" wants a time, "What's the ticket
price?" a number though its slot is open, "By default, how many replicas ...?" a default that
is a number, of replicas. The readings here let the statement checks
(:mod:`agentic_rag._answering.attributes`) refuse a sentence that gives no such value.
"""

from __future__ import annotations

import re

from agentic_rag._text.answer_slots import _MEASURE_UNITS, _NAMED_VERSION, _NUMBER_Q, _YEAR, _versions
from agentic_rag._regex import lazy_regex

__all__ = ["asks_number", "asks_past_time", "counted_noun", "is_quantity", "measured_only", "stated_time"]

# The nouns that name an amount of money or of people, whose value is a number as well.
_AMOUNTS = frozenset("price prices cost costs fee fees fare fares population revenue salary budget capacity".split())


def is_quantity(noun: str) -> bool:
    """True for a noun whose value is a number ("price", "population", "weight", "timeout"):
    "What is the ticket price?" is not answered by "prices vary"."""
    folded = noun.casefold()
    return folded in _AMOUNTS or folded in _MEASURE_UNITS


# "When did the shared plans get HTTP/3?": a past time asked of a thing the fact patterns do
# not read (an object after the verb). Present "when does ..." asks for a condition. "On what
# date did ...", "In which year was ..." ask the same past time in other words.
_ASKS_PAST_TIME = lazy_regex(
    r"^\W*(?:(?:so|and|but)\s+)?(?:when|(?:on|in)\s+(?:what|which)\s+(?:date|day|year|month))\s+(?:did|was|were|had)\b", re.IGNORECASE)


def asks_past_time(question: str) -> bool:
    """True when ``question`` asks when something happened ("When did X get Y?"): only a
    sentence holding a time (a year, a date, a version) answers it."""
    return bool(_ASKS_PAST_TIME.match(question))


def stated_time(text: str) -> str:
    """The first time ``text`` states: a year or a date, else a version ("in 3.1"); ``""``
    for none ("HTTP/3 is not supported on shared plans" says no when)."""
    year = _YEAR.search(text)
    if year:
        return year.group()
    return next(_versions(text), "") or next((m.group() for m in _NAMED_VERSION.finditer(text)), "")


def asks_number(question: str) -> bool:
    """True when ``question`` asks for a number in its words ("how many", "what size"),
    whatever its slot: "By default, how many replicas ..." asks a default that is a number."""
    return bool(_NUMBER_Q.search(question))


_HOW_MANY = lazy_regex(r"\bhow\s+many\s+([a-z][\w-]*)|\b(?:number|count)\s+of\s+([a-z][\w-]*)", re.IGNORECASE)


def counted_noun(question: str) -> str:
    """The noun ``question`` counts ("replicas" of "how many replicas can attach", "retries"
    of "the highest number of retries"), ``""`` when it asks no count."""
    match = _HOW_MANY.search(question)
    return (match.group(1) or match.group(2)).casefold() if match else ""


# A number in a unit of a measure (time, size, length, mass): "120 seconds", "5 GB", "96
# lane metres", "40 square metres".
_MEASURED = lazy_regex(
    rf"(?<![\w.])\d+(?:[.,]\d+)*\s*(?:-\s*)?(?:(?:lane|square|sq|cubic|running|linear)\s+)?(?:{'|'.join(dict.fromkeys(_MEASURE_UNITS.values()))})(?![\w/])",
    re.IGNORECASE,
)
_DIGITS = lazy_regex(r"(?<![\w.])\d+(?:[.,]\d+)*")


def measured_only(text: str) -> bool:
    """True when ``text`` holds a number and every number it holds carries a unit of a
    measure ("The default is 20 seconds and the maximum is 120 seconds"): it counts no
    things, only measures."""
    numbers = len(_DIGITS.findall(text))
    return bool(numbers) and len(_MEASURED.findall(text)) >= numbers
