"""The store's state read through a kept connection: it sees what a new connection would."""

from __future__ import annotations

import shutil
import tempfile
import unittest
from pathlib import Path

from agentic_rag._errors import StoreError
from agentic_rag._store import KnowledgeStore


class KeptStateTest(unittest.TestCase):
    def setUp(self) -> None:
        self.folder = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.folder, ignore_errors=True)
        (self.folder / "kb").mkdir()
        (self.folder / "kb" / "a.md").write_text("# Burrows\n\nWombats dig long burrows.\n", encoding="utf-8")
        self.reader = KnowledgeStore(self.folder / "st")  # one object, read again and again
        KnowledgeStore(self.folder / "st").index([self.folder / "kb"])

    def test_a_later_commit_is_seen(self):
        self.assertEqual(self.reader.generation, 1)
        (self.folder / "kb" / "b.md").write_text("Quolls hunt at night.\n", encoding="utf-8")
        KnowledgeStore(self.folder / "st").index([self.folder / "kb"])  # another writer
        self.assertEqual(self.reader.generation, 2)
        self.assertEqual(self.reader.search("quolls", 1)[0].path, str(Path("kb") / "b.md"))

    def test_a_store_made_again_is_read_afresh(self):
        self.assertEqual(self.reader.generation, 1)
        shutil.rmtree(self.folder / "st")
        with self.assertRaises(StoreError):
            self.reader.search("wombats", 1)  # no store there any more
        KnowledgeStore(self.folder / "st").index([self.folder / "kb"])
        self.assertEqual(self.reader.generation, 1)
        self.assertTrue(self.reader.search("wombats", 1))


if __name__ == "__main__":
    unittest.main()
