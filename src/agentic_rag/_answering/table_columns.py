"""Whether a table row gives a value in the column the question asks about.

A table row holds several values, each in its column: "artifacts.expire_in | 30 days | — |
..." under "Key | Default | Maximum | Description" gives a default of 30 days and no maximum,
and "Adult single | £7.80 | seasonal*" under "Ticket | Inchmurran | Kilvane" gives a fare to
Inchmurran and none to Kilvane. A column the question names (by an asked bound, "the maximum
value", by a name it states, "to Kilvane", with the header's plain words, "on the Carrick Isle
route", or by the header's word in any case, "child" for "Child (6-15)") is the asked one: a value in another column
answers another question, and the asked column's own cell ("—", "seasonal", "on request", or
words with no number for a number asked: "Through the Hub" beside "up to 24 alarms") gives no
value. :func:`column_problem` reads one row under its header.
"""

from __future__ import annotations

import re

from agentic_rag._answering.amounts import table_cells
from agentic_rag._regex import lazy_regex
from agentic_rag._text.answer_slots import SlotKind, read_slot, slot_filler
from agentic_rag._text.asked_attribute import Aspect, asked_aspects, aspects_in

__all__ = ["column_problem", "empty_default"]

_BOUNDS = frozenset({Aspect.MAXIMUM, Aspect.MINIMUM})
# A cell that stands in for a value it does not give: a dash, "none", "n/a", a value fixed
# elsewhere or later ("seasonal", "on request", "varies", "TBA", "see below"), with a
# footnote mark ("seasonal*", "on request†").
_NO_VALUE = lazy_regex(
    r"^\s*\(?(?:[—–-]+|none|n/?a|unset|seasonal|on\s+request|upon\s+request|varies|variable|tb[acd]|"
    r"to\s+be\s+(?:announced|confirmed|decided)|see\s+(?:below|above|notes?)|ask|call|price\s+on\s+application|poa|)\)?\s*[*†‡¹²³]*\.?\s*$",
    re.IGNORECASE,
)
# A Default cell that gives no default: a dash, "none", "n/a", "(required)", "see below".
_NO_DEFAULT = lazy_regex(r"^\s*(?:[—–-]+|\(?none\)?|n/?a|\(?required\)?|unset|see\s+below\.?|)\s*$", re.IGNORECASE)
# A name as a question writes it: a capitalised word that does not open the question.
_NAME = lazy_regex(r"(?<=\s)[A-Z][\w'’-]+")
_QUALIFIER = lazy_regex(r"\([^)]*\)")


def column_problem(question: str, piece: str) -> str:
    """``"no value"`` when ``piece``, a table row under its header row, leaves every column
    ``question`` asks about without a value ("—", "seasonal*"), or without the number or
    version it asks for (a cell of words, "Through the Hub"), whatever the other columns
    give; ``""`` otherwise, and for a piece that is no table row or a question that names
    none of its columns.

    Args:
        question: The asked clause of one question part.
        piece: A sentence, a line, or a table row with its header row.
    """
    cells = table_cells(piece)
    if not cells or len(cells) < 3:
        return ""  # a key-value row ("Founded | 1987"): its one value is the row's
    asked = _asked_columns(question, [header for header, _ in cells[1:]])
    if not asked:
        return ""
    values = [cells[1 + index][1] for index in asked]
    if all(_NO_VALUE.match(value) for value in values):
        return "no value"
    # "Interlink | Through the Emberwatch Hub (sold separately) | Wireless, up to 24 alarms"
    # under "| EW-210 | EW-460": the asked model's cell says how, with no number; the number
    # stands in the other model's cell and is that model's.
    slot = read_slot(question)
    if slot.kind in (SlotKind.NUMBER, SlotKind.VERSION) and not any(slot_filler(slot, value) for value in values):
        return "no value"
    return ""


def _asked_columns(question: str, headers: list[str]) -> list[int]:
    """The indexes (among the value columns) of the headers ``question`` names: a bound it
    asks for ("Maximum" for "the maximum value"), a name it states ("Kilvane" for "from
    Port Askel to Kilvane"), or the header's words in any case, the brackets' aside ("Child
    (6-15)" for "child pass price")."""
    bounds = asked_aspects(question) & _BOUNDS
    names = {m.group().casefold() for m in _NAME.finditer(question)}
    said = {w.casefold() for w in re.findall(r"[\w'’-]+", question)}
    out = []
    for index, header in enumerate(headers):
        words = re.findall(r"[\w'’-]+", header)
        if not words:
            continue
        # "Child (6-15)": what the brackets add qualifies the column; its name is "Child",
        # which a question may write in lower case ("child half-day pass price").
        named = re.findall(r"[\w'’-]+", _QUALIFIER.sub(" ", header))
        if bounds and aspects_in(header) & bounds:
            out.append(index)
        elif all(w[0].isupper() and w.casefold() in names for w in words):
            out.append(index)
        elif _names_with_words(words, names, said):
            out.append(index)
        elif named and all(w[0].isupper() and not w.isupper() and w.casefold() in said for w in named):
            out.append(index)
    return out


def _names_with_words(words: list[str], names: set[str], said: set[str]) -> bool:
    """A header of names and plain words ("Carrick Isle route"), each name one the question
    states and each plain word one it says ("on the Carrick Isle route")."""
    caps = [w for w in words if w[0].isupper()]
    return bool(caps) and all(w.casefold() in names for w in caps) and all(w.casefold() in said for w in words)


def empty_default(question: str, piece: str, kind: SlotKind) -> str:
    """``"denied"`` when a table row's Default cell gives no value ("idle_timeout | — | See
    below") for a question asking a default, whatever its header says; a yes/no question
    ("does it have a default?") is answered by it."""
    if kind is not SlotKind.DEFAULT or re.match(r"^\s*(?:is|are|does|do|has|have|can)\b", question, re.IGNORECASE):
        return ""
    defaults = [c for h, c in table_cells(piece) or () if re.search(r"\bdefault", h, re.IGNORECASE)]
    return "denied" if defaults and all(_NO_DEFAULT.match(c) for c in defaults) else ""
