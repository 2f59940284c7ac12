"""A focus that ends inside a setting's entry cut by a chunk boundary, completed with the
entry's default sentence from the next chunk.

A chunk ends where its size runs out, so a definition-list entry (a setting's or option's name
over its description, as loaders write rST and HTML definition lists and API entries) can be
cut in two: ``MAX_FORM_MEMORY_SIZE`` and its first paragraph at the end of one chunk, its second
paragraph and ``Default: 500_000`` at the start of the next. Within a chunk the focus shows an
entry's statement with its default sentence (:mod:`agentic_rag._text.statements`); across the
cut it could not, and a reader asked for the default had to read on. A hit whose focus reaches
into the entry its chunk ends in, when that entry states no default in the chunk, gets the
next chunk's default sentence of the same entry (before any other entry starts), numbered
with the line it comes from.
"""

from __future__ import annotations

from collections.abc import Callable

from agentic_rag._store.records import StoreHit
from agentic_rag._text.focus import PassageView
from agentic_rag._text.lines import source_line
from agentic_rag._text.statements import MAX_DEFAULT, Statement, opens_with_default, split_statements, states_default

__all__ = ["entry_default"]

#: Most statements of the next chunk read for the entry's default sentence.
_LOOK_AHEAD = 8
#: Most lines between a chunk's end and the next chunk's start for the two to be read as one.
_GAP_LINES = 3


def entry_default(hit: StoreHit, view: PassageView, following: Callable[[StoreHit], StoreHit | None]) -> tuple[str, int] | None:
    """The default sentence of the entry ``hit``'s chunk ends in, from the next chunk.

    Args:
        hit: A hit of a file without pages (a PDF's pages are completed by
            :func:`~agentic_rag._store.page_breaks.completed_focus`).
        view: Its view (the focus shown).
        following: The chunk after a hit's in its file, ``None`` after the last.

    Returns:
        ``("348: Default: 500_000", 348)``: the numbered line to print after the focus and the
        last source line it comes from; ``None`` when there is nothing to complete.
    """
    span = view.span
    if hit.page is not None or hit.cell is not None or span is None or not hit.line_marks:
        return None
    statements = split_statements(hit.text)
    if not statements or statements[-1].entry < 0:
        return None  # the chunk does not end inside an entry
    entry = statements[-1].entry
    own = [s for s in statements if s.entry == entry]
    if any(_is_default(hit.text, s) for s in own) or span[1] < source_line(hit.line_marks, entry):
        return None  # the entry states its default here, or the focus does not reach it
    after = following(hit)
    if after is None or after.path != hit.path or after.section != hit.section or after.start_line > hit.end_line + _GAP_LINES \
            or not after.line_marks:
        return None
    found: list[Statement] = []
    for statement in split_statements(after.text)[:_LOOK_AHEAD]:
        if statement.entry >= 0:
            break  # another entry starts
        if _is_default(after.text, statement):
            found.append(statement)
    if not found:
        return None
    # A line that opens with the word states the value ("Default: 500_000"), where "Each
    # request defaults to this config" only mentions one.
    start, end = next((s for s in found if opens_with_default(after.text[s.core[0]:s.core[1]])), found[0]).core
    first, last = source_line(after.line_marks, start), source_line(after.line_marks, max(start, end - 1))
    where = f"{first}" if first == last else f"{first}-{last}"
    return f"{where}: {' '.join(after.text[start:end].split())}", last


def _is_default(text: str, statement: Statement) -> bool:
    start, end = statement.core
    return end - start <= MAX_DEFAULT and states_default(text[start:end])
