"""RM3 with an interpolation weight (``original_query_weight``, Anserini's
``rm3.originalQueryWeight``): the feedback model, its interpolation with the query model, and
how the weights travel as repeated words."""

from __future__ import annotations

import unittest
from collections import Counter

from agentic_rag._contracts import Snippet
from agentic_rag._errors import InvalidInputError
from agentic_rag._parallel import FunctionRetriever, RewriteRequest, RM3Rewriter
from agentic_rag._contracts.corpus import Document
from agentic_rag._retrieval import BM25Index, BM25Retriever


def tide_retriever() -> FunctionRetriever:
    docs = [
        Snippet(id="", corpus_id="c", document_id="d1", text="Tides moon gravity gravity.", score=2.0),
        Snippet(id="", corpus_id="c", document_id="d2", text="Tides ocean gravity.", score=1.0),
    ]
    return FunctionRetriever(lambda q, k: docs[:k], name="bm25")


class FeedbackModelTest(unittest.TestCase):
    def test_feedback_model_golden(self) -> None:
        # P(D): d1 2/3, d2 1/3. Terms: d1 [tide, moon, graviti, graviti], d2 [tide, ocean, graviti].
        # P(graviti|R) = 2/3 * 2/4 + 1/3 * 1/3 = 8/18; P(tide|R) = 2/3 * 1/4 + 1/3 * 1/3 = 5/18;
        # P(moon|R) = 3/18; P(ocean|R) = 2/18. The top 3 (query term included, as in RM3),
        # renormalised over 16/18: 0.5, 0.3125, 0.1875.
        model = RM3Rewriter(tide_retriever(), feedback_terms=3, original_query_weight=0.5).feedback_model("tides")
        self.assertEqual([word for word, _ in model], ["gravity", "tides", "moon"])
        for (_, weight), expected in zip(model, (0.5, 0.3125, 0.1875)):
            self.assertAlmostEqual(weight, expected, places=12)

    def test_weighted_query_golden(self) -> None:
        # |Q| = 1, so the query is written max(4, 20 / 1) = 20 times and one copy is worth
        # alpha / 20 = 0.025. Extra copies: gravity 0.5 * 0.5 / 0.025 = 10, tides
        # 0.5 * 0.3125 / 0.025 = 6.25 -> 6, moon 0.5 * 0.1875 / 0.025 = 3.75 -> 4.
        rewriter = RM3Rewriter(tide_retriever(), feedback_terms=3, original_query_weight=0.5)
        words = Counter(rewriter.weighted_query("tides").split())
        self.assertEqual(words, Counter({"tides": 26, "gravity": 10, "moon": 4}))
        result = rewriter.rewrite(RewriteRequest("tides"))
        self.assertEqual(result.queries, (rewriter.weighted_query("tides"),))
        self.assertTrue(result.keep_original)

    def test_weights_follow_alpha(self) -> None:
        shares = []
        for alpha in (0.2, 0.5, 0.8):
            words = Counter(RM3Rewriter(tide_retriever(), feedback_terms=3, original_query_weight=alpha)
                            .weighted_query("ocean tides").split())
            shares.append((words["ocean"] + words["tides"]) / sum(words.values()))
            # The query model's share alpha, plus the feedback weight of "tides" (0.3125).
            expected = alpha + (1 - alpha) * 0.3125
            self.assertAlmostEqual(shares[-1], expected, delta=0.03)
        self.assertEqual(shares, sorted(shares))

    def test_long_queries_are_written_four_times(self) -> None:
        query = "ocean tides moon phases gravity pull sea level"  # 8 analysed terms: 20 / 8 < 4
        text = RM3Rewriter(tide_retriever(), original_query_weight=0.7).weighted_query(query)
        self.assertTrue(text.startswith(" ".join([query] * 4) + " "))
        self.assertNotIn(" ".join([query] * 5), text)

    def test_edges_give_the_query_itself(self) -> None:
        self.assertEqual(RM3Rewriter(tide_retriever(), original_query_weight=1.0).weighted_query("tides"), "tides")
        # Worth less than half a copy: 0.01 * 0.5 / (0.99 / 20) = 0.1.
        self.assertEqual(RM3Rewriter(tide_retriever(), feedback_terms=1, original_query_weight=0.99).weighted_query("tides"), "tides")
        empty = RM3Rewriter(FunctionRetriever(lambda q, k: []), original_query_weight=0.5)
        self.assertEqual(empty.rewrite(RewriteRequest("tides")).queries, ("tides",))
        stop_words_only = RM3Rewriter(tide_retriever(), original_query_weight=0.5)
        self.assertEqual(stop_words_only.weighted_query("the of"), "the of")
        # Without a query model the lightest kept feedback term is written 20 times.
        words = Counter(RM3Rewriter(tide_retriever(), feedback_terms=3, original_query_weight=0.0).weighted_query("tides").split())
        self.assertEqual(words["moon"], 20)
        self.assertEqual(words["gravity"], round(20 * 0.5 / 0.1875))

    def test_without_a_weight_terms_are_appended_once(self) -> None:
        rewriter = RM3Rewriter(tide_retriever(), feedback_terms=2, original_query_weight=None)
        self.assertEqual(rewriter.rewrite(RewriteRequest("tides")).queries, ("tides gravity moon",))
        with self.assertRaisesRegex(InvalidInputError, "weighted_query needs original_query_weight"):
            rewriter.weighted_query("tides")

    def test_weight_is_validated(self) -> None:
        for bad in (-0.1, 1.5, float("nan"), True, "0.5"):
            with self.subTest(value=bad), self.assertRaisesRegex(InvalidInputError, "original_query_weight must be"):
                RM3Rewriter(tide_retriever(), original_query_weight=bad)  # type: ignore[arg-type]
        self.assertEqual(RM3Rewriter(tide_retriever(), original_query_weight=1).original_query_weight, 1.0)
        self.assertEqual(RM3Rewriter(tide_retriever()).original_query_weight, 0.9)  # chosen on SciFact train

    def test_repetition_weights_bm25_as_the_interpolation_says(self) -> None:
        # BM25 counts a repeated query term that many times: a view written with weights
        # scores like the weighted sum of the single-term scores.
        docs = [Document(id=f"d{i}", text=text) for i, text in enumerate(
            ("tides and the moon", "gravity pulls the ocean", "moon gravity tides ocean", "soup"))]
        index = BM25Index.from_documents(docs)
        view = RM3Rewriter(BM25Retriever(index), feedback_docs=3, feedback_terms=3, original_query_weight=0.6).weighted_query("tides")
        counts = Counter(view.split())
        single = {word: {h.document_id: h.score for h in index.search(word, 10)} for word in counts}
        expected = {doc.id: sum(n * single[w].get(doc.id, 0.0) for w, n in counts.items()) for doc in docs}
        for hit in index.search(view, 10):
            self.assertAlmostEqual(hit.score, expected[hit.document_id], places=9)


if __name__ == "__main__":
    unittest.main()
