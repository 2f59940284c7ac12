"""The store's optional vector index: a hashing-embedder ``VectorIndex`` over the chunks.

Kept beside the BM25 index under the same generation scheme when the store is opened with
``vector=True``; loaded only when something asks for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from agentic_rag._contracts import Document
from agentic_rag._errors import IndexFormatError
from agentic_rag._retrieval.embedders import HashingEmbedder
from agentic_rag._retrieval.vector import VectorIndex

__all__ = ["load_vector_index", "new_vector_index"]


def new_vector_index(documents: Iterable[Document] = ()) -> VectorIndex:
    """A vector index with the default :class:`HashingEmbedder`, holding ``documents``."""
    index = VectorIndex(HashingEmbedder())
    batch = list(documents)
    if batch:
        index.add(batch)
    return index


def load_vector_index(directory: Path, name: str, documents: Callable[[], Iterable[Document]]) -> VectorIndex:
    """Load the saved vector index ``name``, or rebuild it from ``documents()`` when the
    store has none yet or the file cannot be read.

    Args:
        directory: The store folder.
        name: The index file name (``""``: none saved).
        documents: Produces every stored chunk (called only to rebuild).

    Returns:
        The vector index of the store's current chunks.
    """
    if name:
        try:
            return VectorIndex.load(directory / name)
        except IndexFormatError:
            pass
    return new_vector_index(documents())
