"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, eighth round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from agentic_rag._answering.asked_measures import measure_problem
from agentic_rag._answering.attributes import statement_problem
from agentic_rag._answering.deferrals import deferred_value
from agentic_rag._answering.open_readings import open_problem
from agentic_rag._answering.table_columns import column_problem
from agentic_rag._text.asked_attribute import defined_term
from agentic_rag._text.asked_numbers import stated_numbers
from agentic_rag._text.relevance import RelevanceModel
from earned_support import VerdictCase


def _problem(question: str, piece: str) -> str:
    return measure_problem(question, piece, piece)


class DefinitionQuestionTest(VerdictCase):
    def test_more_definition_questions_are_read(self):
        self.assertEqual(defined_term("How does Fenwick Allotments define an active member?"), ("active", "member"))
        self.assertEqual(defined_term("What is an associate member of Harrow Sailing Club?"), ("associate", "member"))
        self.assertEqual(defined_term("What are quiet hours on Tolley Buses?"), ("quiet", "hours"))
        # "of" a common noun, and a value asked by its name, are no definition questions.
        self.assertEqual(defined_term("What is a member of staff?"), ())
        self.assertEqual(defined_term("What is the capital of Veloria?"), ())

    def test_a_reported_question_or_a_topic_raised_defines_nothing(self):
        heading = "Fenwick Allotments: AGM minutes"
        question = "How does Fenwick Allotments define an active member?"
        self.assertNotAnswered(question, heading, 'Members asked how "active member" will be defined for voting at future meetings.')
        self.assertNotAnswered("What is an associate member of Harrow Sailing Club?", "Harrow Sailing Club: minutes",
                               "Associate membership. Associate membership was raised again.")
        self.assertAnswered(question, heading, "An active member is a member who has worked their plot in the current season.")

    def test_a_terms_row_defines_its_term_though_a_later_clause_denies(self):
        question, heading, model = "How does Orwell Queue define a lease?", "Orwell Queue — Terms", RelevanceModel()
        row = "Term | Meaning\nLease | A time-limited claim a consumer holds; if it is not renewed, it expires."
        self.assertEqual(statement_problem(question, heading, row, row, model), "")
        other = "Term | Meaning\nSegment | A file that holds part of a partition."
        self.assertNotEqual(statement_problem(question, heading, other, other, model), "")


class VersionOfTheHeadingTest(unittest.TestCase):
    def test_a_version_of_another_stage_or_in_a_path_is_not_stated(self):
        self.assertEqual(stated_numbers("Which release removed the --poll flag?", "Removed: the --poll flag (deprecated since 4.0)."), set())
        self.assertEqual(stated_numbers("In which API version was search added?", "- Added: search (`/v4/search`)."), set())
        # The asked stage's own version, and a question that names no stage, keep theirs.
        self.assertEqual(stated_numbers("Which release deprecated the --poll flag?", "Deprecated since 4.0."), {"4.0"})
        self.assertEqual(stated_numbers("In which version is XML export going away?", "XML export will be removed in version 9."), {"version 9"})

    def test_the_answer_shows_the_version_heading(self):
        model = RelevanceModel()
        passages = [("Release notes › 4.2 (18 November 2024)", "- Removed: the `--poll` flag of the agent (deprecated since 4.0).")]
        units = model.rank_units("Which release removed the --poll flag?", passages)
        self.assertEqual(units[0].heading, "Release notes › 4.2 (18 November 2024)")


class MeasureReadingsTest(unittest.TestCase):
    def test_a_count_is_no_size(self):
        question = "What is the biggest allotment plot you can rent at Fenwick?"
        self.assertEqual(_problem(question, "Each member may rent at most 2 allotment plots."), "another attribute")
        self.assertEqual(_problem(question, "The largest plot is 250 square metres."), "")

    def test_a_starting_price_or_no_price_is_not_the_most(self):
        question = "What is the most the Orbit Team plan can cost per month?"
        self.assertEqual(_problem(question, "Plan | Monthly price\nTeam | from £99"), "rival aspect")
        self.assertEqual(_problem(question, "Annual billing saves two months on the Team plan."), "no value")
        self.assertEqual(_problem(question, "Plan | Monthly price\nTeam | £99 to £180"), "")
        self.assertEqual(_problem(question, "Plan | Monthly price\nTeam | up to £180"), "")

    def test_how_often_is_not_how_long(self):
        question = "How long does the bus from Alder to Brook take?"
        self.assertEqual(_problem(question, "Buses to Brook run every 20 minutes."), "another attribute")
        self.assertEqual(_problem(question, "The trip takes 35 minutes; buses run every 20 minutes."), "")

    def test_a_word_limit_counts_words(self):
        question = "What is the essay word limit at Holm College?"
        self.assertEqual(_problem(question, "Essays are submitted by 17:00 on the due date."), "another attribute")
        self.assertEqual(_problem(question, "The word limit is 3,000 words."), "")
        self.assertEqual(_problem("What is the daily spending limit?", "Cards are blocked after 3 failed attempts."), "")


class ExampleFigureTest(unittest.TestCase):
    def test_an_example_figure_is_no_value(self):
        question = "What is the essay word limit at Holm College?"
        self.assertEqual(deferred_value(question, "The word limit is set by each tutor (for example, 3,000 words)."), "no value")
        self.assertEqual(deferred_value(question, "The word limit is 3,000 words (for example, one long essay)."), "")


class SiblingAndDestinationTest(unittest.TestCase):
    def test_a_sibling_component_under_its_heading(self):
        question = "What is tern-agent's default idle_timeout?"
        row = "Key | Default\nidle_timeout | 900"
        self.assertEqual(open_problem(question, row, "tern-hub configuration reference"), "another subject")
        self.assertEqual(open_problem(question, row, "tern-agent configuration reference"), "")

    def test_another_end_of_a_journey(self):
        question = "How long does the ferry from Alder to Brook take?"
        self.assertEqual(open_problem(question, "The ferry from Alder to Cray takes 55 minutes.", "FAQ"), "another subject")
        self.assertEqual(open_problem(question, "The ferry from Alder to Brook takes 30 minutes.", "FAQ"), "")
        self.assertEqual(open_problem(question, "The ferry takes 30 minutes.", "Alder to Brook"), "")


class DateFactTest(VerdictCase):
    def test_a_date_fact_is_answered_only_by_a_time(self):
        # "When did X open?" read as a date fact of X: a sentence about X with no time in it
        # ("a unit has been identified") says nothing of when; one with a time still does.
        question = "When did Pawsmith's Ashcombe surgery open?"
        model = RelevanceModel()

        def problem(piece: str) -> str:
            return statement_problem(question, "", piece, piece, model)

        self.assertEqual(problem("A unit on Ashcombe Parade has been identified for a third surgery."), "no value")
        self.assertEqual(problem("The Ashcombe surgery will open in 2027."), "unreal")
        self.assertEqual(problem("The Ashcombe surgery opened in March 2021."), "")


class ColumnWithPlainWordsTest(unittest.TestCase):
    def test_a_route_column_named_with_its_plain_words(self):
        row = "Ticket | Cray Isle route | Brook route\nAnnual season ticket | on request | £310"
        self.assertEqual(column_problem("How much is an annual season ticket on the Cray Isle route?", row), "no value")
        self.assertEqual(column_problem("How much is an annual season ticket on the Brook route?", row), "")


if __name__ == "__main__":
    unittest.main()
