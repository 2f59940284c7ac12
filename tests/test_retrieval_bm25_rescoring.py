"""The quantised pass's exact rescoring: every way it reads a candidate's frequencies gives
the exhaustive pass's hits and scores, bit for bit."""

from __future__ import annotations

import dataclasses
import unittest
from array import array
from unittest import mock

from agentic_rag._contracts.corpus import Document
from agentic_rag._retrieval import bm25 as bm25_module
from agentic_rag._retrieval import bm25_derived as derived_module
from agentic_rag._retrieval import bm25_quantised as quantised_module
from agentic_rag._retrieval.bm25 import BM25Index
from agentic_rag._retrieval.hits import SearchHit, ranked_hits

from test_retrieval_bm25_pruning import PLAIN, SETTINGS, random_corpus, random_queries
from test_retrieval_bm25_quantised import repeated_word_queries


class _Answered:
    """Wraps rank_quantised to count the searches it answered itself."""

    def __init__(self) -> None:
        self.answered = 0
        self._real = quantised_module.rank_quantised

    def __call__(self, *args: object, **kwargs: object) -> object:
        result = self._real(*args, **kwargs)
        self.answered += result is not None
        return result


class RescoringPathsTest(unittest.TestCase):
    def check(self, index: BM25Index, queries: list[str], ks: tuple[int, ...]) -> int:
        counter = _Answered()
        with mock.patch.object(bm25_module, "rank_quantised", counter):
            for query in queries:
                for k in ks:
                    quantised = index.search(query, k)
                    exhaustive = index.search(query, k, exhaustive=True)
                    self.assertEqual([(h.document_id, h.score.hex()) for h in quantised],
                                     [(h.document_id, h.score.hex()) for h in exhaustive], f"query {query!r} k={k}")
        return counter.answered

    def test_term_by_term_and_early_stop_rescoring(self) -> None:
        docs = random_corpus(81, size=400)
        queries = random_queries(82, 50) + repeated_word_queries(83, 15)
        for limit in (0, 10**9):  # never term by term (the early-stop pass); always
            for settings in SETTINGS:
                with self.subTest(limit=limit, **settings), \
                        mock.patch.object(quantised_module, "_BY_TERM_CANDIDATES", limit), \
                        mock.patch.object(derived_module, "_SMALL_QUERY_DIVISOR", 10**9):
                    index = BM25Index.from_documents(docs, analyzer=PLAIN, **settings)
                    self.assertGreater(self.check(index, queries, (1, 10, 40)), 100)

    def test_without_dense_frequencies(self) -> None:
        # Every term's frequencies read from its postings: intersected with the candidates
        # or binary-searched, whatever the list's length.
        docs = random_corpus(86, size=400)
        queries = random_queries(87, 50) + repeated_word_queries(88, 15)
        for ratio in (0, 10**9):
            with self.subTest(ratio=ratio), mock.patch.object(derived_module, "dense_tfs", lambda *args: None), \
                    mock.patch.object(quantised_module, "_INTERSECT_RATIO", ratio), \
                    mock.patch.object(derived_module, "_SMALL_QUERY_DIVISOR", 10**9):
                index = BM25Index.from_documents(docs, analyzer=PLAIN)
                self.assertGreater(self.check(index, queries, (1, 10, 40)), 100)
                self.assertFalse(any(unit.dense_tfs for unit in index._cache._units.values() if unit is not None))

    def test_dense_frequency_budget_runs_out(self) -> None:
        docs = random_corpus(91, size=400)
        queries = random_queries(92, 60)
        with mock.patch.multiple(derived_module, _SMALL_QUERY_DIVISOR=10**9, _DENSE_FLOOR=0, _DENSE_BYTES_PER_POSTING=1):
            index = BM25Index.from_documents(docs, analyzer=PLAIN)
            self.assertGreater(self.check(index, queries, (1, 10)), 50)
        units = [u for u in index._cache._units.values() if u is not None and u.dense is not None]
        built = [u for u in units if u.dense_tfs]
        self.assertTrue(built, "some terms should get dense frequencies")
        self.assertLess(len(built), len(units), "the budget should leave some terms without")

    def test_rare_term_frequency_dicts(self) -> None:
        # Rare terms' {doc: tf} dicts: within the budget (some terms get one, the others read
        # their postings), and with none at all; the hits stay the exact pass's either way.
        docs = random_corpus(93, size=400)
        queries = random_queries(94, 50) + repeated_word_queries(95, 15)
        cases = [(128, True, 8), (10**12, False, 0), (10**12, False, 10**9)]  # 128: the budget runs out here
        for share, some, ratio in cases:  # without dicts: rare terms binary-searched, or intersected
            with self.subTest(share=share, ratio=ratio), mock.patch.object(quantised_module, "_INTERSECT_RATIO", ratio), \
                    mock.patch.multiple(derived_module, _TF_DICT_SHARE=share, _SMALL_QUERY_DIVISOR=10**9):
                index = BM25Index.from_documents(docs, analyzer=PLAIN)
                self.assertGreater(self.check(index, queries, (1, 10, 40)), 100)
                units = [u for u in index._cache._units.values() if u is not None and u.dense is None]
                with_dict = [u for u in units if u.tf_of is not None]
                self.assertEqual(bool(with_dict), some)
                if some:
                    self.assertLess(len(with_dict), len(units), "the budget should leave some terms without")
                for unit in with_dict:
                    self.assertEqual(unit.tf_of, dict(zip(unit.docs, unit.tfs)))

    def test_lane_offsets(self) -> None:
        # Dense lanes built at other offsets: sums left in place, shifted down, or (offset 0)
        # never scaled up; the same hits whatever the offset.
        docs = random_corpus(96, size=400)
        queries = random_queries(97, 40) + repeated_word_queries(98, 10)
        for offset in (0, 2, 4, 8):
            with self.subTest(offset=offset), mock.patch.object(quantised_module, "LANE_OFFSET", offset), \
                    mock.patch.multiple(derived_module, LANE_OFFSET=offset, _SMALL_QUERY_DIVISOR=10**9):
                index = BM25Index.from_documents(docs, analyzer=PLAIN)
                self.assertGreater(self.check(index, queries, (1, 10)), 50)

    def test_dense_tfs(self) -> None:
        docs = array("i", [0, 2, 5])
        self.assertEqual(quantised_module.dense_tfs(docs, array("d", [3.0, 1.0, 255.0]), 7), bytes([3, 0, 1, 0, 0, 255, 0]))
        # Frequencies a byte cannot hold exactly: none (the postings are read instead).
        self.assertIsNone(quantised_module.dense_tfs(docs, array("d", [3.0, 2.5, 1.0]), 7))
        self.assertIsNone(quantised_module.dense_tfs(docs, array("d", [3.0, 256.0, 1.0]), 7))


class RankedHitsTest(unittest.TestCase):
    def test_equal_to_the_public_constructor(self) -> None:
        documents = [Document("a", "x", corpus_id="papers"), Document("b", "y")]
        hits = ranked_hits([(1, 2.5), (0, 1.0)], ["a", "b"], documents)
        self.assertEqual(hits, [SearchHit("b", 2.5), SearchHit("a", 1.0, "papers")])
        self.assertEqual([hash(h) for h in hits], [hash(SearchHit("b", 2.5)), hash(SearchHit("a", 1.0, "papers"))])
        self.assertEqual(hits[1].to_dict(), {"document_id": "a", "score": 1.0, "corpus_id": "papers"})
        with self.assertRaises(dataclasses.FrozenInstanceError):
            hits[0].score = 3.0  # type: ignore[misc]


if __name__ == "__main__":
    unittest.main()
