"""The ``Reranker`` port's contract, written once and applied to every implementation.

Combine the mixin with ``unittest.TestCase`` and give it a factory::

    class TestLexicalRerankerContract(RerankerContract, unittest.TestCase):
        def make_reranker(self):
            return LexicalReranker()

Set ``permutation_invariant = False`` for a reranker whose output may depend on the order
the hits arrive in (a model-backed one, say); every other check still applies.
"""

from __future__ import annotations

import dataclasses

from agentic_rag._contracts import Snippet
from agentic_rag._errors import InvalidInputError

__all__ = ["RerankerContract", "contract_hits"]

QUERY = "what causes ocean tides"


def contract_hits() -> tuple[Snippet, ...]:
    """One branch's hits: varied texts and scores, two with equal text and score."""
    rows = (
        ("d1", "Ocean tides are caused by the gravity of the Moon.", 3.0),
        ("d2", "Tides in the ocean rise twice a day.", 2.5),
        ("d3", "The Moon orbits the Earth every month.", 2.0),
        ("d4", "Photosynthesis converts light into chemical energy.", 1.0),
        ("d5", "What causes ocean tides? The Moon and the Sun.", 1.5),
        ("d6", "Glaciers carve valleys slowly.", 0.5),
        ("d7", "Ocean currents carry heat around the planet.", 1.2),
        ("d8", "Ocean currents carry heat around the planet.", 1.2),
    )
    return tuple(Snippet(id="", corpus_id="c", document_id=d, text=t, score=s) for d, t, s in rows)


class RerankerContract:
    """Every :class:`~agentic_rag._parallel.ports.Reranker` must satisfy these."""

    permutation_invariant = True

    def make_reranker(self):
        """Return the reranker under test."""
        raise NotImplementedError

    def test_returns_at_most_top_k_snippets_from_the_input(self):
        hits = contract_hits()
        for top_k in (1, 3, 8, 20):
            with self.subTest(top_k=top_k):
                out = self.make_reranker().rerank(QUERY, hits, top_k)
                self.assertIsInstance(out, tuple)
                self.assertEqual(len(out), min(top_k, len(hits)))
                by_id = {h.id: h for h in hits}
                for snippet in out:
                    self.assertIsInstance(snippet, Snippet)
                    self.assertIn(snippet.id, by_id)
                    self.assertEqual(snippet, dataclasses.replace(by_id[snippet.id], score=snippet.score), "only the score may change")

    def test_best_first_with_ties_broken_by_id(self):
        out = self.make_reranker().rerank(QUERY, contract_hits(), 8)
        for before, after in zip(out, out[1:]):
            self.assertTrue(
                before.score > after.score or (before.score == after.score and before.id < after.id),
                f"{before.id} ({before.score}) precedes {after.id} ({after.score})",
            )

    def test_duplicates_are_returned_once(self):
        hits = contract_hits()
        out = self.make_reranker().rerank(QUERY, hits + hits[:3], 20)
        self.assertEqual(len({s.id for s in out}), len(out))
        self.assertEqual(len(out), len(hits))

    def test_deterministic(self):
        first = [s.to_dict() for s in self.make_reranker().rerank(QUERY, contract_hits(), 5)]
        second = [s.to_dict() for s in self.make_reranker().rerank(QUERY, contract_hits(), 5)]
        self.assertEqual(first, second)

    def test_independent_of_input_order(self):
        if not self.permutation_invariant:
            self.skipTest("this reranker is declared order-dependent")
        hits = contract_hits()
        forward = self.make_reranker().rerank(QUERY, hits, 8)
        backward = self.make_reranker().rerank(QUERY, hits[::-1], 8)
        self.assertEqual(forward, backward)

    def test_empty_input_gives_empty_output(self):
        self.assertEqual(self.make_reranker().rerank(QUERY, (), 5), ())

    def test_bad_arguments_are_refused(self):
        reranker = self.make_reranker()
        for top_k in (0, -2):
            with self.subTest(top_k=top_k), self.assertRaises(InvalidInputError):
                reranker.rerank(QUERY, contract_hits(), top_k)
        with self.assertRaises(InvalidInputError):
            reranker.rerank(QUERY, ["not a snippet"], 3)
