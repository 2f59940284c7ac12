"""A passage's atoms are rated once per question: the printed hits' second view reuses the
ranking view's ratings, and chooses exactly what a fresh rating chooses."""

from __future__ import annotations

import unittest
from unittest import mock

from agentic_rag._text import focus_atoms
from agentic_rag._text.focus import _lines, focus_of
from agentic_rag._text.focus_atoms import atoms_of, choose_atoms
from agentic_rag._text.relevance import RelevanceModel

TEXT = ("timeout\n\nHow long a request waits, in seconds.\n\nDefault: 30\n\nretries\n\n"
        "How often a request is tried again before it fails.\n\nDefault: 3")


class RatingsTest(unittest.TestCase):
    def setUp(self) -> None:
        focus_atoms._RATED.clear()
        self.addCleanup(focus_atoms._RATED.clear)

    def test_a_second_view_reuses_the_ratings_and_chooses_the_same(self) -> None:
        model = RelevanceModel()
        first = focus_of("what is the default timeout", TEXT, model, title="Settings")
        with mock.patch.object(focus_atoms, "_rate", side_effect=AssertionError("rated again")):
            again = focus_of("what is the default timeout", TEXT, model, title="Settings")
            wider = focus_of("what is the default timeout", TEXT, model, title="Settings", fill=400)
        self.assertEqual(again, first)
        focus_atoms._RATED.clear()
        self.assertEqual(wider, focus_of("what is the default timeout", TEXT, model, title="Settings", fill=400))

    def test_another_question_title_or_model_is_rated_anew(self) -> None:
        atoms = atoms_of(TEXT, tuple(_lines(TEXT)))
        model, other = RelevanceModel(), RelevanceModel(root_credit=0.5)
        rated = mock.Mock(wraps=focus_atoms._rate)
        with mock.patch.object(focus_atoms, "_rate", rated):
            for question, title, used in (("default timeout", "", model), ("default timeout", "", model), ("retries", "", model),
                                          ("default timeout", "Settings", model), ("default timeout", "", other)):
                choose_atoms(question, used, title, atoms, 3, 6, 150)
        self.assertEqual(rated.call_count, 4)

    def test_the_kept_ratings_are_bounded(self) -> None:
        model = RelevanceModel()
        atoms = atoms_of(TEXT, tuple(_lines(TEXT)))
        for n in range(focus_atoms._RATED_SIZE + 10):
            choose_atoms(f"question {n}", model, "", atoms, 3, 6, 150)
        self.assertEqual(len(focus_atoms._RATED), focus_atoms._RATED_SIZE)


if __name__ == "__main__":
    unittest.main()
