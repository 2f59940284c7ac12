"""The general readings that keep a deterministic ``answered`` off a near miss (issue 35, item
5, fifteenth round): each reading with a near miss it refuses and a plain statement it still
accepts."""

from __future__ import annotations

import unittest

from agentic_rag._answering.amounts import table_cells
from earned_support import VerdictCase


class CornerCellHeaderTest(VerdictCase):
    """A header row that lost its empty corner cell ("| Junior | Middle" over "Late-start
    Monday dismissal | 12:40 pm | 1:10 pm") still heads the value columns: a time under
    another column is no time of the asked one."""

    _HEADING = "Fernbrook School District — Bell Schedule › Junior and middle schools"
    # The paragraph over the table names the asked schools too, so the passage covers the question.
    _PASSAGE = ("This schedule covers Fernbrook's junior and middle schools; high school times differ by campus.\n\n"
                "| Junior | Middle\nLate-start Monday dismissal | 12:40 pm | 1:10 pm")

    def test_cells_line_up_under_a_header_without_its_corner(self):
        self.assertEqual(table_cells("| Junior | Middle\nLate-start Monday dismissal | 12:40 pm | 1:10 pm"),
                         [("", "Late-start Monday dismissal"), ("Junior", "12:40 pm"), ("Middle", "1:10 pm")])
        # A header as wide as its row keeps its cells as they are.
        self.assertEqual(table_cells("Day | Opens\nMonday | 09:00"), [("Day", "Monday"), ("Opens", "09:00")])

    def test_another_columns_time_gives_no_answer(self):
        row = "Late-start Monday dismissal | 12:40 pm | 1:10 pm"
        self.assertNotAnswered("What time are Fernbrook high school students dismissed on late-start Mondays?", self._HEADING, row, self._PASSAGE)
        self.assertAnswered("What time do Fernbrook middle schools dismiss on late-start Mondays?", self._HEADING, row, self._PASSAGE)


if __name__ == "__main__":
    unittest.main()
