"""Reading a question: its clauses and compound parts, comparison items, bridge shape, the
kind of answer it asks for, and the folded form queries are compared in.

One reader for both workflows and the LLM roles: the agentic planner and judge, the parallel
decomposition rewriter and answerability check, and the query deduplication of every
rewriter all read questions here, so they cannot drift apart.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from agentic_rag._regex import LazyRegex, lazy_regex
from agentic_rag._text.analyzer import Analyzer
from agentic_rag._text.entities import EntityMention, extract_entities

__all__ = [
    "AnswerType",
    "Comparison",
    "QUESTION_WORDS",
    "anchor_entity",
    "answer_type",
    "asked_clause",
    "content_words",
    "find_comparison",
    "fold_query",
    "is_bridge_question",
    "offers_answer",
    "split_clauses",
    "split_compound",
]

# "the founder of Acme", "the 2001 film that featured X", "the man who played Y": a
# description of an entity the question does not name, which another passage must resolve.
_DESCRIBED = lazy_regex(r"\bthe\s+(?:[\w'-]+\s+){0,3}?(?:of|for|from|by|with|in|on|at)\s+(?:the\s+)?[A-Z0-9\"“]")
# A name in code: dotted or underscored words, or a call ("attrs.define", "SESSION_COOKIE_NAME",
# "render()").
_CODE_NAME = lazy_regex(r"[A-Za-z_]\w*(?:[._]\w+)+|\w+\(\)")
# A relative clause follows a word ("the man who played"); a capitalised "Which" after a full
# stop starts a new question instead.
_RELATIVE = lazy_regex(r"\w\s+(?:who|whom|whose|that|which|where)\s+\w+")

#: Words that start a question: "and" before one of them joins two questions.
QUESTION_WORDS = ("how", "what", "when", "where", "who", "whom", "whose", "which", "why", "is", "was", "are", "were", "does", "did", "do", "can")
# "and" before a question word joins two questions ("Who founded Apple and when did it go
# public?"); a semicolon or a question mark with more text after it also ends a clause.
# Every pattern that opens with a run of white space starts it only where the run starts
# (``(?<!\s)``) or, with none before it, at its mark (``;``): the leftmost match is there
# anyway, and without it a search restarts at each space of a long run and scans to its end
# (quadratic on a run of 100,000 spaces).
_JOINED = rf",?(?<!\s)\s+and\s+(?=(?:{'|'.join(QUESTION_WORDS)})\b)"
_JOINED_QUESTIONS = lazy_regex(_JOINED, re.IGNORECASE)
_CLAUSE_BREAK = lazy_regex(rf"(?<!\s)\s*;\s*|;\s*|{_JOINED}|\?\s+", re.IGNORECASE)
_PRONOUN = lazy_regex(r"\b(it|its|they|their|them|he|his|him|she|her)\b", re.IGNORECASE)

_OR = lazy_regex(r"(?<!\s)\s+or\s+", re.IGNORECASE)
_AND = lazy_regex(r"(?<!\s)\s+and\s+", re.IGNORECASE)
_VERSUS = lazy_regex(r"(?<!\s)\s+(?:vs\.?|versus)\s+", re.IGNORECASE)
_CONNECTIVE_WORDS = frozenset({"vs", "versus", "compare", "both", "or"})
_AND_CUES = lazy_regex(r"\b(?:both|same|compare|compared|between|differ\w*|common|either|neither|together)\b", re.IGNORECASE)
_COMPARE_CUES = lazy_regex(
    r"^(?:are|were|is|was|do|did|does|have|has|which|who|what|when|where|compare|how)\b|\b(?:both|same|first|older|younger|earlier|later|more|less|larger|smaller|longer|shorter|higher|lower|between)\b",
    re.IGNORECASE,
)
# Comparisons stated by their wording rather than by two names: each gives the two items and
# what is compared ("Which is older, the Eiffel Tower or the Statue of Liberty" -> older). A
# lazy item ends before a run of white space, not inside it (``(?<!\s)``), so the lazy group
# does not try the connective from each space of a long run.
_WORDED_COMPARISONS: tuple[tuple[LazyRegex, Callable[[re.Match[str]], tuple[str, str, str]]], ...] = (
    (lazy_regex(r"^(?:what\s+(?:is|are)\s+)?(?:the\s+)?differences?\s+between\s+(.+?)(?<!\s)\s+and\s+(.+)$", re.I), lambda m: (m.group(1), m.group(2), "")),
    (lazy_regex(r"^compare\s+(.+?)(?<!\s)\s+(?:and|with|to|vs\.?|versus)\s+(.+)$", re.I), lambda m: (m.group(1), m.group(2), "")),
    (lazy_regex(r"^(?:which|who)\s+(?:is|was|are|were)\s+(.+?),\s*(.+?)(?<!\s)\s+or\s+(.+)$", re.I), lambda m: (m.group(2), m.group(3), m.group(1))),
    (lazy_regex(r"^(?:is|are|was|were)\s+(.+?)(?<!\s)\s+(\w+er|more\s+\w+|less\s+\w+)\s+than\s+(.+)$", re.I), lambda m: (m.group(1), m.group(3), m.group(2))),
    (lazy_regex(r"^(.+?)(?<!\s)\s+(?:vs\.?|versus)\s+(.+)$", re.I), lambda m: (m.group(1), m.group(2), "")),
)


# Words joined by a slash are one token ("HTTP/3", "TCP/IP", "Read/Write", "and/or"): the
# entity reader stops at the slash, and a name cut there ("HTTP" for "HTTP/3") is another
# thing, which a question part or a compared item must never become.
# It starts only where a run of word characters, dots and hyphens starts: a match found
# inside a run extends back to its start, and a search restarted at every character of a long
# token (a hash, a base64 blob) would rescan it to its end each time.
_SLASH_TOKEN = lazy_regex(r"(?<![\w.\-])[\w.\-]+(?:/[\w.\-]+)+")


def _mentions(text: str) -> list[EntityMention]:
    """The entities of ``text`` with every name widened to the whole slash-joined token it
    sits in (numbers inside such a token belong to it and are dropped)."""
    tokens = [(m.start(), m.end()) for m in _SLASH_TOKEN.finditer(text)]
    spans: list[tuple[int, int, str]] = []
    for mention in extract_entities(text):
        start, end = mention.start, mention.start + len(mention.text)
        if mention.kind == "name":
            for first, last in tokens:
                if first < end and start < last:
                    start, end = min(start, first), max(end, last)
        spans.append((start, end, mention.kind))
    names = [(a, b) for a, b, kind in spans if kind == "name"]
    merged: list[list[int]] = []
    for start, end in sorted(names):
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    out = [EntityMention(text[a:b], a, "name") for a, b in merged]
    out.extend(EntityMention(text[a:b], a, kind) for a, b, kind in spans if kind != "name" and not any(m <= a and b <= n for m, n in merged))
    return sorted(out, key=lambda m: (m.start, m.text))


@dataclass(frozen=True, slots=True)
class Comparison:
    """A comparison question: the items compared and what is asked of each."""

    items: tuple[str, ...]
    aspect: str


def content_words(text: str, analyzer: Analyzer) -> list[str]:
    """Return the surface words of ``text`` that are not stop words, in order, once each."""
    # Once each through a dict (in order): a test against the list so far was quadratic in the
    # words of a long text.
    return list(dict.fromkeys(token for token in analyzer.tokenize(text) if not analyzer.is_stopword(token)))


def find_comparison(question: str, analyzer: Analyzer) -> Comparison | None:
    """Detect a comparison question and return its items and what is compared.

    Named items first: "X or Y?", "X and Y both ...?", "X vs Y" with capitalised names (or
    quoted titles) next to the connective, so "Which magazine was started first, Arthur's
    Magazine or First for Women?" gives the two magazine names and the aspect is what remains
    of the question ("magazine started first"). Then comparisons stated by their wording, whose
    items need not be names: "(what is the) difference between X and Y", "compare X with Y",
    "which is ASPECT, X or Y", "is X ASPECT than Y" and "X vs Y".

    Args:
        question: The question.
        analyzer: Used to drop stop words from the aspect of named items.

    Returns:
        The comparison, or ``None`` when the question compares nothing.
    """
    text = question.strip().rstrip("?").strip()
    named = _named_comparison(text, analyzer)
    if named is not None:
        return named
    for pattern, sides in _WORDED_COMPARISONS:
        match = pattern.match(text)
        if match:
            left, right, aspect = (part.strip(" ,?") for part in sides(match))
            return Comparison((left, right), aspect)
    return None


def _named_comparison(text: str, analyzer: Analyzer) -> Comparison | None:
    if not _COMPARE_CUES.search(text):
        return None
    entities = _mentions(text)
    connectives = (_OR, _VERSUS, _AND) if _AND_CUES.search(text) else (_OR, _VERSUS)
    for connective in connectives:
        for match in connective.finditer(text):
            left = _entity_ending_at(entities, text, match.start())
            right = _entity_starting_at(entities, text, match.end())
            if left and right and left.casefold() != right.casefold():
                rest = text.replace(left, " ").replace(right, " ")
                words = content_words(_OR.sub(" ", _AND.sub(" ", rest)), analyzer)
                aspect = " ".join(w for w in words if w not in _CONNECTIVE_WORDS)
                return Comparison((left, right), aspect)
    return None


def _entity_ending_at(entities, text: str, end: int) -> str:
    stop = len(text[:end].rstrip(" ,\"”"))
    for mention in entities:
        if mention.kind != "number" and mention.start + len(mention.text) in (stop, end) and mention.start < end:
            return mention.text
    return ""


def _entity_starting_at(entities, text: str, start: int) -> str:
    begin = start + (len(text[start:]) - len(text[start:].lstrip(" \"“")))
    for mention in entities:
        if mention.kind != "number" and mention.start in (start, begin):
            return mention.text
    return ""


@lru_cache(maxsize=1)
def _plain_analyzer() -> Analyzer:
    return Analyzer()


def split_clauses(text: str) -> tuple[str, ...]:
    """Split text into its clauses, as written: at semicolons, at a question mark followed by
    more text, and at "and" before a question word (:data:`QUESTION_WORDS`).

    Args:
        text: A question (or a list of topics separated by semicolons).

    Returns:
        The clauses, spaces, commas and question marks stripped from their ends, empty ones
        dropped (an empty tuple for blank text).
    """
    return _split(_CLAUSE_BREAK, text)


def _split(breaks: LazyRegex, text: str) -> tuple[str, ...]:
    return tuple(c.strip(" ,?") for c in breaks.split(text.strip()) if c.strip(" ,?"))


def split_compound(question: str) -> tuple[str, ...]:
    """Split "When was X founded and how many employees does it have?" into its questions.

    The parts are the clauses :func:`split_clauses` finds at "and" before a question word
    only: a second sentence ("When the filter serializes a dict, are the keys ordered? Which
    argument is passed by default?") leans on the first for its subject, so it is no question
    that can be answered on its own (splitting there lost an answer on the development half
    of the documentation benchmark). A pronoun in a later part is replaced by the first named
    entity of the first part, so each part can be searched on its own ("How many employees
    does X have?"); every part ends with a question mark.

    A situation told before the question ("Tab completion doesn't work when I run my tool as
    python cli.py. Why, and how do I declare an entry point so it will?") is context, not a
    part: only the asked clauses are parts. A part with no words of its own beyond its
    question word ("Why") asks about the situation, which it carries ("Why tab completion
    doesn't work when I run my tool as python cli.py?"); a part whose pronoun points into
    the situation ("how do I declare an entry point so it will") follows it, as told.

    Args:
        question: The question.

    Returns:
        The parts (a single-element tuple, the question itself, when the question is not
        compound, or when a part has nothing but question and stop words).
    """
    text = question.strip()
    situation, asked = _situation(text)
    if situation:
        return _asked_parts(text, situation, asked)
    parts = _split(_JOINED_QUESTIONS, text)
    if len(parts) < 2 or any(not _plain_analyzer().analyze(p) for p in parts):
        # "Who founded Acme, and when?": a part with no words of its own is no separate
        # question; the whole question is one.
        return (text,)
    names = [m.text for m in _mentions(parts[0]) if m.kind != "number"]
    out = [parts[0] + "?"]
    for part in parts[1:]:
        if names:
            part = _PRONOUN.sub(lambda m: names[0] + ("'s" if m.group(1).lower() in ("its", "their", "his", "her") else ""), part, count=1)
        out.append(part[0].upper() + part[1:] + "?")
    return tuple(out)


# A sentence that tells rather than asks: it ends with a full stop or an exclamation mark.
_TOLD = lazy_regex(r"(?s)^(.*?[.!])\s+(?=[A-Z])(.*\?)\s*$")
_QUESTION_WORD = lazy_regex(rf"^(?:{'|'.join(QUESTION_WORDS)}|why|how)\b", re.IGNORECASE)


def asked_clause(part: str) -> str:
    """The sentence a question part asks, without the situation told before it ("My program
    must use both libraries. What do I define before including idn2.h?": the second
    sentence); the part itself when it tells nothing first, or when what it asks leans on
    the situation for its subject ("... How do I exclude it?")."""
    situation, asked = _situation(part.strip())
    if not situation or _LEANS.search(asked):
        return part.strip()
    return asked


def _situation(text: str) -> tuple[str, str]:
    """``(situation, asked)`` when ``text`` tells something before the question it asks and
    the asked sentence opens with a question word; ``("", text)`` otherwise."""
    match = _TOLD.match(text)
    if match is None or not _QUESTION_WORD.match(match.group(2)):
        return "", text
    return match.group(1).strip(), match.group(2).strip()


def _asked_parts(text: str, situation: str, asked: str) -> tuple[str, ...]:
    parts = _split(_JOINED_QUESTIONS, asked)
    if len(parts) < 2:
        return (text,)  # one question: its situation stays with it, as the reader wrote it
    told = situation.rstrip(".!")
    told = told[0].lower() + told[1:] if told[:1].isupper() and not told[1:2].isupper() else told
    out = []
    for part in parts:
        part = part[0].upper() + part[1:]
        if not _plain_analyzer().analyze(part):
            part = f"{part} {told}"  # "Why": the question word alone asks about the situation
        elif _LEANS.search(part):
            part = f"{situation} {part}"  # "How do I exclude it?": "it" is in the situation
        out.append(part + "?")
    return tuple(out)


# A part that leans on the situation for what it is about.
_LEANS = lazy_regex(r"\b(?:it|its|they|them|their|this|that|these|those)\b(?!\s+(?:is|are)\s+(?:the|a)\b)", re.IGNORECASE)


def fold_query(text: str) -> str:
    """Return the form two queries are compared in: case folded, white space collapsed, and
    trailing ``?``, ``.`` and ``!`` dropped, so "Who founded Acme?" and "who founded  acme"
    count as one query.

    Args:
        text: A query (or any text compared the same way).

    Returns:
        The folded text.
    """
    return " ".join(text.casefold().split()).rstrip("?.! ")


def is_bridge_question(question: str) -> bool:
    """True when ``question`` describes an entity instead of naming it ("the founder of
    Acme Robotics", "the film that featured Yu Rongguang"), so answering takes two passages:
    the one about the named entity and the one about the entity it leads to.

    Args:
        question: A question or fact description.

    Returns:
        Whether the question has that bridge shape. Comparison questions are not bridges.
    """
    text = question.strip()
    words = text.split()
    # The first word's "who"/"which" asks the question; only a later one describes.
    rest = " ".join(words[1:])
    described = _DESCRIBED.search(text)
    if described and _CODE_NAME.match(text, described.end() - 1):
        # "the default value of SESSION_COOKIE_NAME": an attribute of a named API, which one
        # passage states; no other entity to find first.
        described = None
    return bool(described or _RELATIVE.search(rest))


def anchor_entity(question: str) -> str:
    """Return the entity a question names that its first hop should be about.

    Quoted titles first, then multi-word names, then single capitalised words; numbers never.
    ``""`` when the question names nothing.
    """
    mentions = [m for m in _mentions(question) if m.kind != "number"]
    ranked = sorted(mentions, key=lambda m: (0 if m.kind == "quoted" else 1 if " " in m.text else 2, m.start))
    return ranked[0].text if ranked else ""


# What kind of answer a question asks for, and whether a passage offers one. "When" wants a
# date, "how many" a number, "who" and "where" a name, "which"/"what" some entity; a yes/no
# question wants no span at all. A fact counts as covered only when its evidence holds a
# candidate of the asked type that the question does not already name, which is what keeps
# "the passage mentions every word of the question" from passing for an answer.

_MONTHS = "january february march april may june july august september october november december"
_DATE = lazy_regex(r"\b(1[0-9]{3}|20[0-9]{2})s?\b|\b(" + "|".join(_MONTHS.split()) + r")\b", re.IGNORECASE)
_NUMBER = lazy_regex(r"\b\d[\d,\.]*\b|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen)\b", re.IGNORECASE)


class AnswerType(str, enum.Enum):
    """The kind of answer a question asks for."""

    DATE = "date"
    NUMBER = "number"
    NAME = "name"
    ENTITY = "entity"
    YES_NO = "yes_no"
    UNKNOWN = "unknown"


_RULES: tuple[tuple[LazyRegex, AnswerType], ...] = (
    (lazy_regex(r"\b(when|what year|which year|what date|in what year|what decade|what century)\b", re.I), AnswerType.DATE),
    (lazy_regex(r"\b(how many|how much|how old|how long|how tall|how high|how far|what number|what percentage)\b", re.I), AnswerType.NUMBER),
    (lazy_regex(r"\b(who|whom|whose|where)\b", re.I), AnswerType.NAME),
    (lazy_regex(r"^\s*(is|are|was|were|do|does|did|can|could|has|have|had|will|would|should)\b", re.I), AnswerType.YES_NO),
    (lazy_regex(r"\b(what|which|name the)\b", re.I), AnswerType.ENTITY),
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
