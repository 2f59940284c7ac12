"""Citations a person can follow in PDF, Word and notebook files, from the loader to the CLI.

A PDF chunk names its page and counts lines within it (``report.pdf:p2:1-2``), a notebook
chunk its cell (``notes.ipynb:c3:2-2``); ``--json`` carries ``page`` / ``cell`` beside the
path and lines (absent for other files); the store keeps them, a version 1 store is still
read, and an unreadable PDF is listed as skipped with its reason. PDFs are built here, one
Helvetica text line per line.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
import types
import unittest
from contextlib import closing
from pathlib import Path
from unittest import mock

from agentic_rag._contracts import Snippet
from agentic_rag._errors import InvalidInputError, StoreError
from agentic_rag._ingest import PdfBackend, chunk_sections, parse_pdf, parse_source
from agentic_rag._interfaces.locations import citation_location, location_label
from agentic_rag._interfaces.text_report import snippet_location
from agentic_rag._store import KnowledgeStore
from agentic_rag._store.schema import DATABASE_NAME
from cli_support import run_cli
from test_docx_loader import docx_bytes, para
from test_ipynb_loader import code, markdown, notebook_json, stream


def pdf_bytes(pages: list[list[str]], *, encrypt: bool = False) -> bytes:
    """A small PDF: each page shows its lines top to bottom (``""`` leaves a blank line)."""
    def escape(text: str) -> str:
        return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    objects = {1: b"<< /Type /Catalog /Pages 2 0 R >>",
               3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"}
    kids = []
    number = 4
    for lines in pages:
        ops = ["BT", "/F1 12 Tf", "14 TL", "72 720 Td"] + [f"({escape(line)}) Tj T*" if line else "T*" for line in lines] + ["ET"]
        stream_data = "\n".join(ops).encode("latin-1")
        objects[number] = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (number + 1)
        objects[number + 1] = b"<< /Length %d >>\nstream\n" % len(stream_data) + stream_data + b"\nendstream"
        kids.append(number)
        number += 2
    objects[2] = b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % k for k in kids) + b"] /Count %d >>" % len(kids)
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for key in sorted(objects):
        offsets[key] = len(out)
        out += b"%d 0 obj\n" % key + objects[key] + b"\nendobj\n"
    xref, size = len(out), max(objects) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size + b"".join(b"%010d 00000 n \n" % offsets[k] for k in range(1, size))
    encryption = b" /Encrypt << /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >> /ID [<01> <01>]" if encrypt else b""
    out += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (size, encryption, xref)
    return bytes(out)


REPORT_PAGES = [
    ["Plant report", "The reactor output was 12 tons.", "", "Staff counted forty people."],
    ["Maintenance", "The coolant pump failed in March 2024.", "It was replaced by a Grundfos unit."],
]
NOTEBOOK = notebook_json([
    markdown("# Training\n\nWe fit a small model."),
    code("model.fit(x, y)\n", stream("epoch 10 done\n")),
    markdown("## Results\nThe validation accuracy was 0.93 after ten epochs."),
])
WORD = docx_bytes(para("Budget", "Heading1") + para("The travel budget for 2025 is 40,000 euros."))


def write_folder(root: Path) -> None:
    docs = root / "docs"
    docs.mkdir()
    (docs / "report.pdf").write_bytes(pdf_bytes(REPORT_PAGES))
    (docs / "notes.ipynb").write_bytes(NOTEBOOK)
    (docs / "plan.docx").write_bytes(WORD)
    (docs / "readme.md").write_text("# Readme\n\nThe office opens at nine.\n")
    (docs / "locked.pdf").write_bytes(pdf_bytes([["secret numbers"]], encrypt=True))


class PdfLoaderTest(unittest.TestCase):
    def test_each_page_is_its_own_section_with_page_lines(self):
        parsed = parse_source(pdf_bytes(REPORT_PAGES), ".pdf")
        self.assertEqual(parsed.problem, "")
        self.assertTrue(parsed.extracted)
        # Lines of text from the top of each page; the blank line between paragraphs is no line.
        self.assertEqual([(s.page, [b.line_marks for b in s.blocks]) for s in parsed.sections],
                         [(1, [((0, 1), (13, 2)), ((0, 3),)]), (2, [((0, 1), (12, 2), (51, 3))])])
        chunks = chunk_sections(parsed.sections, "report.pdf", line_marks=True)
        self.assertEqual([c.citation for c in chunks], ["report.pdf:p1:1-3", "report.pdf:p2:1-3"])

    def test_an_encrypted_pdf_is_a_problem_naming_why(self):
        parsed = parse_source(pdf_bytes([["x"]], encrypt=True), ".pdf")
        self.assertEqual(parsed.sections, ())
        self.assertIn("encrypt", parsed.problem)

    def test_pages_without_text_are_noted_and_no_text_at_all_is_a_problem(self):
        from agentic_rag._ingest.pdf import PdfExtraction, PdfPage, PdfSkippedPage

        extraction = PdfExtraction((PdfPage(2, "Only page two.\n"),), (PdfSkippedPage(1, "image only"), PdfSkippedPage(3, "image only")))
        with mock.patch("agentic_rag._ingest.pdf.extract_pdf", return_value=extraction):
            parsed = parse_pdf(b"%PDF-")
        self.assertEqual([s.page for s in parsed.sections], [2])
        self.assertEqual(parsed.notes, ("not indexed: pages 1, 3: image only",))
        with mock.patch("agentic_rag._ingest.pdf.extract_pdf", return_value=PdfExtraction((), (PdfSkippedPage(1, "image only"),))):
            self.assertEqual(parse_pdf(b"%PDF-").problem, "no text in any page (page 1: image only)")

    def test_the_pdftotext_backend_reads_the_same_bytes_from_a_temporary_file(self):
        from agentic_rag._ingest.pdf import PdfExtraction, PdfPage

        seen = []

        def fake(path, **kwargs):
            seen.append(Path(path).read_bytes())
            return PdfExtraction((PdfPage(1, "From the tool."),), ())

        with mock.patch("agentic_rag._ingest.pdf.extract_pdf_with_pdftotext", side_effect=fake):
            parsed = parse_source(b"%PDF-1.4 bytes", ".pdf", pdf="pdftotext")
        self.assertEqual(seen, [b"%PDF-1.4 bytes"])
        self.assertEqual(parsed.sections[0].blocks[0].text, "From the tool.")
        with self.assertRaises(InvalidInputError):
            parse_source(b"", ".pdf", pdf="ocr")


class StoreTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name)
        write_folder(self.root)
        self.store = KnowledgeStore(self.root / ".agentic-rag")
        self.report = self.store.index(self.root / "docs")

    def tearDown(self):
        self.tmp.cleanup()

    def test_unreadable_pdfs_are_skipped_with_their_reason(self):
        self.assertEqual(self.report.added, 4)
        ((path, reason),) = self.report.skipped
        self.assertEqual(path, "docs/locked.pdf")
        self.assertIn("encrypt", reason)

    def test_hits_carry_page_cell_and_line_map(self):
        (hit,) = self.store.search("coolant pump failed", 1)
        self.assertEqual((hit.path, hit.page, hit.cell, hit.start_line, hit.end_line), ("docs/report.pdf", 2, None, 1, 3))
        self.assertEqual(hit.citation, "docs/report.pdf:p2:1-3")
        self.assertTrue(hit.line_marks)
        (hit,) = self.store.search("validation accuracy", 1)
        self.assertEqual((hit.cell, hit.page, hit.citation), (3, None, "docs/notes.ipynb:c3:2-2"))
        (hit,) = self.store.search("office opens nine", 1)
        self.assertEqual((hit.page, hit.cell), (None, None))
        self.assertTrue(hit.line_marks)  # every stored chunk keeps its line map

    def test_the_saved_rows_keep_them_and_an_index_rebuilt_from_rows_too(self):
        documents = {d.metadata["path"]: d.metadata for d in KnowledgeStore(self.root / ".agentic-rag").documents()
                     if d.metadata.get("page") == 2 or "cell" in d.metadata}
        self.assertEqual(documents["docs/report.pdf"]["page"], 2)
        self.assertEqual(documents["docs/notes.ipynb"]["cell"], 3)
        with closing(sqlite3.connect(self.root / ".agentic-rag" / "store.sqlite3")) as db, db:
            db.execute("DELETE FROM meta WHERE key = 'bm25_stats'")  # the postings are rebuilt from the rows
        report = self.store.index(self.root / "docs")
        self.assertTrue(report.repaired)
        (hit,) = self.store.search("coolant pump failed", 1)
        self.assertEqual((hit.page, hit.citation), (2, "docs/report.pdf:p2:1-3"))

    def test_a_quote_is_placed_on_its_own_page_lines(self):
        (hit,) = self.store.search("Grundfos replaced", 1)
        meta = dict(self.store.bm25().get(hit.chunk_id).metadata)
        snippet = Snippet(id="s", corpus_id="docs", document_id=hit.chunk_id, text=hit.text, score=1.0, metadata=meta)
        where = citation_location(snippet, "It was replaced by a Grundfos unit.", self.root)
        self.assertEqual(where, {"path": "docs/report.pdf", "start_line": 3, "end_line": 3, "page": 2})
        self.assertEqual(location_label(where), "docs/report.pdf:p2:3-3")
        self.assertEqual(snippet_location(snippet), "docs/report.pdf:p2:1-3")
        # A quote not in the chunk keeps the chunk's lines; the PDF file itself is never read.
        self.assertEqual(citation_location(snippet, "not there at all", self.root)["start_line"], 1)


class PartlyReadPdfTest(unittest.TestCase):
    def test_pages_left_out_are_reported_beside_the_indexed_file(self):
        from agentic_rag._ingest.pdf import PdfExtraction, PdfPage, PdfSkippedPage

        extraction = PdfExtraction((PdfPage(2, "The second page has text."),), (PdfSkippedPage(1, "image only"),))
        with tempfile.TemporaryDirectory() as tmp, mock.patch("agentic_rag._ingest.pdf.extract_pdf", return_value=extraction):
            (Path(tmp) / "scan.pdf").write_bytes(b"%PDF-1.4 whatever")
            report = KnowledgeStore(Path(tmp) / "store").index(Path(tmp) / "scan.pdf")
            self.assertEqual((report.added, report.skipped), (1, ()))
            self.assertEqual(report.partial, (("scan.pdf", "not indexed: page 1: image only"),))
            cwd = os.getcwd()
            os.chdir(tmp)
            try:
                code, out, err = run_cli("index", "scan.pdf", "--store", "other", "--verbose")
            finally:
                os.chdir(cwd)
        self.assertEqual(code, 0, err)
        self.assertIn("partly indexed scan.pdf: not indexed: page 1: image only", out)


class StoreVersionTest(unittest.TestCase):
    @unittest.skipUnless(sqlite3.sqlite_version_info >= (3, 35), "making a version 1 store here needs ALTER TABLE DROP COLUMN (SQLite 3.35)")
    def test_a_version_1_store_is_read_then_upgraded_by_the_next_index(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "docs").mkdir()
            (root / "docs" / "a.md").write_text("# A\n\nThe office opens at nine.\n")
            store = KnowledgeStore(root / "store")
            store.index(root / "docs")
            database = root / "store" / DATABASE_NAME
            with closing(sqlite3.connect(database)) as db, db:  # as version 1 wrote it: no place columns
                for column in ("page", "cell", "line_marks"):
                    db.execute(f"ALTER TABLE chunks DROP COLUMN {column}")
                db.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
            old = KnowledgeStore(root / "store")
            self.assertEqual(len(list(old.documents())), 1)
            self.assertEqual(old.search("office", 1)[0].citation, "docs/a.md:3-3")
            (root / "docs" / "r.pdf").write_bytes(pdf_bytes(REPORT_PAGES))
            report = old.index(root / "docs")
            self.assertEqual((report.added, report.unchanged), (1, 1))
            with closing(sqlite3.connect(database)) as db:
                self.assertEqual(db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone(), ("3",))
                self.assertEqual(db.execute("SELECT DISTINCT page FROM chunks ORDER BY page").fetchall(), [(None,), (1,), (2,)])

    def test_a_newer_version_is_refused_with_a_clear_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "a.md").write_text("words here\n")
            store = KnowledgeStore(Path(tmp) / "store")
            store.index(Path(tmp) / "a.md")
            with closing(sqlite3.connect(Path(tmp) / "store" / DATABASE_NAME)) as db, db:
                db.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
            with self.assertRaises(StoreError) as caught:
                store.search("words", 1)
            self.assertIn("schema version 4; this library reads versions 1 to 3", str(caught.exception))


class PdfBackendOptionTest(unittest.TestCase):
    def test_asking_for_pdftotext_without_it_is_a_clear_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "a.md").write_text("words here\n")
            with mock.patch("agentic_rag._ingest.pdf_backend.shutil.which", return_value=None):
                with self.assertRaises(InvalidInputError) as caught:
                    KnowledgeStore(Path(tmp) / "store", pdf="pdftotext").index(tmp)
                self.assertIn("pdftotext program (poppler-utils) on PATH", str(caught.exception))
                self.assertFalse((Path(tmp) / "store").exists())
                cwd = os.getcwd()
                os.chdir(tmp)
                try:
                    code, out, err = run_cli("index", ".", "--pdf", "pdftotext", "--quiet")
                finally:
                    os.chdir(cwd)
            self.assertEqual(code, 1)
            self.assertIn("pdftotext", err)
            with self.assertRaises(InvalidInputError):
                KnowledgeStore(Path(tmp) / "store", pdf="ocr")

    def test_switching_the_extractor_re_reads_only_the_pdfs(self):
        fake_tool = types.SimpleNamespace()
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            write_folder(root)
            KnowledgeStore(root / "store").index(root / "docs")
            from agentic_rag._ingest.pdf import PdfExtraction, PdfPage

            fake_tool.calls = 0

            def fake(path, **kwargs):
                fake_tool.calls += 1
                return PdfExtraction((PdfPage(1, "Tool text."),), ())

            with mock.patch("agentic_rag._ingest.pdf_backend.shutil.which", return_value="/bin/true"), \
                    mock.patch("agentic_rag._ingest.pdf.extract_pdf_with_pdftotext", side_effect=fake):
                report = KnowledgeStore(root / "store", pdf=PdfBackend.PDFTOTEXT).index(root / "docs")
        self.assertEqual((report.updated, report.unchanged, fake_tool.calls), (1, 3, 2))

    @unittest.skipUnless(shutil.which("pdftotext"), "pdftotext is not installed")
    def test_pdftotext_gives_page_citations_too(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "r.pdf").write_bytes(pdf_bytes(REPORT_PAGES))
            store = KnowledgeStore(Path(tmp) / "store", pdf="pdftotext")
            store.index(Path(tmp) / "r.pdf")
            (hit,) = store.search("coolant pump failed", 1)
            self.assertEqual(hit.page, 2)


class CommandLineTest(unittest.TestCase):
    """The end-to-end path: index a folder of PDF, Word and notebook files, then ask it."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.root = Path(cls.tmp.name)
        write_folder(cls.root)
        cls.cwd = os.getcwd()
        os.chdir(cls.root)
        code, cls.index_out, err = run_cli("index", "docs", "--verbose")
        assert code == 0, err

    @classmethod
    def tearDownClass(cls):
        os.chdir(cls.cwd)
        cls.tmp.cleanup()

    def test_index_lists_the_encrypted_pdf_as_skipped(self):
        self.assertIn("skipped docs/locked.pdf: encrypted", self.index_out)

    def test_ask_cites_a_page_and_a_cell(self):
        code, out, err = run_cli("ask", "When did the coolant pump fail?")
        self.assertEqual(code, 0, err)
        self.assertIn("docs/report.pdf:p2:", out)
        code, payload, err = run_cli("ask", "What was the validation accuracy?", "--json")
        self.assertEqual(code, 0, err)
        payload = json.loads(payload)
        citations = [c for claim in payload["claims"] for c in claim["citations"]]
        self.assertIn({"path": "docs/notes.ipynb", "cell": 3, "start_line": 2, "end_line": 2},
                      [{k: c[k] for k in ("path", "cell", "start_line", "end_line") if k in c} for c in citations])
        self.assertEqual(payload["evidence"][0]["cell"], 3)
        self.assertNotIn("page", payload["evidence"][0])
        code, out, err = run_cli("ask", "What was the validation accuracy?")
        self.assertIn("docs/notes.ipynb:c3:2-2", out)

    def test_search_json_carries_page_or_cell_and_nothing_for_other_files(self):
        code, out, err = run_cli("search", "replaced by a Grundfos unit", "--json", "-k", "1")
        (hit,) = json.loads(out)
        self.assertEqual((hit["path"], hit["page"], hit["start_line"], hit["end_line"]), ("docs/report.pdf", 2, 1, 3))
        # The best lines are placed through the chunk's line map: line 3 of page 2 (a hit printed
        # alone shows the lines above it too).
        self.assertEqual(hit["focus_end_line"], 3)
        self.assertIn("3: It was replaced by a Grundfos unit.", hit["focus_text"].split("\n"))
        code, out, err = run_cli("search", "replaced by a Grundfos unit", "-k", "1")
        self.assertIn(f"docs/report.pdf:p2:{hit['focus_start_line']}-3  relevance", out)  # the focus lines, on their page
        self.assertIn("   3: It was replaced by a Grundfos unit.", out)
        code, out, err = run_cli("search", "office opens", "--json", "-k", "1")
        (hit,) = json.loads(out)
        self.assertEqual(hit["path"], "docs/readme.md")
        self.assertFalse({"page", "cell"} & set(hit))
        code, out, err = run_cli("search", "travel budget euros", "-k", "1")
        self.assertIn("docs/plan.docx:2-2", out)

    def test_mcp_tools_carry_page_and_cell_within_their_output_schemas(self):
        from agentic_rag._interfaces.mcp_server import build_store_tools
        from agentic_rag._interfaces.store_service import StoreService

        service = StoreService(KnowledgeStore(self.root / ".agentic-rag", base=self.root))
        search, ask, _ = build_store_tools(lambda q, k, c, n: service.search(q, k, c, context=n),
                                           lambda q, m, e, f: service.ask(q, m.value, evidence=e, full_text=f).payload, service.corpora)
        result = search.call({"query": "coolant pump failed", "k": 1})
        self.assertIs(result.get("isError", False), False, result)
        self.assertEqual(result["structuredContent"]["hits"][0]["page"], 2)
        result = ask.call({"question": "What was the validation accuracy?", "mode": "agentic", "evidence": 1})
        self.assertIs(result.get("isError", False), False, result)
        self.assertEqual(result["structuredContent"]["evidence"][0]["cell"], 3)

    def test_the_html_report_shows_the_page(self):
        code, out, err = run_cli("ask", "When did the coolant pump fail?", "--report", "run.html")
        self.assertEqual(code, 0, err)
        page = (self.root / "run.html").read_text()
        self.assertIn("docs/report.pdf:p2:", page)


if __name__ == "__main__":
    unittest.main()
