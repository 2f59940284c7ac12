"""A Word document's zip archive, read with bounds, and its XML parts parsed as a stream.

Reading is bounded three ways: the archive's entry count; the bytes each part, and all parts
together, may inflate to (read to the bound, never to what a header claims); and the elements
parsed, charged to the file's :class:`~agentic_rag._ingest.work_budget.WorkBudget` as they are
read. Before a part is parsed its prolog is parsed on its own, by the XML parser itself, and a
DTD is refused whatever the encoding (a byte search for ``<!DOCTYPE`` misses UTF-16), as is an
encoding the parser cannot read. Every failure is a :class:`Refused` naming the part.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from collections.abc import Callable
from xml.etree import ElementTree
from xml.parsers import expat

from agentic_rag._ingest.work_budget import WorkBudget, current_work_budget

__all__ = ["MAX_ENTRIES", "MAX_PART_BYTES", "Archive", "Refused", "check_prolog", "stream_xml"]

#: Most entries an archive may list.
MAX_ENTRIES = 10_000
#: Most bytes one XML part may inflate to (and the parts read, together, 4 times this).
MAX_PART_BYTES = 64 * 1024 * 1024

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_FEED = 1 << 18  # bytes handed to the streaming parser at a time (a limit stops within one)
_CHARGE_EVERY = 1024  # elements counted locally before the budget is charged

try:
    from lzma import LZMAError
except ImportError:  # Python built without lzma: zipfile cannot open LZMA entries either
    class LZMAError(Exception):  # type: ignore[no-redef]
        pass

# Everything a damaged archive makes zipfile (and the decompressors under it) raise.
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, LZMAError, struct.error, NotImplementedError, RuntimeError,
               OSError, ValueError, EOFError)

#: Called with each element that ends and its open ancestors (root first).
EndHandler = Callable[[ElementTree.Element, list[ElementTree.Element]], None]


class Refused(Exception):
    """The archive breaks a bound or is not a Word document; the message says which."""


class _PrologRead(Exception):
    """The first element began: the prolog, where a DTD would be, is over."""


def check_prolog(data: bytes, name: str) -> None:
    """Parse ``data`` up to its first element: refuse a DTD, or an encoding expat cannot read.

    Args:
        data: The part's bytes.
        name: The part's name, for messages.

    Raises:
        Refused: A DTD (internal or external, in any encoding), an unreadable declared
            encoding (Word writes UTF-8 or UTF-16 only), or no element at all.
    """
    parser = expat.ParserCreate()

    def doctype(*_args: object) -> None:
        raise Refused(f"damaged Word document: {name} declares a DTD, which Word never writes")

    def first_element(*_args: object) -> None:
        raise _PrologRead

    parser.StartDoctypeDeclHandler = doctype
    parser.StartElementHandler = first_element
    try:
        parser.Parse(data, True)
    except _PrologRead:
        return
    except expat.ExpatError as exc:
        raise Refused(f"damaged Word document: {name} is not well-formed XML ({exc})") from None
    except (ValueError, LookupError) as exc:
        raise Refused(f"damaged Word document: {name} declares an encoding that cannot be read ({exc})") from None
    raise Refused(f"damaged Word document: {name} holds no XML element")


def stream_xml(data: bytes, name: str, budget: WorkBudget, on_end: EndHandler | None = None, end_depth: int = 2) -> ElementTree.Element:
    """Parse ``data`` as a stream, charging each element to ``budget``.

    Args:
        data: The part's bytes (its prolog checked by :func:`check_prolog`).
        name: The part's name, for messages.
        budget: The file's budget.
        on_end: Called with each element that ends at most ``end_depth`` levels below the
            root, and the stack of its open ancestors (root first); it may remove the element
            from its parent to free it.
        end_depth: How deep ``on_end`` is called (2: the root's children's children).

    Returns:
        The root element (what ``on_end`` left of it).

    Raises:
        Refused: The part is not well-formed XML.
        WorkLimitError: More elements than the budget allows.
    """
    parser = ElementTree.XMLPullParser(events=("start", "end"))
    stack: list[ElementTree.Element] = []
    roots: list[ElementTree.Element] = []
    counted = 0

    def drain() -> None:
        nonlocal counted
        for event, element in parser.read_events():
            if event == "start":
                stack.append(element)
                counted += 1
                if counted >= _CHARGE_EVERY:
                    budget.element(counted)
                    counted = 0
                continue
            stack.pop()
            if not stack:
                roots.append(element)
            if on_end is not None and len(stack) <= end_depth:
                on_end(element, stack)

    try:
        for start in range(0, len(data), _FEED):
            parser.feed(data[start:start + _FEED])
            drain()
        parser.close()
        drain()
    except ElementTree.ParseError as exc:
        raise Refused(f"damaged Word document: {name} is not well-formed XML ({exc})") from None
    budget.element(counted)
    if not roots:
        raise Refused(f"damaged Word document: {name} is not well-formed XML (no root element)")
    return roots[0]


class Archive:
    """Bounded reads of an archive's parts, charged to the current file's budget.

    Args:
        data: The ``.docx`` file's bytes.

    Raises:
        Refused: An OLE file (encrypted or old ``.doc``), not a zip archive, or too many
            entries.
    """

    def __init__(self, data: bytes) -> None:
        if data.startswith(_OLE_MAGIC):
            raise Refused("an encrypted Word document or an old binary .doc (OLE compound file), not a .docx zip archive")
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
            names = self.zip.namelist()
        except _ZIP_ERRORS as exc:
            raise Refused(f"not a Word document: not a readable zip archive ({exc})") from None
        if len(names) > MAX_ENTRIES:
            raise Refused(f"not a Word document: its archive lists {len(names)} entries, more than {MAX_ENTRIES}")
        self.names = set(names)
        self.budget = 4 * MAX_PART_BYTES
        self.work = current_work_budget()

    def xml(self, name: str, required: bool = False, on_end: EndHandler | None = None, end_depth: int = 2) -> ElementTree.Element | None:
        """The part ``name`` parsed (``None`` when absent and not ``required``); see
        :func:`stream_xml` for ``on_end`` and ``end_depth``."""
        data = self.part(name, required)
        if data is None:
            return None
        check_prolog(data, name)
        return stream_xml(data, name, self.work, on_end, end_depth)

    def part(self, name: str, required: bool = False) -> bytes | None:
        """The part's bytes, inflated within the bounds."""
        if name not in self.names:
            if required:
                raise Refused(f"not a Word document: the archive holds no {name}")
            return None
        try:
            with self.zip.open(name) as part:
                # Read to the bound, never to what the header claims: headers can lie.
                data = part.read(min(MAX_PART_BYTES, self.budget) + 1)
        except _ZIP_ERRORS as exc:
            # An encrypted entry (RuntimeError), a compression method zipfile lacks
            # (NotImplementedError), a corrupt stream (zlib.error) or a bad CRC (BadZipFile).
            raise Refused(f"damaged Word document: cannot inflate {name} ({exc})") from None
        if len(data) > min(MAX_PART_BYTES, self.budget):
            raise Refused(f"Word document too large: {name} inflates to more than {min(MAX_PART_BYTES, self.budget)} bytes")
        self.budget -= len(data)
        return data
