"""Whole statements: every atom a focus is made of is a statement a reader can take alone (a
sentence joined across its line breaks and page breaks, a definition with its term, a table row
with its header row, an option's entry with its default sentence), the asked value is never cut
out, and a hit never ends inside a sentence."""

from __future__ import annotations

import unittest

from agentic_rag._store.page_breaks import completed_focus
from agentic_rag._store.records import StoreHit
from agentic_rag._store.second_stage import finish_hits
from agentic_rag._text.focus import LONG, _lines, focus_of, view_passage
from agentic_rag._text.focus_atoms import MAX_HOLE, atoms_of, filled, without_holes
from agentic_rag._text.relevance import RelevanceModel
from agentic_rag._text.segments import UnitKind
from agentic_rag._text.statements import MAX_CORE, split_statements, states_default
from marks_support import marks_of


def core_texts(text: str) -> list[str]:
    return [" ".join(text[s.core[0]:s.core[1]].split()) for s in split_statements(text)]


def attached_to(text: str, core_start: str) -> list[str]:
    """The attachments of the statement whose core starts with ``core_start``."""
    for s in split_statements(text):
        if text[s.core[0]:s.core[1]].startswith(core_start):
            return [text[a:b] for a, b in s.attached]
    raise AssertionError(f"no statement starts with {core_start!r}")


def hit(chunk_id: str, text: str, *, page: int | None = None, score: float = 5.0, path: str = "doc.pdf") -> StoreHit:
    lines = text.count("\n") + 1
    return StoreHit(chunk_id, path, 1, lines, score, text, "docs", "", page=page, line_marks=marks_of(text))


class SentenceTest(unittest.TestCase):
    def test_a_sentence_is_joined_across_its_line_breaks(self):
        # The agent saw "... biased" and had to read on for "reference counting".
        text = ("The collector is not generational: its choice of what to free first is biased\n"
                "towards reference counting, which frees most objects at once. Cycles wait.")
        self.assertEqual(core_texts(text)[0], "The collector is not generational: its choice of what to free first is biased "
                                              "towards reference counting, which frees most objects at once.")
        focus = focus_of("Which way is the collector biased?", text, RelevanceModel())
        self.assertIn("biased towards reference counting", focus.text)
        self.assertEqual(len(focus.lines[0].text.split("\n")), 1)  # one shown line

    def test_a_wrapped_sentence_is_numbered_with_its_first_and_last_line(self):
        text = "Unrelated opening words here.\n\nThe retry timeout of a client is\nthirty seconds unless set."
        view = view_passage("What is the retry timeout of a client?", text, RelevanceModel(), marks=marks_of(text, 40))
        self.assertIn("42-43: The retry timeout of a client is thirty seconds unless set.", view.numbered_text)
        self.assertEqual(view.span, (42, 43))

    def test_sentences_sharing_a_line_are_statements_of_their_own(self):
        # An HTML paragraph is one line: the focus shows its best sentence, not the paragraph.
        filler = "This sentence is about something else entirely and goes on for a while. "
        line = filler * 4 + "The lock timeout is five seconds. " + filler * 4
        focus = focus_of("What is the lock timeout?", line, RelevanceModel())
        self.assertEqual(focus.text, "The lock timeout is five seconds.")

    def test_a_very_long_unit_is_split_into_sentences_then_lines(self):
        item = "- " + " ".join(f"Sentence number {n} says a few words about the topic." for n in range(20))
        self.assertGreater(len(item), MAX_CORE)
        self.assertEqual(len(core_texts(item)), 20)
        dots = "\n".join(f"entry_{n} . . . . . . . . . . . . . . . . . . . . . . . . . . . . {n}" for n in range(12))
        self.assertTrue(all(len(c) < 80 for c in core_texts(dots)))  # an index's dot leaders: no run-on statement


class PageBreakTest(unittest.TestCase):
    def test_a_sentence_cut_by_a_page_break_is_completed_from_the_next_page(self):
        page4 = "Other text stands here.\n\nThere is also an optional weight attribute. The default weight value is"
        page5 = "50, and the maximum is 100.\n\nThe next section starts here."
        first, second = hit("doc.pdf#3", page4, page=4), hit("doc.pdf#4", page5, page=5)
        view = view_passage("What weight does a glob get by default?", page4, RelevanceModel(), marks=first.line_marks)
        self.assertTrue(view.numbered_text.endswith("The default weight value is"))
        shown = completed_focus(first, view, lambda h: second if h is first else None)
        self.assertTrue(shown.endswith("The default weight value is [p5:1] 50, and the maximum is 100."), shown)

    def test_a_page_that_opens_a_new_sentence_or_a_whole_sentence_is_left_alone(self):
        page4 = "The default weight value is fifty."
        first = hit("doc.pdf#3", page4, page=4)
        view = view_passage("What is the default weight value?", page4, RelevanceModel(), marks=first.line_marks)
        self.assertEqual(completed_focus(first, view, lambda h: hit("doc.pdf#4", "and more words.", page=5)), view.numbered_text)
        cut = hit("doc.pdf#3", "The default weight value is", page=4)
        cut_view = view_passage("What is the default weight value?", cut.text, RelevanceModel(), marks=cut.line_marks)
        for following in (hit("doc.pdf#4", "Chapter Two", page=5), hit("doc.pdf#4", "fifty.", page=7), None):
            self.assertEqual(completed_focus(cut, cut_view, lambda h: following), cut_view.numbered_text)

    def test_the_second_stage_completes_the_focus_it_prints(self):
        page4 = "Some words first.\n\nThe default weight value is"
        page5 = "50, and the maximum is 100."
        first, second = hit("doc.pdf#3", page4, page=4), hit("doc.pdf#4", page5, page=5, score=1.0)
        hits = finish_hits("default weight value", [first], RelevanceModel(), 1, following=lambda h: second if h.chunk_id == "doc.pdf#3" else None)
        self.assertIn("[p5:1] 50, and the maximum is 100.", hits[0].focus_text)


class DefinitionListTest(unittest.TestCase):
    RST = ("TESTING\nEnable testing mode. Exceptions are propagated rather than handled by the\napp's error handlers.\n\n"
           "Default: False\n\n"
           "PROPAGATE_EXCEPTIONS\nExceptions are re-raised rather than being handled by the app's error\nhandlers.\n\n"
           "Default: None")
    HTML = ("SQLITE_OPEN_EXRESCODE\n\nThe connection comes up in extended result code mode.\n\n"
            "SQLITE_OPEN_NOFOLLOW\n\nThe database filename is not allowed to contain a symbolic link\n\n"
            "If the flags are not one of the required combinations the behavior is undefined.")

    def test_a_description_carries_its_term_on_the_line_above(self):
        self.assertIn("TESTING", attached_to(self.RST, "Exceptions are propagated"))
        self.assertNotIn("PROPAGATE_EXCEPTIONS", attached_to(self.RST, "Exceptions are propagated"))
        self.assertIn("PROPAGATE_EXCEPTIONS", attached_to(self.RST, "Exceptions are re-raised"))

    def test_a_term_in_a_block_of_its_own_is_attached_even_to_a_description_without_a_full_stop(self):
        self.assertEqual(attached_to(self.HTML, "The database filename")[0], "SQLITE_OPEN_NOFOLLOW")
        self.assertIn("SQLITE_OPEN_EXRESCODE", attached_to(self.HTML, "The connection comes up"))

    def test_the_focus_shows_the_term_with_the_statement_that_answers(self):
        focus = focus_of("What happens to exceptions in testing mode?", self.RST, RelevanceModel())
        self.assertIn("TESTING", focus.text.split("\n"))
        self.assertIn("Exceptions are propagated rather than handled by the app's error handlers.", focus.text)

    def test_a_wrapped_paragraph_does_not_open_with_a_term(self):
        text = ("Flask can be used to serve Single-Page Applications (SPA) by placing static\n"
                "files produced by your frontend framework in a subfolder.\n\nMore words here.")
        self.assertEqual([s.attached for s in split_statements(text)], [(), ()])


class TableTest(unittest.TestCase):
    TABLE = ("Variable | Description\nloop.index | The current iteration of the loop. (1 indexed)\n"
             "loop.index0 | The current iteration of the loop. (0 indexed)\nloop.revindex | The number of iterations from the end of\n"
             " | the loop (1 indexed)")

    def test_a_row_carries_its_header_row(self):
        self.assertEqual(attached_to(self.TABLE, "loop.index0"), ["Variable | Description"])
        self.assertEqual(attached_to(self.TABLE, "Variable"), [])

    def test_a_row_continued_on_the_next_line_is_one_statement(self):
        statements = split_statements(self.TABLE)
        self.assertEqual(len(statements), 4)
        last = statements[-1]
        self.assertIs(last.kind, UnitKind.TABLE_ROW)
        self.assertTrue(self.TABLE[last.core[0]:last.core[1]].endswith("the loop (1 indexed)"))

    def test_the_focus_prints_the_header_row_with_the_row(self):
        text = "Some words about loops.\n\n" + self.TABLE
        view = view_passage("Which variable is the current iteration of the loop, 0 indexed?", text, RelevanceModel(), marks=marks_of(text))
        self.assertIn("3: Variable | Description", view.numbered_text)
        self.assertIn("5: loop.index0 | The current iteration of the loop. (0 indexed)", view.numbered_text)


class OptionEntryTest(unittest.TestCase):
    OPTIONS = ("--track-origins=<yes|no>\n\nControls whether Memcheck tracks the origin of uninitialised values. "
               "Tracking them makes Memcheck run more slowly.\n\nThis option is enabled by default.\n\n"
               "--leak-resolution=<low|med|high>\n\nWhen doing leak checking, determines how willing Memcheck is to consider "
               "different backtraces to be the same.")

    def test_an_entry_carries_its_default_sentence(self):
        attached = attached_to(self.OPTIONS, "Tracking them")
        self.assertEqual(attached, ["--track-origins=<yes|no>", "This option is enabled by default."])
        self.assertEqual(attached_to(self.OPTIONS, "When doing leak checking"), ["--leak-resolution=<low|med|high>"])

    def test_the_focus_shows_the_option_its_statement_and_its_default(self):
        focus = focus_of("Does Memcheck slow down when it tracks where uninitialised values come from?", self.OPTIONS, RelevanceModel())
        lines = focus.text.split("\n")
        self.assertIn("--track-origins=<yes|no>", lines)
        self.assertIn("This option is enabled by default.", lines)
        self.assertNotIn("--leak-resolution=<low|med|high>", lines)

    def test_what_states_a_default(self):
        for said in ("Default: None", "This option is enabled by default.", "It defaults to 5."):
            self.assertTrue(states_default(said), said)
        for said in ("The defaultdict class.", "No value is given."):
            self.assertFalse(states_default(said), said)


class AskedValueTest(unittest.TestCase):
    def test_the_sentence_stating_the_value_is_never_cut_out(self):
        # A paragraph on one line: "The default is 30 seconds." was once replaced by "…".
        line = ("timeout - How many seconds the connection should wait before raising an exception, if the database is "
                "locked by another connection. If another connection opens a transaction to modify the database, it will "
                "be locked until that transaction is committed. The default is 30 seconds.")
        focus = focus_of("How long does the connection wait for a locked database by default?", line, RelevanceModel())
        self.assertIn("The default is 30 seconds.", focus.text)
        self.assertNotIn("\u2026", focus.text)

    def test_a_sentence_too_long_to_show_is_cut_around_the_asked_value(self):
        sentence = ("The limit " + " ".join(f"word{n}" for n in range(90)) + " is 32767 columns, which the build may lower " +
                    " ".join(f"tail{n}" for n in range(40)) + ".")
        self.assertGreater(len(sentence), LONG)
        focus = focus_of("How many columns is the limit?", sentence, RelevanceModel())
        self.assertIn("32767", focus.text)
        self.assertIn("\u2026", focus.text)
        # At most the width, and the few words a cut would have left out at an end.
        self.assertLessEqual(len(focus.text), LONG + LONG // 8 + 4)


class HitEndTest(unittest.TestCase):
    PARAGRAPH = ("Flask can be used to serve single-page applications by placing static\nfiles produced by your frontend framework "
                 "in a subfolder inside of your\nproject. You will also need to create a catch-all endpoint that routes all\n"
                 "requests to your single-page application.")

    def test_no_shown_piece_ends_inside_a_sentence(self):
        for question in ("How do I serve a single-page application?", "Which endpoint routes all requests?", "frontend subfolder"):
            focus = focus_of(question, self.PARAGRAPH, RelevanceModel())
            for line in focus.lines:
                self.assertTrue(line.text.endswith("."), (question, line.text))

    def test_a_search_hit_never_ends_inside_a_sentence(self):
        text = "\n\n".join(f"Topic {n} words stand here in a sentence that wraps\nover two lines of text." for n in range(6))
        hits = finish_hits("topic 3 words", [hit("a.md#0", text, path="a.md")], RelevanceModel(), 1)
        for row in hits[0].focus_text.split("\n"):
            self.assertTrue(row.endswith("."), row)


class LoneHitTest(unittest.TestCase):
    def test_a_hit_printed_alone_shows_the_answer_lines_below_its_best_line(self):
        lines = ["The cache stores rendered pages for the server."] + [f"Filler line {n} about unrelated matters." for n in range(8)] \
            + ["The cache keeps each page for 300 seconds."]
        text = "\n\n".join(lines)
        alone = finish_hits("How long does the cache store rendered pages?", [hit("a.md#0", text, path="a.md")], RelevanceModel(), 5)
        self.assertEqual(len(alone), 1)
        self.assertIn("300 seconds", alone[0].focus_text)


class ParagraphHoleTest(unittest.TestCase):
    PARAGRAPH = ("Maximum Number Of Columns\n\nThe default setting for MAX_COLUMN is 2000. You can change it at compile time to "
                 "values as large as 32767. On the other hand, designers argue a table never needs more than 100 columns.")

    def test_the_statements_between_two_shown_pieces_of_a_paragraph_are_shown(self):
        text = self.PARAGRAPH
        atoms = atoms_of(text, tuple(_lines(text)))
        cores = [text[atom.core[0]:atom.core[1]] for atom in atoms]
        shown = [a for a, core in enumerate(cores) if core.startswith(("The default", "On the other"))]
        self.assertEqual(len(shown), 2)
        filled = without_holes(text, atoms, shown)
        self.assertIn("You can change it at compile time to values as large as 32767.", [cores[a] for a in filled])

    def test_a_hole_across_a_blank_line_or_of_code_is_left(self):
        text = "First sentence of one paragraph.\n\nA second paragraph stands here.\n\nThe third one ends it."
        atoms = atoms_of(text, tuple(_lines(text)))
        self.assertEqual(without_holes(text, atoms, [0, 2]), [0, 2])
        code = "Call it like this:\n    x = f(1)\n    y = g(x)\nThen read y."
        atoms = atoms_of(code, tuple(_lines(code)))
        self.assertEqual(without_holes(code, atoms, [0, len(atoms) - 1]), [0, len(atoms) - 1])

    def test_a_long_hole_is_left(self):
        text = " ".join(f"Sentence number {n} says a few more words." for n in range(MAX_HOLE + 3))
        atoms = atoms_of(text, tuple(_lines(text)))
        self.assertEqual(without_holes(text, atoms, [0, len(atoms) - 1]), [0, len(atoms) - 1])


class CompoundPartTest(unittest.TestCase):
    ENTRIES = ("structlog.dev.plain_traceback\n\n: Is the default formatter if Rich is not installed.\n\n"
               "structlog.dev.RichTracebackFormatter\n\n: Uses Rich to render a colorful traceback.\n"
               ": It is the default formatter if Rich is installed.")

    def test_each_part_of_a_compound_question_gets_a_statement_of_its_own(self):
        question = "Without Rich installed, which formatter is the default, and which one is the default when Rich is installed?"
        focus = focus_of(question, self.ENTRIES, RelevanceModel(), max_lines=3)
        self.assertIn("structlog.dev.plain_traceback", focus.text)
        self.assertIn("structlog.dev.RichTracebackFormatter", focus.text)


class ExampleBelowTest(unittest.TestCase):
    def test_the_focus_runs_on_into_the_example_below_its_sentence_not_into_code_above(self):
        text = ("import jinja2\nsetup(debug=True)\n\nThis filter uses the eval context to check if autoescape is on.\n\n"
                "def nl2br(eval_ctx, value):\n    if eval_ctx.autoescape:\n        value = escape(value)")
        atoms = atoms_of(text, tuple(_lines(text)))
        prose = next(a for a, atom in enumerate(atoms) if atom.shown.startswith("This filter"))
        shown = [atoms[a].shown for a in filled(atoms, [prose], 200)]
        self.assertIn("if eval_ctx.autoescape:", shown)
        self.assertNotIn("setup(debug=True)", shown)


class TaggedManualEntryTest(unittest.TestCase):
    """A manual's entry that puts its kind on a line of its own between the name and the
    description ("idn2_rc IDN2_UALABEL_MISMATCH", "[Return code]", then the description) is one
    entry opened by the name: each description is shown with its own name, not the next one's."""

    CODES = ("qx_rc QX_INVALID_LABEL\n\n[Return code]\n\nInput label is not valid.\n\n"
             "qx_rc QX_LABEL_MISMATCH\n\n[Return code]\n\nInput A-label and U-label do not match.\n\n"
             "qx_rc QX_INVALID_FLAGS\n\n[Return code]\n\nInvalid combination of flags.\n")

    def test_each_description_carries_its_own_name_and_tag(self):
        pieces = {self.CODES[s.core[0]:s.core[1]]: [self.CODES[a:b] for a, b in s.pieces] for s in split_statements(self.CODES)}
        self.assertEqual(pieces["Input A-label and U-label do not match."],
                         ["qx_rc QX_LABEL_MISMATCH", "[Return code]", "Input A-label and U-label do not match."])
        self.assertEqual(pieces["Invalid combination of flags."], ["qx_rc QX_INVALID_FLAGS", "[Return code]", "Invalid combination of flags."])

    def test_the_focus_names_the_code_that_answers(self):
        question = "What does it return when the A-label and U-label do not match?"
        shown = focus_of(question, self.CODES, RelevanceModel(), max_lines=1).text
        self.assertIn("QX_LABEL_MISMATCH", shown)
        self.assertNotIn("QX_INVALID_FLAGS", shown)

    def test_a_tag_without_a_name_above_it_is_still_a_term(self):
        text = "Some prose that ends here.\n\n[Return code]\n\nInput label is not valid.\n"
        pieces = {text[s.core[0]:s.core[1]]: [text[a:b] for a, b in s.pieces] for s in split_statements(text)}
        self.assertEqual(pieces["Input label is not valid."], ["[Return code]", "Input label is not valid."])


class NameListTest(unittest.TestCase):
    """A PDF's list of names over descriptions (return codes, flags, options), read as one
    sentence by the splitter, is one statement per name."""

    CODES = ("Possible values of bzerror:\n"
             "QX_PARAM_ERROR\nif the handle is NULL\n"
             "QX_STREAM_BROKEN\nif the stream does not begin with the expected magic bytes\n"
             "(it is not a qx archive). This is a special case of QX_DATA_ERROR.\n"
             "QX_MEM_ERROR\nif insufficient memory was available\n"
             "QX_OK\notherwise.")

    def test_each_name_starts_a_statement_with_its_description(self):
        cores = core_texts(self.CODES)
        self.assertIn("QX_STREAM_BROKEN if the stream does not begin with the expected magic bytes (it is not a qx archive).", cores)
        self.assertIn("QX_MEM_ERROR if insufficient memory was available", cores)
        self.assertIn("QX_OK otherwise.", cores)

    def test_the_focus_shows_the_name_with_the_description_that_answers(self):
        question = "What error code is reported when the stream does not begin with the magic bytes?"
        shown = focus_of(question, self.CODES, RelevanceModel(), max_lines=1).text
        self.assertIn("QX_STREAM_BROKEN", shown)
        self.assertIn("magic bytes", shown)

    def test_prose_with_one_name_on_its_own_line_is_left_one_sentence(self):
        text = "The limit is set by\nMAX_OPEN_FILES\nand can be raised\nby the administrator."
        self.assertEqual(core_texts(text), ["The limit is set by MAX_OPEN_FILES and can be raised by the administrator."])

    def test_options_and_calls_are_names_too(self):
        text = "--proxy-basic\nuse Basic authentication with the proxy\n--proxy-digest\nuse Digest authentication with the proxy"
        self.assertEqual(core_texts(text), ["--proxy-basic use Basic authentication with the proxy",
                                            "--proxy-digest use Digest authentication with the proxy"])


if __name__ == "__main__":
    unittest.main()
