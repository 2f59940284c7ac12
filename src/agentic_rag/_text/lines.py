"""What a line is, for every line number the library reports.

Ingestion numbers the lines of each chunk and citations number the lines of each quote; both
split here, so a line number means the same thing everywhere: lines end at ``\\n``, ``\\r\\n``
or a lone ``\\r`` (what editors and ``grep -n`` show for Unix, Windows and old Mac files),
and at nothing else. ``str.splitlines`` would also end lines at form feeds (which
``pdftotext`` writes between pages), vertical tabs, U+0085, U+2028 and U+2029, and shift every
line number after them.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

__all__ = ["normalize_newlines", "source_line", "split_lines"]


def normalize_newlines(text: str) -> str:
    """Return ``text`` with ``\\r\\n`` and lone ``\\r`` turned into ``\\n``.

    Args:
        text: Decoded text.

    Returns:
        The text with ``\\n`` as its only line ending.
    """
    return text.replace("\r\n", "\n").replace("\r", "\n")


def split_lines(text: str) -> list[str]:
    """Split ``text`` into lines, line 1 first, without their line endings.

    Args:
        text: Decoded text.

    Returns:
        The lines; like ``str.split("\\n")``, a text ending in a newline gives an empty last
        item and ``""`` gives ``[""]``.
    """
    return normalize_newlines(text).split("\n")


def source_line(marks: Sequence[tuple[int, int]], offset: int) -> int:
    """The source line of ``offset`` in a chunk's text, through its line map ``marks``
    (``(offset, line)`` pairs in text order: the text from each offset on is that line)."""
    return marks[max(bisect_right([o for o, _ in marks], offset) - 1, 0)][1]
