"""LexicalReranker's mix of its lexical features with the first-stage score (``prior_weight``)."""

from __future__ import annotations

import unittest

from agentic_rag._contracts import Snippet
from agentic_rag._errors import InvalidInputError
from agentic_rag._parallel import LexicalReranker


def snippet(doc: str, text: str, score: float) -> Snippet:
    return Snippet(id="", corpus_id="c", document_id=doc, text=text, score=score)


HITS = [
    # First stage: "bm25-top" best. Lexically "phrase" is best (exact phrase, adjacent terms).
    snippet("bm25-top", "Ocean currents matter. Far from shore, tides rise.", 9.0),
    snippet("phrase", "Sailors watch the ocean tides closely.", 5.0),
    snippet("weak", "Soup recipes.", 1.0),
]


class FirstStageMixTest(unittest.TestCase):
    def test_score_golden(self) -> None:
        # Query terms [ocean, tide]; mean length over the hits (terms after stop words and
        # stemming): bm25-top 7, phrase 5, weak 2 -> 14 / 3.
        reranker = LexicalReranker(prior_weight=4.0)
        out = {s.document_id: s.score for s in reranker.rerank("ocean tides", HITS, 3)}
        mean = 14 / 3
        expected = {}
        for hit, prior in zip(HITS, (1.0, 0.5, 0.0)):  # min-max of 9, 5, 1
            terms = reranker.analyzer.analyze(hit.text)
            cov, phrase, prox, freq = LexicalReranker.features(["ocean", "tide"], terms, mean)
            expected[hit.document_id] = 1.0 * cov + 0.5 * phrase + 0.5 * prox + 0.5 * freq + 4.0 * prior
        self.assertEqual(out.keys(), expected.keys())
        for doc, value in expected.items():
            self.assertAlmostEqual(out[doc], value, places=12)
        # The features of "bm25-top" by hand: both terms, no adjacent run, window of 6 terms.
        cov, phrase, prox, _ = LexicalReranker.features(["ocean", "tide"], reranker.analyzer.analyze(HITS[0].text), mean)
        self.assertEqual((cov, phrase, prox), (1.0, 0.5, 2 / 6))

    def test_weight_moves_the_order_from_lexical_to_first_stage(self) -> None:
        def order(weight: float) -> list[str]:
            return [s.document_id for s in LexicalReranker(prior_weight=weight).rerank("ocean tides", HITS, 3)]

        self.assertEqual(order(0.0), ["phrase", "bm25-top", "weak"])
        self.assertEqual(order(100.0), ["bm25-top", "phrase", "weak"])
        # The default gives the first stage a share of 25 / 27.5 = 0.91: here it keeps BM25's order.
        self.assertEqual(LexicalReranker().weights[-1], 25.0)
        self.assertEqual(order(25.0), [s.document_id for s in LexicalReranker().rerank("ocean tides", HITS, 3)])
        self.assertEqual(order(25.0), ["bm25-top", "phrase", "weak"])

    def test_default_reorders_close_first_stage_scores(self) -> None:
        # Priors (min-max of 9, 8.85, 1): 1, 0.98125, 0. At weight 25 the gap is worth 0.469, less
        # than the 0.615 the features add to "phrase" over "bm25-top": phrase 0.5 * (1 - 0.5),
        # proximity 0.5 * (1 - 1/3), frequency 0.5 * (0.4416 - 0.3774).
        close = [HITS[0], snippet("phrase", HITS[1].text, 8.85), HITS[2]]
        self.assertEqual([s.document_id for s in LexicalReranker().rerank("ocean tides", close, 3)], ["phrase", "bm25-top", "weak"])

    def test_equal_first_stage_scores_leave_the_features_alone(self) -> None:
        flat = [snippet(h.document_id, h.text, 2.0) for h in HITS]
        self.assertEqual([s.document_id for s in LexicalReranker(prior_weight=50.0).rerank("ocean tides", flat, 3)],
                         [s.document_id for s in LexicalReranker(prior_weight=0.0).rerank("ocean tides", flat, 3)])

    def test_prior_weight_is_validated(self) -> None:
        for bad in (-1.0, float("inf"), float("nan"), True, "1"):
            with self.subTest(value=bad), self.assertRaisesRegex(InvalidInputError, "prior_weight must be a finite number >= 0"):
                LexicalReranker(prior_weight=bad)  # type: ignore[arg-type]


if __name__ == "__main__":
    unittest.main()
