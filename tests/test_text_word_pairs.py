"""The question's word pairs, found close together in a passage; and the names made of the
question's words."""

from __future__ import annotations

import unittest

from agentic_rag._text.composed_names import composed_name_share
from agentic_rag._text.relevance import RelevanceModel
from agentic_rag._text.word_pairs import PAIR_WINDOW, pair_share, question_pairs


class QuestionPairsTest(unittest.TestCase):
    def setUp(self) -> None:
        self.model = RelevanceModel()

    def test_adjacent_content_words_make_pairs_once_each(self):
        pairs = question_pairs("Which output format does the converter emit, and which output format is the default?", self.model)
        self.assertEqual([(a, b) for a, b, _ in pairs], [("output", "format"), ("format", "convert"), ("convert", "emit"), ("format", "default")])

    def test_a_pair_never_spans_a_comma_or_a_question_mark(self):
        pairs = [(a, b) for a, b, _ in question_pairs("My field is named token, but how do I keep the name? Which option?", self.model)]
        self.assertNotIn(("token", "keep"), pairs)
        self.assertNotIn(("name", "option"), pairs)
        self.assertIn(("field", "name"), pairs)

    def test_a_pair_weighs_what_its_lighter_word_weighs(self):
        weights = {t.term: t.weight for t in self.model.question_terms("How do I use the cache timeout?")}
        for first, second, weight in question_pairs("How do I use the cache timeout?", self.model):
            self.assertEqual(weight, min(weights[first], weights[second]))

    def test_a_question_of_one_word_has_no_pairs(self):
        self.assertEqual(question_pairs("Timeout?", self.model), ())
        self.assertEqual(pair_share("Timeout?", "The timeout is 30 seconds.", self.model), 0.0)


class PairShareTest(unittest.TestCase):
    def setUp(self) -> None:
        self.model = RelevanceModel()
        self.question = "What address does the development server listen on?"

    def test_words_kept_together_hold_the_pairs(self):
        self.assertEqual(pair_share(self.question, "The development server listens on this address.", self.model), 1.0)

    def test_either_order_counts(self):
        together = pair_share("What is the output format?", "The format of the output is HTML.", self.model)
        self.assertEqual(together, 1.0)

    def test_the_same_words_far_apart_hold_none(self):
        apart = ("Development of new features goes on in the open, with releases every month or so. "
                 "The server starts quickly: it reads its settings, loads each module, checks every route and then waits. "
                 "Each address it binds is printed in the log, and it will listen until stopped.")
        self.assertEqual(pair_share(self.question, apart, self.model), 0.0)

    def test_the_window_counts_analysed_terms_stop_words_left_out(self):
        text = "development one two three four server"
        self.assertGreater(pair_share("development server", text, self.model, window=PAIR_WINDOW + 1), 0.0)
        self.assertEqual(pair_share("development server", text, self.model, window=PAIR_WINDOW), 0.0)
        # stop words between the two do not count against the window
        self.assertEqual(pair_share("development server", "development of the and a server", self.model), 1.0)


class ComposedNameShareTest(unittest.TestCase):
    def setUp(self) -> None:
        self.model = RelevanceModel()
        self.question = "Is there a logger that simply returns whatever you pass to it?"

    def test_a_camel_case_name_made_of_two_question_words_counts(self):
        self.assertGreater(composed_name_share(self.question, "Use ReturnLogger in tests.", self.model), 0.0)

    def test_underscored_and_dashed_names_are_split_too(self):
        question = "How do I find out which variables a template expects?"
        self.assertGreater(composed_name_share(question, "meta.find_undeclared_variables(ast)", self.model), 0.0)
        question = "Valgrind reports leaks. How do I show which kinds of leak it reports?"
        self.assertGreater(composed_name_share(question, "--show-leak-kinds=<set> [default: definite,possible]", self.model), 0.0)

    def test_one_shared_word_is_no_name_of_the_question(self):
        self.assertEqual(composed_name_share(self.question, "Call logger.info() or PrintLogger.", self.model), 0.0)

    def test_a_name_the_question_states_is_its_subject_not_its_answer(self):
        question = "What does ReturnLogger return when I pass it a message?"
        self.assertEqual(composed_name_share(question, "ReturnLogger returns the message.", self.model), 0.0)

    def test_a_text_without_names_holds_none(self):
        self.assertEqual(composed_name_share(self.question, "A logger returns what you pass to it.", self.model), 0.0)


if __name__ == "__main__":
    unittest.main()
