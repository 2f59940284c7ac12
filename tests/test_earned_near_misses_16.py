"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, sixteenth round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from earned_support import VerdictCase


class RowLabelExtentTest(VerdictCase):
    """A table row's label names the extent its cells give: a width row, its label cut from
    the value by a comma, does not say how tall a thing is."""

    _HEADER = "Feature | Harbour Hall | Mill Hall\n"

    def test_a_row_labelled_with_another_extent_gives_no_answer(self):
        question = "How tall is the stage at Harbour Hall?"
        self.assertNotAnswered(question, "Venues compared", self._HEADER + "Stage width, main room | 14.5 m | 9.0 m")
        self.assertNotAnswered(question, "Venues compared", self._HEADER + "Stage depth, main room | 8 m | 6 m")

    def test_a_row_labelled_with_the_asked_extent_answers(self):
        self.assertAnswered("How tall is the stage at Harbour Hall?", "Venues compared", self._HEADER + "Stage height, main room | 1.1 m | 0.9 m")
        self.assertAnswered("How wide is the stage at Harbour Hall?", "Venues compared", self._HEADER + "Stage width, main room | 14.5 m | 9.0 m")


class AdvisedBoundTest(VerdictCase):
    """A bound asked of one measure ("the minimum age") is not given by that measure's
    advised value ("recommended for ages 10 and over") beside another measure's bound."""

    _HEADER = "Activity | Rule\n"

    def test_an_advised_value_beside_another_bound_gives_no_minimum(self):
        question = "What is the minimum age for the climbing tower at Pebbleford?"
        self.assertNotAnswered(question, "Pebbleford safety rules", self._HEADER + "Climbing tower | minimum height 1.3 m; recommended for ages 10 and over")
        self.assertNotAnswered(question, "Pebbleford safety rules", self._HEADER + "Climbing tower | maximum weight 110 kg; suggested for ages 10 and up")

    def test_a_stated_bound_of_the_asked_measure_answers(self):
        question = "What is the minimum age for the climbing tower at Pebbleford?"
        self.assertAnswered(question, "Pebbleford safety rules", self._HEADER + "Climbing tower | minimum height 1.3 m; minimum age 8")
        self.assertAnswered(question, "Pebbleford safety rules", self._HEADER + "Climbing tower | minimum age 8; recommended for ages 10 and over")
        self.assertAnswered("What is the minimum height for the climbing tower at Pebbleford?", "Pebbleford safety rules",
                            self._HEADER + "Climbing tower | minimum height 1.3 m; recommended for ages 10 and over")


class ExpectedOutcomeTest(VerdictCase):
    """Someone's expectation of what a thing will do ("We expect the new wing to draw around
    40,000 visitors a year") is no outcome reached, unless the question asks what is expected."""

    def test_an_expectation_gives_no_outcome(self):
        question = "How many visitors did Carrow Museum's new wing draw in its first year?"
        self.assertNotAnswered(question, "Carrow Museum news", '"We expect the new wing to draw around 40,000 extra visitors a year," said director Ana Velt.')
        self.assertNotAnswered(question, "Carrow Museum news", "The trustees anticipate the new wing will draw 40,000 extra visitors a year.")

    def test_an_outcome_or_an_asked_expectation_answers(self):
        self.assertAnswered("How many visitors did Carrow Museum's new wing draw in its first year?", "Carrow Museum news",
                            "In its first year the new wing drew 41,200 extra visitors, more than the museum had expected.")
        self.assertAnswered("How many visitors does Carrow Museum expect the new wing to draw?", "Carrow Museum news",
                            '"We expect the new wing to draw around 40,000 extra visitors a year," said director Ana Velt.')

    def test_a_requirement_written_with_expect_answers(self):
        self.assertAnswered("How many records can a Quoll file hold?", "Quoll file format", "A Quoll reader expects a file to hold at most 65,536 records.")


class AnotherBodysViewTest(VerdictCase):
    """A question asking what one body considers a thing to be, or recommends, is not
    answered by another named body's advice, only by the asked body's own (or "we")."""

    _HEADING = "Tallowby Tea glossary"

    def test_another_bodys_advice_gives_no_answer(self):
        question = "How long does Tallowby Tea consider its leaves to be fresh after packing?"
        self.assertNotAnswered(question, self._HEADING, "Freshness: The National Tea Guild advises that leaves are fresh for up to nine months after packing.")
        self.assertNotAnswered("How long does Tallowby Tea recommend steeping green tea?", self._HEADING,
                               "Steeping: The National Tea Guild recommends steeping green tea for 3 minutes.")

    def test_the_asked_bodys_own_view_answers(self):
        question = "How long does Tallowby Tea consider its leaves to be fresh after packing?"
        self.assertAnswered(question, self._HEADING, "Freshness: Tallowby Tea considers leaves fresh for up to nine months after packing.")
        self.assertAnswered(question, self._HEADING, "Freshness: we consider leaves fresh for up to nine months after packing.")


class RepeatedTimeTest(VerdictCase):
    """A question asking when a thing is, that itself places it at a time ("When is the
    Sunday talk?"), is not answered by a sentence naming only that time, but by one that
    says when."""

    def test_a_sentence_repeating_the_asked_time_gives_no_answer(self):
        self.assertNotAnswered("When is Mira Dunn's Sunday talk at Fernhill Book Fair?", "Fernhill Book Fair programme",
                               "Mira Dunn will also give a short talk in the Garden Marquee on Sunday.")
        self.assertNotAnswered("When is the Fernhill Book Fair's evening reading in June?", "Fernhill Book Fair programme",
                               "The evening reading is held in the library in June.")

    def test_a_sentence_giving_the_time_answers(self):
        self.assertAnswered("When is Mira Dunn's Sunday talk at Fernhill Book Fair?", "Fernhill Book Fair programme",
                            "Mira Dunn will give a short talk in the Garden Marquee on Sunday at 14:30.")
        self.assertAnswered("When is Mira Dunn's talk at Fernhill Book Fair?", "Fernhill Book Fair programme",
                            "Mira Dunn will give a short talk in the Garden Marquee on Sunday.")


class PermittedCapTest(VerdictCase):
    """A cap a licence or a room sets ("the licence allows up to 9,000 people a day") is no
    figure reached, unless the question asks the cap."""

    def test_a_cap_gives_no_figure_reached(self):
        self.assertNotAnswered("What was the attendance at Brindle Vale Show 2025?", "Brindle Vale Show report",
                               "The 2025 licence allows up to 9,000 people a day.")
        self.assertNotAnswered("How many guests did the Orchard Hall dinner have in 2025?", "Orchard Hall news",
                               "For the 2025 dinner the Orchard Hall can seat up to 240 guests.")

    def test_a_figure_reached_or_an_asked_cap_answers(self):
        self.assertAnswered("What was the attendance at Brindle Vale Show 2025?", "Brindle Vale Show report",
                            "Attendance at Brindle Vale Show 2025 was 8,450 people a day.")
        self.assertAnswered("How many people a day does the 2025 licence allow at Brindle Vale Show?", "Brindle Vale Show report",
                            "The 2025 licence allows up to 9,000 people a day.")


class QualifiedDurationTest(VerdictCase):
    """A duration that qualifies another noun ("2 months' free studio access", "a 14-day
    trial") is how long that thing lasts, not the asked one."""

    _HEADING = "Brookmere Pottery fees › Courses"

    def test_a_duration_of_another_thing_gives_no_answer(self):
        question = "How long is each class of Brookmere's Beginners' Pottery course?"
        self.assertNotAnswered(question, self._HEADING, "- Beginners' Pottery course: £150 for 8 Tuesday classes, including 2 months' free studio access.")
        self.assertNotAnswered(question, self._HEADING, "- Beginners' Pottery course: £150 for 8 Tuesday classes, with a 14-day free trial of the glaze room.")

    def test_a_duration_of_the_asked_thing_answers(self):
        question = "How long is each class of Brookmere's Beginners' Pottery course?"
        self.assertAnswered(question, self._HEADING, "- Beginners' Pottery course: £120 for eight 2-hour classes on Tuesdays.")
        self.assertAnswered(question, self._HEADING, "- Beginners' Pottery course: each class lasts 2 hours.")


class AnotherSizeTest(VerdictCase):
    """A price asked for one pack size ("a 1 kg bag") is not given by a row priced for another
    size of the same kind (a "100 g" column), only by one naming the asked size."""

    _NOTE = "\n\nEvery tea is sold in 100 g bags; 1 kg bags are sold for the house blend only."
    _QUESTION = "How much is a 1 kg bag of Misty Ridge from Tallowby Tea?"

    def test_a_price_for_another_size_gives_no_answer(self):
        row = "Tea | Origin | Altitude | Tasting notes | 100 g\nMisty Ridge | Assam | 1,400 m | malt, honey | £6.40"
        self.assertNotAnswered(self._QUESTION, "Tallowby Tea — tea list", row, row + self._NOTE)
        oil = "Oil | Origin | Pressed | 500 ml\nValle Oro | Spain | 2 October | £8.90"
        self.assertNotAnswered("How much is a 2 litre tin of Valle Oro from Casa Fenwick?", "Casa Fenwick — oils", oil,
                               oil + "\n\nEvery oil is sold in 500 ml bottles; 2 litre tins are sold to restaurants only.")

    def test_a_price_for_the_asked_size_answers(self):
        row = "Tea | Origin | Altitude | Tasting notes | 1 kg\nMisty Ridge | Assam | 1,400 m | malt, honey | £48.00"
        self.assertAnswered(self._QUESTION, "Tallowby Tea — tea list", row, row + self._NOTE)
        grams = "Tea | Origin | Altitude | Tasting notes | 1,000 g\nMisty Ridge | Assam | 1,400 m | malt, honey | £48.00"
        self.assertAnswered(self._QUESTION, "Tallowby Tea — tea list", grams, grams + self._NOTE)


class KeywordTimeTest(VerdictCase):
    """A question written as keywords ending in "time" ("Kestrel K2 full charge time") asks a
    time: a line with none ("holds three full charges") gives no answer, one with a duration does."""

    def test_a_line_with_no_time_gives_no_answer(self):
        self.assertNotAnswered("Kestrel K2 full charge time", "Kestrel K2 questions", "The Kestrel K2 travel case holds three full charges and costs £89.")

    def test_a_line_with_a_duration_answers(self):
        self.assertAnswered("Kestrel K2 full charge time", "Kestrel K2 questions", "A Kestrel K2 full charge takes 3 hours; the full charge time is shorter on the dock.")


if __name__ == "__main__":
    unittest.main()
