"""Whether a sentence gives the measure a question asks for, in its kind and its bound.

A sentence can hold a number and still answer another measure: a number of events for a size
asked in bytes, a depth for how long a pool is, a distance from a town for its length, a
length and a width for how deep a lake is, a recommended pressure for the maximum one, a
bound of another thing ("cancel at least 2 hours ahead" for the shortest booking), a place's
opening days for the time it opens, a goal or a baseline for how much has been saved, a count
of a thing ("at most 2 raised beds") for its biggest size, a starting price ("from £249") or no
price for the most a thing can cost, how often ("every 40 minutes") for how long a thing takes,
a number of anything but words ("by 17:00") for a word limit. Whether a bound exists is
answered only by a sentence with a bound or a figure, and the time a subject does a thing to
another ("feed the stingrays") only by a line naming that thing. :func:`measure_problem` reads
one piece against the question.
"""

from __future__ import annotations

import re

from agentic_rag._answering.amounts import table_cells
from agentic_rag._answering.qualified_durations import ANY_DURATION, qualified_duration
from agentic_rag._answering.word_roots import same_root as _same, stem_word as _stem
from agentic_rag._regex import lazy_regex
from agentic_rag._text.answer_slots import measure_at
from agentic_rag._text.asked_attribute import synonyms

__all__ = ["acts_on_another", "asks_clock", "asks_whether_bound", "bound_noun", "measure_problem"]

# "... size in bytes", "... in minutes?": the unit the question wants its number in (at its
# end only: "in Tallow Collector" names a subject), and the measure that unit is of.
_UNIT_MEASURES = (
    ("size", r"bytes|kilobytes|megabytes|gigabytes|terabytes|[kmgt]i?b"),
    ("duration", r"milliseconds|seconds|minutes|hours|days|weeks|months|years|ms|secs?|mins?|hrs?"),
    ("weight", r"grams|kilograms|kilos|tonnes|tons|pounds|ounces|kg|lbs?|g|oz"),
    ("length", r"millimetres|millimeters|centimetres|centimeters|metres|meters|kilometres|kilometers|miles|feet|inches|mm|cm|km|m|ft|in"),
)
_IN_UNIT = lazy_regex(r"\bin\s+(" + "|".join(units for _, units in _UNIT_MEASURES) + r")\s*[?.!]?\s*$", re.IGNORECASE)
_UNIT_OF = tuple((measure, lazy_regex(rf"^(?:{units})$", re.IGNORECASE)) for measure, units in _UNIT_MEASURES)
# "What time does ... open?": a time of day ("9:00", "8.30am", "7 pm", "noon").
# "What hours count as off-peak?" asks times of day as well.
# "When does the lounge open in the morning?" asks a time of day as well: "when" with a part of
# the day or a day of the week (a bare "when does ... start" may ask a month or a condition).
_ASKS_CLOCK = lazy_regex(
    r"^\W*(?:(?:so|and|but)\s+)?(?:(?:at|during|until|till|by|from|before|after)\s+)?(?:what|which)\s+(?:time|hours)\b"
    r"|^\W*(?:(?:so|and|but)\s+)?when\s+(?:does|do|will|is|are)\s+[^?]+?\s+(?:open|close|start|begin|finish|end|run|leave|depart)s?\s+"
    r"(?:in\s+the\s+(?:morning|afternoon|evening)|at\s+night|each\s+(?:day|morning|evening)|on\s+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekdays|weekends))\b",
    re.IGNORECASE)
# "What time does the café close?": the time a place opens or closes, which a sentence states
# in those words ("open until 22:00", "closing time") or as opening hours ("10:00-22:00").
_ASKS_OPEN_OR_CLOSE = lazy_regex(r"^\W*(?:at\s+)?what\s+time\s+(?:does|do|did|will|is|are)\s+[^?]+?\s+(open|close)\b", re.IGNORECASE)
_HOURS_WORDS = {
    "open": lazy_regex(r"\b(?:open|opens|opening|opened|from)\b", re.IGNORECASE),
    "close": lazy_regex(r"\b(?:close|closes|closing|shut|shuts|until|till)\b", re.IGNORECASE),
}
_CLOCK_RANGE = lazy_regex(r"\d{1,2}[:.]\d{2}\s*(?:[-–—]|to)\s*\d{1,2}[:.]\d{2}", re.IGNORECASE)
_CLOCK = lazy_regex(r"(?<![\d.:])\d{1,2}[:.]\d{2}(?![\d:]|\.\d)|(?<![\w.])\d{1,2}\s*(?:a\.?m\.?|p\.?m\.?)(?!\w)|\b(?:noon|midday|midnight)\b", re.IGNORECASE)
# A bound word in a question and the words after it up to a verb, a preposition or the end
# ("the shortest meeting room booking I can make": meeting room booking).
_BOUND_PHRASE = lazy_regex(
    r"\b(?:max|maximum|maximal|upper|largest|longest|highest|biggest|greatest|min|minimum|minimal|smallest|shortest|lowest|fewest|least)"
    r"((?:\s+[A-Za-z][\w-]*){1,4})",
    re.IGNORECASE,
)
# Words that end the noun after a bound word: a verb, a preposition, a pronoun.
_PHRASE_END = frozenset(
    "i you we they it one can could may might will would should must is are was were be do does did allowed accepted permitted supported possible "
    "for of in on at to with by from per that which when the a an".split()
)
# Words that name a value but no thing ("the highest value allowed for max_connections"): the
# thing is what follows "for" or "of".
_GENERIC = frozenset("value values number amount count limit setting level".split())
_GENERIC_BOUND = lazy_regex(r"\b(?:max\w*|min\w*|highest|lowest|largest|smallest|upper|lower)\s+(?:value|number|amount|limit|count)\b", re.IGNORECASE)
_OWNER = lazy_regex(r"\b(?:for|of)\s+(?:the\s+)?([\w.-]*\w)")
# A value given as advised or usual, not as a bound: "Extraction pressure (recommended) | 9 bar".
_NOT_A_BOUND = lazy_regex(r"\b(?:recommended|typical(?:ly)?|usual(?:ly)?|nominal|suggested|default(?:s|ed)?|ideal|optimal|average)\b", re.IGNORECASE)
_ASKS_PRACTICE = lazy_regex(r"\b(?:recommended|typical(?:ly)?|usual(?:ly)?|nominal|suggested|default|ideal|optimal|average)\b", re.IGNORECASE)
# "How much has X reduced its energy use?", "By how much has X cut ...?": a change, which a
# number of the change states (a baseline, "2019 baseline: 61,000 t", states none).
_ASKS_CHANGE = lazy_regex(
    r"^\W*(?:by\s+)?how\s+much\s+(?:has|have|had|did|does|do)\b[^?]*?\b(?:reduc|cut|lower|increas|rais|grow|grew|fall|fell|drop|declin|sav|improv|shrunk|shrink|gain|lost|los)\w*",
    re.IGNORECASE,
)
_STATES_CHANGE = lazy_regex(
    r"\b(?:reduc|cut|lower|increas|rais|grow|grew|fall|fell|drop|declin|sav|improv|shr[iu]nk|gain|lost|los|down|up|fewer|less|more)\w*|%|\bper\s*cent\b",
    re.IGNORECASE,
)
# "How long is the pool?": a length, which "depth 1.8 m" or "4 km west of town" does not give.
_ASKS_LENGTH = lazy_regex(r"^\W*(?:(?:so|and|but)\s+)?how\s+long\s+(?:is|are|was|were)\b", re.IGNORECASE)
_OTHER_EXTENT = lazy_regex(r"\b(?:depth|deep|width|wide|height|high|tall|thick|thickness)\b", re.IGNORECASE)
# "How deep is the lake?": one extent, which a sentence giving only others ("4.2 km long and
# 900 m wide") does not give. Each extent with the words that state it.
_EXTENTS = (
    ("deep", r"deep\w*|depths?"),
    ("wide", r"wide|wider|widest|widths?|breadths?|across"),
    ("tall", r"tall\w*|high|higher|highest|heights?|altitudes?|elevations?"),
    ("high", r"tall\w*|high|higher|highest|heights?|altitudes?|elevations?"),
    ("thick", r"thick\w*"),
)
_ASKS_EXTENT = lazy_regex(r"^\W*(?:(?:so|and|but)\s+)?how\s+(deep|wide|tall|high|thick)\s+(?:is|are|was|were)\b", re.IGNORECASE)
# The thing an extent is asked of, in plain words ("how tall are the practice walls at ...":
# practice walls); a sentence that names the noun but not its kind measures another kind.
_MEASURED_THING = lazy_regex(
    r"^\W*(?:(?:so|and|but)\s+)?how\s+\w+\s+(?:is|are|was|were)\s+(?:the|its|their)\s+((?-i:[a-z][\w-]*)(?:\s+(?-i:[a-z][\w-]*)){0,3}?)"
    r"(?=\s+(?:at|in|on|of|for|from|near|by)\b|\s*[?.!]?\s*$)", re.IGNORECASE)
_ANY_EXTENT = lazy_regex(r"\b(?:long|length|lengths|deep\w*|depths?|wide|width|widths?|breadths?|tall\w*|high|heights?|thick\w*)\b", re.IGNORECASE)
_FROM_PLACE = lazy_regex(
    r"(?<![\w.])\d+(?:[.,]\d+)?\s*(?:km|m|mi|miles?|kilometres?|kilometers?|metres?|meters?)\s+"
    r"(?:north|south|east|west|north-east|north-west|south-east|south-west|northeast|northwest|southeast|southwest|away|from|outside|inland)\b",
    re.IGNORECASE,
)


def bound_noun(question: str) -> str:
    """The thing whose bound ``question`` asks, as one word ("booking" of "the shortest meeting
    room booking", "max_connections" of "the highest value allowed for max_connections"), ``""``
    when it asks no bound or names no thing after its bound word."""
    match = _BOUND_PHRASE.search(question)
    if not match:
        return ""
    words: list[str] = []
    for word in match.group(1).split():
        # A name after the bound word is the subject of a clause ("the longest Loglake can
        # keep logs"), not the bounded thing.
        if word.casefold() in _PHRASE_END or (word[0].isupper() and not word.isupper()):
            break
        words.append(word)
    if words and words[-1].casefold() not in _GENERIC:
        return words[-1]
    owner = _OWNER.search(question, match.start(1))
    return owner.group(1) if owner else ""


def measure_problem(question: str, clause: str, piece: str, heading: str = "") -> str:
    """Why ``piece`` (``clause`` the part of it that holds the value, ``heading`` the path it
    stands under) does not give the measure ``question`` asks: ``"no value"`` (no number in
    the asked unit, no time of day for "what time", no change for "how much has it
    reduced"), ``"another attribute"`` (a bound of another thing, another extent than the one
    asked: a depth for a length, a width for a depth, the extent of another kind of the
    thing: the lead wall's height for the practice wall's) or ``"rival aspect"`` (an advised
    or usual value for a bound); ``""`` when nothing is wrong."""
    unit = _IN_UNIT.search(question)
    if unit:
        measure = next(m for m, pattern in _UNIT_OF if pattern.match(unit.group(1)))
        if measure_at(measure, clause) < 0:
            return "no value"
    if _ASKS_CLOCK.match(question) and not _CLOCK.search(piece):
        return "no value"
    if _ASKS_CLOCK.match(question) and _times_another(question, piece):
        return "another attribute"  # "Opening hours | 16:00-23:00" is no time food is served till
    if (hours := _ASKS_OPEN_OR_CLOSE.match(question)) and not _HOURS_WORDS[hours.group(1).casefold()].search(piece) and not _CLOCK_RANGE.search(piece):
        return "another attribute"  # "tours run at 12:00" is no time the place closes
    if _ASKS_CHANGE.match(question) and not _STATES_CHANGE.search(clause):
        return "no value"
    if _ASKS_LENGTH.match(question) and not re.search(r"\blength|\blong\b", clause, re.IGNORECASE) and (
            _OTHER_EXTENT.search(clause) or _FROM_PLACE.search(clause)):
        return "another attribute"
    if extent := _ASKS_EXTENT.match(question):
        if (thing := _MEASURED_THING.match(question)) and _another_kind(thing.group(1).split(), f"{heading}\n{piece}"):
            return "another attribute"
        words = dict(_EXTENTS)[extent.group(1).casefold()]
        if not re.search(rf"\b(?:{words})\b", piece, re.IGNORECASE) and (_ANY_EXTENT.search(clause) or measure_at("length", clause) < 0):
            # Another extent, or no length at all ("Built in 1931", "capacity: 78%").
            return "another attribute"
    if problem := _row_label_extent(question, piece) or _advised_bound(question, piece) or qualified_duration(question, clause):
        return problem
    if _KEYWORD_TIME.match(question) and not (ANY_DURATION.search(piece) or _CLOCK.search(piece)):
        return "no value"  # "Murmur R full charge time" asks a time, which "three full charges" is not
    if _ASKS_DURATION.match(question) and _EVERY.search(clause) and measure_at("duration", _EVERY.sub(" ", clause)) < 0:
        return "another attribute"  # "every 40 minutes" is how often, not how long
    if _ASKS_SPAN.search(question) and not _ASKS_LEAD.search(question) and _LEAD_TIME.search(clause) and measure_at("duration", _LEAD_TIME.sub(" ", clause)) < 0:
        return "another attribute"  # "book up to 6 weeks ahead" is how early, not how long
    return _most_problem(question, piece) or _count_limit_problem(question, clause) or _bound_problem(question, clause, piece)


# "Is there an upper height limit ...?", "Does the plan have a maximum ...?": whether a bound
# exists, which a sentence stating a bound, denying one or giving a figure answers; advice with
# neither ("should check the guide before riding") answers nothing.
_ASKS_WHETHER_BOUND = lazy_regex(
    r"^\W*(?:is|are)\s+there\s+(?:an?|any)\s+(?:[\w-]+\s+){0,3}?(?:limits?|max\w*|min\w*|caps?|ceilings?|floors?|restrictions?)\b"
    r"|^\W*(?:does|do|did|is|are|has|have)\s+[^?]*?\b(?:have|has|set|sets|impose|imposes)\s+(?:an?|any)\s+(?:[\w-]+\s+){0,3}?(?:max\w*|min\w*|upper|lower)\b",
    re.IGNORECASE)


def asks_whether_bound(question: str) -> bool:
    """True when ``question`` asks whether a bound exists ("Is there an upper height limit for
    riding X, and if so what is it?"): only a sentence that states or denies a bound, or gives a
    figure, answers it."""
    return bool(_ASKS_WHETHER_BOUND.match(question))


# "At what time does Saltmere Aquarium feed the stingrays ...?": the thing a named subject's
# verb acts on, after an article ("the stingrays").
_CLOCK_OBJECT = lazy_regex(
    r"^\W*(?:at\s+)?(?:what|which)\s+time\s+(?:does|do|did|will)\s+(?:the\s+)?(?:(?-i:[A-Z])[\w'’-]*\s+)+(?-i:[a-z])[\w-]*\s+(?:the|its|their)\s+((?-i:[a-z])[\w-]*)",
    re.IGNORECASE)


def acts_on_another(question: str, context: str) -> bool:
    """True when ``question`` asks the time a named subject does something to a thing ("At
    what time does Saltmere Aquarium feed the stingrays?") and ``context`` (a line with its
    heading and lead) does not name that thing: "14:30 | Shark feed | Reef Tunnel" is the time
    of another animal's feed, a timetable's row per event."""
    asked = _CLOCK_OBJECT.match(question)
    if not asked:
        return False
    wanted = {_stem(w) for w in (asked.group(1), *synonyms(asked.group(1).casefold()))}
    said = {_stem(w) for w in re.findall(r"[A-Za-z][\w'’]*", context) for w in [w, *w.split("-")]}
    return not any(_same(a, b) for a in wanted for b in said)


def asks_clock(question: str) -> bool:
    """True when ``question`` asks a time of day ("At what time ...", "Until what time ...")."""
    return bool(_ASKS_CLOCK.match(question))


def _times_another(question: str, piece: str) -> bool:
    """A table row whose times of day stand only in columns whose headers share no word with
    ``question`` ("Opening hours" for when food is served) gives the times of another thing;
    opening hours give when a place opens or closes."""
    cells = table_cells(piece)
    timed = [header for header, cell in cells[1:] if _CLOCK.search(cell)] if cells else []
    if not timed or (_ASKS_OPEN_OR_CLOSE.match(question) and any(re.search(r"\bhours\b|\bopen", h, re.IGNORECASE) for h in timed)):
        return False
    asked = {_stem(w) for w in re.findall(r"[A-Za-z]{3,}", question)}
    return not any(_same(_stem(w), a) for h in timed for w in re.findall(r"[A-Za-z]{3,}", h) for a in asked)


def _bound_problem(question: str, clause: str, piece: str) -> str:
    noun = bound_noun(question)
    if not noun:
        return ""
    if _counts_noun(question, noun, clause):
        return "another attribute"
    # "The highest value allowed": a number, which a sentence without one does not give.
    if _GENERIC_BOUND.search(question) and not re.search(r"\d", clause):
        return "no value"
    # A bound of another thing: the piece must name the bounded thing, or hold a number in a
    # unit of its measure ("up to 5 GB" states a size).
    if re.search(r"[_.]", noun):
        if noun.casefold() not in piece.casefold():
            return "another attribute"
    else:
        wanted = {_stem(w) for w in (noun, *synonyms(noun.casefold()))}
        said = {_stem(w) for w in re.findall(r"[A-Za-z][\w'’-]*", piece) for w in [w, *re.split(r"[_.-]", w)]}
        if not any(_same(a, b) for a in wanted for b in said) and measure_at(noun, piece) < 0:
            return "another attribute"
    # A table's header names its columns ("Default | Allowed"); the row says what its value is.
    row = piece.strip().split("\n")[-1] if "|" in piece else piece
    if _NOT_A_BOUND.search(row) and not _ASKS_PRACTICE.search(question) and not _states_bound(row):
        return "rival aspect"
    return ""


# "The biggest raised bed": a bound of the thing's size or extent, not of how many there are.
_SIZE_BOUND = lazy_regex(r"\b(?:largest|biggest|smallest|longest|shortest|widest|narrowest|highest|lowest|greatest|heaviest|lightest|tallest)\b", re.IGNORECASE)
_ASKS_COUNT = lazy_regex(r"\b(?:number|count|how\s+many)\b", re.IGNORECASE)
# "What is the most the Business plan can cost?": "the most" (or least) with a clause of its own.
_MOST_CLAUSE = lazy_regex(r"\bthe\s+(most|least)\s+(?=(?:the|a|an|my|your|our|their|its|you|we|they|i|one)\b|(?-i:[A-Z]))", re.IGNORECASE)
# A price or amount given from below ("from £249", "starting at $20") or from above ("up to £90").
_FROM_BELOW = lazy_regex(r"\bfrom\s+[£$€¥]?\s?\d|\bstart(?:s|ing)?\s+(?:at|from)\b|\bat\s+least\b|\bminimum\b", re.IGNORECASE)
_FROM_ABOVE = lazy_regex(r"\bup\s+to\b|\bat\s+most\b|\bmaximum\b|\bno\s+more\s+than\b", re.IGNORECASE)


def _counts_noun(question: str, noun: str, clause: str) -> bool:
    """``question`` asks the size of the biggest (smallest, longest) ``noun`` and every number
    of ``clause`` counts ``noun``s ("may rent at most 2 raised beds"): a bound of how many."""
    if not _SIZE_BOUND.search(question) or _ASKS_COUNT.search(question):
        return False
    numbers = re.findall(r"(?<![\w.,])\d[\d.,]*", clause)
    counted = re.findall(rf"(?<![\w.,])\d[\d.,]*\s+(?:[A-Za-z-]+\s+){{0,2}}?{re.escape(_stem(noun))}\w*", clause, re.IGNORECASE)
    return bool(numbers) and len(counted) == len(numbers)


def _most_problem(question: str, piece: str) -> str:
    """``"rival aspect"`` when ``question`` asks the most (least) a thing can be ("the most the
    Business plan can cost") and ``piece`` gives its value only from the other side ("Business
    | from £249"); a range gives both."""
    asked = _MOST_CLAUSE.search(question)
    if not asked:
        return ""
    row = piece.strip().split("\n")[-1]
    values = " | ".join(row.split("|")[1:]) if "|" in row else row  # a row's label names the item
    if re.search(r"\b(?:cost|costs|pay|charge|charged|spend)\b", question[asked.end():], re.IGNORECASE) and not _MONEY.search(values):
        return "no value"  # the most a thing can cost: an amount of money
    rival, own = (_FROM_BELOW, _FROM_ABOVE) if asked.group(1).casefold() == "most" else (_FROM_ABOVE, _FROM_BELOW)
    if rival.search(row) and not own.search(row) and not re.search(r"\d\s*(?:–|—|-|to)\s*[£$€¥]?\d", row):
        return "rival aspect"
    return ""


# "How long does the crossing take?": a duration, which "every 40 minutes" (how often) is not.
_ASKS_DURATION = lazy_regex(r"^\W*(?:(?:so|and|but)\s+)?how\s+long\s+(?:does|do|did|will|would|is|are|was|were)\b", re.IGNORECASE)
# "For how many nights can a pitch be booked?": a span of time, which a lead time ("bookings
# open 6 weeks ahead", "48 hours' notice") is not, unless the question asks how early.
_ASKS_SPAN = lazy_regex(r"\bhow\s+long\b|\bhow\s+many\s+(?:minutes|hours|days|nights|weeks|months|years)\b", re.IGNORECASE)
_ASKS_LEAD = lazy_regex(r"\b(?:ahead|advance|beforehand|before|notice|prior|early|earliest|latest|until|deadline)\b", re.IGNORECASE)
_LEAD_TIME = lazy_regex(
    r"(?<![\w.])\d[\d.,]*\s*(?:minutes?|hours?|days?|weeks?|months?|years?)['’]?\s+(?:ahead|in\s+advance|beforehand|before|notice|prior)\b", re.IGNORECASE)
_EVERY = lazy_regex(r"\bevery\s+(?:\d[\d.,]*\s*|few\s+|other\s+)?[a-z]+", re.IGNORECASE)
_MONEY = lazy_regex(r"[£$€¥]|\b(?:free|\d[\d.,]*\s*(?:pounds|dollars|euros|pence|cents|p))\b", re.IGNORECASE)
# "The coursework word limit": a limit on a count of the noun before "limit" ("3,000 words"),
# unless that noun names a measure of its own ("time limit", "speed limit").
_COUNT_LIMIT = lazy_regex(r"\b([a-z]+)\s+(?:limit|cap|maximum|allowance)\b", re.IGNORECASE)
_MEASURE_NOUNS = frozenset(
    "time speed age weight size credit rate memory height length width depth spending budget price cost fee temperature pressure volume data "
    "bandwidth storage upload download usage capacity stay term withdrawal deposit transfer payment cash loan overdraft borrowing daily "
    "monthly annual yearly weekly hourly the a an upper lower".split())
# The words of that list that qualify a limit but name no measure of their own.
_NOT_MEASURES = frozenset("daily monthly annual yearly weekly hourly the a an upper lower".split())


def _count_limit_problem(question: str, clause: str) -> str:
    """``"another attribute"`` when ``question`` asks a limit on a count ("the coursework word
    limit") and every number of ``clause`` counts something else ("by 17:00 on the due
    date", "within 15 working days")."""
    asked = _COUNT_LIMIT.search(question)
    if not asked or asked.group(1).casefold() in _MEASURE_NOUNS:
        return ""
    numbers = re.findall(r"(?<![\w.,:])\d[\d.,:]*", clause)
    noun = re.escape(_stem(asked.group(1)))
    counted = re.findall(rf"(?<![\w.,:])\d[\d.,]*[\s-]+(?:[A-Za-z-]+\s+)?{noun}\w*", clause, re.IGNORECASE)
    return "another attribute" if numbers and not counted else ""


_STATED_BOUND = lazy_regex(
    r"\b(?:max|maximum|min|minimum|up\s+to|at\s+(?:most|least)|no\s+more\s+than|no\s+less\s+than|limit\w*|capped|ceiling|floor)\b"
    r"|(?<![\d.,])\d[\d.,]*\s*(?:–|—|-|to)\s*\d", re.IGNORECASE)


def _states_bound(clause: str) -> bool:
    """The clause gives a bound besides its advised value ("default 60, maximum 240")."""
    return bool(_STATED_BOUND.search(clause))


def _another_kind(thing: list[str], context: str) -> bool:
    """``context`` names the head noun of ``thing`` ("walls" of "practice walls") but not each
    word that says which kind ("a 15 m lead wall"); a context without the noun ("Brackwater is
    18 m deep" for the water) is left to the other checks."""
    said = {_stem(w) for w in re.findall(r"[A-Za-z][\w'’-]*", context) for w in [w, *w.split("-")]}

    def named(word: str) -> bool:
        return any(_same(_stem(word), s) for s in said)
    return len(thing) > 1 and named(thing[-1]) and not all(named(w) for w in thing[:-1])


def _row_label_extent(question: str, piece: str) -> str:
    """``"another attribute"`` when ``question`` asks one extent ("how tall is the screen") and
    ``piece`` is a table row whose label names only another ("Screen width, largest auditorium
    | 18.2 m"): the label says what the row's cells measure, though a comma in it cuts it off
    the value's clause."""
    extent = _ASKS_EXTENT.match(question)
    cells = table_cells(piece)
    if not extent or not cells:
        return ""
    label = cells[0][1]
    words = dict(_EXTENTS)[extent.group(1).casefold()]
    return "another attribute" if _ANY_EXTENT.search(label) and not re.search(rf"\b(?:{words})\b", label, re.IGNORECASE) else ""


def _advised_bound(question: str, piece: str) -> str:
    """``"rival aspect"`` when ``question`` asks a bound of a measure ("the minimum age") and
    the clauses of ``piece`` naming that measure give it only as advice ("recommended for ages
    7 and over"), while any bound the piece states is of another measure ("minimum height
    1.2 m"): a recommended age is no minimum age."""
    noun = bound_noun(question)
    if not noun or _ASKS_PRACTICE.search(question):
        return ""
    wanted = {_stem(w) for w in (noun, *synonyms(noun.casefold()))}
    row = piece.strip().split("\n")[-1] if "|" in piece else piece
    clauses = [c for c in re.split(r"[;|]|,\s", row) if c.strip()]

    def names(clause: str, nouns: set[str]) -> bool:
        return any(_same(_stem(w), n) for w in re.findall(r"[A-Za-z]+", clause) for n in nouns)
    own = [c for c in clauses if names(c, wanted)]
    if not own or any(_states_bound(c) for c in own) or not any(_NOT_A_BOUND.search(c) for c in own):
        return ""
    others = {_stem(w) for w in _MEASURE_NOUNS - _NOT_MEASURES - {noun.casefold()}}
    return "rival aspect" if all(names(c, others) for c in clauses if _states_bound(c)) else ""


# A question written as keywords, no question word, ending in "time" or "duration" ("Murmur
# R full charge time", "ferry crossing duration"): it asks a time as "What is the ... time?" does.
_KEYWORD_TIME = lazy_regex(
    r"^(?!\W*(?:what|which|who|whom|whose|where|when|why|how|is|are|was|were|do|does|did|can|could|should|will|would|may|must|has|have)\b)"
    r"[^?.!]*\b(?:time|duration)\s*\??\s*$", re.IGNORECASE)
