"""Which patterns a text can wake: the anchors of the instruction rules.

Every rule of :mod:`agentic_rag._text.instruction_patterns` holds one of a few words in every
match ("ignore", "disregard", "system"...). :func:`anchored` reads them off a pattern (or takes
them as given), so :mod:`agentic_rag._text.instructions` runs a pattern only on text holding
one: most text holds none, and a substring or word-prefix test is far cheaper than a regular
expression tried at every position. :class:`LazyPattern` compiles a pattern on its first use,
so a process (one CLI search) compiles the few its texts wake.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from agentic_rag._regex import lazy_regex
from agentic_rag._pycache import compile_pattern

__all__ = ["PREFIX_CHARS", "LazyPattern", "anchored"]

# Patterns are written in lower case and run on casefolded text: much faster than IGNORECASE.
_FLAGS = re.MULTILINE
_WORDLIKE = lazy_regex(r"[a-zà-ÿ\u0400-\u04ff]+")
PREFIX_CHARS = 6  # anchors are compared on their first six characters: enough to be rare


class LazyPattern:
    """A pattern compiled on its first search: a text wakes a few patterns through their
    anchors, so a process (one CLI search) compiles those few, not all of them at import.

    ``also``: strings one of which every match holds besides its anchor (the verdict of a
    withdrawal, "void", "no longer"...). A pattern whose anchors are common words ("the",
    "all", "take") is woken by almost every text; a text that holds none of these cannot
    match, and the pattern is neither compiled nor run on it."""

    __slots__ = ("_compiled", "also", "source")

    def __init__(self, source: str, also: tuple[str, ...] = ()) -> None:
        self.source = source
        self.also = also
        self._compiled: re.Pattern[str] | None = None

    def _can_match(self, text: str) -> bool:
        return not self.also or any(word in text for word in self.also)

    def search(self, text: str) -> re.Match[str] | None:
        """``re.Pattern.search`` of the compiled pattern."""
        if not self._can_match(text):
            return None
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = compile_pattern(self.source, _FLAGS)
        return compiled.search(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """``re.Pattern.finditer`` of the compiled pattern."""
        if not self._can_match(text):
            return iter(())
        if self._compiled is None:
            self._compiled = compile_pattern(self.source, _FLAGS)
        return self._compiled.finditer(text)


def anchored(entry: str | tuple[tuple[str, ...], str] | tuple[tuple[str, ...], str, tuple[str, ...]]
             ) -> tuple[frozenset[str], tuple[str, ...], LazyPattern]:
    """A pattern with its anchors: words one of which starts a word of every matching text
    (checked against the text's word prefixes), and strings one of which every match holds;
    a third item, strings one of which every match also holds (:class:`LazyPattern`)."""
    also: tuple[str, ...] = ()
    if isinstance(entry, tuple) and len(entry) == 3:
        words, pattern, also = entry
        entry = (words, pattern)
    words, pattern = entry if isinstance(entry, tuple) else (_leading_literals(entry), entry)
    if not words:
        raise AssertionError(f"pattern without the words every match holds: {pattern[:60]!r}")
    # Derived words start a word only when the pattern starts at a word boundary.
    starts_word = isinstance(entry, tuple) or pattern.startswith("\\b")
    prefixes = frozenset(w[:PREFIX_CHARS] for w in words if starts_word and len(w) > 1 and _WORDLIKE.fullmatch(w))
    return prefixes, tuple(w for w in words if w[:PREFIX_CHARS] not in prefixes), LazyPattern(pattern, also)
_META = set("\\()[]{}?*+|.^$")


def _leading_literals(pattern: str) -> tuple[str, ...]:
    """The literal words one of which starts every match of ``pattern`` (after an optional
    ``\\b``), or ``()`` when it does not start with literals.

    A passage that holds none of them (casefolded) cannot match, so the pattern is not run:
    most text holds no "ignore" or "disregard", and a substring test is far cheaper than a
    regular expression tried at every position.
    """
    body = pattern[2:] if pattern.startswith("\\b") else pattern
    if body.startswith("(?:"):
        depth, end = 0, -1
        for index, char in enumerate(body):
            depth += char == "(" and body[index - 1:index] != "\\"
            depth -= char == ")" and body[index - 1:index] != "\\"
            if depth == 0:
                end = index
                break
        options, depth, current = [], 0, ""
        for char in body[3:end]:
            depth += char == "("
            depth -= char == ")"
            if char == "|" and depth == 0:
                options.append(current)
                current = ""
            else:
                current += char
        options.append(current)
    else:
        options = [body]
    literals = []
    for option in options:
        prefix = ""
        for index, char in enumerate(option):
            if char in _META or char.isspace():
                break
            if option[index + 1:index + 2] in ("?", "*", "{"):
                break  # an optional character is not required
            prefix += char
        if not prefix:
            return ()
        literals.append(prefix)
    return tuple(literals)


