"""Stream filters: Flate (with PNG/TIFF predictors), LZW, ASCIIHex, ASCII85, RunLength.

Every decoder charges the file's :class:`~agentic_rag._ingest.work_budget.WorkBudget` as it
produces output (before the memory is used), so a small file that inflates into gigabytes, or a
RunLength or ASCII85 stream that multiplies what Flate gave it, stops at the budget instead of
filling memory. The filters that run byte by byte in Python (ASCII85, LZW, RunLength,
predictors) also charge their input, which bounds their time. Image-only filters (DCT, JPX,
JBIG2, CCITTFax) raise :class:`UnsupportedFilterError`: such a stream holds no text.
"""

from __future__ import annotations

import re
import zlib

from agentic_rag._ingest.pdf.lexer import PdfError
from agentic_rag._ingest.work_budget import WorkBudget

__all__ = ["UnsupportedFilterError", "decode_stream"]

IMAGE_FILTERS = frozenset({"DCTDecode", "DCT", "JPXDecode", "JBIG2Decode", "CCITTFaxDecode", "CCF"})


class UnsupportedFilterError(PdfError):
    """A stream encoded with a filter that is not text (an image codec) or unknown."""


# Decoders that build their output piece by piece check the budget every this many bytes.
_STEP = 1 << 16


def _flate(data: bytes, budget: WorkBudget) -> bytes:
    inflater = zlib.decompressobj()
    out: list[bytes] = []
    # Inflate in bounded pieces: the budget check must come before the memory is used.
    try:
        chunk = inflater.decompress(data, 1 << 20)
        while True:
            budget.decoded(len(chunk))
            out.append(chunk)
            if not inflater.unconsumed_tail:
                break
            chunk = inflater.decompress(inflater.unconsumed_tail, 1 << 20)
        tail = inflater.flush()
        budget.decoded(len(tail))
        out.append(tail)
    except zlib.error as exc:
        # Truncated or slightly corrupt streams are common; keep what inflated cleanly.
        if not out:
            raise PdfError(f"FlateDecode stream is corrupt ({exc})") from None
    return b"".join(out)


def _lzw(data: bytes, early: int, budget: WorkBudget) -> bytes:
    budget.filter_input(len(data))
    out = bytearray()
    charged = 0
    table = [bytes((i,)) for i in range(256)] + [b"", b""]
    width = 9
    bits = 0
    nbits = 0
    previous = b""
    for byte in data:
        bits = (bits << 8) | byte
        nbits += 8
        while nbits >= width:
            nbits -= width
            code = (bits >> nbits) & ((1 << width) - 1)
            bits &= (1 << nbits) - 1
            if code == 256:
                table = table[:258]
                width = 9
                previous = b""
                continue
            if code == 257:
                budget.decoded(len(out) - charged)
                return bytes(out)
            if code < len(table):
                entry = table[code]
                if previous and len(table) < 4096:
                    table.append(previous + entry[:1])
            elif code == len(table) and previous and len(table) < 4096:
                entry = previous + previous[:1]
                table.append(entry)
            else:
                raise PdfError(f"LZWDecode stream has an invalid code {code}")
            out += entry
            if len(out) - charged >= _STEP:
                budget.decoded(len(out) - charged)
                charged = len(out)
            previous = entry
            if len(table) + early >= (1 << width) and width < 12:
                width += 1
    budget.decoded(len(out) - charged)
    return bytes(out)


def _ascii_hex(data: bytes, budget: WorkBudget) -> bytes:
    end = data.find(b">")
    digits = re.sub(rb"[^0-9A-Fa-f]", b"", data if end < 0 else data[:end])
    if len(digits) % 2:
        digits += b"0"
    budget.decoded(len(digits) // 2)  # charged before the bytes exist
    return bytes.fromhex(digits.decode("ascii"))


def _ascii85(data: bytes, budget: WorkBudget) -> bytes:
    budget.filter_input(len(data))
    data = re.sub(rb"[ \t\r\n\x0c\x00]", b"", data)
    if data.startswith(b"<~"):
        data = data[2:]
    end = data.find(b"~>")
    if end >= 0:
        data = data[:end]
    out = bytearray()
    charged = 0
    group: list[int] = []
    for byte in data:
        if len(out) - charged >= _STEP:
            budget.decoded(len(out) - charged)
            charged = len(out)
        if byte == 0x7A and not group:  # 'z' stands for four zero bytes
            out += b"\0\0\0\0"
            continue
        if not 0x21 <= byte <= 0x75:
            raise PdfError(f"ASCII85Decode stream has an invalid byte {byte}")
        group.append(byte - 33)
        if len(group) == 5:
            value = 0
            for digit in group:
                value = value * 85 + digit
            out += (value & 0xFFFFFFFF).to_bytes(4, "big")
            group = []
    if group:
        count = len(group)
        group += [84] * (5 - count)
        value = 0
        for digit in group:
            value = value * 85 + digit
        out += (value & 0xFFFFFFFF).to_bytes(4, "big")[:count - 1]
    budget.decoded(len(out) - charged)
    return bytes(out)


def _run_length(data: bytes, budget: WorkBudget) -> bytes:
    budget.filter_input(len(data))
    out = bytearray()
    charged = 0
    pos = 0
    while pos < len(data):
        if len(out) - charged >= _STEP:
            budget.decoded(len(out) - charged)
            charged = len(out)
        length = data[pos]
        if length == 128:
            break
        if length < 128:
            out += data[pos + 1:pos + 2 + length]
            pos += length + 2
        else:
            out += data[pos + 1:pos + 2] * (257 - length)
            pos += 2
    budget.decoded(len(out) - charged)
    return bytes(out)


def _int_param(params: dict, key: str, default: int, low: int, high: int) -> int:
    value = params.get(key, default)
    if type(value) is not int or not low <= value <= high:
        return default
    return value


def _predict(data: bytes, params: dict, budget: WorkBudget) -> bytes:
    predictor = _int_param(params, "Predictor", 1, 1, 15)
    if predictor == 1:
        return data
    budget.filter_input(len(data))
    colors = _int_param(params, "Colors", 1, 1, 32)
    bpc = _int_param(params, "BitsPerComponent", 8, 1, 16)
    columns = _int_param(params, "Columns", 1, 1, 1 << 20)
    bpp = max(1, colors * bpc // 8)
    rowlen = (colors * bpc * columns + 7) // 8
    if predictor == 2:
        if bpc != 8:
            raise PdfError(f"TIFF predictor with {bpc} bits per component is not supported")
        out = bytearray(data)
        for row in range(0, len(out), rowlen):
            for index in range(row + bpp, min(row + rowlen, len(out))):
                out[index] = (out[index] + out[index - bpp]) & 0xFF
        return bytes(out)
    # PNG predictors: every row starts with its own filter-type byte.
    out = bytearray()
    prior = bytearray(rowlen)
    for start in range(0, len(data), rowlen + 1):
        kind = data[start]
        row = bytearray(data[start + 1:start + 1 + rowlen])
        if len(row) < rowlen:
            row += bytes(rowlen - len(row))
        if kind == 1:
            for i in range(bpp, rowlen):
                row[i] = (row[i] + row[i - bpp]) & 0xFF
        elif kind == 2:
            for i in range(rowlen):
                row[i] = (row[i] + prior[i]) & 0xFF
        elif kind == 3:
            for i in range(rowlen):
                left = row[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + ((left + prior[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(rowlen):
                left = row[i - bpp] if i >= bpp else 0
                up = prior[i]
                upleft = prior[i - bpp] if i >= bpp else 0
                estimate = left + up - upleft
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - upleft)
                near = left if pa <= pb and pa <= pc else (up if pb <= pc else upleft)
                row[i] = (row[i] + near) & 0xFF
        elif kind != 0:
            raise PdfError(f"PNG predictor row type {kind} is invalid")
        out += row
        prior = row
    return bytes(out)


def decode_stream(raw: bytes, dictionary: dict, budget: WorkBudget, resolve) -> bytes:
    """Apply a stream's ``/Filter`` chain.

    Args:
        raw: The encoded bytes.
        dictionary: The stream dictionary (``/Filter``, ``/DecodeParms``).
        budget: The file's work budget (decoded bytes, bytes through byte-by-byte filters).
        resolve: Turns an indirect reference into its object.

    Returns:
        The decoded bytes.

    Raises:
        UnsupportedFilterError: For image codecs and unknown filters.
        PdfError: For corrupt data.
        WorkLimitError: When the budget runs out.
    """
    filters = resolve(dictionary.get("Filter", dictionary.get("F")))
    params = resolve(dictionary.get("DecodeParms", dictionary.get("DP")))
    if filters is None:
        filters = []
    elif not isinstance(filters, list):
        filters = [filters]
    if not isinstance(params, list):
        params = [params] * len(filters)
    data = raw
    for index, name in enumerate(filters):
        name = resolve(name)
        param = resolve(params[index]) if index < len(params) else None
        param = param if isinstance(param, dict) else {}
        if name in ("FlateDecode", "Fl"):
            data = _predict(_flate(data, budget), param, budget)
        elif name in ("LZWDecode", "LZW"):
            early = _int_param(param, "EarlyChange", 1, 0, 1)
            data = _predict(_lzw(data, early, budget), param, budget)
        elif name in ("ASCIIHexDecode", "AHx"):
            data = _ascii_hex(data, budget)
        elif name in ("ASCII85Decode", "A85"):
            data = _ascii85(data, budget)
        elif name in ("RunLengthDecode", "RL"):
            data = _run_length(data, budget)
        elif name == "Crypt":
            continue
        elif name in IMAGE_FILTERS:
            raise UnsupportedFilterError(f"stream uses the image filter {name}")
        else:
            raise UnsupportedFilterError(f"stream uses an unsupported filter {name!r}")
    return data
