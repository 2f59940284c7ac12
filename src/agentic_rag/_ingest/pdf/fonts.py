"""Fonts: turning the bytes of a shown string into text and advance widths.

Simple fonts (Type1, TrueType, Type3) take one byte per code, mapped through ``/ToUnicode``
when present, else through ``/Encoding`` (a named base encoding, ``/Differences``, or the
embedded Type 1 program's own encoding). Composite (Type0) fonts take codes of the lengths
their CMap's codespace ranges give (two bytes for ``Identity-H``/``-V``), with widths from the
descendant CID font's ``/W``.

A font is bold when its name says so (``Times-Bold``, ``ABCDEF+Inter-SemiBold``,
``Arial,Bold``) or its descriptor does (``/FontWeight`` 600 or more, or the ``ForceBold``
flag): what the typography of a page without an outline tells its headings by.
"""

from __future__ import annotations

import re

from agentic_rag._ingest.pdf.cmaps import CMap, parse_cmap
from agentic_rag._ingest.pdf.encodings import ENCODINGS, STANDARD, apply_differences, glyph_to_unicode
from agentic_rag._ingest.pdf.lexer import PdfError, PdfLimitError, Stream

__all__ = ["Font", "load_font"]

# Advance widths (1/1000 em) of codes 32..126 for the standard fonts that need no /Widths.
_HELVETICA = (
    "278 278 355 556 556 889 667 191 333 333 389 584 278 333 278 278 556 556 556 556 556 556 556 "
    "556 556 556 278 278 584 584 584 556 1015 667 667 722 722 667 611 778 722 278 500 667 556 833 "
    "722 778 667 778 722 667 611 722 667 944 667 667 611 278 278 278 469 556 333 556 556 500 556 "
    "556 278 556 556 222 222 500 222 833 556 556 556 556 333 500 278 556 500 722 500 500 500 334 "
    "260 334 584")
_TIMES = (
    "250 333 408 500 500 833 778 180 333 333 500 564 250 333 250 278 500 500 500 500 500 500 500 "
    "500 500 500 278 278 564 564 564 444 921 722 667 667 722 611 556 722 722 333 389 722 611 889 "
    "722 722 556 722 667 556 611 722 722 944 722 722 611 333 278 333 469 500 333 444 500 444 500 "
    "444 333 500 500 278 278 500 278 778 500 500 500 500 333 389 278 500 500 722 500 500 444 480 "
    "200 480 541")
_STD_WIDTHS = {
    "Helvetica": (tuple(int(w) for w in _HELVETICA.split()), 556),
    "Times": (tuple(int(w) for w in _TIMES.split()), 500),
}
_SUBSET = re.compile(r"^[A-Z]{6}\+")
_T1_ENCODING_ENTRY = re.compile(rb"dup\s+(\d{1,3})\s*/([^\s/\[\]{}()<>]+)\s+put")
# Weight words in a font's name ("Semibold" and "Demi" are set bold; "Medium" is not).
_BOLD_NAME = re.compile(r"(?i)bold|black|heavy|demi")
_FORCE_BOLD = 1 << 18  # /Flags bit 19
_TEX_BOLD = re.compile(r"(?:CM|SF|EC)(?:SS)?BX\d")  # TeX's bold extended faces: CMBX10, SFBX1200


class Font:
    """A font ready to decode shown strings.

    Attributes:
        two_byte: Codes are not single bytes (a composite font).
        vertical: Writing mode is vertical (``-V`` CMaps).
        scale: Glyph space to text space (1/1000 except for Type 3 fonts).
        bold: The font is a bold face (from its name or its descriptor).
    """

    __slots__ = ("_codespaces", "_simple", "_unicode", "_widths", "_cid_map", "bold", "default_width", "name",
                 "scale", "two_byte", "vertical")

    def __init__(self) -> None:
        self.name = ""
        self.bold = False
        self.two_byte = False
        self.vertical = False
        self.scale = 0.001
        self.default_width = 500.0
        self._simple: list[tuple[str, float]] = []
        self._unicode: dict[int, str] = {}
        self._widths: dict[int, float] = {}
        self._cid_map: CMap | None = None
        self._codespaces: list[tuple[int, int, int]] = []

    def decode(self, data: bytes) -> list[tuple[str, float, bool]]:
        """Split ``data`` into glyphs.

        Args:
            data: The bytes of a shown string.

        Returns:
            ``(text, width, is_space)`` per glyph: its text (possibly ``""``), its advance in
            text space units before font size, and whether it is the single-byte code 32 (which
            word spacing ``Tw`` applies to).
        """
        if not self.two_byte:
            simple = self._simple
            return [simple[byte] for byte in data]
        out = []
        for code, length in self._codes(data):
            cid = self._cid(code)
            text = self._unicode.get(code)
            if text is None:
                text = ""
            width = self._widths.get(cid, self.default_width) * self.scale
            out.append((text, width, length == 1 and code == 32))
        return out

    def _codes(self, data: bytes):
        spaces = self._codespaces
        if not spaces or all(length == 2 for length, _lo, _hi in spaces):
            for index in range(0, len(data) - 1, 2):
                yield (data[index] << 8) | data[index + 1], 2
            return
        index = 0
        while index < len(data):
            for length, low, high in spaces:
                if index + length <= len(data):
                    code = int.from_bytes(data[index:index + length], "big")
                    if low <= code <= high:
                        yield code, length
                        index += length
                        break
            else:
                # Not in any range: consume the shortest code length, as readers do.
                length = min(length for length, _lo, _hi in spaces)
                yield int.from_bytes(data[index:index + length], "big"), length
                index += length

    def _cid(self, code: int) -> int:
        cmap = self._cid_map
        if cmap is None:
            return code
        if code in cmap.cids:
            return cmap.cids[code]
        for low, high, first in cmap.cid_ranges:
            if low <= code <= high:
                return first + code - low
        return 0


def _number(value: object, default: float) -> float:
    return float(value) if type(value) in (int, float) else default


def _to_unicode(doc, font_dict: dict) -> CMap | None:
    stream = doc.resolve(font_dict.get("ToUnicode"))
    if not isinstance(stream, Stream):
        return None
    try:
        return parse_cmap(doc.stream_data(stream))
    except PdfLimitError:
        raise
    except PdfError:
        return None


def _builtin_encoding(doc, descriptor: dict) -> tuple[str, ...] | None:
    # An embedded Type 1 program states its own encoding in its clear-text part.
    program = doc.resolve(descriptor.get("FontFile"))
    if not isinstance(program, Stream):
        return None
    try:
        data = doc.stream_data(program)
    except PdfLimitError:
        raise
    except PdfError:
        return None
    length1 = program.dict.get("Length1")
    head = data[:length1] if type(length1) is int and length1 > 0 else data[:65536]
    if b"/Encoding StandardEncoding" in head:
        return STANDARD
    entries = _T1_ENCODING_ENTRY.findall(head)
    if not entries:
        return None
    table = [""] * 256
    for code_text, name in entries:
        code = int(code_text)
        if code < 256:
            glyph = name.decode("latin-1")
            text = glyph_to_unicode(glyph)
            if not text and glyph != ".notdef" and 0x21 <= code <= 0x7E:
                text = chr(code)  # unknown glyph names stand for their code, as in poppler
            table[code] = text
    return tuple(table)


def _simple_font(doc, font_dict: dict, subtype: object, font: Font) -> None:
    descriptor = doc.resolved_dict(font_dict.get("FontDescriptor"))
    encoding = doc.resolve(font_dict.get("Encoding"))
    base_name = encoding.get("BaseEncoding") if isinstance(encoding, dict) else encoding
    base_name = doc.resolve(base_name)
    table: tuple[str, ...] | None = ENCODINGS.get(base_name) if isinstance(base_name, str) else None
    if table is None:
        table = _builtin_encoding(doc, descriptor) if descriptor else None
    if table is None:
        table = ENCODINGS["WinAnsiEncoding"] if subtype == "TrueType" else STANDARD
    names: dict[int, str] = {}
    if isinstance(encoding, dict):
        table, names = apply_differences(table, doc.resolve(encoding.get("Differences")))
    to_unicode = _to_unicode(doc, font_dict)
    texts = list(table)
    for code, name in names.items():
        # A glyph name nobody knows stands for its code, as poppler's readers assume.
        if not texts[code] and name != ".notdef" and 0x21 <= code <= 0x7E:
            texts[code] = chr(code)
    if to_unicode is not None:
        for code, text in to_unicode.unicode.items():
            if 0 <= code < 256 and text:
                texts[code] = text
    # Widths: /FirstChar + /Widths, else the standard font metrics, else a default.
    if subtype == "Type3":
        matrix = doc.resolve(font_dict.get("FontMatrix"))
        if isinstance(matrix, list) and matrix and type(matrix[0]) in (int, float) and matrix[0]:
            font.scale = abs(float(matrix[0]))
    std_widths, std_default = _standard_widths(font.name)
    missing = _number(doc.resolve(descriptor.get("MissingWidth")), 0.0) if descriptor else 0.0
    font.default_width = missing or std_default
    widths = [font.default_width] * 256
    if std_widths:
        for code in range(32, 127):
            widths[code] = std_widths[code - 32]
    first = doc.resolve(font_dict.get("FirstChar"))
    listed = doc.resolve(font_dict.get("Widths"))
    if type(first) is int and isinstance(listed, list):
        for index, value in enumerate(listed[:256]):
            code = first + index
            if 0 <= code < 256:
                widths[code] = _number(doc.resolve(value), font.default_width)
    scale = font.scale
    font._simple = [(texts[code], widths[code] * scale, code == 32) for code in range(256)]


def _standard_widths(name: str) -> tuple[tuple[int, ...] | None, float]:
    base = _SUBSET.sub("", name)
    if base.startswith("Courier"):
        return (600,) * 95, 600.0
    if base.startswith(("Helvetica", "Arial")):
        return _STD_WIDTHS["Helvetica"]
    if base.startswith("Times"):
        return _STD_WIDTHS["Times"]
    return None, 500.0


def _is_bold(doc, name: str, descriptor: dict) -> bool:
    """Whether the face is bold: its name has a weight word, or its descriptor a bold weight."""
    # The part after the family ("Times-Bold", "Arial,Bold", "Inter-SemiBold"): a family
    # named after a weight word is not bold for it.
    base = _SUBSET.sub("", name)
    style = re.split(r"[-,]", base, maxsplit=1)
    if (_BOLD_NAME.search(style[1]) if len(style) == 2 else "bold" in base.casefold()) or _TEX_BOLD.match(base):
        return True
    if not descriptor:
        return False
    weight = doc.resolve(descriptor.get("FontWeight"))
    flags = doc.resolve(descriptor.get("Flags"))
    return (type(weight) in (int, float) and weight >= 600) or (type(flags) is int and bool(flags & _FORCE_BOLD))


def _composite_font(doc, font_dict: dict, font: Font) -> None:
    font.two_byte = True
    font.default_width = 1000.0
    encoding = doc.resolve(font_dict.get("Encoding"))
    ucs2 = False
    if isinstance(encoding, str):
        font.vertical = encoding.endswith("-V")
        ucs2 = "UCS2" in encoding or "UTF16" in encoding
        font._codespaces = [(2, 0, 0xFFFF)]
    elif isinstance(encoding, Stream):
        try:
            cmap = parse_cmap(doc.stream_data(encoding))
        except PdfLimitError:
            raise
        except PdfError:
            cmap = CMap()
        font.vertical = cmap.use.endswith("-V") or doc.resolve(encoding.dict.get("WMode")) == 1
        font._codespaces = cmap.codespaces or [(2, 0, 0xFFFF)]
        if cmap.cids or cmap.cid_ranges:
            font._cid_map = cmap
    descendants = doc.resolve(font_dict.get("DescendantFonts"))
    cid_font = doc.resolved_dict(descendants[0]) if isinstance(descendants, list) and descendants else {}
    font.default_width = _number(doc.resolve(cid_font.get("DW")), 1000.0)
    widths = doc.resolve(cid_font.get("W"))
    if isinstance(widths, list):
        index = 0
        items = [doc.resolve(item) for item in widths[:200_000]]
        while index + 1 < len(items):
            first, second = items[index], items[index + 1]
            if type(first) is not int:
                index += 1
                continue
            if isinstance(second, list):
                for offset, value in enumerate(second[:65536]):
                    font._widths[first + offset] = _number(doc.resolve(value), font.default_width)
                index += 2
            elif type(second) is int and index + 2 < len(items):
                value = _number(items[index + 2], font.default_width)
                for cid in range(first, min(second, first + 65535) + 1):
                    font._widths[cid] = value
                index += 3
            else:
                index += 1
    to_unicode = _to_unicode(doc, font_dict)
    if to_unicode is not None:
        font._unicode = to_unicode.unicode
        if to_unicode.codespaces and not isinstance(encoding, Stream) and encoding not in ("Identity-H", "Identity-V"):
            font._codespaces = to_unicode.codespaces
    elif ucs2:
        font._unicode = _Utf16Codes()


class _Utf16Codes(dict):
    """Codes that are UTF-16 code units themselves (the ``Uni...-UCS2``/``UTF16`` CMaps)."""

    def get(self, code, default=None):  # noqa: D102 - dict protocol
        return chr(code) if not 0xD800 <= code <= 0xDFFF else default


def load_font(doc, value: object) -> Font:
    """Build a :class:`Font` from a font dictionary (or a reference to one).

    Args:
        doc: The :class:`~agentic_rag._ingest.pdf.document.Document`.
        value: The ``/Font`` resource entry.

    Returns:
        The font; a missing or broken dictionary gives a Latin fallback font.
    """
    font_dict = doc.resolved_dict(value)
    font = Font()
    base = doc.resolve(font_dict.get("BaseFont"))
    font.name = base if isinstance(base, str) else ""
    subtype = doc.resolve(font_dict.get("Subtype"))
    if subtype == "Type0":
        _composite_font(doc, font_dict, font)
        descendants = doc.resolve(font_dict.get("DescendantFonts"))
        cid_font = doc.resolved_dict(descendants[0]) if isinstance(descendants, list) and descendants else {}
        descriptor = doc.resolved_dict(cid_font.get("FontDescriptor"))
    else:
        _simple_font(doc, font_dict, subtype, font)
        descriptor = doc.resolved_dict(font_dict.get("FontDescriptor"))
    font.bold = _is_bold(doc, font.name, descriptor)
    return font
