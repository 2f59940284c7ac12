"""PDF tokens and objects: the lexer and the object parser shared by files and content streams.

Objects map onto plain Python values so the rest of the package stays small: names are
``str``, strings (literal and hex) are ``bytes``, numbers ``int``/``float``, arrays ``list``,
dictionaries ``dict`` keyed by name, ``null`` is ``None``; indirect references are
:class:`Ref`, streams :class:`Stream` and content-stream operators :class:`Operator`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from agentic_rag._errors import AgenticRAGError
from agentic_rag._ingest.work_budget import current_work_budget

__all__ = ["Lexer", "Operator", "PdfError", "PdfLimitError", "Ref", "Stream", "parse_object_at"]

_STAGE = "pdf"
MAX_NESTING = 64

_SKIP = re.compile(rb"(?:[ \t\r\n\x0c\x00]+|%[^\r\n]*)+")
_REGULAR = re.compile(rb"[^ \t\r\n\x0c\x00()<>\[\]{}/%]+")
_NAME = re.compile(rb"/[^ \t\r\n\x0c\x00()<>\[\]{}/%]*")
_NUMBER = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)\Z")
_INTEGER = re.compile(rb"[+-]?\d+\Z")
_MAX_INT_DIGITS = 19  # with a sign: every int a PDF needs fits, and conversion stays linear
_HEX = re.compile(rb"<([0-9A-Fa-f \t\r\n\x0c\x00]*)>")
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_STRING_SPECIAL = re.compile(rb"[()\\]")
_ESCAPES = {ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("b"): b"\b", ord("f"): b"\f",
            ord("("): b"(", ord(")"): b")", ord("\\"): b"\\"}
_OCTAL = re.compile(rb"[0-7]{1,3}")


class PdfError(AgenticRAGError):
    """A PDF that cannot be read: malformed syntax, a broken cross-reference, a bad stream."""

    def __init__(self, message: str) -> None:
        super().__init__(message, stage=_STAGE)


class PdfLimitError(PdfError):
    """A PDF that needs more work than the extractor allows (objects, bytes, operators, depth)."""


class Ref(NamedTuple):
    """An indirect reference ``num gen R``."""

    num: int
    gen: int


class Operator(str):
    """A bare keyword: a content-stream operator, or ``obj``/``stream``/``R`` in a file."""

    __slots__ = ()


class Stream:
    """A stream object: its dictionary and its still-encoded bytes."""

    __slots__ = ("dict", "raw")

    def __init__(self, dictionary: dict, raw: bytes) -> None:
        self.dict = dictionary
        self.raw = raw


def _decode_name(token: bytes) -> str:
    if b"#" in token:
        token = _NAME_ESCAPE.sub(lambda m: bytes((int(m.group(1), 16),)), token)
    return token.decode("latin-1")


_DICT_OPEN = Operator("<<")
_DICT_CLOSE = Operator(">>")
_ARRAY_OPEN = Operator("[")
_ARRAY_CLOSE = Operator("]")


class Lexer:
    """Reads tokens from ``data`` starting at ``pos``, each charged to the file's work budget.

    Every token read anywhere (objects, object streams, CMaps, content streams, again for a
    Form XObject drawn again) counts against ``max_content_tokens`` of the current
    :class:`~agentic_rag._ingest.work_budget.WorkBudget`: lexing is what a PDF's time goes to.

    Args:
        data: The bytes (a whole file or one decoded content stream).
        pos: Where to start.
    """

    __slots__ = ("budget", "data", "pos")

    def __init__(self, data: bytes, pos: int = 0) -> None:
        self.data = data
        self.pos = pos
        self.budget = current_work_budget()

    def skip_space(self) -> None:
        match = _SKIP.match(self.data, self.pos)
        if match:
            self.pos = match.end()

    def token(self) -> object:
        """Return the next token (a value, an :class:`Operator`), or ``None`` at the end.

        Raises:
            PdfError: On a string that never closes.
        """
        data = self.data
        self.skip_space()
        pos = self.pos
        if pos >= len(data):
            self.pos = len(data)
            return None
        budget = self.budget
        budget.content_tokens += 1  # inlined WorkBudget.content(1): this is the hottest loop
        if budget.content_tokens > budget.token_limit:
            budget.content(0)
        char = data[pos]
        if char == 0x2F:  # '/'
            match = _NAME.match(data, pos)
            self.pos = match.end()
            return _decode_name(match.group()[1:])
        if char == 0x28:  # '('
            return self._literal_string(pos + 1)
        if char == 0x3C:  # '<'
            if data[pos + 1:pos + 2] == b"<":
                self.pos = pos + 2
                return _DICT_OPEN
            match = _HEX.match(data, pos)
            if match is None:
                end = data.find(b">", pos)
                if end < 0:
                    raise PdfError(f"hex string at offset {pos} never closes")
                self.pos = end + 1
                digits = re.sub(rb"[^0-9A-Fa-f]", b"", data[pos + 1:end])
            else:
                self.pos = match.end()
                digits = re.sub(rb"[ \t\r\n\x0c\x00]", b"", match.group(1))
            if len(digits) % 2:
                digits += b"0"
            return bytes.fromhex(digits.decode("ascii"))
        if char == 0x3E:  # '>'
            self.pos = pos + (2 if data[pos + 1:pos + 2] == b">" else 1)
            return _DICT_CLOSE
        if char == 0x5B:
            self.pos = pos + 1
            return _ARRAY_OPEN
        if char == 0x5D:
            self.pos = pos + 1
            return _ARRAY_CLOSE
        if char in (0x29, 0x7B, 0x7D):  # stray ')' or PostScript braces: keywords
            self.pos = pos + 1
            return Operator(chr(char))
        match = _REGULAR.match(data, pos)
        token = match.group()
        self.pos = match.end()
        if _NUMBER.match(token):
            if _INTEGER.match(token) and len(token) <= _MAX_INT_DIGITS:
                return int(token)
            # A 100,000-digit integer is no offset or count: read it as a (huge) real, which
            # never passes an integer check, instead of spending quadratic time converting it.
            return float(token)
        if token == b"true":
            return True
        if token == b"false":
            return False
        if token == b"null":
            return None
        return Operator(token.decode("latin-1"))

    def _literal_string(self, pos: int) -> bytes:
        data = self.data
        depth = 1
        parts: list[bytes] = []
        start = pos
        while True:
            match = _STRING_SPECIAL.search(data, pos)
            if match is None:
                raise PdfError(f"literal string at offset {start - 1} never closes")
            at = match.start()
            char = data[at]
            if char == 0x5C:  # backslash
                parts.append(data[start:at])
                nxt = data[at + 1:at + 2]
                if not nxt:
                    raise PdfError(f"literal string at offset {start - 1} never closes")
                code = nxt[0]
                if code in _ESCAPES:
                    parts.append(_ESCAPES[code])
                    pos = at + 2
                elif 0x30 <= code <= 0x37:
                    octal = _OCTAL.match(data, at + 1).group()
                    parts.append(bytes((int(octal, 8) & 0xFF,)))
                    pos = at + 1 + len(octal)
                elif code == 0x0D:  # line continuation
                    pos = at + (3 if data[at + 2:at + 3] == b"\n" else 2)
                elif code == 0x0A:
                    pos = at + 2
                else:
                    parts.append(nxt)
                    pos = at + 2
                start = pos
                continue
            pos = at + 1
            if char == 0x28:
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    parts.append(data[start:at])
                    self.pos = pos
                    return b"".join(parts)

    def parse_object(self, first: object = None, *, has_first: bool = False) -> object:
        """Parse one complete object (resolving ``num gen R`` into :class:`Ref`).

        Args:
            first: A token already read that starts the object.
            has_first: Whether ``first`` is meaningful.

        Returns:
            The object, or an :class:`Operator` when the next token is a bare keyword.

        Raises:
            PdfError: At the end of data, on unbalanced brackets or nesting too deep.
        """
        token = first if has_first else self.token()
        if not isinstance(token, Operator) or token not in ("[", "<<"):
            if token is None and self.pos >= len(self.data) and not has_first:
                raise PdfError("unexpected end of data while reading an object")
            return token
        stack: list[list] = [[token]]
        while True:
            token = self.token()
            if token is None and self.pos >= len(self.data):
                raise PdfError("unexpected end of data inside an array or dictionary")
            top = stack[-1]
            if isinstance(token, Operator):
                if token == "[" or token == "<<":
                    if len(stack) >= MAX_NESTING:
                        raise PdfLimitError(f"objects nested deeper than {MAX_NESTING} levels")
                    stack.append([token])
                    continue
                if token == "]" or token == ">>":
                    stack.pop()
                    value = _close(top, token)
                    if not stack:
                        return value
                    stack[-1].append(value)
                    continue
                if token == "R" and len(top) >= 3 and type(top[-1]) is int and type(top[-2]) is int:
                    gen = top.pop()
                    num = top.pop()
                    top.append(Ref(num, gen))
                    continue
            top.append(token)


def _close(items: list, closer: str) -> object:
    opener = items[0]
    body = items[1:]
    if opener == "[":
        return body
    result: dict = {}
    for index in range(0, len(body) - 1, 2):
        key = body[index]
        if isinstance(key, str) and not isinstance(key, Operator):
            result[key] = body[index + 1]
    return result


def parse_object_at(data: bytes, offset: int) -> tuple[int, int, object, int]:
    """Parse ``num gen obj <object>`` at ``offset`` (a stream keeps its raw bytes).

    Args:
        data: The whole file.
        offset: Where the object's header starts.

    Returns:
        ``(num, gen, value, end)``; for a stream, ``value`` is a :class:`Stream` whose length
        is still unchecked when ``/Length`` is indirect (the caller fixes it).

    Raises:
        PdfError: When the bytes at ``offset`` are not an indirect object.
    """
    if not 0 <= offset < len(data):
        raise PdfError(f"object offset {offset} is outside the file")
    lexer = Lexer(data, offset)
    num, gen, keyword = lexer.token(), lexer.token(), lexer.token()
    if type(num) is not int or type(gen) is not int or keyword != "obj":
        raise PdfError(f"no 'N G obj' header at offset {offset}")
    value = lexer.parse_object()
    if isinstance(value, dict):
        save = lexer.pos
        if lexer.token() == "stream":
            value = Stream(value, _stream_bytes(data, lexer.pos, value))
            return num, gen, value, lexer.pos
        lexer.pos = save
    return num, gen, value, lexer.pos


def _stream_bytes(data: bytes, pos: int, dictionary: dict) -> bytes:
    # The keyword is followed by CRLF or LF (some writers put a lone CR or nothing).
    if data[pos:pos + 2] == b"\r\n":
        pos += 2
    elif data[pos:pos + 1] in (b"\n", b"\r"):
        pos += 1
    length = dictionary.get("Length")
    if type(length) is int and 0 <= length <= len(data) - pos:
        tail = data[pos + length:pos + length + 32]
        if tail.lstrip(b" \t\r\n\x0c\x00").startswith(b"endstream"):
            return data[pos:pos + length]
    # /Length is indirect, missing or wrong: trust the endstream keyword instead.
    end = data.find(b"endstream", pos)
    if end < 0:
        end = len(data)
    raw = data[pos:end]
    if raw.endswith(b"\r\n"):
        raw = raw[:-2]
    elif raw.endswith((b"\n", b"\r")):
        raw = raw[:-1]
    return raw
