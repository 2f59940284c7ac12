"""How a vector index is laid out in the shared saved-index file (kind ``"vector"``).

``meta`` holds ``layout`` (currently 1), ``mode`` (``"dense"`` or ``"sparse"``),
``normalize``, ``count`` and ``embedder`` (the embedder's description). Sections:

* ``documents``: UTF-8 JSON list of the documents, in row order;
* dense: ``vectors``, the float32 rows back to back;
* sparse: ``dims`` (int32, sorted), ``offsets`` (int64, one more than ``dims``), ``rows``
  (int32) and ``weights`` (float32 tf weights): the inverted file. A dimension's document
  frequency is its posting count, so the learned idf travels with the postings.

Arrays are little-endian. The container (:mod:`~agentic_rag._retrieval.index_file`) checks
magic, version, length and checksum; this module then checks that the sections agree with
each other, so no inconsistent file is ever loaded.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from agentic_rag._contracts import Document
from agentic_rag._errors import IndexFormatError, InvalidInputError
from agentic_rag._retrieval.index_file import read_index_file, write_index_file
from agentic_rag._retrieval.vector_store import DenseVectors, SparsePostings, array_from_bytes, array_to_bytes

__all__ = ["LAYOUT_VERSION", "read_vector_file", "write_vector_file"]

LAYOUT_VERSION = 1
_KIND = "vector"


def write_vector_file(
    path: str | os.PathLike[str],
    *,
    documents: tuple[Document, ...],
    table: DenseVectors | SparsePostings | None,
    normalize: bool,
    embedder: Mapping[str, Any],
) -> None:
    """Write a vector index atomically.

    Args:
        path: Destination file.
        documents: The documents in row order.
        table: Their vectors (``None`` for a dense index that never held a document).
        normalize: The index's scoring setting.
        embedder: The embedder's JSON description.
    """
    meta: dict[str, Any] = {
        "layout": LAYOUT_VERSION,
        "normalize": normalize,
        "count": len(documents),
        "embedder": dict(embedder),
    }
    sections = {"documents": json.dumps([d.to_dict() for d in documents], ensure_ascii=False, sort_keys=True).encode("utf-8")}
    if isinstance(table, SparsePostings):
        meta["mode"] = "sparse"
        sections.update(
            dims=array_to_bytes(table.dims),
            offsets=array_to_bytes(table.offsets),
            rows=array_to_bytes(table.rows),
            weights=array_to_bytes(table.weights),
        )
    else:
        meta["mode"] = "dense"
        meta["dimensions"] = table.dimensions if table is not None else None
        sections["vectors"] = array_to_bytes(table.vectors) if table is not None else b""
    write_index_file(path, _KIND, meta, sections)


def read_vector_file(path: str | os.PathLike[str]) -> tuple[dict[str, Any], tuple[Document, ...], DenseVectors | SparsePostings | None]:
    """Read and check a file written by :func:`write_vector_file`.

    Returns:
        ``(meta, documents, table)``.

    Raises:
        IndexFormatError: The container checks fail, an unknown layout or mode, or sections
            that disagree (lengths, ids, offsets, row numbers).
    """
    meta, sections = read_index_file(path, _KIND)
    name = os.fspath(path)
    layout = meta.get("layout")
    if layout != LAYOUT_VERSION:
        raise IndexFormatError(f"{name!r} has vector layout {layout!r}; this library reads layout {LAYOUT_VERSION}", stage="load")
    mode = meta.get("mode")
    if mode not in ("dense", "sparse") or not isinstance(meta.get("embedder"), dict) or not isinstance(meta.get("normalize"), bool):
        raise IndexFormatError(f"{name!r} has a corrupted vector header: mode {mode!r}", stage="load")
    documents = _documents(name, sections, meta.get("count"))
    try:
        table = _sparse(sections, len(documents)) if mode == "sparse" else _dense(sections, meta.get("dimensions"), len(documents))
    except (KeyError, ValueError, TypeError, OverflowError) as exc:
        raise IndexFormatError(f"{name!r} has inconsistent vector sections: {exc}", stage="load") from exc
    return meta, documents, table


def _documents(name: str, sections: Mapping[str, bytes], count: object) -> tuple[Document, ...]:
    try:
        raw = json.loads(sections["documents"].decode("utf-8"))
        documents = tuple(Document.from_dict(item) for item in raw)
    except (KeyError, ValueError, TypeError, AttributeError, OverflowError, InvalidInputError) as exc:
        raise IndexFormatError(f"{name!r} has corrupted documents: {exc}", stage="load") from exc
    if len(documents) != count:
        raise IndexFormatError(f"{name!r} holds {len(documents)} documents but its header says {count!r}", stage="load")
    if len({d.id for d in documents}) != len(documents):
        raise IndexFormatError(f"{name!r} holds duplicate document ids", stage="load")
    return documents


def _dense(sections: Mapping[str, bytes], dimensions: object, count: int) -> DenseVectors | None:
    vectors = array_from_bytes("f", sections["vectors"])
    if dimensions is None:
        if count or vectors:
            raise ValueError("vectors without a dimension")
        return None
    if not isinstance(dimensions, int) or dimensions < 1 or len(vectors) != dimensions * count:
        raise ValueError(f"{len(vectors)} floats for {count} rows of dimension {dimensions!r}")
    return DenseVectors(dimensions, vectors)


def _sparse(sections: Mapping[str, bytes], count: int) -> SparsePostings:
    dims = array_from_bytes("i", sections["dims"])
    offsets = array_from_bytes("q", sections["offsets"])
    rows = array_from_bytes("i", sections["rows"])
    weights = array_from_bytes("f", sections["weights"])
    if len(offsets) != len(dims) + 1 or offsets[0] != 0 or offsets[-1] != len(rows) or len(rows) != len(weights):
        raise ValueError("posting offsets do not match the postings")
    if any(a >= b for a, b in zip(offsets, offsets[1:])) or any(a >= b for a, b in zip(dims, dims[1:])):
        raise ValueError("dimensions or offsets are not strictly increasing")
    if rows and (min(rows) < 0 or max(rows) >= count):
        raise ValueError(f"a posting names a row outside 0..{count - 1}")
    return SparsePostings(count, dims, offsets, rows, weights)
