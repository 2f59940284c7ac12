"""Reading a question: comparison items, and its content words in surface form."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from agentic_rag._text.analyzer import Analyzer
from agentic_rag._text.entities import extract_entities

__all__ = ["Comparison", "anchor_entity", "content_words", "find_comparison", "is_bridge_question", "split_compound"]

# "the founder of Acme", "the 2001 film that featured X", "the man who played Y": a
# description of an entity the question does not name, which another passage must resolve.
_DESCRIBED = re.compile(r"\bthe\s+(?:[\w'-]+\s+){0,3}?(?:of|for|from|by|with|in|on|at)\s+(?:the\s+)?[A-Z0-9\"“]")
# A relative clause follows a word ("the man who played"); a capitalised "Which" after a full
# stop starts a new question instead.
_RELATIVE = re.compile(r"\w\s+(?:who|whom|whose|that|which|where)\s+\w+")

_COMPOUND = re.compile(r",?\s+and\s+(?=(?:how|what|when|where|who|whom|which|why|is|was|are|were|does|did|do)\b)", re.IGNORECASE)
_PRONOUN = re.compile(r"\b(it|its|they|their|them|he|his|him|she|her)\b", re.IGNORECASE)

_OR = re.compile(r"\s+or\s+", re.IGNORECASE)
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_VERSUS = re.compile(r"\s+(?:vs\.?|versus)\s+", re.IGNORECASE)
_CONNECTIVE_WORDS = frozenset({"vs", "versus", "compare", "both", "or"})
_AND_CUES = re.compile(r"\b(?:both|same|compare|compared|between|differ\w*|common|either|neither|together)\b", re.IGNORECASE)
_COMPARE_CUES = re.compile(
    r"^(?:are|were|is|was|do|did|does|have|has|which|who|what|when|where|compare|how)\b|\b(?:both|same|first|older|younger|earlier|later|more|less|larger|smaller|longer|shorter|higher|lower|between)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Comparison:
    """A comparison question: the items compared and what is asked of each."""

    items: tuple[str, ...]
    aspect: str


def content_words(text: str, analyzer: Analyzer) -> list[str]:
    """Return the surface words of ``text`` that are not stop words, in order, once each."""
    out: list[str] = []
    for token in analyzer.tokenize(text):
        if not analyzer.is_stopword(token) and token not in out:
            out.append(token)
    return out


def find_comparison(question: str, analyzer: Analyzer) -> Comparison | None:
    """Detect "X or Y?", "X and Y both ...?", "X vs Y" questions and return their items.

    Items are the capitalised names (or quoted titles) next to the connective, so "Which
    magazine was started first, Arthur's Magazine or First for Women?" gives the two
    magazine names; the aspect is what remains of the question ("magazine started first").

    Args:
        question: The question.
        analyzer: Used to drop stop words from the aspect.

    Returns:
        The comparison, or ``None`` when the question compares nothing.
    """
    text = question.strip().rstrip("?").strip()
    if not _COMPARE_CUES.search(text):
        return None
    entities = extract_entities(text)
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


def split_compound(question: str) -> tuple[str, ...]:
    """Split "When was X founded and how many employees does it have?" into its questions.

    A pronoun in a later part is replaced by the first named entity of the first part, so
    each part can be searched on its own ("how many employees does X have").

    Args:
        question: The question.

    Returns:
        The parts (a single-element tuple when the question is not compound, or when a part
        has nothing but question and stop words).
    """
    text = question.strip()
    parts = [p.strip(" ,") for p in _COMPOUND.split(text) if p.strip(" ,")]
    if len(parts) < 2 or any(not _plain_analyzer().analyze(p) for p in parts):
        # "Who founded Acme, and when?": a part with no words of its own is no separate
        # question; the whole question is one.
        return (text,)
    names = [m.text for m in extract_entities(parts[0]) if m.kind != "number"]
    out = [parts[0].rstrip("?") + "?"]
    for part in parts[1:]:
        if names:
            part = _PRONOUN.sub(lambda m: names[0] + ("'s" if m.group(1).lower() in ("its", "their", "his", "her") else ""), part, count=1)
        out.append(part[0].upper() + part[1:].rstrip("?") + "?")
    return tuple(out)


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
    return bool(_DESCRIBED.search(text) or _RELATIVE.search(rest))


def anchor_entity(question: str) -> str:
    """Return the entity a question names that its first hop should be about.

    Quoted titles first, then multi-word names, then single capitalised words; numbers never.
    ``""`` when the question names nothing.
    """
    mentions = [m for m in extract_entities(question) if m.kind != "number"]
    ranked = sorted(mentions, key=lambda m: (0 if m.kind == "quoted" else 1 if " " in m.text else 2, m.start))
    return ranked[0].text if ranked else ""
