"""Whether a sentence puts the asked value elsewhere instead of giving it.

"Which coolant does the K-40 use?" meets "Coolant type and volume are listed in the service
manual": the sentence names the asked attribute, under the asked model's heading, and says
only where its value is given. So do "Rental prices vary by season", "Charges are confirmed
at booking", "The fee is to be announced" and a settings row "server.quota_gb | depends on
licence | ..." (its key names the attribute, a value cell defers it). So does a sentence whose
only figure is an example ("The word limit is set by each tutor (for example, 3,000 words)").
An open question (one a sentence may answer in any words) is not answered by such a sentence:
it names the attribute but gives no value.
:func:`deferred_value` reads one sentence, a line or a table row. A sentence that only sends
the reader elsewhere ("For the meaning of parameters blockSize100k, verbosity and workFactor, see
BZ2_bzCompressInit.", "See the panels documentation page for more information.") gives no
value of its own either (:func:`points_elsewhere`).
"""

from __future__ import annotations

import re

from agentic_rag._answering.amounts import table_cells
from agentic_rag._regex import lazy_regex
from agentic_rag._text.answer_slots import SlotKind, read_slot, slot_filler
from agentic_rag._text.asked_attribute import read_attribute, synonyms
from agentic_rag._text.porter import PorterStemmer

__all__ = ["deferred_value", "points_elsewhere"]

_STEMMER = PorterStemmer()
# What a sentence says of a value it does not give: where it is given ("are listed in the
# manual", "is posted at the office"), that it varies or depends, that it is given on request
# or still to be fixed, or a pointer ("see the installation guide").
_DEFERS = lazy_regex(
    r"\b(?:is|are|was|were|will\s+be|can\s+be)\s+(?:\w+ly\s+)?(?:given|listed|shown|stated|documented|described|detailed|specified|published|posted|"
    r"printed|set\s+out|quoted|confirmed|agreed)\s+(?:in|on|at|upon|when|from|separately)\b|"
    # "Available in" gives the value as often ("colours are available in red and blue").
    r"\b(?:is|are)\s+(?:seasonal|(?:available\s+)?on\s+(?:request|application)|to\s+be\s+(?:announced|confirmed|decided|agreed))\b|"
    r"\bvar(?:y|ies|ying)\b|\bdepends?\s+on\b|\bsee\s+the\b|\brefer\s+to\b",
    re.IGNORECASE,
)
# A cell that gives its value by a rule, not a figure: "set by licence file", "per account".
_DEFERRED_CELL = lazy_regex(r"^\s*(?:set|fixed|determined|decided|given)\s+(?:by|in|per)\b", re.IGNORECASE)
# A word of a sentence (with its inner marks), and what ends the stretch a deferral may be said
# of the attribute in: the sentence's or clause's end.
_WORD = lazy_regex(r"[\w'’-]+")
_STRETCH_END = lazy_regex(r"[.;:!?|(\n]")
# The deferral must follow the attribute's word closely ("Coolant type and volume are
# listed"), not stand in a later clause about something else.
_MAX_WORDS_BETWEEN = 8
# An aside that gives a figure as an example: "(for example, 3,000 words)", "(e.g. 30 s)".
_EXAMPLE_ASIDE = lazy_regex(r"\(\s*(?:for\s+example|for\s+instance|e\.\s?g\.?|such\s+as|say)\b[^()]*\)", re.IGNORECASE)
_WINDOW_CHARS = 240


def deferred_value(question: str, piece: str) -> str:
    """``"no value"`` when ``piece`` names the attribute ``question`` asks ("coolant" of
    "Which coolant does the K-40 use?") only to say its value is given elsewhere, varies or is
    still to be fixed, and holds no number, and when a number asked for stands in ``piece``
    only as an example ("(for example, 3,000 words)"); ``""`` otherwise (a sentence that gives a value
    beside a pointer, "The coolant is propane; charge details are listed in the manual",
    answers).

    Args:
        question: The asked clause of one question part.
        piece: A sentence, a line, or a table row with its header row.
    """
    if read_slot(question).kind is SlotKind.NUMBER and re.search(r"\d", piece) and not re.search(r"\d", _EXAMPLE_ASIDE.sub(" ", piece)):
        return "no value"  # every figure of the sentence is an example's
    attribute = read_attribute(question)
    if attribute is None or not attribute.head or re.search(r"\d", piece):
        return ""
    heads = {_stem(w) for w in (attribute.head, *synonyms(attribute.head))}
    cells = table_cells(piece)
    if cells:
        # A row that names the attribute in its key ("server.quota_gb") and defers its value
        # in a value cell ("depends on licence"): the row's cells are apart, read each.
        label = cells[0][1]
        if any(_stem(p) in heads for w in _WORD.findall(label) for p in re.split(r"[._]", w) if p):
            return "no value" if any(_DEFERS.search(c) or _DEFERRED_CELL.match(c) for _, c in cells[1:]) else ""
    named = False
    for match in _WORD.finditer(piece):
        if _stem(match.group()) not in heads:
            continue
        named = True
        # A few words' worth of text after it, whatever follows: a long piece naming the
        # attribute often is not read to its end from each naming.
        window = piece[match.end():match.end() + _WINDOW_CHARS]
        end = _STRETCH_END.search(window)
        stretch = window[:end.start()] if end else window
        deferral = _DEFERS.search(stretch)
        if deferral is None or len(_WORD.findall(stretch[:deferral.start()])) > _MAX_WORDS_BETWEEN:
            return ""  # the attribute named, and its value not put elsewhere there
    return "no value" if named else ""


def _stem(word: str) -> str:
    return _STEMMER.stem(word.casefold().strip("'’"))


# A sentence whose main clause sends the reader elsewhere: "See X.", "For details on Y, see X.",
# "Refer to the manual", "Please consult X".
_POINTER = lazy_regex(r"^\W*(?:for\s+(?!example\b|instance\b)[^;:.]{1,160}?,\s*)?(?:please\s+)?(?:see|refer\s+to|consult)\s+(?!also\b)", re.IGNORECASE)


def points_elsewhere(question: str, piece: str) -> bool:
    """True when ``piece`` only points elsewhere ("For the meaning of parameters ..., see
    BZ2_bzCompressInit.", "See the panels documentation page for more information."): it gives
    no value of its own, unless ``question`` asks for a name and the pointer names one the
    question does not state (asked which function registers a handler, "see
    register_error_handler()" names it).

    Args:
        question: The asked clause of one question part.
        piece: A sentence, a line or a table row.
    """
    match = _POINTER.match(piece)
    if match is None:
        return False
    slot = read_slot(question)
    return not (slot.kind is SlotKind.NAME and slot_filler(slot, piece[match.end():]))
