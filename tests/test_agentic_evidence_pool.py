"""The evidence pool of an agentic run: each snippet once, ranked by its best rank in any
subquery, never more than its cap."""

from __future__ import annotations

import unittest

from agentic_rag._agentic.evidence_pool import EvidencePool
from agentic_rag._contracts import Snippet, Subquery


def _snippet(name: str, score: float = 1.0) -> Snippet:
    return Snippet(id=name, corpus_id="docs", document_id=name, text=f"text of {name}", score=score)


class EvidencePoolTest(unittest.TestCase):
    def test_a_snippet_found_again_is_kept_once_with_its_best_score(self):
        pool = EvidencePool(10)
        new, truncated = pool.add(Subquery(id="q1", text="a", fact_id="f1", corpus_ids=("docs",)), [_snippet("a", 1.0), _snippet("b")])
        self.assertEqual([s.id for s in new], ["a", "b"])
        again, _ = pool.add(Subquery(id="q2", text="b", fact_id="f1", corpus_ids=("docs",)), [_snippet("a", 3.0)])
        self.assertEqual(again, [])
        self.assertFalse(truncated)
        self.assertEqual([s.score for s in pool.ranked() if s.id == "a"], [3.0])

    def test_the_best_rank_in_any_subquery_leads(self):
        pool = EvidencePool(10)
        pool.add(Subquery(id="q1", text="a", fact_id="f1", corpus_ids=("docs",)), [_snippet("a"), _snippet("b")])
        pool.add(Subquery(id="q2", text="b", fact_id="f1", corpus_ids=("docs",)), [_snippet("c"), _snippet("b")])
        # a and c were each first once; b was second twice: a sum would put b first.
        self.assertEqual([s.id for s in pool.ranked()], ["a", "c", "b"])

    def test_a_full_pool_drops_new_hits_and_says_so(self):
        pool = EvidencePool(1)
        new, truncated = pool.add(Subquery(id="q1", text="a", fact_id="f1", corpus_ids=("docs",)), [_snippet("a"), _snippet("b")])
        self.assertEqual([s.id for s in new], ["a"])
        self.assertTrue(truncated)


if __name__ == "__main__":
    unittest.main()
