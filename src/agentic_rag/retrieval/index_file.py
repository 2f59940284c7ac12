"""The saved-index file format shared by every index: versioned, checksummed, no pickle.

Layout (all integers little-endian)::

    8 bytes   magic  b"AGRAGIX\\0"
    4 bytes   format version (uint32), currently 1
    8 bytes   header length H (uint64)
    H bytes   header: UTF-8 JSON {"kind", "meta", "sections": [{"name", "offset", "length"}],
              "payload_length", "payload_sha256"}
    rest      payload: the sections' bytes, back to back

``meta`` holds the index's settings (analyzer, scoring parameters...); each section is a named
blob (JSON text or a raw ``array`` dump). A reader checks the magic, the version, the kind, the
payload length and the SHA-256 before using anything, so a truncated, corrupted or future file
raises :class:`~agentic_rag.errors.IndexFormatError` and nothing is loaded. Writers write to a
temporary file in the target's folder, flush and fsync it, then ``os.replace`` it into place,
so a crash never leaves a half-written index under the real name.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentic_rag.errors import IndexFormatError

__all__ = ["FORMAT_VERSION", "MAGIC", "atomic_write_bytes", "read_index_file", "write_index_file"]

MAGIC = b"AGRAGIX\0"
FORMAT_VERSION = 1
_PREFIX = struct.Struct("<8sIQ")


def atomic_write_bytes(path: str | os.PathLike[str], chunks: list[bytes] | tuple[bytes, ...]) -> None:
    """Write ``chunks`` to ``path`` through a temporary file renamed into place.

    Args:
        path: Destination file.
        chunks: Byte strings written in order.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            for chunk in chunks:
                handle.write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_index_file(path: str | os.PathLike[str], kind: str, meta: Mapping[str, Any], sections: Mapping[str, bytes]) -> None:
    """Save an index atomically in the versioned format.

    Args:
        path: Destination file.
        kind: What index this is (``"bm25"``, ``"vector"``); checked on load.
        meta: JSON-compatible settings.
        sections: Named payload blobs, written in the given order.
    """
    digest = hashlib.sha256()
    table = []
    offset = 0
    for name, blob in sections.items():
        table.append({"name": name, "offset": offset, "length": len(blob)})
        digest.update(blob)
        offset += len(blob)
    header = json.dumps(
        {"kind": kind, "meta": meta, "sections": table, "payload_length": offset, "payload_sha256": digest.hexdigest()},
        sort_keys=True,
        ensure_ascii=False,
    ).encode("utf-8")
    atomic_write_bytes(path, [_PREFIX.pack(MAGIC, FORMAT_VERSION, len(header)), header, *sections.values()])


def read_index_file(path: str | os.PathLike[str], kind: str) -> tuple[dict[str, Any], dict[str, bytes]]:
    """Load and verify an index file.

    Args:
        path: The file written by :func:`write_index_file`.
        kind: The index kind expected.

    Returns:
        ``(meta, sections)``.

    Raises:
        IndexFormatError: Missing file, wrong magic, unsupported version, other kind,
            truncated or corrupted payload.
    """
    source = Path(path)
    try:
        data = source.read_bytes()
    except OSError as exc:
        raise IndexFormatError(f"cannot read index file {str(source)!r}: {exc.strerror or exc}", stage="load") from exc
    if len(data) < _PREFIX.size:
        raise IndexFormatError(f"{source.name!r} is truncated: {len(data)} bytes, shorter than the {_PREFIX.size}-byte prefix", stage="load")
    magic, version, header_len = _PREFIX.unpack_from(data)
    if magic != MAGIC:
        raise IndexFormatError(f"{source.name!r} is not an agentic-rag index (magic {magic!r}, expected {MAGIC!r})", stage="load")
    if version != FORMAT_VERSION:
        raise IndexFormatError(f"{source.name!r} has format version {version}; this library reads version {FORMAT_VERSION}", stage="load")
    start = _PREFIX.size + header_len
    if len(data) < start:
        raise IndexFormatError(f"{source.name!r} is truncated inside its header", stage="load")
    try:
        header = json.loads(data[_PREFIX.size:start].decode("utf-8"))
        payload_length = int(header["payload_length"])
        expected_sha = str(header["payload_sha256"])
        table = [(str(s["name"]), int(s["offset"]), int(s["length"])) for s in header["sections"]]
    except (ValueError, KeyError, TypeError) as exc:
        raise IndexFormatError(f"{source.name!r} has a corrupted header: {exc}", stage="load") from exc
    if header.get("kind") != kind:
        raise IndexFormatError(f"{source.name!r} holds a {header.get('kind')!r} index, expected {kind!r}", stage="load")
    payload = memoryview(data)[start:]
    if len(payload) != payload_length:
        raise IndexFormatError(f"{source.name!r} is truncated: payload has {len(payload)} of {payload_length} bytes", stage="load")
    if hashlib.sha256(payload).hexdigest() != expected_sha:
        raise IndexFormatError(f"{source.name!r} is corrupted: payload checksum does not match", stage="load")
    sections = {name: bytes(payload[offset:offset + length]) for name, offset, length in table}
    return dict(header.get("meta") or {}), sections
