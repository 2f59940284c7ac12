"""The shared field checks: each refuses bad input naming the field, the value and the range."""

from __future__ import annotations

import enum
import math
import unittest

from agentic_rag._contracts.validation import is_int, is_number, require_bool, require_enum, require_int, require_number
from agentic_rag._errors import InvalidInputError


class Colour(str, enum.Enum):
    RED = "red"
    BLUE = "blue"


class ValidationChecksTest(unittest.TestCase):
    def refused(self, check, pattern):
        with self.assertRaisesRegex(InvalidInputError, pattern) as ctx:
            check()
        return str(ctx.exception)

    def test_predicates_refuse_bools_and_non_finite_numbers(self):
        self.assertEqual([is_int(v) for v in (0, -3, True, 1.0, "1", None)], [True, True, False, False, False, False])
        self.assertEqual([is_number(v) for v in (0, 2.5, False, math.nan, math.inf, "1")], [True, True, False, False, False, False])
        self.assertTrue(is_number(10**400))  # finite, though beyond the float range

    def test_require_int_names_the_range_and_the_value(self):
        self.assertEqual(require_int(3, "k", minimum=1, maximum=3), 3)
        self.assertIsNone(require_int(None, "k", minimum=1, optional=True))
        self.refused(lambda: require_int(0, "k", minimum=1, stage="bm25"), r"^bm25: k must be an int >= 1, got 0$")
        self.refused(lambda: require_int(True, "k", minimum=1), r"k must be an int >= 1, got bool True")
        self.refused(lambda: require_int(9, "n", minimum=1, maximum=5), r"n must be an int >= 1 and <= 5, got 9")
        self.refused(lambda: require_int("3", "limit", minimum=1, optional=True), r"limit must be an int >= 1 or None, got str '3'")
        self.refused(lambda: require_int(None, "k"), r"k must be an int, got NoneType None")

    def test_require_number_is_finite_and_bounded(self):
        self.assertEqual(require_number(2, "w", minimum=0), 2.0)
        self.assertIsInstance(require_number(2, "w"), float)
        self.assertIsNone(require_number(None, "deadline_s", above=0, optional=True))
        self.refused(lambda: require_number(math.nan, "w", minimum=0), r"w must be a finite number >= 0, got float nan")
        self.refused(lambda: require_number(math.inf, "w"), r"w must be a finite number, got float inf")
        self.refused(lambda: require_number(False, "w"), r"got bool False")
        self.refused(lambda: require_number(0, "t", above=0, maximum=1), r"t must be a finite number > 0 and <= 1, got 0")
        self.refused(lambda: require_number(2.5, "t", minimum=0, maximum=2), r"t must be a finite number >= 0 and <= 2, got 2.5")
        self.refused(lambda: require_number("1", "d", above=0, optional=True), r"d must be a finite number > 0 or None, got str '1'")
        self.refused(lambda: require_number(10**400, "w", minimum=0), r"w must be a finite number >= 0, got an int of 401 digits")

    def test_require_bool_accepts_only_bools(self):
        self.assertIs(require_bool(False, "flag"), False)
        self.assertIsNone(require_bool(None, "flag", optional=True))
        self.refused(lambda: require_bool(1, "flag"), r"flag must be a bool, got 1")
        self.refused(lambda: require_bool("yes", "vector", optional=True), r"vector must be a bool or None, got 'yes'")

    def test_require_enum_lists_the_choices(self):
        self.assertIs(require_enum(Colour, "red", "colour"), Colour.RED)
        self.assertIs(require_enum(Colour, Colour.BLUE, "colour"), Colour.BLUE)
        self.refused(lambda: require_enum(Colour, "green", "colour"), r"colour must be one of \['red', 'blue'\], got 'green'")
        self.refused(lambda: require_enum(Colour, ["red"], "colour"), r"colour must be one of")  # unhashable: still our error


if __name__ == "__main__":
    unittest.main()
