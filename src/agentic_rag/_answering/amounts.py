"""Whether the number a sentence gives is the amount a question asks.

A sentence can hold a number and the asked words and still count something else: a default
that is no number for "by default, how many ..." ("report_role | replica"), the number of
another thing ("number of write-ahead log segments kept for replicas; default 256" for how
many replicas), the time to reach the state the question puts its subject in ("charges
fully in 5 hours" for how long a fully charged pump runs), or a time of day ("opens at 04:30"
for how long before departure desks close). The statement checks
(:mod:`agentic_rag._answering.attributes`) call these on the sentence holding the value.
"""

from __future__ import annotations

import re

from agentic_rag._answering.word_roots import same_root as _same, stem_word as _stem
from agentic_rag._text.answer_slots import AnswerSlot, SlotKind, read_slot, slot_filler
from agentic_rag._text.asked_attribute import synonyms, words_of
from agentic_rag._text.asked_values import asks_number, counted_noun, measured_only
from agentic_rag._regex import lazy_regex

__all__ = ["clock_as_amount", "count_as_measure", "counts_a_time", "counts_another", "default_not_a_number", "gives_money", "measures_condition", "money_for_measure", "not_money", "table_cells"]


def table_cells(piece: str) -> list[tuple[str, str]] | None:
    """A table row under its header row as (header, cell) pairs, ``None`` for any other piece.
    A header one cell short that opens with its bar ("| Elementary | Middle" over
    "Lunch | 11:30 | 11:50") has lost its empty corner cell, over the rows' labels: its
    names head the value columns."""
    lines = piece.split("\n")
    if len(lines) != 2 or not all("|" in line for line in lines):
        return None
    header, row = ([c.strip() for c in line.strip().strip("|").split("|")] for line in lines)
    if len(header) + 1 == len(row) and lines[0].lstrip().startswith("|") and not lines[1].lstrip().startswith("|"):
        header = ["", *header]
    return list(zip(header, row)) if len(header) == len(row) else None


def default_not_a_number(question: str, clause: str, piece: str, kind: SlotKind) -> str:
    """A default asked as a number ("By default, how many replicas can attach?") is not given
    by a default that is no number (a Default cell "replica", "defaults to the primary's")."""
    if kind is not SlotKind.DEFAULT or not asks_number(question):
        return ""
    cells = table_cells(piece)
    value = " ".join(c for h, c in cells if re.search(r"\bdefault", h, re.IGNORECASE)) if cells else clause
    number = AnswerSlot(SlotKind.NUMBER, read_slot(question).numbers)
    # A digit anywhere counts ("5s", "256KiB" are numbers with their units).
    return "" if re.search(r"\d", value or clause) or slot_filler(number, value or clause) else "no value"


def counts_another(question: str, piece: str) -> str:
    """"How many replicas" is not answered by a sentence about the number of something else
    ("number of write-ahead log segments kept for replicas ...; default 256"): a number of
    things the sentence names is a count of those things."""
    noun = counted_noun(question)
    counts = re.findall(r"\b(?:number|count|amount)\s+of\s+((?:[\w'’-]+\s+){0,3}[\w'’-]+)", piece, re.IGNORECASE)
    if not noun or not counts:
        return ""
    wanted = {_stem(w) for w in (noun, *synonyms(noun))}
    return "" if any(_same(_stem(w), s) for c in counts for w in words_of(c) for s in wanted) else "another attribute"


# "How many hours does a fully charged P3 run?": the words describing the subject, between the
# auxiliary and its name, of which a participle ("charged") is a state the subject is in.
_DESCRIBED = lazy_regex(r"\b(?:does|do|did|is|are|was|were|can|will|would)\s+((?:(?-i:[a-z])[\w-]*\s+)+)(?-i:[A-Z])", re.IGNORECASE)
_BEFORE_VALUE = frozenset("in to for of after within about around up approximately roughly only just fully completely".split())


def measures_condition(question: str, clause: str, filler: str) -> str:
    """An amount asked of a subject in a state ("How many hours does a fully charged P3 run on
    battery?") is not the amount of reaching that state ("... a battery that charges fully
    in 5 hours"): the value's own verb is the question's participle."""
    described = _DESCRIBED.search(question)
    at = clause.find(filler) if filler else -1
    if not described or at < 0 or read_slot(question).kind is not SlotKind.NUMBER:
        return ""
    states = {_stem(w) for w in words_of(described.group(1)) if w.endswith("ed") and len(w) > 4}
    before = [w for w in words_of(clause[:at])[-4:] if w not in _BEFORE_VALUE and not w.endswith("ly")]
    return "another attribute" if states and before and _stem(before[-1]) in states else ""


def count_as_measure(question: str, clause: str) -> str:
    """``"another attribute"`` when ``question`` counts things ("the highest number of
    retries") and ``clause`` only measures ("the maximum accepted is 120 seconds", said of
    the option beside it): a count of retries is no number of seconds. A count of a unit
    ("how many seconds", "how many days") is a measure itself."""
    noun = counted_noun(question)
    if not noun or re.fullmatch(_UNIT_WORDS, noun, re.IGNORECASE):
        return ""
    return "another attribute" if measured_only(clause) else ""


# The nouns of a span of time a number may count ("one pay period", "two weeks").
_TIME_NOUNS = frozenset(
    "period periods day days week weeks fortnight fortnights month months quarter quarters year years hour hours minute minutes "
    "second seconds night nights season seasons decade decades cycle cycles".split()
)
# The words right after a number, up to a mark or a word that opens a phrase: the thing it counts.
_AFTER_NUMBER = lazy_regex(r"\s*([\w'’-]+(?:\s+[\w'’-]+){0,2})")
_PHRASE_OPENS = frozenset("for of in on at to by from with after before during and or but that which who per each every a an the".split())


def counts_a_time(question: str, clause: str, filler: str) -> str:
    """``"another attribute"`` when ``question`` counts things ("how many employees") and the
    number ``filler`` in ``clause`` counts spans of time ("paying employees for one pay
    period", "two weeks"), or is a share ("dried to 12% moisture"), a time of day ("closes
    at 18:30"), a release ("in 1.1 it affected everyone") or a "one" that picks a member ("when
    any one of them detects smoke"): a count of people is no number of periods, no percentage,
    no hour, no version and no pick."""
    noun = counted_noun(question)
    # The number as a word of its own ("one", not the "one" of "phone").
    at = re.search(rf"(?<![\w.]){re.escape(filler)}(?!\w)", clause) if filler else None
    if not noun or at is None or re.fullmatch(_UNIT_WORDS, noun, re.IGNORECASE):
        return ""
    if _SHARE_OR_HOUR.match(clause, at.end()) and not _SHARE_NOUN.fullmatch(noun) or re.search(r"\d[:.]$", clause[:at.start()]):
        return "another attribute"
    # "when any one of them detects smoke": "one" picks a member of a group, counting nothing.
    if filler.casefold() == "one" and (_PICKS_ONE.search(clause[:at.start()]) or re.match(r"\s+of\b", clause[at.end():])):
        return "another attribute"
    # "(in 1.1 it affected everyone)": a dotted number after "in" or "version" names a release
    # or an edition, which counts no cards.
    if "." in filler and _NAMES_RELEASE.search(clause[:at.start()]) and not _MAGNITUDE.match(clause, at.end()):
        return "another attribute"
    after = _AFTER_NUMBER.match(clause, at.end())
    words: list[str] = []
    for word in words_of(after.group(1)) if after else ():
        if word in _PHRASE_OPENS:
            break
        words.append(word)
    wanted = {_stem(w) for w in (noun, *synonyms(noun))}
    if any(_same(_stem(w), s) for w in words for s in wanted):
        return ""
    return "another attribute" if any(w in _TIME_NOUNS for w in words) else ""


# A question that asks a time of day in a number's words: "what time", "how late", "how early".
_ASKS_CLOCK_WORDS = lazy_regex(r"\b(?:what|which)\s+time\b|\b(?:late|later|latest|early|earlier|earliest|clock)\b", re.IGNORECASE)


def clock_as_amount(question: str, clause: str, filler: str) -> str:
    """``"another attribute"`` when ``question`` asks a number that is no time of day ("how
    long before departure ...", "the size of the harvest") and ``filler`` is part of one in
    ``clause`` ("opens at 04:30 every day": its "30" counts no minutes; "Harvest Experience
    | 09:30" sizes no harvest): a time of day is neither a span nor an amount."""
    at = re.search(rf"(?<![\w.]){re.escape(filler)}(?!\w)", clause) if filler else None
    if at is None or read_slot(question).kind is not SlotKind.NUMBER or _ASKS_CLOCK_WORDS.search(question):
        return ""
    if _ASKS_PRICE.search(question) and _MONEY.search(clause):
        return ""  # "from 04:00 to 20:00 at £6.50 per person": the first number read is an hour, the price is there
    clock = re.search(r"\d:$", clause[:at.start()]) or re.match(r":\d\d(?!\d)", clause[at.end():]) or ":" in filler
    return "another attribute" if clock else ""


# The words before a number that make it a release or an edition: "in 1.1", "since v2.3".
_NAMES_RELEASE = lazy_regex(r"\b(?:in|since|from|until|before|after|version|release|edition|rules|v)\s*$", re.IGNORECASE)
# The words before a "one" that picks one thing rather than counting: "any one", "the one".
_PICKS_ONE = lazy_regex(r"\b(?:any|each|every|no|which|the|this|that|another)\s*$", re.IGNORECASE)
# A word that scales a number: "1.2 million members" is a count.
_MAGNITUDE = lazy_regex(r"\s*(?:thousand|million|billion|trillion|[kmb]n?)\b", re.IGNORECASE)
# What makes a number a share or a time of day, not a count: "12%", "40 per cent", "18:30".
_SHARE_OR_HOUR = lazy_regex(r"\s*(?:%|per\s*cent\b|percent\b)|[:.]\d\d(?!\d)", re.IGNORECASE)
_SHARE_NOUN = lazy_regex(r"per\s*cent|percent|percentage\s+points?|points?", re.IGNORECASE)


# The counted nouns that are units themselves: "how many seconds", "how many gigabytes".
_UNIT_WORDS = (r"(?:milli|micro|nano|kilo|mega|giga|tera)?(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|decades?|"
               r"bytes?|bits?|[kmgt]i?b|km|kg|met(?:re|er)s?|miles?|feet|inch(?:es)?|grams?|tonnes?|tons?|pounds?|ounces?|litres?|liters?|degrees?)")


# "How much is an adult ticket?", "How much does the Pro plan cost?": a price asked. The
# noun after "how much is/are" names a thing bought ("a ticket", "the fee"), or the verb is
# one of paying.
_ASKS_PRICE = lazy_regex(
    r"\bhow\s+much\s+(?:(?:is|are|was|were|does|do|did|will|would)\s+(?:(?:an?|the|my|our|one|each)\s+)?(?:[\w-]+\s+){0,5}?"
    r"(?:tickets?|fares?|fees?|prices?|costs?|charges?|subscriptions?|memberships?|pass(?:es)?|rent|fines?|plans?|licen[cs]es?|tuition|admission|entry)\b"
    r"|(?:[\w-]+\s+){0,9}?(?:cost|costs|charge|charges|charged|pay|paid)\b"
    # "How much did the district spend on transport?": a sum spent (not "how much time").
    r"|(?!time\b)(?:[\w-]+\s+){0,9}?(?:spend|spends|spent)\b)",
    re.IGNORECASE,
)
# "What budget has the council set ...?", "What fee does ... charge?": a sum asked by its noun.
_ASKS_SUM = lazy_regex(r"^\W*(?:what|which)\s+(?:is\s+the\s+|was\s+the\s+)?(?:budget|fee|fare|price|cost|charge|rent|salary|wage|deposit)s?\b(?!\s+(?:band|tier|plan|list|range|structure|category|categories|code|policy)\b)", re.IGNORECASE)
# A sum of money: a currency sign or code by a number, a currency word after one, or "free".
_MONEY = lazy_regex(
    r"[£$€¥₹]\s*\d|\d\s*(?:[£$€¥₹]|(?:usd|eur|gbp|chf|jpy|cad|aud)\b)|\b(?:usd|eur|gbp|chf|jpy|cad|aud)\s*\d|"
    r"\d\s*(?:dollars?|euros?|pounds?|pence|p\b|cents?|yen|francs?|crowns?|kronor|krona|kroner|marks?|shillings?|rupees?)\b|\bfree\b|\bno\s+charge\b",
    re.IGNORECASE,
)


def gives_money(text: str) -> bool:
    """True when ``text`` states a sum of money ("£9", "12 crowns", "free of charge")."""
    return bool(_MONEY.search(text))


def not_money(question: str, clause: str) -> str:
    """``"no value"`` when ``question`` asks a price ("How much is an adult single ticket?",
    "What budget has the council set ...?") and ``clause`` gives no sum of money: "two singles", "three vessels" are counts, not
    prices."""
    if _ASKS_PRICE.search(question) or _ASKS_SUM.match(question):
        return "" if _MONEY.search(clause) else "no value"
    return money_for_measure(question, clause)


def money_for_measure(question: str, clause: str) -> str:
    """``"no value"`` when ``question`` asks a physical measure by its name ("What range do
    you get on the Commuter Plus?") and every figure of ``clause`` is a sum of money (a plan's
    prices, "Commuter Plus | ... | £62 | £79 | £0"); ``""`` otherwise, and for a question that
    asks a price ("What price range ...?")."""
    if _ASKS_MEASURE.search(question) and not _MONEY_WORD.search(question):
        # A table row's own line: its header row names the columns ("Per month, 12-month term").
        figures = _FIGURE.findall(clause.strip().split("\n")[-1])
        if figures and all(re.match(r"[£$€¥₹]", f) for f in figures):
            return "no value"
    return ""


# A physical measure a question asks for by its name.
_ASKS_MEASURE = lazy_regex(r"\b(?:what|which|how\s+much)\s+(?:[\w'’-]+\s+){0,2}?(?:range|distance|weight|height|length|width|depth|thickness|capacity|speed|"
                           r"temperature|volume|abv|strength|load)\b", re.IGNORECASE)
_MONEY_WORD = lazy_regex(r"\b(?:cost\w*|price\w*|charge\w*|fees?|pay\w*|spend\w*|budget\w*|sum|money)\b|[£$€¥₹]", re.IGNORECASE)
# A figure standing alone (a model code's digit, "C2", is none), with its currency sign.
_FIGURE = lazy_regex(r"(?<![\w.,])[£$€¥₹]?\s*\d[\d,.]*")
