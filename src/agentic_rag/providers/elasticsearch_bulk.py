"""Bulk indexing over Elasticsearch / OpenSearch ``_bulk``, with per-document failures.

``_bulk`` takes newline-delimited JSON: an action line (``{"index": {"_id": ...}}``) then the
document source, each ending in ``\\n``. It answers 200 even when some documents failed:
``errors`` is true and each entry of ``items`` (in request order) carries its own ``status``
and ``error {type, reason}``. :func:`parse_bulk_response` turns that into a
:class:`BulkResult` so no failure goes unnoticed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agentic_rag._contracts.validation import is_int
from agentic_rag._errors import ProviderError

__all__ = ["BulkFailure", "BulkResult", "bulk_ndjson", "parse_bulk_response"]


@dataclass(frozen=True, slots=True)
class BulkFailure:
    """One document the engine refused.

    Args:
        document_id: The document's id.
        status: The item's HTTP status (for example 400 or 409).
        error_type: The engine's error type (``mapper_parsing_exception``...).
        reason: The engine's explanation.
    """

    document_id: str
    status: int
    error_type: str
    reason: str


@dataclass(frozen=True, slots=True)
class BulkResult:
    """What a bulk indexing call did.

    Args:
        indexed: Ids of documents written, in request order.
        failures: Documents refused, in request order.
        took_ms: Engine-reported time summed over the batches.
    """

    indexed: tuple[str, ...]
    failures: tuple[BulkFailure, ...]
    took_ms: int = 0

    @property
    def ok(self) -> bool:
        """True when every document was written."""
        return not self.failures

    def merged(self, other: BulkResult) -> BulkResult:
        """Return this result followed by ``other`` (for batched calls)."""
        return BulkResult(self.indexed + other.indexed, self.failures + other.failures, self.took_ms + other.took_ms)


def bulk_ndjson(index: str, items: Sequence[tuple[str, Mapping[str, Any]]], *, op_type: str = "index") -> bytes:
    """Return the ``_bulk`` body for ``(id, source)`` pairs (ends with a newline).

    Args:
        index: Target index.
        items: Document ids and their sources.
        op_type: ``index`` (create or replace) or ``create`` (fail if the id exists).
    """
    lines: list[str] = []
    for doc_id, source in items:
        lines.append(json.dumps({op_type: {"_index": index, "_id": doc_id}}, separators=(",", ":")))
        lines.append(json.dumps(source, ensure_ascii=False, separators=(",", ":"), sort_keys=True))
    return ("\n".join(lines) + "\n").encode("utf-8")


def parse_bulk_response(data: Any, ids: Sequence[str], *, stage: str) -> BulkResult:
    """Map a ``_bulk`` answer onto the documents sent.

    Args:
        data: The parsed answer.
        ids: The ids sent, in order.
        stage: Name used in errors.

    Returns:
        Written ids and failures, both in request order.

    Raises:
        ProviderError: The answer is not a bulk response or its item count differs.
    """
    items = data.get("items") if isinstance(data, dict) else None
    if not isinstance(items, list) or len(items) != len(ids):
        got = len(items) if isinstance(items, list) else "no"
        raise ProviderError(f"_bulk answered with {got} items for {len(ids)} documents", stage=stage)
    indexed: list[str] = []
    failures: list[BulkFailure] = []
    for sent_id, item in zip(ids, items, strict=True):
        op = next(iter(item.values()), None) if isinstance(item, dict) and item else None
        if not isinstance(op, dict):
            failures.append(BulkFailure(sent_id, 0, "malformed_item", f"unexpected bulk item {item!r}"[:300]))
            continue
        status = op.get("status", 0)
        status = status if is_int(status) else 0
        error = op.get("error")
        if error is None and 200 <= status < 300:
            indexed.append(str(op.get("_id", sent_id)))
            continue
        if isinstance(error, dict):
            kind, reason = str(error.get("type", "")), str(error.get("reason", ""))
        else:
            kind, reason = "", str(error or f"status {status}")
        failures.append(BulkFailure(str(op.get("_id", sent_id)), status, kind, reason))
    took = data.get("took", 0)
    return BulkResult(tuple(indexed), tuple(failures), took if is_int(took) else 0)
