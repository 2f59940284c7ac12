"""Whether the evidence an answer cites says that the asked value is not given.

"On what date was Key cover withdrawn?" meets a list item "no longer sold to new customers
from 1 January 2025. ... No withdrawal date has been set.": the date beside it is another
event's, and the item itself says the asked one does not exist yet. So do "no public price
has been set" beside the clubs' price, "the criteria ... are not set out in this glossary"
beside another body's definition, "its own definition, which is displayed at reception",
"Tariffs ... will be published once the building is handed over", "the new amount will be
set at the June meeting", "publishes its own peak-date calendar ... on the booking page", "the
amount is stated in your policy schedule", and a table row whose cell says "Not yet
reported", "To be set by the committee" or "Launch date TBC", "The decision was deferred to the committee meeting in May" (for
the date a proposed fee applies), "the final ABV will only be known when we measure it". A
document that says it does not state the thing outranks any sibling line
that seems to: the answer stays short of ``answered``.

:func:`withholds` reads one sentence or table row (with the claim it stands in) against one
question part.
"""

from __future__ import annotations

import re

from agentic_rag._answering.amounts import table_cells
from agentic_rag._answering.unoffered import definition_denied, own_definition_untold, withdrawn_offer
from agentic_rag._answering.word_roots import shares_root as _shared
from agentic_rag._regex import lazy_regex
from agentic_rag._text.relevance import RelevanceModel

__all__ = ["withholds"]

_SETTLED = r"(?:set|fixed|agreed|announced|published|decided|confirmed|determined|reported|disclosed|released|made\s+public|finali[sz]ed)"
# A sentence that says the value is not given: none has been settled ("No withdrawal date has
# been set"), it is not settled or not set out here ("are not set out in this glossary", "a
# separate document that is not included here"), it will be given later ("will be published
# once the contractor hands over"), or it is given in a document the reader holds and the
# collection does not ("the amount is stated in your policy schedule", "its own definition,
# which is displayed at reception").
_WITHHOLDS = lazy_regex(
    rf"\bno\s+(?:[\w-]+\s+){{0,3}}?(?:has|have)\s+(?:yet\s+)?been\s+{_SETTLED}\b"
    rf"|\b(?:has|have|is|are|was|were)\s+not\s+(?:yet\s+)?(?:been\s+)?(?:{_SETTLED}|set\s+out|stated|given|included|listed|specified)\b"
    rf"|\b(?:has|have)\s+(?:yet\s+)?to\s+be\s+{_SETTLED}\b|\bnot\s+yet\s+{_SETTLED}\b"
    # Known only later: "the final ABV will only be known when we measure it at packaging".
    rf"|\bwill\s+(?:only\s+)?be\s+(?:{_SETTLED}|known)\s+(?:only\s+)?(?:once|when|after|later|in\s+due\s+course|nearer\s+the\s+time|shortly)\b"
    # A decision put off: "The decision was deferred to the committee meeting in May".
    r"|\bdecision\s+(?:[\w-]+\s+){0,3}?(?:was|has\s+been|is|were|have\s+been)\s+(?:deferred|postponed|adjourned|put\s+off|held\s+over)\b"
    r"|\bno\s+decision\s+(?:was|has\s+been|have\s+been)\s+(?:made|taken|reached)\b"
    # Settled at a later occasion: "The new amount will be set at the June meeting".
    rf"|\bwill\s+be\s+{_SETTLED}\s+(?:at|during)\s+(?:the|a|an|its|their|our|next)\s+(?:[\w-]+\s+){{0,2}}?(?:meeting|review|session|board|committee|hearing)s?\b"
    # Its own value kept where the reader looks it up: "publishes its own peak-date calendar
    # each January on the booking page".
    r"|\b(?:publish|post|show|display|issue)(?:es|s|ed)?\s+(?:its|their)\s+own\s+(?:[\w-]+\s+){1,4}?(?:on|in|at)\s+(?:the|its|their|our)\b"
    r"|\b(?:is|are)\s+(?:stated|given|shown|set\s+out|displayed|printed|specified)\s+(?:in|on|at)\s+(?:your|their|its\s+own)\b"
    r"|\b(?:which|that)\s+(?:is|are)\s+(?:displayed|posted|shown|available)\s+(?:at|on)\s+(?:the\s+)?(?:reception|request|site|desk|door|noticeboard)\b",
    re.IGNORECASE,
)
# A table cell that stands where the value would and says it is not given: "Not yet reported",
# "To be set by the marina committee", "TBC"; a few words may first name the value it stands
# for ("Launch date TBC", "Price to be confirmed").
_WITHHELD_CELL = lazy_regex(
    rf"^\W*(?:[A-Za-z]+\s+){{0,3}}?(?:not\s+(?:yet\s+)?{_SETTLED}|(?:to|yet\s+to)\s+be\s+{_SETTLED}|tb[acd])\b",
    re.IGNORECASE,
)
# A question about the publication or the setting itself, or a yes/no question: such a
# sentence answers it ("Has a withdrawal date been set?", "When will the tariffs be published?").
_ASKS_STATUS = lazy_regex(
    r"^\W*(?:(?:is|are|was|were|has|have|had|does|do|did|can|could|will|would|should)\b|when\s+will\b)"
    r"|\b(?:publish\w*|announc\w*|disclos\w*|report\w*|confirm\w*|decid\w*|agree\w*|set\s+out|stated|TB[ACD])\b",
    re.IGNORECASE,
)
_WORD = lazy_regex(r"[\w'’-]+")
# The words that stand for the asked value itself in such a sentence ("the amount is stated
# in your policy schedule"): no other word of the question need be there.
_VALUE_NOUNS = frozenset("amount amounts figure figures value values price prices cost costs rate rates fee fees charge charges tariff tariffs "
                         "date dates details criteria definition terms".split())


# A decision put off withholds what the proposal before it would set: the question names that
# proposal's own figure or calls its value new ("From what date does the new £15 fee apply?"),
# not the value that stays ("What is the annual fee?" is answered by "the fee stays at £12").
_DEFERRED_DECISION = lazy_regex(r"\bdecision\b", re.IGNORECASE)
_ASKS_NEW = lazy_regex(r"\b(?:new|proposed|planned|raised|increased|higher|lower|reduced)\b", re.IGNORECASE)
_FIGURE = lazy_regex(r"[£$€]?\d[\d,.]*%?")


def withholds(question: str, heading: str, lead: str, piece: str, model: RelevanceModel) -> bool:
    """True when ``piece`` (a sentence or a table row with its header, under ``heading``) says
    that what ``question`` asks is not given: not set, not set out here, still to be
    published, or stated in a document the reader holds. The piece must
    share a word with the question (or name the value by a word like "amount", "price",
    "definition"), and the piece, with its heading and what its paragraph or list item says
    before it, must hold every name the question states: a sibling's row still to be set
    ("Harrow Rise | to be set after consultation" for Gorse Court) withholds nothing.

    Args:
        question: The asked clause of one question part.
        heading: The heading path of the claim's passage.
        lead: What the piece's paragraph or list item says before it (``""`` for a table row:
            its own label names its entity).
        piece: One sentence, line or table row of the claim.
        model: The collection's relevance model.
    """
    if _ASKS_STATUS.search(question):
        return False
    cells = table_cells(piece)
    if cells is not None:
        if not any(_WITHHELD_CELL.match(c) and _cell_asked(question, header, cells, model) for header, c in cells[1:]):
            return False
    elif withdrawn_offer(question, lead, piece, model) or own_definition_untold(question, piece, model) or definition_denied(question, piece):
        return True
    elif not (match := _WITHHOLDS.search(piece)):
        return False
    elif _DEFERRED_DECISION.search(match.group()) and not _asks_proposal(question, lead, piece):
        return False
    if model.missing_named(question, f"{heading}\n{'' if cells is not None else lead}\n{piece}"):
        return False
    # The question's names say whose value it is, which the names check reads: the piece must
    # share one of its other words, the words of what is asked ("withdrawal" of "withdrawn").
    # An acronym of a measure ("ABV", "IBU") says what is asked, not whose it is.
    names = {t for w in _NAME.findall(question[1:]) if not _ACRONYM.fullmatch(w) for t in model.analyzer.analyze(w)}
    values = {t for w in _VALUE_NOUNS for t in model.analyzer.analyze(w)}
    asked = {t for t in model.analyzer.analyze(question) if t not in names and t not in values}
    if any(_shared(term, asked) for term in model.analyzer.analyze(piece) if term not in names):
        return True
    # Else a word for the value alone ("the amount is stated in your policy schedule"), not
    # another value's ("No withdrawal date has been set" says nothing of the date sales ended).
    return any(not before or before in _DETERMINERS for before, _ in _value_nouns(piece))


_DETERMINERS = frozenset("the a an its their this that these those our your his her no own".split())
# A word written as a name (a capital inside the sentence, a digit): "Saltgate Marina", "T-400".
_NAME = lazy_regex(r"\b(?:[A-Z][\w'’-]*|[\w-]*\d[\w-]*)")
_ACRONYM = lazy_regex(r"[A-Z]{2,4}")


def _asks_proposal(question: str, lead: str, piece: str) -> bool:
    """The question asks what a proposal would set: it calls the value new, or names a figure
    that the text before the decision gives and the decision's sentence does not."""
    if _ASKS_NEW.search(question):
        return True
    return any(f in lead and f not in piece for f in _FIGURE.findall(question))


def _value_nouns(piece: str) -> list[tuple[str, str]]:
    """The words naming a value in ``piece``, each with the word before it (``""`` first)."""
    words = [w.casefold() for w in _WORD.findall(piece)]
    return [(words[i - 1] if i else "", w) for i, w in enumerate(words) if w in _VALUE_NOUNS]


# A column of a plan, not of what happened: "Budget", "Forecast 2026", "Target".
_PLAN_COLUMN = lazy_regex(r"\b(?:budget\w*|forecast\w*|targets?|estimated?|estimates|planned|projected|projections?)\b", re.IGNORECASE)
# A cell that gives a value: a figure, an amount ("£2.4 million", "35%", "€40").
_VALUE_CELL = lazy_regex(r"^\W*(?:[£$€¥]\s*)?\d")


def _cell_asked(question: str, header: str, cells: list[tuple[str, str]], model: RelevanceModel) -> bool:
    """The withheld cell stands for what is asked: its column shares a word with the
    question ("Per metre" of "per metre, what does ... charge"), or no other column of the
    row gives a figure but a plan's ("Budget | £2.4 million" beside "Actual spend | Not yet
    reported"). A price grid's "TBD" under the child column withholds nothing of the adult
    price beside it."""
    asked = set(model.analyzer.analyze(question))
    if any(_shared(t, asked) for t in model.analyzer.analyze(header)):
        return True
    return not any(_VALUE_CELL.match(c) and not _PLAN_COLUMN.search(h) for h, c in cells[1:] if h != header)
