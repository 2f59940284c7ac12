"""``agentic-rag show LOCATION``: a cited span read back as its loader read it, in every format.

One folder (Markdown, reStructuredText, HTML, PDF, Word, a notebook, plain text, JSON) is
indexed once; each test runs the command line in-process in that folder. The round trip checks
that every hit ``search`` prints reads back with ``show`` of its location: each focus line is
among the lines ``show`` prints, under the same number.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import tempfile
import unittest
from contextlib import closing
from pathlib import Path

from agentic_rag._ingest.chunker import ChunkOptions, chunk_sections
from agentic_rag._ingest.loaders import load_path
from agentic_rag._interfaces.locations import location_label
from agentic_rag._interfaces.mcp_server import store_tools
from agentic_rag._interfaces.show_span import parse_location
from agentic_rag._interfaces.store_service import StoreService
from agentic_rag._store import KnowledgeStore
from agentic_rag._store.rendered_lines import ChunkText, rendered_lines
from agentic_rag._store.schema import DATABASE_NAME
from agentic_rag._text.lines import split_lines
from cli_support import run_cli
from pdf_builder import line as pdf_line, text_pdf
from test_docx_loader import docx_bytes, para, table
from test_ipynb_loader import code, markdown, notebook_json, stream

HTML = """<html><head><title>Server guide</title><style>p { color: red }</style></head><body>
<h1>Server guide</h1>
<p>The server listens on a
<b>configurable</b> port. The default
port is <code>8080</code>.</p>
<table><tr><th>setting</th><th>default</th></tr>
<tr><td>timeout</td><td>30 s</td></tr></table>
</body></html>
"""
RST = """Deployment
==========

The *worker* count is set by ``WORKERS``.

.. note::

   Restart the **service** after a change.

max_connections
   The most connections at once; default 512.
"""
MARKDOWN = """# Install

Run the **installer** with `--prefix`.

## Upgrade

- Back up the `data` folder.
- Run `migrate` once.
"""
# A long Markdown file: several chunks, overlapping, every line distinct.
LONG = "# Long\n\n" + "\n\n".join(
    "\n".join(f"Knob knob{p}x{k} is {p * 10 + k} here." for k in range(1, 4)) for p in range(1, 61)) + "\n"
PDF_PAGES = [[b"Plant report", b"The reactor output was 12 tons.", b"Staff counted forty people."],
             [b"Maintenance", b"The coolant pump failed in March 2024.", b"It was replaced by a Grundfos unit."]]
NOTEBOOK = notebook_json([
    markdown("# Training\n\nWe fit a small model."),
    code("model.fit(x, y)\n", stream("epoch 10 done\n")),
    markdown("## Results\nThe validation accuracy was 0.93 after ten epochs."),
])
WORD = docx_bytes(para("Budget", "Heading1") + para("The travel budget for 2025 is 40,000 euros.")
                  + table([["item", "cost"], ["flights", "12,000"]]))


def pdf(pages: list[list[bytes]]) -> bytes:
    return text_pdf([b"".join(pdf_line(72, 700 - 20 * i, text) for i, text in enumerate(lines)) for lines in pages])


def write_folder(root: Path) -> None:
    docs = root / "docs"
    docs.mkdir()
    (docs / "server.html").write_text(HTML)
    (docs / "deploy.rst").write_text(RST)
    (docs / "install.md").write_text(MARKDOWN)
    (docs / "long.md").write_text(LONG)
    (docs / "report.pdf").write_bytes(pdf(PDF_PAGES))
    (docs / "notes.ipynb").write_bytes(NOTEBOOK)
    (docs / "plan.docx").write_bytes(WORD)
    (docs / "readme.txt").write_text("Plain line one.\nPlain line two.\n\nPlain line four.\n")
    (docs / "records.json").write_text('[{"id": "a", "text": "Alpha record text."},\n {"id": "b", "text": "Beta record text."}]\n')


def numbered(output: str) -> list[tuple[int, str]]:
    """The ``N: text`` lines of show's text output."""
    return [(int(m.group(1)), m.group(2)) for m in re.finditer(r"^  (\d+): (.*)$", output, re.M)]


class ShowCase(unittest.TestCase):
    root: Path

    @classmethod
    def setUpClass(cls) -> None:
        cls._tmp = tempfile.TemporaryDirectory()
        cls.root = Path(cls._tmp.name)
        write_folder(cls.root)
        old = os.getcwd()
        os.chdir(cls.root)
        try:
            code_, _, err = run_cli("index", "docs", "--quiet")
        finally:
            os.chdir(old)
        assert code_ == 0, err

    @classmethod
    def tearDownClass(cls) -> None:
        cls._tmp.cleanup()

    def setUp(self) -> None:
        old = os.getcwd()
        os.chdir(self.root)
        self.addCleanup(os.chdir, old)

    def show(self, *args: str) -> str:
        code_, out, err = run_cli("show", *args)
        self.assertEqual(code_, 0, err)
        return out

    def fails(self, location: str, exit_code: int, *args: str) -> str:
        code_, out, err = run_cli("show", location, *args)
        self.assertEqual((code_, out), (exit_code, ""), err)
        return err


class FormatsTest(ShowCase):
    def test_html_prints_rendered_text_not_tags(self):
        out = self.show("docs/server.html:4")
        # Line 4 is inside a paragraph the source wraps over lines 3-5: the paragraph is one
        # rendered line, numbered by its first source line.
        self.assertEqual(out, "docs/server.html:3-5  \u00a7 Server guide\n"
                              "  3: The server listens on a configurable port. The default port is 8080.\n")
        whole = self.show("docs/server.html")
        self.assertNotIn("<", whole)
        self.assertNotIn("color: red", whole)
        self.assertIn("timeout | 30 s", whole)

    def test_markdown_and_rst_without_markup_under_their_heading_path(self):
        self.assertEqual(self.show("docs/install.md:3"), "docs/install.md:3-3  \u00a7 Install\n  3: Run the installer with --prefix.\n")
        out = self.show("docs/install.md:7-8")
        self.assertEqual(out.splitlines()[0], "docs/install.md:7-8  \u00a7 Install \u203a Upgrade")
        self.assertNotIn("`", out)
        rst = self.show("docs/deploy.rst")
        self.assertIn("  4: The worker count is set by WORKERS.", rst)
        self.assertIn("Restart the service after a change.", rst)
        self.assertNotIn("``", rst)
        self.assertNotIn(".. note::", rst)

    def test_pdf_lines_of_a_page(self):
        self.assertEqual(self.show("docs/report.pdf:p2:2-3"), "docs/report.pdf:p2:2-3\n"
                         "  2: The coolant pump failed in March 2024.\n  3: It was replaced by a Grundfos unit.\n")
        out = self.show("docs/report.pdf")
        self.assertEqual([line for line in out.splitlines() if not line.startswith(" ")], ["docs/report.pdf:p1:1-3", "docs/report.pdf:p2:1-3"])
        self.assertEqual(self.show("docs/report.pdf:p1"), "docs/report.pdf:p1:1-3\n  1: Plant report\n"
                         "  2: The reactor output was 12 tons.\n  3: Staff counted forty people.\n")

    def test_word_notebook_text_and_records(self):
        word = self.show("docs/plan.docx")
        self.assertIn("\u00a7 Budget", word.splitlines()[0])
        self.assertIn(": The travel budget for 2025 is 40,000 euros.", word)
        self.assertIn("flights | 12,000", word)
        cell = self.show("docs/notes.ipynb:c3:2")
        self.assertEqual(cell, "docs/notes.ipynb:c3:2-2  \u00a7 Training \u203a Results\n  2: The validation accuracy was 0.93 after ten epochs.\n")
        self.assertEqual(self.show("docs/readme.txt:2-4"), "docs/readme.txt:2-4\n  2: Plain line two.\n  4: Plain line four.\n")
        records = self.show("docs/records.json:2")
        self.assertEqual(numbered(records), [(2, "Beta record text.")])

    def test_json_output_is_one_line_with_blocks(self):
        code_, out, _ = run_cli("show", "docs/report.pdf:p2:2", "--json")
        self.assertEqual(code_, 0)
        self.assertEqual(out.count("\n"), 1)
        self.assertEqual(json.loads(out), {"path": "docs/report.pdf", "source": "store", "truncated": False, "next": None, "blocks": [
            {"start_line": 2, "end_line": 2, "section": "", "page": 2, "lines": [{"line": 2, "text": "The coolant pump failed in March 2024."}]}]})


class ContextAndCapTest(ShowCase):
    def source_lines(self) -> list[tuple[int, str]]:
        return [(n, text) for n, text in enumerate(split_lines(LONG), 1) if text.strip() and not text.startswith("#")]

    def test_the_whole_long_file_reads_each_line_once_across_overlapping_chunks(self):
        self.assertGreater(len(KnowledgeStore(".agentic-rag").search("knob here", k=50)), 3)
        self.assertEqual(numbered(self.show("docs/long.md", "--max-bytes", "0")), self.source_lines())

    def test_context_adds_rendered_lines_from_neighbouring_chunks(self):
        rows = self.source_lines()
        numbers = [n for n, _ in rows]
        chunks = sorted((d.metadata["start_line"], d.metadata["end_line"]) for d in KnowledgeStore(".agentic-rag").documents()
                        if d.metadata["path"] == "docs/long.md")
        (_, end0), (start1, end1), (start2, _) = chunks[:3]
        self.assertLess(start1, end0)  # the chunks overlap
        # The first line only the second chunk holds, and the last: eight lines of context
        # reach into the chunk before, and the chunk after.
        first = min(n for n in numbers if n > end0)
        last = max(n for n in numbers if n < start2)
        for target, beyond in ((first, lambda window: window[0][0] < start1), (last, lambda window: window[-1][0] > end1)):
            at = numbers.index(target)
            window = rows[at - 8:at + 9]
            self.assertTrue(beyond(window))
            self.assertEqual(numbered(self.show(f"docs/long.md:{target}", "--context", "8")), window)
            self.assertEqual(numbered(self.show(f"docs/long.md:{target}")), rows[at:at + 1])

    def test_the_byte_cap_cuts_says_so_and_reading_on_gives_the_rest(self):
        rows = self.source_lines()
        out = self.show("docs/long.md:1-200", "--max-bytes", "500")
        body, last = out.rstrip("\n").rsplit("\n", 1)
        self.assertLessEqual(len((body + "\n").encode("utf-8")), 500)
        match = re.fullmatch(r"\u2026 cut at 500 bytes \(--max-bytes\); read on with: show (\S+)", last)
        self.assertIsNotNone(match, last)
        seen = numbered(body)
        while match:
            out = self.show(match.group(1), "--max-bytes", "500")
            match = re.search(r"read on with: show (\S+)$", out)
            seen += numbered(out)
        self.assertEqual(seen, [row for row in rows if row[0] <= 200])

    def test_the_command_line_default_is_the_readers(self):
        from agentic_rag._interfaces.cli import build_parser
        from agentic_rag._interfaces.show_span import DEFAULT_MAX_BYTES

        self.assertEqual(build_parser().parse_args(["show", "a.md"]).max_bytes, DEFAULT_MAX_BYTES)

    def test_a_line_longer_than_the_cap_is_cut_itself(self):
        out = self.show("docs/server.html:3", "--max-bytes", "60")
        shown = numbered(out)
        self.assertEqual(len(shown), 1)
        self.assertTrue(shown[0][1].endswith(" \u2026"))
        self.assertIn("read on with: show docs/server.html:3-5", out)


class EndOfTextTest(ShowCase):
    def test_a_span_asked_past_the_end_says_where_the_text_ends(self):
        # Agents read a shorter span than they asked for as a cut: the output says it is the end.
        out = self.show("docs/report.pdf:p2:2-9")
        self.assertEqual(out, "docs/report.pdf:p2:2-3\n  2: The coolant pump failed in March 2024.\n"
                              "  3: It was replaced by a Grundfos unit.\n(the page's text ends at line 3)\n")
        self.assertIn("(the file's text ends at line", self.show("docs/install.md:7-400"))
        self.assertNotIn("ends at line", self.show("docs/install.md:7-8"))
        payload = json.loads(self.show("docs/report.pdf:p2:2-9", "--json"))
        self.assertEqual(payload["ends_at"], {"line": 3, "of": "page"})
        self.assertNotIn("ends_at", json.loads(self.show("docs/report.pdf:p2:2-3", "--json")))

    def test_a_page_asked_past_its_end_goes_on_to_the_next_page(self):
        # A PDF's sentences run over page breaks: readers asked for the next page's first
        # lines one call at a time. The lines asked past the end come from the next page.
        self.assertEqual(self.show("docs/report.pdf:p1:2-5"),
                         "docs/report.pdf:p1:2-3\n  2: The reactor output was 12 tons.\n  3: Staff counted forty people.\n"
                         "docs/report.pdf:p2:1-2\n  1: Maintenance\n  2: The coolant pump failed in March 2024.\n"
                         "(the page's text ends at line 3; the lines asked past it are page 2's)\n")
        payload = json.loads(self.show("docs/report.pdf:p1:3-4", "--json"))
        self.assertEqual(payload["ends_at"], {"line": 3, "of": "page", "next_page": 2})
        self.assertEqual([(block["page"], [line["line"] for line in block["lines"]]) for block in payload["blocks"]], [(1, [3]), (2, [1])])
        # Nothing asked is on the page: the span is the next page's first lines.
        self.assertEqual(self.show("docs/report.pdf:p1:5-6"),
                         "docs/report.pdf:p2:1-2\n  1: Maintenance\n  2: The coolant pump failed in March 2024.\n"
                         "(the page's text ends at line 3; the lines asked past it are page 2's)\n")
        # The last page has no next page: it ends there, as before.
        self.assertNotIn("page 3", self.show("docs/report.pdf:p2:2-9"))
        self.assertIn("is on lines 1-3", self.fails("docs/report.pdf:p2:7", 2))


class LocationTest(ShowCase):
    def test_bad_locations_name_the_value_and_the_forms(self):
        for location in ("docs/install.md:3-x", "docs/install.md:5-3", "docs/install.md:0", "docs/report.pdf:p0:1", '"docs/install.md:3',
                         "docs/install.md:q3:1"):
            with self.subTest(location=location):
                err = self.fails(location, 1)
                self.assertIn(repr(location), err)
                self.assertIn("PATH:pPAGE[:N-M]", err)

    def test_places_that_do_not_fit_the_file(self):
        self.assertIn("count within a page: give it as PATH:pPAGE:LINES", self.fails("docs/report.pdf:2", 1))
        self.assertIn("count within a cell", self.fails("docs/notes.ipynb:1", 1))
        self.assertIn("has no pages", self.fails("docs/install.md:p1:3", 1))
        self.assertIn("has no page 9", self.fails("docs/report.pdf:p9", 2))

    def test_nothing_there_exits_2_saying_where_the_text_is(self):
        self.assertIn("is on lines 3-8", self.fails("docs/install.md:40-45", 2))
        self.assertIn("is on lines 1-3", self.fails("docs/report.pdf:p2:7", 2))
        self.assertIn("no file 'docs/missing.md'", self.fails("docs/missing.md:1", 2))

    def test_a_quoted_path_as_search_prints_it(self):
        request = parse_location('"a:b \\"c\\".md":p3:4-5')
        self.assertEqual((request.path, request.page, request.start_line, request.end_line), ('a:b "c".md', 3, 4, 5))
        self.assertEqual(parse_location(r"C:\docs\a.md:7").path, r"C:\docs\a.md")
        # A shell drops the quotes: the name ends where a place or lines do.
        request = parse_location("a:p3.md:p2:4-5")
        self.assertEqual((request.path, request.page, request.start_line, request.end_line), ("a:p3.md", 2, 4, 5))
        self.assertEqual(parse_location("notes.ipynb:c7").cell, 7)


class SourcesTest(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        old = os.getcwd()
        os.chdir(tmp.name)
        self.addCleanup(os.chdir, old)
        write_folder(Path(tmp.name))

    def test_without_a_store_the_file_is_read_with_its_loader(self):
        code_, out, err = run_cli("show", "docs/server.html:4", "--json")
        self.assertEqual(code_, 0, err)
        payload = json.loads(out)
        self.assertEqual(payload["source"], "file")
        self.assertEqual(payload["blocks"][0]["lines"][0]["text"], "The server listens on a configurable port. The default port is 8080.")
        self.assertIn("no loader reads '.bin'", run_cli("show", "docs/x.bin")[2] if Path("docs/x.bin").write_bytes(b"x") else "")

    def test_the_store_shows_what_it_indexed_and_mcp_reads_only_the_store(self):
        self.assertEqual(run_cli("index", "docs/install.md", "--quiet")[0], 0)
        Path("docs/install.md").write_text("# Install\n\nChanged since.\n")
        code_, out, _ = run_cli("show", "docs/install.md:3", "--json")
        self.assertEqual((code_, json.loads(out)["source"]), (0, "store"))
        self.assertIn("Run the installer", out)  # the text search cited, not the edited file
        tools = {tool.name: tool for tool in store_tools(StoreService(KnowledgeStore(".agentic-rag", base=os.getcwd())))}
        result = tools["show"].call({"location": "./docs/install.md:3"})
        self.assertFalse(result["isError"], result)
        self.assertEqual(result["structuredContent"]["blocks"][0]["lines"], [{"line": 3, "text": "Run the installer with --prefix."}])
        refused = tools["show"].call({"location": "docs/deploy.rst:4"})  # on disk, never indexed
        self.assertTrue(refused["isError"])
        self.assertIn("no file 'docs/deploy.rst' in the store", refused["content"][0]["text"])


    def test_show_reads_rows_never_the_search_index(self):
        self.assertEqual(run_cli("index", "docs", "--quiet")[0], 0)
        for index_file in Path(".agentic-rag").glob("*.idx"):
            index_file.unlink()  # search could not run now; show reads the chunk rows alone
        code_, out, err = run_cli("show", "docs/report.pdf:p1:2", "--json")
        self.assertEqual(code_, 0, err)
        self.assertEqual((json.loads(out)["source"], json.loads(out)["blocks"][0]["lines"]),
                         ("store", [{"line": 2, "text": "The reactor output was 12 tons."}]))

    @unittest.skipUnless(sqlite3.sqlite_version_info >= (3, 35), "making a version 1 store here needs ALTER TABLE DROP COLUMN (SQLite 3.35)")
    def test_a_store_written_before_line_maps_reads_the_file(self):
        self.assertEqual(run_cli("index", "docs", "--quiet")[0], 0)
        with closing(sqlite3.connect(Path(".agentic-rag") / DATABASE_NAME)) as db, db:  # as version 1 wrote it
            for column in ("page", "cell", "line_marks"):
                db.execute(f"ALTER TABLE chunks DROP COLUMN {column}")
            db.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
        code_, out, err = run_cli("show", "docs/server.html:5", "--json")
        self.assertEqual(code_, 0, err)
        self.assertEqual((json.loads(out)["source"], json.loads(out)["blocks"][0]["lines"][0]["line"]), ("file", 3))

    def test_a_name_holding_a_colon_reads_back_in_quotes_as_printed(self):
        Path("docs/odd:name.md").write_text("# Odd\n\nA file named with a colon.\n")
        self.assertEqual(run_cli("index", "docs", "--quiet")[0], 0)
        code_, out, _ = run_cli("search", "file named with a colon", "-k", "1")
        location = out.split()[1]
        self.assertEqual(location, '"docs/odd:name.md":3-3')
        printed = (0, '"docs/odd:name.md":3-3  \u00a7 Odd\n  3: A file named with a colon.\n', "")
        self.assertEqual(run_cli("show", location), printed)
        self.assertEqual(run_cli("show", location.replace('"', "")), printed)  # as a shell passes it unquoted


class RoundTripTest(ShowCase):
    QUERIES = ("default port", "coolant pump failed", "travel budget 2025", "validation accuracy", "worker count WORKERS",
               "max_connections default", "installer prefix", "knob17x2 value", "Plain line four", "timeout default", "Beta record")

    def test_every_hit_search_prints_reads_back_with_show(self):
        checked = set()
        for query in self.QUERIES:
            code_, out, _ = run_cli("search", query, "-k", "5", "--json")
            self.assertEqual(code_, 0)
            for hit in json.loads(out):
                location = location_label({**hit, "start_line": hit["focus_start_line"], "end_line": hit["focus_end_line"]})
                with self.subTest(query=query, location=location):
                    shown = {}
                    for number, text in numbered(self.show(location)):
                        shown.setdefault(number, []).append(" ".join(text.split()))
                    for focus in hit["focus_text"].split("\n"):
                        # A record's focus lines carry no numbers (its text is no copy of its lines);
                        # a sentence wrapped over lines 3 to 5 is numbered "3-5" and stands in them.
                        match = re.fullmatch(r"(\d+)(?:-(\d+))?: (.*)", focus)
                        if match:
                            # A rendered line numbered n holds source lines n up to the next
                            # rendered line's number (an HTML paragraph over lines 3-5).
                            low, high = int(match.group(1)), int(match.group(2) or match.group(1))
                            text = match.group(3)
                            numbers = sorted(shown)
                            ends = numbers[1:] + [high + 1]
                            candidates = [" ".join(t for n, after in zip(numbers, ends) if n <= high and after > low for t in shown[n])]
                        else:
                            text, candidates = focus, [t for ts in shown.values() for t in ts]
                        pieces = [p.strip() for p in text.split("\u2026") if p.strip()]
                        self.assertTrue(any(all(p in line for p in pieces) for line in candidates), (focus, shown))
                    checked.add(Path(hit["path"]).suffix)
        self.assertEqual(checked, {".html", ".rst", ".md", ".pdf", ".docx", ".ipynb", ".txt", ".json"})


class StitchingTest(unittest.TestCase):
    def test_tiny_overlapping_chunks_rebuild_each_source_line_once(self):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "long.md"
            path.write_text(LONG)
            sections = load_path(path).sections
        source = [(n, text) for n, text in enumerate(split_lines(LONG), 1) if text.strip() and not text.startswith("#")]
        for options in (ChunkOptions(), ChunkOptions(40, 15), ChunkOptions(7, 3)):
            with self.subTest(options=options):
                chunks = chunk_sections(sections, "long.md", options, line_marks=True)
                texts = [ChunkText.of(c.n, c.text, c.line_marks, start_line=c.start_line, end_line=c.end_line, section=c.section) for c in chunks]
                self.assertEqual([(r.line, r.text) for r in rendered_lines(texts)], source)

    def test_a_paragraph_cut_across_chunks_is_one_line_numbered_by_its_first_source_line(self):
        sentences = [f"Sentence {k} of the paragraph." for k in range(12)]
        html = "<html><body><h1>T</h1>\n<p>" + "\n".join(sentences) + "</p>\n<p>After.</p></body></html>\n"
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "page.html"
            path.write_text(html)
            sections = load_path(path).sections
        chunks = chunk_sections(sections, "page.html", ChunkOptions(12, 6), line_marks=True)
        self.assertGreater(len(chunks), 3)  # the paragraph is cut at its sentences, with overlaps
        texts = [ChunkText.of(c.n, c.text, c.line_marks, start_line=c.start_line, end_line=c.end_line, section=c.section) for c in chunks]
        lines = rendered_lines(texts)
        self.assertEqual([(r.line, r.last_line, r.text) for r in lines], [(2, 13, " ".join(sentences)), (14, 14, "After.")])
        self.assertTrue(lines[0].overlaps(7, 7))


if __name__ == "__main__":
    unittest.main()
