"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, sixth round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from agentic_rag._answering.asked_measures import bound_noun, measure_problem
from agentic_rag._answering.open_readings import asks_of_item, is_keyword_query, open_problem, sibling_name
from agentic_rag._answering.unachieved import unachieved_problem
from earned_support import VerdictCase


class AskedUnitTest(VerdictCase):
    def test_a_size_in_bytes_wants_a_byte_count(self):
        question = "Quillmark uploader max chunk size in bytes"
        self.assertEqual(measure_problem(question, "chunk.max_files | 50 | Files per chunk sent.", ""), "no value")
        self.assertEqual(measure_problem(question, "Chunks are at most 8 MiB each.", "Chunks are at most 8 MiB each."), "")

    def test_the_whole_claim_is_partial(self):
        heading = "Quillmark uploader — Settings"
        self.assertNotAnswered("Quillmark uploader max chunk size in bytes", heading, "The chunk size is capped by the upload limit.")
        self.assertAnswered("What is the maximum chunk size of the Quillmark uploader?", heading, "The maximum chunk size of the Quillmark uploader is 8 MiB.")


class TimeOfDayTest(VerdictCase):
    def test_what_time_wants_a_time_of_day(self):
        question = "What time does the Orchard Library open on Saturdays?"
        self.assertEqual(measure_problem(question, "The library is staffed on Saturdays.", "The library is staffed on Saturdays."), "no value")
        self.assertEqual(measure_problem(question, "It opens at 9:30 on Saturdays.", "It opens at 9:30 on Saturdays."), "")
        self.assertEqual(measure_problem(question, "Doors open at 10 am.", "Doors open at 10 am."), "")

    def test_the_whole_claim_is_partial(self):
        heading = "Orchard Library — Visiting"
        question = "What time does the Orchard Library open on Saturdays?"
        self.assertNotAnswered(question, heading, "The Orchard Library is staffed by volunteers on Saturdays.")
        self.assertAnswered(question, heading, "The Orchard Library opens at 9:30 on Saturdays.")


class BoundedThingTest(VerdictCase):
    def test_the_thing_a_bound_is_of(self):
        self.assertEqual(bound_noun("What is the shortest court booking I can make at Parkside?"), "booking")
        self.assertEqual(bound_noun("What is the highest value allowed for pool_size in Ledgerly?"), "pool_size")
        self.assertEqual(bound_noun("What is the longest Loglake can keep logs?"), "")

    def test_a_bound_of_another_thing_does_not_answer(self):
        question = "What is the shortest court booking I can make at Parkside?"
        piece = "Cancel at least 3 hours ahead to keep your credit."
        self.assertEqual(measure_problem(question, piece, piece), "another attribute")
        good = "Courts can be booked for a minimum of 30 minutes."
        self.assertEqual(measure_problem(question, good, good), "")

    def test_a_generic_bound_wants_a_number_of_the_named_key(self):
        question = "What is the highest value allowed for pool_size in Ledgerly?"
        self.assertEqual(measure_problem(question, "Raising pool_size needs more memory.", "Raising pool_size needs more memory."), "no value")
        row = "Key | Default | Allowed\nqueue.depth | 10 | 1–500"
        self.assertEqual(measure_problem(question, row, row), "another attribute")
        good = "Key | Default | Allowed\npool_size | 10 | 1–200"
        self.assertEqual(measure_problem(question, good, good), "")

    def test_an_advised_value_is_no_bound(self):
        question = "Cresta K2 maximum boiler pressure"
        row = "Spec | K2\nBoiler pressure (recommended) | 1.2 bar"
        self.assertEqual(measure_problem(question, row, row), "rival aspect")
        good = "Spec | K2\nBoiler pressure (maximum) | 1.8 bar"
        self.assertEqual(measure_problem(question, good, good), "")

    def test_the_whole_claim_is_partial(self):
        heading = "Parkside Tennis — Court rules"
        question = "What is the shortest court booking I can make at Parkside?"
        self.assertNotAnswered(question, heading, "Cancel at least 3 hours ahead to keep your credit.")
        self.assertAnswered(question, heading, "At Parkside, the minimum court booking is 30 minutes.")


class OtherExtentTest(VerdictCase):
    def test_a_depth_or_a_distance_is_no_length(self):
        question = "How long is the rowing lake at Millmere Park?"
        self.assertEqual(measure_problem(question, "- Rowing lake: depth 2.5 m", ""), "another attribute")
        self.assertEqual(measure_problem(question, "A park 3 km north of Millmere.", ""), "another attribute")
        self.assertEqual(measure_problem(question, "- Rowing lake: 400 m long", ""), "")

    def test_the_whole_claim_is_partial(self):
        heading = "Millmere Park › Rowing lake"
        question = "How long is the rowing lake at Millmere Park?"
        self.assertNotAnswered(question, heading, "- The Millmere Park rowing lake: depth 2.5 m")
        self.assertAnswered(question, heading, "- The Millmere Park rowing lake is 400 m long.")


class ChangeTest(VerdictCase):
    def test_a_change_asked_wants_a_change(self):
        question = "How much has Dunmore Library cut its paper use?"
        self.assertEqual(measure_problem(question, "A library 2 km from the station.", ""), "no value")
        self.assertEqual(measure_problem(question, "Paper use fell by 30% last year.", ""), "")


class GoalTest(VerdictCase):
    def test_a_goal_is_no_achieved_figure(self):
        question = "How much has Dunmore Library cut its paper use?"
        self.assertEqual(unachieved_problem(question, "The library has set a goal of cutting paper use by 40% by 2028.", ""), "unreal")
        self.assertEqual(unachieved_problem(question, "The library aims to cut paper use by 40%.", ""), "unreal")
        self.assertEqual(unachieved_problem(question, "The library cut its paper use by 30% in 2024.", ""), "")
        self.assertEqual(unachieved_problem("What is the library's paper target?", "It has a target of 40% by 2028.", ""), "")

    def test_the_whole_claim_is_partial(self):
        heading = "Dunmore Library › Sustainability"
        question = "How much has Dunmore Library cut its paper use?"
        self.assertNotAnswered(question, heading, "Dunmore Library has set a goal of cutting its paper use by 40% by 2028.")
        self.assertAnswered(question, heading, "Dunmore Library has cut its paper use by 30% since 2022.")


class NotHappenedTest(VerdictCase):
    def test_an_event_that_was_due_did_not_happen(self):
        question = "When did the Millmere boathouse cafe open?"
        self.assertEqual(unachieved_problem(question, "The boathouse cafe was due to open in spring 2023.", ""), "unreal")
        self.assertEqual(unachieved_problem(question, "Its opening has been postponed to 2026.", ""), "unreal")
        self.assertEqual(unachieved_problem(question, "The boathouse cafe opened in May 2023.", ""), "")

    def test_the_whole_claim_is_partial(self):
        heading = "Millmere Park › Boathouse cafe"
        question = "When did the Millmere boathouse cafe open?"
        self.assertNotAnswered(question, heading, "The Millmere boathouse cafe was due to open in spring 2023.")
        self.assertAnswered(question, heading, "The Millmere boathouse cafe opened in May 2023.")


class PlaceholderCellTest(VerdictCase):
    def test_a_placeholder_cell_is_no_value(self):
        question = "What does the family ticket cost at Harbourfest?"
        self.assertEqual(unachieved_problem(question, "", "Ticket | Price | Notes\nFamily ticket | TBC | Awaiting approval"), "no value")
        self.assertEqual(unachieved_problem(question, "", "Ticket | Price | Notes\nFamily ticket | £40 | Two adults"), "")

    def test_a_default_left_to_the_user_is_no_default(self):
        question = "What is the default cache lifetime in Ledgerly?"
        self.assertEqual(unachieved_problem(question, "", "Key | Default | Description\ncache.lifetime | configurable | How long entries live."), "no value")
        self.assertEqual(unachieved_problem(question, "", "Key | Default | Description\ncache.lifetime | 10m | How long entries live."), "")

    def test_the_whole_claim_is_partial(self):
        heading = "Harbourfest — Tickets"
        question = "What does the family ticket cost at Harbourfest?"
        self.assertNotAnswered(question, heading, "Ticket | Price | Notes\nFamily ticket | TBC | Awaiting approval")
        self.assertNotAnswered(question, heading, "Ticket | Price | Notes\nDay ticket | £25 |")
        self.assertAnswered(question, heading, "Ticket | Price | Notes\nFamily ticket | £40 | Two adults")


class OpenReadingTest(VerdictCase):
    def test_a_sibling_model(self):
        self.assertEqual(sibling_name("How long does the Kettle K2 take to boil?", "The Kettle K1 boils in 90 seconds."), "Kettle K1")
        self.assertEqual(sibling_name("How long does the Kettle K2 take to boil?", "Both the Kettle K1 and Kettle K2 boil fast."), "")
        heading = "Kettle K1 and K2 — Specifications"
        self.assertNotAnswered("How long does the Kettle K2 take to boil?", heading, "The Kettle K1 boils a full jug in 90 seconds.")
        self.assertAnswered("How long does the Kettle K2 take to boil?", heading, "The Kettle K2 boils a full jug in 70 seconds.")

    def test_a_price_row_says_nothing_of_what_comes_with_an_item(self):
        question = "What do you get with the Harbourfest Day Pass?"
        self.assertTrue(asks_of_item(question))
        self.assertEqual(open_problem(question, "Ticket | Price | Notes\nDay Pass | £25 |"), "another attribute")
        self.assertEqual(open_problem(question, "Ticket | Price | Notes\nDay Pass | £25 | Entry to all stages"), "")

    def test_availability_says_nothing_of_how_a_thing_works(self):
        question = "How does Ferrow's loyalty discount work?"
        self.assertEqual(open_problem(question, "- Loyalty discounts are sometimes offered to members."), "no value")
        self.assertEqual(open_problem(question, "- The loyalty discount takes 10% off once you have booked three times."), "")

    def test_a_keyword_price_query_wants_an_amount(self):
        question = "Ferrow Blend retail price per bag"
        self.assertTrue(is_keyword_query(question))
        self.assertFalse(is_keyword_query("What is the Ferrow Blend price?"))
        self.assertEqual(open_problem(question, "Coffee | Roast | Price\nFerrow Blend | Dark | Seasonal pricing"), "no value")
        self.assertEqual(open_problem(question, "Coffee | Roast | Price\nFerrow Blend | Dark | £9.50"), "")


if __name__ == "__main__":
    unittest.main()
