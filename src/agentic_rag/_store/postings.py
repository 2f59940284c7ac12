"""The store's BM25 postings in SQLite: how they are packed, and how an index run updates them.

A chunk is numbered by its ``chunks`` rowid. SQLite gives a new row the largest rowid plus
one, and a chunk's postings leave with its row, so appending new rowids keeps every term's
list sorted without renumbering anything. Per term, ``bm25_postings`` holds the document
frequency and two packed blobs; per block of :data:`BLOCK` rowids, ``bm25_blocks`` holds each
chunk's length (its text and title term counts; 0 for a rowid no chunk holds) and corpus
number. ``meta.bm25_stats`` holds the BM25 settings, the chunk count, the total length, the
corpus numbers and the sum of the rowids the postings describe (checked by the next run, so
rows renumbered behind the store's back, by a ``VACUUM``, get the postings rebuilt).

A blob is one type byte (an :mod:`array` type code) and the array, little-endian: document
numbers as gaps (``H`` when every gap fits in 16 bits, else ``I``), frequencies as ``B``,
``H`` or ``I`` when they are whole numbers (they are with the store's title weight of 1), else
``d``. The in-memory engine reads the same numbers, so both score exactly alike.

``shortest`` holds, per frequency the term has, the shortest length of a chunk holding it that
often (``[tf, length, tf, length, ...]``): a posting's impact grows with its frequency and
falls with its chunk's length, so the term's largest impact, which orders the query's terms and
bounds what the term can add, is the largest impact of these few pairs, exactly, without
computing the impact of every posting (see :mod:`~agentic_rag._store.stored_bm25`).
"""

from __future__ import annotations

import functools
import json
import sqlite3
import sys
from array import array
from collections.abc import Iterable, Sequence
from itertools import accumulate, compress
from operator import not_, sub
from typing import Any

from agentic_rag._store.postings_patch import can_patch, patch_term, rowid_runs
from agentic_rag._store.rows import unpack_text
from agentic_rag._text.analyzer import Analyzer

__all__ = [
    "BLOCK", "HOLE", "STORE_BM25", "PostingsWriter", "pack_docs", "pack_numbers", "postings_damage", "read_stats", "unpack_docs",
    "unpack_numbers",
]

#: Rowids per ``bm25_blocks`` row: a changed file rewrites one or two small blocks.
BLOCK = 4096
#: The corpus number of a rowid no chunk holds.
HOLE = 0xFFFF
_SWAP = sys.byteorder == "big"
_WHOLE = frozenset("bBhHiIlLqQ")
#: What the store's BM25 scores with: the in-memory engine's defaults (a title counts once).
STORE_BM25 = {"variant": "lucene", "k1": 0.9, "b": 0.4, "delta": 1.0, "title_weight": 1.0}


def pack_numbers(values: Sequence[float]) -> bytes:
    """``values`` as a type byte and a little-endian array of the narrowest fitting type."""
    if isinstance(values, array):
        whole = values.typecode in _WHOLE
    else:
        try:  # one C pass: an array of 64-bit integers refuses a float
            values = array("q", values)
            whole = True
        except TypeError:
            whole = False
    if whole:
        top = max(values, default=0)
        code = "B" if top < 1 << 8 else "H" if top < 1 << 16 else "I" if top < 1 << 32 else "q"
        if min(values, default=0) < 0:
            code = "q"
    else:
        code = "d"
    packed = array(code, values)
    if _SWAP:
        packed.byteswap()
    return code.encode("ascii") + packed.tobytes()


def unpack_numbers(blob: bytes) -> array:
    """The array :func:`pack_numbers` packed."""
    out = array(chr(blob[0]))
    out.frombytes(blob[1:])
    if _SWAP:
        out.byteswap()
    return out


def pack_docs(docs: Sequence[int]) -> bytes:
    """Sorted document numbers as gaps (the first number is its own gap)."""
    return pack_numbers(list(map(sub, docs, [0, *docs[:-1]])) if docs else [])


def unpack_docs(blob: bytes) -> list[int]:
    """The sorted document numbers :func:`pack_docs` packed."""
    return list(accumulate(unpack_numbers(blob)))


def read_stats(db: sqlite3.Connection) -> dict[str, Any] | None:
    """``meta.bm25_stats`` as a dict, or ``None`` for a store searched through a snapshot file."""
    row = db.execute("SELECT value FROM meta WHERE key = 'bm25_stats'").fetchone()
    return json.loads(row[0]) if row else None


class PostingsWriter:
    """Collects one index run's removed and added chunks and writes their postings at the end.

    Args:
        db: The run's connection, inside its write transaction.
        rebuild: Build every posting from the chunk rows when writing (an upgraded store, a
            repair); changes reported meanwhile are then ignored, the rows say it all.
        empty: Start from no postings and take the changes as they come (the store holds no
            chunk row yet, whatever its statistics said).
    """

    def __init__(self, db: sqlite3.Connection, *, rebuild: bool, empty: bool = False) -> None:
        # Imported here: a search process reads postings without the in-memory engine's modules.
        from agentic_rag._retrieval.bm25_postings import analyse_document

        self._analyse_document = analyse_document
        self.db = db
        stats = None if rebuild or empty else read_stats(db)
        if stats is None:
            db.execute("DELETE FROM bm25_postings")
            db.execute("DELETE FROM bm25_blocks")
            stats = {"settings": {"analyzer": Analyzer().to_dict(), **STORE_BM25}, "documents": 0, "total_length": 0,
                     "corpora": [], "rowid_sum": 0, "terms": 0}
        self.rebuild = rebuild
        self.fresh = stats["documents"] == 0
        self.stats = stats
        self.analyze = Analyzer.from_dict(stats["settings"]["analyzer"]).analyze
        self.weight = float(stats["settings"]["title_weight"])
        self.added: dict[str, tuple[array, array, dict[float, int]]] = {}
        self._tf_code = "I" if self.weight == 1.0 else "d"  # whole counts with a title weight of 1
        self.removed: dict[int, int] = {}  # rowid -> its length, of chunks removed
        self.touched: set[str] = set()  # terms of removed chunks
        self.rescan = False  # a removed chunk no longer analyses as it did: every term is filtered
        self.places: dict[int, tuple[int, int]] = {}  # rowid -> (length, corpus number)
        self._corpus_numbers = {c: n for n, c in enumerate(stats["corpora"])}

    def remove_path(self, path: str) -> None:
        """Drop the postings of ``path``'s chunks (call before their rows are deleted)."""
        if self.rebuild:
            return
        rows = self.db.execute("SELECT rowid, text, title FROM chunks WHERE path = ?", (path,)).fetchall()
        if rows:
            self.remove_rows(rows)

    def remove_rows(self, rows: Iterable[tuple[int, str, str]]) -> None:
        """Drop the postings of chunk rows given as ``(rowid, text, title)``."""
        stats, analyze, weight, analyse_document = self.stats, self.analyze, self.weight, self._analyse_document
        rows = list(rows)
        stored = self._lengths([r[0] for r in rows])
        for (rowid, text, title), length in zip(rows, stored):
            text = unpack_text(text)
            tfs, text_n, title_n = analyse_document(analyze, weight, text, title)
            if text_n + title_n != length:
                self.rescan = True
            self.touched.update(tfs)
            self.removed[rowid] = length
            self.places[rowid] = (0, HOLE)
            stats["documents"] -= 1
            stats["total_length"] -= length
            stats["rowid_sum"] -= rowid

    def add_path(self, path: str, rows: Sequence[Sequence[Any]]) -> None:
        """Add the postings of ``path``'s chunks, given as their ``chunks`` rows
        (:func:`~agentic_rag._store.rows.chunk_row`); call after the rows are inserted."""
        if self.rebuild:
            return
        rowids = dict(self.db.execute("SELECT id, rowid FROM chunks WHERE path = ?", (path,)).fetchall())
        self.add_rows((rowids[row[0]], row[8], row[7], row[2]) for row in rows)

    def add_rows(self, rows: Iterable[tuple[int, str, str, str]]) -> None:
        """Add chunk rows given as ``(rowid, text, title, corpus id)`` in increasing rowid order."""
        stats, analyze, weight, added, code = self.stats, self.analyze, self.weight, self.added, self._tf_code
        analyse_document = self._analyse_document
        for rowid, text, title, corpus_id in rows:
            tfs, text_n, title_n = analyse_document(analyze, weight, unpack_text(text), title)
            length = text_n + title_n
            for term, tf in tfs.items():
                entry = added.get(term)
                if entry is None:
                    added[term] = (array("i", (rowid,)), array(code, (tf,)), {tf: length})
                else:
                    entry[0].append(rowid)
                    entry[1].append(tf)
                    shortest = entry[2]
                    if shortest.get(tf, length + 1) > length:
                        shortest[tf] = length
            self.places[rowid] = (length, self._corpus(corpus_id))
            stats["documents"] += 1
            stats["total_length"] += length
            stats["rowid_sum"] += rowid

    def _corpus(self, corpus_id: str) -> int:
        number = self._corpus_numbers.get(corpus_id)
        if number is None:
            number = self._corpus_numbers[corpus_id] = len(self.stats["corpora"])
            self.stats["corpora"].append(corpus_id)
        return number

    def _lengths(self, rowids: list[int]) -> list[int]:
        blocks: dict[int, array] = {}
        out = []
        for rowid in rowids:
            block = rowid // BLOCK
            if block not in blocks:
                row = self.db.execute("SELECT lengths FROM bm25_blocks WHERE block = ?", (block,)).fetchone()
                blocks[block] = unpack_numbers(row[0]) if row else array("B")
            lengths = blocks[block]
            out.append(lengths[rowid % BLOCK] if rowid % BLOCK < len(lengths) else 0)
        return out

    def write(self) -> None:
        """Write the changed postings, blocks and statistics (inside the run's transaction)."""
        db = self.db
        if self.rebuild:
            self.rebuild = False
            self.add_rows(db.execute("SELECT rowid, text, title, corpus_id FROM chunks ORDER BY rowid"))
        terms = sorted(set(self.added) | self.touched)
        if self.rescan:
            terms = sorted(set(terms) | {row[0] for row in db.execute("SELECT term FROM bm25_postings")})
        removed, added = self.removed, self.added
        replace, delete = [], []
        # Every rowid's length, loaded once and only when a removed chunk was a term's shortest.
        all_lengths = functools.cache(self._all_lengths)
        runs = rowid_runs(list(removed))
        whole = self._tf_code != "d"
        for term in terms:
            row = None if self.fresh else db.execute("SELECT docs, tfs, shortest FROM bm25_postings WHERE term = ?", (term,)).fetchone()
            if whole and can_patch(row):
                patched = patch_term(row, runs, removed, added.get(term), all_lengths)
            else:
                patched = self._rewritten(row, added.get(term), all_lengths)
            if patched is None:
                delete.append((term,))
            else:
                replace.append((term, *patched))
        db.executemany("INSERT OR REPLACE INTO bm25_postings (term, df, docs, tfs, shortest) VALUES (?, ?, ?, ?, ?)", replace)
        db.executemany("DELETE FROM bm25_postings WHERE term = ?", delete)
        self._write_blocks()
        self.stats["terms"] = db.execute("SELECT COUNT(*) FROM bm25_postings").fetchone()[0]
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('bm25_stats', ?)", (json.dumps(self.stats, sort_keys=True),))
        self.added, self.removed, self.touched, self.places = {}, {}, set(), {}

    def _rewritten(self, row: Any, new: Any, all_lengths: Any) -> tuple[int, bytes, bytes, bytes] | None:
        """One term's postings decoded, changed and packed again: the general path, for
        frequencies that are not whole numbers (see :mod:`~agentic_rag._store.postings_patch`)."""
        removed = self.removed
        docs: Any = []
        tfs: Any = []
        shortest: dict[float, int] = {}
        if row is not None:
            docs, tfs = unpack_docs(row[0]), list(unpack_numbers(row[1]))
            pairs = unpack_numbers(row[2])
            shortest = dict(zip(pairs[::2], pairs[1::2]))
            if removed:
                gone = list(map(removed.__contains__, docs))
                if any(gone):
                    # A pair needs recomputing only when a removed chunk was the shortest at its frequency.
                    lost = any(shortest.get(tf) == removed[doc] for doc, tf in zip(compress(docs, gone), compress(tfs, gone)))
                    keep = list(map(not_, gone))
                    docs, tfs = list(compress(docs, keep)), list(compress(tfs, keep))
                    if lost:
                        shortest = _shortest(docs, tfs, all_lengths())
        if new is not None:
            if docs:
                docs.extend(new[0])
                tfs.extend(new[1])
            else:
                docs, tfs = new[0], new[1]
            for tf, length in new[2].items():
                if shortest.get(tf, length + 1) > length:
                    shortest[tf] = length
        if not docs:
            return None
        pairs = [value for tf in sorted(shortest) for value in (tf, shortest[tf])]
        return len(docs), pack_docs(docs), pack_numbers(tfs), pack_numbers(pairs)

    def _all_lengths(self) -> list[int]:
        """Every rowid's length as this run leaves it (stored blocks with its changes)."""
        lengths: list[int] = []
        for block, blob in self.db.execute("SELECT block, lengths FROM bm25_blocks ORDER BY block"):
            lengths.extend([0] * (block * BLOCK - len(lengths)))
            lengths.extend(unpack_numbers(blob).tolist())
        top = max(self.places, default=-1) + 1
        if len(lengths) < top:
            lengths.extend([0] * (top - len(lengths)))
        for rowid, (length, _) in self.places.items():
            lengths[rowid] = length
        return lengths

    def _write_blocks(self) -> None:
        by_block: dict[int, list[tuple[int, tuple[int, int]]]] = {}
        for rowid, place in self.places.items():
            by_block.setdefault(rowid // BLOCK, []).append((rowid % BLOCK, place))
        rows = []
        for block, changes in sorted(by_block.items()):
            row = None if self.fresh else self.db.execute("SELECT lengths, corpora FROM bm25_blocks WHERE block = ?", (block,)).fetchone()
            lengths = list(unpack_numbers(row[0])) if row else []
            corpora = list(unpack_numbers(row[1])) if row else []
            top = max(offset for offset, _ in changes) + 1
            if len(lengths) < top:
                lengths.extend([0] * (top - len(lengths)))
                corpora.extend([HOLE] * (top - len(corpora)))
            for offset, (length, corpus) in changes:
                lengths[offset], corpora[offset] = length, corpus
            rows.append((block, pack_numbers(lengths), pack_numbers(corpora)))
        self.db.executemany("INSERT OR REPLACE INTO bm25_blocks (block, lengths, corpora) VALUES (?, ?, ?)", rows)


def _shortest(docs: Sequence[int], tfs: Sequence[float], lengths: Sequence[int]) -> dict[float, int]:
    """Per frequency, the shortest length of a chunk holding the term that often."""
    shortest: dict[float, int] = {}
    for doc, tf in zip(docs, tfs):
        length = lengths[doc]
        if shortest.get(tf, length + 1) > length:
            shortest[tf] = length
    return shortest


def postings_damage(db: sqlite3.Connection) -> str:
    """Why the postings do not describe the chunk rows (``""`` when they do): another chunk
    count or rowid sum than the rows', as after a hand-run ``VACUUM`` renumbered them."""
    stats = read_stats(db)
    if stats is None:
        return ""
    count, total = db.execute("SELECT COUNT(*), COALESCE(SUM(rowid), 0) FROM chunks").fetchone()
    if (count, total) != (stats["documents"], stats["rowid_sum"]):
        return f"the BM25 postings describe {stats['documents']} chunks, the store has {count} (or renumbered rows)"
    terms = db.execute("SELECT COUNT(*) FROM bm25_postings").fetchone()[0]
    if terms != stats.get("terms"):
        return f"the BM25 postings hold {terms} terms, {stats.get('terms')} were written"
    return ""
