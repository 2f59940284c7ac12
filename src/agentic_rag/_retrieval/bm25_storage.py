"""Saving and loading a BM25 index through the shared index-file format (kind ``"bm25"``).

``meta`` holds the analyzer settings, the scoring parameters, the layout version, the byte
order of the array sections and the counts the sections must agree with. Sections:

- ``documents``: UTF-8 JSON ``[[id, text, title, corpus_id, metadata], ...]`` in document
  number order (numbers are compacted on save, so a loaded index has no holes);
- ``text_lengths`` / ``title_lengths``: ``array('i')`` term counts of each document's text
  and title (so lengths and the total need no re-analysis on load);
- ``vocabulary``: UTF-8 JSON list of the terms with at least one posting;
- ``offsets``: ``array('q')``, term ``i``'s postings are ``[offsets[i], offsets[i+1])``;
- ``postings_docs`` (``array('i')``) and ``postings_tfs`` (``array('d')``): all postings
  back to back, each term's sorted by document number.

Arrays are written with ``array.tobytes()`` in the machine's byte order, recorded in meta and
swapped on load when it differs. Impacts are not stored: they are recomputed lazily.
"""

from __future__ import annotations

import json
import os
import sys
from array import array
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agentic_rag._contracts.corpus import Document
from agentic_rag._errors import AgenticRAGError, IndexFormatError
from agentic_rag._retrieval.index_file import read_index_file, write_index_file
from agentic_rag._text.analyzer import Analyzer

__all__ = ["BM25_LAYOUT_VERSION", "BM25Snapshot", "read_snapshot", "write_snapshot"]

#: Version of the BM25 section layout inside the index file (independent of the file format).
BM25_LAYOUT_VERSION = 1
_KIND = "bm25"


@dataclass(frozen=True, slots=True)
class BM25Snapshot:
    """Everything a BM25 index holds, in compact document-number order.

    Args:
        analyzer: The analyzer the documents were indexed with.
        variant: Scoring variant name.
        k1: Saturation parameter.
        b: Length normalisation.
        delta: BM25+ lower bound.
        title_weight: Multiplier of title term frequencies.
        documents: Live documents; position is the document number.
        text_lengths: Number of text terms per document.
        title_lengths: Number of title terms per document.
        terms: Vocabulary; position is the term number.
        offsets: ``len(terms) + 1`` posting offsets.
        postings_docs: Document numbers of all postings.
        postings_tfs: Title-weighted term frequencies of all postings.
    """

    analyzer: Analyzer
    variant: str
    k1: float
    b: float
    delta: float
    title_weight: float
    documents: tuple[Document, ...]
    text_lengths: array
    title_lengths: array
    terms: tuple[str, ...]
    offsets: array
    postings_docs: array
    postings_tfs: array


def write_snapshot(path: str | os.PathLike[str], snapshot: BM25Snapshot) -> None:
    """Save ``snapshot`` atomically to ``path``.

    Args:
        path: Destination file (replaced atomically when it exists).
        snapshot: What to save.
    """
    docs = [[d.id, d.text, d.title, d.corpus_id, _thaw(d.metadata)] for d in snapshot.documents]
    meta = {
        "layout_version": BM25_LAYOUT_VERSION,
        "byte_order": sys.byteorder,
        "analyzer": snapshot.analyzer.to_dict(),
        "variant": snapshot.variant,
        "k1": snapshot.k1,
        "b": snapshot.b,
        "delta": snapshot.delta,
        "title_weight": snapshot.title_weight,
        "documents": len(snapshot.documents),
        "terms": len(snapshot.terms),
        "postings": len(snapshot.postings_docs),
    }
    sections = {
        "documents": _json_bytes(docs),
        "text_lengths": snapshot.text_lengths.tobytes(),
        "title_lengths": snapshot.title_lengths.tobytes(),
        "vocabulary": _json_bytes(list(snapshot.terms)),
        "offsets": snapshot.offsets.tobytes(),
        "postings_docs": snapshot.postings_docs.tobytes(),
        "postings_tfs": snapshot.postings_tfs.tobytes(),
    }
    write_index_file(path, _KIND, meta, sections)


def read_snapshot(path: str | os.PathLike[str]) -> BM25Snapshot:
    """Load and check a saved BM25 index.

    Args:
        path: A file written by :func:`write_snapshot`.

    Returns:
        The snapshot.

    Raises:
        IndexFormatError: Unreadable, truncated, corrupted, from a future layout, or with
            sections that disagree with each other or with the meta.
    """
    meta, sections = read_index_file(path, _KIND)
    name = os.fspath(path)
    version = meta.get("layout_version")
    if not isinstance(version, int) or version > BM25_LAYOUT_VERSION or version < 1:
        raise IndexFormatError(f"{name!r} has BM25 layout version {version!r}; this library reads 1 to {BM25_LAYOUT_VERSION}", stage="load")
    try:
        swap = meta["byte_order"] != sys.byteorder
        analyzer = Analyzer.from_dict(meta["analyzer"])
        settings = (str(meta["variant"]), float(meta["k1"]), float(meta["b"]), float(meta["delta"]), float(meta["title_weight"]))
        counts = (int(meta["documents"]), int(meta["terms"]), int(meta["postings"]))
        raw_docs = json.loads(sections["documents"].decode("utf-8"))
        terms = tuple(json.loads(sections["vocabulary"].decode("utf-8")))
        documents = tuple(Document(id=r[0], text=r[1], title=r[2], corpus_id=r[3], metadata=r[4]) for r in raw_docs)
        arrays = [_array(t, sections[s], swap, s) for t, s in _ARRAY_SECTIONS]
    except (KeyError, TypeError, ValueError, IndexError, OverflowError, AgenticRAGError) as exc:
        raise IndexFormatError(f"{name!r} has an invalid BM25 section or setting: {exc}", stage="load") from exc
    text_lengths, title_lengths, offsets, postings_docs, postings_tfs = arrays
    _check_shapes(name, counts, documents, terms, text_lengths, title_lengths, offsets, postings_docs, postings_tfs)
    return BM25Snapshot(analyzer, *settings, documents, text_lengths, title_lengths, terms, offsets, postings_docs, postings_tfs)


_ARRAY_SECTIONS = (("i", "text_lengths"), ("i", "title_lengths"), ("q", "offsets"), ("i", "postings_docs"), ("d", "postings_tfs"))


def _array(typecode: str, blob: bytes, swap: bool, section: str) -> array:
    out = array(typecode)
    if len(blob) % out.itemsize:
        raise ValueError(f"section {section!r} has {len(blob)} bytes, not a multiple of {out.itemsize}")
    out.frombytes(blob)
    if swap:
        out.byteswap()
    return out


def _check_shapes(name: str, counts: tuple[int, int, int], documents: tuple[Document, ...], terms: tuple[str, ...], *arrays: array) -> None:
    text_lengths, title_lengths, offsets, postings_docs, postings_tfs = arrays
    n_docs, n_terms, n_postings = counts
    problems = []
    if not (len(documents) == len(text_lengths) == len(title_lengths) == n_docs):
        problems.append(f"{len(documents)} documents and {len(text_lengths)}/{len(title_lengths)} lengths, meta says {n_docs}")
    if len(terms) != n_terms or len(offsets) != n_terms + 1 or len(set(terms)) != n_terms:
        problems.append(f"{len(terms)} terms (unique: {len(set(terms))}) and {len(offsets)} offsets, meta says {n_terms}")
    elif offsets[0] != 0 or offsets[-1] != n_postings or any(map(int.__gt__, offsets[:-1], offsets[1:])):
        problems.append("posting offsets are not increasing from 0 to the posting count")
    if not (len(postings_docs) == len(postings_tfs) == n_postings):
        problems.append(f"{len(postings_docs)} posting documents and {len(postings_tfs)} frequencies, meta says {n_postings}")
    elif n_postings and (min(postings_docs) < 0 or max(postings_docs) >= n_docs or min(postings_tfs) <= 0.0):
        problems.append("a posting names a document number out of range or a non-positive frequency")
    if len({d.id for d in documents}) != len(documents):
        problems.append("duplicate document ids")
    if problems:
        raise IndexFormatError(f"{name!r} is inconsistent: {'; '.join(problems)}", stage="load")


def _json_bytes(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _thaw(value: Any) -> Any:
    # Frozen metadata holds read-only mappings and tuples, which json cannot write.
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value
