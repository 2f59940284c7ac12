"""Whether a sentence gives its value for the time, or of the subject, the question asks.

A sentence can give the asked attribute in the asked words and still answer another question:
"What was the occupancy in 2025?" is not answered by "Occupancy in 2024 was 68%", a sentence
that states its year and states another, nor by a yearless headline under "Annual Review
2024", nor "What output does the mill have with its new turbine?" by today's output, nor
"When will the chapel reopen?" by "The chapel is closed from 17 March 2025": a time to come
asked of an event is given by a sentence that names that event ("reopens on ..."), or for a
return to a state, the end of the state it leaves ("closed until ...").
:func:`period_problem` reads one sentence (a line, a table row) with its heading against the
years the question names; a sentence and heading that name no year are left to the other
checks.
"""

from __future__ import annotations

import re

from agentic_rag._answering.word_roots import same_root, stem_word
from agentic_rag._regex import lazy_regex

__all__ = ["period_problem", "years_in"]

# A year as a date or a season writes it: "2024", "31 December 2023", "2024/25", "2024-25".
_YEAR = lazy_regex(r"(?<![\w.,:/-])((?:19|20)\d\d)(?:\s*[/–-]\s*(\d\d(?:\d\d)?))?(?![\w.,:]\d|\w)")

_BRACKETED = lazy_regex(r"\([^()]*\)|\[[^\[\]]*\]")


def years_in(text: str) -> frozenset[str]:
    """The years ``text`` names, a season's both ("2024/25": 2024 and 2025)."""
    years: set[str] = set()
    for match in _YEAR.finditer(text):
        first, second = match.group(1), match.group(2)
        years.add(first)
        if second:
            years.add(second if len(second) == 4 else first[:2] + second)
    return frozenset(years)


# "What output does the plant have with its new turbine?" asks for the state after a change,
# which a value said to hold today ("its current output is 40 MW") is not.
_ASKS_CHANGED_STATE = lazy_regex(r"\b(?:with|after|once)\s+(?:its|the|their)\s+new\b", re.IGNORECASE)
_NOW = lazy_regex(r"\b(?:current|currently|today|at\s+present|presently)\b", re.IGNORECASE)


# Where the words said of one figure end: a clause's end, or "and"/"but" before another clause.
_FIGURE_END = lazy_regex(r"[;.!?]\s|[;!?]$|\.$|,?\s+(?:and|but|while|whereas)\s+(?=\D)", re.IGNORECASE)


def period_problem(question: str, piece: str, heading: str = "", filler: str = "") -> str:
    """``"another subject"`` when ``question`` names a year and ``piece`` names years, none of
    them the asked one: its value is another year's ("in 2024 was 68%" for 2025), or when it
    asks for the state after a change and ``piece`` gives today's; ``""`` otherwise. A piece
    that names no year of its own is dated by the innermost section of ``heading`` that
    names one ("Annual Review 2023 › Highlights", "2023 in figures"): a report's headline
    figures are that year's. ``"no value"`` when it asks when a thing is and ``piece`` names
    only the time the question already gives ("on Sunday" for "When is the Sunday set?"), or
    asks when an event will be and ``piece`` names no time, or a time of another event
    ("closed from 17 March" for when it reopens)."""
    if _ASKS_CHANGED_STATE.search(question) and _NOW.search(piece):
        return "another subject"  # the value before the change the question asks about
    if _repeats_time(question, piece):
        return "no value"
    if problem := _event_problem(question, piece):
        return problem
    asked = years_in(question)
    if not asked:
        return ""
    # A bracket compares or dates an aside ("Group revenue: £412m (2022: £371m)"): the
    # sentence's own year stands outside it.
    stated = years_in(_BRACKETED.sub(" ", piece)) or _heading_years(heading)
    if stated & asked and (own := _figure_years(piece, filler)):
        # "imported 260 tonnes in 2024 and expects 320 tonnes in 2025": the year said after
        # the figure, in its own clause, is the figure's.
        stated = own
    return "another subject" if stated and not stated & asked else ""


def _figure_years(piece: str, filler: str) -> frozenset[str]:
    """The years named after the figure ``filler`` in its own clause of ``piece`` (none for
    a filler that is no short figure, or that the piece does not hold)."""
    if not filler or len(filler) > 20 or not re.search(r"\d", filler) or years_in(filler):
        return frozenset()
    at = piece.find(filler)
    if at < 0:
        return frozenset()
    after = piece[at + len(filler):]
    end = _FIGURE_END.search(after)
    return years_in(_BRACKETED.sub(" ", after[:end.start()] if end else after))


def _heading_years(heading: str) -> frozenset[str]:
    """The years the innermost section of ``heading`` (a path "Report 2023 › Results") that
    names any names."""
    lines = [line for line in heading.split("\n") if line.strip()]
    for part in reversed(lines[-1].split("›") if lines else []):
        if years := years_in(part):
            return years
    return frozenset()


# "When is X's Sunday set?": a question asking when, that itself places the thing at a time.
_ASKS_WHEN = lazy_regex(r"^\W*(?:(?:so|and|but)\s+)?(?:when|what\s+time)\b", re.IGNORECASE)
# The words that place a thing in time: a day, a month, a part of the day, a clock time, a
# date, a year.
_TIME_WORD = lazy_regex(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(?:weekdays?|weekends?|today|tonight|tomorrow|yesterday|noon|midday|midnight)\b"
    r"|\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\b"
    r"|\b(?:morning|afternoon|evening|night)s?\b|(?<![\d.:])\d{1,2}[:.]\d{2}(?![\d:])|\b\d{1,2}\s*(?:a\.?m\.?|p\.?m\.?)(?!\w)"
    r"|\b\d{1,2}(?:st|nd|rd|th)?\b(?=\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))|(?<![\w.,])(?:19|20)\d\d(?![\w.,]\d)",
    re.IGNORECASE)


def _repeats_time(question: str, piece: str) -> bool:
    """True when ``question`` asks when a thing is and itself places it at a time ("When is
    Velvet Tide's Sunday set?") and ``piece`` names no time but those ("will play an acoustic
    set ... on Sunday"): it says the thing is then, not when. A question naming no time (a
    present "when" in documentation asks a condition) is left to the other checks."""
    if not _ASKS_WHEN.match(question):
        return False
    asked = {m.group().casefold().rstrip("s") for m in _TIME_WORD.finditer(question)}
    stated = {m.group().casefold().rstrip("s") for m in _TIME_WORD.finditer(piece)}
    return bool(asked) and bool(stated) and stated <= asked


# "When will the chapel at Ashcombe Road reopen?", "When will the feature be released?": a time
# to come asked of an event, named by the question's last word.
_ASKS_EVENT = lazy_regex(r"^\W*(?:(?:so|and|but)\s+)?when\s+will\s+[^?]*?\b([a-z][\w-]*)\W*$", re.IGNORECASE)
# The events that return a thing to a state: their time is the end of the state it leaves
# ("closed until 1 December").
_RETURNS = lazy_regex(r"^re[a-z]|^(?:resume|return|restart)", re.IGNORECASE)
_UNTIL = lazy_regex(r"\b(?:until|till|through)\b", re.IGNORECASE)


def _event_problem(question: str, piece: str) -> str:
    """``"no value"`` when ``question`` asks when an event will be and ``piece`` names no time;
    ``"another attribute"`` when it names one but not the event: no word of the event's root
    ("reopen", "reopening", "re-opens"), nor, for a return to a state, an "until" (its end)."""
    asked = _ASKS_EVENT.match(question)
    if asked is None:
        return ""
    if not _TIME_WORD.search(piece):
        return "no value"
    event = stem_word(asked.group(1).casefold().replace("-", ""))
    if any(same_root(stem_word(w.casefold().replace("-", "")), event) for w in re.findall(r"[\w'’-]+", piece)):
        return ""
    return "" if _RETURNS.match(asked.group(1)) and _UNTIL.search(piece) else "another attribute"
