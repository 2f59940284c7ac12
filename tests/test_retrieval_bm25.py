"""BM25Index: hand-computed scores for every variant, settings, search semantics, filters."""

from __future__ import annotations

import math
import unittest

from agentic_rag._contracts import Snippet
from agentic_rag._contracts.corpus import Document
from agentic_rag._errors import InvalidInputError
from agentic_rag._retrieval.bm25 import BM25Index
from agentic_rag._retrieval.bm25_retriever import BM25Retriever
from agentic_rag._retrieval.bm25_scoring import BM25_VARIANTS
from agentic_rag._text.analyzer import Analyzer

PLAIN = Analyzer(stopwords="none", stemmer=None)

# Golden corpus (no stop words, no stemming): N = 5, lengths 4, 3, 5, 1, 2 -> avgdl = 15/5 = 3.
# df: apple 1, banana 2, cherry 2, date 2, elder 1, fig 4.
# norm(dl) = k1 * (1 - b + b * dl / avgdl) with k1 = 0.9, b = 0.4:
#   d1 (dl 4): 0.9 * (0.6 + 0.4 * 4/3) = 0.9 * 1.133333 = 1.02
#   d2 (dl 3): 0.9 * (0.6 + 0.4)       = 0.9
#   d3 (dl 5): 0.9 * (0.6 + 0.4 * 5/3) = 0.9 * 1.266667 = 1.14
#   d5 (dl 2): 0.9 * (0.6 + 0.4 * 2/3) = 0.9 * 0.866667 = 0.78
GOLDEN = [
    Document("d1", "apple banana apple fig"),
    Document("d2", "banana cherry fig"),
    Document("d3", "cherry cherry cherry date fig"),
    Document("d4", "date"),
    Document("d5", "elder fig"),
]
QUERY = "apple fig"

# Lucene: idf = ln(1 + (N - df + .5) / (df + .5)); tf part tf / (tf + norm).
#   idf(apple) = ln(1 + 4.5 / 1.5) = ln 4   = 1.3862944
#   idf(fig)   = ln(1 + 1.5 / 4.5) = ln 4/3 = 0.2876821
#   d1 = 1.3862944 * 2 / (2 + 1.02) + 0.2876821 * 1 / (1 + 1.02)
#      = 1.3862944 * 0.6622517 + 0.2876821 * 0.4950495 = 0.9180758 + 0.1424169 = 1.0604927
#   d5 = 0.2876821 / 1.78 = 0.1616191;  d2 = 0.2876821 / 1.9 = 0.1514116;  d3 = 0.2876821 / 2.14 = 0.1344309
LUCENE = [("d1", 1.0604927), ("d5", 0.1616191), ("d2", 0.1514116), ("d3", 0.1344309)]

# Robertson: idf = ln((N - df + .5) / (df + .5)); tf part tf * (k1 + 1) / (tf + norm).
#   idf(apple) = ln(4.5 / 1.5) = ln 3 = 1.0986123; idf(fig) = ln(1.5 / 4.5) = -1.0986123 < 0, so it
#   is floored at 0.25 * mean idf over the vocabulary:
#   mean = (apple 1.0986123 + elder 1.0986123 + banana, cherry, date 3 * ln(3.5/2.5) = 3 * 0.3364722
#           + fig -1.0986123) / 6 = 2.1080289 / 6 = 0.3513382 -> floor = 0.0878345
#   d1 = 1.0986123 * 2 * 1.9 / 3.02 + 0.0878345 * 1.9 / 2.02
#      = 1.0986123 * 1.2582781 + 0.0878345 * 0.9405941 = 1.3823600 + 0.0826166 = 1.4649766
#   d5 = 0.0878345 * 1.9 / 1.78 = 0.0937560;  d2 = 0.0878345 * 1.9 / 1.9 = 0.0878345
#   d3 = 0.0878345 * 1.9 / 2.14 = 0.0779839
ROBERTSON = [("d1", 1.4649766), ("d5", 0.0937560), ("d2", 0.0878345), ("d3", 0.0779839)]

# BM25+ (delta 1): idf = ln((N + 1) / df): apple ln 6 = 1.7917595, fig ln 1.5 = 0.4054651.
#   d1 = 1.7917595 * (1.2582781 + 1) + 0.4054651 * (0.9405941 + 1) = 4.0462898 + 0.7868447 = 4.8331345
#   d5 = 0.4054651 * (1.9 / 1.78 + 1) = 0.4054651 * 2.0674157 = 0.8382649
#   d2 = 0.4054651 * 2 = 0.8109302;  d3 = 0.4054651 * (0.8878505 + 1) = 0.7654575
BM25_PLUS = [("d1", 4.8331345), ("d5", 0.8382649), ("d2", 0.8109302), ("d3", 0.7654575)]

# ATIRE: idf = ln(N / df): apple ln 5 = 1.6094379, fig ln 1.25 = 0.2231436.
#   d1 = 1.6094379 * 1.2582781 + 0.2231436 * 0.9405941 = 2.0251204 + 0.2098876 = 2.2350080
#   d5 = 0.2231436 * 1.0674157 = 0.2381869;  d2 = 0.2231436;  d3 = 0.2231436 * 0.8878505 = 0.1981181
ATIRE = [("d1", 2.2350080), ("d5", 0.2381869), ("d2", 0.2231436), ("d3", 0.1981181)]


def ranked(index: BM25Index, query: str, k: int = 10, **kwargs: object) -> list[tuple[str, float]]:
    return [(h.document_id, h.score) for h in index.search(query, k, **kwargs)]


class GoldenScoresTest(unittest.TestCase):
    def check(self, variant: str, expected: list[tuple[str, float]]) -> None:
        index = BM25Index.from_documents(GOLDEN, analyzer=PLAIN, variant=variant)
        for exhaustive in (False, True):
            got = ranked(index, QUERY, exhaustive=exhaustive)
            self.assertEqual([d for d, _ in got], [d for d, _ in expected])
            for (_, score), (_, want) in zip(got, expected):
                self.assertAlmostEqual(score, want, delta=1e-6)

    def test_lucene(self) -> None:
        self.check("lucene", LUCENE)

    def test_robertson_with_negative_idf_floor(self) -> None:
        self.check("robertson", ROBERTSON)

    def test_okapi_is_robertson(self) -> None:
        self.check("okapi", ROBERTSON)

    def test_bm25_plus(self) -> None:
        self.check("bm25+", BM25_PLUS)

    def test_atire(self) -> None:
        self.check("atire", ATIRE)

    def test_hits_carry_corpus_id(self) -> None:
        docs = [Document("x", "apple", corpus_id="fruit"), Document("y", "apple pie", corpus_id="food")]
        index = BM25Index.from_documents(docs, analyzer=PLAIN)
        self.assertEqual({h.document_id: h.corpus_id for h in index.search("apple")}, {"x": "fruit", "y": "food"})

    def test_repeated_query_term_counts_twice(self) -> None:
        index = BM25Index.from_documents(GOLDEN, analyzer=PLAIN)
        once = dict(ranked(index, "apple"))
        twice = dict(ranked(index, "apple apple"))
        self.assertAlmostEqual(twice["d1"], 2 * once["d1"], delta=1e-12)


class SettingsTest(unittest.TestCase):
    def test_unknown_variant_lists_the_registry(self) -> None:
        with self.assertRaises(InvalidInputError) as ctx:
            BM25Index(variant="bm42")
        self.assertIn("'bm42'", str(ctx.exception))
        for name in BM25_VARIANTS:
            self.assertIn(repr(name), str(ctx.exception))

    def test_out_of_range_parameters_are_named(self) -> None:
        bad = [("k1", -0.1), ("k1", math.inf), ("b", 1.5), ("b", -0.01), ("delta", -1.0),
               ("title_weight", -0.5), ("k1", math.nan), ("b", True), ("k1", "1")]
        for name, value in bad:
            with self.subTest(name=name, value=value), self.assertRaises(InvalidInputError) as ctx:
                BM25Index(**{name: value})
            self.assertIn(name, str(ctx.exception))
            self.assertIn(repr(value), str(ctx.exception))

    def test_analyzer_must_be_an_analyzer(self) -> None:
        with self.assertRaises(InvalidInputError):
            BM25Index(analyzer="english")  # type: ignore[arg-type]

    def test_defaults(self) -> None:
        index = BM25Index()
        self.assertEqual((index.variant, index.k1, index.b, index.delta, index.title_weight), ("lucene", 0.9, 0.4, 1.0, 1.0))
        self.assertEqual(index.analyzer, Analyzer())

    def test_title_is_indexed_with_the_text(self) -> None:
        index = BM25Index.from_documents([Document("t", "body words", title="Heading"), Document("u", "other")], analyzer=PLAIN)
        self.assertEqual([h.document_id for h in index.search("heading")], ["t"])

    def test_title_weight_multiplies_tf_and_length(self) -> None:
        # Weight 2 on "apple" in the title equals indexing it twice in the text: tf 2, dl 3.
        weighted = BM25Index.from_documents([Document("a", "pear", title="apple"), Document("b", "plum plum")],
                                            analyzer=PLAIN, title_weight=2.0)
        plain = BM25Index.from_documents([Document("a", "pear apple apple"), Document("b", "plum plum")], analyzer=PLAIN)
        for query in ("apple", "pear", "plum"):
            self.assertEqual(ranked(weighted, query), ranked(plain, query))

    def test_title_weight_zero_ignores_titles(self) -> None:
        index = BM25Index.from_documents([Document("a", "pear", title="apple")], analyzer=PLAIN, title_weight=0)
        self.assertEqual(index.search("apple"), [])
        self.assertEqual(len(index.search("pear")), 1)


class SearchSemanticsTest(unittest.TestCase):
    def setUp(self) -> None:
        self.index = BM25Index.from_documents(GOLDEN, analyzer=Analyzer(stopwords="english", stemmer=None))

    def test_empty_and_stopword_queries_return_nothing(self) -> None:
        for query in ("", "   ", "the of and", "!!!", "unknownword"):
            self.assertEqual(self.index.search(query), [], query)

    def test_bad_k_and_query(self) -> None:
        for k in (0, -1, 1.5, True, "3"):
            with self.subTest(k=k), self.assertRaises(InvalidInputError) as ctx:
                self.index.search("apple", k)  # type: ignore[arg-type]
            self.assertIn(repr(k), str(ctx.exception))
        with self.assertRaises(InvalidInputError):
            self.index.search(None)  # type: ignore[arg-type]

    def test_k_larger_than_corpus_returns_every_match(self) -> None:
        for exhaustive in (False, True):
            hits = self.index.search("fig date", 100, exhaustive=exhaustive)
            self.assertEqual(sorted(h.document_id for h in hits), ["d1", "d2", "d3", "d4", "d5"])
        self.assertEqual([h.document_id for h in self.index.search("apple", 100)], ["d1"])
        self.assertEqual(len(self.index.search("fig", 2)), 2)

    def test_ties_are_broken_by_document_id(self) -> None:
        docs = [Document(i, "same words here") for i in ("m", "b", "z", "a", "k")] + [Document("q", "other")]
        index = BM25Index.from_documents(docs, analyzer=PLAIN)
        for k in (1, 2, 3, 5, 10):
            for exhaustive in (False, True):
                hits = index.search("words same", k, exhaustive=exhaustive)
                self.assertEqual([h.document_id for h in hits], ["a", "b", "k", "m", "z"][:k])
                self.assertEqual(len({h.score for h in hits}), 1)

    def test_get_len_contains_ids(self) -> None:
        self.assertEqual(len(self.index), 5)
        self.assertIn("d3", self.index)
        self.assertNotIn("d9", self.index)
        self.assertNotIn(3, self.index)
        self.assertEqual(self.index.get("d2"), GOLDEN[1])
        self.assertEqual(self.index.document_ids(), ["d1", "d2", "d3", "d4", "d5"])
        with self.assertRaises(InvalidInputError) as ctx:
            self.index.get("d9")
        self.assertIn("'d9'", str(ctx.exception))
        self.assertIn("5 documents", repr(self.index))

    def test_non_ascii_text(self) -> None:
        docs = [
            Document("de", "Die Universität Zürich liegt am See"),
            Document("fr", "Un café naïve à Montréal"),
            Document("ru", "Москва столица России"),
            Document("zh", "北京是中国的首都"),
            Document("el", "Η Αθήνα είναι αρχαία πόλη"),
        ]
        index = BM25Index.from_documents(docs)
        for query, expected in [("zürich", "de"), ("ZÜRICH universität", "de"), ("naïve CAFÉ", "fr"),
                                ("москва", "ru"), ("中国首都", "zh"), ("αθήνα", "el")]:
            with self.subTest(query=query):
                self.assertEqual([h.document_id for h in index.search(query)][:1], [expected])


class FilterTest(unittest.TestCase):
    def setUp(self) -> None:
        docs = [
            Document("a1", "solar power panels", corpus_id="energy", metadata={"year": 2020, "tags": ["x"]}),
            Document("a2", "solar wind power", corpus_id="energy", metadata={"year": 2021}),
            Document("b1", "solar system planets", corpus_id="space", metadata={"year": 2020}),
            Document("b2", "power of planets", corpus_id="space", metadata={"year": 2022}),
        ]
        self.index = BM25Index.from_documents(docs, analyzer=PLAIN)

    def ids(self, query: str, **kwargs: object) -> list[str]:
        pruned = [h.document_id for h in self.index.search(query, 10, **kwargs)]
        exhaustive = [h.document_id for h in self.index.search(query, 10, exhaustive=True, **kwargs)]
        self.assertEqual(pruned, exhaustive)
        return sorted(pruned)

    def test_corpus_ids(self) -> None:
        self.assertEqual(self.ids("solar power", corpus_ids=["space"]), ["b1", "b2"])
        self.assertEqual(self.ids("solar power", corpus_ids=["energy", "space"]), ["a1", "a2", "b1", "b2"])
        self.assertEqual(self.ids("solar power", corpus_ids=["nowhere"]), [])
        self.assertEqual(self.ids("solar power", corpus_ids=[]), [])

    def test_where_equality_and_any_of(self) -> None:
        self.assertEqual(self.ids("solar power planets", where={"year": 2020}), ["a1", "b1"])
        self.assertEqual(self.ids("solar power planets", where={"year": [2021, 2022]}), ["a2", "b2"])
        self.assertEqual(self.ids("solar power planets", where={"year": 2020}, corpus_ids=["space"]), ["b1"])
        self.assertEqual(self.ids("solar power planets", where={"missing": 1}), [])
        self.assertEqual(self.ids("solar", where={"tags": ["x"]}), ["a1"])

    def test_filter_scores_are_unfiltered_scores(self) -> None:
        everything = dict(ranked(self.index, "solar power"))
        for doc_id, score in ranked(self.index, "solar power", corpus_ids=["space"]):
            self.assertEqual(score, everything[doc_id])

    def test_bad_filters(self) -> None:
        with self.assertRaises(InvalidInputError):
            self.index.search("solar", corpus_ids="energy")
        with self.assertRaises(InvalidInputError):
            self.index.search("solar", where=[("year", 2020)])  # type: ignore[arg-type]

    def test_filter_with_unhashable_metadata_value(self) -> None:
        index = BM25Index.from_documents([Document("m", "solar", metadata={"info": {"a": 1}})], analyzer=PLAIN)
        self.assertEqual([h.document_id for h in index.search("solar", where={"info": {"a": 1}})], ["m"])


class RetrieverTest(unittest.TestCase):
    def test_retriever_returns_snippets(self) -> None:
        retriever = BM25Retriever.from_documents(GOLDEN, analyzer=PLAIN, name="golden")
        snippets = retriever.retrieve(QUERY, 2)
        self.assertTrue(all(isinstance(s, Snippet) for s in snippets))
        self.assertEqual([s.document_id for s in snippets], ["d1", "d5"])
        self.assertAlmostEqual(snippets[0].score, LUCENE[0][1], delta=1e-6)
        self.assertEqual(snippets[0].text, GOLDEN[0].text)
        self.assertEqual(retriever.name, "golden")

    def test_retriever_where_and_corpus_ids(self) -> None:
        docs = [Document("a", "apple", corpus_id="c1", metadata={"lang": "en"}),
                Document("b", "apple", corpus_id="c2", metadata={"lang": "de"})]
        index = BM25Index.from_documents(docs, analyzer=PLAIN)
        self.assertEqual([s.document_id for s in BM25Retriever(index, where={"lang": "de"}).retrieve("apple", 5)], ["b"])
        self.assertEqual([s.document_id for s in BM25Retriever(index).retrieve("apple", 5, corpus_ids=["c1"])], ["a"])

    def test_retriever_needs_a_bm25_index(self) -> None:
        with self.assertRaises(InvalidInputError):
            BM25Retriever(object())  # type: ignore[arg-type]


if __name__ == "__main__":
    unittest.main()
