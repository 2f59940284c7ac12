"""What a question asks for, and whether a piece of text fills it.

A passage that mentions a question's topic is evidence; it answers only when it holds what the
question asks for: a version for "since which release", a number for "how many", a stated
default for "what is the default", a name (an exception, a setting, a function) for "which
exception" or "how do I". :func:`read_slot` reads that from the question's wording and
:func:`slot_filler` finds it in a text, never counting what the question itself already says
(its own numbers and identifiers). Questions asking for something open (what a thing does,
why, yes or no) have no slot to fill: :attr:`SlotKind.OPEN`.

One reader for every place that decides whether an answer was earned (see
:mod:`agentic_rag._answering.earned`) and that picks a passage's focus lines (see
:mod:`agentic_rag._text.focus`). It sits beside
:func:`~agentic_rag._text.questions.answer_type`, which reads the entity a multi-hop question
wants (a date, a person, a place) for the judge's bridge candidates; documentation questions
want other things (a version, a default, an API name), and their fillers are found in text,
not among extracted entities, so the two kinds are kept apart rather than merged into one enum.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from agentic_rag._regex import LazyRegex, lazy_regex

__all__ = [
    "AnswerSlot", "FactKind", "FactQuestion", "SlotKind", "counts_in_unit", "fact_filler", "identifiers", "is_name_noun", "measure_at",
    "read_fact", "read_slot", "slot_filler",
]


class SlotKind(str, enum.Enum):
    """The kind of thing a question asks for."""

    VERSION = "version"
    NUMBER = "number"
    DEFAULT = "default"
    NAME = "name"
    OPEN = "open"


# "On what date was version 2 turned off?" asks a date: a version after the kind of value
# asked ("date", "year") is the question's subject.
_VERSION_Q = lazy_regex(
    r"\b(?:which|what|since|in)\s+(?:(?!(?:dates?|years?|days?|months?)\b)[\w-]+\s+){0,2}(?:version|release)s?\b|\bsince\s+when\b"
    r"|\b(?:version|release)\s+(?:added|introduced|removed|dropped|deprecated)\b"
    r"|\bwhen\s+(?:was|were|did)\b.*\b(?:added|introduced|removed|dropped|deprecated|renamed|changed)\b",
    re.IGNORECASE,
)
_NUMBER_Q = lazy_regex(
    r"\bhow\s+(?:many|much|long|old|often|big|large|small|heavy|fast|far|tall|high|deep|wide)\b|\b(?:what|which)\s+(?:is\s+the\s+)?(?:[\w-]+\s+){0,2}"
    r"(?:port|number|count|limit|size|length|timeout|percentage|maximum|minimum|max|min)\b"
    # "What is the largest value allowed for X?": a bound of a setting's value.
    r"|\b(?:largest|smallest|highest|lowest|greatest|biggest)\s+(?:allowed\s+|permitted\s+|accepted\s+|possible\s+)?(?:value|number|amount)\b",
    re.IGNORECASE,
)
_DEFAULT_Q = lazy_regex(r"\bdefaults?\b|\bdefaulted\b|\bout\s+of\s+the\s+box\b|\bif\s+(?:i|you)\s+(?:don't|do\s+not|never)\s+(?:set|pass|give|configure)\b", re.IGNORECASE)
_NAME_NOUNS = (
    r"exception|error|warning|class|function|method|setting|option|parameter|argument|arg|flag|hook|decorator|module|command|"
    r"subcommand|variable|attribute|key|keyword|processor|filter|extension|field|type|signal|header|name|package|object|callable|"
    r"constant|directive|tag|loader|logger|backend|middleware|helper|api|property|value|context\s+manager|environment\s+variable|"
    r"renderer|formatter|handler|validator|converter|test|macro|global|mode|strategy|protocol|interface|wrapper|factory|file"
)
_NAME_NOUN = lazy_regex(rf"(?:{_NAME_NOUNS})s?", re.IGNORECASE)
# "What happens to unhandled exceptions?" asks what is done to them, not for the name of one: a
# verb of events right after "what" opens a question about behaviour.
_NAME_Q = lazy_regex(
    rf"\b(?:which|what)\s+(?!(?:happens|happened|occurs|occurred|goes)\b)(?:[\w-]+\s+){{0,3}}?(?:{_NAME_NOUNS})s?\b|^\s*(?:so\s+|and\s+|but\s+)?how\s+(?:do|can|should|would|could)\s+(?:i|you|we|one)\b"
    r"|^\s*how\s+to\b|\bwhat\s+(?:do|should|can|must)\s+(?:i|you|we)\s+(?:pass|call|use|set|add|write|import|run|type|put|give|subclass|override|implement)\b"
    r"|\bis\s+there\s+(?:a|an|any)\s+(?:way|option|setting|flag|function|method|hook|api|helper|built-?in)\b|\bwhat(?:'s|\s+is)\s+the\s+(?:name|command|way)\b"
    # "Is there an environment variable for that? What's it called?": a name.
    r"|\bwhat(?:'s|’s|\s+is|\s+are)\s+(?:it|they|that|this|its\s+name)\s+(?:called|named)\b",
    re.IGNORECASE,
)
# A version opens a run of word characters and dots ("2.1.0", "v3.38.0a1") and no digit
# follows it inside that run (so "1.2" is no version inside "1.2.3.4.x5"). The check after the
# run is made once, in :func:`_versions`: as a lookahead ``(?![\w.]*\d)`` it was rescanned at
# every step the dotted part backed off, quadratic on a long run such as "1.1.1...a1".
_VERSION_RUN = lazy_regex(r"(?<![\w.])v?\d+(?:\.\d+)+[a-z]?\d*")
_WORD_OR_DOT = lazy_regex(r"[\w.]*")
_DIGIT = lazy_regex(r"\d")
# A major version named as one ("version 9", "release 12", "v4"): no dots, but no other number.
# The digits are taken whole before the check after them (a lookahead that captures, then the
# capture: Python 3.10 has no possessive quantifier), so a long run is not rescanned per digit.
_NAMED_VERSION = lazy_regex(r"\b(?:version|release)\s+(?=(\d+))\1(?![\w.]*\d)|(?<![\w.])v(\d+)\b", re.IGNORECASE)
_NUMBER = lazy_regex(
    r"(?<![\w.])\d+(?:[.,]\d+)*(?![\w])|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|"
    r"forty|fifty|sixty|hundred|thousand|million|once|twice|unlimited|infinite|no\s+limit)\b",
    re.IGNORECASE,
)
# "How long", "how old", "how often", "how heavy" ask for an amount of something: a number
# with a unit of what is asked ("three years", "256 KiB", "twice a day", "1.4 kg"); a bare
# number ("Django 5.2"), or one of another dimension ("8 GB" for how heavy), is no such answer.
_WEIGHS = lazy_regex(r"\bhow\s+much\s+(?:does|do|did|will|would|can|could)\b.*\bweigh\b", re.IGNORECASE)
_AMOUNT_Q = lazy_regex(r"\bhow\s+(long|old|often|heavy|fast|far|tall|deep|wide)\b", re.IGNORECASE)
# "How long does it take to walk the ridge?", "how long does the battery last?": a time, which
# a length ("11.8 km") is not, though "how long is the trail?" asks one.
_TAKES = lazy_regex(r"\b(?:take|takes|took|last|lasts|lasted)\b", re.IGNORECASE)
_COUNTED_UNITS = (
    r"(?:milli|micro|nano|kilo|mega|giga|[kmgt]i?)?(?:seconds?|secs?|s|ms|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?|"
    r"decades?|times?|bytes?|b|bits?|octets?|characters?|chars?|digits?|words?|lines?|entries|entry|items?|elements?|rows?|"
    r"releases?|versions?|iterations?|rounds?|per|a|an|each|every)"
)
_TIME_UNITS = r"(?:milli|micro|nano)?(?:seconds?|secs?|s|ms|µs|us|ns|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|months?|years?|decades?)"
_LENGTH_UNITS = r"(?:(?:kilo|centi|milli)?met(?:re|er)s?|km|m|cm|mm|miles?|mi|ft|feet|foot|inch(?:es)?|yards?|yd)"
_MASS_UNITS = r"(?:(?:kilo|milli)?grams?|kg|g|mg|tonnes?|tons?|t|lbs?|pounds?|oz|ounces?)"
_SPEED_UNITS = rf"(?:km/h|kph|mph|m/s|knots?|{_LENGTH_UNITS}\s*(?:/|per|an|a)\s*{_TIME_UNITS})"
_UNITS = {
    "long": rf"(?:{_COUNTED_UNITS}|{_LENGTH_UNITS})",
    # A time taken: no bare "m" or "d", which a table of lengths writes for metres ("520 m").
    "takes": r"(?:milli|micro|nano)?(?:seconds?|secs?|s|ms|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?)",
    "old": _TIME_UNITS,
    "often": _COUNTED_UNITS,
    "heavy": _MASS_UNITS,
    "fast": _SPEED_UNITS,
    "far": _LENGTH_UNITS,
    "tall": _LENGTH_UNITS,
    "deep": _LENGTH_UNITS,
    "wide": _LENGTH_UNITS,
}
# "How many times", "how many seconds": the count's unit, which the answer's number carries
# ("3 times", "twice", "30 s", "2 minutes": any unit of time for a time).
_BYTE_UNITS = r"(?:[kmgtp]i?b|bytes?|(?:kilo|mega|giga|tera)bytes?)"
_COUNTS = {
    "times": r"(?:times|x|attempts|retries|tries)",
    "seconds": _TIME_UNITS, "minutes": _TIME_UNITS, "hours": _TIME_UNITS, "days": _TIME_UNITS, "weeks": _TIME_UNITS,
    "months": _TIME_UNITS, "years": _TIME_UNITS,
    "bytes": _BYTE_UNITS, "kilobytes": _BYTE_UNITS, "megabytes": _BYTE_UNITS, "gigabytes": _BYTE_UNITS,
    "characters": r"(?:characters?|chars?)",
}
_COUNT_Q = lazy_regex(rf"\bhow\s+many\s+({'|'.join(_COUNTS)})\b", re.IGNORECASE)
_COUNTED_VALUE = {
    word: lazy_regex(rf"(?<![\w.])\d+(?:[.,]\d+)*\s*(?:-\s*)?{units}(?![\w/])" + (r"|\b(?:once|twice|thrice)\b" if word == "times" else ""), re.IGNORECASE)
    for word, units in _COUNTS.items()
}


# The nouns that name a measure, and the units a value of it carries: "5 GB" is a size,
# "1.4 kg" a weight, "30 days" a period.
_MEASURE_UNITS = {
    "size": _BYTE_UNITS, "capacity": _BYTE_UNITS, "storage": _BYTE_UNITS,
    "weight": _MASS_UNITS, "mass": _MASS_UNITS,
    "length": _LENGTH_UNITS, "distance": _LENGTH_UNITS, "range": _LENGTH_UNITS, "height": _LENGTH_UNITS, "depth": _LENGTH_UNITS,
    "width": _LENGTH_UNITS, "altitude": _LENGTH_UNITS,
    "duration": _TIME_UNITS, "timeout": _TIME_UNITS, "period": _TIME_UNITS, "interval": _TIME_UNITS, "lifetime": _TIME_UNITS,
    "retention": _TIME_UNITS, "delay": _TIME_UNITS, "latency": _TIME_UNITS,
    "speed": _SPEED_UNITS, "velocity": _SPEED_UNITS,
    "temperature": r"(?:°\s*[CF]|degrees|K)",
}


def measure_at(noun: str, text: str) -> int:
    """Where ``text`` holds a number in a unit of the measure ``noun`` names ("size",
    "weight", "timeout": "up to 5 GB" states a size without the word), -1 when it holds none
    or ``noun`` names no measure."""
    units = _MEASURE_UNITS.get(noun.casefold())
    found = re.search(rf"(?<![\w.])\d+(?:[.,]\d+)*\s*(?:-\s*)?{units}(?![\w/])", text, re.IGNORECASE) if units else None
    return found.start() if found else -1


def counts_in_unit(question: str, text: str) -> bool:
    """False when ``question`` asks how many of a unit ("how many times", "how many seconds")
    and ``text`` holds no number in that unit ("3 times", "twice", "30 s"); True otherwise
    (a default in a table row, "5s" of a timeout, counts no retries)."""
    asked = _COUNT_Q.search(question)
    return asked is None or bool(_COUNTED_VALUE[asked.group(1).casefold()].search(text))


_UNIT = {word: lazy_regex(rf"\s*(?:-\s*)?{units}(?![\w/])", re.IGNORECASE) for word, units in (*_UNITS.items(), *_COUNTS.items())}
_STATES_DEFAULT = lazy_regex(r"\bdefault(?:s|ed)?\b|\bunless\b|\botherwise\b|\bif\s+not\s+(?:given|set|specified|passed)\b|\bout\s+of\s+the\s+box\b", re.IGNORECASE)
_ASSIGNMENT = lazy_regex(r"\b([A-Za-z_]\w*)\s*[=:]\s*([^\s,()]+)")
# A name a documentation answer gives: dotted or underscored words, calls, CamelCase and
# ALL_CAPS words, command-line options, decorators and dunder names.
_IDENTIFIER = lazy_regex(
    r"--?[A-Za-z][\w-]*|@[A-Za-z_][\w.]*|\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?|\b_*[A-Za-z]\w*_\w*\b|\b\w+\(\)"
    r"|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b|\b[a-z]+(?:[A-Z][a-z0-9]*)+\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z]{3,}\b"
)


@dataclass(frozen=True, slots=True)
class AnswerSlot:
    """What one question asks for.

    Args:
        kind: The kind of answer.
        numbers: The numbers the question itself states (no filler).
        names: The identifiers the question itself states, case-folded (no filler).
        amount: The question asks "how long", "how old", "how often", "how heavy", "how
            fast", "how far" (or how tall, deep, wide), or how many of a unit ("how many
            times", "how many seconds"): a number fills it only with a unit of that
            dimension ("three years", "256 KiB", "twice", "1.4 kg", "3 times").
        dimension: The word asking it ("long", "heavy", "times"; "takes" for how long a
            thing takes or lasts, which only a time fills), ``""`` for no amount.
    """

    kind: SlotKind
    numbers: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()
    amount: bool = False
    dimension: str = ""


@lru_cache(maxsize=1024)
def read_slot(question: str) -> AnswerSlot:
    """Read what ``question`` asks for.

    A question that opens by asking for a version wants one ("since when is it on by
    default?"); otherwise a default is asked for before a version or a number ("what is the
    default timeout?" wants the stated default, whatever its form), then a version, a number
    and a name (the words between "which" and the kind may be hyphenated: "which
    compile-time option"); everything else is open.

    Args:
        question: A question or one part of a compound question.

    Returns:
        The slot, with the question's own numbers and identifiers.
    """
    # "the v1 endpoints": the question's own version, never its answer.
    numbers = frozenset(m.group().casefold() for m in _NUMBER.finditer(question)) | {m.group(2) for m in _NAMED_VERSION.finditer(question) if m.group(2)}
    names = frozenset(identifiers(question))
    # A question that opens by asking for a version ("Since when are the JSON functions built
    # in by default?") wants the version; its "by default" says what changed, not what it asks.
    if _VERSION_Q.match(question.lstrip()):
        kind = SlotKind.VERSION
    elif _DEFAULT_Q.search(question):
        kind = SlotKind.DEFAULT
    elif _VERSION_Q.search(question):
        kind = SlotKind.VERSION
    elif _NUMBER_Q.search(question):
        kind = SlotKind.NUMBER
    elif _NAME_Q.search(question):
        kind = SlotKind.NAME
    else:
        kind = SlotKind.OPEN
    if kind is SlotKind.NUMBER and _WEIGHS.search(question):
        return AnswerSlot(kind, numbers, names, True, "heavy")  # "how much does it weigh": how heavy
    asked = (_AMOUNT_Q.search(question) or _COUNT_Q.search(question)) if kind is SlotKind.NUMBER else None
    dimension = asked.group(1).casefold() if asked else ""
    if dimension == "long" and _TAKES.search(question, asked.end()):
        dimension = "takes"
    return AnswerSlot(kind, numbers, names, asked is not None, dimension)


def is_name_noun(word: str) -> bool:
    """True for a word naming a kind of API thing ("option", "parameter", "setting"): a
    documentation sentence often names the thing without it ("timeout: defaults to 30")."""
    return bool(_NAME_NOUN.fullmatch(word.strip()))


@lru_cache(maxsize=1024)
def identifiers(text: str, *, folded: bool = True) -> tuple[str, ...]:
    """The identifier-like words of ``text``, case-folded (as written when not ``folded``:
    the case of ``ReturnLogger`` says where its words meet), once each, in order (kept for
    the last thousand texts: a search asks it of its question for every candidate)."""
    out: dict[str, str] = {}
    for match in _IDENTIFIER.finditer(text):
        word = match.group().strip("_.-@()")
        if len(word) >= 2:
            out.setdefault(word.casefold(), word)
    return tuple(out) if folded else tuple(out.values())


def slot_filler(slot: AnswerSlot, text: str) -> str:
    """The part of ``text`` that fills ``slot``, ``""`` when none does.

    Args:
        slot: What the question asks for.
        text: A claim, a passage unit or a line (with its heading, when the heading can hold
            the answer: a changelog's version heading).

    Returns:
        The filler (the first found): a version or number the question does not state, a
        default statement or an assignment to a name the question states, an identifier the
        question does not state; the text itself (stripped) for an open question.
    """
    if slot.kind is SlotKind.OPEN:
        return text.strip()
    if slot.kind is SlotKind.VERSION:
        dotted = next((v for v in _versions(text) if v.casefold().lstrip("v") not in slot.numbers), "")
        return dotted or next((m.group() for m in _NAMED_VERSION.finditer(text) if (m.group(1) or m.group(2)) not in slot.numbers), "")
    if slot.kind is SlotKind.NUMBER:
        return next((m.group() for m in _NUMBER.finditer(text) if m.group().casefold() not in slot.numbers
                     and (not slot.amount or (slot.dimension in ("often", "times") and m.group().casefold() in ("once", "twice"))
                          or _UNIT[slot.dimension or "long"].match(text, m.end()))), "")
    if slot.kind is SlotKind.DEFAULT:
        stated = _STATES_DEFAULT.search(text)
        if stated:
            return stated.group()
        return next((m.group() for m in _ASSIGNMENT.finditer(text) if m.group(1).casefold() in slot.names), "")
    return next((name for name in identifiers(text) if name not in slot.names and not any(name in own or own in name for own in slot.names)), "")


class FactKind(str, enum.Enum):
    """The value a question about one entity's attribute asks for."""

    DATE = "date"
    PLACE = "place"
    PERSON = "person"


@dataclass(frozen=True, slots=True)
class FactQuestion:
    """A question about one attribute of a named subject: "When was Acme Robotics founded?",
    "Where was Jane Doe born?", "Who founded Acme Robotics?".

    Args:
        kind: The kind of value asked for.
        subject: The subject as written ("Acme Robotics", "the zebra project").
        predicate: The verb that ties the value to the subject ("founded", "born").
        subject_words: The subject's words, case-folded, without articles.
        passive: The question asks in the passive ("When was the X5 announced?"): a sentence
            in the active ("Lumo announced the X5 on 9 May") states it with the subject
            after the verb.
    """

    kind: FactKind
    subject: str
    predicate: str
    subject_words: tuple[str, ...]
    passive: bool = False


def _versions(text: str) -> Iterator[str]:
    """The versions ``text`` states, in order (see ``_VERSION_RUN``). A run that fails the
    check holds no other version: the match backing off would leave a digit after it too."""
    for match in _VERSION_RUN.finditer(text):
        rest = _WORD_OR_DOT.match(text, match.end())  # always matches (it may be empty)
        if rest is None or not _DIGIT.search(rest.group()):
            yield match.group()


# Past tense only: "when does the server reload?" asks for a condition in documentation,
# "when was Acme founded?" for a date.
_AUXILIARIES = r"(?P<aux>was|were|did|had)"
_PARTICLE = r"(?:\s+(?:up|out|down|off|on|in|at|from))?"
_FACT_QUESTIONS: tuple[tuple[LazyRegex, FactKind], ...] = (
    # "On what date was 4.2 released?", "Which date did Season 7 begin?": a date asked in
    # other words than "when".
    (lazy_regex(rf"^(?:when|(?:(?:in|on|from|since)\s+)?(?:what|which)\s+(?:year|date|day|month))\s+{_AUXILIARIES}\s+(?P<subject>.+?)\s+(?P<verb>[a-z]+){_PARTICLE}$", re.I), FactKind.DATE),
    (lazy_regex(rf"^where\s+{_AUXILIARIES}\s+(?P<subject>.+?)\s+(?P<verb>[a-z]+){_PARTICLE}$", re.I), FactKind.PLACE),
    (lazy_regex(r"^who\s+(?!(?:was|were|is|are|did|does|do|had|has|have|will|would|can|could)\b)(?P<verb>[a-z]+)\s+(?P<subject>.+)$", re.I), FactKind.PERSON),
)
_ARTICLES = frozenset({"the", "a", "an"})
_FACT_WORD = lazy_regex(r"[\w'’]+")
_YEAR = lazy_regex(r"(?<![\w.])(?:1[0-9]{3}|20[0-9]{2})(?![\w.]*\d)|\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{1,2}\b", re.I)
_PLACE = lazy_regex(r"\b(?:in|at|near|from)\s+((?:[A-Z][\w'’-]+)(?:,?\s+[A-Z][\w'’-]+)*)")
# The words just before a name that make it a place ("in Port Elm"), read from the few
# characters before it.
_AT_PLACE = lazy_regex(r"\b(?:in|at|near|from)\s+$", re.IGNORECASE)
_PERSON = lazy_regex(r"\b[A-Z][a-z'’-]+(?:\s+(?:[A-Z]\.|[A-Z][a-z'’-]+))+")


@lru_cache(maxsize=1024)
def read_fact(question: str) -> FactQuestion | None:
    """Read a question about one attribute of a named subject (a date, a place or a person
    asked for), ``None`` for any other question (a version, a default, a name, an open one:
    :func:`read_slot` reads those).

    Args:
        question: A question or one part of a compound question.

    Returns:
        The subject, its predicate and the kind of value asked for, or ``None``.
    """
    if read_slot(question).kind is not SlotKind.OPEN:
        return None
    text = " ".join(question.split()).rstrip("?.! ")
    for pattern, kind in _FACT_QUESTIONS:
        match = pattern.match(text)
        if match:
            subject = match.group("subject").strip(" ,")
            words = tuple(w.casefold() for w in _FACT_WORD.findall(subject) if w.casefold() not in _ARTICLES)
            if words:
                aux = match.groupdict().get("aux") or ""
                return FactQuestion(kind, subject, match.group("verb"), words, aux.casefold() in ("was", "were"))
    return None


def fact_filler(fact: FactQuestion, text: str) -> str:
    """The value in ``text`` that answers ``fact`` (a year or a date, a place after "in",
    "at", "near" or "from", a person's name), never a word of the question's subject;
    ``""`` when none does."""
    own = set(fact.subject_words)
    if fact.kind is FactKind.DATE:
        return next((m.group() for m in _YEAR.finditer(text)), "")
    pattern, group = (_PLACE, 1) if fact.kind is FactKind.PLACE else (_PERSON, 0)
    for match in pattern.finditer(text):
        words = [w.casefold() for w in _FACT_WORD.findall(match.group(group))]
        if fact.kind is FactKind.PERSON and _AT_PLACE.search(text[max(0, match.start() - 12):match.start()]):
            continue  # "founded in Port Elm": a name after "in" is a place
        if words and not set(words) <= own:
            return match.group(group)
    return ""

