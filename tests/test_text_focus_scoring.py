"""Which statement a focus picks: what a question asks for, the words it shares with a statement,
and what a statement is (an interactive prompt with its output)."""

from __future__ import annotations

import unittest

from agentic_rag._text.answer_slots import SlotKind, read_slot
from agentic_rag._text.focus import focus_of
from agentic_rag._text.relevance import RelevanceModel
from agentic_rag._text.statements import split_statements


def core_texts(text: str) -> list[str]:
    return [" ".join(text[s.core[0]:s.core[1]].split()) for s in split_statements(text)]


class AskedSlotTest(unittest.TestCase):
    def test_what_happens_asks_for_behaviour_not_a_name(self):
        self.assertIs(read_slot("What happens to unhandled exceptions when TESTING is turned on?").kind, SlotKind.OPEN)

    def test_what_with_a_name_noun_still_asks_for_a_name(self):
        self.assertIs(read_slot("What exception is raised on a frozen instance?").kind, SlotKind.NAME)


class NegatedWordTest(unittest.TestCase):
    def test_an_un_word_gets_a_roots_credit_for_its_base(self):
        model = RelevanceModel()
        [credit] = [c for t, c in zip(model.question_terms("unhandled"), model.credits("unhandled", "propagated rather than handled"))
                    if t.term.startswith("un")]
        self.assertEqual(credit, model.root_credit)

    def test_a_plain_word_is_unchanged(self):
        model = RelevanceModel()
        self.assertEqual(model.credits("handled", "it is handled"), (1.0,))
        # A short word opening with "un" is no negation ("unity" is not "ity").
        self.assertEqual(model.credits("unity", "ity"), (0.0,))


class PromptTest(unittest.TestCase):
    TEXT = ("The precision of the default context:\n\n"
            "    >>> import decimal\n"
            "    >>> decimal.getcontext().prec\n"
            "    28\n"
            "    >>> for x in (1, 2):\n"
            "    ...     print(x)\n"
            "    1\n"
            "    2\n\n"
            "    value = 3\n")

    def test_a_prompt_and_its_output_are_one_statement(self):
        cores = core_texts(self.TEXT)
        self.assertIn(">>> decimal.getcontext().prec 28", cores)
        self.assertIn(">>> for x in (1, 2): ... print(x) 1 2", cores)

    def test_the_output_ends_at_a_blank_line(self):
        self.assertEqual(core_texts(self.TEXT)[-1], "value = 3")

    def test_the_focus_shows_the_output_with_its_prompt(self):
        focus = focus_of("What is the default decimal getcontext prec?", self.TEXT, RelevanceModel())
        self.assertIn(">>> decimal.getcontext().prec 28", focus.text)


class DefaultInCodeTest(unittest.TestCase):
    def test_a_default_key_in_code_gets_no_default_bonus(self):
        text = ('"handlers": {\n    "default": {\n        "level": "DEBUG",\n    },\n}\n\n'
                "The timestamps use the ISO format by default.\n")
        focus = focus_of("What timestamp format does the default configuration use?", text, RelevanceModel(), max_lines=1)
        self.assertEqual(focus.text, "The timestamps use the ISO format by default.")


class LongBestStatementTest(unittest.TestCase):
    def test_a_long_best_statement_leaves_room_for_the_next_paragraph(self):
        text = ("The precision of new variables is set by the library when they are created, and it can be changed "
                "for every variable later with a call that takes the variable and the new precision in bits.\n\n"
                "Variables start at 53 bits initially.\n")
        self.assertGreater(text.index("\n"), 150)
        focus = focus_of("What precision do new variables get initially?", text, RelevanceModel(), budget=150)
        self.assertIn("53 bits initially", focus.text)
        self.assertIn("set by the library", focus.text)


if __name__ == "__main__":
    unittest.main()
