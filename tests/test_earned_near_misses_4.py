"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, fourth round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from agentic_rag._answering.amounts import count_as_measure, not_money
from agentic_rag._answering.degrees import degree_problem
from agentic_rag._answering.modality import modality_problem
from agentic_rag._answering.table_columns import column_problem
from agentic_rag._text.asked_attribute import Aspect, asked_aspects, aspects_in
from agentic_rag._text.asked_values import counted_noun, measured_only
from earned_support import VerdictCase

_LIMITS = "Key | Default | Maximum | Description"
_FARES = "Ticket | Northholm | Eastray"


class TableColumnTest(VerdictCase):
    def test_the_asked_columns_empty_cell_gives_no_value(self):
        row = f"{_LIMITS}\ncache.ttl | 7 days | — | How long cached layers are kept."
        self.assertEqual(column_problem("What is the maximum value allowed for cache.ttl?", row), "no value")
        self.assertEqual(column_problem("What is the default value of cache.ttl?", row), "")

    def test_a_column_named_by_the_question_must_hold_the_value(self):
        row = f"{_FARES}\nAdult return | £12.40 | on request*"
        self.assertEqual(column_problem("How much is an adult return from Southport to Eastray?", row), "no value")
        self.assertEqual(column_problem("How much is an adult return from Southport to Northholm?", row), "")

    def test_a_key_value_row_names_no_column(self):
        self.assertEqual(column_problem("What is the maximum upload size?", "Setting | Value\nMaximum upload | 50 MB"), "")

    def test_a_default_in_its_column_does_not_answer_a_maximum(self):
        passage = f"{_LIMITS}\ncache.ttl | 7 days | — | How long cached layers are kept.\nworkers | 4 | 64 | Parallel jobs."
        self.assertNotAnswered("What is the maximum value allowed for cache.ttl?", "Build config › Keys", "cache.ttl | 7 days | — | How long cached layers are kept.", passage)
        self.assertAnswered("What is the maximum value allowed for workers?", "Build config › Keys", "workers | 4 | 64 | Parallel jobs.", passage)


class TableIntroTest(VerdictCase):
    def test_the_paragraph_introducing_a_table_speaks_for_its_rows(self):
        passage = (f"All fares below are for single journeys from Southport.\n\n{_FARES}\n"
                   "Adult single | £7.80 | seasonal*\nChild single | £3.90 | seasonal*")
        heading = "Fares 2025"
        self.assertAnswered("How much is an adult single fare from Southport to Northholm?", heading, "Adult single | £7.80 | seasonal*", passage)
        self.assertNotAnswered("How much is an adult single fare from Southport to Eastray?", heading, "Adult single | £7.80 | seasonal*", passage)

    def test_a_paragraph_that_introduces_nothing_lends_no_names(self):
        passage = f"Southport is the home port.\n\n{_FARES}\nAdult single | £7.80 | seasonal*"
        self.assertNotAnswered("How much is an adult single fare from Southport to Northholm?", "Fares 2025", "Adult single | £7.80 | seasonal*", passage)


class GoalTest(VerdictCase):
    def test_a_goal_is_a_target_not_a_current_figure(self):
        question = "How much energy does the plant use per tonne?"
        self.assertEqual(modality_problem(question, "Our goal is to bring energy use down to 40 kWh per tonne by 2030."), "unreal")
        self.assertEqual(modality_problem(question, "The plant uses 52 kWh per tonne."), "")

    def test_a_question_about_the_goal_is_answered_by_it(self):
        self.assertEqual(modality_problem("What is the plant's energy goal for 2030?", "Our goal is to bring energy use down to 40 kWh per tonne by 2030."), "")

    def test_the_whole_claim_is_partial(self):
        self.assertNotAnswered("How many kWh of energy does Brenmoor use to make one tonne of steel?", "Sustainability at Brenmoor › Energy",
                               "Our goal is to bring energy use down to 40 kWh per tonne of steel by 2030.")


class CountAsMeasureTest(VerdictCase):
    def test_a_count_is_no_measure(self):
        self.assertEqual(counted_noun("What's the highest number of retries the client will accept?"), "retries")
        self.assertTrue(measured_only("The default is 20 seconds and the maximum accepted is 120 seconds."))
        self.assertFalse(measured_only("Retries up to 5 times, 30 seconds apart."))
        question = "What's the highest number of retries the client will accept?"
        self.assertEqual(count_as_measure(question, "The default is 20 seconds and the maximum accepted is 120 seconds."), "another attribute")
        self.assertEqual(count_as_measure(question, "At most 8 retries are accepted."), "")

    def test_a_count_of_a_unit_is_a_measure(self):
        self.assertEqual(count_as_measure("How many seconds does the client wait at most?", "The maximum wait is 120 seconds."), "")

    def test_a_default_beside_another_options_maximum_is_no_maximum(self):
        heading = "relay-cli reference › Global options"
        text = ("- --timeout SECONDS — request timeout. The default is 20 seconds and the maximum accepted is 120 seconds.\n\n"
                "- --retries N — how many times to retry after a connection failure. Default: 3.")
        self.assertNotAnswered("What's the highest number of retries relay-cli will accept?", heading, text)


class PriceTest(VerdictCase):
    def test_a_price_is_a_sum_of_money(self):
        question = "How much is an adult single ticket to Northholm?"
        self.assertEqual(not_money(question, "Return fares are simply two singles."), "no value")
        self.assertEqual(not_money(question, "An adult single costs £7.80."), "")
        self.assertEqual(not_money("How much does a day pass cost?", "A day pass costs 9 crowns."), "")

    def test_an_amount_that_is_no_price_is_not_read_as_one(self):
        self.assertEqual(not_money("How much storage comes with the Team plan?", "The Team plan includes 50 GB."), "")


class LatestBoundTest(VerdictCase):
    def test_at_the_latest_asks_an_upper_bound(self):
        self.assertEqual(asked_aspects("By what age at the latest should a kitten be vaccinated?"), frozenset({Aspect.MAXIMUM}))
        self.assertEqual(asked_aspects("What is the latest version?"), frozenset())
        self.assertIn(Aspect.MAXIMUM, aspects_in("no later than 12 weeks"))
        self.assertIn(Aspect.MINIMUM, aspects_in("at 8 weeks at the earliest"))

    def test_a_sentence_without_the_bound_does_not_answer(self):
        self.assertNotAnswered("By what age at the latest should my kitten get its first vaccination at Furrow?", "Furrow vaccination FAQ",
                                        "Kitten plan — £12.00 a month for the first year of vaccinations.")


class DegreeTest(VerdictCase):
    def test_the_quality_must_be_said(self):
        question = "How hard is the tap water in Ashby?"
        self.assertEqual(degree_problem(question, "Supply", "The authority supplies 96,000 people in Ashby and Brill."), "another attribute")
        self.assertEqual(degree_problem(question, "Water quality — Ashby", "Hardness | 210 mg/l"), "")

    def test_a_figure_for_another_place_is_no_figure_for_the_asked_one(self):
        question = "How hard is the tap water in Ashby?"
        self.assertEqual(degree_problem(question, "Water quality report — Brill supply zone", "Parameter | Average\nHardness | 210 mg/l"), "another subject")

    def test_a_way_or_an_amount_asks_no_degree(self):
        self.assertEqual(degree_problem("How do I soften the water in Ashby?", "", "Use a softener."), "")
        self.assertEqual(degree_problem("How long is the trial in Ashby?", "", "The trial lasts 14 days."), "")


if __name__ == "__main__":
    unittest.main()
