"""CMaps: ``/ToUnicode`` maps (bfchar, bfrange) and embedded encoding CMaps (cidchar, cidrange).

A CMap also carries codespace ranges, which tell how many bytes each character code of a
composite font takes.
"""

from __future__ import annotations

from agentic_rag._ingest.pdf.encodings import glyph_to_unicode
from agentic_rag._ingest.pdf.lexer import Lexer, Operator, PdfError

__all__ = ["CMap", "parse_cmap"]

# A hostile range like <0000> <FFFFFFFF> must not expand into billions of entries.
_MAX_ENTRIES = 1 << 17
# The most bytes of text one code maps to: the limit the PDF specification sets for a
# destination string (512 bytes), so no code can stand for 30,000 characters.
_MAX_DESTINATION = 512


class CMap:
    """What a parsed CMap holds.

    Attributes:
        codespaces: ``(byte_length, low, high)`` ranges, in the order given.
        unicode: Character code to text (ToUnicode).
        cids: Character code to CID (encoding CMaps).
        cid_ranges: ``(low, high, first_cid)`` for ranges too large to expand.
        use: The name given to ``usecmap`` (for example ``Identity-H``), or ``""``.
    """

    __slots__ = ("cid_ranges", "cids", "codespaces", "unicode", "use")

    def __init__(self) -> None:
        self.codespaces: list[tuple[int, int, int]] = []
        self.unicode: dict[int, str] = {}
        self.cids: dict[int, int] = {}
        self.cid_ranges: list[tuple[int, int, int]] = []
        self.use = ""


def _utf16(data: bytes) -> str:
    data = data[:_MAX_DESTINATION]
    if len(data) % 2:
        data = b"\0" + data
    text = data.decode("utf-16-be", errors="ignore")
    return text.replace("\0", "")


def _as_int(value: object) -> int | None:
    if isinstance(value, bytes) and 0 < len(value) <= 4:
        return int.from_bytes(value, "big")
    return None


def parse_cmap(data: bytes) -> CMap:
    """Parse a CMap program (PostScript-like syntax).

    Args:
        data: The decoded CMap stream.

    Returns:
        The CMap; sections it cannot read are skipped.
    """
    cmap = CMap()
    lexer = Lexer(data)
    operands: list[object] = []
    entries = 0
    while True:
        try:
            token = lexer.token()
            if token is None and lexer.pos >= len(data):
                break
            if isinstance(token, Operator) and token in ("[", "<<"):
                token = lexer.parse_object(token, has_first=True)
        except PdfError:
            break
        if not isinstance(token, Operator):
            operands.append(token)
            if len(operands) > 3 * _MAX_ENTRIES:
                break
            continue
        if token == "endcodespacerange":
            for low, high in zip(operands[0::2], operands[1::2]):
                lo, hi = _as_int(low), _as_int(high)
                if lo is not None and hi is not None and len(low) == len(high):
                    cmap.codespaces.append((len(low), lo, hi))
        elif token == "endbfchar":
            for src, dst in zip(operands[0::2], operands[1::2]):
                code = _as_int(src)
                if code is not None and isinstance(dst, bytes):
                    cmap.unicode[code] = _utf16(dst)
                elif code is not None and isinstance(dst, str):
                    cmap.unicode[code] = glyph_to_unicode(dst)[:_MAX_DESTINATION // 2]
        elif token == "endbfrange":
            for low, high, dst in zip(operands[0::3], operands[1::3], operands[2::3]):
                lo, hi = _as_int(low), _as_int(high)
                if lo is None or hi is None or hi < lo:
                    continue
                span = min(hi - lo + 1, _MAX_ENTRIES - entries)
                entries += max(span, 0)
                if isinstance(dst, list):
                    for offset, item in enumerate(dst[:max(span, 0)]):
                        if isinstance(item, bytes):
                            cmap.unicode[lo + offset] = _utf16(item)
                elif isinstance(dst, bytes) and dst:
                    # Offset form: the last UTF-16 unit counts up from the destination.
                    if len(dst) % 2:
                        dst = b"\0" + dst
                    head, last = dst[:-2], int.from_bytes(dst[-2:], "big")
                    prefix = _utf16(head)
                    for offset in range(max(span, 0)):
                        unit = last + offset
                        if unit > 0xFFFF or 0xD800 <= unit <= 0xDFFF:
                            cmap.unicode[lo + offset] = prefix + _utf16((unit & 0xFFFF).to_bytes(2, "big"))
                        else:
                            cmap.unicode[lo + offset] = prefix + chr(unit) if unit else prefix
        elif token == "endcidchar":
            for src, cid in zip(operands[0::2], operands[1::2]):
                code = _as_int(src)
                if code is not None and type(cid) is int:
                    cmap.cids[code] = cid
        elif token == "endcidrange":
            for low, high, cid in zip(operands[0::3], operands[1::3], operands[2::3]):
                lo, hi = _as_int(low), _as_int(high)
                if lo is not None and hi is not None and type(cid) is int and hi >= lo:
                    cmap.cid_ranges.append((lo, hi, cid))
        elif token == "usecmap" and operands and isinstance(operands[-1], str):
            cmap.use = operands[-1]
        if token.startswith(("end", "begin")) or token in ("def", "usecmap"):
            operands = []
    return cmap
