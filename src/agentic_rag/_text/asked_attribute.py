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

__all__ = ["Aspect", "AskedAttribute", "asked_aspects", "aspects_in", "defined_term", "read_attribute", "synonyms", "words_of"]


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
    Aspect.MAXIMUM: r"max|maximum|maximal|upper|largest|longest|highest|biggest|greatest|at\s+most|up\s+to|the\s+most(?=\s+(?:i|you|we|one|it|that)\b)",
    Aspect.MINIMUM: r"min|minimum|minimal|lower\s+(?:bound|limit)|smallest|shortest|lowest|fewest|at\s+least|the\s+least",
    Aspect.ADDED: r"added|introduced|new\s+in|first\s+(?:appeared|supported|available)",
    Aspect.DEPRECATED: r"deprecated",
    Aspect.REMOVED: r"removed|dropped|shut\s+down|discontinued|went\s+away|going\s+away",
    Aspect.SERVER: r"servers?",
    Aspect.CLIENT: r"clients?",
}
_STATED = {
    Aspect.MAXIMUM: r"max|maximum|maximal|upper|largest|longest|highest|biggest|greatest|at\s+most|up\s+to|no\s+more\s+than|or\s+(?:less|fewer)|ceiling|capped|"
                    r"(?:less|smaller|fewer|shorter|lower)\s+than|below|limited\s+to|exceed\w*|as\s+(?:large|high|long|many|much|big|great)\s+as",
    Aspect.MINIMUM: r"min|minimum|minimal|lower\s+(?:bound|limit)|smallest|shortest|lowest|fewest|at\s+least|no\s+less\s+than|or\s+more|floor|"
                    r"(?:more|larger|greater|longer|higher)\s+than|above",
    Aspect.ADDED: r"add|adds|added|adding|introduc\w*|new|versionadded",
    Aspect.DEPRECATED: r"deprecat\w*|versiondeprecated",
    Aspect.REMOVED: r"remov\w*|drop|drops|dropped|dropping|shut\s+down|discontinued|no\s+longer|versionremoved",
    Aspect.SERVER: r"servers?",
    Aspect.CLIENT: r"clients?",
}
_ASKED_PATTERNS = {a: re.compile(rf"\b(?:{p})\b", re.IGNORECASE) for a, p in _ASKED.items()}
_STATED_PATTERNS = {a: re.compile(rf"\b(?:{p})\b", re.IGNORECASE) for a, p in _STATED.items()}
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
    """

    words: tuple[str, ...]
    subject: tuple[str, ...]

    @property
    def head(self) -> str:
        """The word the attribute is named by: its last word ("area" of "land area")."""
        return self.words[-1] if self.words else ""


# A word starts where its run of word characters and inner marks starts: a run holds no
# other match (one found inside it extends back to its start), and a search restarted at each
# mark of a long run of dots or hyphens would rescan the run to its end each time.
_WORD = re.compile(r"(?<![\w'’.-])[\w'’.-]*\w")
_ARTICLES = frozenset({"the", "a", "an"})
# Words that name no attribute of their own: "the smallest allowed value" asks for a bound,
# "the total revenue" for revenue.
# "The name of the entry point", "the ID of the check", "the status of the support": the value
# itself, which its sentence need not call a name, an ID or a status ("the default value": the
# slot reads whether a default is stated).
_GENERIC = frozenset(
    "value values number amount figure setting settings allowed permitted possible accepted supported valid total overall "
    "current official exact actual usual typical numeric name names id identifier title status equivalent counterpart "
    "alternative replacement way default".split()
)
_BE = r"(?:'s|’s|\s+(?:is|are|was|were))"
_AUX = r"(?:do|does|did|can|could|will|would|should|must|is|are|was|were|has|have|had)"
_ATTRIBUTE_QUESTIONS = (
    # "What is the land area of Veloria?", "Who is the chief executive of Brightline Systems?"
    re.compile(rf"^(?:what|which|who){_BE}\s+(?:the|a|an)\s+(?P<attribute>[\w -]+?)\s+(?:of|for|on)\s+(?P<subject>.+)$", re.IGNORECASE),
    # "What was Acme Robotics' total revenue?", "Where is Kestrel Coffee's European office?"
    re.compile(rf"^(?:what|which|who|where){_BE}\s+(?:the\s+)?(?P<subject>(?:[\w.-]+\s+){{0,3}}?[\w.-]+)(?:'s|’s|'|’)\s+(?P<attribute>[^'’]+)$", re.IGNORECASE),
    # "How many employees does Acme Robotics have?", "How many people work at Brightline?"
    re.compile(rf"^how\s+(?:many|much)\s+(?P<attribute>[\w-]+(?:\s+[\w-]+)?)\s+{_AUX}\s+(?P<subject>.+)$", re.IGNORECASE),
    re.compile(r"^how\s+many\s+(?P<attribute>[\w-]+)\s+(?:work|live|are|were)\s+(?:at|in|for|on)\s+(?P<subject>.+)$", re.IGNORECASE),
    # "Where is Acme Robotics headquartered?": the participle names the attribute.
    re.compile(r"^where\s+(?:is|are)\s+(?P<subject>.+?)\s+(?P<attribute>headquartered|located|based|registered)$", re.IGNORECASE),
)
# "the upload size limit on the Pro plan per key", "the default page size these days": the
# attribute ends where a phrase or a clause opens (at the start of the white space before it,
# never from each space of a run: see ``_WORD``).
_ATTRIBUTE_END = re.compile(
    r"(?<!\s)\s+(?:for|in|on|at|per|of|with|by|during|from|when|if|before|after|that|which|who|these\s+days|nowadays|today|now)\b.*$", re.IGNORECASE
)
_NOT_A_THING = re.compile(r"\b(?:to|way|how)\b", re.IGNORECASE)
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
    for match in _matches(_ATTRIBUTE_QUESTIONS, question):
        attribute = _ATTRIBUTE_END.sub("", match.group("attribute"))
        if _NOT_A_THING.search(attribute):
            continue  # "the easiest way to get a copy of ...": a how-to in other words
        words = tuple(w for w in words_of(attribute) if w not in _ARTICLES and w not in _GENERIC and not _ASKED_ANY.fullmatch(w))
        if words and words[-1] in _COUNTED:
            words = ()  # "how many times does it retry": the verb, not "times", is the attribute
        subject = tuple(w for w in words_of(match.group("subject")) if w not in _ARTICLES)
        if subject:
            return AskedAttribute(words, subject)
    return None


def _matches(patterns: tuple[re.Pattern[str], ...], question: str) -> Iterator[re.Match[str]]:
    """The matches of ``patterns`` on ``question`` (white space folded, its final mark
    dropped), in pattern order."""
    text = " ".join(question.split()).rstrip("?.! ")
    return (m for m in (p.match(text) for p in patterns) if m is not None)


_ASKED_ANY = re.compile("|".join(f"(?:{p})" for p in _ASKED.values()), re.IGNORECASE)


# The words a text may name an attribute by instead of the question's ("a staff of 340" for
# how many people work there, "Established: 1998" for when it was founded).
_SYNONYMS = (
    frozenset({"people", "staff", "employees", "employ", "employs", "workforce", "headcount", "workers"}),
    frozenset({"population", "people", "inhabitants", "residents"}),
    frozenset({"headquartered", "headquarters", "based"}),
    frozenset({"founded", "established", "incorporated"}),
    frozenset({"revenue", "sales", "turnover"}),
    frozenset({"price", "cost", "costs"}),
)


def synonyms(word: str) -> frozenset[str]:
    """The other words a text may name the attribute ``word`` by (``frozenset()`` for most)."""
    folded = word.casefold()
    return frozenset(w for group in _SYNONYMS if folded in group for w in group if w != folded)


def words_of(text: str) -> tuple[str, ...]:
    """``text``'s words, case-folded, a possessive's "'s" dropped."""
    return tuple(re.sub(r"['’]s?$", "", w.casefold()) for w in _WORD.findall(text))


_DEFINITION_QUESTIONS = (
    re.compile(r"^what\s+(?:is|are)\s+(?:a|an)\s+(?P<term>[\w -]+?)(?:\s+(?:in|within|for|on)\s+.+)?$", re.IGNORECASE),
    re.compile(r"^what(?:'s|’s|\s+is|\s+are)\s+the\s+(?P<term>[\w -]+?)\s+(?:in|within)\s+.+$", re.IGNORECASE),
    re.compile(r"^what\s+does\s+(?:a\s+|an\s+|the\s+)?(?P<term>[\w -]+?)\s+mean(?:\s+(?:in|for)\s+.+)?$", re.IGNORECASE),
    re.compile(r"^what\s+does\s+.+?\s+mean\s+by\s+(?:a\s+|an\s+|the\s+)?(?P<term>[\w -]+)$", re.IGNORECASE),
    re.compile(r"^what\s+is\s+meant\s+by\s+(?:a\s+|an\s+|the\s+)?(?P<term>[\w -]+)$", re.IGNORECASE),
)


@lru_cache(maxsize=1024)
def defined_term(question: str) -> tuple[str, ...]:
    """The words of the term a definition question asks about ("What is a cold replica in
    Loglake?": ``("cold", "replica")``), ``()`` for any other question.

    Args:
        question: A question or one part of a compound question (its asked clause).
    """
    for match in _matches(_DEFINITION_QUESTIONS, question):
        term = tuple(w for w in words_of(match.group("term")) if w not in _ARTICLES)
        # "the maximum value allowed for X in Y" asks for a value, not a definition.
        if not any(w in _GENERIC or w in ("of", "for") or _ASKED_ANY.fullmatch(w) for w in term):
            return term
    return ()
