"""A question term's credit in a text (stem, root, "un" base, spelling), and what counts as
the number a question asks for."""

from __future__ import annotations

import unittest

from agentic_rag._text.asked_numbers import answer_numbers, wants_number
from agentic_rag._text.term_match import TextTerms, term_credit


class TermCreditTest(unittest.TestCase):
    def credit(self, term: str, *stems: str) -> float:
        return term_credit(term, TextTerms(frozenset(stems)), 0.5, 0.25)

    def test_credit_falls_from_stem_to_root_to_spelling(self):
        self.assertEqual(self.credit("configur", "configur"), 1.0)
        self.assertEqual(self.credit("configurat", "configur"), 0.5)  # the same five-letter root
        self.assertEqual(self.credit("ssynchronous", "asynchronous"), 0.25)  # spelt nearly alike, another root
        self.assertEqual(self.credit("timeout", "socket"), 0.0)

    def test_a_negated_word_finds_its_base_at_a_roots_credit(self):
        self.assertEqual(self.credit("unhandl", "handl"), 0.5)
        self.assertEqual(self.credit("unit", "it"), 0.0)  # too short to be a negation


class AskedNumbersTest(unittest.TestCase):
    def test_questions_that_want_a_number(self):
        for question in ("How many workers does it start?", "Which port does it listen on?", "Since when is it supported?",
                         "When was legacy_auth deprecated?"):
            with self.subTest(question=question):
                self.assertTrue(wants_number(question))
        self.assertFalse(wants_number("What does the cache store?"))

    def test_a_version_question_wants_a_dotted_version_not_an_issue_number(self):
        pattern = answer_numbers("Which version added the flag?")
        self.assertEqual(pattern.findall("Fixed in #5623, released in 24.3.0."), ["24.3.0"])
        self.assertEqual(answer_numbers("How many retries?").findall("up to 5 retries"), ["5"])


if __name__ == "__main__":
    unittest.main()
