"""``show``: a cited location read back as rendered text, for the CLI and MCP alike.

A location is what ``search`` and ``ask`` print (``docs/guide.md:12-18``,
``report.pdf:p12:3-5``, ``notes.ipynb:c7:1-4``; a name holding a colon, a quote or a control
character in double quotes, as :func:`~agentic_rag._interfaces.locations.display_path` shows
it), or a bare ``PATH`` (the whole file), ``PATH:N`` (one line), ``PATH:p12`` / ``PATH:c7`` (a
whole page or cell). :func:`parse_location` turns it into a
:class:`~agentic_rag._store.spans.SpanRequest`; :func:`show_location` reads the lines
(:func:`~agentic_rag._store.spans.read_span`) and cuts them at a byte cap; :func:`show_text`
prints them: per run of lines in one section and place, a ``path:lines  § heading path`` header,
then the lines, each after its source line number. When the cap cuts, the last line says so and
gives the location to read on with.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import InvalidInputError
from agentic_rag._interfaces.locations import display_path
from agentic_rag._store.rendered_lines import RenderedLine
from agentic_rag._store.spans import MissingFileError, SpanRequest, read_span

__all__ = ["DEFAULT_MAX_BYTES", "EXPECTED_FORMS", "parse_location", "show_location", "show_text"]

#: The byte cap of ``show`` unless asked otherwise (0: none).
DEFAULT_MAX_BYTES = 4000
#: The forms a location may take, as errors name them.
EXPECTED_FORMS = "PATH, PATH:N, PATH:N-M, PATH:pPAGE[:N-M] (PDF) or PATH:cCELL[:N-M] (notebook)"

_STAGE = "show"
# The place marks a location may carry and the request field each fills. A printed page label
# would be one more entry here, resolved to its page index before reading.
_PLACES = {"p": "page", "c": "cell"}
_SUFFIX = re.compile(r"(?::(?P<mark>[pc])(?P<place>\d+))?(?::(?P<start>\d+)(?:-(?P<end>\d+))?)?")
_DRIVE = re.compile(r"[A-Za-z]:[\\/]")
_UNESCAPE = {"\\": "\\", '"': '"', "n": "\n", "r": "\r", "t": "\t"}
_INDENT = "  "


def _bad(location: str, why: str = "") -> InvalidInputError:
    return InvalidInputError(f"location {location!r} is not {EXPECTED_FORMS}" + (f": {why}" if why else ""), stage=_STAGE)


def _quoted(location: str) -> tuple[str, str]:
    """The name inside a leading double-quoted path (escapes undone) and what follows it."""
    out, i = [], 1
    while i < len(location):
        char = location[i]
        if char == '"':
            return "".join(out), location[i + 1:]
        if char == "\\" and i + 1 < len(location):
            code = location[i + 1]
            width = {"u": 4, "U": 8}.get(code, 0)
            if width:
                digits = location[i + 2:i + 2 + width]
                if len(digits) != width or not all(c in "0123456789abcdefABCDEF" for c in digits):
                    raise _bad(location, f"a bad escape \\{code}{digits} in the quoted path")
                out.append(chr(int(digits, 16)))
                i += 2 + width
                continue
            if code not in _UNESCAPE:
                raise _bad(location, f"a bad escape \\{code} in the quoted path")
            out.append(_UNESCAPE[code])
            i += 2
            continue
        out.append(char)
        i += 1
    raise _bad(location, "the quoted path has no closing quote")


def parse_location(location: str) -> SpanRequest:
    """The span a location names.

    Args:
        location: ``PATH``, ``PATH:N``, ``PATH:N-M``, ``PATH:pPAGE[:N-M]`` or
            ``PATH:cCELL[:N-M]``; ``PATH`` in double quotes when it holds a colon.

    Returns:
        The request (no lines: the whole file, page or cell).

    Raises:
        InvalidInputError: Not one of those forms, or numbers out of range (a line or page
            below 1, an end before the start); the message names the location.
    """
    if not isinstance(location, str) or not location.strip():
        raise InvalidInputError(f"location must be a non-empty string ({EXPECTED_FORMS}), got {location!r}", stage=_STAGE)
    if location.startswith('"'):
        path, rest = _quoted(location)
        match = _SUFFIX.fullmatch(rest)
        if match is None:
            raise _bad(location, f"{rest!r} after the quoted path")
    else:
        drive = 2 if _DRIVE.match(location) else 0
        colon = location.find(":", drive)
        path, rest = (location, "") if colon < 0 else (location[:colon], location[colon:])
        match = _SUFFIX.fullmatch(rest)
        # A shell drops the double quotes search prints around a name holding a colon
        # ("a:b.md":3-5 arrives as a:b.md:3-5): the name then ends where a place or lines do.
        while match is None and colon >= 0:
            colon = location.find(":", colon + 1)
            if colon > 0:
                candidate = _SUFFIX.fullmatch(location[colon:])
                if candidate is not None and candidate.group(0):
                    path, match = location[:colon], candidate
        if match is None:
            raise _bad(location, "a name holding a colon is written in double quotes, as search prints it"
                       " (in a shell, inside single quotes: '\"a:b.md\":3-5')" if ":" in rest else "")
    if not path:
        raise _bad(location, "no path")
    fields: dict[str, Any] = {"path": path}
    if match.group("mark"):
        fields[_PLACES[match.group("mark")]] = int(match.group("place"))
    if match.group("start"):
        fields["start_line"] = int(match.group("start"))
        fields["end_line"] = int(match.group("end") or match.group("start"))
    try:
        return SpanRequest(**fields)
    except InvalidInputError as exc:
        raise _bad(location, exc.message) from None


def _place(line: RenderedLine) -> str:
    return f"p{line.page}:" if line.page is not None else f"c{line.cell}:" if line.cell is not None else ""


def _blocks(lines: list[RenderedLine]) -> list[list[RenderedLine]]:
    """Runs of lines in one place and one section."""
    out: list[list[RenderedLine]] = []
    for line in lines:
        if out and (out[-1][-1].page, out[-1][-1].cell, out[-1][-1].section) == (line.page, line.cell, line.section):
            out[-1].append(line)
        else:
            out.append([line])
    return out


def _header_text(path: str, place: str, start: int, end: int, section: str) -> str:
    """``path:place:start-end  § section``, the line above each run of lines."""
    return f"{display_path(path)}:{place}{start}-{end}" + (f"  \u00a7 {section}" if section else "")


def _header(path: str, block: list[RenderedLine]) -> str:
    return _header_text(path, _place(block[0]), block[0].line, max(line.last_line for line in block), block[0].section)


def _numbered(line: RenderedLine) -> str:
    return f"{_INDENT}{line.line}: {line.text}"


def _cut(path: str, lines: list[RenderedLine], max_bytes: int) -> tuple[list[RenderedLine], int]:
    """The lines that fit in ``max_bytes`` of text output (headers counted), and the index of
    the first line not shown whole; at least one line is shown, itself cut when it alone is
    too long."""
    used, kept = 0, []
    for block in _blocks(lines):
        used += len(_header(path, block).encode("utf-8")) + 1
        for line in block:
            size = len(_numbered(line).encode("utf-8")) + 1
            if used + size > max_bytes:
                if kept:
                    return kept, len(kept)
                room = max(0, max_bytes - used - len(f"{_INDENT}{line.line}: \u2026\n".encode("utf-8")))
                text = line.text.encode("utf-8")[:room].decode("utf-8", "ignore").rstrip()
                return [RenderedLine(line.line, line.line, f"{text} \u2026", line.section, line.page, line.cell)], 0
            used += size
            kept.append(line)
    return kept, len(kept)


def show_location(store: str | os.PathLike[str] | None, location: str, *, root: str | os.PathLike[str], context: int = 0,
                  max_bytes: int = DEFAULT_MAX_BYTES, read_files: bool = True) -> dict[str, Any]:
    """The ``show --json`` payload of ``location``.

    Args:
        store: The store folder to read (``None``, no store there, or a store without the
            file: the file is read).
        location: What to show (see :func:`parse_location`).
        root: The folder paths are relative to (where ``index`` ran).
        context: Rendered lines to add before and after the span (>= 0).
        max_bytes: Most bytes of text output (headers and numbers counted; 0: no cap).
        read_files: Read a file the store does not hold with its loader (``False``: only
            what the store holds, as a server answering clients does).

    Returns:
        ``{path, source, blocks: [{start_line, end_line, section, page?, cell?, lines:
        [{line, text}]}], truncated, next}``: ``next`` is the location to read on with when
        the cap cut (else ``None``); and ``ends_at: {line, of, next_page?}`` when the span asked
        for lines past the last line of text of the file, page or cell (``of``); a PDF page's
        span then goes on with the first lines of ``next_page``, as many as were asked past
        the end.

    Raises:
        InvalidInputError: A malformed location, or ``context`` or ``max_bytes`` below 0.
        StoreError: Nothing to show there (no such file, or no text on those lines).
    """
    request = parse_location(location)
    require_int(context, "context", minimum=0, stage=_STAGE)
    require_int(max_bytes, "max_bytes", minimum=0, stage=_STAGE)
    try:
        view = read_span(store, request, root=Path(root), context=context, max_chars=max_bytes or None, read_files=read_files)
    except MissingFileError:
        if not location.startswith('"') and ":" in request.path[2 if _DRIVE.match(request.path) else 0:]:
            # The name was taken to end before the last place or lines (quotes a shell
            # dropped); no such file: the location was most likely mistyped.
            raise _bad(location, f"and no file is named {request.path!r}") from None
        raise
    lines = list(view.lines)
    shown, unshown = _cut(view.path, lines, max_bytes) if max_bytes else (lines, len(lines))
    following = None
    if unshown < len(lines) or not view.complete:
        head = lines[min(unshown, len(lines) - 1)]
        end = max(line.last_line for line in lines[unshown:] if (line.page, line.cell) == (head.page, head.cell)) if unshown < len(lines) else head.last_line
        if not view.complete and request.end_line is not None and request.place == (head.page, head.cell):
            end = max(end, request.end_line)  # the span goes on past what was read
        following = f"{display_path(view.path)}:{_place(head)}{head.line}-{end}"
    blocks = []
    for block in _blocks(shown):
        entry: dict[str, Any] = {"start_line": block[0].line, "end_line": max(line.last_line for line in block), "section": block[0].section,
                                 "lines": [{"line": line.line, "text": line.text} for line in block]}
        for key in ("page", "cell"):
            if getattr(block[0], key) is not None:
                entry[key] = getattr(block[0], key)
        blocks.append(entry)
    payload = {"path": view.path, "source": view.source.value, "blocks": blocks, "truncated": following is not None, "next": following}
    if view.ends_at is not None:
        payload["ends_at"] = {"line": view.ends_at, "of": "page" if request.page is not None else "cell" if request.cell is not None else "file"}
        if view.next_page is not None:
            payload["ends_at"]["next_page"] = view.next_page
    return payload


def show_text(payload: dict[str, Any], max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """The text output of a :func:`show_location` payload (no final newline)."""
    out = []
    for block in payload["blocks"]:
        place = f"p{block['page']}:" if "page" in block else f"c{block['cell']}:" if "cell" in block else ""
        out.append(_header_text(payload["path"], place, block["start_line"], block["end_line"], block["section"]))
        out.extend(f"{_INDENT}{line['line']}: {line['text']}" for line in block["lines"])
    ends = payload.get("ends_at")
    if ends:
        going_on = f"; the lines asked past it are page {ends['next_page']}'s" if ends.get("next_page") else ""
        out.append(f"(the {ends['of']}'s text ends at line {ends['line']}{going_on})")
    if payload["truncated"]:
        out.append(f"\u2026 cut at {max_bytes} bytes (--max-bytes); read on with: show {payload['next']}")
    return "\n".join(out)
