"""Transactional writes and consistent reads: interrupted, killed and concurrent index runs."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from pathlib import Path
from unittest import mock

from agentic_rag._errors import StoreError
from agentic_rag._store import IndexPhase, KnowledgeStore

SRC = Path(__file__).resolve().parents[1] / "src"
FILES = 12


def write_round(root: Path, round_number: int, files: int = FILES) -> None:
    """Rewrite every file so each mentions only this round's marker."""
    root.mkdir(parents=True, exist_ok=True)
    for i in range(files):
        (root / f"note{i:02d}.md").write_text(
            f"# Note {i}\n\nThis is note {i} of marker round{round_number}. It talks about shared topics.\n",
            encoding="utf-8",
        )


def snapshot(store: KnowledgeStore) -> tuple:
    """Everything a reader can observe, to compare before and after a failed write."""
    index_files = sorted(p for p in os.listdir(store.directory) if p.endswith(".idx"))
    hits = [(h.chunk_id, round(h.score, 9)) for h in store.search("marker topics", k=50)]
    return store.generation, list(store.documents()), store.corpora(), index_files, hits


def run_python(code: str, *args: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen([sys.executable, "-c", code, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(path: Path, process: subprocess.Popen, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        if process.poll() is not None:
            raise AssertionError(f"subprocess ended early: {process.communicate()}")
        if time.monotonic() > deadline:
            process.kill()
            raise AssertionError("subprocess never reached the expected point")
        time.sleep(0.01)


class StoreCase(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.base = Path(self._tmp.name)
        self.root = self.base / "notes"
        write_round(self.root, 1)
        self.store = KnowledgeStore(self.base / ".agentic-rag")
        self.store.index([self.root])
        self.before = snapshot(self.store)
        write_round(self.root, 2)


class InterruptedIndexTest(StoreCase):
    def assertUnchanged(self) -> None:
        self.assertEqual(snapshot(KnowledgeStore(self.store.directory)), self.before)
        self.assertEqual(snapshot(self.store), self.before)

    def test_a_raising_progress_callback_rolls_everything_back(self):
        def progress(event):
            if event.phase is IndexPhase.FILE and event.files_done == 5:
                raise KeyboardInterrupt("user pressed Ctrl-C")

        with self.assertRaises(KeyboardInterrupt):
            self.store.index([self.root], progress=progress)
        self.assertUnchanged()
        report = self.store.index([self.root])
        self.assertEqual(report.updated, FILES)
        self.assertTrue(all("round2" in d.text for d in self.store.documents()))

    def test_a_failure_while_saving_the_new_generation_rolls_back(self):
        def progress(event):
            if event.phase is IndexPhase.SAVING:
                raise RuntimeError("disk full")

        with self.assertRaises(RuntimeError):
            self.store.index([self.root], progress=progress)
        self.assertUnchanged()

    def test_a_loader_failing_midway_rolls_everything_back(self):
        from agentic_rag._store import file_work

        calls = []

        def failing(*args, **kwargs):
            calls.append(1)
            if len(calls) == 4:
                raise OSError("simulated read failure")
            return real(*args, **kwargs)

        real = file_work.parse_source
        with mock.patch.object(file_work, "parse_source", failing), self.assertRaises(OSError):
            self.store.index([self.root])
        self.assertEqual(len(calls), 4)
        self.assertUnchanged()

    def test_a_postings_write_failing_after_writing_leaves_the_store_unchanged(self):
        from agentic_rag._store import indexer

        real = indexer.PostingsWriter.write

        def write_then_fail(writer):
            real(writer)
            raise OSError("crash after writing the postings")

        with mock.patch.object(indexer.PostingsWriter, "write", write_then_fail), self.assertRaises(OSError):
            self.store.index([self.root])
        self.assertUnchanged()

    def test_an_interrupted_first_index_leaves_an_empty_store(self):
        store = KnowledgeStore(self.base / "fresh")

        def progress(event):
            if event.phase is IndexPhase.FILE:
                raise KeyboardInterrupt

        with self.assertRaises(KeyboardInterrupt):
            store.index([self.root], progress=progress)
        self.assertTrue(store.is_empty)
        self.assertEqual(store.corpora(), ())
        with self.assertRaises(StoreError):
            store.search("marker")

    def test_a_second_writer_waits_then_gives_up_clearly(self):
        blocker = sqlite3.connect(self.store.directory / "store.sqlite3", isolation_level=None)
        self.addCleanup(blocker.close)
        blocker.execute("BEGIN IMMEDIATE")
        impatient = KnowledgeStore(self.store.directory, lock_timeout=0.05)
        with self.assertRaises(StoreError) as caught:
            impatient.index([self.root])
        self.assertIn("being written by another process", str(caught.exception))
        self.assertEqual(self.store.search("round1")[0].path, "notes/note00.md")  # readers unaffected
        blocker.execute("ROLLBACK")
        self.assertEqual(impatient.index([self.root]).updated, FILES)


_KILLED_WRITER = """
import sys, time
from pathlib import Path
from agentic_rag._store import KnowledgeStore, IndexPhase
from agentic_rag._store import indexer

store_dir, root, marker, stage = sys.argv[1:5]

def pause():
    Path(marker).write_text("paused")
    time.sleep(60)

def progress(event):
    if stage == "file" and event.phase is IndexPhase.FILE and event.files_done == 5:
        pause()

if stage == "save":
    real = indexer.PostingsWriter.write
    def write_then_pause(writer):
        real(writer)
        pause()
    indexer.PostingsWriter.write = write_then_pause

KnowledgeStore(store_dir).index([root], progress=progress)
"""


class KilledWriterTest(StoreCase):
    def _kill_at(self, stage: str) -> None:
        marker = self.base / f"paused-{stage}"
        writer = run_python(_KILLED_WRITER, str(self.store.directory), str(self.root), str(marker), stage)
        try:
            wait_for(marker, writer)
        finally:
            writer.kill()
            writer.communicate()
        generation, documents, corpora, index_files, hits = snapshot(KnowledgeStore(self.store.directory))
        self.assertEqual((generation, documents, corpora, hits), self.before[:3] + self.before[4:])
        # BM25 lives in the database: the killed writer's uncommitted postings are discarded.
        self.assertEqual(index_files, [])
        report = self.store.index([self.root])
        self.assertEqual((report.updated, report.generation), (FILES, 2))
        self.assertEqual(sorted(p for p in os.listdir(self.store.directory) if ".idx" in p), [])
        self.assertTrue(all("round2" in d.text for d in self.store.documents()))

    def test_killed_while_reading_files(self):
        self._kill_at("file")

    def test_killed_after_writing_the_next_generation_file(self):
        self._kill_at("save")


def consistent(store: KnowledgeStore) -> str:
    """Return "" when each read shows exactly one round, else what is wrong."""
    index = store.bm25()
    hits = index.search("marker topics", k=50)
    documents = [index.get(h.document_id) for h in hits]  # the documents of this search's snapshot
    rounds = {re.search(r"round(\d+)", d.text).group(1) for d in documents}
    if len(documents) != FILES or len(rounds) != 1:
        return f"index mixes rounds {sorted(rounds)} over {len(documents)} chunks"
    stored = {re.search(r"round(\d+)", d.text).group(1) for d in store.documents()}
    if len(stored) != 1:
        return f"documents() mixes rounds {sorted(stored)}"
    hits = store.search("marker topics", k=50)
    found = {re.search(r"round(\d+)", h.text).group(1) for h in hits}
    if len(hits) != FILES or len(found) != 1:
        return f"search mixes rounds {sorted(found)} over {len(hits)} hits"
    return ""


class ConcurrentReadTest(StoreCase):
    ROUNDS = 6

    def test_reader_threads_see_one_generation_at_a_time(self):
        problems: list[str] = []
        reads = [0]
        done = threading.Event()
        shared = KnowledgeStore(self.store.directory)

        def reader(own_instance: bool) -> None:
            while not done.is_set():
                store = KnowledgeStore(self.store.directory) if own_instance else shared
                problem = consistent(store)
                if problem:
                    problems.append(problem)
                reads[0] += 1

        threads = [threading.Thread(target=reader, args=(flag,)) for flag in (True, False)]
        for thread in threads:
            thread.start()
        try:
            for round_number in range(2, 2 + self.ROUNDS):
                write_round(self.root, round_number)
                self.store.index([self.root])
        finally:
            done.set()
            for thread in threads:
                thread.join()
        self.assertEqual(problems, [])
        self.assertGreater(reads[0], 0)
        self.assertEqual(consistent(shared), "")
        self.assertIn(f"round{1 + self.ROUNDS}", shared.search("marker", k=1)[0].text)

    def test_a_reader_process_sees_consistent_generations_while_another_writes(self):
        code = """
import sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[4])
from test_store_transactions import consistent
from agentic_rag._store import KnowledgeStore
store_dir, ready, stop = sys.argv[1:4]
store = KnowledgeStore(store_dir)
reads = bad = 0
generations = set()
Path(ready).write_text("ready")
deadline = time.monotonic() + 30
while not Path(stop).exists() and time.monotonic() < deadline:
    problem = consistent(store)
    if problem:
        bad += 1
        print(problem)
    generations.add(store.generation)
    reads += 1
print(f"reads={reads} bad={bad} generations={len(generations)}")
"""
        ready, stop = self.base / "ready", self.base / "stop"
        reader = run_python(code, str(self.store.directory), str(ready), str(stop), str(Path(__file__).resolve().parent))
        try:
            wait_for(ready, reader)
            for round_number in range(2, 2 + self.ROUNDS):
                write_round(self.root, round_number)
                self.store.index([self.root])
            stop.write_text("stop")
            out, err = reader.communicate(timeout=60)
        finally:
            if reader.poll() is None:
                reader.kill()
                reader.communicate()
        self.assertEqual(reader.returncode, 0, err)
        summary = out.strip().splitlines()[-1]
        self.assertRegex(summary, r"^reads=[1-9]\d* bad=0 ")


if __name__ == "__main__":
    unittest.main()
