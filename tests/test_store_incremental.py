"""An index run after a few changed files: patched postings, kept rows, and a store that
searches exactly as a full index of the same folder does."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import tempfile
import unittest
from contextlib import closing
from pathlib import Path

from agentic_rag._interfaces.store_service import StoreService
from agentic_rag._store import KnowledgeStore
from agentic_rag._store.postings import pack_docs, pack_numbers, unpack_docs, unpack_numbers
from agentic_rag._store.postings_patch import can_patch, patch_term, rowid_runs

ROOT = Path(__file__).resolve().parents[1]
DOCS_QA = ROOT / "bench" / "data" / "docs_qa"


def reference_patch(docs, tfs, shortest, removed, added, lengths):
    """Decode, filter, append and pack: what the writer did before postings were patched."""
    kept = [(d, t) for d, t in zip(docs, tfs) if d not in removed]
    if any(shortest.get(t) == removed[d] for d, t in zip(docs, tfs) if d in removed):
        shortest = {}
        for d, t in kept:
            shortest[t] = min(shortest.get(t, lengths[d]), lengths[d])
    else:
        shortest = dict(shortest)
    new_docs, new_tfs = [d for d, _ in kept], [t for _, t in kept]
    if added:
        new_docs += [d for d, _, _ in added]
        new_tfs += [t for _, t, _ in added]
        for _, t, length in added:
            shortest[t] = min(shortest.get(t, length), length)
    if not new_docs:
        return None
    pairs = [v for t in sorted(shortest) for v in (t, shortest[t])]
    return len(new_docs), pack_docs(new_docs), pack_numbers(new_tfs), pack_numbers(pairs)


class PatchTermTest(unittest.TestCase):
    """:func:`patch_term` packs exactly the bytes decoding and packing again gives."""

    def test_runs_of_consecutive_rowids(self):
        self.assertEqual(rowid_runs([9, 3, 4, 5, 11, 10, 20]), [(3, 5), (9, 11), (20, 20)])
        self.assertEqual(rowid_runs([]), [])

    def test_random_postings_match_the_reference(self):
        rng = random.Random(37)
        for case in range(400):
            with self.subTest(case=case):
                self._one_case(rng)

    def _one_case(self, rng: random.Random) -> None:
        top = rng.choice([50, 300, 70_000, 5_000_000])
        count = rng.randint(0, min(60, top - 1))
        docs = sorted(rng.sample(range(1, top), count))
        wide = rng.random() < 0.2  # frequencies over 255 (another type than B)
        tfs = [rng.randint(1, 400 if wide else 4) for _ in docs]
        lengths = {d: rng.randint(1, 300 if rng.random() < 0.5 else 70_000) for d in docs}
        shortest: dict[int, int] = {}
        for d, t in zip(docs, tfs):
            shortest[t] = min(shortest.get(t, lengths[d]), lengths[d])
        # Removed: a few runs of consecutive rowids (a file's chunks), often the last documents.
        removed: dict[int, int] = {}
        for _ in range(rng.randint(0, 3)):
            start = rng.choice(docs) if docs and rng.random() < 0.8 else rng.randint(1, top)
            for rowid in range(start, start + rng.randint(1, 6)):
                removed[rowid] = lengths.setdefault(rowid, 1)
        if docs and rng.random() < 0.3:
            removed.update((d, lengths[d]) for d in docs[-rng.randint(1, len(docs)):])
        first = top + 1 if rng.random() < 0.5 else (max([d for d in docs if d not in removed], default=0) + 1)
        added = [(first + i, rng.randint(1, 400 if wide else 4), rng.randint(1, 70_000)) for i in range(rng.randint(0, 4))]
        for rowid, _, length in added:
            lengths[rowid] = length
        row = (pack_docs(docs), pack_numbers(tfs), pack_numbers([v for t in sorted(shortest) for v in (t, shortest[t])])) if docs else None
        self.assertTrue(can_patch(row))
        entry = None
        if added:
            from array import array

            new_shortest: dict[float, int] = {}
            for _, t, length in added:
                new_shortest[t] = min(new_shortest.get(t, length), length)
            entry = (array("i", [d for d, _, _ in added]), array("I", [t for _, t, _ in added]), new_shortest)
        got = patch_term(row, rowid_runs(list(removed)), removed, entry, lambda: lengths)  # a dict stands for the table
        self.assertEqual(got, reference_patch(docs, tfs, shortest, removed, added, lengths))

    def test_the_type_narrows_when_the_wide_numbers_leave(self):
        docs, tfs = [1, 2, 70_000], [1, 300, 1]
        row = (pack_docs(docs), pack_numbers(tfs), pack_numbers([1, 5, 300, 5]))
        lengths = [5] * 70_001
        df, packed_docs, packed_tfs, _ = patch_term(row, [(2, 2), (70_000, 70_000)], {2: 5, 70_000: 5}, None, lambda: lengths)
        self.assertEqual((df, chr(packed_docs[0]), chr(packed_tfs[0])), (1, "B", "B"))
        self.assertEqual((unpack_docs(packed_docs), list(unpack_numbers(packed_tfs))), ([1], [1]))


def _postings_by_chunk(directory: Path) -> dict[str, object]:
    """The store's BM25 content with rowids replaced by chunk ids (rowids differ between an
    incremental run and a full one; what they describe must not)."""
    with closing(sqlite3.connect(directory / "store.sqlite3")) as db:
        ids = dict(db.execute("SELECT rowid, id FROM chunks"))
        postings = {}
        for term, df, docs, tfs, shortest in db.execute("SELECT term, df, docs, tfs, shortest FROM bm25_postings"):
            pairs = sorted(zip((ids[d] for d in unpack_docs(docs)), unpack_numbers(tfs)))
            postings[term] = (df, pairs, list(unpack_numbers(shortest)))
        stats = json.loads(db.execute("SELECT value FROM meta WHERE key = 'bm25_stats'").fetchone()[0])
        chunks = sorted(db.execute("SELECT id, path, corpus_id, n, start_line, end_line, section, title, text, line_marks FROM chunks"))
        files = sorted(db.execute("SELECT path, corpus_id, sha256, chunks, terms FROM files"))
        corpora = sorted(db.execute("SELECT id, description, auto_description FROM corpora"))
    return {"postings": postings, "documents": stats["documents"], "total_length": stats["total_length"], "terms": stats["terms"],
            "chunks": chunks, "files": files, "corpora": corpora}


@unittest.skipUnless(DOCS_QA.is_dir(), "bench/data/docs_qa is absent")
class IncrementalEqualsFullTest(unittest.TestCase):
    """A store re-indexed after edits holds and finds what a new store of the folder does."""

    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.work = Path(self._tmp.name)
        self.root = self.work / "docs"
        for part in ("attrs", "markdown"):  # two of the four projects: enough files, a short test
            shutil.copytree(DOCS_QA / part, self.root / part)
        self.store = KnowledgeStore(self.work / "incremental", base=self.work)
        self.store.index([self.root])
        lines = (DOCS_QA / "questions.jsonl").read_text(encoding="utf-8").splitlines()
        self.queries = [json.loads(line)["question"] for line in lines if line.strip()][:4]
        self.queries += ["zebra configuration", "field default value"]

    def _edit(self) -> None:
        files = sorted(self.root.rglob("*.md"))
        files[0].write_text(files[0].read_text(encoding="utf-8") + "\n\nA last paragraph on zebra configuration.\n", encoding="utf-8")
        text = files[2].read_text(encoding="utf-8")
        middle = text.index("\n\n", len(text) // 2)
        files[2].write_text(text[:middle] + "\n\nAn inserted paragraph about zebra fields.\n" + text[middle:], encoding="utf-8")
        files[3].write_text(files[3].read_text(encoding="utf-8").replace("the", "a", 3), encoding="utf-8")
        files[4].unlink()
        (self.root / "attrs" / "zebra.md").write_text("# Zebra\n\nConfigure a zebra with a field default.\n", encoding="utf-8")

    def _assert_same_as_full(self) -> None:
        full = KnowledgeStore(self.work / "full", base=self.work)
        full.index([self.root])
        self.assertEqual(_postings_by_chunk(self.store.directory), _postings_by_chunk(full.directory))
        mine, theirs = StoreService(KnowledgeStore(self.store.directory, base=self.work)), StoreService(full)
        for query in self.queries:
            with self.subTest(query=query):
                self.assertEqual(mine.search(query, 10), theirs.search(query, 10))
                self.assertEqual(mine.ask(query).payload, theirs.ask(query).payload)
                self.assertEqual(mine.ask(query, "parallel").payload, theirs.ask(query, "parallel").payload)

    def test_same_content_and_output_after_edits(self):
        self._edit()
        report = self.store.index([self.root])
        self.assertEqual((report.updated, report.removed, report.added), (3, 1, 1))
        self._assert_same_as_full()
        self._edit()  # a second round over a store whose rowids are no longer in file order
        self.store.index([self.root])
        self._assert_same_as_full()

    def test_unchanged_chunks_keep_their_rows(self):
        with closing(sqlite3.connect(self.store.directory / "store.sqlite3")) as db:
            path, count = db.execute("SELECT path, chunks FROM files WHERE chunks >= 3 ORDER BY path").fetchone()
            before = dict(db.execute("SELECT id, rowid FROM chunks WHERE path = ?", (path,)))
        source = self.work / path
        source.write_text(source.read_text(encoding="utf-8") + "\n\nA last paragraph on zebra configuration.\n", encoding="utf-8")
        report = self.store.index([self.root])
        self.assertEqual((report.updated, report.chunks_removed), (1, count))
        with closing(sqlite3.connect(self.store.directory / "store.sqlite3")) as db:
            after = dict(db.execute("SELECT id, rowid FROM chunks WHERE path = ?", (path,)))
        kept = [chunk for chunk in before if after.get(chunk) == before[chunk]]
        self.assertGreaterEqual(len(kept), count - 2, (before, after))  # only the last chunk or two changed
        self._assert_same_as_full()


if __name__ == "__main__":
    unittest.main()
