"""Readings of open questions and keyword queries that a sentence on the topic may still miss.

"What do you get with the Flex Pass?" is not answered by the pass's price row; "How does the
early bird discount work?" is not answered by "discounts are sometimes offered", nor any
question by "Members asked about the grace period" (a reported question); a keyword
query "Firstleaf wholesale price per kg" wants a price as "What is ... price?" does; a
sentence about the Duo S says nothing of the Duo X, a quill-hub table nothing of quill-agent,
and "The crossing from Wendle to Carrick Isle takes 55 minutes" nothing of the crossing to
Holm. :func:`open_problem` reads one piece.
"""

from __future__ import annotations

import re

from agentic_rag._regex import lazy_regex

__all__ = ["asks_of_item", "is_keyword_query", "names_someone", "open_problem", "sibling_name", "table_cells"]

# "What do you get with ...", "What does ... include / come with / cover?"
_ASKS_CONTENTS = lazy_regex(
    r"^\W*what\s+(?:do|does|can)\s+(?:you|i|we|one|members?|holders?|customers?)\s+get\b"
    r"|^\W*what\s+(?:is|are)\s+included\b|^\W*what\s+(?:does|do)\b[^?]*?\b(?:include|come\s+with|cover)\b",
    re.IGNORECASE,
)
_ASKS_PRICE = lazy_regex(r"\b(?:price\w*|cost\w*|fees?|fares?|charges?|rates?|pay|much)\b", re.IGNORECASE)
_MONEY_CELL = lazy_regex(r"^\s*(?:[£$€¥]\s*\d[\d,.]*|\d[\d,.]*\s*(?:[£$€¥]|eur|usd|gbp))(?:\s*/\s*\w+|\s+(?:per|a|an)\s+\w+)?\s*$", re.IGNORECASE)
# "How does ... work?": a way something works, which a sentence saying only that it is
# offered now and then does not give.
_ASKS_HOW_WORKS = lazy_regex(r"^\W*how\s+(?:does|do|did|will)\b[^?]*?\bwork\b", re.IGNORECASE)
_ONLY_OFFERED = lazy_regex(
    r"\b(?:is|are)\s+(?:sometimes\s+|occasionally\s+|often\s+|also\s+|now\s+and\s+then\s+)?(?:offered|available|provided|run)\b", re.IGNORECASE)
_HOW_IT_GOES = lazy_regex(r"\d|\b(?:if|when|once|by|after|before|until|within|provided\s+that)\b", re.IGNORECASE)
# A sentence that reports a question or a concern about the topic, and states nothing of it:
# "Members asked about the grace period for late instalments", "Customers have raised
# concerns about the fee".
_REPORTS_ASKING = lazy_regex(
    r"^\W*(?:[\w'’-]+\s+){0,4}?(?:(?:have|has|had|often|sometimes|frequently|also|repeatedly)\s+)*"
    r"(?:asked|ask|asks|enquired|inquired|enquire|inquire|queried|wondered|wanted\s+to\s+know|"
    r"raised\s+(?:(?:a|the|some)\s+)?(?:questions?|quer(?:y|ies)|concerns?))\s+"
    r"(?:about|regarding|over|on|whether|how|if|why|what|when)\b",
    re.IGNORECASE,
)
# What makes such a sentence state something after all: a number, or a clause of its own.
_STATES_MORE = lazy_regex(r"\d|[;:]|,\s*(?:which|and|but|so)\b|\b(?:which|that)\s+(?:is|are|was|were|lasts?|runs?|gives?)\b", re.IGNORECASE)
# A keyword query: no question word, no auxiliary first, no question mark.
_QUESTION_START = lazy_regex(
    r"^\W*(?:what|which|who|whom|whose|where|when|why|how|is|are|was|were|do|does|did|can|could|should|would|will|has|have|had|may|must|tell|list|show|give|explain|describe|find)\b",
    re.IGNORECASE,
)
_PRICE_WORD = lazy_regex(r"\b(?:price|prices|cost|costs|fee|fees|fare|fares|rate|rates|charge|charges)\b", re.IGNORECASE)
_AMOUNT = lazy_regex(r"[£$€¥]|\d|\b(?:free|included|nothing|no\s+charge)\b", re.IGNORECASE)
# "What does the X cost?", "How much does the X cost?": a price asked in open words.
_ASKS_COST = lazy_regex(
    r"^\W*(?:what|how\s+much)\s+(?:does|do|did|will|would)\b[^?]*?\bcost\b"
    # "What is the weekly service charge at Harrow Rise?": a price named, of a named item.
    r"|^\W*what\s+(?:is|are)\s+the\s+(?:[\w-]+\s+){0,2}?(?:price|cost|fee|fare|charge|rent)s?\s+(?:at|for|of|on)\s+(?-i:[A-Z])",
    re.IGNORECASE)
# A model's name: a capitalised word, then a short code ("Duo X", "Nomad XL", "Series 7").
_MODEL = lazy_regex(r"\b([A-Z][a-z]+)\s+([A-Z0-9][A-Z0-9-]{0,3})\b")


def asks_of_item(question: str) -> bool:
    """True when ``question`` asks what an item costs or gives in open words ("What does the
    day pass cost?", "What do you get with the day pass?") or its price in keywords ("child
    half-day pass price"): a table row answers it only under a label that names the item."""
    return bool(_ASKS_COST.match(question) or _ASKS_CONTENTS.match(question) or (is_keyword_query(question) and _PRICE_WORD.search(question)))


def is_keyword_query(question: str) -> bool:
    """True when ``question`` is written as search words ("Acme wholesale price per kg"), not a
    sentence that asks."""
    text = question.strip()
    return bool(text) and not text.endswith("?") and not _QUESTION_START.match(text) and len(text.split()) <= 12


def sibling_name(question: str, piece: str) -> str:
    """A model's name ``piece`` gives in place of the one ``question`` names ("Duo S" for the
    "Duo X"), ``""`` when it names the asked model or no sibling of it."""
    asked = {(m.group(1), m.group(2)) for m in _MODEL.finditer(question)}
    if not asked:
        return ""
    stated = [(m.group(1), m.group(2)) for m in _MODEL.finditer(piece)]
    if any(pair in asked for pair in stated):
        return ""
    families = {family for family, _ in asked}
    return next((f"{family} {code}" for family, code in stated if family in families), "")


# A compound name of two parts ("quill-agent", "quill-hub"): a family and a member.
_COMPOUND_NAME = lazy_regex(r"(?<![\w-])([A-Za-z][A-Za-z0-9]*)-([A-Za-z][A-Za-z0-9]*)(?![\w-])")
# An end of a journey: a name after "to" or "from" ("from Wendle to Carrick Isle").
_JOURNEY_END = lazy_regex(r"(?-i:\b(?:to|from)\s+)((?-i:[A-Z][\w'’-]*)(?:\s+(?-i:[A-Z][\w'’-]*))*)")
_CALENDAR = lazy_regex(
    r"^(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b")


def sibling_component(question: str, context: str) -> str:
    """A compound name ``context`` (a piece with its heading) gives in place of the one
    ``question`` names ("quill-hub" for "quill-agent": one family, another member), ``""``
    when it names the asked one (with or without its hyphen) or no sibling."""
    said = context.casefold()
    for match in _COMPOUND_NAME.finditer(question):
        family, member = match.group(1).casefold(), match.group(2).casefold()
        if re.search(rf"\b{re.escape(family)}[-\s]?{re.escape(member)}\b", said):
            continue
        other = next((m.group() for m in _COMPOUND_NAME.finditer(context) if m.group(1).casefold() == family and m.group(2).casefold() != member), "")
        if other:
            return other
    return ""


def other_destination(question: str, piece: str, heading: str) -> str:
    """The end of a journey ``piece`` names in place of the one ``question`` asks ("to Carrick
    Isle" for "from Wendle to Holm"), ``""`` when it names the asked ends or no other one."""
    asked = [m.group(1) for m in _JOURNEY_END.finditer(question) if not _CALENDAR.match(m.group(1))]
    if not asked:
        return ""
    context = f"{heading}\n{piece}"
    if all(re.search(rf"\b{re.escape(end)}\b", context) for end in asked):
        return ""
    return next((m.group(1) for m in _JOURNEY_END.finditer(piece) if not _CALENDAR.match(m.group(1)) and m.group(1) not in asked), "")


# "Who is the treasurer of the club?" asks for the person who holds a role, whom a sentence
# names ("Ann Blake was re-elected treasurer"); "the treasurer presented the accounts" names
# no one.
_ASKS_HOLDER = lazy_regex(r"^\W*who\s+(?:is|was|are|were)\s+(?:the|its|their)\s+[\w -]+?\s+(?:of|at|for|in)\s+\S", re.IGNORECASE)
_CAPITALISED = lazy_regex(r"(?<![\w'’-])(?-i:[A-Z][a-z][\w'’-]*)")
_OPENS_LABEL = lazy_regex(r"(?:^|[|:;.!?—–(\n])\W*$")


def names_someone(question: str, piece: str) -> bool:
    """True when ``piece`` holds a name ``question`` does not (a capitalised word inside a
    sentence, not a month's or a day's)."""
    asked = {w.casefold() for w in re.findall(r"[\w'’-]+", question)}
    return any(re.sub(r"['’]s?$", "", m.group()).casefold() not in asked and not _CALENDAR.match(m.group()) and not _OPENS_LABEL.search(piece[:m.start()])
               for m in _CAPITALISED.finditer(piece))


def table_cells(piece: str) -> list[tuple[str, str]] | None:
    """A table row under its header row as (header, cell) pairs, a row's missing last cells
    empty ("Flex Pass | £205 |" under "Ticket | Price | Notes"); ``None`` for any other piece."""
    lines = piece.strip().split("\n")
    if len(lines) != 2 or not all("|" in line for line in lines):
        return None
    header, row = ([c.strip() for c in re.sub(r"^\s*\||\|\s*$", "", line).split("|")] for line in lines)
    return list(zip(header, row + [""] * (len(header) - len(row)))) if len(row) <= len(header) else None


def open_problem(question: str, piece: str, heading: str = "") -> str:
    """Why ``piece`` (under ``heading``) does not answer ``question`` read as the open question
    or keyword query it is: ``"another subject"`` (a sibling model or component, another end
    of a journey), ``"another attribute"`` (only a price for what comes with a thing), ``"no
    value"`` (no amount for a price asked in keywords, only availability for how a thing
    works, only a report that people asked about it, no one named for who holds a role);
    ``""`` otherwise."""
    if sibling_name(question, piece) or sibling_component(question, f"{heading}\n{piece}") or other_destination(question, piece, heading):
        return "another subject"
    if _ASKS_HOLDER.match(question) and not names_someone(question, piece):
        return "no value"
    if _REPORTS_ASKING.match(piece) and not _STATES_MORE.search(piece):
        return "no value"  # a reported question asks; it states nothing of what it asks about
    if _ASKS_CONTENTS.match(question) and not _ASKS_PRICE.search(question):
        cells = table_cells(piece)
        values = [c for _, c in cells[1:] if c.strip()] if cells else []
        if cells and values and all(_MONEY_CELL.match(c) for c in values):
            return "another attribute"
    if _ASKS_HOW_WORKS.match(question) and _ONLY_OFFERED.search(piece) and not _HOW_IT_GOES.search(piece):
        return "no value"
    if (is_keyword_query(question) and _PRICE_WORD.search(question)) or _ASKS_COST.match(question):
        cells = table_cells(piece)
        text = " ".join(c for _, c in cells[1:]) if cells else piece
        if not _AMOUNT.search(text):
            return "no value"
    return ""
