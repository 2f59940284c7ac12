"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, twelfth round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from agentic_rag._answering.priced_items import prices_another
from agentic_rag._answering.time_scope import period_problem
from agentic_rag._answering.unachieved import unachieved_problem
from agentic_rag._text.asked_attribute import defined_term
from agentic_rag._text.relevance import RelevanceModel
from earned_support import VerdictCase


class PlannedFigureTest(VerdictCase):
    def test_an_approved_budget_is_no_final_cost(self):
        question = "What was the final cost of the Brindle Rowing Club's new boathouse?"
        budget = "The committee had approved a budget of £42,000; the final cost will be reported in spring."
        self.assertEqual(unachieved_problem(question, budget, budget), "unreal")
        self.assertNotAnswered(question, "Brindle Rowing Club › Boathouse", budget)
        self.assertAnswered(question, "Brindle Rowing Club › Boathouse", "The final cost of the new boathouse was £44,300.")
        self.assertEqual(unachieved_problem("What budget did the committee approve for the boathouse?", budget, budget), "")

    def test_a_modelled_figure_is_no_measured_one(self):
        question = "What was the average length of a Corvel ferry crossing in 2024?"
        modelled = "The operator's plan modelled an average crossing of 14 km."
        self.assertEqual(unachieved_problem(question, modelled, modelled), "unreal")
        self.assertNotAnswered(question, "Corvel Ferries annual report 2024 › Crossings", modelled)
        self.assertAnswered(question, "Corvel Ferries annual report 2024 › Crossings", "The average length of a Corvel ferry crossing in 2024 was 12 km.")

    def test_an_expected_amount_is_no_amount_reached(self):
        question = "How many crates did Oswin Cider sell?"
        self.assertEqual(unachieved_problem(question, "Oswin Cider expects to sell around 900 crates", ""), "unreal")
        self.assertEqual(unachieved_problem("How many crates does Oswin Cider expect to sell?", "Oswin Cider expects to sell around 900 crates", ""), "")


class FigureYearTest(VerdictCase):
    def test_the_year_after_a_figure_is_its_year(self):
        question = "How many crates did Oswin Cider sell in 2025?"
        sentence = "Oswin Cider sold 700 crates in 2024 and hopes for around 900 crates in 2025."
        self.assertEqual(period_problem(question, sentence, "", "700"), "another subject")
        self.assertNotAnswered(question, "Oswin Cider", sentence)
        self.assertEqual(period_problem(question, "Oswin Cider sold 950 crates in 2025, up from 700 in 2024.", "", "950"), "")
        self.assertAnswered(question, "Oswin Cider", "Oswin Cider sold 950 crates in 2025, up from 700 in 2024.")


class ColumnStillToSetTest(VerdictCase):
    def test_a_cell_to_be_set_under_the_asked_column_gives_no_value(self):
        question = "What is the monthly mooring fee at Tarn Quay?"
        table = "| Marina | Monthly mooring fee | Notes |\n|---|---|---|\n| Wex Basin | £85 | Water, power |\n| Tarn Quay | to be set after the survey | Survey ends 1 May 2026 |"
        row = "| Marina | Monthly mooring fee | Notes |\n| Tarn Quay | to be set after the survey | Survey ends 1 May 2026 |"
        self.assertEqual(unachieved_problem(question, row, row), "no value")
        self.assertNotAnswered(question, "Moorings › Fees by marina", table)
        answered = table.replace("to be set after the survey", "£92")
        self.assertAnswered(question, "Moorings › Fees by marina", answered)


class CostedServiceTest(VerdictCase):
    def test_a_row_naming_the_boat_but_not_the_service_prices_another_service(self):
        question = "How much does hull cleaning cost for a catamaran at Wex Basin?"
        model = RelevanceModel()
        other = "| Item | Price |\n| Berth, catamaran | £210 |"
        right = "| Item | Price |\n| Hull cleaning, catamaran | £75 |"
        self.assertEqual(prices_another(question, other, "", model), "another subject")
        self.assertEqual(prices_another(question, right, "", model), "")
        self.assertNotAnswered(question, "Wex Basin › Charges", other)
        self.assertAnswered(question, "Wex Basin › Charges", right)


class AppliedWordTest(VerdictCase):
    def test_a_word_applied_in_minutes_is_not_its_definition(self):
        question = "What does the Brindle Rowing Club mean when it declares a regatta abandoned?"
        self.assertEqual(defined_term(question), ("abandoned",))
        self.assertNotAnswered(question, "Brindle Rowing Club › Minutes", "The June regatta was declared abandoned.")
        self.assertAnswered(question, "Brindle Rowing Club › Glossary",
                            "Abandoned: a regatta the Brindle Rowing Club stops before any final is rowed, with no results recorded.")


if __name__ == "__main__":
    unittest.main()
