"""HTML to sections of plain text, with a small linear-time tokenizer.

Scripts, styles, templates and the document head are dropped (the ``<title>`` becomes the
title of the text before the first heading), and so is text a browser does not show (the
``hidden`` attribute, ``display:none``, ``visibility:hidden``, no visible size: text meant only
for a model); so are navigation bars and footers (``<nav>``,
``<footer>``, ``role="navigation"`` or ``"contentinfo"``, and elements whose class names one:
``navheader``, ``navfooter``, ``sphinxsidebar``...); ``<h1>``-``<h6>`` start sections titled by
their text, whose heading path holds every open heading of a higher level. The title of a
note, tip or warning box (a heading that reads ``Note``, ``Tip``, ``Warning``...) is no section:
it stays a line of text of the section the box stands in. Block elements (paragraphs, list
items, table rows, ``<br>``...) end paragraphs. White space is collapsed except inside
``<pre>``. Every piece of text keeps the source line it came from, so a chunk's line range
points into the original file. A page whose text is mostly link text in many short lines (an
index, a table of contents, a site map) is flagged as a list page
(:func:`~agentic_rag._ingest.list_pages.is_list_page`).

The tokenizer follows the HTML5 rules where they matter for text: a tag ends at the first
``>`` outside a quoted attribute value, a comment at ``-->``, ``<!...>`` and ``<?...>`` at
``>``, and the content of ``<script>`` and ``<style>`` is not markup. A construct left open at
the end of the file swallows the rest of it, as in a browser. Each character is looked at a
bounded number of times, so a hostile page (120 KB of ``<a ``, ``<!--`` repeated) costs
linear time; the standard library's ``html.parser`` rescans such input from every ``<``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from html import unescape

from agentic_rag._ingest.blocks import TextBlock, TextSection
from agentic_rag._ingest.html_elements import BLOCKS, HEADINGS, VOID, HiddenElement, hidden_from_readers, navigation
from agentic_rag._ingest.list_pages import is_list_page
from agentic_rag._ingest.work_budget import current_work_budget

__all__ = ["parse_html"]

_TAG_OPEN = re.compile(r"<(/?)([a-zA-Z][^\t\n\r\f />\x00]*)")
_TAG_STOP = re.compile(r"[>\"']")
# A tag's rest up to its ">" when every quote in it opens a value right after "=" and is
# closed: one C-level match for nearly every real tag; anything else takes _tag_end's loop,
# which this agrees with wherever it matches.
# (One character per step, never a nested "+": a tag with no ">" fails in linear time.)
_TAG_REST = re.compile(r"""(?:[^>"'=]|=\s*"[^"]*"|=\s*'[^']*'|=(?!\s*["']))*>""")
_RAW_TEXT = {tag: re.compile(rf"</{tag}(?=[\s/>])", re.IGNORECASE) for tag in ("script", "style")}
_DROPPED = frozenset({"script", "style", "noscript", "template", "svg", "math", "head", "iframe", "object"})
_CELLS = frozenset({"td", "th"})
_EXTERNAL = re.compile(r"(?i)^(?:[a-z][a-z0-9+.-]*:|//)")  # a scheme (https:, mailto:) or a host
# Titles of note boxes: text of the section the box stands in, never a section of their own.
_ADMONITIONS = frozenset({"note", "tip", "hint", "warning", "caution", "important", "danger", "attention"})
_ATTRIBUTE = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]*)))?""")


class _TextCollector:
    def __init__(self) -> None:
        self.line = 1  # the source line of the token being handled
        self.budget = current_work_budget()  # each piece of text is charged as it is made
        self.sections: list[TextSection] = []
        self.blocks: list[TextBlock] = []
        self.title = ""
        self.dropped: list[str] = []  # open dropped elements, innermost last
        self.open_dropped: dict[str, int] = {}  # how many of each are open (no scan per end tag)
        self.in_title = False
        self.page_title: list[str] = []
        self.heading: list[str] | None = None
        self.pre = 0
        self.text: list[str] = []
        self.length = 0
        self.marks: list[tuple[int, int]] = []
        self.space = False
        self.level = 0  # the heading being read
        self.open_headings: list[tuple[int, str]] = []  # (level, title), outermost first
        self.headings: tuple[str, ...] = ()  # the heading path of the text being read
        self.links: list[bool] = []  # open <a> elements: whether each links within the site
        self.linked = self.characters = 0
        self.hidden = HiddenElement()  # an element a browser does not show, with what is open inside it

    # -- structure ----------------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body" and self.dropped == ["head"]:
            self.dropped.clear()  # an unclosed <head> ends where the body starts
            self.open_dropped.clear()
        if self.hidden and self.hidden.start(tag):
            return
        if not self.dropped and tag not in VOID and hidden_from_readers(attrs):
            if tag in BLOCKS or tag in HEADINGS:
                self.end_block()
            self.hidden.enter(tag)
            return
        if self.dropped:
            if tag in _DROPPED or self.open_dropped.get(tag):  # nested like the dropped one: its end tag is not ours
                self.drop(tag)
            elif tag == "title" and self.dropped == ["head"]:
                self.in_title = True
            return
        if tag in _DROPPED or navigation(tag, attrs):
            self.end_block()
            self.drop(tag)
            return
        if tag == "a":
            self.links.append(_internal(attrs))
        if tag == "title":
            self.in_title = True
        elif tag in HEADINGS:
            self.end_block()
            self.heading = []
            self.level = int(tag[1])
        elif tag in _CELLS and self.length:
            self.space = True
            self.add_text("|", self.line)
            self.space = True
        elif tag in BLOCKS:
            self.end_block()
            if tag == "pre":
                self.pre += 1

    def drop(self, tag: str) -> None:
        self.dropped.append(tag)
        self.open_dropped[tag] = self.open_dropped.get(tag, 0) + 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.dropped and not self.hidden and tag in BLOCKS:
            self.end_block()

    def handle_endtag(self, tag: str) -> None:
        if self.hidden:
            self.hidden.end(tag)
            return
        if self.dropped:
            if tag == "title":
                self.in_title = False
            elif self.open_dropped.get(tag):
                while self.dropped:
                    popped = self.dropped.pop()
                    self.open_dropped[popped] -= 1
                    if popped == tag:
                        break
            return
        if tag == "a" and self.links:
            self.links.pop()
        if tag == "title":
            self.in_title = False
        elif tag in HEADINGS and self.heading is not None:
            title = " ".join("".join(self.heading).split())
            self.heading = None
            if title.rstrip(":").casefold() in _ADMONITIONS:
                # A note box's title: a line of the section around the box.
                self.add_text(title, self.line)
                self.end_block()
                return
            while self.open_headings and self.open_headings[-1][0] >= self.level:
                self.open_headings.pop()
            if title:
                self.open_headings.append((self.level, title))
            self.new_section(title)
        elif tag in BLOCKS and tag not in _CELLS:
            self.end_block()
            if tag == "pre" and self.pre:
                self.pre -= 1

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.page_title.append(data)
            return
        if self.dropped or self.hidden:
            return
        if self.heading is not None:
            self.heading.append(data)
            return
        line = self.line
        if self.pre:
            pieces = data.split("\n")
            for k, piece in enumerate(pieces):
                if k:
                    self.end_line()
                if k < len(pieces) - 1:
                    piece = piece.rstrip()  # no white space at a line's end
                # White space between highlighted tokens ("<span>import</span> <span>x</span>")
                # and a line's indentation are code too.
                if piece.strip() or (piece and self.length):
                    self.add_text(piece, line + k, verbatim=True)
            return
        for k, piece in enumerate(data.split("\n")):
            if k:
                self.space = True
            words = piece.split()
            if not words:
                if piece:
                    self.space = True
                continue
            if piece[0].isspace():
                self.space = True
            joined = " ".join(words)
            self.characters += len(joined)
            if any(self.links):
                self.linked += len(joined)
            self.add_text(joined, line + k)
            self.space = piece[-1].isspace()

    # -- text assembly ------------------------------------------------------------------

    def add_text(self, text: str, line: int, verbatim: bool = False) -> None:
        self.budget.unit()
        if self.length and self.space and not verbatim:
            self.text.append(" ")
            self.length += 1
        if not self.marks or self.marks[-1][1] != line:
            if self.marks and self.marks[-1][0] == self.length:
                self.marks[-1] = (self.length, line)
            else:
                self.marks.append((self.length, line))
        self.text.append(text)
        self.length += len(text)
        self.space = False

    def end_line(self) -> None:
        if self.length and self.text[-1] != "\n":
            self.text.append("\n")
            self.length += 1

    def end_block(self) -> None:
        if not self.length:  # nothing gathered (most block tags): nothing to close
            self.space = False
            return
        text = "".join(self.text).rstrip()
        if text.strip():
            marks = [(o, n) for o, n in self.marks if o < len(text)] or [(0, self.marks[0][1])]
            if marks[0][0] != 0:
                marks[0] = (0, marks[0][1])
            self.blocks.append(TextBlock(text, tuple(marks)))
        self.text, self.length, self.marks, self.space = [], 0, [], False

    def new_section(self, title: str) -> None:
        self.budget.unit()  # a heading, charged as it is made
        self.end_block()
        if self.blocks:
            self.sections.append(TextSection(tuple(self.blocks), self.title, headings=self.headings))
        self.blocks = []
        self.title = title
        self.headings = tuple(text for _, text in self.open_headings)


def parse_html(text: str) -> tuple[TextSection, ...]:
    """Turn an HTML page into titled sections of plain-text paragraphs.

    Args:
        text: Decoded HTML with ``\\n`` newlines.

    Returns:
        Sections in document order: the text before the first heading (titled by the
        page's ``<title>``), then one per ``<h1>``-``<h6>`` that has body text.
    """
    collector = _TextCollector()
    _tokenize(text, collector)
    if collector.heading is not None:  # an unclosed heading: its text is body text after all
        collector.heading = None
    page_title = " ".join("".join(collector.page_title).split())
    collector.new_section("")
    sections = collector.sections
    if sections and not sections[0].title and page_title:
        sections[0] = replace(sections[0], title=page_title, headings=())
    lines = [line for section in sections for block in section.blocks for line in block.text.split("\n")]
    share = collector.linked / collector.characters if collector.characters else 0.0
    if is_list_page(lines, linked_share=share, title=page_title or (sections[0].title if sections else "")):
        sections = [replace(section, list_page=True) for section in sections]
    return tuple(sections)


def _internal(attrs: list[tuple[str, str | None]]) -> bool:
    """Whether a link points within its site (a relative address or a fragment)."""
    href = next((value for name, value in attrs if name == "href"), None)
    return href is not None and not _EXTERNAL.match(href.strip())


def _tokenize(text: str, sink: _TextCollector) -> None:
    """Hand ``text``'s tags and text to ``sink`` in order, each with its source line."""
    n, position, line, counted = len(text), 0, 1, 0

    def line_at(offset: int) -> int:
        nonlocal line, counted
        line += text.count("\n", counted, offset)
        counted = offset
        return line

    while position < n:
        opening = text.find("<", position)
        if opening < 0:
            opening = n
        if opening > position:
            sink.line = line_at(position)
            sink.handle_data(_decode(text[position:opening]))
        if opening >= n:
            return
        sink.line = line_at(opening)
        if text.startswith("<!--", opening):
            position = _after(text, "-->", opening + 4)
            continue
        tag = _TAG_OPEN.match(text, opening)
        if tag is None:
            if text.startswith(("<!", "<?", "</"), opening):  # a declaration, a processing
                position = _after(text, ">", opening + 2)    # instruction or a bogus comment
            else:
                sink.handle_data("<")
                position = opening + 1
            continue
        end = _tag_end(text, tag.end())
        if end < 0:
            return  # the file ends inside a tag: the rest is that tag, as in a browser
        name = tag.group(2).lower()
        position = end
        if tag.group(1):
            sink.handle_endtag(name)
        elif text[end - 2] == "/":
            sink.handle_startendtag(name, [])
        else:
            sink.handle_starttag(name, _attributes(text[tag.end():end - 1]))
            raw = _RAW_TEXT.get(name)
            if raw is not None:  # script or style: text up to its end tag, never markup
                close = raw.search(text, end)
                position = close.start() if close is not None else n
                if position > end:
                    sink.line = line_at(end)
                    sink.handle_data(text[end:position])


def _attributes(raw: str) -> list[tuple[str, str | None]]:
    """The attributes the reader uses, read from a start tag's inside: those that can hide an
    element (``hidden``, ``style``) and those that mark navigation or links (``role``,
    ``class``, ``href``); others are not read."""
    folded = raw.lower()
    if not any(name in folded for name in _READ_ATTRIBUTES):
        return []
    return [(m.group(1).lower(), _decode(m.group(2) if m.group(2) is not None else m.group(3) if m.group(3) is not None else m.group(4) or ""))
            for m in _ATTRIBUTE.finditer(raw) if m.group(1).lower() in _READ_ATTRIBUTES]


_READ_ATTRIBUTES = ("hidden", "style", "role", "class", "href")


def _decode(raw: str) -> str:
    """Character references decoded line by line: a reference to a line break (``&#10;``)
    reads as a space, so the decoded text keeps the source's line breaks and nothing else."""
    if "&" not in raw:
        return raw
    return "\n".join(unescape(part).replace("\r", " ").replace("\n", " ") for part in raw.split("\n"))


def _after(text: str, marker: str, start: int) -> int:
    """Where the text after the next ``marker`` from ``start`` begins (the end when none)."""
    found = text.find(marker, start)
    return len(text) if found < 0 else found + len(marker)


def _tag_end(text: str, start: int) -> int:
    """Where the tag whose name ends at ``start`` ends (after its ``>``), or -1 at the end of
    the file. A quote opens an attribute value only right after ``=``."""
    simple = _TAG_REST.match(text, start)
    if simple is not None:
        return simple.end()
    position = start
    while True:
        stop = _TAG_STOP.search(text, position)
        if stop is None:
            return -1
        if stop.group() == ">":
            return stop.end()
        if text[position:stop.start()].rstrip().endswith("="):
            close = text.find(stop.group(), stop.end())
            if close < 0:
                return -1
            position = close + 1
        else:
            position = stop.end()
