"""BM25Index save/load: round trips, refusal of damaged or future files, atomic replace."""

from __future__ import annotations

import struct
import sys
import tempfile
import unittest
from array import array
from pathlib import Path

from agentic_rag._contracts.corpus import Document
from agentic_rag._errors import IndexFormatError
from agentic_rag._retrieval.bm25 import BM25Index
from agentic_rag._retrieval.index_file import read_index_file, write_index_file
from agentic_rag._text.analyzer import Analyzer

DOCS = [
    Document("a", "Solar panels convert sunlight", title="Solar power", corpus_id="energy", metadata={"year": 2020, "tags": ["x", "y"]}),
    Document("b", "Wind turbines and solar farms", corpus_id="energy", metadata={"year": 2021, "nested": {"k": [1, 2]}}),
    Document("c", "Die Universität Zürich forscht an Solarzellen", corpus_id="de"),
    Document("d", "北京的太阳能发电", corpus_id="zh"),
    Document("e", "Planets orbit the sun", corpus_id="space"),
]
QUERIES = ["solar", "solar power sunlight", "zürich", "太阳能", "sun planets", "wind"]


def results(index: BM25Index) -> list[object]:
    return [index.search(q, 10) for q in QUERIES] + [index.search("solar", 3, corpus_ids=["energy"], where={"year": 2021})]


class RoundTripTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.path = Path(self.tmp.name) / "index.bm25"

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_round_trip_keeps_settings_documents_and_results(self) -> None:
        settings = [{}, {"variant": "robertson", "k1": 1.2, "b": 0.75},
                    {"variant": "bm25+", "delta": 0.7, "title_weight": 2.5, "analyzer": Analyzer(stopwords="lucene", stemmer="porter")}]
        for options in settings:
            with self.subTest(options=options):
                index = BM25Index.from_documents(DOCS, **options)
                index.save(self.path)
                loaded = BM25Index.load(self.path)
                self.assertEqual(results(loaded), results(index))
                self.assertEqual((loaded.variant, loaded.k1, loaded.b, loaded.delta, loaded.title_weight, loaded.analyzer),
                                 (index.variant, index.k1, index.b, index.delta, index.title_weight, index.analyzer))
                self.assertEqual([loaded.get(i) for i in loaded.document_ids()], [index.get(i) for i in index.document_ids()])

    def test_round_trip_after_removals_and_updates(self) -> None:
        index = BM25Index.from_documents(DOCS)
        index.remove(["b"])
        index.update([Document("e", "The sun is a star")])
        index.save(self.path)
        loaded = BM25Index.load(self.path)
        self.assertEqual(results(loaded), results(index))
        loaded.add([Document("f", "solar sun")])
        loaded.remove(["a"])
        index.add([Document("f", "solar sun")])
        index.remove(["a"])
        self.assertEqual(results(loaded), results(index))

    def test_empty_index(self) -> None:
        BM25Index().save(self.path)
        loaded = BM25Index.load(self.path)
        self.assertEqual(len(loaded), 0)
        self.assertEqual(loaded.search("solar"), [])

    def test_other_byte_order_is_swapped(self) -> None:
        index = BM25Index.from_documents(DOCS)
        index.save(self.path)
        meta, sections = read_index_file(self.path, "bm25")
        meta["byte_order"] = "big" if sys.byteorder == "little" else "little"
        for name, code in (("text_lengths", "i"), ("title_lengths", "i"), ("offsets", "q"), ("postings_docs", "i"), ("postings_tfs", "d")):
            values = array(code, sections[name])
            values.byteswap()
            sections[name] = values.tobytes()
        write_index_file(self.path, "bm25", meta, sections)
        self.assertEqual(results(BM25Index.load(self.path)), results(index))

    def test_save_replaces_atomically(self) -> None:
        BM25Index.from_documents(DOCS[:2]).save(self.path)
        index = BM25Index.from_documents(DOCS)
        index.save(self.path)
        self.assertEqual(len(BM25Index.load(self.path)), 5)
        self.assertEqual(sorted(p.name for p in Path(self.tmp.name).iterdir()), ["index.bm25"])


class DamagedFileTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.path = Path(self.tmp.name) / "index.bm25"
        self.index = BM25Index.from_documents(DOCS)
        self.index.save(self.path)
        self.good = self.path.read_bytes()
        self.expected = results(self.index)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def assert_refused(self, data: bytes | None = None, fragment: str = "") -> None:
        if data is not None:
            self.path.write_bytes(data)
        index = self.index
        with self.assertRaises(IndexFormatError) as ctx:
            index = BM25Index.load(self.path)
        self.assertIn(fragment, str(ctx.exception))
        self.assertIs(index, self.index)
        self.assertEqual(results(self.index), self.expected)  # the live index is untouched

    def rewrite(self, meta_changes: dict[str, object] | None = None, section_changes: dict[str, bytes] | None = None) -> None:
        meta, sections = read_index_file(self.path, "bm25")
        meta.update(meta_changes or {})
        sections.update(section_changes or {})
        write_index_file(self.path, "bm25", meta, sections)

    def test_truncated(self) -> None:
        for size in (0, 10, 30, len(self.good) // 2, len(self.good) - 1):
            with self.subTest(size=size):
                self.assert_refused(self.good[:size], "truncated" if size else "")

    def test_corrupted_byte(self) -> None:
        data = bytearray(self.good)
        data[-20] ^= 0xFF
        self.assert_refused(bytes(data), "checksum")

    def test_future_file_format_version(self) -> None:
        data = bytearray(self.good)
        struct.pack_into("<I", data, 8, 99)
        self.assert_refused(bytes(data), "version 99")

    def test_future_bm25_layout(self) -> None:
        self.rewrite({"layout_version": 2})
        self.assert_refused(fragment="layout version 2")

    def test_other_kind(self) -> None:
        write_index_file(self.path, "vector", {}, {})
        self.assert_refused(fragment="'vector'")

    def test_missing_file(self) -> None:
        self.path.unlink()
        self.assert_refused(fragment="cannot read")

    def test_inconsistent_sections(self) -> None:
        meta, sections = read_index_file(self.path, "bm25")
        cases = [
            ({"documents": 7}, {}),
            ({}, {"postings_docs": sections["postings_docs"][:-4]}),
            ({}, {"offsets": sections["offsets"][:-8] + struct.pack("=q", 10**6)}),
            ({}, {"postings_docs": array("i", [99] * (len(sections["postings_docs"]) // 4)).tobytes()}),
            ({}, {"vocabulary": b"[not json"}),
            ({}, {"documents": b'[["a", 5, "", "x", {}]]'}),
            ({}, {"text_lengths": b"\x00"}),
            ({"variant": "bm42"}, {}),
            ({"k1": -1}, {}),
            ({"analyzer": {"stemmer": "martian"}}, {}),
        ]
        for meta_changes, section_changes in cases:
            with self.subTest(meta=meta_changes, sections=list(section_changes)):
                self.path.write_bytes(self.good)
                self.rewrite(meta_changes, section_changes)
                self.assert_refused()


if __name__ == "__main__":
    unittest.main()
