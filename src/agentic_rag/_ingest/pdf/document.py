"""A PDF file's object graph: cross-reference tables and streams, object streams, updates.

The newest section of the cross-reference chain wins (sections are read newest first, following
``/Prev`` and ``/XRefStm``). When the chain is missing or broken, the whole file is scanned for
``N G obj`` headers instead, the last definition of each object winning, as a damaged file's
readers do.
"""

from __future__ import annotations

import re

from agentic_rag._ingest.pdf.filters import decode_stream
from agentic_rag._ingest.pdf.lexer import Lexer, PdfError, PdfLimitError, Ref, Stream, parse_object_at
from agentic_rag._ingest.work_budget import IngestLimits, WorkBudget

__all__ = ["Document", "Limits"]

_STARTXREF = re.compile(rb"startxref\s*(\d{1,20})")
_OBJ_HEADER = re.compile(rb"(?<![0-9])(\d{1,10})[ \t\r\n\x0c\x00]+(\d{1,5})[ \t\r\n\x0c\x00]+obj\b")
_TRAILER = re.compile(rb"trailer[ \t\r\n\x0c\x00]*<<")
_XREF_ROW = re.compile(rb"(\d{1,10})[ \t]+(\d{1,5})[ \t]+([nf])")
_MAX_REF_CHAIN = 32
_MAX_XREF_SECTIONS = 256


class Limits:
    """The work one file may cause, beyond the budget every loader shares (see
    :class:`~agentic_rag._ingest.work_budget.IngestLimits`).

    Args:
        max_objects: Objects in the cross-reference (or found by scanning).
        max_decoded_bytes: Total decompressed bytes over every stream, when no budget is
            given to :class:`Document` (then the budget's own limit applies).
        max_operators: Content-stream operators per page (Form XObjects included); the
            budget bounds the operators of the whole file.
        max_form_depth: Nesting of Form XObjects.
        max_tree_depth: Nesting of the page tree.
    """

    __slots__ = ("max_decoded_bytes", "max_form_depth", "max_objects", "max_operators", "max_tree_depth")

    def __init__(self, *, max_objects: int = 1_000_000, max_decoded_bytes: int = 64 * 1024 * 1024,
                 max_operators: int = 1_000_000, max_form_depth: int = 12, max_tree_depth: int = 64) -> None:
        self.max_objects = max_objects
        self.max_decoded_bytes = max_decoded_bytes
        self.max_operators = max_operators
        self.max_form_depth = max_form_depth
        self.max_tree_depth = max_tree_depth


class Document:
    """Random access to a PDF's objects.

    Args:
        data: The whole file.
        limits: Work limits.
        budget: The file's work budget (default: one with ``limits.max_decoded_bytes``).

    Raises:
        PdfError: When no trailer with a ``/Root`` can be found even by scanning.
        PdfLimitError: When the file declares more objects than allowed.
    """

    def __init__(self, data: bytes, limits: Limits, budget: WorkBudget | None = None) -> None:
        self.data = data
        self.limits = limits
        self.budget = budget if budget is not None else WorkBudget(IngestLimits(max_decoded_bytes=limits.max_decoded_bytes))
        # num -> (offset, gen) for plain objects, or (-1 - stream_num, index) inside an ObjStm.
        self.xref: dict[int, tuple[int, int]] = {}
        self.cache: dict[int, object] = {}
        self.objstm_cache: dict[int, dict[int, object]] = {}
        self.scanned: dict[int, int] | None = None
        self.trailer: dict = {}
        try:
            self._read_xref_chain()
            root = self.resolve(self.trailer.get("Root"))
            if not isinstance(root, dict):
                raise PdfError("the trailer has no /Root catalog")
        except PdfLimitError:
            raise
        except PdfError:
            self._rebuild_from_scan()

    # -- cross-reference ------------------------------------------------------------------

    def _read_xref_chain(self) -> None:
        found = _STARTXREF.findall(self.data[-4096:]) or _STARTXREF.findall(self.data)
        if not found:
            raise PdfError("no startxref")
        offset = int(found[-1])
        seen: set[int] = set()
        pending = [offset]
        while pending:
            offset = pending.pop(0)
            if offset in seen or len(seen) >= _MAX_XREF_SECTIONS:
                continue
            seen.add(offset)
            try:
                trailer = self._read_xref_section(offset)
            except PdfLimitError:
                raise
            except PdfError:
                if len(seen) == 1:
                    raise
                continue  # a broken older section: keep the newer ones
            for key, value in trailer.items():
                self.trailer.setdefault(key, value)
            # A hybrid file's /XRefStm belongs to the same revision, before the older /Prev.
            for key in ("XRefStm", "Prev"):
                value = trailer.get(key)
                if type(value) is int:
                    pending.append(value)

    def _read_xref_section(self, offset: int) -> dict:
        data = self.data
        if not 0 <= offset < len(data):
            # A startxref or /Prev past the end (25 digits, say): the scan takes over.
            raise PdfError(f"cross-reference offset {offset} is outside the file")
        lexer = Lexer(data, offset)
        lexer.skip_space()
        if data.startswith(b"xref", lexer.pos):
            return self._read_xref_table(lexer.pos + 4)
        num, _gen, stream, _end = parse_object_at(data, offset)
        if not isinstance(stream, Stream) or stream.dict.get("Type") != "XRef":
            raise PdfError(f"no cross-reference at offset {offset}")
        self._read_xref_stream(stream)
        return stream.dict

    def _add(self, num: int, entry: tuple[int, int]) -> None:
        if num not in self.xref:
            if len(self.xref) >= self.limits.max_objects:
                raise PdfLimitError(f"more than {self.limits.max_objects} objects")
            self.xref[num] = entry

    def _read_xref_table(self, pos: int) -> dict:
        lexer = Lexer(self.data, pos)
        while True:
            save = lexer.pos
            first, count = lexer.token(), lexer.token()
            if type(first) is not int or type(count) is not int:
                lexer.pos = save
                break
            lexer.skip_space()
            for index in range(count):
                match = _XREF_ROW.match(self.data, lexer.pos)
                if match is None:
                    raise PdfError(f"malformed cross-reference row at offset {lexer.pos}")
                lexer.pos = match.end()
                lexer.skip_space()
                if match.group(3) == b"n":
                    self._add(first + index, (int(match.group(1)), int(match.group(2))))
                else:
                    self._add(first + index, (0, -1))  # freed: hides older definitions
        if lexer.token() != "trailer":
            raise PdfError("cross-reference table without a trailer")
        trailer = lexer.parse_object()
        if not isinstance(trailer, dict):
            raise PdfError("the trailer is not a dictionary")
        return trailer

    def _read_xref_stream(self, stream: Stream) -> None:
        fields = stream.dict
        widths = self.resolve(fields.get("W"))
        size = self.resolve(fields.get("Size"))
        if not isinstance(widths, list) or len(widths) < 3 or not all(type(w) is int and 0 <= w <= 8 for w in widths[:3]):
            raise PdfError("cross-reference stream with a bad /W")
        index = self.resolve(fields.get("Index")) or [0, size if type(size) is int else 0]
        if not isinstance(index, list) or not all(type(i) is int and i >= 0 for i in index):
            raise PdfError("cross-reference stream with a bad /Index")
        body = decode_stream(stream.raw, fields, self.budget, self.resolve)
        w1, w2, w3 = widths[:3]
        row = w1 + w2 + w3
        pos = 0
        for start, count in zip(index[0::2], index[1::2]):
            for num in range(start, start + count):
                if pos + row > len(body):
                    return
                kind = int.from_bytes(body[pos:pos + w1], "big") if w1 else 1
                second = int.from_bytes(body[pos + w1:pos + w1 + w2], "big")
                third = int.from_bytes(body[pos + w1 + w2:pos + row], "big")
                pos += row
                if kind == 1:
                    self._add(num, (second, third))
                elif kind == 2:
                    self._add(num, (-1 - second, third))
                elif kind == 0:
                    self._add(num, (0, -1))

    def _scan(self) -> dict[int, int]:
        if self.scanned is None:
            found: dict[int, int] = {}
            for match in _OBJ_HEADER.finditer(self.data):
                found[int(match.group(1))] = match.start()
                if len(found) > self.limits.max_objects:
                    raise PdfLimitError(f"more than {self.limits.max_objects} objects")
            self.scanned = found
        return self.scanned

    def _rebuild_from_scan(self) -> None:
        self.xref = {num: (offset, 0) for num, offset in self._scan().items()}
        self.cache.clear()
        trailer: dict = {}
        for match in _TRAILER.finditer(self.data):
            try:
                candidate = Lexer(self.data, match.end() - 2).parse_object()
            except PdfError:
                continue
            if isinstance(candidate, dict) and "Root" in candidate:
                trailer = candidate
        # Objects packed in object streams are invisible to the scan: register them too.
        for num in sorted(self.xref):
            value = self._get(num)
            if isinstance(value, Stream):
                kind = value.dict.get("Type")
                if kind == "ObjStm":
                    for inner in self._objstm(num):
                        self.xref.setdefault(inner, (-1 - num, 0))
                elif kind == "XRef" and "Root" in value.dict and not trailer:
                    trailer = value.dict
        if not isinstance(self.resolve(trailer.get("Root")), dict):
            for num in sorted(self.xref):
                value = self._get(num)
                if isinstance(value, dict) and value.get("Type") == "Catalog":
                    trailer = {**trailer, "Root": Ref(num, 0)}
                    break
            else:
                raise PdfError("no document catalog (/Root) found, even by scanning the file")
        self.trailer = trailer

    # -- objects --------------------------------------------------------------------------

    def _get(self, num: int) -> object:
        if num in self.cache:
            return self.cache[num]
        entry = self.xref.get(num)
        value: object = None
        if entry is None and self.scanned is not None and num in self.scanned:
            entry = (self.scanned[num], 0)
        # Marked missing while it is parsed: an object whose /Length refers to itself (or any
        # cycle through _get) then reads as missing instead of recursing.
        self.cache[num] = None
        if entry is not None:
            where, gen = entry
            if where < 0:
                value = self._objstm(-1 - where).get(num)
            elif gen >= 0:
                value = self._parse_at(num, where)
        self.cache[num] = value
        return value

    def _parse_at(self, num: int, offset: int) -> object:
        try:
            found, _gen, value, _end = parse_object_at(self.data, offset)
            if found != num:
                raise PdfError(f"object {num} is not at offset {offset}")
        except PdfLimitError:
            raise
        except PdfError:
            # A wrong offset in an otherwise usable xref: look the object up by scanning.
            offset = self._scan().get(num, -1)
            if offset < 0:
                return None
            try:
                _found, _gen, value, _end = parse_object_at(self.data, offset)
            except PdfLimitError:
                raise
            except PdfError:
                return None
        if isinstance(value, Stream):
            length = value.dict.get("Length")
            if isinstance(length, Ref):
                # Re-cut an indirect /Length now that it can be resolved.
                real = self.resolve(length)
                if type(real) is int and 0 <= real <= len(value.raw):
                    value.raw = value.raw[:real]
        return value

    def _objstm(self, num: int) -> dict[int, object]:
        if num in self.objstm_cache:
            return self.objstm_cache[num]
        self.objstm_cache[num] = {}  # guards against an object stream that contains itself
        stream = self._get(num)
        objects: dict[int, object] = {}
        if isinstance(stream, Stream):
            count = stream.dict.get("N")
            first = stream.dict.get("First")
            if type(count) is int and type(first) is int and 0 <= count <= self.limits.max_objects:
                try:
                    body = decode_stream(stream.raw, stream.dict, self.budget, self.resolve)
                except PdfLimitError:
                    raise
                except PdfError:
                    body = b""  # a corrupt object stream: its objects read as missing
                lexer = Lexer(body)
                pairs = []
                for _ in range(count):
                    inner, offset = lexer.token(), lexer.token()
                    if type(inner) is not int or type(offset) is not int:
                        break
                    pairs.append((inner, offset))
                for inner, offset in pairs:
                    try:
                        objects[inner] = Lexer(body, first + offset).parse_object()
                    except PdfLimitError:
                        raise
                    except PdfError:
                        objects[inner] = None
        self.objstm_cache[num] = objects
        return objects

    def resolve(self, value: object) -> object:
        """Follow indirect references until a direct object (``None`` for a missing one).

        Raises:
            PdfLimitError: When references chain deeper than allowed.
        """
        hops = 0
        while isinstance(value, Ref):
            hops += 1
            if hops > _MAX_REF_CHAIN:
                raise PdfLimitError(f"indirect references chain deeper than {_MAX_REF_CHAIN}")
            value = self._get(value.num)
        return value

    def stream_data(self, stream: Stream) -> bytes:
        """Decode a stream's bytes through its filters (spending the byte budget)."""
        return decode_stream(stream.raw, stream.dict, self.budget, self.resolve)

    def resolved_dict(self, value: object) -> dict:
        """Resolve ``value`` and return it if it is a dictionary (a stream's dictionary too)."""
        value = self.resolve(value)
        if isinstance(value, Stream):
            return value.dict
        return value if isinstance(value, dict) else {}
