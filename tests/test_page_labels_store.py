"""Page labels from the loader to the store, its hits and the CLI's output forms."""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
import unittest
from contextlib import closing
from pathlib import Path

from test_pdf_sections import _manual

from agentic_rag._contracts import Snippet
from agentic_rag._ingest import parse_source
from agentic_rag._ingest.blocks import ParsedSource, TextBlock, TextSection, clean_source
from agentic_rag._interfaces.locations import citation_location, location_label
from agentic_rag._store import KnowledgeStore
from agentic_rag._store.schema import DATABASE_NAME
from cli_support import run_cli


class PageLabelStoreTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        cls.root = Path(cls.tmp.name)
        (cls.root / "docs").mkdir()
        # Pages 1-8; page n prints n - 2 (pages 1 and 2 print nothing).
        (cls.root / "docs" / "manual.pdf").write_bytes(_manual())
        cls.store = KnowledgeStore(cls.root / ".agentic-rag")
        cls.store.index(cls.root / "docs")

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_hits_carry_the_printed_number(self) -> None:
        (hit,) = self.store.search("india widget juliet charlie", 1)
        self.assertEqual(hit.page_label, str(hit.page - 2))
        self.assertEqual(self.store.bm25().get(hit.chunk_id).metadata["page_label"], str(hit.page - 2))

    def test_an_index_rebuilt_from_the_rows_keeps_the_labels(self) -> None:
        labels = {d.metadata["page"]: d.metadata.get("page_label", "") for d in self.store.documents()}
        self.assertEqual(labels, {n: (str(n - 2) if n > 2 else "") for n in range(1, 9)})

    def test_text_output_shows_the_printed_number_beside_the_page(self) -> None:
        self.assertEqual(location_label({"path": "m.pdf", "page": 166, "page_label": "160", "start_line": 3, "end_line": 5}),
                         "m.pdf:p166:3-5 (printed 160)")
        # The same number, or none, adds nothing.
        self.assertEqual(location_label({"path": "m.pdf", "page": 7, "page_label": "7", "start_line": 1, "end_line": 2}), "m.pdf:p7:1-2")
        self.assertEqual(location_label({"path": "m.pdf", "page": 7, "start_line": 1, "end_line": 2}), "m.pdf:p7:1-2")

    def test_cli_search_shows_it_in_text_and_json(self) -> None:
        cwd = os.getcwd()
        os.chdir(self.root)
        try:
            code, out, err = run_cli("search", "india widget juliet charlie", "-k", "1", "--json")
            self.assertEqual(code, 0, err)
            (hit,) = json.loads(out)
            self.assertEqual(hit["page_label"], str(hit["page"] - 2))
            code, out, err = run_cli("search", "india widget juliet charlie", "-k", "1")
            self.assertIn(f":p{hit['page']}:", out)
            self.assertIn(f" (printed {hit['page'] - 2})  relevance", out)
        finally:
            os.chdir(cwd)


class CarriedFieldsTest(unittest.TestCase):
    def test_citations_carry_the_label_beside_the_page(self) -> None:
        snippet = Snippet(id="s", corpus_id="c", document_id="m.pdf#0", text="Lock waits.", score=1.0,
                          metadata={"path": "m.pdf", "start_line": 3, "end_line": 3, "page": 166, "page_label": "160",
                                    "line_marks": [[0, 3]]})
        where = citation_location(snippet, "Lock waits.", None)
        self.assertEqual(where, {"path": "m.pdf", "start_line": 3, "end_line": 3, "page": 166, "page_label": "160"})

    def test_cleaning_invisible_characters_keeps_the_heading_path_and_the_page_facts(self) -> None:
        parsed = parse_source("<h1>Guide</h1><h2>Install</h2><p>Run it\u202e now.</p>".encode("utf-8"), ".html")
        self.assertEqual([section.heading_path for section in parsed.sections], ["Guide › Install"])
        section = TextSection((TextBlock("a\ufeffb", ((0, 1),)),), "T", page=2, headings=("A", "T"), page_label="7", list_page=True)
        (cleaned,) = clean_source(ParsedSource((section,), extracted=True)).sections
        self.assertEqual((cleaned.blocks[0].text, cleaned.heading_path, cleaned.page_label, cleaned.list_page), ("ab", "A › T", "7", True))


class PageFactsColumnTest(unittest.TestCase):
    def test_a_store_without_the_column_is_read_then_upgraded(self) -> None:
        if sqlite3.sqlite_version_info < (3, 35):
            self.skipTest("dropping a column needs SQLite 3.35")
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "docs").mkdir()
            (root / "docs" / "a.md").write_text("# A\n\nThe office opens at nine.\n")
            store = KnowledgeStore(root / "store")
            store.index(root / "docs")
            with closing(sqlite3.connect(root / "store" / DATABASE_NAME)) as db, db:
                db.execute("ALTER TABLE chunks DROP COLUMN page_facts")
            self.assertEqual(len(list(KnowledgeStore(root / "store").documents())), 1)
            (root / "docs" / "m.pdf").write_bytes(_manual())
            KnowledgeStore(root / "store").index(root / "docs")
            labels = {d.metadata.get("page_label") for d in KnowledgeStore(root / "store").documents()}
            self.assertIn("6", labels)


if __name__ == "__main__":
    unittest.main()
