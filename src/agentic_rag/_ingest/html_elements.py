"""What an HTML element is to a reader: its kind (heading, block, void), whether a browser shows
it, and whether it is a navigation bar or a page footer. The HTML loader
(:mod:`~agentic_rag._ingest.html_loader`) asks these questions of every start tag."""

from __future__ import annotations

import re

__all__ = ["BLOCKS", "HEADINGS", "VOID", "HiddenElement", "hidden_from_readers", "navigation"]

HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
BLOCKS = frozenset({
    "address", "article", "aside", "blockquote", "body", "br", "caption", "dd", "details", "dialog", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "header", "hr", "html", "legend", "li", "main", "nav", "ol",
    "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
})
# Navigation and page footers are no text of the page.
_NAVIGATION_TAGS = frozenset({"nav", "footer"})
_NAVIGATION_ROLES = frozenset({"navigation", "contentinfo"})
_NAVIGATION_CLASSES = re.compile(r"(?i)^(?:nav|navbar|navheader|navfooter|navigation|breadcrumbs?|sphinxsidebar|sidebar|footer|related|"
                                 r"skip-?link|toc-?sidebar|site-?footer|site-?nav|headerlink)$")
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"})
# Start tags that close an open element whose end tag may be left out (a new paragraph ends a <p>).
_IMPLIED_END = {"p": BLOCKS | HEADINGS, "li": {"li"}, "dt": {"dt", "dd"}, "dd": {"dt", "dd"}, "tr": {"tr"}, "td": {"td", "th", "tr"},
                "th": {"td", "th", "tr"}, "option": {"option"}}
_NOT_SHOWN = re.compile(r"display:none|visibility:(?:hidden|collapse)")
_NO_SIZE = re.compile(r"(?:^|;)(?:font-size:0(?:[a-z%]*)?(?:;|$|!)|opacity:0(?:\.0*)?(?:;|$|!)|(?:max-)?(?:width|height):0(?:px)?(?:;|$|!))")


def hidden_from_readers(attrs: list[tuple[str, str | None]]) -> bool:
    """True for an element a browser does not show: the ``hidden`` attribute, ``display:none``
    or ``visibility:hidden`` in its style, or no visible size (a zero font size, zero opacity,
    or zero width or height), the way text meant only for a model is hidden from readers."""
    style = "".join(value or "" for name, value in attrs if name.lower() == "style").lower().replace(" ", "").replace("\t", "")
    if any(name.lower() == "hidden" for name, _ in attrs) or _NOT_SHOWN.search(style):
        return True
    return bool(style) and bool(_NO_SIZE.search(style))


class HiddenElement:
    """The elements open inside an element hidden from readers, so the text up to its end tag
    is left out. A count per tag keeps each end tag's lookup constant time."""

    def __init__(self) -> None:
        self.open_tags: list[str] = []
        self.counts: dict[str, int] = {}

    def __bool__(self) -> bool:
        return bool(self.open_tags)

    def enter(self, tag: str) -> None:
        """Open the hidden element."""
        self.open_tags, self.counts = [tag], {tag: 1}

    def start(self, tag: str) -> bool:
        """Record a start tag; False when it ended the hidden element (the tag is shown)."""
        while self.open_tags and tag in _IMPLIED_END.get(self.open_tags[-1], ()):
            self._pop()
        if not self.open_tags:
            return False
        if tag not in VOID:
            self.open_tags.append(tag)
            self.counts[tag] = self.counts.get(tag, 0) + 1
        return True

    def end(self, tag: str) -> None:
        """Record an end tag: it closes the innermost open element of its name, or, naming none,
        an element around the hidden one, which ends it too."""
        if not self.counts.get(tag):
            self.open_tags.clear()
            self.counts.clear()
            return
        while self._pop() != tag:
            pass

    def _pop(self) -> str:
        tag = self.open_tags.pop()
        self.counts[tag] -= 1
        return tag


def navigation(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether an element is a navigation bar or a page footer (by its tag, role or class)."""
    if tag in _NAVIGATION_TAGS:
        return True
    for name, value in attrs:
        if name == "role" and value and value.strip().lower() in _NAVIGATION_ROLES:
            return True
        if name == "class" and value and any(_NAVIGATION_CLASSES.match(word) for word in value.split()):
            return True
    return False
