"""Tests for the hashing embedder, the callable-embedder adapter and the vector checks."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import unittest
from pathlib import Path

from agentic_rag._errors import InvalidInputError
from agentic_rag._retrieval.embedders import (
    MAX_DENSE_DIMENSIONS,
    CallableEmbedder,
    HashingEmbedder,
    SparseEmbedder,
    describe_embedder,
)
from agentic_rag._retrieval.embedding_checks import coerce_vectors, require_texts
from agentic_rag._text.analyzer import Analyzer

_SRC = Path(__file__).resolve().parents[1] / "src"

_TEXTS = [
    "Information retrieval ranks documents for a query.",
    "Colour theory explains how painters mix pigments.",
    "The runner was running a marathon in the rain.",
    "Cooking pasta needs salted boiling water.",
]


def _cosine(a: list[tuple[int, float]], b: list[tuple[int, float]]) -> float:
    weights = dict(b)
    return sum(w * weights.get(d, 0.0) for d, w in a)


class HashingEmbedderFeaturesTest(unittest.TestCase):
    def test_two_instances_give_identical_vectors(self) -> None:
        first, second = HashingEmbedder(), HashingEmbedder()
        self.assertEqual(first.term_weights(_TEXTS), second.term_weights(_TEXTS))
        self.assertEqual(first.fit(_TEXTS).embed_sparse(_TEXTS), second.fit(_TEXTS).embed_sparse(_TEXTS))

    def test_hash_is_stable_across_processes_with_other_hash_seeds(self) -> None:
        code = (
            "from agentic_rag._retrieval.embedders import HashingEmbedder\n"
            "dims, weights = HashingEmbedder().term_weights(['Colour theory of running'])[0]\n"
            "print(list(dims), list(weights))\n"
        )
        outputs = set()
        for hash_seed in ("1", "12345"):
            env = dict(os.environ, PYTHONPATH=str(_SRC), PYTHONHASHSEED=hash_seed)
            result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            outputs.add(result.stdout)
        dims, weights = HashingEmbedder().term_weights(["Colour theory of running"])[0]
        outputs.add(f"{list(dims)} {list(weights)}\n")
        self.assertEqual(len(outputs), 1, outputs)

    def test_feature_hashes_are_pinned(self) -> None:
        # Saved indexes depend on these exact dimensions: a change of hashing must be deliberate.
        dims, weights = HashingEmbedder().term_weights(["Cat cats"])[0]
        self.assertEqual(list(dims), [115881, 218696, 229151, 459777, 572473, 872970])
        self.assertEqual([round(w, 4) for w in weights], [1.0, 1.0, -1.6931, -1.0, -1.0, 1.0])

    def test_features_are_words_and_padded_ngrams(self) -> None:
        words_only = HashingEmbedder(ngram_range=None)
        self.assertEqual(len(words_only.term_weights(["cat cats"])[0][0]), 2)
        ngrams_only = HashingEmbedder(use_words=False, ngram_range=(4, 4))
        # "<cat>" gives "<cat" and "cat>"; a word shorter than the n-gram is kept whole.
        self.assertEqual(len(ngrams_only.term_weights(["cat"])[0][0]), 2)
        self.assertEqual(len(ngrams_only.term_weights(["ox"])[0][0]), 1)
        self.assertEqual(len(HashingEmbedder(use_words=False, ngram_range=(5, 5)).term_weights(["ox"])[0][0]), 1)

    def test_seed_changes_the_feature_space(self) -> None:
        self.assertNotEqual(HashingEmbedder(seed=0).term_weights(["colour"]), HashingEmbedder(seed=1).term_weights(["colour"]))

    def test_sublinear_tf(self) -> None:
        dims, weights = HashingEmbedder(ngram_range=None).term_weights(["pasta pasta pasta pasta"])[0]
        self.assertAlmostEqual(abs(weights[0]), 1.0 + math.log(4), places=6)
        dims, weights = HashingEmbedder(ngram_range=None, sublinear_tf=False).term_weights(["pasta pasta pasta pasta"])[0]
        self.assertEqual(abs(weights[0]), 4.0)

    def test_stop_words_only_gives_an_empty_vector(self) -> None:
        embedder = HashingEmbedder()
        self.assertEqual(len(embedder.term_weights(["the of and"])[0][0]), 0)
        self.assertEqual(embedder.embed_sparse(["the of and", ""]), [[], []])

    def test_dimensions_are_ascending_and_in_range(self) -> None:
        embedder = HashingEmbedder(dimensions=97)
        for dims, weights in embedder.term_weights(_TEXTS):
            self.assertEqual(len(dims), len(weights))
            self.assertEqual(list(dims), sorted(set(dims)))
            self.assertTrue(all(0 <= d < 97 for d in dims))
            self.assertNotIn(0.0, list(weights))

    def test_is_a_sparse_embedder(self) -> None:
        self.assertIsInstance(HashingEmbedder(), SparseEmbedder)
        self.assertNotIsInstance(CallableEmbedder(lambda texts: [[1.0]] * len(texts)), SparseEmbedder)


class HashingEmbedderWeightsTest(unittest.TestCase):
    def test_fit_is_order_independent(self) -> None:
        forward = HashingEmbedder().fit(_TEXTS)
        backward = HashingEmbedder().fit(list(reversed(_TEXTS)))
        self.assertEqual(forward.document_count, 4)
        self.assertEqual(forward.embed_sparse(_TEXTS), backward.embed_sparse(_TEXTS))

    def test_vectors_are_unit_length(self) -> None:
        for vector in HashingEmbedder().fit(_TEXTS).embed_sparse(_TEXTS + ["colour"]):
            self.assertAlmostEqual(math.sqrt(sum(w * w for _, w in vector)), 1.0, places=9)

    def test_idf_favours_rare_features(self) -> None:
        embedder = HashingEmbedder()
        self.assertGreater(embedder.idf(1, 100), embedder.idf(50, 100))
        self.assertAlmostEqual(embedder.idf(0, 0), 1.0)
        fitted = HashingEmbedder(ngram_range=None).fit(["pasta sauce", "pasta water", "pasta salt"])
        weights = dict(fitted.embed_sparse(["pasta sauce"])[0])
        self.assertEqual(len(weights), 2)
        self.assertLess(min(map(abs, weights.values())), max(map(abs, weights.values())))

    def test_unfitted_embedder_uses_plain_tf(self) -> None:
        vector = HashingEmbedder(ngram_range=None).embed_sparse(["pasta sauce"])[0]
        self.assertEqual([abs(round(w, 6)) for _, w in vector], [round(1 / math.sqrt(2), 6)] * 2)

    def test_spelling_variants_are_similar_and_unrelated_words_are_not(self) -> None:
        embedder = HashingEmbedder()
        colour, color, pasta = embedder.embed_sparse(["colour", "color", "pasta"])
        self.assertGreater(_cosine(colour, color), 0.2)
        self.assertLess(abs(_cosine(colour, pasta)), 0.05)

    def test_dense_output_matches_sparse(self) -> None:
        embedder = HashingEmbedder(dimensions=512).fit(_TEXTS)
        dense = embedder.embed(_TEXTS[:2])
        for row, sparse in zip(dense, embedder.embed_sparse(_TEXTS[:2])):
            self.assertEqual(len(row), 512)
            self.assertEqual([(d, w) for d, w in enumerate(row) if w], sparse)

    def test_dense_output_refused_for_large_spaces(self) -> None:
        with self.assertRaisesRegex(InvalidInputError, "embed_sparse"):
            HashingEmbedder(dimensions=MAX_DENSE_DIMENSIONS + 1).embed(["colour"])


class HashingEmbedderSettingsTest(unittest.TestCase):
    def test_round_trip_through_dict(self) -> None:
        embedder = HashingEmbedder(dimensions=4096, ngram_range=(2, 5), use_words=False, sublinear_tf=False, seed=7, analyzer=Analyzer(stopwords="none", stemmer="porter"))
        rebuilt = HashingEmbedder.from_dict(embedder.to_dict())
        self.assertEqual(rebuilt, embedder)
        self.assertEqual(rebuilt.term_weights(_TEXTS), embedder.term_weights(_TEXTS))
        self.assertEqual(HashingEmbedder.from_dict({"type": "hashing", "hash": embedder.to_dict()["hash"]}), HashingEmbedder())

    def test_bad_descriptions_are_refused(self) -> None:
        good = HashingEmbedder().to_dict()
        for bad in ({**good, "type": "callable"}, {**good, "hash": "md5"}, {**good, "extra": 1}, {**good, "dimensions": 0}):
            with self.subTest(bad=bad), self.assertRaises(InvalidInputError):
                HashingEmbedder.from_dict(bad)

    def test_bad_settings_are_refused(self) -> None:
        cases = [
            {"dimensions": 1},
            {"dimensions": 2**31},
            {"dimensions": 1.5},
            {"ngram_range": (5, 3)},
            {"ngram_range": (0, 3)},
            {"ngram_range": 4},
            {"ngram_range": None, "use_words": False},
            {"use_words": 1},
            {"sublinear_tf": None},
            {"analyzer": "english"},
            {"seed": -1},
            {"seed": 2**64},
        ]
        for kwargs in cases:
            with self.subTest(kwargs=kwargs), self.assertRaises(InvalidInputError):
                HashingEmbedder(**kwargs)  # type: ignore[arg-type]

    def test_texts_must_be_strings(self) -> None:
        with self.assertRaisesRegex(InvalidInputError, "not the string"):
            HashingEmbedder().term_weights("colour")
        with self.assertRaisesRegex(InvalidInputError, r"texts\[1\]"):
            HashingEmbedder().embed_sparse(["colour", 3])  # type: ignore[list-item]


class _Rows:
    """A stand-in for a numpy 2-D array: iterable rows of objects convertible with float()."""

    class _Number:
        def __init__(self, value: float) -> None:
            self.value = value

        def __float__(self) -> float:
            return self.value

    def __init__(self, rows: list[list[float]]) -> None:
        self.rows = [[self._Number(v) for v in row] for row in rows]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.rows)


class CallableEmbedderTest(unittest.TestCase):
    def test_batches_in_order(self) -> None:
        calls: list[list[str]] = []

        def encode(texts: list[str]) -> list[list[float]]:
            calls.append(list(texts))
            return [[float(len(t)), 1.0] for t in texts]

        embedder = CallableEmbedder(encode, batch_size=2, name="lengths")
        vectors = embedder.embed(["a", "bb", "ccc", "dddd", "eeeee"])
        self.assertEqual(calls, [["a", "bb"], ["ccc", "dddd"], ["eeeee"]])
        self.assertEqual([v[0] for v in vectors], [1.0, 2.0, 3.0, 4.0, 5.0])
        self.assertEqual(embedder.dimensions, 2)
        self.assertEqual(embedder.to_dict(), {"type": "callable", "name": "lengths", "dimensions": 2})
        self.assertEqual(embedder.embed([]), [])
        self.assertEqual(len(calls), 3)

    def test_array_like_rows_are_converted(self) -> None:
        vectors = CallableEmbedder(lambda texts: _Rows([[1.0, 2.5]] * len(texts))).embed(["x", "y"])
        self.assertEqual(vectors, [[1.0, 2.5], [1.0, 2.5]])
        self.assertIsInstance(vectors[0][0], float)

    def test_numpy_arrays_are_converted(self) -> None:
        try:
            import numpy
        except ImportError:
            self.skipTest("numpy is not installed; the array-like stand-in test covers the conversion")
        embedder = CallableEmbedder(lambda texts: numpy.ones((len(texts), 3), dtype=numpy.float32))
        self.assertEqual(embedder.embed(["x", "y"]), [[1.0, 1.0, 1.0]] * 2)
        self.assertIs(type(embedder.embed(["x"])[0][0]), float)

    def test_wrong_count_is_refused(self) -> None:
        embedder = CallableEmbedder(lambda texts: [[1.0, 2.0]], name="one")
        with self.assertRaisesRegex(InvalidInputError, "returned 1 vectors for 2 texts"):
            embedder.embed(["x", "y"])

    def test_ragged_dimensions_are_refused(self) -> None:
        embedder = CallableEmbedder(lambda texts: [[1.0, 2.0], [1.0]][: len(texts)], name="ragged")
        with self.assertRaisesRegex(InvalidInputError, "vector 1 .* has dimension 1, expected 2"):
            embedder.embed(["x", "y"])

    def test_dimension_is_held_across_calls(self) -> None:
        width = [3]
        embedder = CallableEmbedder(lambda texts: [[0.5] * width[0] for _ in texts])
        embedder.embed(["x"])
        width[0] = 4
        with self.assertRaisesRegex(InvalidInputError, "dimension 4, expected 3"):
            embedder.embed(["y"])

    def test_declared_dimension_is_enforced(self) -> None:
        embedder = CallableEmbedder(lambda texts: [[1.0, 2.0] for _ in texts], dimensions=3)
        with self.assertRaisesRegex(InvalidInputError, "dimension 2, expected 3"):
            embedder.embed(["x"])

    def test_bad_values_are_refused(self) -> None:
        outputs = {
            "NaN": [[float("nan"), 1.0]],
            "not a sequence of numbers": [["a", "b"]],
            "is a string": ["ab"],
            "is empty": [[]],
            "expected a sequence": None,
        }
        for message, output in outputs.items():
            with self.subTest(message=message), self.assertRaisesRegex(InvalidInputError, message):
                CallableEmbedder(lambda texts, output=output: output).embed(["x"])
        with self.assertRaisesRegex(InvalidInputError, "not a sequence of numbers"):
            CallableEmbedder(lambda texts: [1.0]).embed(["x"])

    def test_bad_arguments_are_refused(self) -> None:
        with self.assertRaises(InvalidInputError):
            CallableEmbedder("encode")  # type: ignore[arg-type]
        with self.assertRaises(InvalidInputError):
            CallableEmbedder(len, batch_size=0)
        with self.assertRaises(InvalidInputError):
            CallableEmbedder(len, dimensions=0)
        with self.assertRaises(InvalidInputError):
            CallableEmbedder(len).embed("text")

    def test_name_defaults_to_the_function_name(self) -> None:
        def encode(texts: list[str]) -> list[list[float]]:
            return [[1.0] for _ in texts]

        self.assertTrue(CallableEmbedder(encode).name.endswith("encode"))


class VectorChecksTest(unittest.TestCase):
    def test_coerce_vectors(self) -> None:
        self.assertEqual(coerce_vectors(((1, 2), (3, 4)), count=2), [[1.0, 2.0], [3.0, 4.0]])
        with self.assertRaisesRegex(InvalidInputError, "vector 5 from probe"):
            coerce_vectors([[1.0, math.inf]], count=1, source="probe", offset=5)
        with self.assertRaisesRegex(InvalidInputError, "expected 3"):
            coerce_vectors([[1.0, 2.0]], count=1, dimensions=3)

    def test_require_texts(self) -> None:
        self.assertEqual(require_texts(("a", "b")), ["a", "b"])
        with self.assertRaises(InvalidInputError):
            require_texts(5)

    def test_describe_embedder(self) -> None:
        class Plain:
            def embed(self, texts: list[str]) -> list[list[float]]:
                return [[1.0] for _ in texts]

        self.assertEqual(describe_embedder(Plain(), 1), {"type": "external", "name": "VectorChecksTest.test_describe_embedder.<locals>.Plain", "dimensions": 1})
        self.assertEqual(describe_embedder(CallableEmbedder(len, name="n"), 8)["dimensions"], 8)
        self.assertEqual(describe_embedder(HashingEmbedder())["type"], "hashing")


if __name__ == "__main__":
    unittest.main()
