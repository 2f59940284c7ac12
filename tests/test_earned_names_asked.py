"""The readings that keep a deterministic ``answered`` off a claim on the topic that lacks the
asked name, command or value (issue 35, precision of ``answered`` on documentation): each
reading with a near miss it refuses and a plain statement it still accepts."""

from __future__ import annotations

import unittest

from earned_support import VerdictCase

from agentic_rag._answering.asked_names import flag_elsewhere
from agentic_rag._answering.deferrals import points_elsewhere
from agentic_rag._answering.how_questions import asks_command, object_unnamed


class NamesInLinksTest(VerdictCase):
    """A name inside a link points to a page; it names nothing asked."""

    _QUESTION = "How do I choose which panels the debug toolbar shows?"

    def test_a_link_gives_no_name(self):
        self.assertNotAnswered(self._QUESTION, "Choosing which panels the debug toolbar shows",
                               "To choose which panels the debug toolbar shows, read https://example.org/toolbar/panels_config.html")

    def test_a_setting_named_in_a_sentence_answers(self):
        self.assertAnswered(self._QUESTION, "Configuring the debug toolbar panels",
                            "The DEBUG_TOOLBAR_PANELS setting chooses which panels the toolbar shows.")


class OwnSubjectAsCodeTest(VerdictCase):
    """The question's capitalised name written as code, or abbreviated, is its own subject."""

    _QUESTION = "How do I choose which panels Django Debug Toolbar shows?"
    _HEADING = "Installing Django Debug Toolbar"

    def test_an_abbreviation_of_the_subject_is_no_answer(self):
        self.assertNotAnswered(self._QUESTION, self._HEADING,
                               'Once installed, you should see the DjDT "handle" that shows the panels of Django Debug Toolbar.')

    def test_the_subject_as_a_package_name_is_no_answer(self):
        self.assertNotAnswered(self._QUESTION, self._HEADING,
                               "Django Debug Toolbar shows panels of debug information.\n\n$ python -m pip install django-debug-toolbar")

    def test_another_name_answers(self):
        self.assertAnswered(self._QUESTION, self._HEADING,
                            "Set DEBUG_TOOLBAR_PANELS to choose which panels Django Debug Toolbar shows.")


class QualifiedNameTest(VerdictCase):
    """A name the question asks with more qualifiers must stand in the claim whole."""

    _QUESTION = "Which form field class should I use for a model multiple choice?"
    _HEADING = "Form fields"

    def test_a_less_qualified_sibling_is_no_answer(self):
        self.assertNotAnswered(self._QUESTION, self._HEADING, "Use MultipleChoiceField for a multiple choice form field class.")

    def test_the_whole_name_answers(self):
        self.assertAnswered(self._QUESTION, self._HEADING, "Use ModelMultipleChoiceField for a model multiple choice form field class.")


class EnvironmentVariableTest(VerdictCase):
    """Asked for an environment variable, an ALL-CAPS name answers where the text calls it one."""

    _QUESTION = "Is there an environment variable that tells zoneinfo where to look for time zone files? What's it called?"
    _HEADING = "zoneinfo › Data sources › Configuring the data sources"

    def test_a_constant_in_a_sentence_on_no_environment_is_no_answer(self):
        text = "When ZoneInfo(key) is called, the constructor first looks for time zone files in the directories specified in TZPATH."
        self.assertNotAnswered(self._QUESTION, self._HEADING, text, f"{text}\n\nAn environment variable tells zoneinfo where to look.")

    def test_a_variable_left_unnamed_is_no_answer(self):
        self.assertNotAnswered(self._QUESTION, self._HEADING, "TZPATH, where zoneinfo looks for time zone files, can be configured using an environment variable.")

    def test_the_variable_called_one_answers(self):
        self.assertAnswered(self._QUESTION, self._HEADING,
                            "When initializing TZPATH, the zoneinfo module will use the environment variable PYTHONTZPATH, if it exists, "
                            "to set where it looks for time zone files.")


class TerminalCommandTest(VerdictCase):
    """Asked how to do a thing from a terminal, a command answers, not a Python call."""

    _QUESTION = "How do I run the converter from a terminal without writing any Python code?"

    def test_a_python_call_is_no_command(self):
        self.assertNotAnswered(self._QUESTION, "Using Markdown from the command line without writing Python code",
                               "To run the converter from a terminal: html = md.convert(text_without_footnote)")

    def test_a_command_answers(self):
        self.assertAnswered(self._QUESTION, "Using Markdown from the command line without writing Python code",
                            "To run the converter from a terminal, use: python -m markdown [options] [args]")

    def test_an_option_asked_is_read_by_its_kind(self):
        self.assertFalse(asks_command("How do I set the output format on the command line? Which option?"))
        self.assertTrue(asks_command("How can I convert a file from the shell?"))


class HowObjectTest(VerdictCase):
    """A how-question's object must be named by the claim or its heading."""

    _QUESTION = "How do I generate the stylesheet that highlighted code blocks need?"

    def test_a_name_on_the_topic_without_the_object_is_no_answer(self):
        self.assertNotAnswered(self._QUESTION, "Code Blocks › Syntax Highlighting",
                               "Highlighted code blocks need this: to generate them, set use_pygments=true in the attribute list.")

    def test_the_object_named_answers(self):
        self.assertAnswered(self._QUESTION, "Code Blocks › Syntax Highlighting",
                            "Generate the stylesheet for highlighted code blocks with pygmentize -S default -f html > styles.css")

    def test_the_object_inside_a_name_counts(self):
        self.assertFalse(object_unnamed("How do I register an error handler without using the decorator?", "Errors",
                                        "Or use register_error_handler to register the function later."))
        self.assertFalse(object_unnamed("How do I choose which panels the toolbar shows?", "", "Nothing here."))


class FlagOfAnotherCommandTest(VerdictCase):
    """A flag asked with its command is that command's."""

    _QUESTION = "What does migrate --dry-run print?"

    def test_another_commands_flag_is_no_answer(self):
        self.assertNotAnswered(self._QUESTION, "Creating the cache table",
                               "To print the SQL that migrate would run, rather than run it, use the createcachetable --dry-run option.")

    def test_the_commands_own_flag_answers(self):
        self.assertAnswered(self._QUESTION, "Management commands",
                            "migrate --dry-run prints the SQL that would be run without running it.")

    def test_the_commands_heading_ties_the_flag(self):
        self.assertFalse(flag_elsewhere(self._QUESTION, "django-admin › migrate", "--dry-run\n\nPrints the SQL that would be run."))
        self.assertFalse(flag_elsewhere("Can I pass --dry-run?", "", "createcachetable --dry-run prints it."))
        self.assertFalse(flag_elsewhere("Which release deprecated --dry-run?", "", "- --dry-run is deprecated in 4.2; use pipewright plan instead."))
        self.assertFalse(flag_elsewhere("What is the maximum --timeout that tether-cli accepts?", "",
                                        "- --timeout SECONDS — request timeout. The maximum accepted is 120 seconds."))


class StatedDefaultTest(VerdictCase):
    """A default asked of an amount is a number; how to change a default is not the default."""

    _QUESTION = "What is the default suggested page cache size that PRAGMA cache_size reports?"
    _HEADING = "PRAGMA Statements › cache_size"

    def test_a_default_amount_without_a_number_is_no_answer(self):
        self.assertNotAnswered(self._QUESTION, self._HEADING, "PRAGMA cache_size reports the default suggested page cache size of the pages.")

    def test_how_to_change_the_default_is_no_answer(self):
        self.assertNotAnswered("What is the default template loader of the cache page?", "Template loaders",
                               "The default template loader of the cache page can be changed using the LOADERS setting.")

    def test_a_default_with_a_value_answers(self):
        self.assertAnswered(self._QUESTION, self._HEADING, "The default suggested page cache size that PRAGMA cache_size reports is -2000.")
        self.assertAnswered("What is the default template loader of the cache page?", "Template loaders",
                            "The default template loader of the cache page is 'filesystem'; it can be changed using the LOADERS setting.")


class PointerTest(VerdictCase):
    """A sentence that only sends the reader elsewhere gives no value."""

    _QUESTION = "For BZ2_bzCompressInit, what workFactor is used if I pass 0?"

    def test_a_pointer_is_no_answer(self):
        self.assertNotAnswered(self._QUESTION, "BZ2_bzCompressInit",
                               "For what workFactor is used if you pass 0 to BZ2_bzCompressInit, see the section on workFactor.")
        self.assertNotAnswered(self._QUESTION, "Programming with libbzip2",
                               "For the meaning of parameters blockSize100k, verbosity and workFactor, see BZ2_bzCompressInit.")

    def test_a_statement_answers(self):
        self.assertAnswered(self._QUESTION, "Programming with libbzip2",
                            "If you pass 0 as workFactor, BZ2_bzCompressInit uses the default value of 30.")

    def test_a_pointer_naming_the_asked_name_answers_a_name_question(self):
        self.assertFalse(points_elsewhere("Which function registers an error handler later?", "See register_error_handler() for details."))
        self.assertFalse(points_elsewhere("What is the default?", "For example, see how it works: it is 5."))


class LifeCycleStageTest(VerdictCase):
    """A stage asked in the present tense ("which version removes X") is not earned by another."""

    _QUESTION = "Which Django version removes the USE_L10N setting?"

    def test_a_deprecation_is_no_removal(self):
        self.assertNotAnswered(self._QUESTION, "Django 4.0 release notes › Features deprecated in 4.0", "The USE_L10N setting is deprecated.")

    def test_the_removal_answers(self):
        self.assertAnswered(self._QUESTION, "Django 5.0 release notes › Features removed in 5.0", "The USE_L10N setting is removed.")


if __name__ == "__main__":
    unittest.main()
