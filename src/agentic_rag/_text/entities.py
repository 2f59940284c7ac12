"""Candidate entities in a passage: the bridges a second retrieval hop can follow.

A multi-hop question names the first entity; the passage about it names the second (a
founder, a birthplace, a year). Candidates are capitalised word runs (allowing short
connectors such as "of" or "de" inside), quoted spans, and years or numbers, each with its
first offset so callers can order them deterministically.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentic_rag._regex import lazy_regex

__all__ = ["EntityMention", "extract_entities"]

# "and" is left out on purpose: "Jane Doe and Mark Roe" are two entities, which comparison
# questions depend on; "Bosnia and Herzegovina" splits, a price worth paying.
_CONNECTORS = frozenset({"of", "de", "la", "le", "van", "von", "der", "da", "del", "the", "du", "di", "y", "&", "for"})
_CAPITALISED = lazy_regex(r"[A-ZÀ-ÖØ-Þ][\w'’\-\.]*")
_TOKEN = lazy_regex(r"[\w'’\-\.&]+")
_QUOTED = lazy_regex(r"[\"“]([^\"”]{2,80})[\"”]")
_NUMBER = lazy_regex(r"\b(1[0-9]{3}|20[0-9]{2}|\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\b")
# Sentence-initial function words that are capitalised only because they start a sentence.
_SENTENCE_STARTERS = frozenset(
    "a an the in on at by for from with this that these those it its he she they his her their "
    "we our after before during when while although however also as there are were is was do did "
    "does has have had which who whom whose what where why how compare can could should would will "
    "then but and or so yet if because since not no all some many most each every both".split()
)


@dataclass(frozen=True, slots=True)
class EntityMention:
    """A candidate entity and where it first occurs."""

    text: str
    start: int
    kind: str  # "name", "quoted" or "number"


def extract_entities(text: str) -> list[EntityMention]:
    """Return candidate entities of ``text``, one per distinct surface form, by first offset.

    Args:
        text: A passage.

    Returns:
        Mentions ordered by (start, text).
    """
    found: dict[str, EntityMention] = {}
    for mention in (*_names(text), *_quoted(text), *_numbers(text)):
        key = mention.text.casefold()
        if key not in found or mention.start < found[key].start:
            found[key] = mention
    return sorted(found.values(), key=lambda m: (m.start, m.text))


def _names(text: str) -> list[EntityMention]:
    out: list[EntityMention] = []
    tokens = list(_TOKEN.finditer(text))
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        word = tok.group().rstrip(".")
        if not _CAPITALISED.fullmatch(tok.group()) or _is_sentence_starter(text, tok.start(), word):
            i += 1
            continue
        j = i + 1
        end = tok.end()
        # A word (not an initial such as "J.") ending in a full stop ends the sentence.
        while j < len(tokens) and not (tokens[j - 1].group().endswith(".") and len(tokens[j - 1].group()) > 2):
            nxt = tokens[j]
            gap = text[end:nxt.start()]
            if gap.strip():  # punctuation such as "," ends the run
                break
            if _CAPITALISED.fullmatch(nxt.group()):
                end, j = nxt.end(), j + 1
                continue
            # Connectors may come in runs ("Jean de la Fontaine", "Bank of the West").
            k = j
            while k < len(tokens) and tokens[k].group().casefold() in _CONNECTORS and not text[tokens[k - 1].end():tokens[k].start()].strip():
                k += 1
            if k > j and k < len(tokens) and _CAPITALISED.fullmatch(tokens[k].group()) and not text[tokens[k - 1].end():tokens[k].start()].strip():
                end, j = tokens[k].end(), k + 1
                continue
            break
        surface = text[tok.start():end].rstrip(".")
        if len(surface) > 1:
            out.append(EntityMention(surface, tok.start(), "name"))
        i = j
    return out


def _is_sentence_starter(text: str, start: int, word: str) -> bool:
    # "What's", "Who're": the question word with its verb contracted is still that word.
    if re.sub(r"['’](?:s|re|ve|ll|d)$", "", word.casefold()) not in _SENTENCE_STARTERS:
        return False
    before = text[:start].rstrip()
    return not before or before[-1] in ".!?\"'”"


def _quoted(text: str) -> list[EntityMention]:
    return [EntityMention(m.group(1).strip(), m.start(1), "quoted") for m in _QUOTED.finditer(text) if m.group(1).strip()]


def _numbers(text: str) -> list[EntityMention]:
    return [EntityMention(m.group(1), m.start(1), "number") for m in _NUMBER.finditer(text)]
