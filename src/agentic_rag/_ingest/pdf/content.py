"""Running a page's content streams and collecting where each piece of text lands.

Only what moves or shows text is interpreted: the graphics state stack (``q``/``Q``/``cm``),
the text state and matrices (``BT``, ``Tf``, ``Td``, ``TD``, ``Tm``, ``T*``, ``TL``, ``Tc``,
``Tw``, ``Tz``, ``Ts``), the show operators (``Tj``, ``TJ``, ``'``, ``"``) and Form XObjects
(``Do``). Each word shown becomes a :class:`Run` in device space: a word ends at a space
glyph or at a kerning move wider than ``WORD_GAP`` font sizes, as in poppler, and carries
whether its font is bold (the page's typography, for headings where a file has no outline).
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from agentic_rag._ingest.pdf.fonts import Font, load_font
from agentic_rag._ingest.pdf.lexer import Lexer, Operator, PdfLimitError, Ref, Stream
from agentic_rag._ingest.work_budget import FORM_TOKENS

__all__ = ["PageContent", "Run", "run_page"]

_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_INLINE_END = re.compile(rb"[ \t\r\n\x0c\x00]EI(?=[ \t\r\n\x0c\x00/]|\Z)")
# A kerning move wider than this fraction of the font size separates words, as pdftotext does.
WORD_GAP = 0.1
_FALLBACK_FONT: Font | None = None


class Run(NamedTuple):
    """One word as shown: start and end x, baseline y, font size, text, upright, bold face."""

    x0: float
    x1: float
    y: float
    size: float
    text: str
    upright: bool
    bold: bool = False


class PageContent(NamedTuple):
    """What a page's content streams produced."""

    runs: list[Run]
    images: int


def _mul(m1: tuple, m2: tuple) -> tuple:
    a1, b1, c1, d1, e1, f1 = m1
    a2, b2, c2, d2, e2, f2 = m2
    return (a1 * a2 + b1 * c2, a1 * b2 + b1 * d2, c1 * a2 + d1 * c2, c1 * b2 + d1 * d2,
            e1 * a2 + f1 * c2 + e2, e1 * b2 + f1 * d2 + f2)


def _run(e: float, f: float, b: float, first: float, last: float, step: float, height: float,
         parts: list[str], upright: bool, bold: bool) -> Run:
    start, end = e + first * step, e + last * step
    if start > end:  # mirrored text runs right to left on the page
        start, end = end, start
    return Run(start, end, f + first * b if upright else f, height, "".join(parts), upright, bold)


def _numbers(operands: list, count: int) -> list[float] | None:
    if len(operands) < count:
        return None
    values = operands[-count:]
    for value in values:
        if type(value) not in (int, float):
            return None
    return [float(v) for v in values]


class _Interpreter:
    def __init__(self, doc, fonts: dict, decoded: dict, max_operators: int, max_depth: int) -> None:
        self.doc = doc
        self.fonts = fonts
        self.decoded = decoded
        self.max_operators = max_operators
        self.max_depth = max_depth
        self.operators = 0
        self.budget = doc.budget  # the file's: operators and characters over every page
        self.runs: list[Run] = []
        self.images = 0

    def font_for(self, resources: dict, name: object) -> Font:
        global _FALLBACK_FONT
        table = self.doc.resolved_dict(resources.get("Font"))
        ref = table.get(name) if isinstance(name, str) else None
        key = ref if isinstance(ref, Ref) else id(self.doc.resolve(ref))
        font = self.fonts.get(key)
        if font is None:
            if ref is None:
                if _FALLBACK_FONT is None:
                    _FALLBACK_FONT = load_font(self.doc, {})
                return _FALLBACK_FONT
            font = load_font(self.doc, ref)
            self.fonts[key] = font
        return font

    def content_bytes(self, stream: Stream, key: object) -> bytes:
        if key is not None and key in self.decoded:
            return self.decoded[key]
        data = self.doc.stream_data(stream)
        if key is not None:
            self.decoded[key] = data
        return data

    def run(self, data: bytes, resources: dict, ctm: tuple, depth: int) -> None:
        doc = self.doc
        lexer = Lexer(data)
        operands: list = []
        stack: list[tuple] = []
        # Graphics and text state.
        font: Font | None = None
        size = 0.0
        char_space = word_space = rise = 0.0
        scale = 1.0
        leading = 0.0
        tm = tlm = _IDENTITY
        runs = self.runs
        token = lexer.token
        while True:
            item = token()
            if not isinstance(item, Operator):
                if item is None and lexer.pos >= len(data):
                    break
                operands.append(item)
                if len(operands) > 4096:
                    operands = operands[-16:]
                continue
            if item == "[" or item == "<<":
                operands.append(lexer.parse_object(item, has_first=True))
                continue
            self.operators += 1
            if self.operators > self.max_operators:
                raise PdfLimitError(f"more than {self.max_operators} content operators on the page")
            op = str(item)
            if op in ("Tj", "TJ", "'", '"'):
                if op == "'" or op == '"':
                    if op == '"':
                        values = _numbers(operands[:-1], 2)
                        if values:
                            word_space, char_space = values
                    tlm = (tlm[0], tlm[1], tlm[2], tlm[3], -leading * tlm[2] + tlm[4], -leading * tlm[3] + tlm[5])
                    tm = tlm
                if not operands or font is None:
                    operands = []
                    continue
                shown = operands[-1]
                if op == "TJ":
                    if not isinstance(shown, list):
                        operands = []
                        continue
                    items = shown
                else:
                    items = [shown]
                matrix = _mul(tm, ctm)
                a, b, c, d, e, f = matrix
                height = math.hypot(c, d) * abs(size) * (font.scale * 1000.0)
                # Mirrored glyphs (a < 0, as in the XeTeX logo) still sit on a horizontal line.
                upright = abs(b) <= abs(a) * 0.1 and not font.vertical
                step = a if upright else math.hypot(a, b)
                # One run per word. As in poppler, a glyph's extent excludes Tc and Tw, so a space
                # glyph, or a gap wider than WORD_GAP font sizes before the next glyph (from
                # kerning, character or word spacing), ends the word.
                parts: list[str] = []
                advance = 0.0
                first = last = 0.0
                gap = WORD_GAP * abs(size * scale)
                shown_chars = 0
                for element in items:
                    if isinstance(element, bytes):
                        glyphs = font.decode(element)
                        for text, _width, _space in glyphs:
                            shown_chars += len(text)
                        # Charged before the runs are built: a font map may turn one byte
                        # into many characters.
                        self.budget.text(shown_chars)
                        shown_chars = 0
                        for text, glyph_width, is_space in glyphs:
                            visible = glyph_width * size * scale
                            if text == " " or (text and text.isspace()):
                                if parts:
                                    runs.append(_run(e, f, b, first, last, step, height, parts, upright, font.bold))
                                    parts = []
                            elif text:
                                if parts and advance - last > gap:
                                    runs.append(_run(e, f, b, first, last, step, height, parts, upright, font.bold))
                                    parts = []
                                if not parts:
                                    first = advance
                                parts.append(text)
                                last = advance + visible
                            advance += visible + (char_space + (word_space if is_space else 0.0)) * scale
                    elif type(element) in (int, float):
                        advance -= element / 1000.0 * size * scale
                if parts:
                    runs.append(_run(e, f, b, first, last, step, height, parts, upright, font.bold))
                tm = (tm[0], tm[1], tm[2], tm[3], advance * tm[0] + tm[4], advance * tm[1] + tm[5])
                operands = []
                continue
            if op == "Td" or op == "TD":
                values = _numbers(operands, 2)
                if values:
                    tx, ty = values
                    if op == "TD":
                        leading = -ty
                    tlm = (tlm[0], tlm[1], tlm[2], tlm[3], tx * tlm[0] + ty * tlm[2] + tlm[4],
                           tx * tlm[1] + ty * tlm[3] + tlm[5])
                    tm = tlm
            elif op == "Tm":
                values = _numbers(operands, 6)
                if values:
                    tm = tlm = tuple(values)
            elif op == "T*":
                tlm = (tlm[0], tlm[1], tlm[2], tlm[3], -leading * tlm[2] + tlm[4], -leading * tlm[3] + tlm[5])
                tm = tlm
            elif op == "BT":
                tm = tlm = _IDENTITY
            elif op == "Tf":
                if len(operands) >= 2 and type(operands[-1]) in (int, float):
                    size = float(operands[-1])
                    font = self.font_for(resources, operands[-2])
            elif op == "TL":
                values = _numbers(operands, 1)
                if values:
                    leading = values[0]
            elif op == "Tc":
                values = _numbers(operands, 1)
                if values:
                    char_space = values[0]
            elif op == "Tw":
                values = _numbers(operands, 1)
                if values:
                    word_space = values[0]
            elif op == "Tz":
                values = _numbers(operands, 1)
                if values:
                    scale = values[0] / 100.0
            elif op == "Ts":
                values = _numbers(operands, 1)
                if values:
                    rise = values[0]
            elif op == "q":
                if len(stack) < 256:
                    stack.append((ctm, font, size, char_space, word_space, scale, leading, rise))
            elif op == "Q":
                if stack:
                    ctm, font, size, char_space, word_space, scale, leading, rise = stack.pop()
            elif op == "cm":
                values = _numbers(operands, 6)
                if values:
                    ctm = _mul(tuple(values), ctm)
            elif op == "Do":
                if operands and isinstance(operands[-1], str):
                    self.do_xobject(resources, operands[-1], ctm, depth)
            elif op == "BI":
                self.images += 1
                self.skip_inline_image(lexer)
            operands = []

    def skip_inline_image(self, lexer: Lexer) -> None:
        while True:
            item = lexer.token()
            if item is None and lexer.pos >= len(lexer.data):
                return
            if item == "ID":
                match = _INLINE_END.search(lexer.data, lexer.pos + 1)
                lexer.pos = match.end() if match else len(lexer.data)
                return

    def do_xobject(self, resources: dict, name: str, ctm: tuple, depth: int) -> None:
        doc = self.doc
        table = doc.resolved_dict(resources.get("XObject"))
        ref = table.get(name)
        xobject = doc.resolve(ref)
        if not isinstance(xobject, Stream):
            return
        subtype = xobject.dict.get("Subtype")
        if subtype == "Image":
            self.images += 1
            return
        if subtype != "Form":
            return
        if depth >= self.max_depth:
            raise PdfLimitError(f"Form XObjects nested deeper than {self.max_depth} levels")
        matrix = doc.resolve(xobject.dict.get("Matrix"))
        if isinstance(matrix, list) and len(matrix) == 6 and all(type(v) in (int, float) for v in matrix):
            ctm = _mul(tuple(float(v) for v in matrix), ctm)
        inner = doc.resolved_dict(xobject.dict.get("Resources")) or resources
        data = self.content_bytes(xobject, ref if isinstance(ref, Ref) else None)
        self.budget.content(FORM_TOKENS)
        self.run(data, inner, ctm, depth + 1)


def run_page(doc, page: dict, resources: dict, fonts: dict, decoded: dict, *, max_operators: int,
             max_depth: int) -> PageContent:
    """Interpret one page's content streams.

    Args:
        doc: The document.
        page: The page dictionary.
        resources: The page's resources (inherited ones included).
        fonts: A cache of loaded fonts shared across pages.
        decoded: A cache of decoded Form XObject streams shared across pages.
        max_operators: Operator limit for the page.
        max_depth: Form XObject nesting limit.

    Returns:
        The runs of text and the number of images drawn.

    Raises:
        PdfError: For content that cannot be decoded (an unsupported filter included).
        PdfLimitError: When a limit is exceeded.
    """
    contents = doc.resolve(page.get("Contents"))
    streams = contents if isinstance(contents, list) else [contents]
    pieces = []
    for item in streams:
        stream = doc.resolve(item)
        if isinstance(stream, Stream):
            pieces.append(doc.stream_data(stream))
    interpreter = _Interpreter(doc, fonts, decoded, max_operators, max_depth)
    # Content arrays split anywhere (even inside a token), so the pieces are joined first.
    interpreter.run(b"\n".join(pieces), resources, _page_ctm(doc, page), 0)
    return PageContent(interpreter.runs, interpreter.images)


def _page_ctm(doc, page: dict) -> tuple:
    rotate = doc.resolve(page.get("Rotate"))
    if type(rotate) is not int or rotate % 360 == 0:
        return _IDENTITY
    # Rotated pages: turn the page upright so its text reads left to right.
    turns = (rotate // 90) % 4
    return {1: (0.0, -1.0, 1.0, 0.0, 0.0, 0.0), 2: (-1.0, 0.0, 0.0, -1.0, 0.0, 0.0),
            3: (0.0, 1.0, -1.0, 0.0, 0.0, 0.0)}.get(turns, _IDENTITY)
