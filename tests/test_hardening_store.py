"""A damaged store heals on the next index run, a damaged index file never loads, a store
that cannot be read says why in one line, and unreadable paths keep what they held."""

from __future__ import annotations

import builtins
import hashlib
import json
import os
import sqlite3
import struct
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from agentic_rag._errors import IndexFormatError, StoreError
from agentic_rag._ingest import walker
from agentic_rag._retrieval.bm25 import BM25Index
from agentic_rag._retrieval.index_file import FORMAT_VERSION, MAGIC, read_index_file
from agentic_rag._retrieval.vector import VectorIndex
from agentic_rag._retrieval.embedders import HashingEmbedder
from agentic_rag._contracts import Document
from agentic_rag._store import KnowledgeStore
from agentic_rag._store import schema

FILES = {
    "guide/install.md": "# Installing\n\nRun the installer with the quokka flag.\n",
    "guide/config.md": "# Configuration\n\nThe wombat option controls caching.\n",
    "notes/top.txt": "A note about kangaroos.\n",
}


class StoreCase(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.base = Path(self._tmp.name)
        self.root = self.base / "kb"
        for name, text in FILES.items():
            path = self.root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        self.store = KnowledgeStore(self.base / ".agentic-rag")

    def sql(self, statement: str, parameters: tuple = ()) -> None:
        connection = sqlite3.connect(self.store.directory / "store.sqlite3")
        try:
            connection.execute(statement, parameters)
            connection.commit()
        finally:
            connection.close()

    def assertSearchable(self, store: KnowledgeStore | None = None) -> None:
        store = store or KnowledgeStore(self.store.directory)
        self.assertEqual(store.search("quokka")[0].path, "kb/guide/install.md")
        self.assertEqual(store.search("kangaroos")[0].path, "kb/notes/top.txt")
        self.assertEqual(store.stats().chunks, len(list(store.documents())))


class DamagedStoreHealsTest(StoreCase):
    def damage_and_reindex(self, damage, *, vector: bool = False):
        store = KnowledgeStore(self.store.directory, vector=vector)
        first = store.index([self.root])
        damage(first.generation)
        report = KnowledgeStore(self.store.directory, vector=vector).index([self.root])
        self.assertEqual(report.generation, first.generation + 1, "a damaged store must get a new generation")
        self.assertTrue(report.repaired, "the report says what was repaired")
        self.assertSearchable(KnowledgeStore(self.store.directory, vector=vector))
        again = KnowledgeStore(self.store.directory, vector=vector).index([self.root])
        self.assertEqual((again.generation, again.repaired, again.unchanged), (report.generation, (), 3))
        return report

    def test_renumbered_chunk_rows_get_their_postings_rebuilt(self):
        # A VACUUM by hand may renumber rowids, which the postings are keyed by.
        report = self.damage_and_reindex(lambda g: self.sql("UPDATE chunks SET rowid = rowid + 1000"))
        self.assertIn("BM25 postings", " ".join(report.repaired))

    def test_a_dropped_postings_table_is_rebuilt(self):
        self.damage_and_reindex(lambda g: self.sql("DROP TABLE bm25_postings"))

    def test_lost_postings_statistics_are_rebuilt(self):
        self.damage_and_reindex(lambda g: self.sql("DELETE FROM meta WHERE key = 'bm25_stats'"))

    def test_a_damaged_vector_file_is_rebuilt(self):
        def damage(generation: int) -> None:
            path = self.store.directory / f"vector-{generation:06d}.idx"
            path.write_bytes(path.read_bytes()[:100])
        self.damage_and_reindex(damage, vector=True)
        self.assertTrue(KnowledgeStore(self.store.directory).vector_index().search("quokka", 1))

    def test_a_dropped_chunks_table_is_rebuilt(self):
        report = self.damage_and_reindex(lambda g: self.sql("DROP TABLE chunks"))
        self.assertEqual(report.updated, 3)

    def test_lost_chunk_rows_of_one_file_are_rebuilt(self):
        report = self.damage_and_reindex(lambda g: self.sql("DELETE FROM chunks WHERE path = ?", ("kb/notes/top.txt",)))
        self.assertEqual((report.updated, report.unchanged), (1, 2))

    def test_postings_from_another_state_are_rebuilt(self):
        def swap(generation: int) -> None:
            self.sql("DELETE FROM bm25_postings WHERE term IN (SELECT term FROM bm25_postings LIMIT 2)")
        self.damage_and_reindex(swap)


class WholeFileChecksumTest(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.folder = Path(self._tmp.name)
        self.docs = [Document("a", "quokkas hop about", corpus_id="c"), Document("b", "wombats dig burrows", corpus_id="c")]

    def assertEveryHeaderFlipRefused(self, path: Path, load) -> None:
        data = path.read_bytes()
        header_end = 20 + struct.unpack_from("<Q", data, 12)[0]
        flipped_ok = []
        current = [data]
        # The damaged bytes are handed to the reader directly: writing each to disk is slow.
        with mock.patch.object(Path, "read_bytes", lambda self: current[0]):
            for position in range(header_end):
                for bit in (0x01, 0x10):
                    damaged = bytearray(data)
                    damaged[position] ^= bit
                    current[0] = bytes(damaged)
                    try:
                        load(path)
                    except IndexFormatError:
                        continue
                    flipped_ok.append((position, bit))
        self.assertEqual(flipped_ok, [], "header flips that loaded silently")
        load(path)

    def test_bm25_header_flips_are_refused(self):
        index = BM25Index()
        index.add(self.docs)
        path = self.folder / "bm25.idx"
        index.save(path)
        self.assertEveryHeaderFlipRefused(path, BM25Index.load)

    def test_vector_header_flips_are_refused(self):
        index = VectorIndex(HashingEmbedder())
        index.add(self.docs)
        path = self.folder / "vector.idx"
        index.save(path)
        self.assertEveryHeaderFlipRefused(path, VectorIndex.load)

    def test_a_checksummed_header_of_the_wrong_shape_is_refused(self):
        path = self.folder / "odd.idx"
        headers = [
            {"kind": "bm25", "meta": [1], "sections": [], "payload_length": 0},
            {"kind": "bm25", "meta": {}, "sections": 3, "payload_length": 0},
            {"kind": "bm25", "meta": {}, "sections": [["a", 0, 0]], "payload_length": 0},
            {"kind": "bm25", "meta": {}, "sections": [{"name": "a", "offset": True, "length": 0}], "payload_length": 0},
            [1, 2],
        ]
        for header in headers:
            body = json.dumps(header).encode("utf-8")
            data = struct.pack("<8sIQ", MAGIC, FORMAT_VERSION, len(body)) + body
            path.write_bytes(data + hashlib.sha256(data).digest())
            with self.subTest(header=header), self.assertRaises(IndexFormatError):
                read_index_file(path, "bm25")

    def test_a_file_of_the_previous_format_is_refused_clearly(self):
        index = BM25Index()
        index.add(self.docs)
        path = self.folder / "bm25.idx"
        index.save(path)
        data = bytearray(path.read_bytes())
        struct.pack_into("<I", data, len(MAGIC), 1)
        path.write_bytes(bytes(data))
        with self.assertRaises(IndexFormatError) as caught:
            BM25Index.load(path)
        message = str(caught.exception)
        self.assertIn("format version 1", message)
        self.assertIn(f"version {FORMAT_VERSION}", message)
        self.assertIn("rebuild", message)


class BrokenMetaTest(StoreCase):
    def assertOneLineStoreError(self, call, *words: str) -> None:
        with self.assertRaises(StoreError) as caught:
            call()
        message = str(caught.exception)
        self.assertNotIn("\n", message)
        self.assertIn(str(self.store.directory), message)
        for word in words:
            self.assertIn(word, message)

    def test_a_hand_edited_generation_is_a_store_error(self):
        self.store.index([self.root])
        self.sql("UPDATE meta SET value = 'seven' WHERE key = 'generation'")
        fresh = KnowledgeStore(self.store.directory)
        for call in (lambda: fresh.search("quokka"), lambda: fresh.generation, fresh.stats, lambda: fresh.index([self.root])):
            with self.subTest(call=call):
                self.assertOneLineStoreError(call, "'seven'", "generation")

    def test_another_schema_version_is_refused_on_read(self):
        self.store.index([self.root])
        self.sql("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
        fresh = KnowledgeStore(self.store.directory)
        for call in (lambda: fresh.search("quokka"), fresh.corpora, fresh.stats, lambda: list(fresh.documents()),
                     lambda: fresh.index([self.root])):
            with self.subTest(call=call):
                self.assertOneLineStoreError(call, "schema version 99", "index")


class UnreadablePathsKeepTheirContentTest(StoreCase):
    def test_an_unreadable_file_keeps_its_chunks(self):
        self.store.index([self.root])
        target = os.fspath(self.root / "notes" / "top.txt")
        real_open = builtins.open

        def refusing_open(file, *args, **kwargs):
            if os.fspath(file) == target:
                raise PermissionError(13, "Permission denied", target)
            return real_open(file, *args, **kwargs)

        with mock.patch("builtins.open", refusing_open):
            report = self.store.index([self.root])
        self.assertEqual((report.removed, report.unchanged, report.changed), (0, 2, False))
        reasons = dict(report.skipped)
        self.assertIn("Permission denied", reasons["kb/notes/top.txt"])
        self.assertIn("kept", reasons["kb/notes/top.txt"])
        self.assertSearchable()
        (self.root / "notes" / "top.txt").unlink()
        self.assertEqual(self.store.index([self.root]).removed, 1, "a file really gone is removed")

    def test_an_unreadable_folder_keeps_its_files(self):
        self.store.index([self.root])
        target = os.fspath(self.root / "guide")
        real_scandir = os.scandir

        def refusing_scandir(path="."):
            if os.fspath(path) == target:
                raise PermissionError(13, "Permission denied", target)
            return real_scandir(path)

        with mock.patch.object(walker.os, "scandir", refusing_scandir):
            report = self.store.index([self.root])
        self.assertEqual((report.removed, report.unchanged), (0, 1))
        self.assertIn("kb/guide", dict(report.skipped))
        self.assertSearchable()


class ReadOnlyStoreTest(StoreCase):
    def test_a_store_in_a_read_only_folder_is_searched_read_only(self):
        self.store.index([self.root])
        with mock.patch.object(schema, "_writable", return_value=False):
            self.assertSearchable()
            self.assertEqual(len(self.store.corpora()), 2)
            with self.assertRaises(StoreError) as caught:
                KnowledgeStore(self.store.directory).index([self.root])
            self.assertIn("read-only", str(caught.exception))

    @unittest.skipIf(os.name == "nt", "POSIX permissions")
    def test_index_files_are_readable_like_any_new_file(self):
        KnowledgeStore(self.store.directory, vector=True).index([self.root])
        umask = os.umask(0o022)
        os.umask(umask)
        (name,) = [p.name for p in self.store.directory.iterdir() if p.name.endswith(".idx")]
        self.assertEqual((self.store.directory / name).stat().st_mode & 0o777, 0o666 & ~umask)

    @unittest.skipIf(hasattr(os, "geteuid") and os.geteuid() == 0, "root can write to any folder")
    def test_a_chmod_read_only_store_can_be_searched(self):
        self.store.index([self.root])
        for name in ("store.sqlite3-shm", "store.sqlite3-wal"):
            (self.store.directory / name).unlink(missing_ok=True)
        self.store.directory.chmod(0o555)
        self.addCleanup(self.store.directory.chmod, 0o755)
        self.assertSearchable()
        with self.assertRaises(StoreError):
            KnowledgeStore(self.store.directory).index([self.root])
