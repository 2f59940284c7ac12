"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, fifteenth round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from agentic_rag._answering.aggregates import sums_several
from agentic_rag._answering.amounts import clock_as_amount, not_money, table_cells
from agentic_rag._answering.priced_items import rate_per_another
from agentic_rag._answering.asked_measures import acts_on_another, asks_whether_bound
from agentic_rag._answering.earned import ClaimContext, earned_verdict
from agentic_rag._answering.withheld import withholds
from agentic_rag._contracts import AnswerStatus
from agentic_rag._text.asked_values import asks_past_time
from agentic_rag._text.relevance import RelevanceModel
from earned_support import VerdictCase


class CornerCellHeaderTest(VerdictCase):
    """A header row that lost its empty corner cell ("| Junior | Middle" over "Late-start
    Monday dismissal | 12:40 pm | 1:10 pm") still heads the value columns: a time under
    another column is no time of the asked one."""

    _HEADING = "Fernbrook School District — Bell Schedule › Junior and middle schools"
    # The paragraph over the table names the asked schools too, so the passage covers the question.
    _PASSAGE = ("This schedule covers Fernbrook's junior and middle schools; high school times differ by campus.\n\n"
                "| Junior | Middle\nLate-start Monday dismissal | 12:40 pm | 1:10 pm")

    def test_cells_line_up_under_a_header_without_its_corner(self):
        self.assertEqual(table_cells("| Junior | Middle\nLate-start Monday dismissal | 12:40 pm | 1:10 pm"),
                         [("", "Late-start Monday dismissal"), ("Junior", "12:40 pm"), ("Middle", "1:10 pm")])
        # A header as wide as its row keeps its cells as they are.
        self.assertEqual(table_cells("Day | Opens\nMonday | 09:00"), [("Day", "Monday"), ("Opens", "09:00")])

    def test_another_columns_time_gives_no_answer(self):
        row = "Late-start Monday dismissal | 12:40 pm | 1:10 pm"
        self.assertNotAnswered("What time are Fernbrook high school students dismissed on late-start Mondays?", self._HEADING, row, self._PASSAGE)
        self.assertAnswered("What time do Fernbrook middle schools dismiss on late-start Mondays?", self._HEADING, row, self._PASSAGE)


class CornerLabelAspectTest(VerdictCase):
    """Under a header without its corner cell, the row's label says what its values are: a
    "Minimum commitment" row answers the minimum under the asked column, whether or not its
    value holds a digit."""

    _HEADING = "Kettle & Vine Tea — Subscription plans"
    _PASSAGE = ("Kettle & Vine Tea sends loose-leaf tea by post on two plans.\n\n"
                "| Taster | Tea Club\nMinimum commitment | None | four deliveries")

    def test_the_label_gives_the_asked_bound(self):
        row = "Minimum commitment | None | four deliveries"
        self.assertAnswered("What is the minimum commitment for Kettle & Vine's Tea Club?", self._HEADING, row, self._PASSAGE)


class WithheldCellTest(unittest.TestCase):
    """A cell that names the value it stands for and says it is still to come ("Start date
    TBC") under the asked column keeps the row's other columns, and sibling rows, from
    answering."""

    _PASSAGE = "| Eastfield | Westbrook\nHome delivery | Yes, next day | Start date TBC\nAddress | 4 Mill Road | 9 Quay Street"
    _QUESTION = "When does home delivery start at Pennock's Westbrook shop?"

    def _status(self, question: str) -> AnswerStatus:
        claims = [ClaimContext("Pennock's shops compared", row, self._PASSAGE) for row in self._PASSAGE.split("\n")[1:]]
        return earned_verdict(question, claims, RelevanceModel()).status

    def test_a_labelled_tbc_cell_withholds_the_value(self):
        self.assertIsNot(self._status(self._QUESTION), AnswerStatus.ANSWERED)
        model = RelevanceModel()
        self.assertTrue(withholds(self._QUESTION, "Pennock's shops compared", "", "| Eastfield | Westbrook\nHome delivery | Yes, next day | Start date TBC", model))

    def test_a_tbc_cell_under_another_column_withholds_nothing(self):
        row = "| Eastfield | Westbrook\nHome delivery charge | Amount TBC | £3.50"
        self.assertFalse(withholds("What is the home delivery charge at Pennock's Westbrook shop?", "Pennock's shops compared", "", row, RelevanceModel()))
        self.assertFalse(withholds("Is home delivery offered at Pennock's Westbrook shop?", "Pennock's shops compared", "",
                                   "| Eastfield | Westbrook\nHome delivery | Yes | Start date TBC", RelevanceModel()))


class SettledLaterOrElsewhereTest(unittest.TestCase):
    """A sentence saying the asked value will be settled at a later occasion ("will be set at
    the September meeting") or that the subject keeps its own where the reader looks it up
    ("publishes its own busy-day calendar each March on the ticket page") withholds it."""

    def test_a_value_settled_at_a_later_meeting_is_withheld(self):
        question = "How much will the adult swim fee at Linwood Leisure be after the proposed rise?"
        model = RelevanceModel()
        self.assertTrue(withholds(question, "Linwood Leisure board minutes", "", "The new adult swim fee will be set at the September meeting.", model))
        self.assertFalse(withholds(question, "Linwood Leisure board minutes", "", "The new adult swim fee was set at the September meeting at £4.50.", model))

    def test_its_own_value_published_elsewhere_is_withheld(self):
        question = "Which days does Marlow Pier class as busy days?"
        model = RelevanceModel()
        self.assertTrue(withholds(question, "Marlow Pier FAQ", "", "Marlow Pier publishes its own busy-day calendar each March on the ticket page.", model))
        self.assertFalse(withholds(question, "Marlow Pier FAQ", "", "Marlow Pier classes bank holidays as busy days.", model))


class PlanColumnOfTheAskedYearTest(VerdictCase):
    """A table row whose only column of the asked year is a plan's ("2024–25 budget") gives
    that year's plan, not what was spent; the year whose column is the outcome is answered."""

    _HEADING = "Kessling County budget summary"
    _PASSAGE = "Category | 2023–24 actual | 2024–25 budget\nRoad maintenance | $2.1 million | $2.6 million"

    def test_the_asked_years_plan_is_no_outcome(self):
        row = "Road maintenance | $2.1 million | $2.6 million"
        self.assertNotAnswered("How much did Kessling County actually spend on road maintenance in 2024–25?", self._HEADING, row, self._PASSAGE)
        self.assertAnswered("How much did Kessling County actually spend on road maintenance in 2023–24?", self._HEADING, row, self._PASSAGE)
        self.assertAnswered("How much did Kessling County budget for road maintenance in 2024–25?", self._HEADING, row, self._PASSAGE)


class SpendAsksMoneyTest(VerdictCase):
    """"How much did X spend" asks a sum of money: a line with only years gives none."""

    def test_a_line_without_money_gives_no_sum_spent(self):
        question = "How much did Kessling County spend on road maintenance in 2024–25?"
        self.assertNotAnswered(question, "Kessling County road maintenance", "Road maintenance figures for 2024–25 are budgeted; 2023–24 figures are audited.")
        self.assertAnswered(question, "Kessling County road maintenance", "Kessling County spent $2.4 million on road maintenance in 2024–25.")

    def test_time_spent_is_no_money(self):
        self.assertEqual(not_money("How much time do riders spend on the bus?", "Riders spend 40 minutes on the bus"), "")
        self.assertEqual(not_money("How much did the council spend on parks?", "Spending on parks rose in 2024"), "no value")


class TimeOfDayIsNoAmountTest(VerdictCase):
    """A number that is part of a time of day ("opens at 05:45") is no span for "how long" and
    no amount for "what size"; a price beside the hours still answers a price."""

    def test_a_time_of_day_is_no_span(self):
        question = "How long before boarding does the gate close at Fenmoor Airport?"
        self.assertNotAnswered(question, "Fenmoor Airport FAQ", "The Skyview Lounge by the gate opens at 05:45 every day and closes after boarding.")
        self.assertAnswered(question, "Fenmoor Airport FAQ", "The gate closes 20 minutes before boarding.")

    def test_a_time_of_day_is_no_amount(self):
        self.assertEqual(clock_as_amount("What was the size of Orrin Farm's 2024 apple crop?", "Apple Day | 10:30 | 3 hours", "10"), "another attribute")
        self.assertEqual(clock_as_amount("What was the size of Orrin Farm's 2024 apple crop?", "2024 crop: 310 tonnes", "310"), "")
        self.assertEqual(clock_as_amount("What time does the Orrin Farm shop open?", "Opens at 10:30", "10"), "")

    def test_a_price_beside_the_hours_still_answers(self):
        question = "How much does Fast Lane parking cost per hour at Fenmoor Airport?"
        self.assertAnswered(question, "Fenmoor Airport parking", "Fast Lane parking at Fenmoor Airport is open from 06:00 to 22:00 at £4 per hour.")


class DateAskedInOtherWordsTest(VerdictCase):
    """"On what date did ..." asks a past time like "When did ...": a line with none (a build
    still in testing) gives no date."""

    def test_a_line_without_a_date_gives_none(self):
        question = "On what date did version 2.4 come out for the Kestrel Tab 3?"
        self.assertTrue(asks_past_time(question))
        self.assertTrue(asks_past_time("In which year was the Kestrel Tab 3 launched?"))
        self.assertFalse(asks_past_time("On what date does the Kestrel sale start?"))
        heading = "Kestrel firmware changelog › Version 2.4"
        self.assertNotAnswered(question, heading, "Kestrel Tab 5: out on 4 March 2025. The Kestrel Tab 3 build is still in testing.")
        self.assertAnswered(question, heading, "Kestrel Tab 3: out on 4 March 2025. The Kestrel Tab 5 build is still in testing.")


class ExpectedFigureTest(VerdictCase):
    """"X expects it to reach 2,000 members" is a figure hoped for, with the object between
    the verb and "to" as well as without it."""

    def test_an_expected_figure_is_no_count_reached(self):
        question = "How many members has Vantor's Eastside gym signed up?"
        self.assertNotAnswered(question, "Vantor opens Eastside gym", "Vantor expects it to reach 2,000 members in its first year.")
        self.assertNotAnswered(question, "Vantor opens Eastside gym", "Vantor expects the gym to reach 2,000 members in its first year.")
        self.assertAnswered(question, "Vantor opens Eastside gym", "Vantor's Eastside gym has signed up 1,850 members.")


class TotalOverSeveralTest(VerdictCase):
    """A count over several members of a kind ("9,400 members across both gyms") is no count
    of the one the question names; a question asking the total is answered by it, and a
    price that holds across all stores is one store's price."""

    def test_a_total_is_no_members_count(self):
        question = "How many members has Vantor's Eastside gym signed up?"
        self.assertNotAnswered(question, "Vantor opens Eastside gym", "- 9,400 members across both gyms at 30 June 2025.")
        self.assertAnswered(question, "Vantor opens Eastside gym", "- 2,100 members at the Eastside gym at 30 June 2025.")

    def test_a_total_asked_and_a_uniform_price_stand(self):
        self.assertEqual(sums_several("How many members do Vantor's gyms have in total?", "9,400 members across both gyms"), "")
        self.assertEqual(sums_several("What does a bag of compost cost at the Oakley store?", "£5 across all stores"), "")
        self.assertEqual(sums_several("How many staff does the Oakley store employ?", "340 staff across all three stores"), "another subject")


class WhetherABoundExistsTest(VerdictCase):
    """"Is there an upper age limit ..., and if so what is it?" is answered by a sentence that
    states a bound, denies one or gives a figure; advice that does neither answers nothing."""

    def test_advice_without_a_bound_gives_no_answer(self):
        question = "Is there an upper age limit for joining the Harwick Rowing Club, and if so what is it?"
        self.assertTrue(asks_whether_bound(question))
        self.assertFalse(asks_whether_bound("Is there a café at the Harwick Rowing Club?"))
        heading = "Harwick Rowing Club — Membership rules"
        # The rule on minimum ages beside the advice lends the passage its words.
        advice = ("- Minimum ages are checked against a passport at the club office.\n\n- Members with heart conditions should read the safety guide"
                  " before joining\n  the Harwick Rowing Club or the Fenmoor Sculling Club.")
        self.assertNotAnswered(question, heading, advice)
        self.assertAnswered(question, heading, "- The upper age limit for joining the Harwick Rowing Club is 70.")
        self.assertAnswered(question, heading, "- There is no upper age limit for joining the Harwick Rowing Club.")


class TimeOfAnotherThingTest(VerdictCase):
    """"At what time does X feed the otters?" is the time of a thing done to the otters: a
    timetable row of another animal's feed ("14:30 | Penguin feed") gives no time of it."""

    _HEADING = "Brackwater Zoo — Daily timetable"
    _PASSAGE = "Time | Event | Where\n11:00 | Otter talk | River Walk\n14:30 | Penguin feed | River Walk"

    def test_another_things_row_gives_no_time(self):
        question = "At what time does Brackwater Zoo feed the otters on the River Walk?"
        for row in ("11:00 | Otter talk | River Walk", "14:30 | Penguin feed | River Walk"):
            self.assertIs(acts_on_another(question, f"{self._HEADING}\n{row}"), "otter" not in row.casefold())
        self.assertNotAnswered(question, self._HEADING, "14:30 | Penguin feed | River Walk", self._PASSAGE)
        passage = self._PASSAGE + "\n15:30 | Otter feed | River Walk"
        self.assertAnswered(question, self._HEADING, "15:30 | Otter feed | River Walk", passage)

    def test_a_question_naming_the_event_is_left_alone(self):
        self.assertFalse(acts_on_another("What time is the penguin feed at Brackwater Zoo?", "14:30 | Otter feed | River Walk"))
        self.assertAnswered("What time is the penguin feed at Brackwater Zoo?", self._HEADING, "14:30 | Penguin feed | River Walk", self._PASSAGE)


class RatePerAnotherUnitTest(VerdictCase):
    """A charge asked per one unit ("the overstay fee per hour") is not given by sums per
    another unit ("Price per kWh" columns, "£2 per day"); a sum per the asked unit, or with no
    unit stated, is left alone."""

    _HEADING = "Quayside Parking — tariffs"
    _PASSAGE = ("Bay type | Price per kWh | Overstay grace period\nRapid bay | £0.70 | 15 minutes\n\n"
                "Once the grace period ends, the overstay fee is £1.50 per hour.")

    def test_sums_per_another_unit_give_no_rate(self):
        question = "What is the overstay fee per hour at Quayside Parking's rapid bays?"
        self.assertEqual(rate_per_another(question, "Bay type | Price per kWh | Overstay grace period\nRapid bay | £0.70 | 15 minutes"), "another attribute")
        self.assertEqual(rate_per_another(question, "Overstay costs £2 per day."), "another attribute")
        self.assertNotAnswered(question, self._HEADING, "Rapid bay | £0.70 | 15 minutes", self._PASSAGE)

    def test_a_sum_per_the_asked_unit_or_with_none_stands(self):
        question = "What is the overstay fee per hour at Quayside Parking's rapid bays?"
        self.assertEqual(rate_per_another(question, "The overstay fee is £1.50 per hour."), "")
        self.assertEqual(rate_per_another(question, "Bay | Overstay fee per hour\nRapid bay | £1.50"), "")
        self.assertEqual(rate_per_another(question, "The overstay fee is £1.50."), "")
        self.assertEqual(rate_per_another("What is the overstay fee at Quayside Parking?", "Rapid bay | £0.70 per kWh"), "")
        # "a whole wheel", "an extra bag" name the item priced, not a unit.
        self.assertEqual(rate_per_another("What's the trade price of a whole wheel of Fellside Tomme?", "Fellside Tomme | £18 per kg"), "")
        self.assertEqual(rate_per_another("What does Skarvik Air charge for an extra checked bag?", "Extra checked bag: £45 per flight."), "")


if __name__ == "__main__":
    unittest.main()
