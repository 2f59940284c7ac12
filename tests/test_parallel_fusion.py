"""Golden tests for rank fusion: RRF, relative-score fusion and distribution-based fusion.

Every expected value is worked out by hand in the test, from the definitions in
``agentic_rag._parallel.fusion`` (RRF: ``w / (k + rank)``, ranks from 1, k = 60).
"""

from __future__ import annotations

import dataclasses
import json
import math
import unittest

from agentic_rag._contracts import Snippet
from agentic_rag._errors import InvalidInputError
from agentic_rag._parallel.evidence import Contribution
from agentic_rag._parallel import (
    FusedDocument,
    FusionMethod,
    RankedList,
    distribution_based_score_fusion,
    fuse,
    fuse_ranked_lists,
    reciprocal_rank_fusion,
    relative_score_fusion,
)
from agentic_rag._retrieval.hits import SearchHit

A = ["d1", "d2", "d3"]
B = ["d3", "d1", "d4"]


def scores(fused):
    return {d.document_id: d.score for d in fused}


def order(fused):
    return [d.document_id for d in fused]


class ReciprocalRankFusionGolden(unittest.TestCase):
    def test_paper_definition_k60_ranks_from_one(self):
        fused = reciprocal_rank_fusion([A, B])
        # d1: 1/(60+1) + 1/(60+2) = 0.016393443 + 0.016129032 = 0.032522475
        # d3: 1/(60+3) + 1/(60+1) = 0.015873016 + 0.016393443 = 0.032266459
        # d2: 1/(60+2)            = 0.016129032
        # d4: 1/(60+3)            = 0.015873016
        self.assertEqual(order(fused), ["d1", "d3", "d2", "d4"])
        got = scores(fused)
        self.assertAlmostEqual(got["d1"], 1 / 61 + 1 / 62, places=15)
        self.assertAlmostEqual(got["d1"], 0.032522475, places=8)
        self.assertAlmostEqual(got["d3"], 0.032266459, places=8)
        self.assertAlmostEqual(got["d2"], 0.016129032, places=8)
        self.assertAlmostEqual(got["d4"], 0.015873016, places=8)
        self.assertEqual([d.rank for d in fused], [1, 2, 3, 4])

    def test_rank_constant(self):
        fused = reciprocal_rank_fusion([A, B], k=0)
        # d1: 1/1 + 1/2 = 1.5; d3: 1/3 + 1/1 = 1.3333; d2: 1/2; d4: 1/3
        self.assertEqual(scores(fused), {"d1": 1.5, "d3": 1 / 3 + 1.0, "d2": 0.5, "d4": 1 / 3})

    def test_weights_as_sequence_and_mapping(self):
        fused = reciprocal_rank_fusion([A, B], weights=[1.0, 3.0])
        # d3: 1/63 + 3/61 = 0.015873016 + 0.049180328 = 0.065053344
        # d1: 1/61 + 3/62 = 0.016393443 + 0.048387097 = 0.064780540
        # d4: 3/63        = 0.047619048
        # d2: 1/62        = 0.016129032
        self.assertEqual(order(fused), ["d3", "d1", "d4", "d2"])
        self.assertAlmostEqual(scores(fused)["d3"], 0.065053344, places=8)
        self.assertAlmostEqual(scores(fused)["d1"], 0.064780540, places=8)
        named = reciprocal_rank_fusion({"bm25": A, "vec": B}, weights={"vec": 3.0})
        self.assertEqual([(d.document_id, d.score) for d in named], [(d.document_id, d.score) for d in fused])
        self.assertEqual(named[0].contributions[1].branch, "vec")
        self.assertEqual(named[0].contributions[1].weight, 3.0)

    def test_zero_weight_ranking_contributes_nothing(self):
        fused = reciprocal_rank_fusion([A, B], weights=[1.0, 0.0])
        self.assertEqual(order(fused), ["d1", "d2", "d3", "d4"])
        self.assertEqual(scores(fused)["d4"], 0.0)

    def test_bad_weights_are_refused(self):
        for weights in ([1.0], [1.0, -1.0], [1.0, float("nan")], {"ranking9": 1.0}, "11"):
            with self.subTest(weights=weights), self.assertRaises(InvalidInputError):
                reciprocal_rank_fusion([A, B], weights=weights)

    def test_rank_window_keeps_only_the_first_n(self):
        fused = reciprocal_rank_fusion([A, B], rank_window=2)
        # Windows: [d1, d2] and [d3, d1]. d1: 1/61 + 1/62; d3: 1/61; d2: 1/62; d4 never counted.
        self.assertEqual(order(fused), ["d1", "d3", "d2"])
        self.assertAlmostEqual(scores(fused)["d3"], 1 / 61, places=15)

    def test_duplicates_inside_one_branch_count_once_at_best_rank(self):
        fused = reciprocal_rank_fusion([["d1", "d1", "d2", "d1"], ["d2"]])
        # Branch 1 collapses to [d1, d2]: d1 = 1/61 (not 1/61 + 1/62 + 1/64);
        # d2 is rank 2 there: 1/62 + 1/61 = 0.032522475.
        got = scores(fused)
        self.assertAlmostEqual(got["d1"], 1 / 61, places=15)
        self.assertAlmostEqual(got["d2"], 1 / 62 + 1 / 61, places=15)
        d1 = next(d for d in fused if d.document_id == "d1")
        self.assertEqual([(c.branch, c.rank) for c in d1.contributions], [("ranking1", 1)])

    def test_dedup_key_defaults_to_corpus_and_document_never_text(self):
        same_text = [
            Snippet(id="", corpus_id="a", document_id="x", text="identical text", score=2.0),
            Snippet(id="", corpus_id="a", document_id="y", text="identical text", score=1.0),
            Snippet(id="", corpus_id="b", document_id="x", text="other", score=0.5),
        ]
        fused = reciprocal_rank_fusion([same_text])
        self.assertEqual([(d.corpus_id, d.document_id) for d in fused], [("a", "x"), ("a", "y"), ("b", "x")])
        by_id_only = reciprocal_rank_fusion([same_text], key=lambda hit: hit.document_id)
        self.assertEqual(order(by_id_only), ["x", "y"])

    def test_bare_ids_and_hits_fuse_as_one_document(self):
        fused = reciprocal_rank_fusion([["d1"], [SearchHit("d1", 4.0)]])
        self.assertEqual(len(fused), 1)
        self.assertEqual((fused[0].corpus_id, fused[0].normalized_score), ("default", 1.0))

    def test_ties_break_by_best_rank_then_branch_order_then_id(self):
        # x and y both score 1/61 + 1/62 and both have best rank 1; x got it in branch 0.
        self.assertEqual(order(reciprocal_rank_fusion([["x", "y"], ["y", "x"]])), ["x", "y"])
        self.assertEqual(order(reciprocal_rank_fusion([["y", "x"], ["x", "y"]])), ["y", "x"])
        # b and a both score 1/61 with best rank 1: branch order wins over the id.
        self.assertEqual(order(reciprocal_rank_fusion([["b"], ["a"]])), ["b", "a"])
        # Equal score, different best rank: 2/62 (rank 2 twice) vs 1/61 + 1/63 (ranks 1 and 3).
        # 2/62 = 0.032258065 and 1/61 + 1/63 = 0.032266459, so no tie here; check by score.
        fused = reciprocal_rank_fusion([["p", "q", "r"], ["r", "q", "p"]])
        self.assertEqual(order(fused), ["p", "r", "q"])

    def test_normalized_score_against_the_best_possible(self):
        fused = reciprocal_rank_fusion([A, B])
        # best possible = 1/61 + 1/61; d1 = (1/61 + 1/62) / (2/61) = (1 + 61/62) / 2 = 0.991935484
        self.assertAlmostEqual(fused[0].normalized_score, 0.991935484, places=8)
        top = reciprocal_rank_fusion([["z", "a"], ["z", "b"], ["z"]])
        self.assertEqual(top[0].normalized_score, 1.0)
        for document in fused + top:
            self.assertTrue(0.0 <= document.normalized_score <= 1.0)

    def test_explain_names_branches_ranks_and_contributions(self):
        fused = reciprocal_rank_fusion({"bm25": A, "vector": B})
        d1 = fused[0]
        self.assertEqual([(c.branch, c.branch_index, c.rank) for c in d1.contributions], [("bm25", 0, 1), ("vector", 1, 2)])
        self.assertAlmostEqual(sum(c.value for c in d1.contributions), d1.score, places=15)
        text = d1.explain()
        self.assertIn("bm25 (rank 1", text)
        self.assertIn("vector (rank 2", text)
        self.assertIn(f"{1 / 62:.6f}", text)

    def test_limit_returns_the_same_head(self):
        full = reciprocal_rank_fusion([A, B])
        self.assertEqual(reciprocal_rank_fusion([A, B], limit=2), full[:2])

    def test_output_round_trips_through_json(self):
        hits = [SearchHit("d1", 2.0, "c"), SearchHit("d2", 1.0, "c")]
        for document in reciprocal_rank_fusion([hits, ["d2"]]):
            rebuilt = FusedDocument.from_dict(json.loads(json.dumps(document.to_dict())))
            self.assertEqual(rebuilt, document)

    def test_identical_output_for_identical_input(self):
        first = json.dumps([d.to_dict() for d in reciprocal_rank_fusion([A, B, ["d9", "d1"]])])
        second = json.dumps([d.to_dict() for d in reciprocal_rank_fusion([A, B, ["d9", "d1"]])])
        self.assertEqual(first, second)

    def test_bad_input_is_refused(self):
        for rankings, kwargs in (
            ("abc", {}),
            ([["d1", ""]], {}),
            ([[42]], {}),
            ([A], {"k": -1}),
            ([A], {"rank_window": 0}),
            ([A], {"limit": 0}),
            ([A], {"key": "not callable"}),
        ):
            with self.subTest(rankings=rankings, kwargs=kwargs), self.assertRaises(InvalidInputError):
                reciprocal_rank_fusion(rankings, **kwargs)

    def test_empty_rankings(self):
        self.assertEqual(reciprocal_rank_fusion([]), ())
        self.assertEqual(reciprocal_rank_fusion([[], []]), ())


def hits(*rows):
    return [SearchHit(doc, score) for doc, score in rows]


SCORED_A = hits(("a", 10.0), ("b", 6.0), ("c", 2.0))
SCORED_B = hits(("b", 0.9), ("c", 0.5), ("d", 0.1))


class RelativeScoreFusionGolden(unittest.TestCase):
    def test_min_max_weighted_sum(self):
        fused = relative_score_fusion([SCORED_A, SCORED_B])
        # A: a (10-2)/8 = 1.0, b (6-2)/8 = 0.5, c 0.0; B: b (0.9-0.1)/0.8 = 1.0, c 0.5, d 0.0
        # b = 0.5 + 1.0 = 1.5; a = 1.0; c = 0.0 + 0.5 = 0.5; d = 0.0
        self.assertEqual(order(fused), ["b", "a", "c", "d"])
        got = scores(fused)
        self.assertAlmostEqual(got["b"], 1.5, places=12)
        self.assertAlmostEqual(got["a"], 1.0, places=12)
        self.assertAlmostEqual(got["c"], 0.5, places=12)
        self.assertEqual(got["d"], 0.0)
        # normalised by the best possible, 1.0 + 1.0
        self.assertAlmostEqual(fused[0].normalized_score, 0.75, places=12)

    def test_weights_and_tie_by_branch_order(self):
        fused = relative_score_fusion([SCORED_A, SCORED_B], weights=[1.0, 0.5])
        # b = 0.5 + 0.5 * 1.0 = 1.0 ties a = 1.0; both best rank 1, a's in branch 0 -> a first.
        self.assertEqual(order(fused)[:2], ["a", "b"])
        self.assertAlmostEqual(scores(fused)["c"], 0.25, places=12)

    def test_zero_spread_branch_scores_one(self):
        fused = relative_score_fusion([hits(("x", 5.0), ("y", 5.0))])
        self.assertEqual(scores(fused), {"x": 1.0, "y": 1.0})

    def test_hits_without_scores_are_refused(self):
        with self.assertRaises(InvalidInputError):
            relative_score_fusion([["a", "b"]])


class DistributionBasedScoreFusionGolden(unittest.TestCase):
    def test_mean_plus_minus_three_sigma(self):
        fused = distribution_based_score_fusion([SCORED_A, SCORED_B])
        # A: mean 6, population sigma sqrt(((10-6)^2 + 0 + (2-6)^2) / 3) = sqrt(32/3) = 3.265986
        # normalised s -> (s - (mean - 3 sigma)) / (6 sigma) = 0.5 + (s - mean) / (6 sigma)
        # a: 0.5 + 4 / 19.595918 = 0.704124; b: 0.5; c: 0.295876
        # B: mean 0.5, sigma sqrt(0.32/3) = 0.326599; b 0.704124, c 0.5, d 0.295876
        # fused: b 1.204124, c 0.795876, a 0.704124, d 0.295876
        high = 0.5 + 4 / (6 * math.sqrt(32 / 3))
        self.assertAlmostEqual(high, 0.704124, places=6)
        self.assertEqual(order(fused), ["b", "c", "a", "d"])
        got = scores(fused)
        self.assertAlmostEqual(got["b"], 0.5 + high, places=12)
        self.assertAlmostEqual(got["c"], (1 - high) + 0.5, places=12)
        self.assertAlmostEqual(got["a"], high, places=12)
        self.assertAlmostEqual(got["d"], 1 - high, places=12)
        self.assertAlmostEqual(fused[0].normalized_score, (0.5 + high) / 2, places=12)

    def test_zero_spread_branch_does_not_zero_every_score(self):
        fused = distribution_based_score_fusion([hits(("x", 3.0), ("y", 3.0)), hits(("x", 1.0), ("z", 0.0))])
        # Branch 1 has zero spread: x and y get 0.5 each (where the mean maps), not 0.
        # Branch 2: mean 0.5, sigma 0.5 -> x 0.5 + 0.5/3 = 0.666667, z 0.5 - 0.5/3 = 0.333333
        got = scores(fused)
        self.assertEqual(got["y"], 0.5)
        self.assertAlmostEqual(got["x"], 0.5 + 0.5 + 0.5 / 3, places=12)
        self.assertAlmostEqual(got["z"], 0.5 - 0.5 / 3, places=12)
        self.assertEqual(order(fused), ["x", "y", "z"])

    def test_outliers_are_clipped_to_unit_range(self):
        ranking = hits(*[(f"d{i}", 0.0) for i in range(20)], ("spike", 100.0))
        fused = distribution_based_score_fusion([ranking])
        self.assertEqual(fused[0].document_id, "spike")
        self.assertEqual(fused[0].score, 1.0)
        self.assertTrue(all(0.0 <= d.score <= 1.0 for d in fused))


class FuseDispatch(unittest.TestCase):
    def test_fuse_dispatches_by_method(self):
        self.assertEqual(fuse([A, B]), reciprocal_rank_fusion([A, B]))
        self.assertEqual(fuse([SCORED_A, SCORED_B], method="dbsf"), distribution_based_score_fusion([SCORED_A, SCORED_B]))
        self.assertEqual(fuse([SCORED_A, SCORED_B], method=FusionMethod.RELATIVE_SCORE), relative_score_fusion([SCORED_A, SCORED_B]))
        with self.assertRaises(InvalidInputError):
            fuse([A], method="borda")

    def test_ranked_lists_carry_retriever_and_query(self):
        fused = fuse_ranked_lists([RankedList("bm25/q1", tuple(A), 2.0, "bm25", "tides"), RankedList("vec/q1", tuple(B), 1.0, "vec", "tides")])
        contribution = fused[0].contributions[0]
        self.assertEqual((contribution.retriever, contribution.query, contribution.weight), ("bm25", "tides", 2.0))
        with self.assertRaises(InvalidInputError):
            fuse_ranked_lists([RankedList("same", ()), RankedList("same", ())])
        with self.assertRaises(InvalidInputError):
            RankedList("x", (), weight=-1)


class FusionTable(unittest.TestCase):
    """One rule per method, and fused documents built by field name, never by position."""

    def test_every_method_has_exactly_one_kind_of_rule(self):
        from agentic_rag._parallel.fusion_engine import _RULES

        self.assertEqual(set(_RULES), set(FusionMethod))
        for method, rule in _RULES.items():
            with self.subTest(method=method):
                self.assertEqual((rule.by_rank is None) + (rule.normalise is None), 1)

    def test_fused_documents_equal_their_checked_construction(self):
        # Rebuilding through __init__ (and __post_init__) reads every field by name: a field
        # the engine left unset raises, one set from the wrong value differs.
        hits = [SearchHit("d1", 3.0, "c"), SearchHit("d2", 1.0, "c")]
        for method in FusionMethod:
            with self.subTest(method=method):
                fused = fuse({"a": hits, "b": list(reversed(hits))}, method=method, weights={"a": 2.0})
                for doc in fused:
                    contributions = tuple(Contribution(**{f.name: getattr(c, f.name) for f in dataclasses.fields(Contribution)})
                                          for c in doc.contributions)
                    fields = {f.name: getattr(doc, f.name) for f in dataclasses.fields(FusedDocument)}
                    rebuilt = FusedDocument(**{**fields, "contributions": contributions})
                    self.assertEqual(rebuilt, doc)
                    first = doc.contributions[0]
                    self.assertEqual((first.branch, first.branch_index, first.weight), ("a", 0, 2.0))
                    self.assertEqual(first.rank, 1 if doc.document_id == "d1" else 2)
                    self.assertEqual((doc.corpus_id, doc.rank), ("c", fused.index(doc) + 1))


if __name__ == "__main__":
    unittest.main()
