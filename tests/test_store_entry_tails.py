"""A setting's entry cut by a chunk boundary: the focus gets the entry's default sentence from
the next chunk, and only that entry's."""

from __future__ import annotations

import unittest

from agentic_rag._store.entry_tails import entry_default
from agentic_rag._store.records import StoreHit
from agentic_rag._store.second_stage import finish_hits
from agentic_rag._text.focus import view_passage
from agentic_rag._text.relevance import RelevanceModel
from agentic_rag._text.statements import split_statements
from marks_support import marks_of

FIRST = ("MAX_CONTENT_LENGTH\nThe maximum number of bytes that will be read during this request.\n\nDefault: None\n\n"
         "MAX_FORM_MEMORY_SIZE\nThe maximum size in bytes any non-file form field may be in a\nmultipart/form-data body. "
         "If this limit is exceeded, a 413 error is raised.")
SECOND = ("Each request defaults to this config. It can be set on a specific view.\n\nDefault: 500_000\n\n"
          "MAX_FORM_PARTS\nThe maximum number of fields that may be present in a multipart/form-data body.\n\nDefault: 1_000")
QUESTION = "Which config key caps the size of non-file form fields, and what is its default value?"


def _hit(n: int, text: str, first_line: int, *, section: str = "Configuration", path: str = "docs/config.rst") -> StoreHit:
    return StoreHit(f"{path}#{n}", path, first_line, first_line + text.count("\n"), 5.0, text, "docs", section,
                    line_marks=marks_of(text, first_line))


class DefaultSentenceTest(unittest.TestCase):
    def test_an_entry_attaches_the_line_that_opens_with_default_over_one_that_mentions_it(self):
        text = ("MAX_CONTENT_LENGTH\nThe maximum number of bytes read during a request.\n\n"
                "Each request defaults to this config.\n\nDefault: None")
        statements = split_statements(text)
        description = next(s for s in statements if text[s.core[0]:s.core[1]].startswith("The maximum"))
        attached = [text[a:b] for a, b in description.attached]
        self.assertIn("Default: None", attached)
        self.assertNotIn("Each request defaults to this config.", attached)


class EntryDefaultTest(unittest.TestCase):
    def setUp(self) -> None:
        self.model = RelevanceModel()
        self.first, self.second = _hit(11, FIRST, 312), _hit(12, SECOND, 322)
        self.following = lambda h: self.second if h.chunk_id == self.first.chunk_id else None

    def _tail(self, first: StoreHit, second: StoreHit | None, question: str = QUESTION):
        view = view_passage(question, first.text, self.model, title=first.section, marks=first.line_marks)
        return entry_default(first, view, lambda h: second if h is first else None)

    def test_the_cut_entry_gets_its_default_line_not_a_sentence_that_mentions_defaults(self):
        self.assertEqual(self._tail(self.first, self.second), ("324: Default: 500_000", 324))

    def test_nothing_when_the_next_chunk_starts_another_entry_first(self):
        other = _hit(12, "MAX_FORM_PARTS\nThe maximum number of fields in a body.\n\nDefault: 1_000", 322)
        self.assertIsNone(self._tail(self.first, other))

    def test_nothing_from_another_file_another_section_or_a_distant_chunk(self):
        for second in (_hit(12, SECOND, 322, path="docs/other.rst"), _hit(12, SECOND, 322, section="Elsewhere"), _hit(12, SECOND, 400)):
            with self.subTest(second=(second.path, second.section, second.start_line)):
                self.assertIsNone(self._tail(self.first, second))

    def test_nothing_when_the_entry_states_its_default_in_the_chunk_or_the_chunk_ends_outside_an_entry(self):
        whole = _hit(11, FIRST + "\n\nDefault: 500_000", 312)
        self.assertIsNone(self._tail(whole, self.second))
        prose = _hit(11, "Configuration values are read at startup. The maximum size of form fields is set per view.", 312)
        self.assertIsNone(self._tail(prose, self.second))

    def test_a_search_prints_it_with_the_focus_and_its_line_in_the_span(self):
        self.assertGreaterEqual(split_statements(FIRST)[-1].entry, 0)
        [shown] = finish_hits(QUESTION, [self.first], self.model, 1, following=self.following)
        self.assertTrue(shown.focus_text.endswith("\n324: Default: 500_000"), shown.focus_text)
        self.assertIn("315: Default: None", shown.focus_text)  # the first entry's own default line, not its mention
        self.assertEqual(shown.focus_end_line, 324)


if __name__ == "__main__":
    unittest.main()
