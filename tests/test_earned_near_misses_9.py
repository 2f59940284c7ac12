"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, ninth round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from agentic_rag._answering.amounts import not_money
from agentic_rag._answering.asked_measures import measure_problem
from agentic_rag._answering.modality import modality_problem
from agentic_rag._answering.time_scope import period_problem, years_in
from agentic_rag._text.asked_attribute import Aspect, defined_term, implied_bounds
from earned_support import VerdictCase


def _measure(question: str, piece: str) -> str:
    return measure_problem(question, piece, piece)


class AnotherYearTest(VerdictCase):
    def test_a_value_of_another_year_is_not_the_asked_years(self):
        question = "What was Bramblefold's occupancy in 2025?"
        self.assertEqual(period_problem(question, "Occupancy in 2024 was 68% across the year."), "another subject")
        self.assertEqual(period_problem(question, "Occupancy in 2025 was 71% across the year."), "")
        # A bracketed comparison, a season, or a sentence with no year leave it to the rest.
        self.assertEqual(period_problem("What was Ardent's group revenue in 2023?", "- Group revenue: £412m (2022: £371m)"), "")
        self.assertEqual(period_problem(question, "Occupancy was 71% across the year."), "")
        self.assertEqual(years_in("the 2024/25 season"), frozenset({"2024", "2025"}))
        self.assertNotAnswered(question, "Bramblefold news", "Occupancy in 2024 was 68% across the year.")
        self.assertAnswered(question, "Bramblefold news", "Occupancy in 2025 was 71% across the year.")

    def test_a_forecast_is_no_value(self):
        question = "What was Bramblefold's occupancy in 2025?"
        self.assertEqual(modality_problem(question, "For 2025 we are forecasting occupancy of 72%"), "unreal")
        self.assertEqual(modality_problem(question, "Occupancy in 2025 was 72%"), "")


class ConditionClauseTest(unittest.TestCase):
    def test_a_condition_clause_implies_no_maximum(self):
        # "need ... before it will run": the least a class needs, not the most it can take.
        self.assertEqual(implied_bounds("How many students does a Lingovale class need before it will run?"), frozenset({Aspect.MINIMUM}))
        self.assertEqual(implied_bounds("How many students can a Lingovale class take?"), frozenset({Aspect.MAXIMUM}))


class MeasureReadingsTest(unittest.TestCase):
    def test_an_extent_wants_a_length(self):
        question = "How high is the proscenium opening in the Ludgate Playhouse Main House?"
        self.assertEqual(_measure(question, "- Built in 1931; Grade II listed."), "another attribute")
        self.assertEqual(_measure(question, "- Main House average capacity: 78%."), "another attribute")
        self.assertEqual(_measure(question, "- Proscenium opening: 7.5 m high."), "")
        self.assertEqual(_measure(question, "- Proscenium opening: 7.5 m."), "")

    def test_what_hours_asks_times_of_day(self):
        question = "What hours count as off-peak for Kestrelnet Talk Plus calls?"
        self.assertEqual(_measure(question, "Talk Plus costs £8 a month and includes unlimited off-peak calls."), "no value")
        self.assertEqual(_measure(question, "Off-peak is 19:00 to 07:00 on weekdays."), "")


class PriceAndDefinitionQuestionTest(unittest.TestCase):
    def test_a_long_subject_before_cost_still_asks_a_price(self):
        question = "How much did the Sail Loft wing at the Fenwick Museum cost?"
        self.assertEqual(not_money(question, "The Ropeworks site opened to the public in 1994."), "no value")
        self.assertEqual(not_money(question, "The wing cost £3.4 million."), "")

    def test_what_a_term_means_at_a_place(self):
        self.assertEqual(defined_term("What does Gift Aid admission mean at the Fenwick Museum?"), ("gift", "aid", "admission"))
        self.assertEqual(defined_term("What does Gift Aid admission cost at the Fenwick Museum?"), ())


if __name__ == "__main__":
    unittest.main()
