"""Exact cosine search in pure Python, over dense embeddings or sparse hashed tf-idf vectors.

:class:`VectorIndex` embeds each document's title and text with its embedder. A plain
``Embedder`` gives dense vectors, stored in one float32 ``array`` and scored row by row. A
:class:`~agentic_rag._retrieval.embedders.SparseEmbedder` (the hashing embedder) gives sparse
tf weights, stored as an inverted file by dimension, so a query only touches the rows that
share a dimension with it; the index keeps the document frequencies of exactly the documents
it holds, so the idf never depends on the order documents were added in.

Every search is exact (no approximation) and ranks by score descending, then document id.
Changes build a new immutable table and swap it in under a lock, so searches need no lock
and never see a half-applied change.
"""

from __future__ import annotations

import heapq
import math
import os
import threading
from collections.abc import Iterable, Mapping, Sequence
from itertools import islice
from operator import lt
from typing import Any

from agentic_rag._contracts import Document
from agentic_rag._contracts.validation import require_bool, require_int, require_text
from agentic_rag._errors import IndexFormatError, InvalidInputError
from agentic_rag._ports import Embedder
from agentic_rag._retrieval.embedders import HashingEmbedder, SparseEmbedder, describe_embedder
from agentic_rag._retrieval.embedding_checks import coerce_vectors
from agentic_rag._retrieval.hits import DocumentFilter, SearchHit, document_batch
from agentic_rag._retrieval.vector_file import read_vector_file, write_vector_file
from agentic_rag._retrieval.vector_store import DenseVectors, SparsePostings, l2_normalised

__all__ = ["VectorIndex", "document_text"]

_STAGE = "vector"


def document_text(document: Document) -> str:
    """The text a vector index embeds for ``document``: its title, a newline, its text."""
    return f"{document.title}\n{document.text}" if document.title else document.text


class _State:
    """One immutable version of the index: documents by row, row by id, and the vectors."""

    __slots__ = ("documents", "rows", "table")

    def __init__(self, documents: tuple[Document, ...], table: DenseVectors | SparsePostings | None) -> None:
        self.documents = documents
        self.rows = {document.id: row for row, document in enumerate(documents)}
        self.table = table


class VectorIndex:
    """An exact cosine-similarity index over documents.

    Args:
        embedder: An ``Embedder`` (dense vectors of one dimension) or a
            :class:`~agentic_rag._retrieval.embedders.SparseEmbedder` such as
            :class:`~agentic_rag._retrieval.embedders.HashingEmbedder` (sparse tf-idf).
        normalize: Score by cosine similarity (vectors L2-normalised); ``False`` scores by
            the raw dot product.

    Raises:
        InvalidInputError: ``embedder`` has no ``embed`` method and is not sparse, or
            ``normalize`` is not a bool.
    """

    def __init__(self, embedder: Embedder | SparseEmbedder, *, normalize: bool = True) -> None:
        sparse = isinstance(embedder, SparseEmbedder)
        if not sparse and not callable(getattr(embedder, "embed", None)):
            raise InvalidInputError(f"embedder must have an embed(texts) method, got {type(embedder).__name__}", stage=_STAGE)
        require_bool(normalize, "normalize", stage=_STAGE)
        self.embedder = embedder
        self.normalize = normalize
        self._sparse = sparse
        self._lock = threading.RLock()
        self._state = _State((), SparsePostings() if sparse else None)

    @classmethod
    def from_documents(cls, documents: Iterable[Document], embedder: Embedder | SparseEmbedder, *, normalize: bool = True) -> VectorIndex:
        """Build an index over ``documents`` with ``embedder``.

        Args:
            documents: The documents, ids unique.
            embedder: As for the constructor.
            normalize: As for the constructor.

        Returns:
            The filled index.

        Raises:
            InvalidInputError: As the constructor and :meth:`add`.
        """
        index = cls(embedder, normalize=normalize)
        index.add(documents)
        return index

    # -- reading --------------------------------------------------------------------------

    @property
    def is_sparse(self) -> bool:
        """True when vectors are sparse tf-idf (a ``SparseEmbedder``), False when dense."""
        return self._sparse

    @property
    def dimensions(self) -> int | None:
        """The vector dimension (``None`` for a dense index before its first document)."""
        table = self._state.table
        if isinstance(table, DenseVectors):
            return table.dimensions
        return getattr(self.embedder, "dimensions", None) if self._sparse else None

    def __len__(self) -> int:
        return len(self._state.documents)

    def __contains__(self, document_id: object) -> bool:
        return isinstance(document_id, str) and document_id in self._state.rows

    def get(self, document_id: str) -> Document:
        """Return the stored document with ``document_id``.

        Args:
            document_id: The id of an indexed document.

        Returns:
            The document as it was added.

        Raises:
            InvalidInputError: No such document.
        """
        state = self._state
        row = state.rows.get(document_id) if isinstance(document_id, str) else None
        if row is None:
            raise InvalidInputError(f"unknown document id {document_id!r}; the index holds {len(state.documents)} documents", stage=_STAGE)
        return state.documents[row]

    def document_ids(self) -> list[str]:
        """Every indexed document id, sorted."""
        return sorted(self._state.rows)

    def search(self, query: str, k: int = 10, *, corpus_ids: Sequence[str] | None = None,
               where: Mapping[str, Any] | None = None) -> list[SearchHit]:
        """Return the ``k`` documents most similar to ``query``, exactly.

        Args:
            query: The query text; an empty or featureless one returns no hits.
            k: At most this many hits; more than the index holds returns all that pass the filter.
            corpus_ids: Only documents of these corpora.
            where: Only documents whose metadata equals these values (a list value: any of).

        Returns:
            Hits ordered by score descending, then document id.

        Raises:
            InvalidInputError: ``query`` not a string, ``k`` not an int >= 1, a bad filter, or
                a dense embedder returning a bad query vector.
        """
        require_text(query, "query", stage=_STAGE, allow_empty=True)
        require_int(k, "k", minimum=1, stage=_STAGE)
        accept = DocumentFilter(corpus_ids, where)
        state = self._state
        documents, table = state.documents, state.table
        if not query.strip() or not documents or table is None:
            return []
        scores = self._query_scores(query, table)
        if scores is None:
            return []
        rows: Iterable[int] = range(len(documents))
        if not accept.is_empty:
            rows = (r for r in rows if accept.accepts(documents[r]))
        top = heapq.nsmallest(k, rows, key=lambda r: (-scores[r], documents[r].id))
        return [SearchHit(documents[r].id, scores[r], documents[r].corpus_id) for r in top]

    def _query_scores(self, query: str, table: DenseVectors | SparsePostings) -> list[float] | None:
        if isinstance(table, SparsePostings):
            sparse = self.embedder
            (weights,) = _checked_sparse(sparse.term_weights([query]), 1, _name(sparse))  # type: ignore[union-attr]
            return table.scores(weights, sparse.idf, normalize=self.normalize)  # type: ignore[union-attr]
        (vector,) = coerce_vectors(self.embedder.embed([query]), count=1, dimensions=table.dimensions, source=_name(self.embedder), stage=_STAGE)  # type: ignore[union-attr]
        if self.normalize:
            vector = l2_normalised(vector)
        if not any(vector):
            return None
        return table.scores(vector)

    # -- writing --------------------------------------------------------------------------

    def add(self, documents: Iterable[Document]) -> None:
        """Embed and add new documents.

        Args:
            documents: Documents whose ids are not in the index yet.

        Raises:
            InvalidInputError: A non-``Document``, an id repeated in the batch or already
                indexed (use :meth:`update` to replace), or bad vectors from the embedder.
        """
        batch = document_batch(documents, "add", _STAGE)
        with self._lock:
            state = self._state
            present = [d.id for d in batch if d.id in state.rows]
            if present:
                raise InvalidInputError(f"documents already indexed: {present[:5]}; use update() to replace them", stage=_STAGE)
            self._state = self._with(state, range(len(state.documents)), batch)

    def update(self, documents: Iterable[Document]) -> None:
        """Replace indexed documents by new versions with the same ids.

        Args:
            documents: New versions of indexed documents.

        Raises:
            InvalidInputError: A non-``Document``, an id repeated in the batch or not indexed
                (use :meth:`add` for new documents), or bad vectors. Nothing changes then.
        """
        batch = document_batch(documents, "update", _STAGE)
        with self._lock:
            state = self._state
            unknown = sorted(d.id for d in batch if d.id not in state.rows)
            if unknown:
                raise InvalidInputError(f"cannot update documents that are not indexed: {unknown[:5]}; use add()", stage=_STAGE)
            replaced = {d.id for d in batch}
            keep = [row for row, d in enumerate(state.documents) if d.id not in replaced]
            self._state = self._with(state, keep, batch)

    def remove(self, ids: Iterable[str]) -> None:
        """Remove documents by id (all or none).

        Args:
            ids: Ids of indexed documents.

        Raises:
            InvalidInputError: ``ids`` is a bare string, or names a document not in the index
                (nothing is removed then).
        """
        if isinstance(ids, str):
            raise InvalidInputError(f"ids must be a collection of ids, not the string {ids!r}", stage=_STAGE)
        gone = set(ids)
        with self._lock:
            state = self._state
            missing = sorted(str(i) for i in gone if i not in state.rows)
            if missing:
                raise InvalidInputError(f"cannot remove unknown document ids {missing[:5]}", stage=_STAGE)
            if gone:
                keep = [row for row, d in enumerate(state.documents) if d.id not in gone]
                self._state = self._with(state, keep, [])

    def _with(self, state: _State, keep: Sequence[int], batch: Sequence[Document]) -> _State:
        """Build the next state: rows ``keep`` (ascending) of ``state``, then ``batch`` embedded."""
        table = state.table
        texts = [document_text(d) for d in batch]
        if isinstance(table, SparsePostings):
            vectors = _checked_sparse(self.embedder.term_weights(texts) if texts else [], len(texts), _name(self.embedder))  # type: ignore[union-attr]
            if len(keep) != len(state.documents):
                table = table.kept(keep)
            table = table.appended(vectors) if vectors else table
        else:
            dense: list[list[float]] = []
            if texts:
                dimensions = table.dimensions if isinstance(table, DenseVectors) else None
                dense = coerce_vectors(self.embedder.embed(texts), count=len(texts), dimensions=dimensions, source=_name(self.embedder), stage=_STAGE)  # type: ignore[union-attr]
                if self.normalize:
                    dense = [l2_normalised(v) for v in dense]
                if table is None:
                    table = DenseVectors(len(dense[0]))
            if isinstance(table, DenseVectors):
                if len(keep) != len(state.documents):
                    table = table.kept(keep)
                table = table.appended(dense) if dense else table
        return _State(tuple(state.documents[r] for r in keep) + tuple(batch), table)

    # -- persistence ----------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> None:
        """Save the documents, vectors and embedder description atomically (kind ``"vector"``).

        A hashing embedder is saved with its full settings; the learned idf is the document
        frequency of each dimension (its posting count) over the saved documents, so a loaded
        index weighs queries identically. Other embedders are saved by name and dimension only.

        Args:
            path: Destination file; written to a temporary name and renamed into place.

        Raises:
            OSError: The file cannot be written (the old file, if any, is left as it was).
        """
        state = self._state
        write_vector_file(
            path,
            documents=state.documents,
            table=state.table,
            normalize=self.normalize,
            embedder=describe_embedder(self.embedder, self.dimensions),
        )

    @classmethod
    def load(cls, path: str | os.PathLike[str], embedder: Embedder | SparseEmbedder | None = None) -> VectorIndex:
        """Load an index written by :meth:`save`.

        Args:
            path: The saved file.
            embedder: Required for an index built with a dense embedder (it cannot be saved);
                optional for a hashing one (rebuilt from the saved settings; if given, its
                settings must equal them).

        Returns:
            An index that returns exactly the saved index's results.

        Raises:
            IndexFormatError: Missing, truncated, corrupted or future-version file.
            InvalidInputError: A dense index loaded without an embedder, or an embedder whose
                dimension or settings differ from the saved ones.
        """
        meta, documents, table = read_vector_file(path)
        saved = meta["embedder"]
        label = f"{saved.get('type')} embedder {saved.get('name')!r}"
        if meta["mode"] == "sparse":
            if embedder is None:
                if saved.get("type") != "hashing":
                    raise InvalidInputError(f"this index was built with the sparse {label}; pass it as load(path, embedder=...)", stage=_STAGE)
                try:
                    embedder = HashingEmbedder.from_dict(saved)
                except InvalidInputError as exc:
                    raise IndexFormatError(f"{os.fspath(path)!r} describes an unusable hashing embedder: {exc.message}", stage="load") from exc
            elif not isinstance(embedder, SparseEmbedder) or describe_embedder(embedder) != saved:
                raise InvalidInputError(f"the given embedder {describe_embedder(embedder)} differs from the saved one {saved}", stage=_STAGE)
        else:
            dimensions = meta.get("dimensions")
            if embedder is None:
                raise InvalidInputError(f"this index was built with the {label} (dimension {dimensions}); pass it as load(path, embedder=...)", stage=_STAGE)
            if isinstance(embedder, SparseEmbedder):
                raise InvalidInputError(f"this index holds dense vectors from the {label}; a sparse embedder cannot query it", stage=_STAGE)
            declared = getattr(embedder, "dimensions", None)
            if isinstance(declared, int) and dimensions is not None and declared != dimensions:
                raise InvalidInputError(f"embedder {_name(embedder)!r} has dimension {declared}, the saved index has {dimensions}", stage=_STAGE)
        index = cls(embedder, normalize=meta["normalize"])
        index._state = _State(documents, table)
        return index

    def __repr__(self) -> str:
        kind = "sparse" if self._sparse else "dense"
        return f"VectorIndex({_name(self.embedder)}, {kind}, documents={len(self)})"


def _name(embedder: object) -> str:
    return str(getattr(embedder, "name", "") or type(embedder).__name__)


def _checked_sparse(vectors: Sequence[tuple[Sequence[int], Sequence[float]]], count: int, source: str) -> list[tuple[Sequence[int], Sequence[float]]]:
    """Refuse sparse vectors a ``SparseEmbedder`` got wrong, before they reach a table."""
    out = list(vectors)
    if len(out) != count:
        raise InvalidInputError(f"embedder {source!r} returned {len(out)} sparse vectors for {count} texts", stage=_STAGE)
    for position, (dims, weights) in enumerate(out):
        if len(dims) != len(weights) or not all(map(lt, dims, islice(dims, 1, None))) or (dims and not 0 <= dims[0] <= dims[-1] < 2**31):
            raise InvalidInputError(f"sparse vector {position} from {source!r} needs strictly ascending dimensions in [0, 2**31) and one weight each", stage=_STAGE)
        if not all(map(math.isfinite, weights)):
            raise InvalidInputError(f"sparse vector {position} from {source!r} holds a NaN or infinite weight", stage=_STAGE)
    return out


