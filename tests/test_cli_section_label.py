"""The section heading path printed after a search hit's location: long paths lose their first
levels, the last level is printed whole up to a longer width, and one longer still keeps its start
(what names it) and loses its end."""

from __future__ import annotations

import unittest

from agentic_rag._interfaces.cli_commands import _passage_header

_HIT = {"path": "notes/a.txt", "focus_start_line": 13, "focus_end_line": 17, "start_line": 13, "end_line": 20, "relevance": 0.58}


def _label(section: str) -> str:
    return _passage_header({**_HIT, "section": section}).split("  \u00a7 ", 1)[1]


class SectionLabelTest(unittest.TestCase):
    def test_a_short_path_is_printed_whole(self):
        self.assertEqual(_label("Guide \u203a Install"), "Guide \u203a Install")

    def test_a_long_path_loses_its_first_levels(self):
        label = _label("A first level heading that is long enough \u203a Second level \u203a Options")
        self.assertEqual(label, "\u2026 Second level \u203a Options")

    def test_the_last_level_is_printed_whole_up_to_its_width(self):
        # The hit's own heading may hold the asked value at its end: it is not cut at the
        # path's width.
        label = _label('Django 2.1.2 release notes \u203a CVE-2018-16984: Password hash disclosure to "view only" admin users')
        self.assertEqual(label, '\u2026 CVE-2018-16984: Password hash disclosure to "view only" admin users')

    def test_a_longer_last_level_keeps_its_start(self):
        heading = "CVE-2018-16984: Password hash disclosure to view only admin users when a long explanation follows in the heading itself"
        label = _label(f"Django 2.1.2 release notes \u203a {heading}")
        self.assertTrue(label.startswith("\u2026 CVE-2018-16984: Password hash disclosure"), label)
        self.assertTrue(label.endswith("\u2026"), label)
        self.assertLessEqual(len(label), 102)
        self.assertNotIn("heading itself", label)  # cut at the end, at a word boundary

    def test_a_long_single_level_has_no_leading_ellipsis(self):
        label = _label("CVE-2018-16984: Password hash disclosure to view only admin users of the site")
        self.assertTrue(label.startswith("CVE-2018-16984"), label)


if __name__ == "__main__":
    unittest.main()
