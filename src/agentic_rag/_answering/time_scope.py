"""Whether a sentence gives its value for the time, or of the subject, the question asks.

A sentence can give the asked attribute in the asked words and still answer another question:
"What was the occupancy in 2025?" is not answered by "Occupancy in 2024 was 68%", a sentence
that states its year and states another. :func:`period_problem` reads one sentence (a line, a
table row) against the years the question names; a sentence that names no year is left to
the other checks (its heading or its passage may date it).
"""

from __future__ import annotations

import re

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


def period_problem(question: str, piece: str) -> str:
    """``"another subject"`` when ``question`` names a year and ``piece`` names years, none of
    them the asked one: its value is another year's ("in 2024 was 68%" for 2025); ``""``
    otherwise."""
    asked = years_in(question)
    if not asked:
        return ""
    # A bracket compares or dates an aside ("Group revenue: £412m (2022: £371m)"): the
    # sentence's own year stands outside it.
    stated = years_in(_BRACKETED.sub(" ", piece))
    return "another subject" if stated and not stated & asked else ""
