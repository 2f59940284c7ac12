"""The saved-index file format shared by every index: versioned, checksummed, no pickle.

Layout (all integers little-endian)::

    8 bytes   magic  b"AGRAGIX\\0"
    4 bytes   format version (uint32), currently 2
    8 bytes   header length H (uint64)
    H bytes   header: UTF-8 JSON {"kind", "meta", "sections": [{"name", "offset", "length"}],
              "payload_length"}
    P bytes   payload: the sections' bytes, back to back
    32 bytes  SHA-256 of every byte before it (magic, version, header and payload)

``meta`` holds the index's settings (analyzer, scoring parameters...); each section is a named
blob (JSON text or a raw ``array`` dump). A reader checks the magic, the version and the
whole-file SHA-256 before it parses anything, then the kind and the lengths, so a truncated or
corrupted file (a flipped bit in a setting, a section offset or the payload) or a file of
another version raises :class:`~agentic_rag._errors.IndexFormatError` and nothing is loaded.
Version 1 files (whose checksum covered the payload only, so a damaged header could load
silently) are refused with a message saying to rebuild them; a store rebuilds its own on the
next index run. Writers go through :func:`agentic_rag._files.atomic_write` (a temporary file
in the target's folder, flushed, fsync-ed and ``os.replace``-d into place, then the folder
fsync-ed), so a crash never leaves a half-written index under the real name.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentic_rag._contracts.validation import is_int
from agentic_rag._errors import IndexFormatError
from agentic_rag._files import atomic_write

__all__ = ["FORMAT_VERSION", "MAGIC", "read_index_file", "verify_index_file", "write_index_file"]

MAGIC = b"AGRAGIX\0"
FORMAT_VERSION = 2
_PREFIX = struct.Struct("<8sIQ")
_DIGEST = 32  # bytes of the SHA-256 trailer


def write_index_file(path: str | os.PathLike[str], kind: str, meta: Mapping[str, Any], sections: Mapping[str, bytes]) -> None:
    """Save an index atomically in the versioned format.

    Args:
        path: Destination file.
        kind: What index this is (``"bm25"``, ``"vector"``); checked on load.
        meta: JSON-compatible settings.
        sections: Named payload blobs, written in the given order.
    """
    table = []
    offset = 0
    for name, blob in sections.items():
        table.append({"name": name, "offset": offset, "length": len(blob)})
        offset += len(blob)
    header = json.dumps(
        {"kind": kind, "meta": meta, "sections": table, "payload_length": offset},
        sort_keys=True,
        ensure_ascii=False,
    ).encode("utf-8")
    chunks = [_PREFIX.pack(MAGIC, FORMAT_VERSION, len(header)), header, *sections.values()]
    digest = hashlib.sha256()
    for chunk in chunks:
        digest.update(chunk)
    atomic_write(path, [*chunks, digest.digest()])


def read_index_file(path: str | os.PathLike[str], kind: str) -> tuple[dict[str, Any], dict[str, bytes]]:
    """Load and verify an index file.

    Args:
        path: The file written by :func:`write_index_file`.
        kind: The index kind expected.

    Returns:
        ``(meta, sections)``.

    Raises:
        IndexFormatError: Missing file, wrong magic, unsupported version, other kind,
            truncated or corrupted anywhere (header included).
    """
    meta, table, payload = _read(path, kind)
    return meta, {name: bytes(payload[offset:offset + length]) for name, offset, length in table}


def verify_index_file(path: str | os.PathLike[str], kind: str) -> dict[str, Any]:
    """Check an index file as :func:`read_index_file` does, without copying its sections.

    Args:
        path: The file.
        kind: The index kind expected.

    Returns:
        The file's ``meta``.

    Raises:
        IndexFormatError: As :func:`read_index_file`.
    """
    return _read(path, kind)[0]


def _read(path: str | os.PathLike[str], kind: str) -> tuple[dict[str, Any], list[tuple[str, int, int]], memoryview]:
    source = Path(path)
    try:
        data = source.read_bytes()
    except OSError as exc:
        raise IndexFormatError(f"cannot read index file {str(source)!r}: {exc.strerror or exc}", stage="load") from exc
    name = source.name
    if len(data) < _PREFIX.size:
        raise IndexFormatError(f"{name!r} is truncated: {len(data)} bytes, shorter than the {_PREFIX.size}-byte prefix", stage="load")
    magic, version, header_len = _PREFIX.unpack_from(data)
    if magic != MAGIC:
        raise IndexFormatError(f"{name!r} is not an agentic-rag index (magic {magic!r}, expected {MAGIC!r})", stage="load")
    if version != FORMAT_VERSION:
        advice = "; rebuild it (run index again for a store, or build and save the index again)" if version < FORMAT_VERSION else ""
        raise IndexFormatError(f"{name!r} has format version {version}; this library reads version {FORMAT_VERSION}{advice}", stage="load")
    start = _PREFIX.size + header_len
    if len(data) < start + _DIGEST:
        raise IndexFormatError(f"{name!r} is truncated inside its header", stage="load")
    body = memoryview(data)[:-_DIGEST]
    if hashlib.sha256(body).digest() != data[-_DIGEST:]:
        raise IndexFormatError(_damage(name, data, start), stage="load")
    try:
        header = json.loads(data[_PREFIX.size:start].decode("utf-8"))
        payload_length, meta, table = _header_fields(header)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise IndexFormatError(f"{name!r} has a corrupted header: {exc}", stage="load") from exc
    if header.get("kind") != kind:
        raise IndexFormatError(f"{name!r} holds a {header.get('kind')!r} index, expected {kind!r}", stage="load")
    payload = body[start:]
    if len(payload) != payload_length or any(o < 0 or n < 0 or o + n > payload_length for _, o, n in table):
        raise IndexFormatError(f"{name!r} has a header whose lengths do not match its payload", stage="load")
    return meta, table, payload


def _header_fields(header: Any) -> tuple[int, dict[str, Any], list[tuple[str, int, int]]]:
    """The payload length, meta and section table of a parsed header, each of its type."""
    def whole(value: Any) -> int:
        if not is_int(value):
            raise TypeError(f"expected a whole number, got {value!r}")
        return value

    if not isinstance(header, dict) or not isinstance(header.get("sections"), list):
        raise TypeError("the header is not an object with a list of sections")
    meta = header.get("meta") or {}
    if not isinstance(meta, dict):
        raise TypeError(f"meta must be an object, got {type(meta).__name__}")
    table = []
    for section in header["sections"]:
        if not isinstance(section, dict) or not isinstance(section.get("name"), str):
            raise TypeError(f"a section entry is not an object with a name: {section!r}")
        table.append((section["name"], whole(section.get("offset")), whole(section.get("length"))))
    return whole(header.get("payload_length")), dict(meta), table


def _damage(name: str, data: bytes, start: int) -> str:
    """Say how a file whose checksum failed is damaged: shorter than its header says, or not."""
    try:
        expected = start + int(json.loads(data[_PREFIX.size:start].decode("utf-8"))["payload_length"]) + _DIGEST
    except (ValueError, KeyError, TypeError):
        expected = -1
    if expected > len(data):
        return f"{name!r} is truncated: {len(data)} of {expected} bytes"
    return f"{name!r} is corrupted: its checksum does not match its content"
