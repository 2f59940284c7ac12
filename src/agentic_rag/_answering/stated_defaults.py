"""Whether a sentence states the default a question asks for, not only that there is one.

"What is the default X?" is filled, as :func:`~agentic_rag._text.answer_slots.slot_filler`
reads it, by any sentence that says "default": "The default suggested cache size can be altered
using the SQLITE_DEFAULT_CACHE_SIZE compile-time option" says so, and gives no size. Two
readings keep such a sentence from answering:

* a default asked of an amount ("the default page cache size", "the default timeout") is a
  number, or a word that stands for one ("unlimited", ``None``): a sentence without one
  states no such default (``cache_size = pages`` is a template, not a value);
* a sentence that says only how the default can be changed ("can be altered using ...",
  "may be overridden by ...") and holds no literal value (a number, a quoted string, ``True``,
  ``False``, ``None``) tells how to change it, not what it is.
"""

from __future__ import annotations

import re

from agentic_rag._regex import lazy_regex
from agentic_rag._text.answer_slots import AnswerSlot, slot_filler

__all__ = ["default_filler"]

# The nouns of an amount: a default of one is a number.
_AMOUNT_NOUNS = (
    r"size|length|timeout|limit|count|number|port|width|height|depth|interval|delay|duration|capacity|threshold|maximum|minimum|"
    r"max|min|age|lifetime|expiry|retries|attempts|seconds|minutes|hours|days|bytes|pages|percentage|ratio"
)
# "the default page cache size", "default request timeout": the noun closing the phrase after
# "default" (a few words at most).
_DEFAULT_AMOUNT = lazy_regex(rf"\bdefault\s+(?:[\w-]+\s+){{0,4}}?(?:{_AMOUNT_NOUNS})\b(?!\s+(?:of|for)\b)", re.IGNORECASE)
_NUMBER_VALUE = lazy_regex(
    r"(?<![\w.])[-+]?\d+(?:[.,]\d+)*|\b(?:zero|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|hundred|thousand|none|null|unlimited|infinite|"
    r"no\s+limit|disabled|off)\b",
    re.IGNORECASE,
)
# "The default ... can be altered using ...": how to change the default.
_CHANGED_BY = lazy_regex(
    r"\bdefault\b[^.;:]*?\b(?:can|may|could|might|should)\s+(?:\w+\s+)?be\s+(?:altered|changed|overridden|modified|customi[sz]ed|configured|adjusted|"
    r"set|raised|lowered|increased|decreased|replaced)\b",
    re.IGNORECASE,
)
_LITERAL = lazy_regex(r"\d|[\"'`‘“]|\b(?:True|False|None|true|false|null)\b")


def default_filler(slot: AnswerSlot, asked: str, text: str) -> str:
    """What in ``text`` states the default ``asked`` asks for, ``""`` when nothing does.

    Args:
        slot: What ``asked`` asks for (its kind is :attr:`SlotKind.DEFAULT`).
        asked: The asked clause of one question part.
        text: A sentence, a line or a table row of a claim.

    Returns:
        The filler :func:`~agentic_rag._text.answer_slots.slot_filler` finds, unless the
        question asks an amount and ``text`` holds no number, or ``text`` only says how the
        default is changed and holds no literal value.
    """
    filler = slot_filler(slot, text)
    if not filler:
        return ""
    if _DEFAULT_AMOUNT.search(asked) and not any(
            m.group().lstrip("+-").casefold() not in slot.numbers for m in _NUMBER_VALUE.finditer(text)):
        return ""
    if _CHANGED_BY.search(text) and not _LITERAL.search(text):
        return ""
    return filler
