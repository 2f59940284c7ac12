"""What ``relevance`` reads of a hit: the features of the answer-likelihood model and where it
puts the "weak" line."""

import math
import unittest

from agentic_rag._answering.answer_likelihood import FEATURES, WEIGHTS, answer_likelihood, hit_features, likelihood, names_absent
from agentic_rag._text.relevance import RelevanceModel
from agentic_rag._text.term_weights import TermWeights

WEAK = 0.5
# A store of 400 chunks: "trio" and "initech" are in none of them, the rest in a few.
FREQUENCIES = {"trio": 0, "initech": 0, "acm": 3, "robot": 5, "render": 20, "async": 8, "asyncio": 2, "run": 40, "default": 60, "timeout": 6,
               "cach": 9, "simplecach": 2, "second": 30, "templat": 90}


def store_model(chunks: int = 400) -> RelevanceModel:
    return RelevanceModel(weights=TermWeights(chunks, lambda term: FREQUENCIES.get(term, 1)))


class AnswerLikelihoodTest(unittest.TestCase):
    def test_weights_match_features(self):
        self.assertEqual(len(WEIGHTS), len(FEATURES) + 1)

    def test_features_are_deterministic(self):
        args = ("How do I run async rendering under trio?", "Async Support", "Rendering runs under asyncio.", "3: Rendering runs under asyncio.")
        self.assertEqual(hit_features(*args, store_model()), hit_features(*args, store_model()))
        self.assertEqual(answer_likelihood(*args, store_model()), answer_likelihood(*args, store_model()))

    def test_a_question_term_the_store_never_uses_makes_a_weak_hit(self):
        model = store_model()
        question = "How do I run async rendering under trio?"
        text = "Async rendering runs under asyncio: call render_async() from a coroutine."
        features = dict(zip(FEATURES, hit_features(question, "Async Support", text, text, model)))
        self.assertEqual(features["unknown_missing"], 1.0)
        self.assertLess(answer_likelihood(question, "Async Support", text, text, model), WEAK)
        # the same hit for the question without the unknown word is not weak
        self.assertGreaterEqual(answer_likelihood("How do I run async rendering under asyncio?", "Async Support", text, text, model), WEAK)

    def test_an_unknown_word_means_little_in_a_few_notes(self):
        # three notes use almost none of a question's words: a paraphrase is likely, not a missing topic
        features = dict(zip(FEATURES, hit_features("How do I run async rendering under trio?", "", "Async rendering.", "Async rendering.",
                                                   store_model(chunks=3))))
        self.assertEqual(features["unknown_missing"], 0.0)

    def test_a_name_the_store_never_mentions_makes_a_weak_hit(self):
        text = "It builds warehouse robots."
        self.assertLess(answer_likelihood("Which robots does Initech build?", "Acme", text, text, store_model()), WEAK)

    def test_a_focus_stating_the_asked_value_in_the_questions_words_is_not_weak(self):
        question = "How many seconds is the SimpleCache timeout?"
        focus = "The SimpleCache timeout is 300 seconds."
        value = answer_likelihood(question, "Caching", focus, focus, store_model())
        self.assertGreaterEqual(value, WEAK)
        # the same words without the number asked for are weaker
        vague = "The SimpleCache timeout is given in seconds."
        self.assertLess(answer_likelihood(question, "Caching", vague, vague, store_model()), value)

    def test_a_later_hits_single_line_weighs_less(self):
        args = ("What is the default timeout of SimpleCache in seconds?", "Caching", "SimpleCache: the default timeout is 300 seconds.",
                "SimpleCache: the default timeout is 300 seconds.", store_model())
        self.assertLess(answer_likelihood(*args, whole=False), answer_likelihood(*args))

    def test_a_keyword_query_counts_as_a_short_question(self):
        model = store_model()
        terms = FEATURES.index("question_terms")
        short = hit_features("acme robots", "", "Acme robots.", "Acme robots.", model)[terms]
        self.assertEqual(short, math.log1p(5))
        self.assertGreater(hit_features("How do I run async rendering of a template under asyncio with a timeout?", "", "x", "x", model)[terms], short)

    def test_a_near_miss_stating_another_settings_value_is_below_the_line_that_answers(self):
        model = store_model()
        question = "What is the default timeout of SimpleCache?"
        answer = "SimpleCache: the default timeout is 300 seconds."
        near = "FileSystemCache: the default timeout is 600 seconds."
        got = {name: dict(zip(FEATURES, hit_features(question, "Caching", focus, focus, model))) for name, focus in (("answer", answer), ("near", near))}
        self.assertEqual((got["answer"]["states_answer"], got["answer"]["states_other"]), (1.0, 0.0))
        self.assertEqual((got["near"]["states_answer"], got["near"]["states_other"]), (0.0, 1.0))
        self.assertGreater(answer_likelihood(question, "Caching", answer, answer, model), answer_likelihood(question, "Caching", near, near, model))

    def test_the_rival_bound_is_a_near_miss(self):
        model = store_model()
        question = "What is the maximum cache timeout in seconds?"
        rival = "The minimum cache timeout is 5 seconds."
        features = dict(zip(FEATURES, hit_features(question, "Caching", rival, rival, model)))
        self.assertEqual((features["states_answer"], features["states_other"]), (0.0, 1.0))
        answer = "The maximum cache timeout is 3600 seconds."
        self.assertGreater(answer_likelihood(question, "Caching", answer, answer, model), answer_likelihood(question, "Caching", rival, rival, model))

    def test_numbered_pieces_are_read_as_the_focus_statements(self):
        # a table row with its header row is one numbered piece: read together, not line by line
        question = "What is the default timeout of SimpleCache?"
        numbered = "3-4: Name | Default\nSimpleCache timeout | 300 seconds\n9: Caches are kept in memory."
        plain = "Name | Default\nSimpleCache timeout | 300 seconds\n\nCaches are kept in memory."
        features = dict(zip(FEATURES, hit_features(question, "Caching", plain, numbered, store_model())))
        self.assertEqual(features["states_answer"], 1.0)

    def test_likelihood_is_a_probability(self):
        for features in ([0.0] * len(FEATURES), [1.0] * len(FEATURES)):
            self.assertTrue(0.0 < likelihood(features) < 1.0)
        self.assertLessEqual(likelihood([1000.0] * len(FEATURES)), 1.0)  # clamped, no overflow


if __name__ == "__main__":
    unittest.main()


class AbsentNameRuleTest(unittest.TestCase):
    def test_a_hit_lacking_the_stated_identifier_is_weak(self):
        model = store_model()
        question = "How many seconds is the default_timeout of SimpleCache?"
        lacking = "The SimpleCache default timeout is 300 seconds."
        holding = "The SimpleCache default_timeout is 300 seconds."
        self.assertLess(answer_likelihood(question, "Caching", lacking, lacking, model), WEAK)
        self.assertGreaterEqual(answer_likelihood(question, "Caching", holding, holding, model), WEAK)
        self.assertTrue(names_absent(question, "Caching", lacking, model))
        self.assertFalse(names_absent(question, "Caching", "3: " + holding, model))
        # without the rule the lacking hit would have read as likely to answer
        self.assertGreaterEqual(likelihood(hit_features(question, "Caching", lacking, lacking, model)), WEAK)
