"""Markdown to sections of plain text, line by line so every line keeps its number.

Headings (``#`` ATX and underlined setext) start a new section and become its title; they
are not repeated in the body. Emphasis, links (the link text stays), images (the alt text
stays), code span marks (a span may run onto the next line of its paragraph), HTML tags and
comments, quote markers and rules are stripped. List items keep a normalised marker (``- ``
or ``1. ``, two spaces a nesting level; continuation lines indented under their item) so a
list still reads as a list; table rows become ``cell | cell``; fenced code is kept as text,
as its own block. A YAML front matter block is dropped, its ``title:`` becoming the title of
the text before the first heading. MyST ``{include}``, ``{literalinclude}`` and
``{toctree}`` fences are dropped; a file holding nothing but includes is reported by
:func:`markdown_source` as ``only includes <target>``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable

from agentic_rag._ingest.blocks import ListNesting, ParsedSource, SectionBuilder, TextSection, include_problem, table_row
from agentic_rag._ingest.rst_inline import role_text
from agentic_rag._text.lines import split_lines

__all__ = ["clean_inline", "markdown_source", "parse_markdown", "parse_markdown_into"]

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*)|[ \t]*)$")  # the closing #s are cut by _atx_title
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]*\S+")
# No two runs of blanks may meet without a required character between them (``[ \t]*\|?[ \t]*``
# backtracks quadratically over a long run of spaces).
_TABLE_RULE = re.compile(r"^[ \t]*(?:\|[ \t]*)?:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+(?:\|[ \t]*)?$|^[ \t]*\|[ \t]*:?-+:?[ \t]*\|[ \t]*$")
_QUOTE_RUN = re.compile(r"[> \t]*")
_DOUBLE_BLANK = re.compile(r"[ \t][ \t]")
_LIST = re.compile(r"^([ \t]*)([-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?")
_MYST = re.compile(r"^[ \t]*\{([\w:-]+)\}[ \t]*(\S*)")
_MYST_DROPPED = frozenset({"include", "literalinclude", "toctree"})
_MYST_ROLE = re.compile(r"\{([A-Za-z][\w.+-]*(?::[A-Za-z][\w.+-]*)?)\}$")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
_TICKS = re.compile(r"`+")
# Link text stops at the next bracket and an autolink at the next "<", so a line of "[a " or
# "<http:" costs linear time, not a scan to the end of the line from every opening.
_IMAGE = re.compile(r"!\[([^\[\]]*)\]\([^()]*\)")
_LINK = re.compile(r"\[([^\[\]]+)\]\([^()]*\)")
_REF_LINK = re.compile(r"\[([^\[\]]+)\]\[[^\[\]]*\]")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^<>\s]+)>")
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_STRONG = re.compile(r"\*\*(?=\S)((?:[^*]|\*(?!\*))+?)(?<=\S)\*\*|__(?=\S)((?:[^_]|_(?!_))+?)(?<=\S)__")
_EM_STAR = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*]+?)(?<=[^\s*])\*(?![\w*])")
_EM_UNDER = re.compile(r"(?<![\w_])_(?=[^\s_])([^_]+?)(?<=[^\s_])_(?![\w_])")
_STRIKE = re.compile(r"~~(?=\S)((?:[^~]|~(?!~))+?)(?<=\S)~~")
# Each emphasis pattern stops at the next delimiter character, so a line costs linear time.
# Escaped characters are parked in the private-use area while markup is stripped.
_PARK = 0xE000
_UNPARK = {_PARK + code: code for code in range(128)}
_REPARK = {_PARK + code: "\\" + chr(code) for code in range(128)}  # escapes are literal in code
_SPAN = "\ue100"  # stands for one code span while the markup around it is stripped
_SPAN_RE = re.compile(_SPAN)
_MARKUP_CHARS = frozenset("*_`[]<>!~\\")


def _strip_markup(text: str) -> str:
    text = _IMAGE.sub(r"\1", text)
    text = _LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
    text = _AUTOLINK.sub(r"\1", text)
    text = _TAG.sub("", text)
    text = text.replace("`", "")  # a backtick run no run of the same length closes is literal
    text = _STRONG.sub(lambda m: m.group(1) or m.group(2), text)
    text = _EM_STAR.sub(r"\1", text)
    text = _EM_UNDER.sub(r"\1", text)
    return _STRIKE.sub(r"\1", text)


def _unquoted(line: str) -> str:
    """``line`` without its blockquote markers (up to three blanks, then ``>`` runs each with
    one optional blank). The pattern ``(>[ \\t]?)+`` keeps a frame per marker, a gigabyte for
    a line of millions of ``>``; here the markers are the run of ``>`` and blanks up to its
    first blank that follows a blank, found by two single-character scans."""
    start = len(line) - len(line.lstrip(" \t"))
    if start > 3 or line[start:start + 1] != ">":
        return line
    end = _QUOTE_RUN.match(line, start).end()
    double = _DOUBLE_BLANK.search(line, start, end)
    return line[double.start() + 1 if double else end:]


def _without_comments(line: str) -> tuple[str, bool]:
    """``line`` without its HTML comments, and whether a comment stays open at its end (one
    left-to-right pass: a line of ``<!--`` never rescans the rest of the line)."""
    if "<!--" not in line:
        return line, False
    kept, position = [], 0
    while True:
        start = line.find("<!--", position)
        if start < 0:
            kept.append(line[position:])
            return "".join(kept), False
        kept.append(line[position:start])
        end = line.find("-->", start + 4)
        if end < 0:
            return "".join(kept), True
        position = end + 3


def _span_content(code: str) -> str:
    # CommonMark: one space is stripped from each side when both sides have one.
    if len(code) > 2 and code[0] == " " and code[-1] == " " and code.strip(" "):
        return code[1:-1]
    return code


def _code_spans(line: str, closes_later: Callable[[int], bool]) -> tuple[list[tuple[int, int, str]], int, int]:
    """Code spans of ``line`` as ``(start, end, content)``, then where and how long a backtick
    run is that stays open to a later line (``(-1, 0)`` when none). A run is closed by the next
    run of the same length only; one nothing closes is a literal backtick. Runs are looked up
    by length, so a long line costs O(n log n), never quadratic."""
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(line)]
    by_length: dict[int, list[int]] = {}
    for position, (a, b) in enumerate(runs):
        by_length.setdefault(b - a, []).append(position)
    spans: list[tuple[int, int, str]] = []
    position = 0
    while position < len(runs):
        a, b = runs[position]
        same = by_length[b - a]
        later = bisect_right(same, position)
        if later == len(same):
            if closes_later(b - a):
                return spans, a, b - a
            position += 1
            continue
        close = runs[same[later]]
        spans.append((a, close[1], _span_content(line[b:close[0]])))
        position = same[later] + 1
    return spans, -1, 0


def _never(ticks: int) -> bool:
    return False


def _clean(line: str, open_ticks: int = 0, closes_later: Callable[[int], bool] = _never) -> tuple[str, int]:
    """Clean one line; ``open_ticks`` is the length of a code span opened on an earlier line
    and ``closes_later(n)`` says whether a run of ``n`` backticks on a later line of the same
    paragraph closes one opened here.

    Returns:
        The cleaned line and the length of a code span still open at its end (0 if none).
    """
    prefix = ""
    if open_ticks:
        close = next((m for m in _TICKS.finditer(line) if len(m.group()) == open_ticks), None)
        if close is None:
            return line.rstrip(), open_ticks  # the whole line is inside the code span
        prefix, line = line[:close.start()], line[close.end():]
    if not _MARKUP_CHARS.intersection(line):
        return (prefix + line).rstrip(), 0
    escaped = "\\" in line
    if escaped:
        line = _ESCAPE.sub(lambda m: chr(_PARK + ord(m.group(1))), line)
    spans, open_at, still_open = _code_spans(line, closes_later) if "`" in line else ([], -1, 0)
    tail = ""
    if still_open:
        line, tail = line[:open_at], line[open_at + still_open:].translate(_REPARK)
    # Code spans are parked as one private-use character each while markup is stripped, so
    # emphasis and links around them still match and their content is never touched.
    pieces, previous, codes = [], 0, []
    for start, end, code in spans:
        piece = line[previous:start]
        role = _MYST_ROLE.search(piece)
        if role is not None:
            # A MyST role ({class}`~pkg.Name`) shows what Sphinx shows: "Name".
            piece, code = piece[:role.start()], role_text(role.group(1), code)
        pieces.append(piece)
        codes.append(code.translate(_REPARK))
        previous = end
    pieces.append(line[previous:])
    text = _strip_markup(_SPAN.join(pieces))
    if text.count(_SPAN) == len(codes):
        contents = iter(codes)
        text = _SPAN_RE.sub(lambda m: next(contents), text)
    else:  # markup swallowed a span (one inside a link target): clean the pieces one by one
        text = "".join(_strip_markup(piece) + code for piece, code in zip(pieces, codes + [""]))
    text = prefix + text + tail
    return (text.translate(_UNPARK) if escaped else text).rstrip(), still_open


def clean_inline(line: str) -> str:
    """Strip inline Markdown from one line, keeping its words (code spans kept verbatim).

    Args:
        line: One line of Markdown body text (block markers already removed).

    Returns:
        The visible text.
    """
    return _clean(line)[0]


def _atx_title(content: str) -> str:
    """An ATX heading's text without its optional closing ``#`` run (string methods, not a lazy
    regex, which costs quadratic time on a heading padded with spaces)."""
    content = content.rstrip(" \t")
    bare = content.rstrip("#")
    if bare != content and (not bare or bare[-1] in " \t"):
        return bare.rstrip(" \t")
    return content


def _table_row(line: str) -> str:
    stripped = line.strip()
    if stripped.startswith("|"):
        stripped = stripped[1:]
    if stripped.endswith("|") and not stripped.endswith("\\|"):
        stripped = stripped[:-1]
    return table_row(re.split(r"(?<!\\)\|", stripped))


def _front_matter(lines: list[str]) -> tuple[int, str]:
    """Number of leading front-matter lines and its ``title:`` (or ``""``)."""
    if not lines or lines[0].strip() != "---":
        return 0, ""
    title = ""
    for index in range(1, min(len(lines), 200)):
        stripped = lines[index].strip()
        if stripped in ("---", "..."):
            return index + 1, title
        if stripped.lower().startswith("title:") and not title:
            title = stripped[6:].strip().strip("\"'")
    return 0, ""


def _list_line(body: str, lists: ListNesting) -> str | None:
    """A list item's line with its marker normalised (``- `` or ``N. ``, two spaces a level)."""
    match = _LIST.match(body)
    if match is None:
        return None
    indent = len(match.group(1).expandtabs(4))
    level = lists.item(indent, len(match.group(0).expandtabs(4)))
    marker = match.group(2)
    return "  " * level + ("- " if marker in "-*+" else marker[:-1] + ". ")


def markdown_source(text: str) -> ParsedSource:
    """Parse Markdown as :func:`parse_markdown` does; a file holding nothing but MyST
    ``{include}`` directives comes back as the problem ``only includes <target>``.

    Args:
        text: Decoded Markdown with ``\\n`` newlines.

    Returns:
        The sections, or the reason there are none.
    """
    sections, includes = _parse(text)
    if not sections and includes:
        return ParsedSource(problem=include_problem(includes))
    return ParsedSource(sections)


def parse_markdown(text: str) -> tuple[TextSection, ...]:
    """Turn Markdown into titled sections of plain-text paragraphs.

    Args:
        text: Decoded Markdown with ``\\n`` newlines.

    Returns:
        Sections in file order; sections without body text are dropped.
    """
    return _parse(text)[0]


def parse_markdown_into(text: str, out: SectionBuilder) -> None:
    """Parse Markdown into an open :class:`SectionBuilder` (a notebook's Markdown cell): the
    headings already open stay open, and the ones opened here title what follows.

    Args:
        text: Decoded Markdown with ``\\n`` newlines (no front matter is looked for).
        out: The builder; its current paragraph is ended at the end.
    """
    _parse(text, out)
    out.end_paragraph()


def _parse(text: str, builder: SectionBuilder | None = None) -> tuple[tuple[TextSection, ...], list[str]]:
    lines = split_lines(text)
    skip, title = _front_matter(lines) if builder is None else (0, "")
    out = builder if builder is not None else SectionBuilder(title)
    lists = ListNesting()
    includes: list[str] = []
    fence = ""
    fence_kind = ""  # "code", or "drop" for a MyST directive whose body is not text
    in_comment = False
    ticks = 0  # length of a code span still open from the previous line

    run_lengths: dict[int, frozenset[int]] = {}  # a line's backtick run lengths, found once

    def closes_later(n: int) -> bool:
        # Each line's runs are measured once: a line of many runs no later line closes asks
        # about each of them, and rescanning the next 20 lines each time was quadratic.
        for passed in [look for look in run_lengths if look < index]:
            del run_lengths[passed]  # only the 20 lines ahead are kept
        for look in range(index, min(len(lines), index + 20)):
            lengths = run_lengths.get(look)
            if lengths is None:
                following = lines[look]
                lengths = run_lengths[look] = frozenset(len(m.group()) for m in _TICKS.finditer(following)) if following.strip() else frozenset({0})
            if 0 in lengths:
                return False  # a blank line ends the paragraph
            if n in lengths:
                return True
        return False

    index = skip
    while index < len(lines):
        raw, number = lines[index], index + 1
        index += 1
        if fence:
            closing = raw.strip()
            if closing.startswith(fence[0] * len(fence)) and not closing.strip(fence[0]):
                fence = ""
                out.end_paragraph()
            elif fence_kind == "code":
                out.line(raw.rstrip(), number)
            continue
        if in_comment:
            if "-->" not in raw:
                continue
            raw = raw.split("-->", 1)[1]
            in_comment = False
        raw, in_comment = _without_comments(raw)
        if ticks:
            if not raw.strip():
                ticks = 0
            else:
                cleaned, ticks = _clean(raw.strip(), ticks, closes_later)
                out.line("  " * lists.continuation(len(raw) - len(raw.lstrip())) + cleaned, number)
                continue
        opening = _FENCE.match(raw)
        if opening:
            out.end_paragraph()
            lists.end()
            fence = opening.group(1)
            directive = _MYST.match(raw[opening.end():])
            fence_kind = "code"
            if directive and directive.group(1) in _MYST_DROPPED:
                fence_kind = "drop"
                if directive.group(1) in ("include", "literalinclude") and directive.group(2):
                    includes.append(directive.group(2))
            continue
        if not raw.strip():
            out.end_paragraph()
            lists.after_blank = True
            continue
        atx = _ATX.match(raw)
        if atx:
            lists.end()
            out.heading(clean_inline(_atx_title(atx.group(2) or "")), len(atx.group(1)))
            continue
        following = lines[index] if index < len(lines) else ""
        if _SETEXT.match(following) and not _LIST.match(raw) and not _RULE.match(raw) and not _TABLE_RULE.match(raw):
            # A line underlined by === or --- is a heading (CommonMark would take the whole
            # paragraph; taking the last line keeps earlier lines as body text).
            lists.end()
            out.heading(clean_inline(_unquoted(raw).strip()), 1 if following.strip().startswith("=") else 2)
            index += 1  # the underline
            continue
        if _RULE.match(raw):
            out.end_paragraph()
            lists.end()
            continue
        if _REFERENCE.match(raw) or _TABLE_RULE.match(raw):
            continue
        body = _unquoted(raw)
        lead = _list_line(body, lists)
        if lead is not None:
            body = body[_LIST.match(body).end():]  # type: ignore[union-attr]
        elif lists.columns:
            lead = "  " * lists.continuation(len(body.expandtabs(4)) - len(body.expandtabs(4).lstrip()))
        if "|" in body and body.lstrip().startswith("|"):
            body = _table_row(body)
        cleaned, ticks = _clean(body.strip(), 0, closes_later)
        if cleaned:
            out.line((lead or "") + cleaned, number)
    return (out.finish() if builder is None else ()), includes
