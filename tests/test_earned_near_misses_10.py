"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, tenth round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from agentic_rag._answering.asked_measures import measure_problem
from agentic_rag._answering.definitions import defines
from agentic_rag._answering.modality import modality_problem
from agentic_rag._answering.open_readings import open_problem
from agentic_rag._answering.time_scope import period_problem
from agentic_rag._text.answer_slots import SlotKind, read_slot
from agentic_rag._text.asked_attribute import Aspect, aspects_in, defined_term, read_attribute
from agentic_rag._text.asked_values import measured_only
from agentic_rag._text.sentences import split_sentences
from earned_support import VerdictCase


def _measure(question: str, piece: str, heading: str = "") -> str:
    return measure_problem(question, piece, piece, heading)


class DefinitionQuestionTest(VerdictCase):
    def test_a_scope_or_quotes_around_the_term_still_ask_a_definition(self):
        self.assertEqual(defined_term("Under Fernbrook Rowing's rules, what is a cox?"), ("cox",))
        self.assertEqual(defined_term("What is a cox, according to Fernbrook Rowing?"), ("cox",))
        self.assertEqual(defined_term("What does Fernbrook Rowing mean by 'wash'?"), ("wash",))
        self.assertEqual(defined_term("How does Fernbrook Rowing define a 'catch'?"), ("catch",))
        question = "Under Fernbrook Rowing's rules, what is a cox?"
        self.assertNotAnswered(question, "Fernbrook Rowing — News", "The new boat seats eight rowers and a cox.")
        self.assertAnswered(question, "Fernbrook Rowing — Rules", "A cox is the crew member who steers the boat and calls the stroke.")

    def test_the_line_under_a_term_defines_it(self):
        term = ("slack", "water")
        self.assertTrue(defines(term, "The hour around high tide when the river barely moves.", "Slack water\n"))
        self.assertTrue(defines(term, "Slack water The hour around high tide when the river barely moves.", "Slack water\n"))
        # The term's line alone, a later sentence, or a line under another term define nothing.
        self.assertFalse(defines(term, "Slack water", "Slack water\n"))
        self.assertFalse(defines(term, "Crews launch then.", "Slack water\nThe hour around high tide."))
        self.assertFalse(defines(term, "The hour when the tide turns.", "Spring tide\n"))


class HeadingPeriodTest(VerdictCase):
    def test_a_yearless_line_is_dated_by_its_section(self):
        question = "How many visitors did Quarrendon Museum have in 2026?"
        self.assertEqual(period_problem(question, "- Visitors: 41,200 (2024: 38,900).", "Quarrendon Annual Report 2025 › Highlights"), "another subject")
        self.assertEqual(period_problem(question, "- Visitors: 44,000.", "Quarrendon Annual Report 2027 › 2026 in figures"), "")
        self.assertEqual(period_problem(question, "- Visitors: 44,000.", "Quarrendon Annual Report 2026 › Highlights"), "")
        self.assertNotAnswered(question, "Quarrendon Annual Report 2025 › Highlights", "- Visitors: 41,200 (2024: 38,900).")
        self.assertAnswered(question, "Quarrendon Annual Report 2026 › Highlights", "- Quarrendon Museum visitors: 44,000.")

    def test_todays_value_is_not_the_one_after_a_change(self):
        question = "What output does the Ashby mill have with its new turbine?"
        self.assertEqual(period_problem(question, "The mill's current output is 40 kW."), "another subject")
        self.assertEqual(period_problem(question, "With the new turbine the mill produces 65 kW."), "")

    def test_an_outlook_or_an_intention_is_no_value(self):
        question = "How many tonnes of hay did Ashby farm cut in 2026?"
        self.assertEqual(modality_problem(question, "- A wet spring points to about 90 tonnes.", "Farm Report 2025 › Outlook for 2026"), "unreal")
        self.assertEqual(modality_problem(question, "- Hay cut: 82 tonnes.", "Farm Report 2026 › Results"), "")
        question = "What output does the Ashby mill have?"
        self.assertEqual(modality_problem(question, "the new wheel is intended to lift output to 65 kW"), "unreal")
        self.assertEqual(modality_problem(question, "a second wheel adds 20 kW, subject to planning approval"), "unreal")
        self.assertEqual(modality_problem(question, "the mill's output is 40 kW"), "")


class OpenQuantityTest(VerdictCase):
    def test_a_capacity_asked_in_open_words_wants_a_number_in_its_clause(self):
        question = "What is the Ashby mill's grinding capacity today?"
        self.assertNotAnswered(question, "Ashby mill", "The Ashby mill grinding floor was restored in 1990.")
        self.assertAnswered(question, "Ashby mill", "The Ashby mill's current grinding capacity is 3 tonnes a day; a second stone is planned for 2028.")


class ListNumberTest(VerdictCase):
    def test_a_list_items_number_is_no_count(self):
        question = "How many beehives does Orrin Apiary keep?"
        self.assertNotAnswered(question, "Orrin Apiary minutes", "4. Beehives: the keeper reported on the spring inspection.")
        self.assertAnswered(question, "Orrin Apiary minutes", "4. Beehives: Orrin Apiary keeps 28 beehives.")


class BoundReadingsTest(VerdictCase):
    def test_a_position_above_a_surface_is_no_bound(self):
        self.assertEqual(aspects_in("Maximum flying height: 90 m above the ground."), frozenset({Aspect.MAXIMUM}))
        self.assertEqual(aspects_in("temperatures above 40 °C"), frozenset({Aspect.MINIMUM}))
        question = "What is the minimum height Ossel Kites fly at?"
        self.assertNotAnswered(question, "Ossel Kites — Rules", "Maximum flying height: 90 m above the ground.")
        self.assertAnswered(question, "Ossel Kites — Rules", "Minimum flying height: 15 m above the ground.")

    def test_the_largest_value_allowed_is_a_number_and_or_greater_a_minimum(self):
        self.assertIs(read_slot("What is the largest value allowed for cache.ttl in Brindle?").kind, SlotKind.NUMBER)
        self.assertEqual(aspects_in("Allowed 1 or greater"), frozenset({Aspect.MINIMUM}))
        self.assertEqual(aspects_in("Allowed 10 or lower"), frozenset({Aspect.MAXIMUM}))
        question = "What is the largest value allowed for cache.ttl in Brindle?"
        header = "Key | Default | Allowed | Description\n"
        self.assertNotAnswered(question, "Brindle settings", header + "cache.ttl | 60 | 1 or greater | Seconds an entry lives.")
        self.assertAnswered(question, "Brindle settings", header + "cache.ttl | 60 | 1-3600 | Seconds an entry lives.")


class RoleHolderTest(unittest.TestCase):
    def test_who_holds_a_role_wants_a_name(self):
        question = "Who is the secretary of the Pellow Chess Club?"
        self.assertEqual(open_problem(question, "Secretary's report: the secretary read the letters received."), "no value")
        self.assertEqual(open_problem(question, "Prepared by the committee, March 2026."), "no value")
        self.assertEqual(open_problem(question, "Rhona Veitch was re-elected secretary."), "")
        self.assertEqual(open_problem(question, "The club's secretary is Rhona Veitch."), "")


class MeasuredThingTest(unittest.TestCase):
    def test_a_unit_after_a_number_ends_a_sentence(self):
        text = "The main mast is 18 m and the mizzen is 11 m. The dinghy mast is 4 m."
        self.assertEqual([s.text for s in split_sentences(text)], ["The main mast is 18 m and the mizzen is 11 m.", "The dinghy mast is 4 m."])
        self.assertEqual(len(split_sentences("Drawn by J. Mortlake in 1902.")), 1)

    def test_an_extent_of_another_kind_of_the_thing(self):
        question = "How tall are the training masts at Sallow Quay?"
        self.assertEqual(_measure(question, "- Two 18 m racing masts.", "Sallow Quay"), "another attribute")
        self.assertEqual(_measure(question, "- The training masts are 9 m tall.", "Sallow Quay"), "")
        self.assertEqual(_measure(question, "- Height: 9 m.", "Sallow Quay › Training masts"), "")

    def test_lane_metres_measure_and_count_nothing(self):
        self.assertTrue(measured_only("Trailer deck | 60 lane metres"))
        self.assertFalse(measured_only("Trailer deck | 60 trailers"))

    def test_a_lead_time_is_no_span(self):
        question = "For how many nights at most can a member book the Tolley hut?"
        self.assertEqual(_measure(question, "Bookings open up to 10 weeks ahead."), "another attribute")
        self.assertEqual(_measure(question, "Members may book up to 4 nights in a row."), "")
        self.assertEqual(_measure("How many weeks ahead can a member book the Tolley hut?", "Bookings open up to 10 weeks ahead."), "")

    def test_a_closing_time_is_said_as_closing_or_as_hours(self):
        question = "What time does the Marrow Lane bakery close on a Sunday?"
        self.assertEqual(_measure(question, "- Bread classes run on Sundays at 10:00."), "another attribute")
        self.assertEqual(_measure(question, "- Sunday: open until 14:00."), "")
        self.assertEqual(_measure(question, "- Sunday | 08:00-14:00"), "")


class CountOfAThingOfAKindTest(VerdictCase):
    def test_the_things_own_noun_stands_where_the_count_does(self):
        question = "On how many boats can a Wendle club licence be used?"
        attribute = read_attribute(question)
        self.assertEqual((attribute.kind, attribute.verb), (("licence",), "used"))
        self.assertNotAnswered(question, "Wendle club — FAQ", "A day ticket can be used on up to two boats at once.")
        self.assertAnswered(question, "Wendle club — FAQ", "A Wendle club licence can be used on up to four boats.")


if __name__ == "__main__":
    unittest.main()
