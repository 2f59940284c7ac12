"""Whether the label a value stands under names the asked thing.

A table row or a labelled line gives its value under a label ("Access token lifetime | 15
minutes", "- Accounts receivable: money owed ..."). The label says what the value is of: a
label that shares no word with the question ("Message size | 256 KB" for the visibility
timeout) is about another item, and one that puts another word beside a word the question
shares ("Access token lifetime" for the refresh token's lifetime, "accounts receivable" for
accounts payable, "server.listen_port" for the port the agent listens on, "Day pass" for a
half-day pass) names a sibling of the asked thing. A label that tallies events ("Work parties
held | 22 | 23") says how many took place, not how many a single one takes: no cap or bound.
:func:`label_problem` reads one piece.
"""

from __future__ import annotations

import re

from agentic_rag._answering.word_roots import same_root as _same, stem_word as _stem
from agentic_rag._text.asked_attribute import Aspect, asked_aspects, aspects_in, synonyms, words_of
from agentic_rag._text.relevance import RelevanceModel
from agentic_rag._regex import lazy_regex

__all__ = ["label_problem", "tally_problem"]

_ENDS = frozenset({Aspect.SERVER, Aspect.CLIENT})
_BOUNDS = frozenset({Aspect.MAXIMUM, Aspect.MINIMUM})
# A label that tallies events: a noun and the participle of their taking place ("Work parties
# held", "Courses run", "Events hosted", "Number of sessions delivered").
_TALLY = lazy_regex(
    r"^(?:(?:number|count|total)\s+of\s+)?[A-Za-z][\w '’/-]*?\s+(?:held|run|hosted|organi[sz]ed|staged|conducted|delivered|completed|carried\s+out)$",
    re.IGNORECASE,
)
# A bound asked in words the aspect reader leaves to the verb: "a cap on numbers", "the most
# they'll take".
_ASKS_BOUND = lazy_regex(r"\b(?:caps?|capped|limits?|limited|the\s+most|the\s+fewest|the\s+least|at\s+most|at\s+least)\b", re.IGNORECASE)
# Words a label holds besides the item's own ("Default port", "Maximum size", "Value"), and
# labels that file a remark rather than name an item ("Note: XML export will be removed ...").
_NEUTRAL = frozenset(
    "default defaults value values setting settings current maximum minimum max min total typical note notes tip tips warning caution important "
    "hint example summary".split()
)
# "- Accounts receivable: money owed ...": a short label, then its value.
_LABELLED = lazy_regex(r"^\s*(?:[-*+]\s+)?([A-Za-z][\w '’/-]{1,40}?)\s*[:|]\s+\S")


def label_problem(question: str, piece: str, model: RelevanceModel) -> str:
    """``"another attribute"`` when the label ``piece`` gives its value under shares no word
    with ``question``, ``"another subject"`` when it names a sibling of the asked thing, ``""``
    otherwise (and for a piece with no label).

    Args:
        question: The asked clause of one question part.
        piece: A table row under its header row, or a line.
        model: The collection's relevance model (its analyser tells stop words).
    """
    label = _label(piece)
    if not label:
        return ""
    if _sibling_code(question, label):
        return "another subject"
    label_words = [w for w in _words(label) if _content(w, model)]
    if not label_words:
        return ""
    asked = _words(question)
    asked_stems = {_stem(s) for w in asked for s in (w, *synonyms(w))}
    if not any(_in(w, asked_stems) for w in label_words):
        return "another attribute"
    if _drops_compound(question, label):
        return "another subject"
    # A word both share, with a word beside it in the label the question lacks, and beside it
    # in the question a word the label lacks: two kinds of one thing.
    label_all = _words(label)
    label_stems = {_stem(w) for w in label_all}
    for index, word in enumerate(label_all):
        if not _in(word, asked_stems):
            continue
        for step in (-1, 1):
            theirs = _neighbour(label_all, index, step)
            at = next((i for i, w in enumerate(asked) if _same(_stem(w), _stem(word))), -1)
            ours = _neighbour(asked, at, step) if at >= 0 else ""
            if (theirs and ours and (_content(theirs, model) or _names_end(theirs, ours, question)) and _content(ours, model)
                    and not _in(theirs, asked_stems) and not _in(ours, label_stems)):
                return "another subject"
    return ""


# A code that names one of a series: "R2", "KX-40", "B-7" (capitals, then a number).
_CODE = lazy_regex(r"(?<![\w-])([A-Z]{1,5})-?(\d[\w.]*)(?![\w-])")


def tally_problem(question: str, piece: str) -> str:
    """``"another attribute"`` when ``question`` asks a bound ("Is there a cap on numbers ...
    - what's the most they'll take?") and ``piece`` gives its figures under a label that
    tallies events ("Work parties held | 22 | 23"): how many took place is no cap on how many
    one takes. ``""`` otherwise, whether the question is put as yes or no or asks the value.

    Args:
        question: The asked clause of one question part.
        piece: A table row under its header row, or a line.
    """
    label = _label(piece)
    if label and _TALLY.match(label) and (asked_aspects(question) & _BOUNDS or _ASKS_BOUND.search(question)):
        return "another attribute"
    return ""


def _sibling_code(question: str, label: str) -> bool:
    """The label is a code of a series the question names another member of ("R1" for the
    question's "route R2"): its row is that member's."""
    own = _CODE.fullmatch(label.strip())
    if not own:
        return False
    asked = [(m.group(1), m.group(2).casefold()) for m in _CODE.finditer(question)]
    same_series = [number for prefix, number in asked if prefix == own.group(1)]
    return bool(same_series) and own.group(2).casefold() not in same_series


def _words(text: str) -> tuple[str, ...]:
    """The words of ``text``, a name's parts apart ("client.connect_timeout": client, connect,
    timeout): a setting's name names its item in those words."""
    return tuple(p for w in words_of(text) for p in re.split(r"[._/-]+", w) if p)


def _label(piece: str) -> str:
    lines = piece.strip().split("\n")
    if len(lines) == 2 and all("|" in line for line in lines):
        return lines[1].strip().strip("|").split("|")[0].strip()  # a row under its header
    match = _LABELLED.match(lines[0]) if len(lines) == 1 else None
    return match.group(1) if match else ""


def _content(word: str, model: RelevanceModel) -> bool:
    """A word that names something: no stop word, no neutral or bound word, no number."""
    return bool(model.analyzer.analyze(word)) and word not in _NEUTRAL and not aspects_in(word) and not re.search(r"\d", word)


# A compound of a qualifier and a noun: "half-day", "6-day", "two-way", "off-peak".
_COMPOUND = lazy_regex(r"(?<![\w-])([A-Za-z0-9]+)-([A-Za-z]+)(?![\w-])")


def _drops_compound(question: str, label: str) -> bool:
    """The question asks a compound ("half-day pass") and the label names its noun without
    its qualifier ("Day pass, Kessel Peak"): the label's item is the plain kind, a sibling of
    the asked one."""
    said = label.casefold()
    for match in _COMPOUND.finditer(question):
        whole, noun = match.group().casefold(), match.group(2).casefold()
        if re.search(rf"(?<![\w-]){re.escape(noun)}\b", said) and whole not in said:
            return True
    return False


def _names_end(word: str, ours: str, question: str) -> bool:
    """``word`` names an end of a connection ("server" of "server.listen_port") where
    ``question``, naming no end, has a common noun of its own (``ours``: "the agent listen
    port"): the label names another component, not a bound or stage word beside the item. A
    name there ("does Stowline listen") may be the server itself."""
    return (bool(aspects_in(word) & _ENDS) and not aspects_in(question) & _ENDS
            and re.search(rf"(?<![\w.]){re.escape(ours)}(?![\w.])", question) is not None)


def _neighbour(words: tuple[str, ...], index: int, step: int) -> str:
    at = index + step
    return words[at] if 0 <= at < len(words) else ""


def _in(word: str, stems: set[str]) -> bool:
    stem = _stem(word)
    return any(_same(stem, s) for s in stems)
