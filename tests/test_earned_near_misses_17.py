"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, seventeenth round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from earned_support import VerdictCase

from agentic_rag._answering.amounts import money_for_measure, not_money
from agentic_rag._answering.place_conditions import place_problem
from agentic_rag._answering.withheld import withholds
from agentic_rag._text.relevance import RelevanceModel


class WithdrawnOfferTest(VerdictCase):
    """A sentence saying the asked thing is no longer, or not yet, on offer (its subject, or
    for "It" the sentence before it, being the asked thing) keeps a sibling line's figure or
    date from answering for it."""

    _HEADING = "Brindle Boilers service terms"

    def test_an_offer_no_longer_available_gives_no_price(self):
        self.assertNotAnswered("What does Brindle charge to extend a Brindle K4 guarantee to 8 years?", self._HEADING,
                               "9. Extended guarantee. An extension to 8 years for the Brindle K4 was sold until 30 June 2024 for £180. It is no longer available.")

    def test_a_thing_not_available_yet_withholds_its_start(self):
        lead = "4. Pausing. From version 3 of these terms, planned for spring 2026, you will be able to pause your cover for up to 3 months a year."
        self.assertTrue(withholds("Since when can Brindle customers pause their cover?", self._HEADING, lead, "Pausing is not available yet.", RelevanceModel()))

    def test_a_limit_of_the_offer_or_another_thing_withdrawn_withholds_nothing(self):
        model = RelevanceModel()
        self.assertFalse(withholds("How much does a Brindle K4 service cost?", self._HEADING, "A Brindle K4 service costs £95.",
                                   "The service is not available on Sundays.", model))
        self.assertFalse(withholds("How much does parking cost at the Brindle showroom?", self._HEADING, "Parking at the Brindle showroom costs £4 a day.",
                                   "Free parking is no longer available.", model))

    def test_another_thing_withdrawn_or_a_limited_offer_leaves_the_answer(self):
        self.assertAnswered("How much does parking cost at the Brindle showroom?", self._HEADING,
                            "Parking at the Brindle showroom costs £4 a day. Free parking is no longer available.")
        self.assertAnswered("How much does a Brindle K4 service cost?", self._HEADING,
                            "A Brindle K4 service costs £95. The service is not available on Sundays.")

    def test_the_end_of_the_offer_is_answered_by_its_date(self):
        self.assertAnswered("Until what date was the Brindle K4 8-year extension sold?", self._HEADING,
                            "The Brindle K4 8-year extension was sold until 30 June 2024. It is no longer available.")


class DeferredDecisionTest(unittest.TestCase):
    """A decision put off withholds what the proposal before it would set, not the value that
    stays meanwhile."""

    _HEADING = "Lowmead Allotment Society AGM minutes"
    _LEAD = "5. Plot rent. A proposal to raise the plot rent at Lowmead to £40 was discussed."
    _PIECE = "The decision was deferred to the June committee meeting; the plot rent stays at £32 for now."

    def test_a_deferred_decision_withholds_the_proposed_value(self):
        self.assertTrue(withholds("From what date does Lowmead's new £40 plot rent apply?", self._HEADING, self._LEAD, self._PIECE, RelevanceModel()))

    def test_the_value_that_stays_is_not_withheld(self):
        self.assertFalse(withholds("What is the plot rent at Lowmead?", self._HEADING, self._LEAD, self._PIECE, RelevanceModel()))


class KnownOnlyLaterTest(VerdictCase):
    """A sentence saying the asked value will only be known later ("the final strength will only
    be known when we measure it") withholds it; an aim or last year's figure beside it is no
    answer."""

    def test_a_value_known_only_later_gives_no_answer(self):
        self.assertNotAnswered("What's the ABV of Marlow Cross's 2026 Winter Porter?", "Marlow Cross news › Winter Porter 2026",
                               "Last year's batch (2025, 7.4%) sold out fast. We're aiming for about 7%, but the final ABV will only be known when we measure it at bottling.")

    def test_a_measured_value_answers(self):
        self.assertAnswered("What's the ABV of Marlow Cross's 2026 Winter Porter?", "Marlow Cross news › Winter Porter 2026",
                            "The 2026 Winter Porter was measured at bottling: its ABV is 7.1%.")


class UntoldDefinitionTest(VerdictCase):
    """A line saying a named body defines a term its own way, without giving the definition,
    gives no definition of that body's; the document's own definition beside it is not the body's."""

    _HEADING = "Tidewell Sailing glossary"

    def test_a_body_said_to_define_differently_gives_no_definition(self):
        self.assertNotAnswered("Coastal Sailing Federation definition of a light wind", self._HEADING,
                               "Light wind: a wind under 10 knots at our moorings. The Coastal Sailing Federation defines a light wind differently for its races.")
        self.assertNotAnswered("What's the Coastal Sailing Federation's definition of a light wind?", self._HEADING,
                               "Light wind: a wind under 10 knots at our moorings. The Coastal Sailing Federation uses a stricter definition of its own.")

    def test_a_definition_given_after_it_answers(self):
        self.assertAnswered("Coastal Sailing Federation definition of a light wind", self._HEADING,
                            "The Coastal Sailing Federation defines a light wind differently: a wind under 8 knots over open water.")


class AnotherSiteTest(VerdictCase):
    """A figure given for another named site of the asked kind ("its Ardley works") is not the
    asked site's, even when the heading names the asked one."""

    _HEADING = "Corvane Glass press release: new Holm Bay plant"

    def test_another_named_site_gives_no_answer(self):
        self.assertNotAnswered("How many panes did Corvane Glass's Holm Bay plant make in 2024?", self._HEADING,
                               "Corvane Glass makes all of its panes today at its Ardley works, which made 52,000 panes in 2024.")

    def test_the_asked_site_answers(self):
        self.assertAnswered("How many panes did Corvane Glass's Ardley works make in 2024?", self._HEADING,
                            "Corvane Glass makes all of its panes today at its Ardley works, which made 52,000 panes in 2024.")
        self.assertAnswered("How many panes did Corvane Glass's Holm Bay plant make in 2024?", self._HEADING,
                            "The Holm Bay plant made 12,000 panes in 2024, and the Ardley works made 52,000.")


class ComplementAreaTest(unittest.TestCase):
    """A value given within an area does not answer for outside it, nor the other way, unless
    the line names the asked side too."""

    def test_the_other_side_of_the_area_is_another_subject(self):
        self.assertEqual(place_problem("How much does Fennick charge for delivery outside the Dunmore bypass?",
                                       "We deliver within the Dunmore bypass for £5.00."), "another subject")
        self.assertEqual(place_problem("How much does Fennick charge for delivery inside the Dunmore bypass?",
                                       "Beyond the Dunmore bypass, delivery costs £9.00."), "another subject")

    def test_the_asked_side_is_left_alone(self):
        self.assertEqual(place_problem("How much does Fennick charge for delivery within the Dunmore bypass?",
                                       "We deliver within the Dunmore bypass for £5.00."), "")
        self.assertEqual(place_problem("How much does Fennick charge for delivery outside the Dunmore bypass?",
                                       "We deliver within the Dunmore bypass for £5.00, and outside the bypass for £9.00."), "")


class MoneyForMeasureTest(VerdictCase):
    """A physical measure asked by its name ("What range ...") is not given by a line whose
    every figure is a sum of money, unless the question asks a price."""

    _ROW = "Plan | Scooter | Per month, 12-month term | Setup fee\nUrban Max | Z3 with a spare battery | £45 | £0"

    def test_a_row_of_prices_gives_no_range(self):
        self.assertEqual(money_for_measure("What range do you get on Zipline's Urban Max with the spare battery?", self._ROW), "no value")
        self.assertEqual(not_money("What weight can Zipline's Urban Max carry?", "Urban Max | £45 | £0"), "no value")

    def test_a_measure_or_an_asked_price_is_left_alone(self):
        self.assertEqual(money_for_measure("What range do you get on Zipline's Urban Max?", "Urban Max | Z3 | up to 60 km | £45"), "")
        self.assertEqual(money_for_measure("What price range do Zipline's plans cover?", self._ROW), "")
        self.assertEqual(not_money("What does Zipline's Urban Max cost per month?", self._ROW), "")
        self.assertAnswered("What weight can the Zipline Z3 scooter carry?", "Zipline Z3", "The Zipline Z3 scooter carries up to 120 kg.")


if __name__ == "__main__":
    unittest.main()
