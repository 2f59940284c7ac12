"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, eighteenth round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from earned_support import VerdictCase

from agentic_rag._answering.amounts import counts_a_time, not_money
from agentic_rag._answering.claim_pieces import claim_pieces
from agentic_rag._answering.definitions import counts_term, defines
from agentic_rag._answering.modality import lack_problem
from agentic_rag._answering.place_conditions import place_problem
from agentic_rag._answering.row_labels import tally_problem
from agentic_rag._answering.table_columns import column_problem
from agentic_rag._answering.time_scope import period_problem
from agentic_rag._answering.unoffered import definition_denied
from agentic_rag._answering.withheld import withholds
from agentic_rag._text.relevance import RelevanceModel


class WrappedListItemTest(VerdictCase):
    """A Markdown list item wrapped onto an indented line is one item, not a code block read
    line by line: its sentence is read whole, with the plan its second line states."""

    _HEADING = "Corvid firmware changelog › 4.1.0"

    def test_a_wrapped_planned_removal_gives_no_removal(self):
        self.assertNotAnswered("Which Corvid firmware release removed serial print mode?", self._HEADING,
                               "- Deprecated: serial print mode (printing over a serial cable). It still works in 4.3; removal is\n"
                               "  planned for 5.0.")

    def test_a_wrapped_item_for_another_model_gives_no_version(self):
        self.assertNotAnswered("Which Corvid firmware version added pressure advance to the Corvid Lite?", self._HEADING,
                               "- Added: pressure advance for the Corvid Pro. The Corvid Lite lacks the sensor this needs; support for the Lite is\n"
                               "  being investigated but has not been scheduled.")

    def test_a_wrapped_item_that_states_the_stage_answers(self):
        self.assertAnswered("Which Corvid firmware release removed serial print mode?", self._HEADING,
                            "- Removed: serial print mode (printing over a serial cable), deprecated since\n  3.2 and replaced by network printing.")

    def test_the_bound_in_a_later_clause_of_the_joined_sentence_answers(self):
        text = "- --wait SECONDS — how long to wait. The default is 10 seconds and the\n  maximum accepted is 90 seconds."
        self.assertAnswered("What is the maximum --wait that corvid-cli accepts?", "corvid-cli reference", text)
        self.assertNotAnswered("What is the maximum --wait that corvid-cli accepts?", "corvid-cli reference",
                               "- --wait SECONDS — how long to wait. The default is 10 seconds and the\n  minimum accepted is 2 seconds.")

    def test_code_under_an_item_that_introduces_it_stays_code(self):
        self.assertAnswered("Which Corvid firmware release added the --dry-run flag?", self._HEADING,
                            "- Added: the --dry-run flag:\n    corvid print --dry-run model.gcode")


class LackedByTheAskedSubjectTest(VerdictCase):
    """A sentence saying the asked subject lacks what the value needs ("the Corvid Lite lacks the
    sensor this needs") gives the value for what has it, not for the asked subject; a letter
    that ends a model's name ("Duo X.") ends its sentence before "The"."""

    _HEADING = "Corvid firmware changelog › 4.1.0"

    def test_the_asked_subject_lacking_it_gets_no_version(self):
        self.assertEqual(lack_problem("Which Corvid firmware version added pressure advance to the Corvid Lite?",
                                      "- Added: pressure advance for the Corvid Pro; the Corvid Lite lacks the sensor this needs."), "denied")
        self.assertNotAnswered("Which Corvid firmware version added pressure advance to the Corvid Lite?", self._HEADING,
                               "- Added: pressure advance for the Corvid Pro; the Corvid Lite lacks the sensor this needs.")

    def test_another_subject_lacking_it_leaves_the_answer(self):
        self.assertEqual(lack_problem("Which Corvid firmware version added pressure advance to the Corvid Pro?",
                                      "- Added: pressure advance for the Corvid Pro; the Corvid Lite lacks the sensor this needs."), "")
        self.assertEqual(lack_problem("Which Corvid models lack the sensor?", "The Corvid Lite lacks the sensor."), "")
        self.assertAnswered("Which Corvid firmware version added pressure advance for the Corvid Duo X?", self._HEADING,
                            "- Added: pressure advance for the Corvid Duo X. The Corvid Lite lacks the sensor this needs; support for the Lite is being investigated.")

    def test_a_name_ending_in_a_letter_ends_its_sentence(self):
        self.assertEqual([piece for _, piece in claim_pieces("Added for the Duo X. The Lite lacks it.")], ["Added for the Duo X.", "The Lite lacks it."])
        self.assertEqual([piece for _, piece in claim_pieces("Signed by John F. Kennedy in 1961.")], ["Signed by John F. Kennedy in 1961."])


class ListedCountsTest(VerdictCase):
    """A sentence that lists the counts it covers ("In a 3-, 4- or 5-player game", "a solo
    game") gives nothing for a count it leaves out."""

    def test_counts_that_leave_the_asked_one_out_are_another_case(self):
        question = "In a two-player game of Harvest Moon, how many tokens does each player start with?"
        self.assertEqual(place_problem(question, "In a 3-, 4- or 5-player game each player starts with 4 tokens."), "another subject")
        self.assertEqual(place_problem(question, "For 3–6 players, each starts with 4 tokens."), "another subject")
        self.assertEqual(place_problem(question, "In a solo game you start with 7 tokens."), "another subject")

    def test_the_asked_count_listed_or_no_count_is_left_alone(self):
        question = "In a two-player game of Harvest Moon, how many tokens does each player start with?"
        self.assertEqual(place_problem(question, "In a 2- or 3-player game each player starts with 6 tokens."), "")
        self.assertEqual(place_problem(question, "For 2–4 players, each starts with 6 tokens."), "")
        self.assertEqual(place_problem(question, "Each player starts with 6 tokens."), "")
        self.assertEqual(place_problem("How much is a one-way ticket?", "There are 2 ways to pay: a one-way ticket costs £3."), "")

    def test_verdicts(self):
        self.assertNotAnswered("In a two-player game of Harvest Moon, how many tokens does each player start with?", "Harvest Moon rules FAQ",
                               "In a 3-, 4- or 5-player game each player starts with 4 tokens.")
        self.assertAnswered("In a two-player game of Harvest Moon, how many tokens does each player start with?", "Harvest Moon rules FAQ",
                            "In a two-player game each player starts with 6 tokens.")


class NumbersThatCountNothingTest(unittest.TestCase):
    """A dotted number after "in" or "version" names a release, and a "one" that picks a member
    of a group counts nothing."""

    def test_a_release_or_a_pick_counts_nothing(self):
        self.assertEqual(counts_a_time("How many tokens does each player start with?", "The Frost card now hits only the active player (in 1.1 it hit everyone).", "1.1"),
                         "another attribute")
        self.assertEqual(counts_a_time("How many alarms can you link to a Glint G2?", "Linked alarms all sound when any one of them detects smoke.", "one"),
                         "another attribute")

    def test_counts_are_left_alone(self):
        self.assertEqual(counts_a_time("How many members does the club have?", "The club has 1.2 million members.", "1.2"), "")
        self.assertEqual(counts_a_time("How many alarms can you link to a Glint G2?", "Only one alarm can be linked to a Glint G2.", "one"), "")
        self.assertEqual(counts_a_time("How many alarms can you link to a Glint G2?", "You can link 12 alarms to a Glint G2.", "12"), "")


class AskedColumnWithoutTheValueTest(VerdictCase):
    """In a side-by-side table, the asked model's cell that says how (in words, with no number)
    gives no number; the number in the other model's cell is that model's."""

    _ROW = "| Glint G2 | Glint G5\nLinking | Through the Glint Bridge (sold separately) | Wireless, up to 16 alarms"

    def test_the_asked_column_without_a_number_gives_none(self):
        self.assertEqual(column_problem("How many alarms can you link with a Glint G2?", self._ROW), "no value")

    def test_the_column_with_the_number_answers(self):
        self.assertEqual(column_problem("How many alarms can you link with a Glint G5?", self._ROW), "")
        self.assertEqual(column_problem("How are Glint G2 alarms linked?", self._ROW), "")


class DeniedDefinitionTest(VerdictCase):
    """An entry whose first sentence says the asked body does not define the term defines
    nothing, and keeps another body's definition beside it from answering for the asked one."""

    _HEADING = "Tessel Labs glossary"

    def test_an_entry_denying_a_definition_defines_nothing(self):
        self.assertFalse(defines(("surface", "finish"), "Surface finish — Tessel's support team does not define this term."))
        self.assertTrue(defines(("surface", "finish"), "Surface finish — the roughness of a printed face, measured in microns."))

    def test_a_denial_by_the_asked_body_withholds_another_bodys_definition(self):
        self.assertTrue(definition_denied("What does 'fresh' mean at Larchmoor Market?", "- Fresh: not yet defined by Larchmoor."))
        self.assertTrue(definition_denied("How does Tessel define 'surface finish'?", "Surface finish — Tessel's support team does not define this term."))
        self.assertTrue(withholds("What does 'fresh' mean at Larchmoor Market?", "Trader rules › Definitions", "", "- Fresh: not yet defined by Larchmoor.",
                                  RelevanceModel()))
        self.assertNotAnswered("What does 'fresh' mean at Larchmoor Market?", "Trader rules › Definitions",
                               "- Fresh: not yet defined by Larchmoor. The national Growers' Guild treats \"fresh\" as picked within 48 hours.")

    def test_a_denial_naming_no_or_another_body_withholds_nothing(self):
        self.assertFalse(definition_denied("What does 'fresh' mean at Larchmoor Market?", "- Fresh: not defined by the Guild; at Larchmoor, picked that morning."))
        self.assertFalse(definition_denied("What does PYTHONHOME mean?", "If PYTHONHOME is not defined, the prefix is found by search."))
        self.assertAnswered("What does 'fresh' mean at Larchmoor Market?", "Trader rules › Definitions",
                            "- Fresh: at Larchmoor Market, produce picked within 24 hours of the market.")


class CountForADefinitionTest(VerdictCase):
    """A line that only counts the term's things ("41 operational members") says how many
    there are, not what makes one."""

    def test_a_count_is_no_definition(self):
        self.assertTrue(counts_term("What counts as an 'active member' of Brackenfell Rowing Club?", (),
                                    "64 active members, 20 juniors and 11 associate members at year end."))

    def test_a_definition_or_another_question_is_left_alone(self):
        self.assertFalse(counts_term("What counts as an 'active member' of Brackenfell Rowing Club?", (),
                                     "An active member is one who has rowed at least 10 times in the season."))
        self.assertFalse(counts_term("How many active members does Brackenfell Rowing Club have?", (), "64 active members at year end."))

    def test_verdict(self):
        self.assertNotAnswered("What counts as an 'active member' of Brackenfell Rowing Club?", "Brackenfell Rowing Club annual report",
                               "64 active members, 20 juniors and 11 associate members at year end.")


class TalliedEventsTest(VerdictCase):
    """A row labelled as a tally of events ("Work days held | 14 | 17") gives no cap or bound on
    how many one event takes."""

    def test_a_tally_is_no_cap(self):
        self.assertEqual(tally_problem("Is there a cap on numbers at Elmcroft work days - what's the most they'll take?", "| 2023 | 2024\nWork days held | 14 | 17"),
                         "another attribute")
        self.assertEqual(tally_problem("What is the maximum group size for Elmcroft courses?", "Courses run | 9 | 12"), "another attribute")

    def test_a_count_of_events_or_a_bound_row_is_left_alone(self):
        self.assertEqual(tally_problem("How many work days did Elmcroft hold in 2024?", "| 2023 | 2024\nWork days held | 14 | 17"), "")
        self.assertEqual(tally_problem("What's the most a work day takes?", "| Rule\nPlaces per work day | 20 at most"), "")

    def test_verdict(self):
        question = "Is there a cap on numbers at Elmcroft orchard work days - what's the most they'll take?"
        heading = "Elmcroft Community Orchard — annual report 2024 › The year in numbers"
        passage = "Work days take place on Saturdays.\n\n| | 2023 | 2024 |\n|---|---|---|\n| Members | 98 | 104 |\n| Work days held | 14 | 17 |"
        self.assertNotAnswered(question, heading, "Work days held | 14 | 17", passage)


class NumberedItemAndSumTest(VerdictCase):
    """A numbered section's number ("7.4 New depot site:") numbers the item, and a sum asked by
    its noun ("What budget ...") is not given by a count."""

    def test_a_section_number_and_a_count_give_no_budget(self):
        self.assertEqual(not_money("What budget has Ferncastle set for the new depot?", "three possible sites have been identified"), "no value")
        self.assertNotAnswered("What budget has Ferncastle set for buying land for a new depot?", "Ferncastle committee minutes",
                               "7.4 New depot site: three possible sites for a new depot have been identified and a report on buying land will follow.")

    def test_a_section_number_is_no_count(self):
        self.assertNotAnswered("How many sites has Ferncastle found for a new depot?", "Ferncastle committee minutes",
                               "7.4 New depot site: a search for sites for a new depot has begun.")
        self.assertAnswered("How many sites has Ferncastle found for a new depot?", "Ferncastle committee minutes",
                            "7.4 New depot site: Ferncastle has found three possible sites for a new depot.")

    def test_a_sum_answers(self):
        self.assertEqual(not_money("What budget has Ferncastle set for the new depot?", "a budget of £1.2 million was agreed"), "")
        self.assertAnswered("What budget has Ferncastle set for buying land for a new depot?", "Ferncastle committee minutes",
                            "7.4 New depot site: Ferncastle has set a budget of £1.2 million for buying land for a new depot.")


class FutureEventTest(unittest.TestCase):
    """"When will X reopen?" wants a time of that event: a line with no time, or with a time of
    another event ("closed from 17 March"), gives none; "closed until ..." gives the end of the
    state a reopening leaves."""

    _QUESTION = "When will the pavilion at Hartwell Park reopen?"

    def test_another_event_or_no_time_gives_no_answer(self):
        self.assertEqual(period_problem(self._QUESTION, "The pavilion at Hartwell Park is closed from 3 February 2025 for roof repairs."), "another attribute")
        self.assertEqual(period_problem(self._QUESTION, "Events that would have used the pavilion move to the Lodge."), "no value")

    def test_the_event_or_the_end_of_the_closure_answers(self):
        self.assertEqual(period_problem(self._QUESTION, "The pavilion at Hartwell Park reopens on 1 September 2025."), "")
        self.assertEqual(period_problem(self._QUESTION, "The pavilion at Hartwell Park is closed until 31 August 2025."), "")
        self.assertEqual(period_problem("When does the pavilion open?", "The pavilion is closed from 3 February 2025."), "")


if __name__ == "__main__":
    unittest.main()
