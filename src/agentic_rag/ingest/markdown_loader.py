"""Markdown to sections of plain text, line by line so every line keeps its number.

Headings (``#`` ATX and underlined setext) start a new section and become its title; they
are not repeated in the body. Emphasis, links (the link text stays), images (the alt text
stays), inline code marks, HTML tags and comments, list and quote markers, table pipes and
rules are stripped; fenced code is kept as text, as its own block. A YAML front matter block
is dropped, its ``title:`` becoming the title of the text before the first heading.
"""

from __future__ import annotations

import re

from agentic_rag.ingest.blocks import TextBlock, TextSection, block_from_lines

__all__ = ["clean_inline", "parse_markdown"]

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]*\S+")
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$|^[ \t]*\|[ \t]*:?-+:?[ \t]*\|[ \t]*$")
_QUOTE = re.compile(r"^[ \t]{0,3}(>[ \t]?)+")
_LIST = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?")
_COMMENT = re.compile(r"<!--.*?-->")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_REF_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^>\s]+)>")
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EM_STAR = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])")
_EM_UNDER = re.compile(r"(?<![\w_])_(?=[^\s_])(.+?)(?<=[^\s_])_(?![\w_])")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
# Escaped characters are parked in the private-use area while markup is stripped.
_PARK = 0xE000
_UNPARK = {_PARK + code: code for code in range(128)}
_MARKUP_CHARS = frozenset("*_`[]<>!~\\")


def _strip_markup(text: str) -> str:
    text = _IMAGE.sub(r"\1", text)
    text = _LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
    text = _AUTOLINK.sub(r"\1", text)
    text = _TAG.sub("", text)
    text = text.replace("`", "")  # the unmatched half of a code span split across lines
    text = _STRONG.sub(r"\2", text)
    text = _EM_STAR.sub(r"\1", text)
    text = _EM_UNDER.sub(r"\1", text)
    return _STRIKE.sub(r"\1", text)


def clean_inline(line: str) -> str:
    """Strip inline Markdown from one line, keeping its words (code spans kept verbatim).

    Args:
        line: One line of Markdown body text (block markers already removed).

    Returns:
        The visible text.
    """
    if not _MARKUP_CHARS.intersection(line):
        return line.rstrip()
    escaped = "\\" in line
    if escaped:
        line = _ESCAPE.sub(lambda m: chr(_PARK + ord(m.group(1))), line)
    parts: list[str] = []
    position = 0
    if "`" in line:
        for match in _CODE_SPAN.finditer(line):
            parts.append(_strip_markup(line[position:match.start()]))
            parts.append(match.group(2).strip() or match.group(2))
            position = match.end()
    parts.append(_strip_markup(line[position:]))
    text = "".join(parts)
    return (text.translate(_UNPARK) if escaped else text).rstrip()


def _table_row(line: str) -> str:
    stripped = line.strip()
    if stripped.startswith("|"):
        stripped = stripped[1:]
    if stripped.endswith("|") and not stripped.endswith("\\|"):
        stripped = stripped[:-1]
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", stripped)]
    return " | ".join(c for c in cells if c)


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


class _Sections:
    """Accumulates paragraphs into blocks and blocks into titled sections."""

    def __init__(self, title: str) -> None:
        self.sections: list[TextSection] = []
        self.title = title
        self.blocks: list[TextBlock] = []
        self.paragraph: list[tuple[str, int]] = []

    def line(self, text: str, number: int) -> None:
        self.paragraph.append((text, number))

    def end_paragraph(self) -> None:
        block = block_from_lines(self.paragraph)
        if block is not None:
            self.blocks.append(block)
        self.paragraph = []

    def heading(self, title: str) -> None:
        self.end_paragraph()
        if self.blocks:
            self.sections.append(TextSection(tuple(self.blocks), self.title))
        self.blocks = []
        self.title = title

    def finish(self) -> tuple[TextSection, ...]:
        self.heading("")
        return tuple(self.sections)


def parse_markdown(text: str) -> tuple[TextSection, ...]:
    """Turn Markdown into titled sections of plain-text paragraphs.

    Args:
        text: Decoded Markdown with ``\\n`` newlines.

    Returns:
        Sections in file order; sections without body text are dropped.
    """
    lines = text.split("\n")
    skip, title = _front_matter(lines)
    out = _Sections(title)
    fence = ""
    in_comment = False
    index = skip
    while index < len(lines):
        raw, number = lines[index], index + 1
        index += 1
        if fence:
            closing = raw.strip()
            if closing.startswith(fence[0] * len(fence)) and not closing.strip(fence[0]):
                fence = ""
                out.end_paragraph()
            else:
                out.line(raw.rstrip(), number)
            continue
        if in_comment:
            if "-->" not in raw:
                continue
            raw = raw.split("-->", 1)[1]
            in_comment = False
        raw = _COMMENT.sub("", raw)
        if "<!--" in raw:
            raw, in_comment = raw.split("<!--", 1)[0], True
        opening = _FENCE.match(raw)
        if opening:
            out.end_paragraph()
            fence = opening.group(1)
            continue
        if not raw.strip():
            out.end_paragraph()
            continue
        atx = _ATX.match(raw)
        if atx:
            out.heading(clean_inline(atx.group(2) or ""))
            continue
        following = lines[index] if index < len(lines) else ""
        if _SETEXT.match(following) and not _LIST.match(raw) and not _RULE.match(raw) and not _TABLE_RULE.match(raw):
            # A line underlined by === or --- is a heading (CommonMark would take the whole
            # paragraph; taking the last line keeps earlier lines as body text).
            out.heading(clean_inline(_QUOTE.sub("", raw).strip()))
            index += 1  # the underline
            continue
        if _RULE.match(raw):
            out.end_paragraph()
            continue
        if _REFERENCE.match(raw) or _TABLE_RULE.match(raw):
            continue
        body = _QUOTE.sub("", raw)
        body = _LIST.sub("", body, count=1)
        if "|" in body and body.lstrip().startswith("|"):
            body = _table_row(body)
        cleaned = clean_inline(body.strip())
        if cleaned:
            out.line(cleaned, number)
    return out.finish()
