"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, eleventh round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from agentic_rag._answering.amounts import counts_a_time, not_money
from agentic_rag._answering.asked_measures import measure_problem
from agentic_rag._answering.definitions import defines
from agentic_rag._answering.modality import modality_problem
from agentic_rag._answering.priced_items import prices_another
from agentic_rag._answering.row_labels import label_problem
from agentic_rag._answering.unachieved import unachieved_problem
from agentic_rag._text.asked_attribute import defined_term
from agentic_rag._text.relevance import RelevanceModel
from earned_support import VerdictCase


class ShareOrHourIsNoCountTest(VerdictCase):
    def test_a_percentage_counts_no_things(self):
        question = "How many apples are kept in the Pollard cold store?"
        self.assertEqual(counts_a_time(question, "apples are chilled to 3 °C at 92% humidity", "92"), "another attribute")
        self.assertEqual(counts_a_time(question, "the store keeps 4,000 apples", "4,000"), "")
        self.assertEqual(counts_a_time("How many percent of the apples are sold?", "about 60 percent are sold", "60"), "")
        self.assertNotAnswered(question, "Pollard cold store › Terms", "Keeper apple - an apple that keeps when chilled at 92% humidity.")
        self.assertAnswered(question, "Pollard cold store", "The Pollard cold store keeps 4,000 apples over winter.")

    def test_a_time_of_day_counts_no_things(self):
        question = "How many moorings does Heron Creek marina have?"
        self.assertEqual(counts_a_time(question, "the boom is lifted at 07:30 for the moorings", "07"), "another attribute")
        self.assertNotAnswered(question, "Heron Creek marina", "The boom over the moorings is lifted at 07:30 each day.")
        self.assertAnswered(question, "Heron Creek marina", "Heron Creek marina has 45 moorings.")


class ClockColumnTest(VerdictCase):
    def test_until_what_time_asks_a_time_of_day(self):
        question = "Until what time are breakfasts served at the Linnet Street cafe?"
        self.assertEqual(measure_problem(question, "- Linnet Street: pastries come from the bakery next door.",
                                         "- Linnet Street: pastries come from the bakery next door."), "no value")
        self.assertNotAnswered(question, "Cafes › Food", "- Linnet Street: pastries come from the bakery next door.")

    def test_times_in_another_column_are_another_things(self):
        question = "Until what time are breakfasts served at the Linnet Street cafe?"
        hours = "Cafe | Seats | Opening hours\nLinnet Street | 30 | 08:00-17:00"
        served = "Cafe | Seats | Breakfast served\nLinnet Street | 30 | 08:00-11:30"
        self.assertEqual(measure_problem(question, hours, hours), "another attribute")
        self.assertEqual(measure_problem(question, served, served), "")
        self.assertEqual(measure_problem("What time does the Linnet Street cafe close?", hours, hours), "")

    def test_another_places_line_is_not_the_asked_ones(self):
        question = "Until what time are breakfasts served at the Linnet Street cafe?"
        self.assertNotAnswered(question, "Cafes › Food", "- Dock Road: the kitchen serves breakfasts until 11:00.")
        self.assertAnswered(question, "Cafes › Food", "- Linnet Street cafe: breakfasts are served until 11:30.")


class ColumnStatusTest(unittest.TestCase):
    def test_a_version_column_whose_cell_is_pending_gives_no_version(self):
        question = "From which release is the Tern B2 board supported?"
        header = "Board | Revision | Release 5.1 | Release 5.2\n"
        self.assertEqual(unachieved_problem(question, "", header + "Tern | B2 | in testing | in testing", "5.1"), "unreal")
        self.assertEqual(unachieved_problem(question, "", header + "Tern | B2 | not supported | not supported", "5.1"), "denied")
        self.assertEqual(unachieved_problem(question, "", header + "Tern | B2 | not supported | supported", "5.2"), "")
        # Whether it is supported is answered by the status itself.
        self.assertEqual(unachieved_problem("Does release 5.1 support the Tern B2 board?", "", header + "Tern | B2 | in testing | in testing", "5.1"), "")


class UsedByIsNoDefinitionTest(VerdictCase):
    def test_who_uses_a_term_is_not_what_it_means(self):
        term = ("soft", "launch")
        self.assertFalse(defines(term, "Soft launch - a term used in the Fenmoor Arts Council's grant rules."))
        self.assertFalse(defines(term, "Soft launch - used by the council in its own guidance, which sets its own wording."))
        self.assertTrue(defines(term, "Soft launch - a term used by the council for an opening to invited guests only."))
        self.assertTrue(defines(term, "Soft launch - an opening to invited guests before the public day."))

    def test_how_is_a_term_defined_asks_a_definition(self):
        self.assertEqual(defined_term("How is quiet time defined in the Fenmoor lending rules?"), ("quiet", "time"))
        question = "How is quiet time defined in the Fenmoor lending rules?"
        self.assertNotAnswered(question, "Fenmoor library › Terms", "Quiet time - used in the Fenmoor lending rules; the rules carry their own definition.")
        self.assertAnswered(question, "Fenmoor library › Terms", "Quiet time - in the Fenmoor lending rules, the hours when phones must be off.")


class SiblingCodeTest(unittest.TestCase):
    def test_a_row_of_another_member_of_the_series(self):
        model = RelevanceModel()
        question = "How long is the walk on trail T4 between Ashby and the falls?"
        header = "Trail | Between | Length | Walking time\n"
        self.assertEqual(label_problem(question, header + "T3 | Ashby - the falls | 6 km | 2 hours", model), "another subject")
        self.assertEqual(label_problem(question, header + "T4 | Ashby - the falls | 9 km | 3 hours", model), "")


class PriceAskedInLongWordsTest(VerdictCase):
    def test_a_price_of_a_long_named_ticket_wants_money(self):
        question = "How much is an adult Kelso Park Rink winter pass for 2026?"
        self.assertEqual(not_money(question, "Winter pass prices will be set once the rink reopens."), "no value")
        self.assertEqual(not_money(question, "An adult winter pass costs £40."), "")

    def test_a_line_naming_one_word_of_the_item_prices_another_thing(self):
        model = RelevanceModel()
        question = "How much does a one-hour private climbing session cost at Cragside?"
        self.assertEqual(prices_another(question, "Children under 8 climb free with a paying adult.", "Session | Price\n", model), "another subject")
        self.assertEqual(prices_another(question, "Private session (1 hour) | £50", "", model), "")
        self.assertNotAnswered(question, "Cragside › Climbing school", "Children under 8 climb free with a paying adult.")
        self.assertAnswered(question, "Cragside › Climbing school", "A one-hour private climbing session costs £50.")


class ProvisionalFigureTest(unittest.TestCase):
    def test_a_provisional_figure_is_no_actual_one(self):
        question = "How much did the Tarn footbridge cost?"
        self.assertEqual(modality_problem(question, "The provisional cost is £80,000"), "unreal")
        self.assertEqual(modality_problem(question, "The footbridge cost £80,000"), "")
        self.assertEqual(modality_problem("How much is a provisional permit?", "A provisional permit costs £30"), "")


if __name__ == "__main__":
    unittest.main()
