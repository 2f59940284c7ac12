"""Weighted question coverage: paraphrase is read, names and asked-for numbers are required,
and units are ranked so the sentence that answers comes first."""

from __future__ import annotations

import unittest

from agentic_rag._contracts import Document
from agentic_rag._retrieval import BM25Index
from agentic_rag._text.relevance import RelevanceModel, TermWeights
from agentic_rag._text.term_weights import bounded_cache

PAGES = {
    "redirects": "Redirects are followed by default. Pass follow_redirects=False to stop the client from following them; the response is then the 301 itself.",
    "timeouts": "Every request has a timeout of 5 seconds by default. Set timeout=None to wait forever.",
    "install": "Install the package with pip:\n\npip install acmehttp",
    "pool": "The connection pool keeps connections open. The pool size is set with max_connections.",
    "auth": "Authentication uses the auth argument with a tuple of user name and password.",
    "cookies": "Cookies set by the server are kept by the client and sent back on later requests.",
}


def model() -> RelevanceModel:
    index = BM25Index.from_documents([Document(id=k, text=v) for k, v in PAGES.items()])
    return RelevanceModel(index.analyzer, weights=TermWeights.from_index(index))


class WeightsTest(unittest.TestCase):
    def test_bm25_document_frequency(self) -> None:
        index = BM25Index.from_documents([Document(id=k, text=v) for k, v in PAGES.items()])
        self.assertEqual(index.document_frequency("pool"), 1)
        self.assertEqual(index.document_frequency("connect"), 1)
        self.assertEqual(index.document_frequency("never-seen"), 0)
        weights = TermWeights.from_index(index)
        self.assertGreater(weights.idf("pool"), weights.idf("client"))

    def test_uniform_without_statistics(self) -> None:
        self.assertEqual(TermWeights().idf("anything"), 1.0)
        self.assertFalse(TermWeights().has_statistics)


class CoverageTest(unittest.TestCase):
    def setUp(self) -> None:
        self.model = model()

    def test_paraphrased_question_covers_the_answering_page(self) -> None:
        question = "How do I make the client quit chasing redirects?"
        share = self.model.answer_share(question, "", PAGES["redirects"])
        self.assertGreater(share, 0.5)
        self.assertGreater(share, max(self.model.answer_share(question, "", PAGES[k]) for k in PAGES if k != "redirects"))

    def test_identifier_parts_match(self) -> None:
        self.assertEqual(self.model.coverage("follow redirects", "Pass follow_redirects=False."), 1.0)
        self.assertEqual(self.model.coverage("follow redirects", "Call followRedirects(false)."), 1.0)

    def test_asking_verbs_weigh_little(self) -> None:
        terms = {t.term: t.weight for t in self.model.question_terms("How do I use the pool?")}
        self.assertLess(terms["use"], terms["pool"])

    def test_since_opening_a_question_asks(self) -> None:
        # "since when" asks as "when" does: a passage that says "as of version 3.38.0" covers
        # the whole question (the question word "since" was a term it lacked).
        question = "Since when are the JSON functions built in?"
        self.assertNotIn("sinc", {t.term for t in self.model.question_terms(question)})
        self.assertEqual(self.model.coverage(question, "The JSON functions are built in as of version 3.38.0."), 1.0)
        self.assertIn("sinc", {t.term for t in self.model.question_terms("Which functions changed since the last release?")})

    def test_a_missing_name_is_reported(self) -> None:
        self.assertIn("oauth2", self.model.missing_named("How do I set up OAuth2 tokens?", PAGES["auth"]))
        self.assertEqual(self.model.missing_named("How do I set the timeout?", PAGES["timeouts"]), ())
        self.assertIn("HTTP/2", self.model.missing_named("Does it speak HTTP/2?", "It speaks HTTP and 2 protocols."))

    def test_a_count_needs_its_noun_and_a_digit(self) -> None:
        question = "How many employees does the client have?"
        self.assertTrue(self.model.wants_number(question))
        self.assertIn("employe", self.model.missing_named(question, PAGES["cookies"]))
        with_digit = self.model.answer_share("How many seconds is the timeout?", "", PAGES["timeouts"])
        without = self.model.answer_share("How many seconds is the timeout?", "", "The timeout is measured in seconds.")
        self.assertGreater(with_digit, without)

    def test_ranked_units_put_the_answer_first(self) -> None:
        ranked = self.model.rank_units("What is the default timeout?", [("", PAGES["pool"]), ("", PAGES["timeouts"])])
        self.assertEqual(ranked[0].unit.text, "Every request has a timeout of 5 seconds by default.")
        self.assertEqual(ranked[0].passage, 1)
        again = self.model.rank_units("What is the default timeout?", [("", PAGES["pool"]), ("", PAGES["timeouts"])])
        self.assertEqual(ranked, again)

    def test_a_version_asked_for_may_stand_in_the_section_heading(self) -> None:
        passages = [("24.3.0 - 2024-12-16 \u203a Backwards-incompatible Changes", "- Python 3.7 has been dropped.\n  #1340"),
                    ("Installation", "Python 3.7 is the oldest version the docs mention.")]
        best = self.model.rank_units("Which release dropped Python 3.7?", passages)[0]
        self.assertEqual(best.unit.text, "- Python 3.7 has been dropped.\n  #1340")
        self.assertEqual(best.heading, passages[0][0])
        # The question's own number and an issue number are no answer.
        self.assertEqual(self.model.rank_units("Which release dropped Python 3.7?", passages[1:])[0].heading, "")

    def test_a_number_question_needs_a_number_and_a_future_version_is_not_a_heading(self) -> None:
        numbered = self.model.answer_share("How many seconds does a request wait by default?", "", PAGES["timeouts"])
        vague = self.model.answer_share("How many seconds does a request wait by default?", "", "A request waits a few seconds by default.")
        self.assertGreater(numbered, vague / 0.6 - 1e-9)
        passages = [("2.0.0 \u203a Changes", "- The pool option is deprecated and will be removed.")]
        self.assertEqual(self.model.rank_units("In which version will the pool option be removed?", passages)[0].heading, "")

    def test_a_default_asked_for_must_be_stated(self) -> None:
        question = "What timeout does the client use by default?"
        stated = self.model.answer_share(question, "", PAGES["timeouts"])
        unstated = self.model.answer_share(question, "", "Every request of the client has a timeout. Set timeout=None to wait forever.")
        self.assertLess(unstated, 0.7 * stated)

    def test_huge_queries_are_not_kept_in_the_caches(self) -> None:
        # A long-running server asked 20,000-character queries must not keep each one.
        before = (self.model._question.cache_info().currsize, self.model._shares.cache_info().currsize)
        for n in range(3):
            huge = f"timeout {n} " + "word " * 4000
            self.model.answer_share(huge, "", PAGES["timeouts"])
        self.assertEqual((self.model._question.cache_info().currsize, self.model._shares.cache_info().currsize), before)
        self.model.answer_share("What is the timeout?", "", PAGES["timeouts"])
        self.assertGreater(self.model._shares.cache_info().currsize, before[1])

    def test_a_unit_naming_an_api_wins_a_tie(self) -> None:
        passage = ("", "You can compute the hash once. Pass cache_hash=True to compute the hash once.")
        best = self.model.rank_units("How do I compute the hash once?", [passage])[0]
        self.assertIn("cache_hash", best.unit.text)

    def test_best_units_keep_a_lead_in_with_its_command(self) -> None:
        picked = self.model.best_units("What is the pip command to install it?", [("", PAGES["install"])], max_units=1)
        self.assertEqual(picked[0].unit.text, "Install the package with pip:\n\npip install acmehttp")



class BoundedCacheTest(unittest.TestCase):
    """The caches of the text passes: short arguments by value, long ones by a fingerprint
    (kept apart, few at a time), the longest not at all."""

    def _counted(self, **options: int):
        calls: list[str] = []

        def function(text: str) -> int:
            calls.append(text)
            return len(text)

        return bounded_cache(function, 8, **options), calls

    def test_a_long_text_asked_about_again_is_read_once(self):
        cached, calls = self._counted()
        text = "data " * 10_000  # 50,000 characters: over the short cache's limit
        self.assertEqual([cached(text), cached("".join(["data "] * 10_000))], [50_000, 50_000])  # an equal text, another object
        self.assertEqual(len(calls), 1)
        cached(text[:-1] + "!")  # same length and start, another end: another entry
        self.assertEqual(len(calls), 2)

    def test_few_long_results_are_kept(self):
        cached, calls = self._counted(long_entries=2)
        texts = [f"{n} " + "x" * 20_000 for n in range(3)]
        for text in texts + texts[-1:]:
            cached(text)
        self.assertEqual(len(calls), 3)  # the last one again: kept
        cached(texts[0])  # the first was pushed out
        self.assertEqual(len(calls), 4)

    def test_the_longest_texts_are_not_cached(self):
        cached, calls = self._counted()
        huge = "x" * (1 << 20 | 1)
        cached(huge)
        cached(huge)
        self.assertEqual(len(calls), 2)
        cached("short")
        cached("short")
        self.assertEqual(len(calls), 3)


if __name__ == "__main__":
    unittest.main()
