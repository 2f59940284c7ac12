"""How an index run reads files: in worker processes for a large run (the same store), and not at all
when a file's time stamp says it is unchanged."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import sqlite3
import tempfile
import time
import unittest
from contextlib import closing
from pathlib import Path
from unittest import mock

from agentic_rag._store import KnowledgeStore
from agentic_rag._store import file_work

DOCS_QA = Path(__file__).resolve().parents[1] / "bench" / "data" / "docs_qa"


def rows(store: KnowledgeStore) -> list[tuple]:
    with closing(sqlite3.connect(store.directory / "store.sqlite3")) as db:
        chunks = db.execute("SELECT rowid, id, path, corpus_id, n, start_line, end_line, section, title, text, line_marks FROM chunks ORDER BY rowid").fetchall()
        postings = db.execute("SELECT term, df, docs, tfs FROM bm25_postings ORDER BY term").fetchall()
        files = db.execute("SELECT path, corpus_id, sha256, chunks, terms FROM files ORDER BY path").fetchall()
    return [chunks, postings, files]


@unittest.skipUnless("fork" in multiprocessing.get_all_start_methods(), "worker processes are used only where fork exists")
class ParallelIndexTest(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.root = Path(self._tmp.name) / "docs"
        shutil.copytree(DOCS_QA / "attrs", self.root / "attrs")
        shutil.copytree(DOCS_QA / "structlog", self.root / "structlog")

    def index(self, name: str, *, workers: bool) -> KnowledgeStore:
        store = KnowledgeStore(Path(self._tmp.name) / name, base=self.root)
        spawned = []
        real = file_work._in_workers

        def counting(*args, **kwargs):
            spawned.append(1)
            return real(*args, **kwargs)

        with mock.patch.object(file_work, "PARALLEL_FILES", 2 if workers else 10**9), \
                mock.patch.object(file_work.os, "cpu_count", return_value=2), mock.patch.object(file_work, "_in_workers", counting):
            store.index([self.root])
        self.assertEqual(bool(spawned), workers)
        return store

    def test_workers_make_the_same_store(self):
        one = self.index("one", workers=False)
        many = self.index("many", workers=True)
        self.assertEqual(rows(many), rows(one))
        self.assertEqual([(h.chunk_id, h.score) for h in many.search("configure the logger", 5)],
                         [(h.chunk_id, h.score) for h in one.search("configure the logger", 5)])

    def test_a_failure_in_a_worker_fails_the_run_and_changes_nothing(self):
        store = self.index("store", workers=True)
        before = rows(store)
        for path in self.root.rglob("*.md"):
            path.write_text(path.read_text(encoding="utf-8") + "\nchanged\n", encoding="utf-8")

        def failing(*args, **kwargs):
            raise OSError("simulated read failure in a worker")

        with mock.patch.object(file_work, "parse_source", failing), mock.patch.object(file_work, "PARALLEL_FILES", 2), \
                mock.patch.object(file_work.os, "cpu_count", return_value=2), self.assertRaises(OSError):
            store.index([self.root])
        self.assertEqual(rows(store), before)


if __name__ == "__main__":
    unittest.main()


class StampTest(unittest.TestCase):
    """Files whose size and time stamp are what the store holds, from before its last run, are
    not read again; a file changed since is, whatever its size."""

    def test_only_files_changed_since_the_last_run_are_read(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "docs"
            root.mkdir()
            past = time.time() - 100
            for n in range(4):
                path = root / f"note{n}.md"
                path.write_text(f"# Note {n}\n\nWombat fact number {n}.\n", encoding="utf-8")
                os.utime(path, (past, past))
            store = KnowledgeStore(Path(tmp) / "store")
            store.index([root])
            reads: list[str] = []
            real = file_work.read_source

            def counting(path, **kwargs):
                reads.append(Path(path).name)
                return real(path, **kwargs)

            with mock.patch.object(file_work, "read_source", counting):
                self.assertEqual(store.index([root]).unchanged, 4)
                self.assertEqual(reads, [])
                (root / "note2.md").write_text("# Note 2\n\nWombat fact quokka 9.\n", encoding="utf-8")  # same size
                report = store.index([root])
            self.assertEqual((report.updated, report.unchanged, reads), (1, 3, ["note2.md"]))
            self.assertIn("quokka 9", store.search("quokka", 1)[0].text)
