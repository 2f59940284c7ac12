"""The one segmenter: sentences, list items, table rows, code blocks and lead-ins, with exact
offsets, on text shaped like the loaders' output for real documentation."""

from __future__ import annotations

import unittest

from agentic_rag._text.segments import UnitKind, split_units
from agentic_rag._text.sentences import split_sentences

CHUNK = """Install with pip:

pip install structlog

The pool accepts these options:

- max_connections: how many connections to keep
  open at once (default 20).
- timeout: seconds to wait, default 5. Can be None.

name | default
retries | 3
backoff | 0.5

Acme Co. was founded in Jan. 2001. It grew.

>>> import structlog
>>> log = structlog.get_logger()

.
"""


class SegmenterTest(unittest.TestCase):
    def setUp(self) -> None:
        self.units = split_units(CHUNK)

    def test_offsets_are_exact(self) -> None:
        for unit in self.units:
            self.assertEqual(CHUNK[unit.start:unit.end], unit.text)
            self.assertEqual(unit.text, unit.text.strip())

    def test_a_lead_in_keeps_the_command_it_introduces(self) -> None:
        first = self.units[0]
        self.assertEqual(first.text, "Install with pip:\n\npip install structlog")
        self.assertEqual(first.kind, UnitKind.SENTENCE)

    def test_list_items_are_units_with_their_continuation_lines(self) -> None:
        items = [u.text for u in self.units if u.kind is UnitKind.LIST_ITEM]
        self.assertEqual(items, [
            "- max_connections: how many connections to keep\n  open at once (default 20).",
            "- timeout: seconds to wait, default 5. Can be None.",
        ])
        # The lead-in quotes the whole list, so "(default 20)" stays with its own item.
        lead = next(u for u in self.units if u.text.startswith("The pool accepts"))
        self.assertTrue(lead.text.endswith("Can be None."))

    def test_table_rows_are_units(self) -> None:
        self.assertEqual([u.text for u in self.units if u.kind is UnitKind.TABLE_ROW], ["name | default", "retries | 3", "backoff | 0.5"])

    def test_code_block_is_one_unit(self) -> None:
        self.assertIn(">>> import structlog\n>>> log = structlog.get_logger()", [u.text for u in self.units if u.kind is UnitKind.CODE])

    def test_no_punctuation_only_unit(self) -> None:
        self.assertTrue(all(any(ch.isalnum() for ch in u.text) for u in self.units))

    def test_abbreviations_agree_with_the_sentence_splitter(self) -> None:
        text = "Acme Co. was founded in Jan. 2001. It grew."
        self.assertEqual([s.text for s in split_sentences(text)], ["Acme Co. was founded in Jan. 2001.", "It grew."])
        self.assertEqual([u.text for u in split_units(text)], ["Acme Co. was founded in Jan. 2001.", "It grew."])

    def test_empty_and_blank_text(self) -> None:
        self.assertEqual(split_units(""), ())
        self.assertEqual(split_units("  \n\n ... \n"), ())


if __name__ == "__main__":
    unittest.main()
