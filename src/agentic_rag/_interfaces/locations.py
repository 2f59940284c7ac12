"""Where a snippet's text sits in its source file: path, 1-based line range, page or cell.

Snippets that carry ``start_line`` / ``end_line`` in their metadata (as stored chunks do) are
located within those lines; otherwise the lines are found by locating the text in the source
file under ``root``. Text is found by its first and last 60 characters with white space
collapsed, or, since loaders strip markup (backticks, table pipes, emphasis), by its first and
last 40 letters and digits.

Text extracted from a PDF, a Word document or a notebook is never looked for in the file (its
lines count lines of a page, of a cell, of the extracted text): a stored chunk of such a file
carries its line map (``line_marks``), and a quote is placed on its lines through it. Such a
chunk also says its ``page`` (PDF) or ``cell`` (notebook), which JSON payloads carry beside
``path``, ``start_line`` and ``end_line`` (absent for other files) and text shows as
``report.pdf:p12:3-5`` and ``notes.ipynb:c7:1-4`` (:func:`location_label`); a PDF page that
prints its number (or has a ``/PageLabels`` label) also carries ``page_label``, made by the
loader, shown as ``report.pdf:p166:3-5 (printed 160)``. Every path text
output shows goes through :func:`display_path`: a name holding a control character (a newline
would split a citation across lines), a colon (``x.md:p3:1-2.md`` would read as a page
citation) or a double quote is shown in double quotes, escaped.

Lines are counted by :func:`~agentic_rag._text.lines.split_lines`, as ingestion counts them (a
form feed or U+2028 ends no line). Files read here are cached by their identity on disk (size,
modification and change times, inode), and :func:`forget_lines` empties the caches: the store
service calls it whenever the store switches generations, so a long-lived server never cites
the lines of a file's previous content after another process re-indexed it.
"""

from __future__ import annotations

import functools
import os
import re
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agentic_rag._contracts import Snippet
from agentic_rag._contracts.validation import is_int
from agentic_rag._text.lines import split_lines

__all__ = ["citation_location", "display_path", "forget_lines", "line_marks", "line_span", "location_label", "marked_span", "place_fields",
           "source_location"]

_TOKEN = re.compile(r"\S+")
_ALNUM_RUN = re.compile(r"[^\W_]+")  # characters for which str.isalnum() holds
_PLACES = (("page", "p"), ("cell", "c"))
_DRIVE = re.compile(r"[A-Za-z]:[\\/]")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _unsafe(char: str) -> bool:
    # Cc: C0/C1 controls (newline, escape...); Cf: format characters (bidi overrides, zero
    # width); Zl/Zp: the Unicode line and paragraph separators.
    return char in ':"' or unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp")


def display_path(path: str) -> str:
    """``path`` as text output shows it, so it is read as one name and nothing else.

    Plain names are shown as they are. A name holding a control or format character, a
    colon or a double quote is shown in double quotes, with ``\\``, ``"``, ``\\n``, ``\\r``,
    ``\\t`` escaped and other such characters as ``\\uXXXX``: ``"a\\nb.md":3-5``,
    ``"x.md:p3:1-2.md":1-2``. A leading drive (``C:\\``) is no colon of the name.

    Args:
        path: A file path, relative to the indexed root or absolute.

    Returns:
        The text to print.
    """
    body = path[2:] if _DRIVE.match(path) else path
    if not any(_unsafe(char) for char in body):
        return path
    out = []
    for char in path:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif char != ":" and _unsafe(char):
            out.append(f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def place_fields(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """``{"page": n}`` or ``{"cell": n}`` from a chunk's metadata (``{}`` for other files),
    with ``page_label`` beside ``page`` when the loader found the number the page prints."""
    for key, _ in _PLACES:
        value = metadata.get(key)
        if is_int(value) and value >= 1:
            label = metadata.get("page_label") if key == "page" else None
            return {key: value, "page_label": label} if isinstance(label, str) and label else {key: value}
    return {}


def location_label(item: Mapping[str, Any]) -> str:
    """``path:start-end`` of a payload item (a hit, a citation, an evidence passage), with the
    page or cell when it has one: ``report.pdf:p12:3-5``, ``notes.ipynb:c7:1-4``; the path as
    :func:`display_path` shows it. A page whose printed number differs from its index shows
    it after: ``manual.pdf:p166:3-5 (printed 160)``."""
    place = "".join(f"{mark}{item[key]}:" for key, mark in _PLACES if isinstance(item.get(key), int))
    label = item.get("page_label")
    printed = f" (printed {label})" if isinstance(label, str) and label and isinstance(item.get("page"), int) and label != str(item["page"]) else ""
    return f"{display_path(str(item['path']))}:{place}{item['start_line']}-{item['end_line']}{printed}"


def line_marks(metadata: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    """A chunk's line map from its metadata (``()`` when it has none, or a malformed one)."""
    raw = metadata.get("line_marks")
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        return ()
    marks = []
    for pair in raw:
        if not (isinstance(pair, Sequence) and len(pair) == 2 and all(is_int(v) for v in pair)):
            return ()
        marks.append((pair[0], pair[1]))
    return tuple(marks)


def marked_span(text: str, marks: Sequence[tuple[int, int]], target: str) -> tuple[int, int] | None:
    """The lines ``target`` (white space collapsed) starts and ends on inside a chunk's
    ``text``, through the chunk's line map; ``None`` when it is not in the text.

    Args:
        text: The chunk's text.
        marks: Its ``(offset, line)`` pairs, offsets increasing from 0.
        target: The quote or unit to place.
    """
    if not marks:
        return None
    # The line of every character, built a mark at a time (a chunk may be one word of
    # megabytes: a hex blob, a run of CJK), so each token's lines are a slice, not a lookup per
    # character.
    char_line: list[int] = [marks[0][1]] * min(marks[0][0], len(text))
    for (offset, number), (following, _) in zip(marks, [*marks[1:], (len(text), 0)]):
        char_line.extend([number] * max(0, min(following, len(text)) - max(offset, len(char_line))))
    joined: list[str] = []
    owner: list[int] = []
    skeleton: list[str] = []
    skeleton_owner: list[int] = []
    for token in _TOKEN.finditer(text):
        start, end = token.span()
        word = token.group()
        if joined:
            joined.append(" ")
            owner.append(char_line[start])
        joined.append(word)
        owner.extend(char_line[start:end])
        folded = word.casefold()
        if len(folded) == len(word):
            # Each character folds to one character: the skeleton is the folded word's runs of
            # letters and digits, each with its slice of lines (a token of URL or base64
            # characters is thousands of runs, not a lookup per character).
            for run in _ALNUM_RUN.finditer(folded):
                skeleton.append(run.group())
                skeleton_owner.extend(char_line[start + run.start():start + run.end()])
            continue
        for k, ch in enumerate(word):
            bare = _skeleton(ch)
            if bare:
                skeleton.append(bare)
                skeleton_owner.extend([char_line[start + k]] * len(bare))
    collapsed = " ".join(target.split())
    return (_find("".join(joined), tuple(owner), collapsed, 60)
            or _find("".join(skeleton), tuple(skeleton_owner), _skeleton(collapsed), 40))


def citation_location(snippet: Snippet, text: str, root: Path | None) -> dict[str, Any]:
    """``{path, start_line, end_line}`` of ``text`` in the snippet's source, with ``page`` or
    ``cell`` for a PDF page or a notebook cell (see :func:`source_location`)."""
    path, start, end = source_location(snippet, text, root)
    return {"path": path, "start_line": start, "end_line": end, **place_fields(snippet.metadata)}


def source_location(snippet: Snippet, text: str, root: Path | None) -> tuple[str, int, int]:
    """``(path, start_line, end_line)`` of ``text`` inside the snippet's source file.

    Args:
        snippet: The snippet (its metadata ``path`` names the file, relative to ``root``).
        text: A quote from the snippet (or its whole text).
        root: Folder the paths are relative to; ``None``: use the stored lines only.

    Returns:
        The quote's own lines when found in the file (for extracted text: in the chunk,
        through its line map; page and cell lines are never looked for in the file), else
        the chunk's stored lines, else ``(path, 1, 1)``.
    """
    meta = snippet.metadata
    stored = meta.get("path")
    path = stored if isinstance(stored, str) else f"{snippet.corpus_id}/{snippet.document_id}"
    start, end = meta.get("start_line"), meta.get("end_line")
    chunk = (start, max(start, end)) if isinstance(start, int) and isinstance(end, int) and start >= 1 else None
    marks = line_marks(meta)
    if marks or place_fields(meta):
        span = marked_span(snippet.text, marks, text)
        if span is not None:
            return path, *span
    elif root is not None and (root / path).is_file():
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
