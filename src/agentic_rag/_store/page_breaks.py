"""A focus whose last sentence goes on over a PDF page break, completed from the next page.

A PDF's pages are indexed apart (a chunk never spans two pages, so its lines count lines of
its page), and a sentence that runs from the foot of one page to the head of the next is cut
in two: "The default weight value is" at the end of page 4, "50, and the maximum is 100." at
the start of page 5. A hit whose focus ends with the first half is completed with the second,
marked with the place it comes from (``[p5:1]``), so the statement an agent reads is whole.
"""

from __future__ import annotations

from collections.abc import Callable

from agentic_rag._store.records import StoreHit
from agentic_rag._text.focus import PassageView
from agentic_rag._text.lines import source_line
from agentic_rag._text.statements import split_statements

__all__ = ["completed_focus"]

# What ends a sentence (or a lead-in, or a clause a reader can stop at).
_ENDS = (".", "!", "?", ":", ";")


def completed_focus(hit: StoreHit, view: PassageView, following: Callable[[StoreHit], StoreHit | None]) -> str:
    """``view``'s numbered focus text, its last piece completed from the next page when it
    ends the hit's page inside a sentence.

    Args:
        hit: A hit of a PDF page (any other hit's focus comes back unchanged).
        view: Its view.
        following: The chunk after a hit's in its file, ``None`` after the last.

    Returns:
        The focus text to print.
    """
    text = view.numbered_text
    focus = view.focus
    if hit.page is None or focus is None or not text or focus.end < len(hit.text.rstrip()) or focus.lines[-1].text.endswith(_ENDS):
        return text
    after = following(hit)
    if after is None or after.path != hit.path or after.page != hit.page + 1:
        return text
    statements = split_statements(after.text)
    if not statements:
        return text
    start, end = statements[0].core
    rest = " ".join(after.text[start:end].split())
    # A page that opens with a capital starts a sentence (or a heading) of its own.
    if not rest or rest[0].isupper():
        return text
    line = source_line(after.line_marks, start) if after.line_marks else after.start_line
    return f"{text} [p{after.page}:{line}] {rest}"
