"""Whether a name a claim holds is the name a question asks for.

A question that asks for a name ("which exception", "is there an environment variable ...?
What's it called?", "how do I ...") is answered by an identifier it does not already give
(:func:`~agentic_rag._text.answer_slots.slot_filler`). Not every such identifier is one:

* a name inside a link (``https://django-debug-toolbar.readthedocs.io/en/latest/panels.html``)
  points to a page; it names nothing the question asks;
* the question's own subject written as code: "Django Debug Toolbar" is
  ``django-debug-toolbar`` in an install line and ``DjDT`` abbreviated (leading letters of each
  word of a capitalised name of two or more words, in order);
* a name spelled by fewer of the question's words than the question puts in a row: asked for a
  "model multiple choice field", ``MultipleChoiceField`` is a sibling, not the name (the whole
  qualified name must stand in the claim);
* asked for an exception, a name that is none; asked for an option, a name not written as one;
* asked for an environment variable, an ALL-CAPS name the sentence does not call one:
  "searches the directories specified in TZPATH" (a module attribute), "TZPATH can be
  configured using an environment variable" (the variable itself left unnamed);
* asked how to do a thing from a terminal, a Python call instead of a command
  (:func:`~agentic_rag._answering.how_questions.asks_command`).

And a flag the question writes after its command ("What does migrate --dry-run print?") is that
command's: a claim speaks of it only where it writes the flag after the command or stands under
the command's heading, not "use the createcachetable --dry-run option" (:func:`flag_elsewhere`).
"""

from __future__ import annotations

import re

from agentic_rag._answering.how_questions import asks_command, command_filler
from agentic_rag._regex import lazy_regex
from agentic_rag._text.answer_slots import AnswerSlot, identifiers, is_name_noun
from agentic_rag._text.stopwords import STOPWORD_LISTS

__all__ = ["flag_elsewhere", "name_filler"]

_STOP = STOPWORD_LISTS["english"]
# The kind of name a question asks for, when it says: "which exception", "what option".
_WANTS_KIND = lazy_regex(
    r"\b(?:which|what|is\s+there\s+(?:a|an|any))\s+(?:[\w-]+\s+){0,3}?(exception|error|warning|option|flag|switch|environment\s+variable|env\s+var)s?\b",
    re.IGNORECASE,
)
# An environment variable as documentation writes it: "PYTHONTZPATH", "NO_COLOR".
_ENVIRONMENT_NAME = lazy_regex(r"^[A-Z][A-Z0-9_]{2,}$")
# A command-line option or a keyword argument as written: "-k", "--check", "safe=False", "trim_blocks".
_OPTION_LIKE = lazy_regex(r"^-{1,2}\w|\w=|_|\.")
_URL = lazy_regex(r"\b(?:https?://|www\.)\S+", re.IGNORECASE)
_ENVIRONMENT = r"(?:environment|env)\s+var(?:iable)?s?"
_SAYS_ENVIRONMENT = lazy_regex(_ENVIRONMENT, re.IGNORECASE)
_MENTIONS_ENVIRONMENT = lazy_regex(r"\benv(?:ironment)?\b", re.IGNORECASE)
# Where two words of a name meet: a separator, or a case change ("Return|Logger", "Dj|DT").
_NAME_PARTS = lazy_regex(r"[-_.]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = lazy_regex(r"[A-Za-z0-9]+")
_TOKEN = lazy_regex(r"[\w'’-]+|[^\w\s]")
# Words that qualify any name and so are no part of one ("the default timeout setting").
_GENERIC_QUALIFIERS = frozenset(
    "default custom new old own main current same other different given specific particular whole single simple separate existing "
    "additional extra right best correct proper usual standard".split()
)
# A flag the question writes after a word: the command it belongs to ("migrate --dry-run").
# A word after an article or a possessive is a noun of the phrase ("the maximum --timeout").
_COMMAND_FLAG = lazy_regex(r"(?<![\w-])(?<!\bthe\s)(?<!\ba\s)(?<!\ban\s)(?<!\bits\s)([A-Za-z][\w.-]*)\s+(--?[A-Za-z][\w-]*)", re.IGNORECASE)
# Words before a flag that are no command: "pass --dry-run", "use -k", "deprecate --dry-run";
# a past form or a participle is a verb too ("which release deprecated --dry-run").
_NO_COMMAND = frozenset(
    "use uses pass passes run runs call calls add adds set sets give gives try type specify supply provide enable enables disable disables "
    "option flag deprecate deprecates remove removes drop drops introduce introduces rename renames change changes replace replaces "
    "support supports accept accepts need needs require requires maximum minimum max min default largest smallest".split()
)
_VERB_FORM = lazy_regex(r"\w{3,}(?:ed|ing)$", re.IGNORECASE)


def name_filler(slot: AnswerSlot, asked: str, text: str, context: str = "") -> str:
    """The name in ``text`` that answers ``asked`` (a question asking for a name), ``""`` when
    none does.

    Args:
        slot: What ``asked`` asks for (its kind is :attr:`SlotKind.NAME`).
        asked: The asked clause of one question part.
        text: A sentence, a line or a table row of a claim.
        context: The heading and the lines before ``text``, which may say what kind of
            thing a bare name is ("Environment configuration" over "PYTHONTZPATH").

    Returns:
        The first identifier of ``text`` (case-folded) that the question neither states nor
        names in code form, of the kind the question asks for; for a question asking how to
        do a thing from a terminal, the command line ``text`` holds.
    """
    text = _URL.sub(" ", text)
    if asks_command(asked):
        return command_filler(slot, text)
    wanted = _WANTS_KIND.search(asked)
    kind = wanted.group(1).casefold() if wanted else ""
    proper = _proper_names(asked)
    for original in identifiers(text, folded=False):
        name = original.casefold()
        if name in slot.names or any(name in own or own in name for own in slot.names):
            continue
        if _own_subject(original, proper) or _fewer_qualifiers(original, asked):
            continue
        if kind in ("exception", "error", "warning") and not name.endswith(("error", "exception", "warning", "exit", "interrupt")):
            continue
        if kind in ("option", "flag", "switch") and not _OPTION_LIKE.search(_written(original, text)):
            continue
        if kind.startswith("env") and not (_ENVIRONMENT_NAME.match(_written(original, text)) and _called_environment(original, text, context)):
            continue
        return name
    return ""


def _written(name: str, text: str) -> str:
    """``name`` as ``text`` writes it, with its leading dashes (identifiers drop them)."""
    match = re.search(r"(?<![\w-])-{0,2}" + re.escape(name), text, re.IGNORECASE)
    return text[match.start():match.end()] if match else name


def _called_environment(name: str, text: str, context: str) -> bool:
    """True when ``text`` calls ``name`` an environment variable: beside the words ("the
    environment variable PYTHONTZPATH", "the FLASK_SKIP_DOTENV environment variable"), set in a
    shell ("export NAME=...", "$NAME"), or as a bare term under a heading or lines that speak
    of the environment while ``text`` names no other variable."""
    escaped = re.escape(name)
    beside = re.search(
        rf"{_ENVIRONMENT}\W{{0,3}}(?:(?:called|named)\s+)?\W{{0,2}}{escaped}\b|\b{escaped}\W{{0,2}}\s+{_ENVIRONMENT}"
        rf"|\$(?:env:)?{escaped}\b|\b(?:export|set|setenv)\s+{escaped}\b|\b{escaped}=\S|\b(?:environ|getenv)\W{{1,4}}{escaped}\b",
        text, re.IGNORECASE)
    return bool(beside) or (not _SAYS_ENVIRONMENT.search(text) and bool(_MENTIONS_ENVIRONMENT.search(context)))


def _parts(name: str) -> tuple[str, ...]:
    """The words of a name as written, case-folded: ``django-debug-toolbar`` and
    ``DjangoDebugToolbar`` are (django, debug, toolbar)."""
    return tuple(p.casefold() for p in _NAME_PARTS.split(name) if p)


def _proper_names(question: str) -> list[tuple[str, ...]]:
    """The question's capitalised names of two or more words ("Django Debug Toolbar"), each
    as its case-folded words; a capitalised stop word ("Which", "My") opens none."""
    runs: list[tuple[str, ...]] = []
    current: list[str] = []
    for token in (*_TOKEN.findall(question), "."):
        if token[:1].isupper() and token.casefold() not in _STOP:
            current.append(token.casefold())
            continue
        if len(current) >= 2:
            runs.append(tuple(current))
        current = []
    return runs


def _own_subject(name: str, proper: list[tuple[str, ...]]) -> bool:
    """True when ``name`` writes one of the question's capitalised names as code: two or more
    of its words in a row (``django-debug-toolbar``), or an abbreviation taking leading letters
    of each of its words in order (``DjDT``, ``DDT``)."""
    parts = _parts(name)
    letters = "".join(parts)
    for words in proper:
        if len(parts) >= 2 and any(words[i:i + len(parts)] == parts for i in range(len(words) - len(parts) + 1)):
            return True
        if letters.isalpha() and _abbreviates(letters, words):
            return True
    return False


def _abbreviates(letters: str, words: tuple[str, ...]) -> bool:
    """True when ``letters`` is made of a non-empty leading run of letters of each of
    ``words``, in order."""
    if not words:
        return not letters
    first = words[0]
    return any(letters[:n] == first[:n] and _abbreviates(letters[n:], words[1:]) for n in range(1, min(len(first), len(letters)) + 1))


def _fewer_qualifiers(name: str, asked: str) -> bool:
    """True when the words of ``name`` (a kind noun at its end or start set aside:
    ``MultipleChoiceField`` is "multiple choice") stand in a row in ``asked`` right after
    another word of the same phrase that the name leaves out ("a model multiple choice field"):
    the question asks a more qualified name than this one."""
    parts = list(_parts(name))
    while parts and is_name_noun(parts[-1]):
        parts.pop()
    while parts and is_name_noun(parts[0]):
        parts.pop(0)
    if len(parts) < 2:
        return False
    words = [w.casefold() for w in _WORD.findall(asked)]
    for i in range(1, len(words) - len(parts) + 1):
        before = words[i - 1]
        if words[i:i + len(parts)] == parts and before not in _STOP and before not in _GENERIC_QUALIFIERS and not is_name_noun(before):
            return True
    return False


def flag_elsewhere(asked: str, heading: str, text: str) -> bool:
    """True when ``asked`` writes a flag after its command ("migrate --dry-run") and ``text``
    holds the flag without tying it to that command: neither written after the command (with at
    most three of its arguments between) nor under a heading that names the command ("use the
    createcachetable --dry-run option" under "Creating the cache table").

    Args:
        asked: The asked clause of one question part.
        heading: The heading path of the passage the claim quotes.
        text: The claim's own text.
    """
    for match in _COMMAND_FLAG.finditer(asked):
        command, flag = match.group(1), match.group(2)
        if command.casefold() in _STOP or command.casefold() in _NO_COMMAND or _VERB_FORM.match(command):
            continue
        flag_pattern = re.escape(flag) + r"(?![\w-])"
        if not re.search(rf"(?<![\w-]){flag_pattern}", text, re.IGNORECASE):
            continue  # the flag is not there: the check of the question's names reads that
        command_word = rf"(?<![\w-]){re.escape(command)}(?![\w-])"
        if re.search(command_word, heading, re.IGNORECASE):
            continue
        # The command, then at most three of its arguments, then the flag: "migrate --plan",
        # "manage.py migrate app --fake", "migrate with --fake".
        if not re.search(rf"{command_word}(?:\s+[-\w=./'’]+){{0,3}}?\s+{flag_pattern}", text, re.IGNORECASE):
            return True
    return False
