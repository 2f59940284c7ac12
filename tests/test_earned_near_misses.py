"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, third round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from agentic_rag._answering.amounts import counts_another, default_not_a_number, measures_condition
from agentic_rag._answering.attributes import statement_problem
from agentic_rag._answering.modality import modality_problem
from agentic_rag._answering.row_labels import label_problem
from agentic_rag._text.answer_slots import SlotKind, read_fact, read_slot
from agentic_rag._text.asked_attribute import defined_term
from agentic_rag._text.asked_values import asks_past_time, is_quantity, stated_time
from agentic_rag._text.relevance import RelevanceModel
from earned_support import VerdictCase


class DateAskedInOtherWordsTest(VerdictCase):
    def test_on_what_date_and_which_date_ask_a_date(self):
        for question in ("On what date was Orrin 4.2 released?", "Which date did Season 7 begin?", "In what month was the bridge opened?"):
            with self.subTest(question=question):
                self.assertIsNotNone(read_fact(question))

    def test_an_announcement_date_is_no_release_date(self):
        self.assertNotAnswered("On what date was Orrin 4.2 released?", "Orrin 4.2", "Orrin 4.2 was announced on 14 March 2023 at the summit.")
        self.assertAnswered("On what date was Orrin 4.2 released?", "Orrin 4.2", "Orrin 4.2 was released on 2 May 2023.")


class PastTimeTest(VerdictCase):
    def test_a_when_question_wants_a_time(self):
        self.assertTrue(asks_past_time("When did the shared plans get HTTP/3?"))
        self.assertFalse(asks_past_time("When does the server reload its configuration?"))
        self.assertEqual(stated_time("HTTP/3 is not supported on shared plans."), "")
        self.assertEqual(stated_time("Shared plans got HTTP/3 in 2024."), "2024")

    def test_a_sentence_with_no_time_does_not_say_when(self):
        heading = "Hosting FAQ"
        self.assertNotAnswered("When did Nimbleport's shared plans get HTTP/3?", heading, "HTTP/3 is not supported on Nimbleport's shared plans.")
        self.assertNotAnswered("When did Nimbleport's shared plans get HTTP/3?", heading, "Nimbleport's shared plans will get HTTP/3 in 2027.")
        self.assertAnswered("When did Nimbleport's shared plans get HTTP/3?", heading, "Nimbleport's shared plans got HTTP/3 in March 2024.")


class ChangelogItemTest(VerdictCase):
    def test_the_item_stating_the_stage_names_the_thing(self):
        heading = "Firmware release notes › 3.1"
        text = "- Deprecated: the RS-232 service port; it will be disabled later.\n- Added: drug library sync over Wi-Fi."
        self.assertNotAnswered("Which firmware version introduced the RS-232 service port?", heading, text)
        self.assertAnswered("Which firmware version introduced drug library sync over Wi-Fi?", heading, text)


class QuantityTest(unittest.TestCase):
    def test_a_price_needs_a_number(self):
        self.assertTrue(is_quantity("price") and is_quantity("population") and not is_quantity("capital"))
        model = RelevanceModel()
        question = "What's the ticket price for special exhibitions at Amberhall?"
        heading = "Amberhall › Tickets"
        self.assertEqual(statement_problem(question, heading, "Special exhibitions at Amberhall are ticketed separately; prices vary.", "", model), "no value")
        self.assertEqual(statement_problem(question, heading, "The ticket price for special exhibitions at Amberhall is 12 euros.", "", model), "")


class ForecastTest(unittest.TestCase):
    def test_a_projected_figure_is_no_figure(self):
        self.assertEqual(modality_problem("What is the population of Ordesk?", "The planning office projects a population of 1.1 million by 2035."), "unreal")
        self.assertEqual(modality_problem("What is the population of Ordesk?", "Ordesk has a population of 0.9 million."), "")
        # "projects" as a noun is no forecast.
        self.assertEqual(modality_problem("How many projects can a team own?", "A team owns up to 40 projects."), "")

    def test_a_change_put_off_has_not_happened(self):
        self.assertEqual(modality_problem("In which version was --legacy removed?", "Removal of --legacy has been postponed."), "unreal")
        self.assertEqual(modality_problem("In which version was --legacy removed?", "- --legacy", "Release notes › Postponed"), "unreal")
        self.assertEqual(modality_problem("In which version was --legacy removed?", "--legacy was removed in 5.0."), "")


class CountedThingTest(unittest.TestCase):
    def test_a_default_asked_as_a_number_is_a_number(self):
        question = "By default, how many replicas can attach to a primary?"
        self.assertIs(read_slot(question).kind, SlotKind.DEFAULT)
        self.assertEqual(default_not_a_number(question, "", "Setting | Default | Meaning\nreport_role | replica | Label", SlotKind.DEFAULT), "no value")
        self.assertEqual(default_not_a_number(question, "", "Setting | Default | Meaning\nmax_replicas | 4 | Replicas", SlotKind.DEFAULT), "")

    def test_a_number_of_other_things_counts_them(self):
        question = "By default, how many replicas can attach to a primary?"
        self.assertEqual(counts_another(question, "wal_keep_segments — number of log segments kept for replicas; default 256."), "another attribute")
        self.assertEqual(counts_another(question, "max_replicas — the number of replicas that may attach; default 4."), "")
        self.assertEqual(counts_another(question, "max_replicas defaults to 4."), "")

    def test_the_time_to_reach_the_asked_state_is_no_runtime(self):
        question = "How many hours does a fully charged Vitalis P3 run on battery?"
        self.assertEqual(measures_condition(question, "a battery that charges fully in 5 hours", "5"), "another attribute")
        self.assertEqual(measures_condition(question, "the battery runs for 8 hours", "8"), "")


class HeaderRowTest(VerdictCase):
    def test_a_header_row_states_no_default(self):
        passage = "Setting | Default | Meaning\nprimary_conninfo | none | Connection string\nreport_role | replica | Label"
        self.assertNotAnswered("What is the default replica setting in Ledgerline?", "Ledgerline Replica › Settings", "Setting | Default | Meaning", passage)


class RowLabelTest(unittest.TestCase):
    def setUp(self):
        self.model = RelevanceModel()

    def test_a_label_with_no_asked_word_is_another_item(self):
        self.assertEqual(label_problem("How long can the visibility timeout be?", "Limit | Value\nMessage size | 256 KB maximum", self.model), "another attribute")
        self.assertEqual(label_problem("How long can the visibility timeout be?", "Limit | Value\nVisibility timeout | 12 hours maximum", self.model), "")

    def test_a_sibling_label_names_another_kind_of_the_thing(self):
        question = "What is the longest lifetime a refresh token can have?"
        self.assertEqual(label_problem(question, "Setting | Behaviour\nAccess token lifetime | up to 24 hours", self.model), "another subject")
        self.assertEqual(label_problem(question, "Setting | Behaviour\nRefresh token lifetime | up to 90 days", self.model), "")
        self.assertEqual(label_problem("What are accounts payable?", "- Accounts receivable: money owed to you", self.model), "another subject")

    def test_a_synonym_or_a_neutral_word_is_the_same_item(self):
        self.assertEqual(label_problem("How many people does Acme employ?", "Fact | Value\nEmployees | 12,400", self.model), "")
        self.assertEqual(label_problem("Which port does the admin server use?", "Setting | Value\nDefault port | 9443", self.model), "")


class BareDefinitionTest(VerdictCase):
    def test_a_term_without_an_article_is_defined_within_a_scope(self):
        self.assertEqual(defined_term("What are accounts payable in Ledgerly?"), ("accounts", "payable"))
        self.assertEqual(defined_term("What is max_connections in Kestrel?"), ())
        self.assertNotAnswered("What are accounts payable in Ledgerly?", "Ledgerly glossary", "- Accounts receivable: money owed to you by customers in Ledgerly.")
        self.assertAnswered("What are accounts payable in Ledgerly?", "Ledgerly glossary", "- Accounts payable: money you owe suppliers in Ledgerly.")


class WeightTest(VerdictCase):
    def test_how_much_does_it_weigh_needs_a_weight(self):
        self.assertTrue(read_slot("How much does the Pelion X2 weigh?").amount)
        self.assertNotAnswered("How much does the Pelion X2 weigh?", "Pelion X2 › Specs", "The Pelion X2 has 4 Ethernet ports.")
        self.assertAnswered("How much does the Pelion X2 weigh?", "Pelion X2 › Specs", "The Pelion X2 weighs 1.2 kg.")


if __name__ == "__main__":
    unittest.main()
