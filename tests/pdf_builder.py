"""Small PDFs assembled in code for the PDF extractor's tests (offsets computed, never typed)."""

from __future__ import annotations

import base64
import re
import zlib
from collections.abc import Callable, Sequence

HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"


def stream(entries: bytes, data: bytes) -> bytes:
    """A stream object body with a correct ``/Length``."""
    return b"<< " + entries + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def lzw_encode(data: bytes) -> bytes:
    """LZW with the PDF defaults (EarlyChange 1), clear code first and EOD last."""
    table = {bytes((i,)): i for i in range(256)}
    codes = [256]
    current = b""
    width = 9
    widths = [9]
    next_code = 258
    for byte in data:
        candidate = current + bytes((byte,))
        if candidate in table:
            current = candidate
            continue
        codes.append(table[current])
        widths.append(width)
        table[candidate] = next_code
        next_code += 1
        if next_code + 1 > (1 << width) and width < 12:
            width += 1
        if next_code >= 4094:
            codes.append(256)
            widths.append(width)
            table = {bytes((i,)): i for i in range(256)}
            next_code = 258
            width = 9
        current = bytes((byte,))
    if current:
        codes.append(table[current])
        widths.append(width)
    codes.append(257)
    widths.append(width)
    bits = 0
    count = 0
    out = bytearray()
    for code, size in zip(codes, widths):
        bits = (bits << size) | code
        count += size
        while count >= 8:
            count -= 8
            out.append((bits >> count) & 0xFF)
    if count:
        out.append((bits << (8 - count)) & 0xFF)
    return bytes(out)


ENCODERS = {
    "FlateDecode": zlib.compress,
    "ASCIIHexDecode": lambda data: data.hex().encode("ascii") + b">",
    "ASCII85Decode": lambda data: base64.a85encode(data) + b"~>",
    "LZWDecode": lzw_encode,
}


class PdfBuilder:
    """Collects numbered objects and writes a file with a correct cross-reference."""

    def __init__(self) -> None:
        self.objects: dict[int, bytes] = {}

    def reserve(self) -> int:
        num = max(self.objects, default=0) + 1
        self.objects[num] = b"null"
        return num

    def add(self, body: bytes) -> int:
        num = self.reserve()
        self.objects[num] = body
        return num

    def build(self, root: int, *, trailer: bytes = b"", xref_stream: bool = False,
              packed: tuple[int, ...] = ()) -> bytes:
        """Write the file.

        Args:
            root: The catalog's object number.
            trailer: Extra trailer entries (``/Encrypt ...``).
            xref_stream: Write a cross-reference stream (PNG Up predictor) instead of a table.
            packed: Objects to put into one object stream (needs ``xref_stream``).
        """
        out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        offsets: dict[int, tuple[int, int, int]] = {}
        objects = dict(self.objects)
        if packed:
            stm = max(objects) + 1
            header, bodies, position = [], [], 0
            for index, num in enumerate(packed):
                body = objects.pop(num)
                header.append(b"%d %d" % (num, position))
                bodies.append(body)
                position += len(body) + 1
                offsets[num] = (2, stm, index)
            head = b" ".join(header) + b"\n"
            data = head + b"\n".join(bodies) + b"\n"
            objects[stm] = stream(b"/Type /ObjStm /N %d /First %d /Filter /FlateDecode" % (len(packed), len(head)),
                                  zlib.compress(data))
        for num in sorted(objects):
            offsets[num] = (1, len(out), 0)
            out += b"%d 0 obj\n" % num + objects[num] + b"\nendobj\n"
        size = max(offsets) + 1
        if xref_stream:
            xref_num = size
            size += 1
            offsets[xref_num] = (1, len(out), 0)
            rows = bytearray()
            previous = bytes(7)
            for num in range(size):
                kind, second, third = offsets.get(num, (0, 0, 65535 if num == 0 else 0))
                row = bytes((kind,)) + second.to_bytes(4, "big") + third.to_bytes(2, "big")
                rows += b"\x02" + bytes((a - b) & 0xFF for a, b in zip(row, previous))  # PNG "Up"
                previous = row
            body = stream(b"/Type /XRef /Size %d /W [1 4 2] /Root %d 0 R %s /Filter /FlateDecode "
                          b"/DecodeParms << /Predictor 12 /Columns 7 >>" % (size, root, trailer), zlib.compress(bytes(rows)))
            start = len(out)
            out += b"%d 0 obj\n" % xref_num + body + b"\nendobj\n"
        else:
            start = len(out)
            out += b"xref\n0 %d\n0000000000 65535 f \n" % size
            for num in range(1, size):
                kind, offset, _ = offsets.get(num, (0, 0, 0))
                out += (b"%010d 00000 n \n" % offset) if kind == 1 else b"0000000000 65535 f \n"
            out += b"trailer\n<< /Size %d /Root %d 0 R %s >>\n" % (size, root, trailer)
        out += b"startxref\n%d\n%%%%EOF\n" % start
        return bytes(out)


def text_pdf(contents: list[bytes], *, font: bytes = HELVETICA, fonts: dict[bytes, bytes] | None = None,
             filters: list[str] | None = None, xref_stream: bool = False, pack: bool = False,
             trailer: bytes = b"", extra_resources: bytes = b"", builder: PdfBuilder | None = None,
             catalog: Callable[[PdfBuilder, list[int]], bytes] | None = None) -> bytes:
    """A document with one page per content stream, sharing one font resource ``/F1``.

    Args:
        contents: Each page's content stream (unencoded).
        font: The ``/F1`` font dictionary.
        fonts: More fonts, name to dictionary.
        filters: Filter names to encode every content stream with (applied in order given,
            so the first name in ``/Filter`` is the last encoder run).
        xref_stream: Use a cross-reference stream.
        pack: Put the page dictionaries and the catalog into an object stream.
        trailer: Extra trailer entries.
        extra_resources: Raw entries added to the resources dictionary.
        builder: Add to this builder (for extra objects created beforehand).
        catalog: Called with the builder and the page objects' numbers once the pages exist;
            returns extra catalog entries (``/Outlines``, ``/PageLabels``: see :func:`outline`
            and :func:`page_labels`).
    """
    builder = builder or PdfBuilder()
    font_entries = b"/F1 %d 0 R" % builder.add(font)
    for name, body in (fonts or {}).items():
        font_entries += b" /%s %d 0 R" % (name, builder.add(body))
    resources = builder.add(b"<< /Font << " + font_entries + b" >> " + extra_resources + b" >>")
    pages_num = builder.reserve()
    page_nums = []
    for content in contents:
        entries = b""
        data = content
        if filters:
            for name in reversed(filters):
                data = ENCODERS[name](data)
            entries = b"/Filter [" + b" ".join(b"/" + name.encode() for name in filters) + b"]"
        content_num = builder.add(stream(entries, data))
        page_nums.append(builder.add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R >>"
                                     % (pages_num, content_num)))
    kids = b" ".join(b"%d 0 R" % num for num in page_nums)
    builder.objects[pages_num] = b"<< /Type /Pages /Kids [%s] /Count %d /Resources %d 0 R >>" % (kids, len(page_nums), resources)
    extra = catalog(builder, page_nums) if catalog is not None else b""
    root = builder.add(b"<< /Type /Catalog /Pages %d 0 R %s >>" % (pages_num, extra))
    packed = tuple(page_nums) + (pages_num, root) if pack else ()
    return builder.build(root, trailer=trailer, xref_stream=xref_stream or pack, packed=packed)


def incremental_update(base: bytes, objects: dict[int, bytes]) -> bytes:
    """Append new versions of ``objects`` and a cross-reference section pointing back (/Prev)."""
    previous = int(re.findall(rb"startxref\s+(\d+)", base)[-1])
    trailer = re.findall(rb"trailer\s*<<(.*?)>>\s*startxref", base, re.S)[-1]
    root = re.search(rb"/Root (\d+) 0 R", trailer).group(1)
    size = int(re.search(rb"/Size (\d+)", trailer).group(1))
    out = bytearray(base)
    offsets = {}
    for num, body in sorted(objects.items()):
        offsets[num] = len(out)
        out += b"%d 0 obj\n" % num + body + b"\nendobj\n"
    start = len(out)
    out += b"xref\n"
    for num, offset in sorted(offsets.items()):
        out += b"%d 1\n%010d 00000 n \n" % (num, offset)
    out += b"trailer\n<< /Size %d /Root %s 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n" % (
        max(size, max(objects) + 1), root, previous, start)
    return bytes(out)


def line(x: float, y: float, text: bytes, *, font: bytes = b"F1", size: float = 12) -> bytes:
    """``BT /font size Tf x y Td (text) Tj ET``."""
    return b"BT /%s %g Tf %g %g Td (%s) Tj ET\n" % (font, size, x, y, text)


def outline(items: Sequence[tuple[bytes, int, int]], *, named: bool = False) -> Callable[[PdfBuilder, list[int]], bytes]:
    """A ``catalog`` callback adding an outline of ``(title, level, 0-based page)`` items in
    document order (levels from 1). Items point at their page with ``/Dest [page /XYZ ...]``,
    or, with ``named``, through a ``/GoTo`` action naming a destination in the ``/Dests``
    name tree."""

    def add(builder: PdfBuilder, page_nums: list[int]) -> bytes:
        root = builder.reserve()
        nums = [builder.reserve() for _ in items]
        parents: list[int] = [root]
        children: dict[int, list[int]] = {root: []}
        levels = {root: 0}
        parent_of: dict[int, int] = {}
        for num, (_, level, _) in zip(nums, items):
            while levels[parents[-1]] >= level:
                parents.pop()
            parent_of[num] = parents[-1]
            children[parents[-1]].append(num)
            children[num] = []
            levels[num] = level
            parents.append(num)
        names = []
        for k, (num, (title, _, page)) in enumerate(zip(nums, items)):
            siblings = children[parent_of[num]]
            at = siblings.index(num)
            links = b"/Parent %d 0 R" % parent_of[num]
            if at + 1 < len(siblings):
                links += b" /Next %d 0 R" % siblings[at + 1]
            if at:
                links += b" /Prev %d 0 R" % siblings[at - 1]
            if children[num]:
                links += b" /First %d 0 R /Last %d 0 R /Count %d" % (children[num][0], children[num][-1], len(children[num]))
            if named:
                names.append(b"(d%d) [%d 0 R /XYZ 0 700 0]" % (k, page_nums[page]))
                target = b"/A << /S /GoTo /D (d%d) >>" % k
            else:
                target = b"/Dest [%d 0 R /XYZ 0 700 0]" % page_nums[page]
            builder.objects[num] = b"<< /Title (" + title + b") " + links + b" " + target + b" >>"
        top = children[root]
        builder.objects[root] = b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" % (top[0], top[-1], len(top))
        extra = b"/Outlines %d 0 R" % root
        if named:
            tree = builder.add(b"<< /Names [" + b" ".join(names) + b"] >>")
            extra += b" /Names << /Dests %d 0 R >>" % tree
        return extra

    return add


def page_labels(ranges: Sequence[tuple[int, bytes]]) -> Callable[[PdfBuilder, list[int]], bytes]:
    """A ``catalog`` callback adding ``/PageLabels``: ``(first 0-based page, label dictionary
    entries)`` per range, e.g. ``(0, b"/S /r")``, ``(4, b"/S /D /St 1")``."""

    def add(builder: PdfBuilder, page_nums: list[int]) -> bytes:
        nums = b" ".join(b"%d << %s >>" % (start, entries) for start, entries in ranges)
        return b"/PageLabels << /Nums [" + nums + b"] >>"

    return add
