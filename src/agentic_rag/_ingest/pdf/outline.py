"""A PDF's outline (bookmarks) and page labels, read from its catalog.

The outline is the tree of ``/Outlines`` items (``/First``, ``/Next``, ``/Title``), each
pointing at a page through ``/Dest`` or a ``/GoTo`` action's ``/D``: an explicit destination
array (``[page /XYZ left top zoom]``) or a name looked up in the catalog's ``/Dests``
dictionary or its ``/Names`` ``/Dests`` name tree. Page labels come from the ``/PageLabels``
number tree: each range starts at a page index with a style (``D`` decimal, ``R``/``r``
roman, ``A``/``a`` letters), a prefix ``/P`` and a first number ``/St`` (PDF 32000-1, 12.4.2).

Both are read leniently: a broken item, a loop or a destination that names no page is
skipped, never an error, and the walks are bounded (items, depth), so a hostile file costs
bounded work. Text strings are decoded as the specification says (UTF-16BE or UTF-8 with a
byte-order mark, else PDFDocEncoding, read here as Latin-1).
"""

from __future__ import annotations

from dataclasses import dataclass

from agentic_rag._ingest.pdf.document import Document
from agentic_rag._ingest.pdf.lexer import Ref

__all__ = ["OutlineEntry", "page_labels", "read_outline", "text_string"]

_MAX_ITEMS = 20_000   # outline items or number/name tree entries read
_MAX_DEPTH = 32       # outline nesting and tree depth


@dataclass(frozen=True, slots=True)
class OutlineEntry:
    """One bookmark.

    Args:
        title: Its title, white space collapsed.
        level: 1 for a top-level item, 2 for its children...
        page: The 1-based page it points at.
        top: The destination's top coordinate (PDF units, larger is higher), else ``None``.
    """

    title: str
    level: int
    page: int
    top: float | None = None


def text_string(value: object) -> str:
    """A PDF text string as ``str`` (``""`` for anything that is not a string)."""
    if isinstance(value, str):
        return value
    if not isinstance(value, bytes):
        return ""
    if value.startswith(b"\xfe\xff"):
        return value[2:].decode("utf-16-be", errors="replace")
    if value.startswith(b"\xef\xbb\xbf"):
        return value[3:].decode("utf-8", errors="replace")
    return value.decode("latin-1")


def read_outline(doc: Document, page_nums: list[int | None]) -> tuple[OutlineEntry, ...]:
    """The outline's items in document order, each with the page it points at.

    Args:
        doc: The parsed file.
        page_nums: The object number of each page's dictionary, in page order (``None``
            where a page was not an indirect object).

    Returns:
        Items whose destination is a page of the file; ``()`` when there is no outline.
    """
    root = doc.resolved_dict(doc.trailer.get("Root"))
    outlines = doc.resolved_dict(root.get("Outlines"))
    index = {num: n for n, num in enumerate(page_nums, start=1) if num is not None}
    names = _NamedDests(doc, root)
    out: list[OutlineEntry] = []
    seen: set[int] = set()
    # Depth-first, children before the next sibling: (item reference, level).
    stack: list[tuple[object, int]] = [(outlines.get("First"), 1)]
    while stack and len(seen) < _MAX_ITEMS:
        ref, level = stack.pop()
        if not isinstance(ref, Ref) or ref.num in seen or level > _MAX_DEPTH:
            continue
        seen.add(ref.num)
        item = doc.resolved_dict(ref)
        stack.append((item.get("Next"), level))
        stack.append((item.get("First"), level + 1))
        title = " ".join(text_string(doc.resolve(item.get("Title"))).split())
        target = _destination(doc, item, names)
        if not title or target is None:
            continue
        page, top = target
        number = index.get(page.num) if isinstance(page, Ref) else page + 1 if isinstance(page, int) and 0 <= page < len(page_nums) else None
        if number is not None:
            out.append(OutlineEntry(title, level, number, top))
    return tuple(out)


def _destination(doc: Document, item: dict, names: _NamedDests) -> tuple[object, float | None] | None:
    dest = doc.resolve(item.get("Dest"))
    if dest is None:
        action = doc.resolved_dict(item.get("A"))
        if action.get("S") != "GoTo":
            return None
        dest = doc.resolve(action.get("D"))
    if isinstance(dest, (str, bytes)):
        dest = names.get(dest)
    if isinstance(dest, dict):
        dest = doc.resolve(dest.get("D"))
    if not isinstance(dest, list) or not dest:
        return None
    kind = dest[1] if len(dest) > 1 else None
    # /XYZ left top zoom; /FitH and /FitBH top: the top is where the item starts on the page.
    position = 3 if kind == "XYZ" else 2 if kind in ("FitH", "FitBH") else None
    top = dest[position] if position is not None and len(dest) > position else None
    top = doc.resolve(top)
    return dest[0], float(top) if isinstance(top, (int, float)) and not isinstance(top, bool) else None


class _NamedDests:
    """Named destinations, read on the first look-up (old-style dictionary, then name tree)."""

    def __init__(self, doc: Document, root: dict) -> None:
        self.doc = doc
        self.root = root
        self.table: dict[str, object] | None = None

    def get(self, name: str | bytes) -> object:
        if self.table is None:
            self.table = {}
            for key, value in self.doc.resolved_dict(self.root.get("Dests")).items():
                self.table[key] = value
            tree = self.doc.resolved_dict(self.doc.resolved_dict(self.root.get("Names")).get("Dests"))
            for key, value in _tree_items(self.doc, tree, "Names"):
                if isinstance(key, (bytes, str)):
                    self.table.setdefault(key.decode("latin-1") if isinstance(key, bytes) else key, value)
        key = name.decode("latin-1") if isinstance(name, bytes) else name
        return self.doc.resolve(self.table.get(key))


def _tree_items(doc: Document, node: dict, leaf_key: str) -> list[tuple[object, object]]:
    """The ``(key, value)`` pairs of a name tree (``Names``) or number tree (``Nums``)."""
    items: list[tuple[object, object]] = []
    seen: set[int] = set()
    stack: list[tuple[dict, int]] = [(node, 0)]
    while stack and len(items) < _MAX_ITEMS:
        current, depth = stack.pop()
        if id(current) in seen or depth > _MAX_DEPTH:
            continue
        seen.add(id(current))
        pairs = doc.resolve(current.get(leaf_key))
        if isinstance(pairs, list):
            items.extend((doc.resolve(pairs[k]), pairs[k + 1]) for k in range(0, len(pairs) - 1, 2))
        kids = doc.resolve(current.get("Kids"))
        if isinstance(kids, list):
            stack.extend((doc.resolved_dict(kid), depth + 1) for kid in reversed(kids))
    return items[:_MAX_ITEMS]


def page_labels(doc: Document, count: int) -> tuple[str, ...]:
    """Each page's label from the catalog's ``/PageLabels`` (``()`` when it has none).

    Args:
        doc: The parsed file.
        count: How many pages the file has.

    Returns:
        One label per page, in page order (``""`` for a page in no labelled range).
    """
    root = doc.resolved_dict(doc.trailer.get("Root"))
    tree = doc.resolved_dict(root.get("PageLabels"))
    if not tree:
        return ()
    ranges = sorted((start, doc.resolved_dict(value)) for start, value in _tree_items(doc, tree, "Nums")
                    if isinstance(start, int) and not isinstance(start, bool) and start >= 0)
    if not ranges:
        return ()
    labels: list[str] = []
    position = -1
    for page in range(count):
        while position + 1 < len(ranges) and ranges[position + 1][0] <= page:
            position += 1
        if position < 0:
            labels.append("")
            continue
        start, entry = ranges[position]
        first = entry.get("St", 1)
        first = first if isinstance(first, int) and not isinstance(first, bool) and first >= 1 else 1
        labels.append(text_string(doc.resolve(entry.get("P"))) + _styled(entry.get("S"), first + page - start))
    return tuple(" ".join(label.split()) for label in labels)


def _styled(style: object, number: int) -> str:
    if style == "D":
        return str(number)
    if style in ("R", "r"):
        roman = _roman(number)
        return roman if style == "R" else roman.lower()
    if style in ("A", "a"):
        # A..Z, then AA..ZZ, AAA...: the letter repeated (PDF 32000-1, table 159).
        letter = chr(ord("A") + (number - 1) % 26) * ((number - 1) // 26 + 1)
        return letter if style == "A" else letter.lower()
    return ""


def _roman(number: int) -> str:
    if number >= 4000:
        return str(number)
    out = []
    for value, digits in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
                          (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while number >= value:
            out.append(digits)
            number -= value
    return "".join(out)
