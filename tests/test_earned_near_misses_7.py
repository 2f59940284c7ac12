"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, seventh round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from agentic_rag._answering.asked_measures import measure_problem
from agentic_rag._answering.deferrals import deferred_value
from agentic_rag._answering.earned import _is_header_row
from agentic_rag._answering.open_readings import asks_of_item, open_problem
from agentic_rag._answering.priced_items import priced_item, prices_another
from agentic_rag._answering.row_labels import label_problem
from agentic_rag._answering.table_columns import column_problem
from agentic_rag._answering.unachieved import unachieved_problem
from agentic_rag._text.relevance import RelevanceModel
from earned_support import VerdictCase

_PASSES = (
    "Pass | Adult | Child (6-15) | Senior (65+)\n"
    "Day pass, Brennhorn | €50 | €30 | €45\n"
    "Half-day pass, Brennhorn (from 12:00) | €40 | TBD | €35\n"
    "Season pass | €600 | €380 | POA"
)


class AskedExtentTest(VerdictCase):
    def test_a_length_and_a_width_are_no_depth(self):
        question = "How deep is the water in Brackwater Reservoir?"
        piece = "Brackwater is 3.1 km long and up to 600 m wide, the largest reservoir in the county."
        self.assertEqual(measure_problem(question, "Brackwater is 3.1 km long", piece), "another attribute")
        good = "Brackwater is up to 18 m deep at the dam."
        self.assertEqual(measure_problem(question, good, good), "")
        # The asked extent beside another: the sentence gives it.
        both = "Brackwater is 3.1 km long and 18 m deep."
        self.assertEqual(measure_problem(question, "Brackwater is 3.1 km long", both), "")

    def test_other_extents_read_alike(self):
        piece = "The Holm viaduct is 410 m long."
        self.assertEqual(measure_problem("How high is the Holm viaduct?", piece, piece), "another attribute")
        self.assertEqual(measure_problem("How high is the Holm viaduct?", "It stands 38 m tall.", "It stands 38 m tall."), "")
        self.assertEqual(measure_problem("How high is Corrie Top?", "Corrie Top rises to 912 m.", "Corrie Top rises to 912 m."), "")

    def test_the_whole_claim_is_partial(self):
        heading = "Brackwater Reservoir — About"
        question = "How deep is the water in Brackwater Reservoir?"
        self.assertNotAnswered(question, heading, "Brackwater Reservoir is 3.1 km long and up to 600 m wide.")
        self.assertAnswered(question, heading, "The water in Brackwater Reservoir is up to 18 m deep.")


class ChangeAskedWithByTest(VerdictCase):
    def test_a_baseline_is_no_change(self):
        question = "By how much has Tessaly Mills cut its water use?"
        piece = "- 2018 baseline: 410,000 m³ of water."
        self.assertEqual(measure_problem(question, piece, piece), "no value")
        good = "Tessaly Mills has cut its water use by 22% since 2018."
        self.assertEqual(measure_problem(question, good, good), "")


class GoalLabelTest(VerdictCase):
    def test_a_line_under_a_target_label_is_aimed_at(self):
        question = "How much has Tessaly Mills cut its water use?"
        piece = "- Target: cut water use by 30% by 2030 against a 2018 baseline."
        self.assertEqual(unachieved_problem(question, "cut water use by 30% by 2030", piece), "unreal")
        done = "- Achieved: water use cut by 22% since 2018."
        self.assertEqual(unachieved_problem(question, done, done), "")
        # A glossary's term defined under the same word is no goal.
        term = "Target: a storage location for a server's data."
        self.assertEqual(unachieved_problem("What is a target in Ferrant?", term, term), "")
        # A question about the goal is answered by it.
        self.assertEqual(unachieved_problem("What is Tessaly Mills' water target?", piece, piece), "")

    def test_a_proposal_is_not_decided(self):
        question = "What is the Hollins Club annual fee?"
        piece = "The treasurer proposed raising the annual fee to £40 for next year."
        self.assertEqual(unachieved_problem(question, piece, piece), "unreal")
        self.assertEqual(unachieved_problem("What annual fee was proposed?", piece, piece), "")
        self.assertEqual(unachieved_problem(question, "The annual fee is £35.", "The annual fee is £35."), "")

    def test_a_rule_under_review_says_nothing_of_how_it_works(self):
        question = "How does the refund policy at Hollins Club work?"
        piece = "The committee will review the policy before the spring meeting."
        self.assertEqual(unachieved_problem(question, piece, piece), "unreal")
        good = "The support team will review your claim within 5 days."
        self.assertEqual(unachieved_problem(question, good, good), "")
        self.assertEqual(unachieved_problem("Will the committee review the refund policy?", piece, piece), "")


class ReportedQuestionTest(VerdictCase):
    def test_a_reported_question_states_nothing(self):
        question = "How does the cooling-off period for Hollins memberships work?"
        self.assertEqual(open_problem(question, "Members asked about the cooling-off period for annual plans."), "no value")
        self.assertEqual(open_problem(question, "Customers have raised concerns about the cooling-off period."), "no value")
        self.assertEqual(open_problem(question, "The cooling-off period lasts 14 days from purchase."), "")
        self.assertEqual(open_problem(question, "Members asked about the cooling-off period, which lasts 14 days."), "")

    def test_the_whole_claim_is_partial(self):
        heading = "Hollins Club — Members' meeting"
        question = "How does the cooling-off period for Hollins memberships work?"
        self.assertNotAnswered(question, heading, "Members asked about the cooling-off period for Hollins memberships.")


class OtherEndInTheKeyTest(VerdictCase):
    def test_the_server_key_is_not_the_agents_port(self):
        model = RelevanceModel()
        row = "Key | Default | Description\nserver.listen_port | 8443 | TCP port the server listens on for agent connections"
        self.assertEqual(label_problem("Which port does the Ferrant agent listen on?", row, model), "another subject")
        self.assertEqual(label_problem("Which port does the Ferrant server listen on?", row, model), "")
        self.assertEqual(label_problem("Which port does Ferrant listen on?", row, model), "")
        own = "Key | Default | Description\nagent.listen_port | 7421 | TCP port the agent listens on"
        self.assertEqual(label_problem("Which port does the Ferrant agent listen on?", own, model), "")

    def test_the_whole_claim_is_partial(self):
        heading = "Ferrant — Configuration"
        question = "Which port does the Ferrant agent listen on?"
        passage = "Key | Default | Description\nserver.listen_port | 8443 | TCP port the server listens on for agent connections"
        self.assertNotAnswered(question, heading, "server.listen_port | 8443 | TCP port the server listens on for agent connections", passage)


class PriceTableTest(VerdictCase):
    def test_a_keyword_price_query_reads_labels(self):
        self.assertTrue(asks_of_item("Brennhorn child half-day pass price"))
        self.assertFalse(asks_of_item("Brennhorn lift opening hours"))

    def test_a_plain_day_pass_is_no_half_day_pass(self):
        model = RelevanceModel()
        question = "Brennhorn child half-day pass price"
        self.assertEqual(label_problem(question, "Pass | Adult | Child\nDay pass, Brennhorn | €50 | €30", model), "another subject")
        self.assertEqual(label_problem(question, "Pass | Adult | Child\nHalf-day pass, Brennhorn | €40 | €25", model), "")

    def test_a_column_named_in_lower_case(self):
        row = "Pass | Adult | Child (6-15) | Senior (65+)\nHalf-day pass, Brennhorn (from 12:00) | €40 | TBD | €35"
        self.assertEqual(column_problem("Brennhorn child half-day pass price", row), "no value")
        self.assertEqual(column_problem("Brennhorn adult half-day pass price", row), "")

    def test_a_header_with_bracketed_numbers_is_a_header(self):
        self.assertTrue(_is_header_row("Pass | Adult | Child (6-15) | Senior (65+)", _PASSES))
        self.assertFalse(_is_header_row("Founded | 1987", "Founded | 1987\nStaff | 40"))
        self.assertFalse(_is_header_row("Headquarters | Oslo", "Headquarters | Oslo\nFounded | 1987"))

    def test_the_whole_claim_is_partial(self):
        heading = "Brennhorn lifts — Prices"
        self.assertNotAnswered("Brennhorn child half-day pass price", heading, "Pass | Adult | Child (6-15) | Senior (65+)", _PASSES)
        self.assertNotAnswered("Brennhorn child half-day pass price", heading, "Half-day pass, Brennhorn (from 12:00) | €40 | TBD | €35", _PASSES)
        self.assertAnswered("Brennhorn adult half-day pass price", heading, "Half-day pass, Brennhorn (from 12:00) | €40 | TBD | €35", _PASSES)


class PricedThingOfAModelTest(VerdictCase):
    def test_the_item_is_the_thing_not_the_model_it_is_for(self):
        question = "How much is the extended warranty for a Corvane T2?"
        self.assertEqual(priced_item(question), ("the", "extended", "warranty"))
        self.assertEqual(priced_item("How much does it cost for Corvane Pro?"), ("corvane", "pro"))
        model = RelevanceModel()
        self.assertEqual(prices_another(question, "Item | Price | Notes\nCorvane T2 heater | £149 | includes stand", "", model), "another subject")
        self.assertEqual(prices_another(question, "Applies to Corvane firmware 3.x on both T2 and T4.", "", model), "another subject")
        self.assertEqual(prices_another(question, "Item | Price | Notes\nExtended warranty (T2, +2 years) | £25 | within 30 days", "", model), "")
        # "How much is reserved" asks no price: a sentence with no sum of money is not read.
        self.assertEqual(prices_another("How much is reserved for the cache?", "The Corvane cache holds 2 GB.", "", model), "")

    def test_the_whole_claim_is_partial(self):
        heading = "Corvane — Price list"
        question = "How much is the extended warranty for a Corvane T2?"
        passage = "Item | Price | Notes\nCorvane T2 heater | £149 | includes stand\nExtended warranty (T4, +2 years) | £25 | within 30 days"
        self.assertNotAnswered(question, heading, "Corvane T2 heater | £149 | includes stand", passage)


class DeferredCellTest(VerdictCase):
    def test_a_row_whose_value_cell_defers(self):
        question = "What is the storage quota on a Ferrant server?"
        row = "Key | Default | Allowed values | Description\nserver.quota_gb | depends on licence | set by licence file | Total storage for all vaults"
        self.assertEqual(deferred_value(question, row), "no value")
        good = "Key | Default | Allowed values | Description\nserver.quota_gb | unlimited | any | Total storage for all vaults"
        self.assertEqual(deferred_value(question, good), "")

    def test_the_whole_claim_is_partial(self):
        heading = "Ferrant — Configuration"
        question = "What is the storage quota on a Ferrant server?"
        passage = "Key | Default | Allowed values | Description\nserver.quota_gb | depends on licence | set by licence file | Total storage for all vaults"
        self.assertNotAnswered(question, heading, "server.quota_gb | depends on licence | set by licence file | Total storage for all vaults", passage)


if __name__ == "__main__":
    unittest.main()
