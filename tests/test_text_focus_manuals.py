"""Focus lines on manuals typeset to PDF: a shown line is shown whole (its short tail too), and
an option's or a function's description carries the option tag or signature above it."""

from __future__ import annotations

import unittest

from agentic_rag._text.focus import focus_of
from agentic_rag._text.manual_entries import is_manual_term
from agentic_rag._text.relevance import RelevanceModel
from agentic_rag._text.statements import split_statements

# An option entry as a man page typeset to PDF keeps it: one source line per line, the version
# note sharing the description's last line.
OPTION = (
    "-X, --extra <line>\n"
    "Adds an extra line to each request the tool sends. The line is read from a file\n"
    "when it starts with @, as in @lines.txt. Added in 4.2.0.\n"
    "\n"
    "-Y, --yield\n"
    "Gives up the connection after each request.\n"
)

# A long option entry: a sample output line between its paragraphs, five blocks down.
LONG_OPTION = (
    "--make-notes=<yes|no|all> [default: no]\n"
    "\n"
    "When set to yes, the checker stops after every error shown and prints the line:\n"
    "\n"
    "---- Write note ? --- [Return/N/n/Y/y] ----\n"
    "\n"
    "Pressing N continues without writing a note for this error.\n"
    "\n"
    "Pressing Y writes a note for this error to the notes file.\n"
    "\n"
    "When set to all, the checker writes a note for every error without asking the user.\n"
    "\n"
    "--note-fd=<number> [default: 0]\n"
    "\n"
    "The descriptor notes are read from.\n"
)

# A function entry as a Texinfo manual typeset to PDF keeps it: the signature wrapped, its
# category tag in a block of its own.
FUNCTION = (
    "void widget_set_seed (struct widget ctx *ctx , const uint8 t\n"
    "*seed )\n"
    "\n"
    "[Function]\n"
    "\n"
    "Sets the seed. It is always of size WIDGET_SEED_SIZE, 16 octets. This function also\n"
    "resets the counter to zero.\n"
)


def shown(question: str, text: str, **options: object) -> list[str]:
    focus = focus_of(question, text, RelevanceModel(), **options)  # type: ignore[arg-type]
    assert focus is not None
    return [line.text for line in focus.lines]


class LineTailTest(unittest.TestCase):
    def test_a_short_statement_finishing_the_last_line_is_shown(self):
        lines = shown("How do I read the extra line from a file with @?", OPTION, max_lines=1)
        self.assertIn("Added in 4.2.0.", lines)

    def test_a_long_tail_is_not_shown_in_part(self):
        text = "The line is read from a file when it starts with @. It is read once, before the first request is sent,\nand kept.\n"
        lines = shown("How is the line read from a file with @?", text, max_lines=1)
        self.assertEqual(lines, ["The line is read from a file when it starts with @."])


class ManualEntryTest(unittest.TestCase):
    def test_option_tags_and_signatures_are_terms(self):
        self.assertTrue(is_manual_term("-X, --extra <line>"))
        self.assertTrue(is_manual_term("--make-notes=<yes|no|all> [default: no]"))
        self.assertTrue(is_manual_term("int widget_round (widget t x, int t)"))
        self.assertFalse(is_manual_term("---- Write note ? --- [Return/N/n/Y/y] ----"))
        self.assertFalse(is_manual_term("Using the cache (optional)"))
        self.assertFalse(is_manual_term("- a list item"))

    def test_a_statement_far_down_an_option_entry_carries_its_tag(self):
        lines = shown("Which setting writes notes without asking the user?", LONG_OPTION, max_lines=1)
        self.assertEqual(lines[0], "--make-notes=<yes|no|all> [default: no]")
        self.assertIn("When set to all, the checker writes a note for every error without asking the user.", lines)
        self.assertNotIn("--note-fd=<number> [default: 0]", lines)

    def test_a_function_description_carries_the_signature_not_the_category_tag(self):
        [statement] = [s for s in split_statements(FUNCTION) if "WIDGET_SEED_SIZE" in FUNCTION[s.core[0]:s.core[1]]]
        attached = [" ".join(FUNCTION[a:b].split()) for a, b in statement.attached]
        self.assertIn("void widget_set_seed (struct widget ctx *ctx , const uint8 t *seed )", " ".join(attached))
        self.assertNotIn("[Function]", attached)

    def test_the_next_tag_ends_the_entry(self):
        [statement] = [s for s in split_statements(LONG_OPTION) if "descriptor" in LONG_OPTION[s.core[0]:s.core[1]]]
        self.assertEqual([LONG_OPTION[a:b] for a, b in statement.attached], ["--note-fd=<number> [default: 0]"])


# A man page that prints an option's tag on its description's first line, entries apart.
INLINE = (
    "-print1 True; print the full name on the standard output, followed by a null byte (instead of the\n"
    "newline that -print uses). This allows names that hold newlines to be read safely by programs\n"
    "that process the output. This action corresponds to the -1 option of yargs.\n"
    "\n"
    "-printg format\n"
    "True; print format on the standard output, reading escapes and directives. Field widths\n"
    "can be given as with the printf(3) C function.\n"
)


class InlineTagTest(unittest.TestCase):
    def test_a_later_sentence_carries_the_sentence_that_opens_with_the_tag(self):
        [statement] = [s for s in split_statements(INLINE) if "corresponds to the -1 option" in INLINE[s.core[0]:s.core[1]]]
        attached = [INLINE[a:b] for a, b in statement.attached]
        self.assertEqual(len(attached), 1)
        self.assertTrue(attached[0].startswith("-print1 True; print the full name"))

    def test_the_focus_names_the_option_and_stops_at_the_next_entry(self):
        lines = shown("Which action lets a program that reads the output handle names with newlines safely?", INLINE, max_lines=2, fill=400)
        self.assertTrue(any(line.startswith("-print1 True;") for line in lines), lines)
        self.assertFalse(any("-printg" in line or "Field widths" in line for line in lines), lines)

    def test_a_tag_inside_a_sentence_opens_no_entry(self):
        text = "Use the option\n-v to see more. It prints each step.\n\nAnother paragraph here.\n"
        self.assertTrue(all(s.entry < 0 for s in split_statements(text)))


if __name__ == "__main__":
    unittest.main()
