"""Where a snippet's text sits in its source file: path and 1-based line range.

Snippets that carry ``start_line`` / ``end_line`` in their metadata (as stored chunks do) are
located within those lines; otherwise the lines are found by locating the text in the source
file under ``root``. Text is found by its first and last 60 characters with white space
collapsed, or, since loaders strip markup (backticks, table pipes, emphasis), by its first and
last 40 letters and digits.

Lines are counted by :func:`~agentic_rag._text.lines.split_lines`, as ingestion counts them (a
form feed or U+2028 ends no line). Files read here are cached by their identity on disk (size,
modification and change times, inode), and :func:`forget_lines` empties the caches: the store
service calls it whenever the store switches generations, so a long-lived server never cites
the lines of a file's previous content after another process re-indexed it.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from agentic_rag._contracts import Snippet
from agentic_rag._text.lines import split_lines

__all__ = ["forget_lines", "line_span", "source_location"]


def source_location(snippet: Snippet, text: str, root: Path | None) -> tuple[str, int, int]:
    """``(path, start_line, end_line)`` of ``text`` inside the snippet's source file.

    Args:
        snippet: The snippet (its metadata ``path`` names the file, relative to ``root``).
        text: A quote from the snippet (or its whole text).
        root: Folder the paths are relative to; ``None``: use the stored lines only.

    Returns:
        The quote's own lines when found in the file, else the chunk's stored lines, else
        ``(path, 1, 1)``.
    """
    meta = snippet.metadata
    stored = meta.get("path")
    path = stored if isinstance(stored, str) else f"{snippet.corpus_id}/{snippet.document_id}"
    start, end = meta.get("start_line"), meta.get("end_line")
    chunk = (start, max(start, end)) if isinstance(start, int) and isinstance(end, int) and start >= 1 else None
    if root is not None and (root / path).is_file():
        # The quote's own lines, searched within the chunk's lines when they are known.
        span = line_span(str(root / path), " ".join(text.split()), chunk)
        if span is not None:
            return path, *span
    if chunk is not None:
        return path, *chunk  # a stored chunk knows its lines
    return path, 1, 1


def line_span(file: str, target: str, within: tuple[int, int] | None = None) -> tuple[int, int] | None:
    """Lines where ``target`` (white space collapsed) starts and ends in ``file`` (only lines
    ``within`` when given), or ``None`` when it is not found or the file cannot be read."""
    try:
        stat = os.stat(file)
    except OSError:
        return None
    # Keyed by the file's identity on disk, so a long-lived server sees edited files (the
    # change time and inode also move when an edit keeps the size and modification time).
    identity = (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino)
    return _line_span(file, identity, target, within)


def forget_lines() -> None:
    """Empty the caches of file lines (called when the store switches generations)."""
    _line_span.cache_clear()
    _joined_lines.cache_clear()


@functools.lru_cache(maxsize=512)
def _line_span(file: str, identity: tuple[int, ...], target: str, within: tuple[int, int] | None) -> tuple[int, int] | None:
    joined = _joined_lines(file, identity, within)
    if joined is None:
        return None
    (text, owner), (skeleton, skeleton_owner) = joined
    return _find(text, owner, target, 60) or _find(skeleton, skeleton_owner, _skeleton(target), 40)


def _find(text: str, owner: tuple[int, ...], target: str, anchor: int) -> tuple[int, int] | None:
    head, tail = target[:anchor], target[-anchor:]
    first = text.find(head) if head else -1
    # The file holds at least the target's characters between head and tail (markup only
    # adds), so the tail is searched no earlier than that: a repeated line ("Booting worker
    # ...") must not end the span at its first occurrence.
    last = text.find(tail, max(first, 0) + max(0, len(target) - len(tail))) if tail else -1
    if first < 0 or last < 0:
        return None
    return owner[first], owner[last + len(tail) - 1]


def _skeleton(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


@functools.lru_cache(maxsize=64)
def _joined_lines(file: str, identity: tuple[int, ...], within: tuple[int, int] | None) -> tuple[tuple[str, tuple[int, ...]], tuple[str, tuple[int, ...]]] | None:
    """The lines (``within`` only) joined by single spaces, white space collapsed, and their
    letters and digits alone (case folded), each with the line of every character."""
    try:
        lines = split_lines(Path(file).read_bytes().decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError):
        return None
    joined: list[str] = []
    owner: list[int] = []
    skeleton: list[str] = []
    skeleton_owner: list[int] = []
    for number, line in enumerate(lines, 1):
        if within is not None and not within[0] <= number <= within[1]:
            continue
        piece = " ".join(line.split())
        if piece:
            if joined:
                joined.append(" ")
                owner.append(number)
            joined.append(piece)
            owner.extend([number] * len(piece))
            bare = _skeleton(piece)
            skeleton.append(bare)
            skeleton_owner.extend([number] * len(bare))
    return ("".join(joined), tuple(owner)), ("".join(skeleton), tuple(skeleton_owner))
