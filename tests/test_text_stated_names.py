"""The names a query states as written, and which of them a hit's lines lack."""

import unittest

from agentic_rag._text.relevance import RelevanceModel
from agentic_rag._text.stated_names import absent_names, stated_names
from agentic_rag._text.term_weights import TermWeights

# A store of 1,000 chunks: "sql" is in most, "rate" in two, the rest in a few dozen.
FREQUENCIES = {"sql": 600, "rate": 2, "limit": 40, "merg": 5, "protocol": 1}


def store_model() -> RelevanceModel:
    return RelevanceModel(weights=TermWeights(1000, lambda term: FREQUENCIES.get(term, 30)))


class StatedNamesTest(unittest.TestCase):
    def test_identifiers_options_calls_and_quotes_are_names(self):
        names = stated_names('How do I set cache_size with --no-cache, call render_template() on followRedirects in "strict mode"?', store_model())
        self.assertEqual(names, ("cache_size", "--no-cache", "render_template", "followredirects", "strict mode"))

    def test_capitals_in_a_question_are_left_to_the_coverage(self):
        # Measured on the development halves: "PEP 681", "RSA and ECDSA" as required names made
        # right top hits weak.
        self.assertEqual(stated_names("What does PEP 681 add?", store_model()), ())
        self.assertEqual(stated_names("Which release added the MERGE INTO statement?", store_model()), ())

    def test_capitals_in_a_keyword_query_are_names_unless_common(self):
        model = store_model()
        self.assertEqual(stated_names("MERGE INTO statement USING", model), ("merge into", "using"))
        self.assertEqual(stated_names("SQL date functions", model), ())  # "sql" is in most documents
        self.assertIn("merge into", absent_names("MERGE INTO statement USING", "Release 3.40\nA balanced merge tree is used.", model))
        self.assertEqual(absent_names("MERGE statement", "Release 3.50\nAdd the MERGE statement.", model), ())
        # Written in capitals, it is held in capitals only: the word in lower case is another thing.
        self.assertIn("merge", absent_names("MERGE statement", "Release 3.38\nUse a balanced merge tree.", model))

    def test_a_version_is_no_identifier(self):
        self.assertEqual(stated_names("What changed in 3.8?", store_model()), ())

    def test_an_identifier_split_into_words_does_not_hold_it(self):
        model = store_model()
        self.assertEqual(absent_names("cache_size", "Loaders\nThe cache has a size of 400 templates.", model), ("cache_size",))
        self.assertEqual(absent_names("cache_size", "Loaders\nSet CACHE_SIZE to 400.", model), ())

    def test_a_dotted_name_is_held_by_its_parts(self):
        model = store_model()
        self.assertEqual(absent_names("textwrap.fill width", "textwrap — Text wrapping\nfill(text, width=70) wraps the text.", model), ())
        self.assertEqual(absent_names("textwrap.fill width", "shutil\nThe width of the terminal; fill it.", model), ("textwrap.fill",))

    def test_a_rare_keyword_phrase_must_stand_side_by_side(self):
        model = store_model()
        self.assertEqual(absent_names("rate limiting", "Movie\nrated = me.StringField() with no limit", model), ("rate limit",))
        self.assertEqual(absent_names("rate limiting", "Extensions\nAdd rate limiting with an extension.", model), ())

    def test_a_questions_asked_about_noun_is_left_to_the_coverage(self):
        model = store_model()
        self.assertEqual(absent_names("Which protocol does the server speak?", "Server\nIt listens on port 80.", model), ())

    def test_rarity_says_nothing_in_a_few_notes(self):
        model = RelevanceModel(weights=TermWeights(3, lambda term: 1))
        self.assertEqual(absent_names("robots by Acme", "Acme\nAcme builds robots.", model), ())

    def test_ok_in_capitals_is_no_keyword(self):
        self.assertEqual(stated_names("Is it OK to share one converter between threads?", store_model()), ())
