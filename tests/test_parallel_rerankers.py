"""The Reranker contract applied to every reranker, plus each reranker's own behaviour."""

from __future__ import annotations

import unittest

from agentic_rag.testing.contracts import RerankerContract
from agentic_rag.testing.contracts.reranker import contract_hits, QUERY

from agentic_rag._contracts import Snippet
from agentic_rag._errors import InvalidInputError
from agentic_rag._parallel import LexicalReranker, MMRReranker, Reranker


def snippet(doc: str, text: str, score: float = 1.0) -> Snippet:
    return Snippet(id="", corpus_id="c", document_id=doc, text=text, score=score)


class TestLexicalRerankerContract(RerankerContract, unittest.TestCase):
    def make_reranker(self):
        return LexicalReranker()


class TestMMRRerankerContract(RerankerContract, unittest.TestCase):
    def make_reranker(self):
        return MMRReranker()


class TestMMRRerankerPureRelevanceContract(RerankerContract, unittest.TestCase):
    def make_reranker(self):
        return MMRReranker(lambda_=1.0)


class LexicalRerankerBehaviour(unittest.TestCase):
    def test_is_a_reranker(self):
        self.assertIsInstance(LexicalReranker(), Reranker)
        self.assertIsInstance(MMRReranker(), Reranker)

    def test_exact_phrase_beats_scattered_terms(self):
        hits = [
            snippet("scattered", "Tides matter to sailors. Far away, the ocean is deep.", 5.0),
            snippet("phrase", "Sailors watch the ocean tides closely.", 1.0),
        ]
        out = LexicalReranker(prior_weight=0.0).rerank("ocean tides", hits, 2)
        self.assertEqual([s.document_id for s in out], ["phrase", "scattered"])

    def test_features_golden(self):
        # Query terms (analysed): [ocean, tide]; passage terms: [ocean, current, move, tide]
        terms = ["ocean", "current", "move", "tide"]
        coverage, phrase, proximity, frequency = LexicalReranker.features(["ocean", "tide"], terms)
        self.assertEqual(coverage, 1.0)  # both query terms present
        self.assertEqual(phrase, 0.5)  # longest contiguous run of query terms: 1 of 2
        self.assertEqual(proximity, 2 / 4)  # 2 terms in a shortest window of 4 terms
        self.assertAlmostEqual(frequency, 1 / (1 + 1.2), places=12)  # tf 1 each, no length norm
        adjacent = LexicalReranker.features(["ocean", "tide"], ["the", "ocean", "tide"])
        self.assertEqual(adjacent[1:3], (1.0, 1.0))
        self.assertEqual(LexicalReranker.features(["ocean"], []), (0.0, 0.0, 0.0, 0.0))

    def test_score_replaces_the_retriever_score(self):
        out = LexicalReranker().rerank(QUERY, contract_hits(), 3)
        original = {h.id: h.score for h in contract_hits()}
        self.assertTrue(any(s.score != original[s.id] for s in out))

    def test_bad_weights_are_refused(self):
        with self.assertRaises(InvalidInputError):
            LexicalReranker(phrase_weight=-1)


class MMRRerankerBehaviour(unittest.TestCase):
    def test_near_duplicates_are_pushed_down(self):
        hits = [
            snippet("a", "ocean tides follow the moon", 3.0),
            snippet("b", "ocean tides follow the moon closely", 2.9),
            snippet("c", "volcanoes erupt with ash", 2.0),
            snippet("d", "glaciers carve valleys", 0.0),
        ]
        # Relevance (min-max): a 1, b 0.967, c 0.667, d 0. cos(a, b) = 4 / (2 * sqrt 5) = 0.894.
        # lambda 0.5, after a: b = 0.5 * 0.967 - 0.5 * 0.894 = 0.036 < c = 0.5 * 0.667 = 0.333.
        self.assertEqual([s.document_id for s in MMRReranker(lambda_=1.0).rerank("q", hits, 4)], ["a", "b", "c", "d"])
        self.assertEqual([s.document_id for s in MMRReranker(lambda_=0.5).rerank("q", hits, 4)], ["a", "c", "b", "d"])

    def test_lambda_out_of_range_is_refused(self):
        for value in (-0.1, 1.5, True):
            with self.subTest(value=value), self.assertRaises(InvalidInputError):
                MMRReranker(lambda_=value)


if __name__ == "__main__":
    unittest.main()
