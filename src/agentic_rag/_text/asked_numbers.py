"""Whether a question asks for a number or a version, and what counts as one in an answer.

A question that wants a number ("how many", "which port", "since when") is answered only by a
unit holding one; a question for a version ("which release") only by a dotted version, not an
issue number. A version a unit gives of another stage ("Removed: the flag (deprecated since
4.0)" for the release that removed it) or inside a path ("/v4/reverse") is none it states
(:func:`stated_numbers`): the answer is its section's version heading.
"""

from __future__ import annotations

import re

from agentic_rag._regex import LazyRegex, lazy_regex

__all__ = ["answer_numbers", "stated_numbers", "wants_number"]

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
# A "v4" inside a path ("/v4/reverse") names a route, not a version.
_VERSION = lazy_regex(r"(?<!\d)\d+(?:\.\d+)+|\b(?:version|release)\s+\d+\b|(?<![\w./])v\d+\b(?!/)", re.IGNORECASE)
_STAGES = ("added", "introduced", "deprecated", "removed", "dropped", "renamed", "changed", "fixed")
# A life-cycle stage and the version it names just after it ("deprecated since 4.0").
_STAGE_BEFORE = lazy_regex(
    r"\b(added|introduced|deprecated|removed|dropped|renamed|changed|fixed)\s+(?:since|in|from|as\s+of|with)\s+(?:version\s+|release\s+)?$",
    re.IGNORECASE)


def wants_number(question: str) -> bool:
    """True when ``question`` asks for a number or a version."""
    return bool(_WANTS_NUMBER.search(question))


def answer_numbers(question: str) -> LazyRegex:
    """What counts as the number ``question`` asks for: a dotted version for "which
    version/release", any number otherwise."""
    return _VERSION if _WANTS_VERSION.search(question) else _NUMBER


def stated_numbers(question: str, text: str) -> set[str]:
    """The numbers (for a version question, the versions) ``text`` states as what
    ``question`` asks: a version named right after a life-cycle stage the question does not
    ask ("deprecated since 4.0" for "which release removed ...") is that stage's, not the
    asked one's."""
    pattern = answer_numbers(question)
    if pattern is _NUMBER:
        return set(pattern.findall(text))
    asked = [w for w in re.findall(r"[a-z]+", question.casefold()) if len(w) >= 3]
    if not any(_same_stage(s, w) for s in _STAGES for w in asked):
        return set(pattern.findall(text))  # "going away": no stage word to tell another from
    out = set()
    for match in pattern.finditer(text):
        stage = _STAGE_BEFORE.search(text[max(0, match.start() - 40):match.start()])
        if stage is None or any(_same_stage(stage.group(1).casefold(), w) for w in asked):
            out.add(match.group())
    return out


def _same_stage(stage: str, word: str) -> bool:
    """One stage word in two forms ("removed", "remove"; "dropped", "drop")."""
    n = min(5, len(stage), len(word))
    return stage[:n] == word[:n]
