"""What a how-question wants of the claim that answers it.

"How do I ...?" in technical documentation asks for a way to do the question's action to the
question's object, most often a name or a command (:func:`~agentic_rag._text.answer_slots.
read_slot` reads it as a name). A lexical reader finds some name in many sentences on the topic;
two readings keep such a sentence from answering:

* the object of the action must be named: "How do I generate the stylesheet that highlighted
  code blocks need?" is not answered by a line on how tracebacks are highlighted, whatever name
  it holds, when neither it nor its heading says "stylesheet" (:func:`object_unnamed`);
* asked how to do it from a terminal, a shell or the command line (or without writing code),
  the answer is a command: ``python -m markdown``, ``$ flask run --debug``, not the Python call
  ``md.convert(text)`` (:func:`asks_command`, :func:`command_filler`).
"""

from __future__ import annotations

import re

from agentic_rag._regex import lazy_regex
from agentic_rag._text.answer_slots import AnswerSlot, identifiers
from agentic_rag._text.asked_attribute import synonyms
from agentic_rag._text.porter import PorterStemmer
from agentic_rag._text.stopwords import STOPWORD_LISTS

__all__ = ["asks_command", "command_filler", "object_unnamed"]

_STOP = STOPWORD_LISTS["english"]
_STEMMER = PorterStemmer()
_HOW = lazy_regex(r"^\s*(?:so\s+|and\s+|but\s+)?how\s+(?:do|can|should|would|could|might|must)\s+(?:i|you|we|one)\s+(?:\w+ly\s+)?(?P<verb>[a-z]+)\s+(?P<rest>.*)$", re.IGNORECASE)
# "... from a terminal", "on the command line", "in a shell", "without writing any code".
_TERMINAL = lazy_regex(
    r"\b(?:terminal|shell|command[- ]line|command\s+prompt|cli)\b|\bwithout\s+writing\s+(?:any\s+)?(?:\w+\s+)?code\b", re.IGNORECASE)
# A question that names the kind of name it wants reads it by that kind.
_NAMES_KIND = lazy_regex(r"\b(?:option|flag|switch|argument|parameter|setting|variable)s?\b", re.IGNORECASE)
# A command line: a shell prompt, ``python -m module``, or a program word followed by at most
# two words and a flag ("pygmentize -S default", "flask run --debug").
_COMMAND = lazy_regex(
    r"(?m)^\s*[$%]\s+\S[^\n]*|(?<![\w.(=-])(?:python[\d.]*\s+-m\s+[\w.]+|[a-z][\w.-]*(?:\s+[a-z][\w.:/-]*){0,2}\s+-{1,2}[A-Za-z][\w-]*)")
_WORD = lazy_regex(r"[A-Za-z][\w'’-]*|[^\w\s]")
# What the object of a how-question's verb opens with, and what names no thing of its own.
# The words of a text and of the names in it ("register_error_handler", "ErrorHandler").
_NAME_WORD = lazy_regex(r"[A-Z]{2,}(?![a-z])|[A-Za-z][a-z0-9]*")
_CASE_CHANGE = lazy_regex(r"(?<=[a-z0-9])(?=[A-Z])")
_DETERMINERS = frozenset("the a an my our your this that these those some any its their each every".split())
_NO_OBJECT = frozenset("it them this that one something things thing way ways stuff".split())


def asks_command(asked: str) -> bool:
    """True when ``asked`` asks how to do a thing from a terminal, a shell or the command line
    (or without writing code) and names no option or setting it wants: a command answers it.

    Args:
        asked: The asked clause of one question part.
    """
    return bool(_HOW.match(asked) and _TERMINAL.search(asked) and not _NAMES_KIND.search(asked))


def command_filler(slot: AnswerSlot, text: str) -> str:
    """The command line ``text`` holds that the question does not already give, ``""`` when
    it holds none (a Python call, ``md.convert(text)``, is no command).

    Args:
        slot: What the question asks for (its names are the question's own).
        text: A sentence or a line of a claim.
    """
    for match in _COMMAND.finditer(text):
        command = match.group().strip()
        if not set(identifiers(command)) or set(identifiers(command)) - slot.names:
            return command
    return ""


def object_unnamed(asked: str, heading: str, text: str) -> bool:
    """True when ``asked`` is a how-question whose verb has an object ("generate the
    stylesheet ...") and neither ``text`` nor ``heading`` names the object's head word (on its
    stem, a synonym, or as a part of a name: "handler" in ``register_error_handler``).

    Args:
        asked: The asked clause of one question part.
        heading: The heading path of the passage the claim quotes.
        text: The claim's own text.
    """
    head = _object_head(asked)
    if not head:
        return False
    wanted = {_stem(w) for w in (head, *synonyms(head))}
    said = {_stem(w) for w in _NAME_WORD.findall(_CASE_CHANGE.sub(" ", f"{heading}\n{text}"))}
    return not wanted & said


def _object_head(asked: str) -> str:
    """The last word of the noun phrase right after a how-question's verb ("stylesheet" of
    "how do I generate the stylesheet that ..."), ``""`` when the verb has none (a clause,
    a preposition, a pronoun follow it)."""
    match = _HOW.match(asked)
    if not match:
        return ""
    phrase: list[str] = []
    for word in _WORD.findall(match.group("rest")):
        folded = word.casefold()
        if not phrase and folded in _DETERMINERS:
            continue
        if not word[0].isalpha() or folded in _STOP:
            break
        phrase.append(folded)
    head = phrase[-1] if phrase else ""
    # A name ("SECRET_KEY") is the question's to state: the check of its names reads it.
    return "" if head in _NO_OBJECT or len(head) < 3 or not head.isalpha() else head


def _stem(word: str) -> str:
    return _STEMMER.stem(word.casefold().strip("'’"))
