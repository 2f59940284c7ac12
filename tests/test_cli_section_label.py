"""The section heading path printed after a search hit's location: long paths lose their first
levels, and a last level too long alone keeps its start (what names it) and loses its end."""

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

    def test_a_long_last_level_keeps_its_start(self):
        label = _label('Django 2.1.2 release notes \u203a CVE-2018-16984: Password hash disclosure to "view only" admin users')
        self.assertTrue(label.startswith("\u2026 CVE-2018-16984: Password hash disclosure"), label)
        self.assertTrue(label.endswith("\u2026"), label)
        self.assertLessEqual(len(label), 62)
        self.assertNotIn("admin users", label)  # cut at the end, at a word boundary

    def test_a_long_single_level_has_no_leading_ellipsis(self):
        label = _label("CVE-2018-16984: Password hash disclosure to view only admin users of the site")
        self.assertTrue(label.startswith("CVE-2018-16984"), label)


if __name__ == "__main__":
    unittest.main()
