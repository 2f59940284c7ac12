"""Tests for the exact cosine vector index: ranking, filters, changes, persistence, threads."""

from __future__ import annotations

import math
import random
import struct
import tempfile
import threading
import unittest
from pathlib import Path

from agentic_rag._contracts import Document
from agentic_rag._errors import IndexFormatError, InvalidInputError
from agentic_rag._retrieval.bm25 import BM25Index
from agentic_rag._retrieval.embedders import CallableEmbedder, HashingEmbedder
from agentic_rag._retrieval.index_file import write_index_file
from agentic_rag._retrieval.index_retriever import IndexRetriever
from agentic_rag._retrieval.vector import VectorIndex, document_text
from agentic_rag._retrieval.vector_store import array_to_bytes
from agentic_rag._text.analyzer import Analyzer

_VECTORS = {
    "a": [1.0, 0.0, 0.0],
    "b": [1.0, 1.0, 0.0],
    "c": [0.0, 1.0, 0.0],
    "d": [-1.0, 0.0, 0.0],
    "e": [0.0, 0.0, 1.0],
    "f": [4.0, 0.0, 0.0],
    "q": [2.0, 1.0, 0.0],
}


class _Lookup:
    """A dense embedder giving each text its hand-written vector."""

    name = "lookup"
    dimensions = 3

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [_VECTORS[text] for text in texts]


def _dense_index(ids: str = "abcde", **kwargs: object) -> VectorIndex:
    index = VectorIndex(_Lookup(), **kwargs)  # type: ignore[arg-type]
    index.add([Document(i, i) for i in ids])
    return index


_CORPUS = [
    Document("d1", "Information retrieval engines rank documents by relevance.", title="Search"),
    Document("d2", "Color perception in the human visual system.", corpus_id="science", metadata={"year": 2020}),
    Document("d3", "Running improves cardiovascular fitness and sleep.", corpus_id="science", metadata={"year": 2021}),
    Document("d4", "Pasta cooking needs plenty of salted boiling water.", metadata={"year": 2020, "tags": ["food"]}),
    Document("d5", "Stock markets fell sharply on Monday morning.", corpus_id="news", metadata={"year": 2021}),
    Document("d6", "Volcanic eruptions release ash, lava and gas.", corpus_id="science"),
    Document("d7", "A marathon runner trains for months.", corpus_id="news"),
    Document("d8", "Documents about document ranking and retrieval models.", metadata={"year": 2019}),
]
_QUERIES = ["retrieval of documents", "colour vision", "runner training", "salted water", "markets", "volcano"]


def _all_hits(index: VectorIndex, query: str) -> list[object]:
    return index.search(query, k=100)


class DenseCosineRankingTest(unittest.TestCase):
    def test_golden_ranking_computed_by_hand(self) -> None:
        hits = _dense_index().search("q", k=10)
        # q = (2, 1, 0): cos with b = 3/sqrt(10), a = 2/sqrt(5), c = 1/sqrt(5), e = 0, d = -2/sqrt(5).
        self.assertEqual([h.document_id for h in hits], ["b", "a", "c", "e", "d"])
        expected = [3 / math.sqrt(10), 2 / math.sqrt(5), 1 / math.sqrt(5), 0.0, -2 / math.sqrt(5)]
        for hit, score in zip(hits, expected):
            self.assertAlmostEqual(hit.score, score, places=6)

    def test_ties_break_by_id_and_k_limits(self) -> None:
        hits = _dense_index("fdca").search("q", k=2)
        self.assertEqual([h.document_id for h in hits], ["a", "f"])  # same cosine 2/sqrt(5)
        self.assertEqual(hits[0].score, hits[1].score)

    def test_raw_dot_product_without_normalisation(self) -> None:
        hits = _dense_index("abcdf", normalize=False).search("q", k=3)
        self.assertEqual([(h.document_id, h.score) for h in hits], [("f", 8.0), ("b", 3.0), ("a", 2.0)])

    def test_k_above_size_returns_everything_and_empty_query_nothing(self) -> None:
        index = _dense_index()
        self.assertEqual(len(index.search("q", k=50)), 5)
        self.assertEqual(index.search("", k=5), [])
        self.assertEqual(index.search("   ", k=5), [])
        self.assertEqual(VectorIndex(_Lookup()).search("q"), [])  # type: ignore[arg-type]

    def test_bad_search_arguments(self) -> None:
        index = _dense_index()
        for kwargs in ({"k": 0}, {"k": 2.0}, {"corpus_ids": "default"}, {"where": ["year"]}):
            with self.subTest(kwargs=kwargs), self.assertRaises(InvalidInputError):
                index.search("q", **kwargs)  # type: ignore[arg-type]
        with self.assertRaises(InvalidInputError):
            index.search(None)  # type: ignore[arg-type]

    def test_dimension_mismatch_is_refused(self) -> None:
        index = _dense_index()
        wide = VectorIndex(CallableEmbedder(lambda texts: [[1.0, 2.0, 3.0, 4.0] for _ in texts]))
        wide.add([Document("x", "x")])
        index.embedder = wide.embedder
        with self.assertRaisesRegex(InvalidInputError, "dimension 4, expected 3"):
            index.add([Document("y", "y")])
        with self.assertRaisesRegex(InvalidInputError, "dimension 4, expected 3"):
            index.search("q")


class FiltersAndAccessTest(unittest.TestCase):
    def setUp(self) -> None:
        self.index = VectorIndex(HashingEmbedder())
        self.index.add(_CORPUS)

    def test_corpus_and_metadata_filters(self) -> None:
        science = self.index.search("retrieval of documents", k=10, corpus_ids=["science"])
        self.assertEqual({h.document_id for h in science}, {"d2", "d3", "d6"})
        self.assertTrue(all(h.corpus_id == "science" for h in science))
        year = self.index.search("running", k=10, where={"year": 2021})
        self.assertEqual({h.document_id for h in year}, {"d3", "d5"})
        either = self.index.search("running", k=10, where={"year": [2019, 2020]})
        self.assertEqual({h.document_id for h in either}, {"d2", "d4", "d8"})
        both = self.index.search("running", k=10, corpus_ids=["science", "news"], where={"year": 2021})
        self.assertEqual({h.document_id for h in both}, {"d3", "d5"})
        self.assertEqual(self.index.search("running", k=10, where={"missing": 1}), [])

    def test_filtered_top_k_equals_filtering_the_full_ranking(self) -> None:
        full = [h for h in self.index.search("document retrieval", k=100) if h.corpus_id == "default"]
        self.assertEqual(self.index.search("document retrieval", k=2, corpus_ids=["default"]), full[:2])

    def test_get_len_contains(self) -> None:
        self.assertEqual(len(self.index), 8)
        self.assertIn("d3", self.index)
        self.assertNotIn("d9", self.index)
        self.assertEqual(self.index.get("d1").title, "Search")
        self.assertEqual(self.index.document_ids(), sorted(d.id for d in _CORPUS))
        self.assertNotIn(["d1"], self.index)
        with self.assertRaises(InvalidInputError):
            self.index.get(["d1"])  # type: ignore[arg-type]
        with self.assertRaisesRegex(InvalidInputError, "unknown document id 'd9'"):
            self.index.get("d9")

    def test_ranking_is_sorted_and_featureless_queries_return_nothing(self) -> None:
        hits = self.index.search("retrieval of documents", k=100)
        self.assertEqual(len(hits), 8)
        self.assertEqual(hits, sorted(hits, key=lambda h: (-h.score, h.document_id)))
        self.assertEqual(hits[0].document_id, "d8")
        self.assertEqual(self.index.search("the of and", k=5), [])

    def test_sparse_scores_are_the_cosines_of_the_fitted_embedder(self) -> None:
        # An independent path: the embedder fitted on the same texts, cosine by hand.
        embedder = HashingEmbedder().fit([document_text(d) for d in _CORPUS])
        vectors = dict(zip((d.id for d in _CORPUS), embedder.embed_sparse([document_text(d) for d in _CORPUS])))
        for query in _QUERIES:
            query_vector = dict(embedder.embed_sparse([query])[0])
            for hit in self.index.search(query, k=100):
                expected = sum(w * query_vector.get(d, 0.0) for d, w in vectors[hit.document_id])
                self.assertAlmostEqual(hit.score, expected, places=6, msg=(query, hit.document_id))
        self.assertAlmostEqual(self.index.search(document_text(_CORPUS[4]), k=1)[0].score, 1.0, places=6)

    def test_sparse_raw_dot_product_without_normalisation(self) -> None:
        index = VectorIndex.from_documents([Document("p", "pasta"), Document("s", "sauce")], HashingEmbedder(ngram_range=None), normalize=False)
        # One shared feature of tf weight 1 and idf ln(3/2) + 1, on both sides.
        self.assertAlmostEqual(index.search("pasta", k=1)[0].score, (math.log(1.5) + 1) ** 2, places=5)
        self.assertTrue(index.is_sparse)
        self.assertEqual(index.dimensions, 2**20)
        self.assertFalse(_dense_index().is_sparse)
        self.assertEqual(_dense_index().dimensions, 3)

    def test_index_retriever_gives_snippets(self) -> None:
        snippets = IndexRetriever(self.index, name="hashing").retrieve("retrieval of documents", 2)
        self.assertEqual([s.document_id for s in snippets], ["d8", "d1"])
        self.assertEqual(snippets[1].metadata["title"], "Search")

    def test_document_text_joins_title_and_text(self) -> None:
        self.assertEqual(document_text(_CORPUS[0]), "Search\n" + _CORPUS[0].text)
        self.assertEqual(document_text(_CORPUS[1]), _CORPUS[1].text)


class ChangesTest(unittest.TestCase):
    def _changed(self, embedder: object) -> VectorIndex:
        index = VectorIndex(embedder)  # type: ignore[arg-type]
        index.add(_CORPUS[:4])
        index.add(_CORPUS[4:])
        index.remove(["d2", "d6"])
        index.add([Document("d9", "Colourful retrieval.")])
        index.update([Document("d3", "Runners and running injuries.", corpus_id="science"), Document("d9", "Retrieving colourful documents.")])
        return index

    def _fresh(self, embedder: object) -> VectorIndex:
        final = [d for d in _CORPUS if d.id not in {"d2", "d3", "d6"}]
        final += [Document("d3", "Runners and running injuries.", corpus_id="science"), Document("d9", "Retrieving colourful documents.")]
        random.Random(3).shuffle(final)
        index = VectorIndex(embedder)  # type: ignore[arg-type]
        index.add(final)
        return index

    def test_sparse_changes_equal_a_fresh_build(self) -> None:
        changed, fresh = self._changed(HashingEmbedder()), self._fresh(HashingEmbedder())
        self.assertEqual(len(changed), 7)
        for query in _QUERIES:
            with self.subTest(query=query):
                self.assertEqual(_all_hits(changed, query), _all_hits(fresh, query))

    def test_dense_changes_equal_a_fresh_build(self) -> None:
        embedder = CallableEmbedder(HashingEmbedder(dimensions=64).embed, batch_size=3, name="hashing-64")
        changed, fresh = self._changed(embedder), self._fresh(embedder)
        for query in _QUERIES:
            with self.subTest(query=query):
                self.assertEqual(_all_hits(changed, query), _all_hits(fresh, query))

    def test_update_replaces_the_document(self) -> None:
        index = self._changed(HashingEmbedder())
        self.assertEqual(index.get("d3").text, "Runners and running injuries.")
        self.assertEqual(index.search("injuries", k=1)[0].document_id, "d3")

    def test_bad_changes_leave_the_index_untouched(self) -> None:
        index = VectorIndex(HashingEmbedder())
        index.add(_CORPUS)
        before = _all_hits(index, "retrieval")
        with self.assertRaisesRegex(InvalidInputError, "already indexed"):
            index.add([Document("d1", "again")])
        with self.assertRaisesRegex(InvalidInputError, "duplicate document id"):
            index.update([Document("d1", "one"), Document("d1", "two")])
        with self.assertRaisesRegex(InvalidInputError, r"not indexed: \['x'\]; use add"):
            index.update([Document("d1", "one"), Document("x", "two")])
        with self.assertRaisesRegex(InvalidInputError, r"unknown document ids \['zz'\]"):
            index.remove(["d1", "zz"])
        with self.assertRaises(InvalidInputError):
            index.remove("d1")
        with self.assertRaises(InvalidInputError):
            index.add([{"id": "x", "text": "y"}])  # type: ignore[list-item]
        with self.assertRaises(InvalidInputError):
            index.add(_CORPUS[0])  # type: ignore[arg-type]
        self.assertEqual(_all_hits(index, "retrieval"), before)
        self.assertEqual(len(index), 8)

    def test_removing_everything_then_adding_again(self) -> None:
        index = VectorIndex(HashingEmbedder())
        index.add(_CORPUS)
        index.remove([d.id for d in _CORPUS])
        self.assertEqual((len(index), index.search("retrieval")), (0, []))
        index.add(_CORPUS[:1])
        self.assertEqual([h.document_id for h in index.search("retrieval")], ["d1"])

    def test_bad_constructor_arguments(self) -> None:
        with self.assertRaises(InvalidInputError):
            VectorIndex(object())  # type: ignore[arg-type]
        with self.assertRaises(InvalidInputError):
            VectorIndex(HashingEmbedder(), normalize=1)  # type: ignore[arg-type]

    def test_concurrent_searches_during_updates(self) -> None:
        index = VectorIndex(HashingEmbedder())
        index.add(_CORPUS)
        known = {d.id for d in _CORPUS} | {f"n{i}" for i in range(20)}
        errors: list[BaseException] = []

        def read() -> None:
            try:
                for _ in range(30):
                    for hit in index.search("document retrieval running", k=5):
                        if hit.document_id not in known:
                            raise AssertionError(hit)
            except BaseException as exc:  # noqa: BLE001 - reported to the main thread
                errors.append(exc)

        readers = [threading.Thread(target=read) for _ in range(3)]
        for thread in readers:
            thread.start()
        for i in range(20):
            index.add([Document(f"n{i}", f"retrieval note {i} about running")])
            index.update([Document(f"n{i}", f"retrieval note {i} about runners")])
            if i % 3 == 0:
                index.remove([f"n{i}"])
        for thread in readers:
            thread.join()
        self.assertEqual(errors, [])
        self.assertEqual(len(index), 8 + 13)


class SpellingAndMorphologyTest(unittest.TestCase):
    def test_hashing_finds_variants_that_exact_terms_miss(self) -> None:
        docs = [
            Document("retrieval", "Information retrieval engines rank web pages."),
            Document("color", "Color perception in the human visual system."),
            Document("running", "Running improves cardiovascular fitness."),
            Document("pasta", "Pasta cooking needs salted boiling water."),
            Document("markets", "Stock markets fell sharply on Monday."),
            Document("volcano", "Volcanic eruptions release ash and gas."),
        ]
        index = VectorIndex.from_documents(docs, HashingEmbedder())
        bm25 = BM25Index.from_documents(docs)
        stemmed = Analyzer(stemmer="snowball")
        for query, expected in (("retreival", "retrieval"), ("colour", "color"), ("runner", "running")):
            with self.subTest(query=query):
                # Not one analysed (stemmed) term in common with any document: BM25 finds nothing.
                for doc in docs:
                    self.assertFalse(set(stemmed.analyze(query)) & set(stemmed.analyze(document_text(doc))))
                self.assertEqual(bm25.search(query, k=3), [])
                hits = index.search(query, k=3)
                self.assertEqual(hits[0].document_id, expected)
                self.assertGreater(hits[0].score, 0.05)
                self.assertGreater(hits[0].score, 2 * hits[1].score)


class PersistenceTest(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.folder = Path(self._tmp.name)

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def _saved_sparse(self) -> tuple[VectorIndex, Path]:
        index = VectorIndex(HashingEmbedder(seed=5))
        index.add(_CORPUS)
        index.remove(["d4"])
        path = self.folder / "sparse.idx"
        index.save(path)
        return index, path

    def test_sparse_round_trip_without_embedder(self) -> None:
        index, path = self._saved_sparse()
        loaded = VectorIndex.load(path)
        self.assertEqual(loaded.embedder, index.embedder)
        self.assertEqual([loaded.get(i) for i in loaded.document_ids()], [index.get(i) for i in index.document_ids()])
        for query in _QUERIES:
            self.assertEqual(_all_hits(loaded, query), _all_hits(index, query))
        self.assertEqual(_all_hits(VectorIndex.load(path, HashingEmbedder(seed=5)), "colour"), _all_hits(index, "colour"))
        loaded.add([Document("d4", "Pasta again.")])
        self.assertIn("d4", loaded)
        self.assertEqual([p.name for p in self.folder.iterdir()], ["sparse.idx"])  # no temporary left

    def test_sparse_load_refuses_other_settings(self) -> None:
        _, path = self._saved_sparse()
        with self.assertRaisesRegex(InvalidInputError, "differs from the saved one"):
            VectorIndex.load(path, HashingEmbedder(seed=6))
        with self.assertRaisesRegex(InvalidInputError, "differs from the saved one"):
            VectorIndex.load(path, _Lookup())  # type: ignore[arg-type]

    def test_dense_round_trip_needs_the_embedder(self) -> None:
        embedder = CallableEmbedder(HashingEmbedder(dimensions=32).embed, name="hashing-32")
        index = VectorIndex(embedder)
        index.add(_CORPUS)
        path = self.folder / "dense.idx"
        index.save(path)
        loaded = VectorIndex.load(path, embedder)
        for query in _QUERIES:
            self.assertEqual(_all_hits(loaded, query), _all_hits(index, query))
        with self.assertRaisesRegex(InvalidInputError, "'hashing-32' \\(dimension 32\\)"):
            VectorIndex.load(path)
        with self.assertRaisesRegex(InvalidInputError, "dimension 16, the saved index has 32"):
            VectorIndex.load(path, CallableEmbedder(HashingEmbedder(dimensions=16).embed, dimensions=16))
        with self.assertRaisesRegex(InvalidInputError, "sparse embedder cannot query it"):
            VectorIndex.load(path, HashingEmbedder())

    def test_empty_dense_index_round_trip(self) -> None:
        path = self.folder / "empty.idx"
        VectorIndex(_Lookup()).save(path)  # type: ignore[arg-type]
        loaded = VectorIndex.load(path, _Lookup())  # type: ignore[arg-type]
        self.assertEqual((len(loaded), loaded.search("q")), (0, []))
        loaded.add([Document("a", "a")])
        self.assertEqual([h.document_id for h in loaded.search("q")], ["a"])

    def test_damaged_files_are_refused(self) -> None:
        _, path = self._saved_sparse()
        data = path.read_bytes()
        damaged = {
            "truncated": data[:-7],
            "corrupted": data[:-20] + bytes([data[-20] ^ 0xFF]) + data[-19:],
            "future version": data[:8] + struct.pack("<I", 99) + data[12:],
            "not an index": b"hello world, this is not an index file",
        }
        for name, blob in damaged.items():
            target = self.folder / f"{name}.idx"
            target.write_bytes(blob)
            with self.subTest(name=name), self.assertRaises(IndexFormatError):
                VectorIndex.load(target)
        with self.assertRaises(IndexFormatError):
            VectorIndex.load(self.folder / "missing.idx")

    def test_inconsistent_or_future_layouts_are_refused(self) -> None:
        index, _ = self._saved_sparse()
        table = index._state.table  # the real sections, then one of them made inconsistent
        good_meta = {"layout": 1, "mode": "sparse", "normalize": True, "count": 0, "embedder": HashingEmbedder().to_dict()}
        sections = {
            "documents": b"[]",
            "dims": array_to_bytes(table.dims),  # type: ignore[union-attr]
            "offsets": array_to_bytes(table.offsets),  # type: ignore[union-attr]
            "rows": array_to_bytes(table.rows),  # type: ignore[union-attr]
            "weights": array_to_bytes(table.weights),  # type: ignore[union-attr]
        }
        cases = {
            "future layout": ({**good_meta, "layout": 2}, {"documents": b"[]"}),
            "rows out of range": (good_meta, sections),
            "other kind": (good_meta, {"documents": b"[]"}),
            "bad documents": ({**good_meta, "mode": "dense", "dimensions": 3}, {"documents": b"[{\"id\": 1}]", "vectors": b""}),
            "ragged vectors": ({**good_meta, "mode": "dense", "dimensions": 3}, {"documents": b"[]", "vectors": b"\0" * 12}),
        }
        for name, (meta, blobs) in cases.items():
            target = self.folder / f"{name}.idx"
            write_index_file(target, "bm25" if name == "other kind" else "vector", meta, blobs)
            with self.subTest(name=name), self.assertRaises(IndexFormatError):
                VectorIndex.load(target)


if __name__ == "__main__":
    unittest.main()
