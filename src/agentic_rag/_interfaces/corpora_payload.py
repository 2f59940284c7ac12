"""The JSON shape of a store's corpora, shared by ``agentic-rag corpora --json`` and the MCP
``list_corpora`` tool: ``{id, description, root, files, chunks}`` per corpus, sorted by id.

``root`` is the folder the corpus stands for, as the store names it (relative to the folder
``index`` ran in; ``""`` for that folder itself; for a corpus named with ``--corpus``, the
first path given); ``files`` and ``chunks`` are what the store
holds of it. A corpus given without those (one made in code, not by ``index``) has only
``id`` and ``description``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from agentic_rag._contracts import Corpus

__all__ = ["STORE_KEYS", "corpora_payload"]

#: The metadata keys of a stored corpus that the payload carries, in this order.
STORE_KEYS = ("root", "files", "chunks")


def corpora_payload(corpora: Iterable[Corpus | Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Return ``corpora`` as JSON objects sorted by id.

    Args:
        corpora: :class:`~agentic_rag._contracts.Corpus` records (a store's carry ``root``,
            ``files`` and ``chunks`` in their metadata) or mappings already in this shape.

    Returns:
        One ``{id, description[, root, files, chunks]}`` per corpus, sorted by id.
    """
    out = []
    for corpus in corpora:
        if isinstance(corpus, Corpus):
            item: dict[str, Any] = {"id": corpus.id, "description": corpus.description}
            item.update((key, corpus.metadata[key]) for key in STORE_KEYS if key in corpus.metadata)
        else:
            item = dict(corpus)
        out.append(item)
    return sorted(out, key=lambda c: str(c.get("id", "")))
