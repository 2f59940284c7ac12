"""BM25Index writes: add/remove/update equal a fresh build; refusals; concurrent searches."""

from __future__ import annotations

import random
import threading
import unittest

from agentic_rag._contracts.corpus import Document
from agentic_rag._errors import InvalidInputError
from agentic_rag._retrieval.bm25 import BM25Index
from agentic_rag._text.analyzer import Analyzer

PLAIN = Analyzer(stopwords="none", stemmer=None)
WORDS = [f"w{i}" for i in range(120)]
WEIGHTS = [1.0 / (i + 1) for i in range(120)]


def make_docs(seed: int, count: int, prefix: str = "d") -> list[Document]:
    rng = random.Random(seed)
    return [
        Document(f"{prefix}{n:04d}", " ".join(rng.choices(WORDS, WEIGHTS, k=rng.randint(1, 25))),
                 title=" ".join(rng.choices(WORDS, WEIGHTS, k=2)) if n % 3 == 0 else "",
                 corpus_id="c1" if n % 2 else "c2")
        for n in range(count)
    ]


def make_queries(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choices(WORDS, k=rng.randint(1, 6))) for _ in range(count)]


class IncrementalEqualsFreshTest(unittest.TestCase):
    queries = make_queries(3, 60)

    def assert_same(self, index: BM25Index, documents: list[Document], **settings: object) -> None:
        fresh = BM25Index.from_documents(sorted(documents, key=lambda d: d.id), analyzer=PLAIN, **settings)
        self.assertEqual(index.document_ids(), fresh.document_ids())
        for query in self.queries:
            for k in (1, 10, 1000):
                got, want = index.search(query, k), fresh.search(query, k)
                # Same statistics and the same summation order give bit-identical scores.
                self.assertEqual([h.document_id for h in got], [h.document_id for h in want], query)
                for a, b in zip(got, want):
                    self.assertAlmostEqual(a.score, b.score, delta=1e-9)
                self.assertEqual(got, want)

    def test_add_in_batches(self) -> None:
        docs = make_docs(1, 200)
        for settings in ({}, {"variant": "robertson"}, {"variant": "bm25+", "title_weight": 1.5}):
            with self.subTest(**settings):
                index = BM25Index(analyzer=PLAIN, **settings)
                for start in range(0, 200, 37):
                    index.add(docs[start:start + 37])
                self.assert_same(index, docs, **settings)

    def test_remove_and_update(self) -> None:
        docs = make_docs(2, 200)
        for settings in ({}, {"variant": "robertson", "title_weight": 0.5}):
            with self.subTest(**settings):
                index = BM25Index.from_documents(docs, analyzer=PLAIN, **settings)
                index.search("w1 w2 w3")  # fill the impact caches, which writes must drop
                removed = {d.id for d in docs[::3]}
                index.remove(sorted(removed))
                replacements = [Document(d.id, d.text + " w119 extra", corpus_id="c3") for d in docs[1::5] if d.id not in removed]
                index.update(replacements)
                by_id = {d.id: d for d in docs if d.id not in removed}
                by_id.update({d.id: d for d in replacements})
                self.assert_same(index, list(by_id.values()), **settings)
                self.assertEqual(index.get(replacements[0].id), replacements[0])
                self.assertEqual(len(index), len(by_id))

    def test_remove_everything_then_add_again(self) -> None:
        docs = make_docs(4, 30)
        index = BM25Index.from_documents(docs, analyzer=PLAIN)
        index.remove([d.id for d in docs])
        self.assertEqual(len(index), 0)
        self.assertEqual(index.search("w0 w1"), [])
        index.add(docs[:10])
        self.assert_same(index, docs[:10])

    def test_compaction_after_many_removals(self) -> None:
        docs = make_docs(5, 1300)
        index = BM25Index.from_documents(docs, analyzer=PLAIN)
        index.remove([d.id for d in docs[:1200]])
        self.assertEqual(len(index._store.ids), 100)  # renumbered: the holes are gone
        self.assert_same(index, docs[1200:])
        index.add(make_docs(6, 5, prefix="new"))
        self.assert_same(index, docs[1200:] + make_docs(6, 5, prefix="new"))

    def test_remove_when_the_analyzer_no_longer_matches(self) -> None:
        # An index whose analyzer changed since indexing (say, a newer stemmer) still removes
        # every posting of the document, by scanning the vocabulary.
        docs = [Document("a", "running runners run"), Document("b", "runs quickly"), Document("c", "walks")]
        index = BM25Index.from_documents(docs, analyzer=PLAIN)
        index._analyzer = Analyzer(stopwords="none", stemmer="porter")
        index.remove(["a"])
        index._analyzer = PLAIN
        fresh = BM25Index.from_documents(docs[1:], analyzer=PLAIN)
        for query in ("running", "runs quickly", "run walks", "runners"):
            self.assertEqual(index.search(query), fresh.search(query))


class RefusalsTest(unittest.TestCase):
    def setUp(self) -> None:
        self.docs = make_docs(9, 10)
        self.index = BM25Index.from_documents(self.docs, analyzer=PLAIN)
        self.before = [self.index.search(q, 5) for q in make_queries(10, 10)]

    def assert_unchanged(self) -> None:
        self.assertEqual(len(self.index), 10)
        self.assertEqual([self.index.search(q, 5) for q in make_queries(10, 10)], self.before)

    def test_add_duplicate_ids(self) -> None:
        with self.assertRaises(InvalidInputError) as ctx:
            self.index.add([Document("fresh", "w1"), Document("d0003", "w1")])
        self.assertIn("'d0003'", str(ctx.exception))
        self.assertIn("update", str(ctx.exception))
        with self.assertRaises(InvalidInputError) as ctx:
            self.index.add([Document("x", "w1"), Document("x", "w2")])
        self.assertIn("'x'", str(ctx.exception))
        self.assertNotIn("fresh", self.index)
        self.assert_unchanged()

    def test_remove_unknown_ids(self) -> None:
        with self.assertRaises(InvalidInputError) as ctx:
            self.index.remove(["d0001", "nope", "gone"])
        self.assertIn("'gone', 'nope'", str(ctx.exception))
        self.assertIn("d0001", self.index)
        with self.assertRaises(InvalidInputError):
            self.index.remove("d0001")
        self.assert_unchanged()

    def test_update_unknown_ids(self) -> None:
        with self.assertRaises(InvalidInputError) as ctx:
            self.index.update([Document("d0001", "w5"), Document("nope", "w1")])
        self.assertIn("'nope'", str(ctx.exception))
        self.assert_unchanged()

    def test_bad_items(self) -> None:
        for bad in (Document("solo", "w1"), "text", [Document("ok", "w1"), {"id": "x"}]):
            with self.subTest(bad=type(bad).__name__), self.assertRaises(InvalidInputError):
                self.index.add(bad)  # type: ignore[arg-type]
        self.assert_unchanged()

    def test_remove_repeated_id_once(self) -> None:
        self.index.remove(["d0001", "d0001"])
        self.assertEqual(len(self.index), 9)


class ThreadSafetyTest(unittest.TestCase):
    def test_concurrent_searches_match_sequential_ones(self) -> None:
        index = BM25Index.from_documents(make_docs(11, 400), analyzer=PLAIN)
        queries = make_queries(12, 80)
        expected = {q: index.search(q, 10) for q in queries}
        index.add([Document("late", "w1 w2")])  # drop caches so threads race to refill them
        index.remove(["late"])
        errors: list[str] = []

        def reader(seed: int) -> None:
            order = list(queries)
            random.Random(seed).shuffle(order)
            for query in order:
                if index.search(query, 10) != expected[query]:
                    errors.append(query)

        threads = [threading.Thread(target=reader, args=(s,)) for s in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        self.assertFalse(any(t.is_alive() for t in threads), "readers did not finish")
        self.assertEqual(errors, [])

    def test_searches_during_writes(self) -> None:
        base = make_docs(13, 300)
        index = BM25Index.from_documents(base, analyzer=PLAIN)
        queries = make_queries(14, 30)
        expected = {q: index.search(q, 10) for q in queries}
        extra = make_docs(15, 40, prefix="x")
        failures: list[str] = []
        stop = threading.Event()

        def writer() -> None:
            try:
                for round_ in range(15):
                    index.add(extra)
                    index.update([Document(d.id, d.text + " w0") for d in extra[:5]])
                    index.remove([d.id for d in extra])
            except Exception as exc:  # noqa: BLE001 - reported through the assertion below
                failures.append(f"writer: {exc!r}")
            finally:
                stop.set()

        def reader() -> None:
            try:
                while not stop.is_set():
                    for query in queries:
                        hits = index.search(query, 10)
                        keys = [(-h.score, h.document_id) for h in hits]
                        if keys != sorted(keys) or len(set(keys)) != len(keys) or len(hits) > 10:
                            failures.append(f"bad ranking for {query!r}")
            except Exception as exc:  # noqa: BLE001
                failures.append(f"reader: {exc!r}")

        threads = [threading.Thread(target=writer)] + [threading.Thread(target=reader) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        self.assertFalse(any(t.is_alive() for t in threads), "threads did not finish")
        self.assertEqual(failures, [])
        self.assertEqual({q: index.search(q, 10) for q in queries}, expected)


if __name__ == "__main__":
    unittest.main()
