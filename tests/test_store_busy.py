"""A store another index run is writing (hardening round 3, row 29): the wait is settable, said
on stderr before it starts, and ends in its own exit code, never the "not found" one."""

from __future__ import annotations

import sqlite3
import unittest

from cli_support import enter_temp_folder, run_cli

from agentic_rag._errors import StoreBusyError, StoreError
from agentic_rag._interfaces.cli import EXIT_BUSY, EXIT_NOT_FOUND, EXIT_USAGE
from agentic_rag._store import IndexPhase, KnowledgeStore
from agentic_rag._store.schema import DATABASE_NAME


class BusyStoreTest(unittest.TestCase):
    def setUp(self) -> None:
        self.folder = enter_temp_folder(self)
        (self.folder / "kb").mkdir()
        (self.folder / "kb" / "a.md").write_text("# Burrows\n\nWombats dig long burrows.\n", encoding="utf-8")
        KnowledgeStore(self.folder / "st").index([self.folder / "kb"])
        (self.folder / "kb" / "b.md").write_text("Quolls hunt at night.\n", encoding="utf-8")

    def hold_the_write_lock(self) -> None:
        """Another writer, mid-run: it holds the write lock until the test ends."""
        holder = sqlite3.connect(self.folder / "st" / DATABASE_NAME, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        self.addCleanup(holder.close)
        self.addCleanup(holder.execute, "ROLLBACK")

    def test_the_library_says_it_waits_then_raises_a_busy_store_error(self):
        self.hold_the_write_lock()
        events = []
        with self.assertRaises(StoreBusyError) as raised:
            KnowledgeStore(self.folder / "st", lock_timeout=0.2).index([self.folder / "kb"], progress=events.append)
        self.assertIsInstance(raised.exception, StoreError)
        self.assertIn("waited 0.2 s", str(raised.exception))
        self.assertEqual([e.phase for e in events], [IndexPhase.WAITING])

    def test_the_command_says_how_long_it_waits_and_exits_with_its_own_code(self):
        self.hold_the_write_lock()
        code, out, err = run_cli("index", "kb", "--store", "st", "--wait", "0.2", "--quiet")
        self.assertEqual(code, EXIT_BUSY)
        self.assertNotEqual(code, EXIT_NOT_FOUND)
        self.assertEqual(out, "")
        first, second = err.strip().splitlines()
        self.assertIn("another process is writing the store st; waiting up to 0.2 s", first)
        self.assertIn("error:", second)
        self.assertIn("waited 0.2 s", second)

    def test_once_the_lock_is_free_the_run_indexes_without_a_word_about_waiting(self):
        code, _, err = run_cli("index", "kb", "--store", "st", "--wait", "0")
        self.assertEqual(code, 0, err)
        self.assertNotIn("waiting", err)
        self.assertEqual(KnowledgeStore(self.folder / "st").stats().files, 2)

    def test_a_negative_wait_is_a_usage_error(self):
        for bad in ("-1", "nan", "inf"):
            with self.subTest(wait=bad):
                code, _, err = run_cli("index", "kb", "--store", "st", "--wait", bad)
                self.assertEqual(code, EXIT_USAGE, err)
                self.assertIn("--wait", err)


if __name__ == "__main__":
    unittest.main()
