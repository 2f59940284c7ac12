"""A chunk's line map for tests: each line of a text given its own source line."""

from __future__ import annotations


def marks_of(text: str, first_line: int = 1) -> tuple[tuple[int, int], ...]:
    """A line map giving each line of ``text`` its own source line, from ``first_line``."""
    marks, offset = [], 0
    for number, line in enumerate(text.split("\n")):
        marks.append((offset, first_line + number))
        offset += len(line) + 1
    return tuple(marks)
