"""Pages that only list other pages, recognised by their shape: an index, a table of contents.

An alphabetical index (``term, 12, 45``; ``term`` then links to sections), a table of contents
(``3.2 Installing . . . 45``, or a list of links) and a site map are many short lines, most of
them a reference to somewhere else: a page number at the end of a line that names something,
or, on a web page, text that is mostly the text of links to the same site. Their lines hold the terms of many pages, so a lexical search
would find them for almost any question; the store ranks their chunks below content pages
(:mod:`agentic_rag._store.list_pages`), but keeps them searchable.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agentic_rag._regex import lazy_regex

__all__ = ["is_list_page"]

_MIN_LINES = 15          # fewer lines: a short page, whatever its shape
_SHORT_WORDS = 10        # a list line is at most this many words
_SHORT_SHARE = 0.8       # ... and this share of the lines are short
_REFERENCE_SHARE = 0.5   # ... and this share point elsewhere (page numbers, links)
_TITLED_SHARE = 0.3      # a page titled "Index" or "Contents" needs fewer references
# A page number (or a list of them, or a range) at the end of the line, or dotted leaders.
_REFERENCE = lazy_regex(r"(?:[\s,.:]\s*(?:[0-9]{1,5}|[ivxlc]{1,7})(?:\s*[-–]\s*[0-9]{1,5})?(?:,\s*[0-9]{1,5}(?:\s*[-–]\s*[0-9]{1,5})?)*"
                        r"|\.\s?\.\s?\.)\s*$", re.IGNORECASE)
_TERM = lazy_regex(r"[^\W\d_]{2}")  # an entry names something: a numeric table row is no index
_WORDLIKE = lazy_regex(r"\w")
_LIST_TITLES = lazy_regex(r"(?i)^\s*(?:general |alphabetical |subject )?(?:index|contents|table of contents|site ?map)\b")


def is_list_page(lines: Sequence[str], *, linked_share: float | None = None, title: str = "") -> bool:
    """Whether a page's text only lists or indexes other pages.

    Args:
        lines: The page's lines of text (blank ones are ignored).
        linked_share: For a web page, the share of its text inside links to pages of its own
            site (``None``: not a web page; its lines' page numbers are read instead).
        title: The page's title (``Index``, ``Table of Contents``... lowers the bar).

    Returns:
        True for many short lines, most of them references to elsewhere.
    """
    filled = [line for line in lines if line.strip()]
    if len(filled) < _MIN_LINES:
        return False
    # Dotted leaders are no words.
    short = sum(1 for line in filled if sum(1 for token in line.split() if _WORDLIKE.search(token)) <= _SHORT_WORDS)
    if short < _SHORT_SHARE * len(filled):
        return False
    need = _TITLED_SHARE if _LIST_TITLES.match(title) else _REFERENCE_SHARE
    if linked_share is not None:
        # A web page's references are its links (to its own site: a list of external links,
        # a glossary citing its sources, is content).
        return linked_share >= need
    references = sum(1 for line in filled if _REFERENCE.search(line) and _TERM.search(line))
    return references >= need * len(filled)
