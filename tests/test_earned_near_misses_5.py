"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, fifth round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from agentic_rag._answering.amounts import counts_a_time
from agentic_rag._answering.deferrals import deferred_value
from agentic_rag._answering.modality import modality_problem
from agentic_rag._answering.priced_items import priced_item, prices_another
from agentic_rag._text.answer_slots import FactKind, SlotKind, fact_filler, read_fact, read_slot, slot_filler
from agentic_rag._text.relevance import RelevanceModel
from earned_support import VerdictCase

_ROUTES = "Route | Distance | Climb | Difficulty\nRiver Walk | 5.2 km | 60 m | Easy\nRidge Circuit | 11.8 km | 520 m | Hard"


class TimeTakenTest(VerdictCase):
    def test_how_long_it_takes_wants_a_time(self):
        question = "About how long does it take to hike the Ridge Circuit at Holloway Fells?"
        slot = read_slot(question)
        self.assertEqual(slot.dimension, "takes")
        self.assertEqual(slot_filler(slot, "Ridge Circuit | 11.8 km | 520 m | Hard"), "")
        self.assertEqual(slot_filler(slot, "Allow about 5 hours for the Ridge Circuit."), "5")
        self.assertEqual(read_slot("How long does the battery last?").dimension, "takes")

    def test_how_long_a_thing_is_may_be_a_length(self):
        slot = read_slot("How long is the Ridge Circuit?")
        self.assertEqual(slot.dimension, "long")
        self.assertEqual(slot_filler(slot, "Ridge Circuit | 11.8 km | 520 m | Hard"), "11.8")

    def test_a_distance_does_not_answer_how_long_a_walk_takes(self):
        heading = "Holloway Fells › Walking routes"
        row = "Ridge Circuit | 11.8 km | 520 m | Hard"
        self.assertNotAnswered("About how long does it take to walk the Ridge Circuit at Holloway Fells?", heading, row, _ROUTES)
        self.assertAnswered("How long is the Ridge Circuit at Holloway Fells?", heading, row, _ROUTES)
        self.assertAnswered("About how long does it take to walk the Ridge Circuit at Holloway Fells?", heading,
                            "Walking the Ridge Circuit at Holloway Fells takes about 5 hours.")


class CountOfTimeTest(VerdictCase):
    def test_a_count_of_people_is_no_number_of_periods(self):
        question = "How many employees does Brindle Payroll have?"
        self.assertEqual(counts_a_time(question, "The process of paying employees for one pay period.", "one"), "another attribute")
        self.assertEqual(counts_a_time(question, "Brindle Payroll has 85 employees.", "85"), "")
        self.assertEqual(counts_a_time(question, "Brindle Payroll employs 85 people across two offices.", "85"), "")

    def test_a_count_of_a_unit_of_time_is_read_elsewhere(self):
        self.assertEqual(counts_a_time("How many days does the trial last?", "The trial lasts for two weeks.", "two"), "")

    def test_a_glossary_entry_gives_no_head_count(self):
        question = "How many employees does Brindle Payroll have?"
        self.assertNotAnswered(question, "Brindle Payroll Glossary", "Payroll run\nThe process of calculating and paying employees for one pay period.")
        self.assertAnswered(question, "About Brindle Payroll", "Brindle Payroll has 85 employees.")


class DeferredValueTest(VerdictCase):
    def test_a_value_put_elsewhere_is_no_value(self):
        question = "Which coolant does the Norvik K-40 use?"
        self.assertEqual(deferred_value(question, "Coolant type and volume are listed in the service manual supplied with the unit."), "no value")
        self.assertEqual(deferred_value(question, "The coolant varies by market."), "no value")
        self.assertEqual(deferred_value(question, "The K-40 uses propane as its coolant."), "")

    def test_a_value_beside_a_pointer_answers(self):
        question = "Which coolant does the Norvik K-40 use?"
        self.assertEqual(deferred_value(question, "The coolant is propane; charge details are listed in the service manual."), "")
        self.assertEqual(deferred_value(question, "Coolant: R32, as listed in the service manual."), "")

    def test_the_whole_claim_is_partial(self):
        question = "Which coolant does the Norvik K-40 use?"
        heading = "Norvik K-40 — Data sheet"
        self.assertNotAnswered(question, heading, "Coolant type and volume are listed in the service manual supplied with the unit.")
        self.assertAnswered(question, heading, "The K-40 uses propane as its coolant.")


class PricedItemTest(VerdictCase):
    def test_the_item_a_question_prices(self):
        self.assertEqual(priced_item("How much does Gull Ferries charge to carry a canoe?"), ("a", "canoe"))
        self.assertEqual(priced_item("How much does it cost to hire a pedalo at Millpond Park?"), ("hire", "a", "pedalo"))
        self.assertEqual(priced_item("How much does a day of fishing at Millpond Park cost?"), ("a", "of", "fishing"))
        self.assertEqual(priced_item("How much is a replacement library card?"), ("a", "replacement", "library", "card"))
        self.assertEqual(priced_item("How much memory does the agent use?"), ())

    def test_another_items_price_does_not_answer(self):
        model = RelevanceModel()
        question = "How much does Gull Ferries charge to carry a canoe?"
        self.assertEqual(prices_another(question, "Each passenger may bring two suitcases free of charge.", "", model), "another subject")
        self.assertEqual(prices_another(question, "Item | Charge\nCanoe or kayak | £9", "", model), "")
        self.assertEqual(prices_another(question, "£9 each way.", "Canoes:", model), "")

    def test_a_sentence_before_the_piece_lends_no_item(self):
        model = RelevanceModel()
        question = "How much does it cost to hire a pedalo at Millpond Park?"
        lead = "Pedalos can be hired from the boathouse. Hire prices vary."
        self.assertEqual(prices_another(question, "A day fishing permit costs £7.", lead, model), "another subject")

    def test_the_whole_claim_is_partial(self):
        heading = "Millpond Park › Pedalos and fishing"
        question = "How much does it cost to hire a pedalo at Millpond Park?"
        passage = "- Pedalos can be hired at the boathouse; hire prices are seasonal.\n- Fishing requires a day permit (£7) from the park kiosk."
        self.assertNotAnswered(question, heading, "- Fishing requires a day permit (£7) from the park kiosk.", passage)
        self.assertAnswered(question, heading, "- Pedalos can be hired at Millpond Park for £10 per half hour.")
        self.assertAnswered("How much does a day of fishing at Millpond Park cost?", heading, "- Fishing requires a day permit (£7) from the park kiosk.", passage)

    def test_a_sentence_that_carries_another_item_is_partial(self):
        question = "How much does Gull Ferries charge to carry a canoe?"
        heading = "Gull Ferries — Luggage and bulky items › Foot passengers"
        passage = "Each passenger may carry two suitcases free of charge.\n\nItem | Charge\nCanoe | Varies by length"
        self.assertNotAnswered(question, heading, "Each passenger may carry two suitcases free of charge.", passage)
        self.assertAnswered(question, "Gull Ferries — Luggage", "Item | Charge\nCanoe | £9", "Item | Charge\nSuitcase | Free\nCanoe | £9")


class DateStillToComeTest(VerdictCase):
    def test_a_date_question_about_a_version_asks_a_date(self):
        question = "On what date was version 2 of the Quill API turned off?"
        self.assertIs(read_slot(question).kind, SlotKind.OPEN)
        fact = read_fact(question)
        self.assertIsNotNone(fact)
        self.assertIs(fact.kind, FactKind.DATE)
        self.assertIs(read_slot("Which version of the Quill API added webhooks?").kind, SlotKind.VERSION)

    def test_a_date_to_be_announced_is_no_date(self):
        self.assertEqual(modality_problem("When will the old API be retired?", "It will be retired on a date to be announced."), "")
        self.assertEqual(modality_problem("What is the fee?", "The fee is to be confirmed."), "unreal")

    def test_the_whole_claim_is_partial(self):
        question = "On what date was version 2 of the Quill API turned off?"
        heading = "Quill API › Versions"
        self.assertNotAnswered(question, heading, "Version 2 of the Quill API is deprecated and will be turned off on a date to be announced.\n"
                                                  "New clients must use version 3.")
        self.assertAnswered(question, heading, "Version 2 of the Quill API was turned off on 4 May 2023.")


class PersonOrPlaceTest(VerdictCase):
    def test_a_name_after_in_is_a_place(self):
        fact = read_fact("Who founded Marlow Foods?")
        self.assertEqual(fact_filler(fact, "Founded in 2009 as Brisket in Port Elm and acquired in 2015."), "")
        self.assertEqual(fact_filler(fact, "Marlow Foods was founded by Ada Quist in Port Elm."), "Ada Quist")

    def test_a_subsidiarys_town_does_not_answer_who_founded_the_group(self):
        question = "Who founded Marlow Foods?"
        heading = "About Marlow Foods › Our companies"
        self.assertNotAnswered(question, heading, "- Marlow Bakes — bread. Founded in 2009 as Brisket in Port Elm and acquired in 2015.")
        self.assertAnswered(question, "About Marlow Foods", "Marlow Foods was founded by Ada Quist in 1998.")


if __name__ == "__main__":
    unittest.main()
