"""Whether a sentence gives a value that is, or an event that happened, rather than one aimed at.

"has set a goal of cutting energy use by 20%" holds a number and no achieved cut, and so do a
line under a goal's label ("Target: cut emissions by 50% by 2030") and a proposal ("proposed
raising the fare to €66"); "was due to open in summer 2024" holds a date and no opening, "the
board will review the policy" no rule in force; a table cell "TBD" stands where a price would,
and a row whose only column of the asked year is its budget ("2025–26 budget") gives no outcome.
:func:`unachieved_problem` reads one piece against the question.
"""

from __future__ import annotations

import re

from agentic_rag._answering.amounts import table_cells
from agentic_rag._regex import lazy_regex

__all__ = ["unachieved_problem"]

# A goal, a target or a pledge: the figure after it is aimed at, not reached.
_GOAL = lazy_regex(
    r"\b(?:(?:set|sets|setting|has|have|with)\s+(?:an?\s+|the\s+|its\s+|their\s+)?(?:\w+\s+)?(?:goal|target|aim|ambition|objective)\s+(?:of|to)"
    r"|(?:aims?|aiming|aimed|pledged?|pledges|pledging|commit(?:s|ted)?\s+to|intends?|hopes?|strives?)\s+to"
    r"|(?:goal|target|aim|ambition|objective)\s+(?:is|was)\s+to"
    r"|targets?\s+(?:of|a|an)\b"
    # A proposal is not yet decided: "proposed raising the day pass to €66".
    r"|propos(?:ed|es|ing)\s+(?:to\b|that\b|\w+ing\b)|\bproposals?\s+(?:to|of)\b"
    # A sum set aside, a figure a model or forecast gives, an amount expected: none is the
    # outcome ("approved a budget of £9,000", "modelled an average stay of 3 nights",
    # "expects to sell around 400 in 2026", "expects the club to reach 3,500 members").
    r"|\b(?:approved|agreed|allocated|set)\s+(?:a|an|the|its|their)\s+budget\s+of\b|\bbudgeted\s+(?:for\b|\S*\d)"
    r"|\b(?:modell?ed|forecast|projected|predicted)\s+(?:an?\s+|the\s+)?(?:\w+\s+){0,3}?(?:of\b|at\b|\S*\d)"
    r"|\bexpect(?:s|ing)?\s+(?:(?:it|them|him|her|the\s+[\w-]+|its\s+[\w-]+|their\s+[\w-]+)\s+)?to\b)",
    re.IGNORECASE,
)
# Someone's expectation of what a thing will do, its doer between the verb and "to" ("We
# expect Screen 5 to bring around 90,000 visits a year", "anticipates the bridge will carry"):
# a figure hoped for, not the outcome. A verb of state after "to" ("expects the header to be
# 16 bytes", "to hold at most 64 records") states what a program requires, not a hope.
_EXPECTED_OUTCOME = lazy_regex(
    r"\b(?:expect(?:s|ed|ing)?|anticipat(?:e|es|ed|ing))\s+(?:that\s+)?(?:[\w'’-]+\s+){1,4}?(?:to|will|would|should)\s+(?!(?:be|have|hold|contain|consist|match|return|accept|receive|use|include|follow|support|provide|point|keep|run)\b)",
    re.IGNORECASE)
# A cap a licence, a permit or a room sets: "the 2025 licence allows up to 22,000 people a day",
# "the hall can seat up to 400". How many may come, not how many came.
_PERMITTED_CAP = lazy_regex(
    r"\b(?:allows?|allowed|permits?|permitted|licen[cs]ed\s+for|can\s+(?:hold|take|seat|accommodate|admit))\s+(?:[\w-]+\s+){0,2}?up\s+to\b", re.IGNORECASE)
# A figure reached, asked in the past ("What was the attendance ...?", "How many came ...?"),
# and a question that asks a cap itself.
_ASKS_REACHED = lazy_regex(r"^\W*(?:what|how\s+(?:many|much))\b[^?]*?\b(?:was|were|did|had)\b", re.IGNORECASE)
_ASKS_CAP = lazy_regex(r"\b(?:max\w*|most|limit\w*|cap\w*|allow\w*|permit\w*|licen[cs]\w*|up\s+to|can|could|may)\b", re.IGNORECASE)
# A line filed under a goal's label: "- Target: cut emissions by 50% by 2030" (not a term
# defined: "Target: a storage location for ...").
_GOAL_LABEL = lazy_regex(
    r"^\W*(?:[-*+]\s+)?(?:\w+\s+)?(?:goals?|targets?|aims?|ambitions?|objectives?|pledges?|proposals?)\s*[:—–]\s+(?!(?:a|an|the|any|one)\s)",
    re.IGNORECASE)
# "budget", "modelled", "forecast", "projected": the question asks the planned figure itself. A
# product's "model" or a "project" as a noun asks no plan.
_ASKS_GOAL = lazy_regex(r"\b(?:goals?|targets?|budget\w*|modell?(?:ed|ing)|forecast\w*|project(?:ed|ions?)|predict\w*|expect\w*|aims?|aiming|ambitions?|objectives?|pledge\w*|plan\w*|propos\w*|intend\w*|hope\w*|will|going\s+to)\b", re.IGNORECASE)
# An event that was expected and has not happened: "was due to open", "has been postponed".
_NOT_HAPPENED = lazy_regex(
    r"\b(?:was|were|is|are)\s+(?:originally\s+|initially\s+)?(?:due|expected|scheduled|planned|supposed|meant|slated|set)\s+to\b"
    r"|\b(?:postponed|delayed|put\s+back|pushed\s+back|called\s+off|cancelled|canceled)\b",
    re.IGNORECASE,
)
# A rule still to be settled: "The board will review the policy before the share offer" says
# nothing of how the policy works now.
_UNDER_REVIEW = lazy_regex(
    r"\b(?:will|shall|(?:plans?|intends?|is\s+going|are\s+going)\s+to)\s+(?:review|reconsider|revisit|consider|discuss|decide\s+on)\s+"
    r"(?:(?:the|its|their|this|these|our)\s+)?(?:[\w-]+\s+)?(?:polic(?:y|ies)|rules?|terms|schemes?|fees?|prices?|pricing|charges?|arrangements?|limits?)\b"
    r"|\b(?:polic(?:y|ies)|rules?|terms|schemes?|fees?|prices?|pricing|charges?|limits?)\s+(?:is|are)\s+(?:under|being)\s+(?:review|reviewed|reconsidered)\b",
    re.IGNORECASE,
)
_ASKS_REVIEW = lazy_regex(r"\b(?:review\w*|reconsider\w*|revisit\w*|consider\w*|discuss\w*|decid\w*|will|plan\w*|change\w*)\b", re.IGNORECASE)
_ASKS_EXPECTED = lazy_regex(r"\b(?:due|expected|scheduled|planned|supposed|postponed|delayed|cancell?ed|originally)\b", re.IGNORECASE)
# A cell that stands where a value would: "TBD", "TBC", "POA", "n/a", "to be confirmed".
_PLACEHOLDER = lazy_regex(r"^\s*(?:tb[acd]|poa|n/?a|to\s+be\s+(?:confirmed|announced|decided|determined)|price\s+on\s+application)\.?\s*$", re.IGNORECASE)
# A row labelled as a plan's figures: "Occupancy 2025 (budget)", "Revenue forecast", "Target".
_PLAN_ROW = lazy_regex(r"\b(?:budget(?:ed)?|forecast|targets?|planned|projected|projections?)\b", re.IGNORECASE)
# A cell whose value is still to be fixed: "to be set after consultation", "to be agreed by the board".
_STILL_TO_SET = lazy_regex(r"^\s*(?:to\s+be|will\s+be|yet\s+to\s+be|not\s+yet)\s+(?:set|fixed|agreed|confirmed|announced|decided|determined|published)\b", re.IGNORECASE)
# A default cell that leaves the value to the user: "configurable; depends on disk size".
_NO_FIXED_DEFAULT = lazy_regex(r"^\s*(?:configurable|user-defined|depends\b|varies\b|set\s+by\b|see\b|(?:set\s+)?per\s+\w+\s*$)", re.IGNORECASE)
# A question that asks whether, or when, a value is known answers itself with "TBD".
_ASKS_STATUS = lazy_regex(r"^\W*(?:is|are|has|have|does|do|when)\b", re.IGNORECASE)


def unachieved_problem(question: str, clause: str, piece: str, filler: str = "") -> str:
    """``"unreal"`` when the value's ``clause`` is a goal, target, pledge or proposal (or
    ``piece`` a line under such a label), an event that was due and has not happened, or a
    rule still to be reviewed (for a question that asks about none of these), ``"no value"`` when ``piece`` is a table row whose
    cells give no value beside a placeholder ("TBD"); ``"unreal"`` or ``"denied"`` when
    ``filler`` names a column of the row ("Release 2.1") whose cell gives a status not
    reached ("in testing") or denied ("not supported"); ``""`` otherwise."""
    if problem := _column_status(question, piece, filler):
        return problem
    if (_GOAL.search(clause) or _GOAL_LABEL.match(piece)) and not _ASKS_GOAL.search(question):
        return "unreal"
    if _NOT_HAPPENED.search(clause) and not _ASKS_EXPECTED.search(question):
        return "unreal"
    if (hoped := _EXPECTED_OUTCOME.search(clause)) and re.search(r"\d", clause[hoped.end():]) and not _ASKS_GOAL.search(question):
        return "unreal"  # a figure expected; "expects the value to be a string" states a requirement
    if _PERMITTED_CAP.search(clause) and _ASKS_REACHED.match(question) and not _ASKS_CAP.search(question):
        return "unreal"  # "the licence allows up to 22,000 a day" is no attendance reached
    if _UNDER_REVIEW.search(clause) and not _ASKS_REVIEW.search(question):
        return "unreal"
    cells = table_cells(piece)
    if cells and _PLAN_ROW.search(cells[0][1]) and any(re.search(r"\d", c) for _, c in cells[1:]) and not _ASKS_GOAL.search(question):
        return "unreal"  # "Occupancy 2025 (budget) | 83% | 72%": the year's plan, not what it reached
    if cells and _plan_columns_only(question, cells):
        return "unreal"  # "2025–26 budget" is the only column of the asked year: a plan, not what was spent
    if cells and re.search(r"\bdefault", question, re.IGNORECASE) and not _ASKS_STATUS.match(question):
        defaults = [c for h, c in cells if re.search(r"\bdefault", h, re.IGNORECASE)]
        if defaults and all(_NO_FIXED_DEFAULT.match(c) for c in defaults):
            return "no value"
    if cells and not _ASKS_STATUS.match(question):
        # The cell under the column the question names ("Weekly service charge") holds no
        # value ("to be set after consultation"), whatever the row's other cells give.
        asked = set(re.findall(r"[a-z]+", question.casefold()))
        named = [c for h, c in cells[1:] if (words := re.findall(r"[a-z]+", h.casefold())) and len(words) > 1 and set(words) <= asked]
        if named and all(_PLACEHOLDER.match(c) or _STILL_TO_SET.match(c) for c in named):
            return "no value"
        values = [c for _, c in cells[1:] if c]
        if values and any(_PLACEHOLDER.match(c) for c in values) and not any(re.search(r"\d", c) for c in values):
            return "no value"
    return ""


# A year or a span of years as a column names it: "2025", "2025–26", "2024/25".
_PERIOD = lazy_regex(r"(?<!\d)(?:19|20)\d\d(?:\s*[–—/-]\s*\d{2,4}(?!\d))?")


def _periods(text: str) -> set[str]:
    return {re.sub(r"\s*[–—/-]\s*", "-", p) for p in _PERIOD.findall(text)}


def _plan_columns_only(question: str, cells: list[tuple[str, str]]) -> bool:
    """The columns of a table row whose headers name the period ``question`` asks about
    ("in 2025–26") are all a plan's ("2025–26 budget" beside "2024–25 actual"): the row
    gives that period's plan and another period's outcome, no outcome of the asked one."""
    asked = _periods(question)
    if not asked or _ASKS_GOAL.search(question):
        return False
    named = [header for header, _ in cells[1:] if _periods(header) & asked]
    return bool(named) and all(_PLAN_ROW.search(header) for header in named)


# A status cell that says a state is not reached ("under validation", "in testing", "planned")
# or not given ("not supported", "no").
_PENDING_CELL = lazy_regex(
    r"^\W*(?:under\s+(?:validation|test|testing|review|development|evaluation|assessment|consideration|construction)|"
    r"in\s+(?:test|testing|development|verification|validation|progress|beta|review|preparation)|planned|proposed|pending|expected|scheduled|not\s+yet)\b",
    re.IGNORECASE,
)
# Whether, or when, a state holds is answered by its status cell.
_ASKS_YES_NO = lazy_regex(r"^\W*(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|may|must|when)\b", re.IGNORECASE)
_DENIED_CELL = lazy_regex(r"^\W*(?:not\s+(?:supported|available|compatible|offered|included)|unsupported|unavailable|incompatible|no)\b", re.IGNORECASE)


def _column_status(question: str, piece: str, filler: str) -> str:
    """A table row whose header names the value ("Firmware 2.1" over a status per model) gives
    that value only where its cell says the state holds: "in testing" under it is a state not
    reached, "not supported" one denied."""
    cells = table_cells(piece)
    if not cells or not filler or _ASKS_YES_NO.match(question) or _ASKS_EXPECTED.search(question):
        return ""
    if any(filler in cell for _, cell in cells):
        return ""
    under = [cell for header, cell in cells[1:] if filler in header]
    if under and all(_PENDING_CELL.match(c) for c in under):
        return "unreal"
    if under and all(_DENIED_CELL.match(c) for c in under):
        return "denied"
    return ""
