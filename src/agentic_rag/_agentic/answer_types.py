"""What kind of answer a question asks for, and whether a passage offers one.

"When" wants a date, "how many" a number, "who" and "where" a name, "which"/"what" some
entity; a yes/no question wants no span at all. A fact counts as covered only when its
evidence holds a candidate of the asked type that the question does not already name, which
is what keeps "the passage mentions every word of the question" from passing for an answer.
"""

from __future__ import annotations

import enum
import re

__all__ = ["AnswerType", "answer_type", "offers_answer"]

_MONTHS = "january february march april may june july august september october november december"
_DATE = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})s?\b|\b(" + "|".join(_MONTHS.split()) + r")\b", re.IGNORECASE)
_NUMBER = re.compile(r"\b\d[\d,\.]*\b|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen)\b", re.IGNORECASE)


class AnswerType(str, enum.Enum):
    """The kind of answer a question asks for."""

    DATE = "date"
    NUMBER = "number"
    NAME = "name"
    ENTITY = "entity"
    YES_NO = "yes_no"
    UNKNOWN = "unknown"


_RULES: tuple[tuple[re.Pattern[str], AnswerType], ...] = (
    (re.compile(r"\b(when|what year|which year|what date|in what year|what decade|what century)\b", re.I), AnswerType.DATE),
    (re.compile(r"\b(how many|how much|how old|how long|how tall|how high|how far|what number|what percentage)\b", re.I), AnswerType.NUMBER),
    (re.compile(r"\b(who|whom|whose|where)\b", re.I), AnswerType.NAME),
    (re.compile(r"^\s*(is|are|was|were|do|does|did|can|could|has|have|had|will|would|should)\b", re.I), AnswerType.YES_NO),
    (re.compile(r"\b(what|which|name the)\b", re.I), AnswerType.ENTITY),
)


def answer_type(question: str) -> AnswerType:
    """Return the answer type ``question`` asks for (the first rule that matches).

    Args:
        question: A question or fact description.

    Returns:
        The answer type; UNKNOWN when no question word is found.
    """
    for pattern, kind in _RULES:
        if pattern.search(question):
            return kind
    return AnswerType.UNKNOWN


def offers_answer(kind: AnswerType, candidates: list[tuple[str, str]], text: str) -> bool:
    """True when the evidence offers an answer of ``kind``.

    Args:
        kind: The asked type.
        candidates: ``(entity, entity kind)`` pairs found in the evidence and not named by the
            question (bridge candidates).
        text: The evidence text, for dates and numbers written out in words.

    Returns:
        Whether a candidate of the asked type is present (always True for yes/no and
        unknown types, which ask for no span).
    """
    if kind in (AnswerType.YES_NO, AnswerType.UNKNOWN):
        return True
    if kind is AnswerType.DATE:
        return any(k == "number" and _DATE.fullmatch(e) for e, k in candidates) or bool(_DATE.search(text))
    if kind is AnswerType.NUMBER:
        return any(k == "number" for _, k in candidates) or bool(_NUMBER.search(text))
    if kind is AnswerType.NAME:
        return any(k in ("name", "quoted") for _, k in candidates)
    return bool(candidates)
