"""Line numbers mean the same thing in ingestion and in citations, and follow re-indexing.

Regression tests: form feeds and U+2028 used to shift citation lines (citations counted lines
with ``str.splitlines``, ingestion only at newlines), and a long-lived service kept citing the
lines of a file's previous content after another process re-indexed it.
"""

from __future__ import annotations

import os
import tempfile
import unittest
from pathlib import Path

from agentic_rag._interfaces.store_service import StoreService
from agentic_rag._store import KnowledgeStore
from agentic_rag._text import split_lines

# Line 3 holds a form feed (a page break, as pdftotext writes), line 5 a U+2028 and a U+2029,
# line 6 a vertical tab and U+0085: none of them ends a line for an editor or for grep -n.
PAGED = (
    "Quarterly report of the Zephyr plant.\n"
    "The plant opened in 1999.\n"
    "\fPage two starts here with the pressure section.\n"
    "\n"
    "Pressure notes\u2028continue on the same line\u2029as written.\n"
    "Valve tables\x0bfollow\x85below.\n"
    "\n"
    "The Zephyr valve opens at 40 bar of pressure.\n"
)
VALVE_LINE = 8


class SplitLinesTest(unittest.TestCase):
    def test_only_newlines_end_lines(self):
        self.assertEqual(len(split_lines(PAGED)), 9)  # eight lines and the empty rest after the last newline
        self.assertEqual(split_lines(PAGED)[VALVE_LINE - 1], "The Zephyr valve opens at 40 bar of pressure.")

    def test_windows_and_old_mac_newlines_count_once(self):
        self.assertEqual(split_lines("a\r\nb\rc\nd"), ["a", "b", "c", "d"])
        self.assertEqual(split_lines(""), [""])

    def test_ingestion_uses_the_same_lines(self):
        from agentic_rag._ingest.loaders import parse_source

        parsed = parse_source(PAGED.encode("utf-8"), ".txt")
        blocks = [block for section in parsed.sections for block in section.blocks]
        valve = next(b for b in blocks if "Zephyr valve" in b.text)
        self.assertEqual(valve.line_at(valve.text.index("Zephyr valve")), VALVE_LINE)


class CitationLinesEndToEndTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root = Path(tmp.name)
        (self.root / "docs").mkdir()
        (self.root / "docs" / "report.txt").write_text(PAGED, encoding="utf-8", newline="")
        self.store = KnowledgeStore(self.root / "store", base=self.root)
        self.store.index(self.root / "docs")

    def test_ask_cites_the_line_an_editor_shows(self):
        payload = StoreService(self.store).ask("At what pressure does the Zephyr valve open?").payload
        citations = [c for claim in payload["claims"] for c in claim["citations"] if "40 bar" in (c["quote"] or claim["text"])]
        self.assertTrue(citations, payload)
        self.assertEqual((citations[0]["start_line"], citations[0]["end_line"]), (VALVE_LINE, VALVE_LINE))
        best = payload["evidence"][0]
        self.assertEqual((best["focus_start_line"], best["focus_end_line"]), (VALVE_LINE, VALVE_LINE))

    def test_search_focus_is_the_line_an_editor_shows(self):
        hits = StoreService(self.store).search("Zephyr valve opens bar", 1)
        # A hit printed alone shows the statements around its best one too: each numbered with
        # the line an editor shows.
        self.assertIn(f"{VALVE_LINE}: The Zephyr valve opens at 40 bar of pressure.", hits[0]["focus_text"].split("\n"))
        self.assertEqual(hits[0]["focus_end_line"], VALVE_LINE)
        self.assertLessEqual(hits[0]["start_line"], VALVE_LINE)
        self.assertEqual(hits[0]["end_line"], VALVE_LINE)


class LinesFollowReindexTest(unittest.TestCase):
    """A server process keeps its service; another process edits a file and re-indexes."""

    FIRST = "Intro line one here.\nThe Zephyr valve opens at a pressure of 40 bar.\nClosing remark text.\n"
    # Same size, the fact moved to line 3: with the old modification time restored (a copy
    # that keeps time stamps), only the store's generation says the lines changed.
    SECOND = "Intro line one here.\nClosing remark text.\nThe Zephyr valve opens at a pressure of 40 bar.\n"

    def test_citations_follow_a_reindex_by_another_process(self):
        self.assertEqual(len(self.FIRST), len(self.SECOND))
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "docs").mkdir()
            path = root / "docs" / "valve.txt"
            path.write_text(self.FIRST, encoding="utf-8")
            stat = path.stat()
            KnowledgeStore(root / "store", base=root).index(root / "docs")
            server = StoreService(KnowledgeStore(root / "store", base=root))
            question = "At what pressure does the Zephyr valve open?"
            before = server.ask(question).payload["claims"][0]["citations"][0]
            self.assertEqual(before["start_line"], 2)
            # (a hit printed alone shows the lines around its best one too)
            self.assertIn("2: The Zephyr valve opens at a pressure of 40 bar.", server.search("Zephyr valve", 1)[0]["focus_text"].split("\n"))

            path.write_text(self.SECOND, encoding="utf-8")
            os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
            KnowledgeStore(root / "store", base=root).index(root / "docs")  # "another process"

            after = server.ask(question).payload["claims"][0]["citations"][0]
            self.assertEqual(after["start_line"], 3)
            self.assertIn("3: The Zephyr valve opens at a pressure of 40 bar.", server.search("Zephyr valve", 1)[0]["focus_text"].split("\n"))


if __name__ == "__main__":
    unittest.main()
