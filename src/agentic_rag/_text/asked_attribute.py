"""What a question asks about its subject, read from its wording.

"How many employees does Acme Robotics have?" asks for one attribute (employees) of one
subject (Acme Robotics). A sentence that holds a number is its answer only when the number is
that attribute's, of that subject: "Acme Robotics has 3 factories" gives another attribute,
"Cobalt Foods has 850 employees" another subject's. This module reads, from the question
alone:

* the **attribute** and the **subject** (:func:`read_attribute`): "the ATTRIBUTE of
  SUBJECT", "SUBJECT's ATTRIBUTE", "how many ATTRIBUTE does SUBJECT ...", "where is SUBJECT
  headquartered";
* the **aspects** it asks for that have rivals (:func:`asked_aspects`): a maximum (a
  minimum is its rival), a stage of a life cycle (added, deprecated, removed: each the
  others' rival), one end of a connection (the server or the client). A near miss holds the
  rival word where the answer holds the asked one;
* the **term** a definition question asks to have defined (:func:`defined_term`): "What is
  a warm replica?" wants a sentence whose defined term is "warm replica", not "cold
  storage".

The checks that read a sentence against these are in
:mod:`agentic_rag._answering.attributes`.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from agentic_rag._regex import LazyRegex, lazy_regex
from agentic_rag._text.answer_slots import SlotKind, is_name_noun, read_slot

__all__ = ["Aspect", "AskedAttribute", "asked_aspects", "aspects_in", "defined_term", "framed_words", "implied_bounds", "read_attribute", "synonyms", "with_synonyms", "without_aspect_words", "words_of"]


class Aspect(str, enum.Enum):
    """A side of an attribute that a near-miss sentence gives the other side of."""

    MAXIMUM = "maximum"
    MINIMUM = "minimum"
    ADDED = "added"
    DEPRECATED = "deprecated"
    REMOVED = "removed"
    SERVER = "server"
    CLIENT = "client"


# How a question asks for each aspect, and how a text states it (a text says "up to 250" or
# "at least 1" where a question says "the maximum" or "the smallest"). "Lower" alone is a
# verb as often ("raise or lower this value"): only a lower bound or limit is a minimum. Plain words only: the
# "max" of ``max_connections`` is part of a name, not a bound (``\b`` does not split at "_").
_ASKED = {
    # "The most seats": "most" before a plural noun (not "the most famous", "the most common
    # errors") is an amount, the largest one.
    # "By what age at the latest": the latest time is a time's upper bound ("the latest
    # version" names a release, not a bound).
    Aspect.MAXIMUM: r"max|maximum|maximal|upper|largest|longest|highest|biggest|greatest|at\s+most|up\s+to|at\s+the\s+latest|"
                    r"the\s+most(?=\s+(?:i|you|we|one|it|that)\b)|the\s+most(?=\s+(?![a-z]+(?:ous|ss|us|is)\b)[a-z]+[^\Ws]s\b)",
    Aspect.MINIMUM: r"min|minimum|minimal|lower\s+(?:bound|limit)|smallest|shortest|lowest|fewest|at\s+least|the\s+least|at\s+the\s+earliest",
    Aspect.ADDED: r"added|introduced|new\s+in|first\s+(?:appeared|supported|available|shipped)|(?<=did\s)(?:\w+\s+){0,6}?(?:add|introduce)",
    Aspect.DEPRECATED: r"deprecated|deprecates|(?<=did\s)(?:\w+\s+){0,6}?deprecate",
    Aspect.REMOVED: r"removed|removes|dropped|drops|(?<=did\s)(?:\w+\s+){0,6}?(?:remove|drop|retire|discontinue)|shut\s+down|discontinued|went\s+away|going\s+away|(?:get|got|gotten)\s+rid\s+of|retired?|sunset|phased?\s+out",
    Aspect.SERVER: r"servers?",
    Aspect.CLIENT: r"clients?",
}
# "120 m above the surface", "40 m below sea level": a position, not a bound.
_PLACE = r"(?!\s+(?:the|sea|ground|street)\b)"
_STATED = {
    Aspect.MAXIMUM: r"max|maximum|maximal|upper|largest|longest|highest|biggest|greatest|at\s+most|up\s+to|no\s+more\s+than|or\s+(?:less|fewer)|ceiling|capped|"
                    r"(?:less|smaller|fewer|shorter|lower)\s+than|below" + _PLACE + r"|limited\s+to|exceed\w*|as\s+(?:large|high|long|many|much|big|great)\s+as|"
                    r"at\s+the\s+latest|(?:no|not)\s+later\s+than|or\s+(?:lower|smaller|below|earlier)",
    Aspect.MINIMUM: r"min|minimum|minimal|lower\s+(?:bound|limit)|smallest|shortest|lowest|fewest|at\s+least|no\s+less\s+than|or\s+more|floor|"
                    r"(?:more|larger|greater|longer|higher)\s+than|above" + _PLACE + r"|at\s+the\s+earliest|(?:no|not)\s+earlier\s+than|or\s+(?:greater|higher|above|later)",
    Aspect.ADDED: r"add|adds|added|adding|introduc\w*|new|versionadded",
    Aspect.DEPRECATED: r"deprecat\w*|versiondeprecated",
    Aspect.REMOVED: r"remov\w*|drop|drops|dropped|dropping|shut\s+down|discontinued|no\s+longer|versionremoved|retir(?:e|ed|es|ing)|sunset\w*|phased?\s+out|"
                    r"end\s+of\s+life|withdrawn",
    Aspect.SERVER: r"servers?",
    Aspect.CLIENT: r"clients?",
}
_ASKED_PATTERNS = {a: lazy_regex(rf"\b(?:{p})\b", re.IGNORECASE) for a, p in _ASKED.items()}
_STATED_PATTERNS = {a: lazy_regex(rf"\b(?:{p})\b", re.IGNORECASE) for a, p in _STATED.items()}
#: Each aspect's rivals: a sentence that states only a rival states another thing.
RIVALS = {
    Aspect.MAXIMUM: (Aspect.MINIMUM,),
    Aspect.MINIMUM: (Aspect.MAXIMUM,),
    Aspect.ADDED: (Aspect.DEPRECATED, Aspect.REMOVED),
    Aspect.DEPRECATED: (Aspect.ADDED, Aspect.REMOVED),
    Aspect.REMOVED: (Aspect.ADDED, Aspect.DEPRECATED),
    Aspect.SERVER: (Aspect.CLIENT,),
    Aspect.CLIENT: (Aspect.SERVER,),
}


def asked_aspects(question: str) -> frozenset[Aspect]:
    """The aspects ``question`` asks for ("the maximum", "which version added"); a question
    asking for both bounds ("shortest and longest") asks for a range."""
    return frozenset(a for a, pattern in _ASKED_PATTERNS.items() if pattern.search(question))


# An amount asked with "can" asks for the most there can be ("how many seats can an account
# have", "how long can a job run"); with "must" or "need", the least there must be ("how long
# must a password be"). A sentence stating only the other bound answers neither.
_AMOUNT_ASKED = r"^\s*(?:(?:so|and|but)\s+)?how\s+(?:many|much|long|large|big|far|high|fast|heavy|old|often|wide|deep)\b"
_CONDITION = lazy_regex(r"\b(?:before|until|unless|so\s+that|in\s+order\s+(?:for|to)|for\s+(?:it|them|the\s+\w+)\s+to)\b", re.IGNORECASE)
_IMPLIED = {
    Aspect.MAXIMUM: lazy_regex(rf"{_AMOUNT_ASKED}.*\b(?:can|could|may|will|is\s+able\s+to|are\s+able\s+to)\b", re.IGNORECASE),
    Aspect.MINIMUM: lazy_regex(rf"{_AMOUNT_ASKED}.*\b(?:must|need|needs|have\s+to|has\s+to|required|requires?)\b", re.IGNORECASE),
}


def implied_bounds(question: str) -> frozenset[Aspect]:
    """The bound an amount question asks for without naming it ("How many seats can a Starter
    account have?": the maximum), ``frozenset()`` when it names one or implies none. A
    sentence stating only the other bound does not answer it; one stating no bound may."""
    if asked_aspects(question) & {Aspect.MAXIMUM, Aspect.MINIMUM}:
        return frozenset()
    # "How many students does a class need before it will run?": the clause of a condition
    # ("before it will run", "for it to go ahead") says when, not what the thing can hold.
    asked = _CONDITION.split(question, maxsplit=1)[0]
    found = frozenset(a for a, pattern in _IMPLIED.items() if pattern.search(asked))
    return found if len(found) == 1 else frozenset()


def aspects_in(text: str) -> frozenset[Aspect]:
    """The aspects ``text`` states ("up to 250 seats": the maximum)."""
    return frozenset(a for a, pattern in _STATED_PATTERNS.items() if pattern.search(text))


@dataclass(frozen=True, slots=True)
class AskedAttribute:
    """An attribute of a subject a question asks for.

    Args:
        words: The attribute's words, case-folded ("land", "area"); empty when the question
            names none but its aspects ("the smallest allowed value").
        subject: The subject's words, case-folded, without articles ("acme", "robotics").
        kind: The word naming what kind of thing the subject is, when the question sets
            the subject apart from its verb and names it by an ordinary word ("primary" of
            "the default max_connections on a Tallow DB primary", "server" of "the
            development server"): what tells it from a sibling its names also cover (a
            replica), which a sentence about it names; ``()`` otherwise, and for a word
            naming a kind of API thing ("the timeout parameter": the name says it).
        verb: The verb that ties the attribute to the subject when the question closes with
            it ("listen" of "Which port does Korvex Server listen on?"), ``""`` otherwise: a
            sentence with that verb whose own subject is another thing ("The agent listens
            on port 7421") states another thing's attribute.
    """

    words: tuple[str, ...]
    subject: tuple[str, ...]
    kind: tuple[str, ...] = ()
    verb: str = ""

    @property
    def head(self) -> str:
        """The word the attribute is named by: its last word ("area" of "land area")."""
        return self.words[-1] if self.words else ""


# A word starts where its run of word characters and inner marks starts: a run holds no
# other match (one found inside it extends back to its start), and a search restarted at each
# mark of a long run of dots or hyphens would rescan the run to its end each time.
_WORD = lazy_regex(r"(?<![\w'’.-])[\w'’.-]*\w")
_ARTICLES = frozenset({"the", "a", "an"})
# Words that name no attribute of their own: "the smallest allowed value" asks for a bound,
# "the total revenue" for revenue.
# "The name of the entry point", "the ID of the check", "the status of the support": the value
# itself, which its sentence need not call a name, an ID or a status ("the default value": the
# slot reads whether a default is stated).
_GENERIC = frozenset(
    "value values number amount figure setting settings allowed permitted possible accepted supported valid total overall "
    "current official exact actual usual typical numeric name names id identifier title status equivalent counterpart "
    "alternative replacement way default version versions release releases year date day month time".split()
)
_BE = r"(?:'s|’s|\s+(?:is|are|was|were))"
_AUX = r"(?:do|does|did|can|could|will|would|should|must|is|are|was|were|has|have|had)"
# The patterns whose subject stands apart from any verb hold an empty group ``clean``.
_PRONOUN = r"(?:i|you|we|they|one|it|he|she|my|your|our|their|its|his|her|me|us|them)"
_PARTICLE = r"(?:\s+(?:on|to|in|at|for|with|from|up|out|off|over|by|into))?"
_ATTRIBUTE_QUESTIONS = (
    # "What is the land area of Veloria?", "Who is the chief executive of Brightline Systems?"
    lazy_regex(rf"^(?P<clean>)(?:what|which|who){_BE}\s+(?:the|a|an)\s+(?P<attribute>[\w -]+?)\s+(?:of|for|on|in)\s+(?P<subject>.+)$", re.IGNORECASE),
    # "Default job timeout in Pipewright 4 - what is it?": the thing named first.
    lazy_regex(r"^(?P<clean>)(?:the\s+)?(?P<attribute>[\w -]+?)\s+(?:of|for|on|in)\s+(?P<subject>[^—–?]+?)\s*(?:—|–|-{1,2}|:)\s*what(?:'s|’s|\s+is|\s+are|\s+was)\s+(?:it|they|that)$",
               re.IGNORECASE),
    # "What was Acme Robotics' total revenue?", "Where is Kestrel Coffee's European office?"
    lazy_regex(rf"^(?P<clean>)(?:what|which|who|where){_BE}\s+(?:the\s+)?(?P<subject>(?:[\w.-]+\s+){{0,3}}?[\w.-]+)(?:'s|’s|'|’)\s+(?P<attribute>[^'’]+)$", re.IGNORECASE),
    # "What write throughput can a Tallow DB primary sustain?", "Which port does the Korvex
    # Agent listen on?": the subject between the auxiliary and the closing verb (not "I",
    # "you": "what range should I expect" asks what the asker meets).
    lazy_regex(rf"^(?P<clean>)(?:what|which)\s+(?P<attribute>[\w-]+(?:\s+[\w-]+){{0,2}}?)\s+{_AUX}\s+(?!{_PRONOUN}\b)"
               rf"(?P<subject>[\w.'’-]+(?:\s+(?!{_AUX}\b|{_PRONOUN}\b)[\w.'’-]+){{0,5}}?)\s+(?P<verb>[a-z]+){_PARTICLE}$", re.IGNORECASE),
    # "What's the most seats a Starter account can have?", "What's the longest retention period
    # Korvex Server supports?": the subject, an article or a name, opens a clause on the thing.
    lazy_regex(rf"^(?P<clean>)(?:what|which){_BE}\s+(?:the\s+)?(?P<attribute>[\w-]+(?:\s+[\w-]+){{0,2}}?)\s+(?:that\s+)?(?=(?:a|an|the)\s|(?-i:[A-Z]))"
               rf"(?P<subject>[\w.'’-]+(?:\s+(?!{_AUX}\b|{_PRONOUN}\b)[\w.'’-]+){{0,5}}?)(?:\s+{_AUX})?\s+(?P<verb>[a-z]+){_PARTICLE}$", re.IGNORECASE),
    # "What does the Lumo X5 weigh?", "How fast can the X5 climb?": the verb is the attribute
    # (not a verb that only asks what a thing is, does or means).
    lazy_regex(rf"^(?P<clean>)what\s+(?:does|do|did)\s+(?!{_PRONOUN}\b)(?P<subject>[\w'’-]+(?:\s+(?!{_AUX}\b)[\w'’-]+){{0,5}}?)\s+"
               r"(?P<attribute>(?!(?:do|mean|stand|refer|look|need|require|want|say|contain|include|support|cover|offer|provide|use|have|get|make|happen|"
               r"return|expect|accept|take)\b)(?-i:[a-z]+))$", re.IGNORECASE),
    lazy_regex(rf"^(?P<clean>)how\s+(?:fast|far|high|quickly)\s+{_AUX}\s+(?!{_PRONOUN}\b)(?P<subject>[\w'’-]+(?:\s+(?!{_AUX}\b)[\w'’-]+){{0,5}}?)\s+"
               r"(?P<attribute>(?![a-z]{3,}ly$)(?-i:[a-z]+))$", re.IGNORECASE),
    # "On how many phones can a Tallow family plan be used?": the thing's own noun (plan) too.
    lazy_regex(rf"^(?P<clean>)(?:(?:on|in|at|for|to|with|from|by)\s+)?how\s+many\s+(?P<attribute>[\w-]+)\s+(?:can|could|may|will|must|should)\s+(?!{_PRONOUN}\b)"
               r"(?P<subject>[\w.'’-]+(?:\s+[\w.'’-]+){0,5}?)\s+be\s+(?P<verb>(?-i:[a-z]+ed))$", re.IGNORECASE),
    # "How many employees does Acme Robotics have?", "How many people work at Brightline?"
    lazy_regex(rf"^how\s+(?:many|much)\s+(?P<attribute>[\w-]+(?:\s+[\w-]+)?)\s+{_AUX}\s+(?P<subject>.+)$", re.IGNORECASE),
    lazy_regex(r"^how\s+many\s+(?P<attribute>[\w-]+)\s+(?:work|live|are|were)\s+(?:at|in|for|on)\s+(?P<subject>.+)$", re.IGNORECASE),
    # "Where is Acme Robotics headquartered?": the participle names the attribute.
    lazy_regex(r"^(?P<clean>)where\s+(?:is|are)\s+(?P<subject>.+?)\s+(?P<attribute>headquartered|located|based|registered)$", re.IGNORECASE),
)
# A phrase closing a question that says when or how, not what: "which port does it listen
# on by default", "what version does it run today", "what output does it have with its new
# boiler".
_CLOSING_PHRASE = lazy_regex(r"\s+(?:by\s+default|out\s+of\s+the\s+box|today|now|currently|nowadays|these\s+days|at\s+the\s+moment|"
                             r"with\s+(?:its|the|their)\s+new\s+[^?]+)$", re.IGNORECASE)
# Words naming where a thing is said, not the thing: "the GeoDjango docs recommend".
_SOURCES = frozenset("docs doc documentation manual guide tutorial reference page pages faq readme changelog notes site website book article spec".split())
# A name in a subject: capitals, digits or a joining mark ("Tallow", "DB", "X5", "requests.get").
_NAME_WORD = lazy_regex(r"[A-Z]|\d|[_./]")
# "the upload size limit on the Pro plan per key", "the default page size these days": the
# attribute ends where a phrase or a clause opens (at the start of the white space before it,
# never from each space of a run: see ``_WORD``).
_ATTRIBUTE_END = lazy_regex(
    r"(?<!\s)\s+(?:for|in|on|at|per|of|with|by|during|from|when|if|before|after|that|which|who|these\s+days|nowadays|today|now)\b.*$", re.IGNORECASE
)
_NOT_A_THING = lazy_regex(r"\b(?:to|way|how)\b", re.IGNORECASE)
# "How many times does it retry", "how many seconds is the interval": a unit, not the
# attribute the sentence must name.
_COUNTED = frozenset(
    "times ways kinds types seconds minutes hours days weeks months years bytes kilobytes megabytes gigabytes characters".split()
)


@lru_cache(maxsize=1024)
def read_attribute(question: str) -> AskedAttribute | None:
    """Read the attribute and the subject ``question`` asks about, ``None`` when it has no
    such shape (a how-to, a yes/no question, a version or name asked for in other words).

    Args:
        question: A question or one part of a compound question (its asked clause).

    Returns:
        The attribute's words (without generic ones) and the subject's.
    """
    names_kind = read_slot(question).kind is SlotKind.NAME
    for match in _matches(_ATTRIBUTE_QUESTIONS, _CLOSING_PHRASE.sub("", " ".join(question.split()).rstrip("?.! "))):
        attribute = _ATTRIBUTE_END.sub("", match.group("attribute"))
        if _NOT_A_THING.search(attribute):
            continue  # "the easiest way to get a copy of ...": a how-to in other words
        if names_kind and any(match.re is pattern.compiled for pattern in _ATTRIBUTE_QUESTIONS[3:5]):
            continue  # "which exception does it raise": "ValueError" need not say "exception"
        if any(match.re is pattern.compiled for pattern in _ATTRIBUTE_QUESTIONS[3:7]) and not _NAME_WORD.search(match.group("subject")):
            # "What timestamp format does the default configuration use?": a subject with no
            # name is no entity whose attribute a sentence must name.
            continue
        words = tuple(w for w in words_of(attribute) if w not in _ARTICLES and w not in _GENERIC and not _ASKED_ANY.fullmatch(w))
        if words and words[-1] in _COUNTED:
            words = ()  # "how many times does it retry": the verb, not "times", is the attribute
        subject = tuple(w for w in words_of(match.group("subject")) if w not in _ARTICLES)
        if subject:
            kind = ()
            if "clean" in match.re.groupindex:
                # The subject's own clause ("the timeout of requests.get": "timeout"), its
                # ordinary words only: the names are checked as names.
                own = re.split(r"\s+(?:of|for|in|on|at|with|from|by|when|if|before|after|during|per)\s+", match.group("subject"))[0]
                last = own.split()[-1] if own.split() else ""
                noun = words_of(last)[0] if words_of(last) else ""
                if noun and not _NAME_WORD.search(last) and noun not in _ARTICLES | _GENERIC | _SOURCES and not is_name_noun(noun):
                    kind = (noun,)
            return AskedAttribute(words, subject, kind, (match.groupdict().get("verb") or "").casefold())
    return None


def _matches(patterns: tuple[LazyRegex, ...], question: str) -> Iterator[re.Match[str]]:
    """The matches of ``patterns`` on ``question`` (white space folded, its final mark
    dropped), in pattern order."""
    text = " ".join(question.split()).rstrip("?.! ")
    return (m for m in (p.match(text) for p in patterns) if m is not None)


_ASKED_ANY = lazy_regex("|".join(f"(?:{p})" for p in _ASKED.values()), re.IGNORECASE)
_ASKED_BOUND = lazy_regex(rf"\b(?:{_ASKED[Aspect.MAXIMUM]}|{_ASKED[Aspect.MINIMUM]})\b", re.IGNORECASE)


# The words that frame a question rather than name what it asks about: the amount word of
# "how many / how long" (a text says "six cities", "14 km"), the kind of value in "which
# version / what year" (a text says "2.4.0", "1998"), modal verbs, "value", "allowed",
# "roughly", "overall". A text states the value without them.
_FRAMING = lazy_regex(
    r"(?<=\bhow\s)(?:many|much|long|often|old|far|big|large|fast|frequently|soon|heavy|tall|high|wide|deep)\b|"
    r"\b(?:will|may|might|value|values|allowed|permitted|roughly|approximately|overall|currently|nowadays)\b",
    re.IGNORECASE,
)
_KIND_OF_VALUE = lazy_regex(r"\b((?:which|what)\s+(?:[\w-]+\s+){0,2}?)(?:version|release|year|date)s?\b", re.IGNORECASE)
_OUT_OF_THE_BOX = lazy_regex(r"\bout\s+of\s+the\s+box\b", re.IGNORECASE)


def framed_words(question: str) -> str:
    """``question`` without the words that frame it ("how *many* cities", "which *version*",
    "the smallest *allowed value*", "*roughly* how many"), "out of the box" said as "by
    default": what a sentence stating the answer need not repeat, for its coverage."""
    text = _KIND_OF_VALUE.sub(lambda m: m.group(1), _OUT_OF_THE_BOX.sub(" by default ", " ".join(question.split())))
    return " ".join(_FRAMING.sub(" ", text).split())


def without_aspect_words(question: str) -> str:
    """``question`` without the words asking for a bound ("the *smallest* payout"): a text
    states the bound in its own words ("the minimum payout", "at least 10")."""
    return " ".join(_ASKED_BOUND.sub(" ", question).split())


# The words a text may name an attribute by instead of the question's ("a staff of 340" for
# how many people work there, "Established: 1998" for when it was founded).
_SYNONYMS = (
    frozenset({"people", "staff", "employees", "employ", "employs", "workforce", "headcount", "workers"}),
    frozenset({"population", "people", "inhabitants", "residents", "live", "lives"}),
    frozenset({"headquartered", "headquarters", "based"}),
    frozenset({"founded", "established", "incorporated"}),
    frozenset({"revenue", "sales", "turnover"}),
    frozenset({"price", "cost", "costs"}),
)


def with_synonyms(text: str) -> str:
    """``text`` followed by the other words it may name its attributes by ("Employees |
    12,400" also says "people" and "staff"), for a coverage that reads "how many people
    does it employ" as asked in the text's words; ``text`` itself when it holds none."""
    words = {_without_possessive(w.casefold()) for w in set(_WORD.findall(text))}  # words_of, each word once
    extra = sorted({w for group in _SYNONYMS if words & group for w in group} - words)
    return f"{text}\n{' '.join(extra)}" if extra else text


def synonyms(word: str) -> frozenset[str]:
    """The other words a text may name the attribute ``word`` by (``frozenset()`` for most)."""
    folded = word.casefold()
    return frozenset(w for group in _SYNONYMS if folded in group for w in group if w != folded)


def words_of(text: str) -> tuple[str, ...]:
    """``text``'s words, case-folded, a possessive's "'s" dropped."""
    return tuple(_without_possessive(w.casefold()) for w in _WORD.findall(text))


def _without_possessive(word: str) -> str:
    # A word ends in a letter or digit (``_WORD``), and no character folds to a quote: an
    # "'s" (or "’s") at its end is all there is to drop.
    return word[:-2] if word.endswith(("'s", "’s")) else word


_DEFINED_TAIL = r"defined(?:\s+(?:in|by|within|under|for|at|on)\s+.+)?$"
_DEFINITION_QUESTIONS = (
    # "What is an associate member of Rivermead Rowing Club?": "of" a name is a scope too.
    lazy_regex(r"^what\s+(?:is|are)\s+(?:a|an)\s+(?P<term>[\w -]+?)(?:\s+(?:in|within|for|on)\s+.+|\s+of\s+(?-i:[A-Z]).+)?$", re.IGNORECASE),
    lazy_regex(r"^what(?:'s|’s|\s+is|\s+are)\s+the\s+(?P<term>[\w -]+?)\s+(?:in|within)\s+.+$", re.IGNORECASE),
    lazy_regex(r"^what\s+does\s+(?:a\s+|an\s+|the\s+)?(?P<term>[\w -]+?)\s+mean(?:\s+(?:in|for|at|on)\s+.+)?$", re.IGNORECASE),
    lazy_regex(r"^what\s+does\s+.+?\s+mean\s+by\s+(?:a\s+|an\s+|the\s+)?(?P<term>[\w -]+)$", re.IGNORECASE),
    # "What does the club mean when it declares a race void?": the word it applies, defined.
    lazy_regex(r"^what\s+does\s+.+?\s+mean\s+when\s+(?:it|they|you|we)\s+(?:declares?|calls?|marks?|deems?|rules?|labels?)\s+"
               r"(?:(?:a|an|the)\s+)?[\w-]+\s+(?P<term>[\w-]+)$", re.IGNORECASE),
    lazy_regex(r"^what\s+is\s+meant\s+by\s+(?:a\s+|an\s+|the\s+)?(?P<term>[\w -]+)$", re.IGNORECASE),
    # "What are accounts payable in Ledgerly?": a term of plain words, with no article,
    # defined within a scope ("on Saltmarsh Ferries": a name after "on").
    lazy_regex(r"^what\s+(?:is|are)\s+(?P<term>(?-i:[a-z]+)(?:\s+(?-i:[a-z]+)){1,2})\s+(?:(?:in|within)\s+.+|on\s+(?-i:[A-Z]).+)$", re.IGNORECASE),
    # "How does Cobble Street Growers define an active member?"
    lazy_regex(r"^how\s+(?:does|do|did)\s+.+?\s+define\s+(?:a\s+|an\s+|the\s+)?(?P<term>[\w -]+)$", re.IGNORECASE),
    # "How is an active member defined in the club's rules?"
    lazy_regex(r"^how\s+(?:is|are)\s+(?:a\s+|an\s+|the\s+)?(?P<term>[\w -]+?)\s+" + _DEFINED_TAIL, re.IGNORECASE),
)


# A definition asked within a scope said around it ("Under Acme's rules, what is a ...?",
# "What is a ..., according to Acme?"), and quote marks around the term ("define a 'flash'").
_SCOPE_BEFORE = lazy_regex(r"^\W*(?:under|in|within|according\s+to)\s+[^,?]+,\s*(?=(?:what|how)\b)", re.IGNORECASE)
_SCOPE_AFTER = lazy_regex(r",\s*(?:according\s+to|as\s+(?:defined|used)\s+by)\s+[^,?]+(?=[?.!]?\s*$)", re.IGNORECASE)
_QUOTE = lazy_regex(r"(?<!\w)['‘\"“]|['’\"”](?!\w)")


@lru_cache(maxsize=1024)
def defined_term(question: str) -> tuple[str, ...]:
    """The words of the term a definition question asks about ("What is a cold replica in
    Loglake?": ``("cold", "replica")``), ``()`` for any other question.

    Args:
        question: A question or one part of a compound question (its asked clause).
    """
    for match in _matches(_DEFINITION_QUESTIONS, _QUOTE.sub("", _SCOPE_AFTER.sub("", _SCOPE_BEFORE.sub("", question.strip())))):
        term = tuple(w for w in words_of(match.group("term")) if w not in _ARTICLES)
        # "the maximum value allowed for X in Y" asks for a value, not a definition; a term
        # asked with "defined" is one whatever its words ("How is peak time defined?").
        if match.re.pattern.endswith(_DEFINED_TAIL) or not any(w in _GENERIC or w in ("of", "for") or _ASKED_ANY.fullmatch(w) for w in term):
            return term
    return ()
