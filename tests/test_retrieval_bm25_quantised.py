"""The quantised BM25 pass: the very hits and scores of the exact passes, and it does run."""

from __future__ import annotations

import random
import tempfile
import unittest
from array import array
from pathlib import Path
from unittest import mock

from agentic_rag._contracts.corpus import Document
from agentic_rag._retrieval import bm25 as bm25_module
from agentic_rag._retrieval import bm25_derived as derived_module
from agentic_rag._retrieval import bm25_quantised as quantised_module
from agentic_rag._retrieval.bm25 import BM25Index
from agentic_rag._text.analyzer import Analyzer

from test_retrieval_bm25_pruning import PLAIN, SETTINGS, random_corpus, random_queries


class _Counting:
    """Wraps rank_quantised to count the searches it answered (not handed back)."""

    def __init__(self) -> None:
        self.answered = 0
        self.declined = 0
        self._real = quantised_module.rank_quantised

    def __call__(self, *args: object, **kwargs: object) -> object:
        result = self._real(*args, **kwargs)
        if result is None:
            self.declined += 1
        else:
            self.answered += 1
        return result


def repeated_word_queries(seed: int, count: int) -> list[str]:
    """Queries that repeat words (query term frequency above 1)."""
    rng = random.Random(seed)
    return [" ".join(rng.choice([f"w{i}", f"w{i} w{i}", f"w{i} w{i} w{i}"]) for i in rng.sample(range(40), rng.randint(1, 6)))
            for _ in range(count)]


class QuantisedEqualsExactTest(unittest.TestCase):
    def compare(self, index: BM25Index, queries: list[str], ks: tuple[int, ...]) -> _Counting:
        counter = _Counting()
        with mock.patch.object(bm25_module, "rank_quantised", counter):
            for query in queries:
                for k in ks:
                    quantised = index.search(query, k)
                    maxscore = index.search(query, k, quantised=False)
                    exhaustive = index.search(query, k, exhaustive=True)
                    self.assertEqual(quantised, exhaustive, f"query {query!r} k={k}")
                    self.assertEqual(maxscore, exhaustive, f"query {query!r} k={k}")
                    # Same floats bit for bit, not merely equal within a tolerance.
                    self.assertEqual([h.score.hex() for h in quantised], [h.score.hex() for h in exhaustive])
        return counter

    def test_every_variant_on_random_corpora(self) -> None:
        docs = random_corpus(41)
        queries = random_queries(42, 100) + repeated_word_queries(43, 30)
        for settings in SETTINGS:
            with self.subTest(**settings):
                index = BM25Index.from_documents(docs, analyzer=PLAIN, **settings)
                counter = self.compare(index, queries, (1, 3, 10, 50))
                self.assertGreater(counter.answered, 200, "the quantised pass should answer most of these searches")

    def test_all_dense_all_sparse_and_no_cache_budget(self) -> None:
        docs = random_corpus(51, size=400)
        queries = random_queries(52, 60) + repeated_word_queries(53, 15)
        patches = [
            {"_DENSE_DIVISOR": 10**9},  # every term dense
            {"_DENSE_DIVISOR": 0},  # no term dense
            {"_DENSE_FLOOR": 0, "_DENSE_BYTES_PER_POSTING": 0},  # dense lanes built per search, never kept
        ]
        for patch in patches:
            with self.subTest(**patch), mock.patch.multiple(derived_module, _SMALL_QUERY_DIVISOR=10**9, **patch):
                index = BM25Index.from_documents(docs, analyzer=PLAIN)
                counter = self.compare(index, queries, (1, 10, 40))
                self.assertGreater(counter.answered, 150)
                self.assertEqual(counter.declined, 0)

    def test_rare_postings_in_either_buffer(self) -> None:
        docs = random_corpus(56, size=400)
        queries = random_queries(57, 60) + repeated_word_queries(58, 15)
        for divisor in (0, 10**9):  # always the final lanes; always a buffer of their own
            with self.subTest(divisor=divisor), mock.patch.object(quantised_module, "_SEPARATE_SPARSE_DIVISOR", divisor), \
                    mock.patch.object(derived_module, "_SMALL_QUERY_DIVISOR", 10**9):
                index = BM25Index.from_documents(docs, analyzer=PLAIN)
                self.assertGreater(self.compare(index, queries, (1, 10)).answered, 100)

    def test_many_ties_break_by_id(self) -> None:
        docs = [Document(f"t{n:03d}", "alpha beta" if n % 3 else "alpha gamma") for n in range(300)]
        with mock.patch.object(derived_module, "_SMALL_QUERY_DIVISOR", 10**9):
            index = BM25Index.from_documents(docs, analyzer=PLAIN)
            counter = self.compare(index, ["alpha", "alpha beta", "gamma alpha", "beta gamma", "alpha alpha beta"],
                                   (1, 7, 30, 150, 400))
        self.assertGreater(counter.answered, 0)
        self.assertEqual([h.document_id for h in index.search("alpha beta", 3)], ["t001", "t002", "t004"])

    def test_after_updates_and_load(self) -> None:
        docs = random_corpus(61, size=500)
        queries = random_queries(62, 40)
        with mock.patch.object(derived_module, "_SMALL_QUERY_DIVISOR", 10**9):
            index = BM25Index.from_documents(docs[:300], analyzer=PLAIN)
            index.add(docs[300:])  # a small add: levels and lanes are built lazily, per search
            index.remove([d.id for d in docs[:40]])
            index.update([Document(d.id, d.text + " w1 w2", title=d.title) for d in docs[100:120]])
            self.assertGreater(self.compare(index, queries, (1, 10)).answered, 0)
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "index.bm25"
                index.save(path)
                loaded = BM25Index.load(path)
            for query in queries:
                self.assertEqual(loaded.search(query, 10), index.search(query, 10))

    def test_same_results_from_two_builds(self) -> None:
        docs = random_corpus(71, size=300)
        queries = random_queries(72, 50)
        first = BM25Index.from_documents(docs, analyzer=PLAIN)
        second = BM25Index.from_documents(list(reversed(docs)), analyzer=PLAIN)
        for query in queries:
            one, two = first.search(query, 10), second.search(query, 10)
            self.assertEqual([(h.document_id, h.score.hex()) for h in one], [(h.document_id, h.score.hex()) for h in two])


class QuantisedEdgeCasesTest(unittest.TestCase):
    def test_lane_overflow_falls_back_to_the_exact_pass(self) -> None:
        # 80 rare terms, each saturated in its own document: each term's largest level is
        # near the maximum, so their sum exceeds what a 16-bit lane holds.
        words = [f"v{i}" for i in range(80)]
        docs = [Document(f"d{n:02d}", " ".join([word] * 60 + ["w1"] * (n % 5))) for n, word in enumerate(words)]
        index = BM25Index.from_documents(docs, analyzer=PLAIN)
        counter = _Counting()
        query = " ".join(words)
        with mock.patch.object(bm25_module, "rank_quantised", counter):
            hits = index.search(query, 5)
        self.assertEqual(counter.declined, 1)
        self.assertEqual(hits, index.search(query, 5, exhaustive=True))

    def test_negative_impacts_use_the_exact_pass(self) -> None:
        # Robertson idf is negative for a term in most of three documents.
        docs = [Document("a", "x y"), Document("b", "x z"), Document("c", "y")]
        index = BM25Index.from_documents(docs, analyzer=PLAIN, variant="robertson")
        for query in ("x", "x y", "y z", "x x z"):
            self.assertEqual(index.search(query, 3), index.search(query, 3, exhaustive=True))

    def test_fewer_matches_than_k_and_single_document(self) -> None:
        with mock.patch.object(derived_module, "_SMALL_QUERY_DIVISOR", 10**9):
            index = BM25Index.from_documents([Document("only", "alpha beta")], analyzer=PLAIN)
            self.assertEqual([h.document_id for h in index.search("beta", 10)], ["only"])
            docs = [Document(f"d{n}", "common " + ("rare" if n == 3 else "other")) for n in range(50)]
            index = BM25Index.from_documents(docs, analyzer=PLAIN)
            self.assertEqual(index.search("rare common", 100), index.search("rare common", 100, exhaustive=True))
            self.assertEqual(len(index.search("rare common", 100)), 50)

    def test_dense_lanes_and_quantise(self) -> None:
        docs, levels = array("i", [0, 3, 4]), array("H", [7, 1023, 1])
        lanes = quantised_module.dense_lanes(docs, levels, 6)
        self.assertEqual([(lanes >> (16 * d)) & 0xFFFF for d in range(6)], [7, 0, 0, 1023, 1, 0])
        self.assertEqual(list(quantised_module.quantise([0.0, 0.5, 1.0], 1022.0)), [1, 512, 1023])

    def test_positions_and_kth_byte(self) -> None:
        data = bytes([0, 9, 3, 9, 200, 1, 0, 3])
        self.assertEqual(quantised_module._positions(data, 9), [1, 3, 4])
        self.assertEqual(quantised_module._positions(data, 1, 3), [2, 5, 7])
        self.assertEqual(quantised_module._kth_largest_byte(data, 1), 200)
        self.assertEqual(quantised_module._kth_largest_byte(data, 3), 9)
        self.assertEqual(quantised_module._kth_largest_byte(data, 7), 0)

    def test_default_analyzer_corpus(self) -> None:
        docs = [Document(f"p{n}", text) for n, text in enumerate(
            ["The cat sat on the mat.", "Cats and dogs living together.", "A dog barked at the cat.",
             "Nothing here matches.", "The mat was red; the cat was black."] * 20)]
        with mock.patch.object(derived_module, "_SMALL_QUERY_DIVISOR", 10**9):
            index = BM25Index.from_documents(docs, analyzer=Analyzer())
            for query in ("cat", "cat mat", "dogs cats", "red cat cat", "unknown words"):
                self.assertEqual(index.search(query, 7), index.search(query, 7, exhaustive=True))


if __name__ == "__main__":
    unittest.main()
