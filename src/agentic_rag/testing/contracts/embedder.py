"""The ``Embedder`` port's contract, written once and applied to every implementation.

Combine the mixin with ``unittest.TestCase`` and give it a factory::

    class TestMyEmbedderContract(EmbedderContract, unittest.TestCase):
        def make_embedder(self):
            return MyEmbedder()
"""

from __future__ import annotations

import math

__all__ = ["CONTRACT_TEXTS", "EmbedderContract"]

CONTRACT_TEXTS = (
    "The Moon's gravity causes ocean tides.",
    "Photosynthesis converts sunlight into chemical energy.",
    "tides",
    "Zeta Labs — café, naïve, 東京",
)


class EmbedderContract:
    """Every :class:`agentic_rag.Embedder` must satisfy these."""

    def make_embedder(self):
        """Return the embedder under test."""
        raise NotImplementedError

    def test_one_finite_vector_per_text_all_of_one_dimension(self):
        vectors = self.make_embedder().embed(list(CONTRACT_TEXTS))
        self.assertEqual(len(vectors), len(CONTRACT_TEXTS))
        dimensions = {len(v) for v in vectors}
        self.assertEqual(len(dimensions), 1, f"vectors of several dimensions: {sorted(dimensions)}")
        self.assertGreater(dimensions.pop(), 0)
        for vector in vectors:
            self.assertTrue(all(isinstance(x, float) and math.isfinite(x) for x in vector))

    def test_order_is_kept_and_each_text_is_embedded_alone(self):
        embedder = self.make_embedder()
        together = embedder.embed(list(CONTRACT_TEXTS))
        for text, vector in zip(CONTRACT_TEXTS, together):
            with self.subTest(text=text):
                alone = embedder.embed([text])[0]
                self.assertEqual(len(alone), len(vector))
                for a, b in zip(alone, vector):
                    self.assertAlmostEqual(a, b, places=5)

    def test_empty_batch_gives_no_vectors(self):
        self.assertEqual(list(self.make_embedder().embed([])), [])

    def test_embed_is_deterministic(self):
        first = self.make_embedder().embed(list(CONTRACT_TEXTS))
        self.assertEqual(first, self.make_embedder().embed(list(CONTRACT_TEXTS)))
