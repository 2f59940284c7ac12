"""Whether a question asks for a number or a version, and what counts as one in an answer.

A question that wants a number ("how many", "which port", "since when") is answered only by a
unit holding one; a question for a version ("which release") only by a dotted version, not an
issue number.
"""

from __future__ import annotations

import re

from agentic_rag._regex import LazyRegex, lazy_regex

__all__ = ["answer_numbers", "wants_number"]

# Questions that want a number or a version: the answering unit must hold a digit.
_WANTS_NUMBER = lazy_regex(
    r"\b(?:which|what)\s+(?:[\w-]+\s+){0,3}?(?:version|release|port|year|number|percentage)s?\b|\bhow\s+(?:many|much|long|old|often)\b|\bsince\s+when\b"
    # "When was legacy_auth deprecated?" asks for the release (a changelog's version heading).
    r"|\bwhen\s+(?:was|were|did)\b.*\b(?:added|introduced|removed|dropped|deprecated|renamed)\b",
    re.IGNORECASE,
)
_NUMBER = lazy_regex(
    r"\d+(?:[.,]\d+)*|\b(?:zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|"
    r"thirty|forty|fifty|hundred|thousand|million|once|twice|thrice)\b",
    re.IGNORECASE,
)
# A version asked for is dotted ("24.3.0"); an issue number ("#1340", "5623") is no answer.
_WANTS_VERSION = lazy_regex(r"\b(?:version|release)s?\b|\bsince\s+when\b", re.IGNORECASE)
# It starts where a run of digits starts (a match inside the run extends back to its start):
# tried from every digit of a long number with no dot, ``\d+`` ran to its end each time.
# A major version named as one ("version 9", "v4") is a version too.
_VERSION = lazy_regex(r"(?<!\d)\d+(?:\.\d+)+|\b(?:version|release)\s+\d+\b|(?<![\w.])v\d+\b", re.IGNORECASE)


def wants_number(question: str) -> bool:
    """True when ``question`` asks for a number or a version."""
    return bool(_WANTS_NUMBER.search(question))


def answer_numbers(question: str) -> LazyRegex:
    """What counts as the number ``question`` asks for: a dotted version for "which
    version/release", any number otherwise."""
    return _VERSION if _WANTS_VERSION.search(question) else _NUMBER
