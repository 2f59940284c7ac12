"""Golden values for the IR metrics, worked out by hand (the arithmetic is in the comments).

Logs used throughout: log2(2) = 1, log2(3) = 1.5849625, log2(4) = 2, log2(5) = 2.3219281,
so 1/log2(3) = 0.6309298 and 1/log2(5) = 0.4306766.
"""

from __future__ import annotations

import dataclasses
import unittest

from agentic_rag._errors import InvalidInputError
from agentic_rag.evaluation.ir_metrics import (
    SUPPORTED_METRICS,
    RunEvaluation,
    average_precision,
    evaluate_run,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)

# Binary case: two of three relevant docs retrieved, at ranks 2 and 4; d9 is never retrieved.
RANKING = ["d1", "d2", "d3", "d4", "d5"]
BINARY = {"d2": 1, "d4": 1, "d9": 1, "d3": 0}

# Graded case: grades 3, 2, 1; the ranking puts the weakest first and the best at rank 4.
GRADED_RANKING = ["c", "b", "x", "a"]
GRADED = {"a": 3, "b": 2, "c": 1}

PLACES = 6


class BinaryGoldenTest(unittest.TestCase):
    def test_precision(self) -> None:
        self.assertEqual(precision_at_k(RANKING, BINARY, 1), 0.0)  # d1 not relevant
        self.assertEqual(precision_at_k(RANKING, BINARY, 2), 0.5)  # d2 hit: 1/2
        self.assertEqual(precision_at_k(RANKING, BINARY, 5), 0.4)  # d2, d4: 2/5
        # k beyond the ranking still divides by k (trec_eval P_k): 2/10.
        self.assertEqual(precision_at_k(RANKING, BINARY, 10), 0.2)

    def test_recall(self) -> None:
        self.assertEqual(recall_at_k(RANKING, BINARY, 1), 0.0)
        self.assertAlmostEqual(recall_at_k(RANKING, BINARY, 2), 1 / 3, places=PLACES)  # d2 of 3
        self.assertAlmostEqual(recall_at_k(RANKING, BINARY, 5), 2 / 3, places=PLACES)  # d2, d4
        # k beyond the ranking: still 2 of 3, d9 was never retrieved.
        self.assertAlmostEqual(recall_at_k(RANKING, BINARY, 100), 0.666667, places=PLACES)

    def test_reciprocal_rank(self) -> None:
        self.assertEqual(reciprocal_rank(RANKING, BINARY), 0.5)  # first hit d2 at rank 2
        self.assertEqual(reciprocal_rank(RANKING, BINARY, k=2), 0.5)
        self.assertEqual(reciprocal_rank(RANKING, BINARY, k=1), 0.0)  # hit is below the cutoff

    def test_average_precision(self) -> None:
        # Hits at ranks 2 and 4: precisions 1/2 and 2/4; divided by all 3 relevant docs:
        # (0.5 + 0.5) / 3 = 0.333333.
        self.assertAlmostEqual(average_precision(RANKING, BINARY), 0.333333, places=PLACES)

    def test_ndcg(self) -> None:
        # DCG@5 = 1/log2(3) + 1/log2(5) = 0.6309298 + 0.4306766 = 1.0616063
        # IDCG@5 = 1/log2(2) + 1/log2(3) + 1/log2(4) = 1 + 0.6309298 + 0.5 = 2.1309298
        # nDCG@5 = 1.0616063 / 2.1309298 = 0.498189
        self.assertAlmostEqual(ndcg_at_k(RANKING, BINARY, 5), 0.498189, places=PLACES)
        # DCG@2 = 0.6309298; IDCG@2 = 1 + 0.6309298 = 1.6309298; nDCG@2 = 0.386853
        self.assertAlmostEqual(ndcg_at_k(RANKING, BINARY, 2), 0.386853, places=PLACES)
        # k beyond the ranking: DCG is unchanged, IDCG still has only 3 relevant docs.
        self.assertAlmostEqual(ndcg_at_k(RANKING, BINARY, 50), 0.498189, places=PLACES)

    def test_perfect_and_empty_rankings(self) -> None:
        perfect = ["d2", "d4", "d9"]
        self.assertEqual(ndcg_at_k(perfect, BINARY, 3), 1.0)
        self.assertEqual(average_precision(perfect, BINARY), 1.0)
        self.assertEqual(recall_at_k(perfect, BINARY, 3), 1.0)
        for value in (ndcg_at_k([], BINARY, 10), recall_at_k([], BINARY, 10),
                      precision_at_k([], BINARY, 10), reciprocal_rank([], BINARY),
                      average_precision([], BINARY)):
            self.assertEqual(value, 0.0)


class GradedNdcgTest(unittest.TestCase):
    def test_linear_gain(self) -> None:
        # DCG@4 = 1/log2(2) + 2/log2(3) + 0/log2(4) + 3/log2(5)
        #       = 1 + 1.2618595 + 0 + 1.2920297 = 3.5538892
        # IDCG@4 from grades sorted 3, 2, 1 = 3/1 + 2/log2(3) + 1/log2(4)
        #       = 3 + 1.2618595 + 0.5 = 4.7618595
        # nDCG@4 = 3.5538892 / 4.7618595 = 0.746324
        self.assertAlmostEqual(ndcg_at_k(GRADED_RANKING, GRADED, 4), 0.746324, places=PLACES)

    def test_gain_is_the_grade_not_exponential(self) -> None:
        # Top-1 is c (grade 1), the ideal top-1 is a (grade 3): 1/3 with linear gain
        # (exponential gain 2^rel - 1 would give 1/7).
        self.assertAlmostEqual(ndcg_at_k(GRADED_RANKING, GRADED, 1), 1 / 3, places=PLACES)

    def test_ideal_is_cut_at_k(self) -> None:
        qrels = {"a": 1, "b": 1, "c": 1}
        self.assertEqual(ndcg_at_k(["a"], qrels, 1), 1.0)  # ideal top-1 holds one doc too
        # DCG@3 = 1; IDCG@3 = 1 + 0.6309298 + 0.5 = 2.1309298; nDCG@3 = 0.469279
        self.assertAlmostEqual(ndcg_at_k(["a"], qrels, 3), 0.469279, places=PLACES)

    def test_best_order_scores_one(self) -> None:
        self.assertAlmostEqual(ndcg_at_k(["a", "b", "c"], GRADED, 3), 1.0, places=12)

    def test_negative_grade_is_not_relevant(self) -> None:
        qrels = {"a": -1, "b": 1}
        # DCG@2 = 0 + 1/log2(3) = 0.630930; IDCG@2 = 1 (only b counts).
        self.assertAlmostEqual(ndcg_at_k(["a", "b"], qrels, 2), 0.630930, places=PLACES)
        self.assertEqual(precision_at_k(["a", "b"], qrels, 2), 0.5)
        self.assertEqual(recall_at_k(["a", "b"], qrels, 2), 1.0)


class EdgeCaseTest(unittest.TestCase):
    def test_no_relevant_documents_scores_zero(self) -> None:
        for qrels in ({}, {"d1": 0}):
            with self.subTest(qrels=qrels):
                self.assertEqual(ndcg_at_k(RANKING, qrels, 10), 0.0)
                self.assertEqual(recall_at_k(RANKING, qrels, 10), 0.0)
                self.assertEqual(precision_at_k(RANKING, qrels, 10), 0.0)
                self.assertEqual(reciprocal_rank(RANKING, qrels), 0.0)
                self.assertEqual(average_precision(RANKING, qrels), 0.0)

    def test_duplicate_relevant_id_counts_once(self) -> None:
        ranking = ["d2", "d2", "d4"]  # de-duplicated: d2, d4
        qrels = {"d2": 1, "d4": 1}
        self.assertEqual(precision_at_k(ranking, qrels, 2), 1.0)  # 2/2, not d2 twice
        self.assertEqual(recall_at_k(ranking, qrels, 2), 1.0)  # d4 moves into the top 2
        self.assertEqual(ndcg_at_k(ranking, qrels, 2), 1.0)  # never above 1
        self.assertEqual(average_precision(ranking, qrels), 1.0)  # (1/1 + 2/2) / 2

    def test_duplicate_irrelevant_id_counts_once(self) -> None:
        ranking = ["x", "x", "x", "d2"]  # de-duplicated: x, d2
        self.assertEqual(reciprocal_rank(ranking, {"d2": 1}), 0.5)  # rank 2, not 4
        self.assertEqual(precision_at_k(ranking, {"d2": 1}, 2), 0.5)

    def test_bad_k_is_refused(self) -> None:
        for k in (0, -1, 1.5, True, "3", None):
            with self.subTest(k=k):
                with self.assertRaisesRegex(InvalidInputError, "k must be an int >= 1"):
                    ndcg_at_k(RANKING, BINARY, k)  # type: ignore[arg-type]
                with self.assertRaises(InvalidInputError):
                    recall_at_k(RANKING, BINARY, k)  # type: ignore[arg-type]
                with self.assertRaises(InvalidInputError):
                    precision_at_k(RANKING, BINARY, k)  # type: ignore[arg-type]
        with self.assertRaisesRegex(InvalidInputError, "or None"):
            reciprocal_rank(RANKING, BINARY, k=0)

    def test_bad_ranking_and_qrels_are_refused(self) -> None:
        with self.assertRaisesRegex(InvalidInputError, "ranked_ids"):
            recall_at_k("d1 d2", BINARY, 5)  # a bare string is not a ranking
        with self.assertRaisesRegex(InvalidInputError, "str document ids"):
            recall_at_k(["d1", 2], BINARY, 5)  # type: ignore[list-item]
        for qrels in ({"d1": 1.0}, {"d1": True}, {1: 1}, [("d1", 1)]):
            with self.subTest(qrels=qrels), self.assertRaisesRegex(InvalidInputError, "qrels"):
                average_precision(RANKING, qrels)  # type: ignore[arg-type]


class EvaluateRunTest(unittest.TestCase):
    RUN = {"q1": RANKING, "q2": ["a", "x"], "unjudged": ["a"]}
    QRELS = {"q1": BINARY, "q2": {"a": 1}, "q3": {"z": 1}}

    def test_means_over_every_qrels_query(self) -> None:
        result = evaluate_run(self.RUN, self.QRELS, ["ndcg@10", "MRR", "map", "p@2", "recall@100", "mrr@1"])
        self.assertEqual(result.metrics, ("ndcg@10", "mrr", "map", "p@2", "recall@100", "mrr@1"))
        self.assertEqual(result.num_queries, 3)  # "unjudged" is ignored, q3 counts as 0
        self.assertEqual(result.unranked_query_ids, ("q3",))
        # nDCG@10: q1 0.498189 (as above), q2 1 (a at rank 1), q3 0 -> 1.498189 / 3
        self.assertAlmostEqual(result.mean("ndcg@10"), 0.499396, places=PLACES)
        self.assertAlmostEqual(result.mean("mrr"), 0.5, places=12)  # (1/2 + 1 + 0) / 3
        self.assertAlmostEqual(result.mean("map"), 4 / 9, places=12)  # (1/3 + 1 + 0) / 3
        self.assertAlmostEqual(result.mean("p@2"), 1 / 3, places=12)  # (1/2 + 1/2 + 0) / 3
        self.assertAlmostEqual(result.mean("recall@100"), 5 / 9, places=12)  # (2/3 + 1 + 0) / 3
        self.assertAlmostEqual(result.mean("MRR@1"), 1 / 3, places=12)  # (0 + 1 + 0) / 3
        self.assertEqual(result.means[1], result.mean("mrr"))

    def test_per_query_values_are_sorted_and_complete(self) -> None:
        result = evaluate_run(self.RUN, self.QRELS, ["mrr", "map"])
        self.assertEqual(
            result.per_query,
            (("q1", "map", 1 / 3), ("q1", "mrr", 0.5), ("q2", "map", 1.0), ("q2", "mrr", 1.0),
             ("q3", "map", 0.0), ("q3", "mrr", 0.0)),
        )
        self.assertEqual(result.query_values("mrr"), (("q1", 0.5), ("q2", 1.0), ("q3", 0.0)))

    def test_default_metrics(self) -> None:
        result = evaluate_run(self.RUN, self.QRELS)
        self.assertEqual(result.metrics, ("ndcg@10", "recall@100"))

    def test_input_order_does_not_change_the_result(self) -> None:
        reversed_run = dict(reversed(list(self.RUN.items())))
        reversed_qrels = dict(reversed(list(self.QRELS.items())))
        self.assertEqual(evaluate_run(self.RUN, self.QRELS, ["map"]),
                         evaluate_run(reversed_run, reversed_qrels, ["map"]))

    def test_supported_names_come_from_the_registry(self) -> None:
        self.assertEqual(SUPPORTED_METRICS, ("ndcg@k", "recall@k", "p@k", "mrr", "mrr@k", "map"))
        with self.assertRaises(InvalidInputError) as caught:
            evaluate_run(self.RUN, self.QRELS, ["bleu"])
        for name in SUPPORTED_METRICS:
            self.assertIn(name, str(caught.exception))

    def test_malformed_metric_names_are_refused(self) -> None:
        for name in ("ndcg", "recall", "p", "map@10", "ndcg@0", "ndcg@x", "recall@-1", "mrr@", "", 10):
            with self.subTest(name=name), self.assertRaisesRegex(InvalidInputError, "unknown metric"):
                evaluate_run(self.RUN, self.QRELS, [name])  # type: ignore[list-item]

    def test_bad_arguments_are_refused(self) -> None:
        with self.assertRaisesRegex(InvalidInputError, "twice"):
            evaluate_run(self.RUN, self.QRELS, ["ndcg@10", "NDCG@10"])
        with self.assertRaisesRegex(InvalidInputError, "list or tuple"):
            evaluate_run(self.RUN, self.QRELS, "ndcg@10")
        with self.assertRaisesRegex(InvalidInputError, "non-empty"):
            evaluate_run(self.RUN, {}, ["map"])
        with self.assertRaisesRegex(InvalidInputError, "ranked_ids"):
            evaluate_run({"q1": "d1"}, self.QRELS, ["map"])
        with self.assertRaisesRegex(InvalidInputError, "for query 'q2'"):
            evaluate_run(self.RUN, {"q2": {"a": "1"}}, ["map"])
        result = evaluate_run(self.RUN, self.QRELS, ["map"])
        with self.assertRaisesRegex(InvalidInputError, "not evaluated"):
            result.mean("p@5")

    def test_result_is_frozen_and_validated(self) -> None:
        result = evaluate_run(self.RUN, self.QRELS, ["map"])
        with self.assertRaises(dataclasses.FrozenInstanceError):
            result.num_queries = 4  # type: ignore[misc]
        with self.assertRaises(InvalidInputError):
            RunEvaluation(metrics=("map",), means=(0.1, 0.2), per_query=(("q", "map", 0.1),), num_queries=1)
        with self.assertRaises(InvalidInputError):
            RunEvaluation(metrics=("map",), means=(0.1,), per_query=(), num_queries=1)


if __name__ == "__main__":
    unittest.main()
