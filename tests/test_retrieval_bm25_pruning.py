"""BM25 top-k pruning: identical to the exhaustive pass, and both agree with a naive scorer."""

from __future__ import annotations

import math
import random
import unittest
from collections import Counter
from unittest import mock

from agentic_rag._contracts.corpus import Document
from agentic_rag._retrieval import bm25_derived as derived_module
from agentic_rag._retrieval.bm25 import BM25Index
from agentic_rag._text.analyzer import Analyzer

PLAIN = Analyzer(stopwords="none", stemmer=None)


def random_corpus(seed: int, size: int = 500, vocabulary: int = 300) -> list[Document]:
    """Zipf-distributed words, a few exact duplicates (score ties) and some titles."""
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(vocabulary)]
    weights = [1.0 / (rank + 1) for rank in range(vocabulary)]
    docs = []
    for n in range(size):
        if docs and rng.random() < 0.08:
            twin = rng.choice(docs)
            docs.append(Document(f"doc{n:04d}", twin.text, title=twin.title, corpus_id=twin.corpus_id))
            continue
        text = " ".join(rng.choices(words, weights, k=rng.randint(1, 40)))
        title = " ".join(rng.choices(words, weights, k=rng.randint(1, 4))) if rng.random() < 0.3 else ""
        docs.append(Document(f"doc{n:04d}", text, title=title, corpus_id=rng.choice(["c1", "c2", "c3"]),
                             metadata={"bucket": n % 4}))
    return docs


def random_queries(seed: int, count: int, vocabulary: int = 300) -> list[str]:
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(vocabulary)] + ["absent"]
    weights = [1.0 / (rank + 1) ** 0.6 for rank in range(vocabulary)] + [0.05]
    return [" ".join(rng.choices(words, weights, k=rng.randint(1, 9))) for _ in range(count)]


def naive_scores(docs: list[Document], query: str, index: BM25Index) -> dict[str, float]:
    """Every document's score computed straight from the formulas, one document at a time."""
    analyze, weight, k1, b, delta = PLAIN.analyze, index.title_weight, index.k1, index.b, index.delta
    stats = {}
    for doc in docs:
        text, title = analyze(doc.text), analyze(doc.title) if weight > 0 else []
        tf: dict[str, float] = dict(Counter(text))
        for term, count in Counter(title).items():
            tf[term] = tf.get(term, 0) + weight * count
        stats[doc.id] = (tf, len(text) + weight * len(title))
    n = len(docs)
    avgdl = sum(dl for _, dl in stats.values()) / n
    df = Counter(term for tf, _ in stats.values() for term in tf)

    def idf(term: str) -> float:
        d = df[term]
        return {"lucene": math.log(1 + (n - d + 0.5) / (d + 0.5)), "robertson": math.log((n - d + 0.5) / (d + 0.5)),
                "bm25+": math.log((n + 1) / d), "atire": math.log(n / d)}[index.variant]

    idfs = {t: idf(t) for t in df}
    if index.variant == "robertson":
        floor = 0.25 * sum(idfs.values()) / len(idfs)
        idfs = {t: (floor if v < 0 else v) for t, v in idfs.items()}
    scores = {}
    for doc_id, (tf, dl) in stats.items():
        total, matched = 0.0, False
        for term in analyze(query):
            if tf.get(term):
                matched = True
                f, norm = tf[term], k1 * (1 - b + b * dl / avgdl)
                part = f / (f + norm) if index.variant == "lucene" else f * (k1 + 1) / (f + norm)
                total += idfs[term] * (part + (delta if index.variant == "bm25+" else 0.0))
        if matched:
            scores[doc_id] = total
    return scores


SETTINGS = [
    {"variant": "lucene"},
    {"variant": "robertson", "k1": 1.5, "b": 0.75},
    {"variant": "bm25+", "delta": 0.5, "title_weight": 2.5},
    {"variant": "atire", "k1": 0.0, "b": 1.0},
    {"variant": "lucene", "b": 0.0, "title_weight": 0.0},
]


class PrunedEqualsExhaustiveTest(unittest.TestCase):
    def compare(self, index: BM25Index, queries: list[str], ks: tuple[int, ...], **filters: object) -> None:
        for query in queries:
            for k in ks:
                pruned = index.search(query, k, **filters)
                exhaustive = index.search(query, k, exhaustive=True, **filters)
                self.assertEqual(pruned, exhaustive, f"query {query!r} k={k} {filters}")

    def test_random_corpus_every_variant(self) -> None:
        docs = random_corpus(7)
        queries = random_queries(8, 120)
        for settings in SETTINGS:
            with self.subTest(**settings):
                index = BM25Index.from_documents(docs, analyzer=PLAIN, **settings)
                self.compare(index, queries, (1, 3, 10, 40))

    def test_random_corpus_with_filters(self) -> None:
        index = BM25Index.from_documents(random_corpus(11), analyzer=PLAIN)
        queries = random_queries(12, 60)
        self.compare(index, queries, (1, 10), corpus_ids=["c2"])
        self.compare(index, queries, (5,), corpus_ids=["c1", "c3"], where={"bucket": [0, 3]})

    def test_without_cached_lookup_dicts(self) -> None:
        # A tiny budget sends long lists down the binary-search path and resets the cache often.
        with mock.patch.object(derived_module, "_LOOKUP_BUDGET", 60):
            index = BM25Index.from_documents(random_corpus(21), analyzer=PLAIN)
            self.compare(index, random_queries(22, 80), (1, 10))
            # A second, smaller add skips the bulk warm-up: impacts computed on first use.
            docs = random_corpus(23)
            index = BM25Index.from_documents(docs[:300], analyzer=PLAIN)
            index.add(docs[300:])
            self.compare(index, random_queries(24, 40), (1, 10))

    def test_many_ties(self) -> None:
        docs = [Document(f"t{n:03d}", "alpha beta" if n % 3 else "alpha gamma") for n in range(90)]
        index = BM25Index.from_documents(docs, analyzer=PLAIN)
        self.compare(index, ["alpha", "alpha beta", "gamma alpha", "beta gamma"], (1, 7, 30, 100))
        self.assertEqual([h.document_id for h in index.search("alpha beta", 3)], ["t001", "t002", "t004"])


class AgreesWithNaiveScorerTest(unittest.TestCase):
    def test_scores_match_the_formulas(self) -> None:
        docs = random_corpus(31, size=250)
        queries = random_queries(32, 40)
        for settings in SETTINGS:
            index = BM25Index.from_documents(docs, analyzer=PLAIN, **settings)
            for query in queries:
                with self.subTest(query=query, **settings):
                    expected = naive_scores(docs, query, index)
                    hits = index.search(query, len(docs))
                    self.assertEqual(len(hits), len(expected))
                    for hit in hits:
                        self.assertAlmostEqual(hit.score, expected[hit.document_id], delta=1e-9)
                    best = sorted(expected.items(), key=lambda item: (-item[1], item[0]))[:10]
                    top = index.search(query, 10)
                    for hit, (_, score) in zip(top, best):
                        self.assertAlmostEqual(hit.score, score, delta=1e-9)


if __name__ == "__main__":
    unittest.main()
