"""Sentence spans: where each sentence starts and ends inside a text.

Extractive answers quote whole sentences, so offsets must be exact: every span satisfies
``text[start:end] == sentence`` with surrounding white space trimmed.
"""

from __future__ import annotations

from dataclasses import dataclass

from agentic_rag._regex import lazy_regex

__all__ = ["SentenceSpan", "split_sentences"]

# A boundary: terminal punctuation (optionally closing quotes/brackets), white space, then
# something that can start a sentence. Newline pairs always end a sentence.
_BOUNDARY = lazy_regex(r"(?<=[.!?])[\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-Z0-9À-ÖØ-Þ])|\n\s*\n")
_CLOSERS = "\"'”’)]"
_NUMBER = lazy_regex(r"\d[\d,.]*")
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr prof sr jr st vs etc e.g i.e fig no vol inc ltd co corp jan feb mar apr jun jul aug sep sept oct nov dec u.s u.k".split()
)


@dataclass(frozen=True, slots=True)
class SentenceSpan:
    """A sentence and its character offsets in the source text."""

    start: int
    end: int
    text: str


def split_sentences(text: str) -> list[SentenceSpan]:
    """Split ``text`` into sentences with exact offsets.

    Abbreviations (``Dr.``, ``e.g.``), single-letter initials (``J. Smith``) and dotted initials
    (``4714 B.C.``) do not end a sentence.

    Args:
        text: Any text.

    Returns:
        Non-empty sentences in order; ``text[s.start:s.end] == s.text`` for each.
    """
    spans: list[SentenceSpan] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        if match.group().count("\n") < 2 and _ends_with_abbreviation(text, match.start()):
            continue
        # Closing quotes and brackets after the full stop belong to the sentence they close.
        closers = len(match.group()) - len(match.group().lstrip(_CLOSERS))
        _append(text, start, match.start() + closers, spans)
        start = match.end()
    _append(text, start, len(text), spans)
    return spans


def _ends_with_abbreviation(text: str, end: int) -> bool:
    head = text[max(0, end - 24):end].rstrip(_CLOSERS)
    if not head.endswith("."):
        return False
    words = head[:-1].split()
    word = words[-1].lstrip("(\"'“‘[") if words else ""
    # A letter after a number is a unit ("the wall is 12 m. The next ..."), not an initial.
    # Dotted initials ("B.C.", "A.D.", "U.S.A.") end no sentence either.
    initial = len(word) == 1 and word.isalpha() and not (len(words) > 1 and _NUMBER.fullmatch(words[-2]))
    return initial or word.casefold() in _ABBREVIATIONS \
        or ("." in word and all(len(part) == 1 and part.isalpha() for part in word.split(".")))


def _append(text: str, start: int, end: int, spans: list[SentenceSpan]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        spans.append(SentenceSpan(start, end, text[start:end]))
