"""Focus lines: the few lines of a passage an agent is shown, made once below the interfaces."""

from __future__ import annotations

import unittest

from agentic_rag._answering.answer_likelihood import answer_likelihood
from agentic_rag._text.focus import answer_units, focus_of, trim_line, view_passage
from agentic_rag._text.relevance import RelevanceModel
from marks_support import marks_of

SETTINGS = """SESSION_COOKIE_DOMAIN
The value of the Domain parameter on the session cookie.

Default: None

SESSION_COOKIE_NAME
The name of the session cookie. Can be changed in case you already have a
cookie with the same name.

Default: 'session'

SESSION_COOKIE_PATH
The path that the session cookie will be valid for.

Default: None"""


class FocusOfTest(unittest.TestCase):
    def setUp(self) -> None:
        self.model = RelevanceModel()

    def test_a_setting_and_its_default_line_below_it(self):
        focus = focus_of("What is the default value of SESSION_COOKIE_NAME?", SETTINGS, self.model, title="Builtin Configuration Values")
        self.assertIsNotNone(focus)
        shown = focus.text
        self.assertIn("SESSION_COOKIE_NAME", shown)
        self.assertIn("Default: 'session'", shown)
        self.assertNotIn("Domain", shown)
        self.assertLessEqual(len(focus.lines), 6)  # three atoms, a wrapped sentence whole

    def test_a_wrapped_sentence_is_shown_whole(self):
        # The value ends one line, the subject starts the next: a focus of single lines showed
        # "default storage class. If it isn't suitable ..." without the class.
        text = ("This behavior avoids writing to the session whenever possible.\n\n"
                "django.contrib.messages.storage.fallback.FallbackStorage is the\n"
                "default storage class. If it isn't suitable to your needs, you can select\n"
                "another storage class by setting MESSAGE_STORAGE to its full import\n"
                "path, for example:")
        focus = focus_of("Which storage class does the messages framework use if I don't configure one?", text, self.model)
        self.assertIn("FallbackStorage is the", focus.text)
        self.assertIn("default storage class.", focus.text)

    def test_each_part_of_a_compound_question_gets_its_lines(self):
        text = ("structlog's default configuration uses colors if standard out is a TTY and is able to do so.\n\n"
                "It's possible to override this behavior by setting two standard environment variables to any value:\n\n"
                "- FORCE_COLOR activates colors, regardless of where output is going.\n"
                "- NO_COLOR turns colors off, regardless of where the output is going.\n\n"
                "Colorama is needed on Windows for colors to show.")
        focus = focus_of("Which environment variable forces colored output even when not on a TTY, and which one turns colors off?",
                         text, self.model)
        self.assertIn("FORCE_COLOR", focus.text)
        self.assertIn("NO_COLOR", focus.text)

    def test_a_long_sentence_keeps_the_value_at_its_end(self):
        line = ("The same is true if you choose to freeze individual attributes using the attrs.setters.frozen on_setattr "
                "hook -- except that the exception becomes attrs.exceptions.FrozenAttributeError.")
        self.assertGreater(len(line), 120)
        focus = focus_of("If I freeze only one attribute through an on_setattr hook, which exception do I get?", line, self.model)
        self.assertIn("FrozenAttributeError", focus.text)

    def test_a_paragraph_on_one_line_keeps_the_sentence_stating_the_asked_value(self):
        # An HTML paragraph is one line: the value the question asks for stands three sentences
        # after the sentence that repeats the question's words.
        line = ("timeout (float) - How many seconds the connection should wait before raising an exception, if the database "
                "is locked by another connection. If another connection opens a transaction to modify the database, it will be "
                "locked until that transaction is committed. The value is read once when the connection is made. "
                "Default five seconds.")
        self.assertGreater(len(line), 240)
        focus = focus_of("How long does the connection wait for a locked database if I don't say?", line, self.model)
        self.assertIn("Default five seconds.", focus.text)
        self.assertIn("How many seconds the connection should wait", focus.text)

    def test_a_paragraph_on_one_line_shows_its_best_sentence(self):
        filler = "This sentence is about something else entirely and goes on for a while to fill the line. "
        line = filler * 3 + "Set the cache_logger_on_first_use option to True so loggers are assembled only once. " + filler * 3
        focus = focus_of("Which option makes loggers get assembled only once?", line, self.model)
        self.assertIn("Set the cache_logger_on_first_use option to True so loggers are assembled only once.", focus.text)
        self.assertLess(len(focus.text), len(line) // 2)
        self.assertNotIn("\u2026", focus.text)  # whole sentences: nothing is cut

    def test_a_line_that_goes_on_brings_the_next_one(self):
        text = "Blocks can be marked as required.\nRendering a child that never fills it in will raise\nTemplateRuntimeError.\nUnrelated text about loops."
        focus = focus_of("What gets raised when a required block is never filled?", text, self.model)
        self.assertIn("TemplateRuntimeError.", focus.text)

    def test_a_lead_in_keeps_what_it_introduces_past_a_blank_line(self):
        text = "Some words about other things.\n\nYou can install the package from PyPI using pip:\n\n$ pip install structlog\n\nMore text."
        focus = focus_of("How do I install the package from PyPI?", text, self.model)
        self.assertIn("$ pip install structlog", focus.text)

    def test_offsets_are_exact_trimmed_spans_in_text_order(self):
        focus = focus_of("session cookie name default", SETTINGS, self.model)
        for line in focus.lines:
            piece = SETTINGS[line.start:line.end]
            self.assertEqual(piece.strip(), piece)
            self.assertEqual(" ".join(piece.split()), line.text)  # a wrapped sentence is one shown line
        self.assertEqual([line.start for line in focus.lines], sorted(line.start for line in focus.lines))

    def test_the_same_input_gives_the_same_focus(self):
        first = focus_of("session cookie", SETTINGS, self.model)
        self.assertEqual(first, focus_of("session cookie", SETTINGS, self.model))

    def test_context_widens_to_every_line_around(self):
        narrow = focus_of("What is the default value of SESSION_COOKIE_NAME?", SETTINGS, self.model)
        wide = focus_of("What is the default value of SESSION_COOKIE_NAME?", SETTINGS, self.model, context=1)
        self.assertGreater(len(wide.lines), len(narrow.lines))
        self.assertLessEqual(wide.start, narrow.start)
        self.assertGreaterEqual(wide.end, narrow.end)

    def test_no_letters_no_focus(self):
        self.assertIsNone(focus_of("anything", "  \n--- \n", self.model))


class TrimLineTest(unittest.TestCase):
    def test_a_long_line_is_cut_around_the_anchor(self):
        line = " ".join(f"word{i}" for i in range(100)) + " needle " + " ".join(f"tail{i}" for i in range(100))
        shown = trim_line(line, ["needle"], width=80)
        self.assertIn("needle", shown)
        self.assertLessEqual(len(shown), 84)
        self.assertTrue(shown.startswith("\u2026 ") and shown.endswith(" \u2026"))

    def test_a_short_line_is_only_collapsed(self):
        self.assertEqual(trim_line("a   b\tc", ["b"]), "a b c")

    def test_a_cut_that_would_leave_out_a_few_words_is_not_made(self):
        # The sentence's last words name what it is about: within an eighth of the width they
        # are shown, where a cut would have ended at "using the |stringformat:'s' …".
        head = "Casting is now done in the template " + " ".join(f"w{i}" for i in range(86))
        line = head + " using the |stringformat:'s' filter."
        self.assertGreater(len(line), 400)
        self.assertEqual(trim_line(line, ["stringformat"], width=400), line)
        # The same at the front: a cut would leave out only the first few words.
        self.assertEqual(trim_line("In short, " + head, ["w85"], width=400), "In short, " + head)
        # Far past the width, it is still cut.
        long = line + " " + " ".join(f"x{i}" for i in range(40))
        shown = trim_line(long, ["stringformat"], width=400)
        self.assertIn("stringformat", shown)
        self.assertTrue(shown.startswith("\u2026 ") and len(shown) < len(long))


class ViewPassageTest(unittest.TestCase):
    def test_focus_lines_are_numbered_through_the_line_map(self):
        view = view_passage("What is the default value of SESSION_COOKIE_NAME?", SETTINGS, RelevanceModel(), title="Builtin Configuration Values",
                            marks=marks_of(SETTINGS, 140), rate=answer_likelihood)
        self.assertEqual(view.span, (145, 149))
        # The term on a line of its own above its description: a piece of its own.
        self.assertTrue(view.numbered_text.startswith("145: SESSION_COOKIE_NAME\n146: The name of the session cookie."))
        self.assertIn("149: Default: 'session'", view.numbered_text)
        self.assertGreater(view.relevance, 0.5)

    def test_without_a_rater_the_relevance_is_not_computed(self):
        # The text layer makes the view; the relevance is the answers layer's, passed in.
        seen = []

        def rate(question, title, text, focus_text, model, *, whole, pieces):
            seen.append((focus_text, whole, list(pieces)))
            return 0.25

        question = "What is the default value of SESSION_COOKIE_NAME?"
        self.assertEqual(view_passage(question, SETTINGS, RelevanceModel()).relevance, 0.0)
        view = view_passage(question, SETTINGS, RelevanceModel(), rate=rate)
        self.assertEqual(view.relevance, 0.25)
        self.assertEqual(seen, [(view.focus.text, True, [line.text for line in view.focus.lines])])

    def test_without_a_line_map_the_numbers_are_unknown(self):
        view = view_passage("session cookie", SETTINGS, RelevanceModel())
        self.assertIsNone(view.span)
        self.assertNotIn(": ", view.numbered_text.split("\n")[0][:6])


class AnswerUnitsTest(unittest.TestCase):
    def test_a_long_code_block_is_cut_to_its_focus_lines(self):
        code = "Configure it like this:\n\n" + "\n".join(f"option_{i} = {i}" for i in range(30)) + "\nretries_max_count = 7\n" + "\n".join(
            f"other_{i} = {i}" for i in range(30))
        units = answer_units("Which option sets retries_max_count?", [("Setup", code)], RelevanceModel())
        self.assertTrue(units)
        self.assertIn("retries_max_count = 7", units[0].unit.text)
        self.assertLessEqual(units[0].unit.text.count("\n"), 5)
        self.assertEqual(code[units[0].unit.start:units[0].unit.end], units[0].unit.text)

    def test_prose_units_stay_whole(self):
        text = "The cache keeps entries for five minutes. It is cleared on restart."
        units = answer_units("How long does the cache keep entries?", [("Cache", text)], RelevanceModel())
        self.assertEqual(units[0].unit.text, "The cache keeps entries for five minutes.")


if __name__ == "__main__":
    unittest.main()
