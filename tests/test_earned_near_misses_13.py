"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, thirteenth round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from agentic_rag._answering.asked_measures import asks_clock
from agentic_rag._answering.attributes import statement_problem
from agentic_rag._answering.earned import ClaimContext, earned_verdict
from agentic_rag._answering.unachieved import unachieved_problem
from agentic_rag._answering.withheld import withholds
from agentic_rag._contracts import AnswerStatus
from agentic_rag._text.relevance import RelevanceModel
from earned_support import VerdictCase


def _verdict(question: str, claims: list[tuple[str, str]]) -> AnswerStatus:
    return earned_verdict(question, [ClaimContext(heading, text, text) for heading, text in claims], RelevanceModel()).status


# A question, a line that earns it alone, and a line of the same evidence saying the value is
# not given: not set, not set out here, to be published, kept in the reader's own document.
_WITHHELD = (
    ("How much does a curling session cost at Perth Rink?", ("Perth Rink › Minutes", "A curling session costs £6 per player for club members."),
     ("Perth Rink › Minutes", "No public price has been set for a curling session.")),
    ("When was the Dalton rail pass withdrawn?", ("Dalton Rail › Changes", "The Dalton rail pass was withdrawn from sale to new holders on 1 March 2025."),
     ("Dalton Rail › Changes", "No withdrawal date has been set for existing Dalton rail pass holders.")),
    ("What criteria does Brook Park use for its veteran tree list?",
     ("Brook Park › Glossary", "Veteran tree: the County Tree Trust defines a veteran tree as any tree over 200 years old; Brook Park uses these criteria for its veteran tree list."),
     ("Brook Park › Glossary", "Brook Park keeps its own veteran tree list, but the criteria for that list are not set out in this glossary.")),
    ("What excess would I pay on a flood claim with Homesafe Gold?", ("Homesafe Gold › Notes", "Excesses apply per flood claim with Homesafe Gold."),
     ("Homesafe Gold › Notes", "A higher excess applies to flood claims; the amount is stated in your policy schedule.")),
    ("How much did the Long Gallery restoration at Brook Park cost?", ("Brook Park › Capital projects", "The Long Gallery restoration at Brook Park cost £1.2 million, the budget."),
     ("Brook Park › Capital projects", "| Project | Budget | Actual cost |\n|---|---|---|\n| Long Gallery restoration | £1.2 million | Not yet reported |")),
    ("How much does an hour's parking cost in the West car park at Dunmore Airport?",
     ("Dunmore Airport › Parking", "Parking in the West car park at Dunmore Airport costs £4 an hour."),
     ("Dunmore Airport › Parking › West car park", "Tariffs for the West car park will be published once the contractor hands over the building.")),
    ("How does Perth Rink define a beginner for its Starter sessions?",
     ("Perth Rink › FAQ", "Starter is a quiet session for beginners; a beginner is anyone who has skated fewer than five times."),
     ("Perth Rink › FAQ", "Perth Rink decides who may join Starter using its own definition, which is displayed at reception.")),
)


class WithheldValueTest(VerdictCase):
    def test_a_line_saying_the_value_is_not_given_outranks_a_sibling_line(self):
        for question, sibling, withheld in _WITHHELD:
            with self.subTest(question=question):
                self.assertIs(_verdict(question, [sibling]), AnswerStatus.ANSWERED)
                self.assertIsNot(_verdict(question, [sibling, withheld]), AnswerStatus.ANSWERED)

    def test_another_values_gap_withholds_nothing(self):
        question = "From what date was the Dalton rail pass no longer sold to new holders?"
        self.assertTrue(withholds("On what date was the Dalton rail pass withdrawn?", "Dalton Rail › Changes", "", "No withdrawal date has been set.", RelevanceModel()))
        self.assertFalse(withholds(question, "Dalton Rail › Changes", "", "No withdrawal date has been set.", RelevanceModel()))

    def test_a_siblings_row_still_to_be_set_withholds_nothing(self):
        question = "What is the weekly service charge at Gorse Lane?"
        table = ("| Scheme | Weekly service charge | Covers |\n|---|---|---|\n| Gorse Lane | £12.40 | Cleaning |\n"
                 "| Hill Rise | to be set after consultation | Consultation closes in June |")
        self.assertAnswered(question, "Homes › Service charges", table)
        self.assertNotAnswered("What is the weekly service charge at Hill Rise?", "Homes › Service charges", table)

    def test_a_question_about_the_setting_itself(self):
        question = "Has a withdrawal date been set for the Dalton rail pass?"
        self.assertFalse(withholds(question, "Dalton Rail › Changes", "", "No withdrawal date has been set.", RelevanceModel()))


class TimeOfDayOfTheNamedThingTest(VerdictCase):
    def test_when_with_a_part_of_the_day_asks_a_time_of_day(self):
        self.assertTrue(asks_clock("When does the Wren Lounge in Terminal 2 open in the morning?"))
        self.assertTrue(asks_clock("When does the first tram leave on Sundays?"))
        self.assertFalse(asks_clock("When does the sailing season start?"))

    def test_another_things_hours_are_no_time_the_named_thing_opens(self):
        model = RelevanceModel()
        question = "When does the Wren Lounge in Terminal 2 open in the morning?"
        row = "Item | Terminal 1 | Terminal 2\nBuilding open | 04:00 to 23:30 | 05:15 to 22:45"
        self.assertEqual(statement_problem(question, "Dunmore Airport › Terminal comparison", row, row, model), "another subject")
        right = "The Wren Lounge in Terminal 2 opens at 05:30 every morning."
        self.assertEqual(statement_problem(question, "Dunmore Airport › Lounges", right, "05:30", model), "")
        self.assertAnswered(question, "Dunmore Airport › Lounges", right)


class PlanRowTest(VerdictCase):
    def test_a_row_labelled_budget_is_no_figure_reached(self):
        question = "What occupancy did the Moor Hotel achieve in 2025?"
        budget = "Measure | Quay Hotel | Moor Hotel\nOccupancy 2025 (budget) | 83% | 72%"
        self.assertEqual(unachieved_problem(question, budget, budget), "unreal")
        self.assertNotAnswered(question, "Moor Hotels › Trading", budget)
        self.assertAnswered(question, "Moor Hotels › Trading", budget.replace("budget", "actual"))
        self.assertEqual(unachieved_problem("What occupancy did the Moor Hotel budget for in 2025?", budget, budget), "")


if __name__ == "__main__":
    unittest.main()
