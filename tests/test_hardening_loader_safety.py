"""No exception escapes a loader, nothing outside the folder is read, and text carries no
invisible controls (hardening round 2, rows 5, 6, 9, 10, 11 and 17)."""

from __future__ import annotations

import os
import tempfile
import unittest
from pathlib import Path
from unittest import mock

import hostile_inputs as hostile
from pdf_builder import line, text_pdf

from agentic_rag._ingest import chunk_sections, loaders, parse_source, read_source
from agentic_rag._ingest import pdf as pdf_package
from agentic_rag._ingest.pdf import extract_pdf, extract_pdf_strict
from agentic_rag._store import KnowledgeStore
from agentic_rag._store import index_plan

_INVISIBLE = ("\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\ufeff")


class FolderTestCase(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.base = Path(tmp.name)
        self.root = self.base / "kb"
        self.root.mkdir()
        (self.root / "good.md").write_text("Wombats dig long burrows.\n", encoding="utf-8")
        self.store = KnowledgeStore(self.base / ".agentic-rag")


class PdfStructureTest(unittest.TestCase):
    """Row 5: numbers and offsets that once raised now read as broken structure."""

    def test_a_startxref_past_the_end_falls_back_to_the_scan(self):
        _, data = hostile.pdf_long_startxref()
        result = extract_pdf_strict(data)
        self.assertEqual([page.text for page in result.pages], ["found by the scan"])

    def test_a_hundred_thousand_digit_number_is_no_error(self):
        _, data = hostile.pdf_huge_number(digits=100_000)
        result = extract_pdf_strict(data)
        self.assertEqual([page.text for page in result.pages], ["after the number"])

    def test_a_length_referring_to_its_own_stream_is_no_recursion(self):
        _, data = hostile.pdf_self_length()
        result = extract_pdf_strict(data)
        self.assertEqual([page.text for page in result.pages], ["length of itself"])


class PageFailureTest(unittest.TestCase):
    """A failure on one page (a bug, say) costs that page, not the file."""

    def test_the_other_pages_are_kept(self):
        data = text_pdf([line(72, 700, b"page %d" % n) for n in (1, 2, 3)])
        real = pdf_package.page_text

        def fail_on_two(runs, **kwargs):
            laid_out = real(runs, **kwargs)
            if laid_out.text == "page 2":
                raise IndexError("a bug on page 2")
            return laid_out

        with mock.patch.object(pdf_package, "page_text", side_effect=fail_on_two):
            result = extract_pdf(data)
            with self.assertRaises(IndexError):
                extract_pdf_strict(data)  # the fuzz harness's entry point still sees the bug
        self.assertEqual([p.text for p in result.pages], ["page 1", "page 3"])
        self.assertIn("unreadable page (IndexError", result.skipped[0].reason)


class WordEncodingTest(FolderTestCase):
    """Row 6: an encoding the XML parser cannot read is that file's problem, not the run's."""

    def test_shift_jis_and_unknown_encodings_are_problems(self):
        for encoding in ("Shift_JIS", "x-no-such-encoding"):
            with self.subTest(encoding=encoding):
                _, data = hostile.docx_declared_encoding(encoding)
                parsed = parse_source(data, ".docx")
                self.assertIn("declares an encoding that cannot be read", parsed.problem)

    def test_the_index_run_goes_on(self):
        (self.root / "sjis.docx").write_bytes(hostile.docx_declared_encoding("Shift_JIS")[1])
        report = self.store.index([self.root])
        self.assertEqual(report.added, 1)
        self.assertIn("encoding", dict(report.skipped)["kb/sjis.docx"])


class WordDtdTest(unittest.TestCase):
    """Row 9: a DTD is found by parsing, so UTF-16 hides none."""

    def test_a_utf16_part_with_an_internal_dtd_is_refused(self):
        _, data = hostile.docx_utf16_dtd()
        parsed = parse_source(data, ".docx")
        self.assertIn("declares a DTD", parsed.problem)
        self.assertNotIn("EXPANDED", parsed.text)

    def test_a_utf16_part_without_a_dtd_is_read(self):
        xml = ('<?xml version="1.0" encoding="UTF-16"?><w:document ' + hostile.W_NS.decode()
               + '><w:body><w:p><w:r><w:t>sixteen bits</w:t></w:r></w:p></w:body></w:document>')
        parsed = parse_source(hostile.docx(xml.encode("utf-16")), ".docx")
        self.assertEqual(parsed.text, "sixteen bits")


class LoneSurrogateTest(FolderTestCase):
    """Row 10: a lone surrogate escape in JSON cannot stop an index run."""

    def test_each_json_format_is_indexed_with_a_replacement_character(self):
        for ending in (".ipynb", ".json", ".jsonl"):
            with self.subTest(ending=ending):
                _, data = hostile.lone_surrogate(ending)
                parsed = parse_source(data, ending)
                self.assertIn("emoji \ufffd here", parsed.text)
                for chunk in chunk_sections(parsed.sections, "x" + ending):
                    chunk.text.encode("utf-8")
                (self.root / ("half" + ending)).write_bytes(data)
        report = self.store.index([self.root])
        self.assertEqual((report.added, report.skipped), (4, ()))
        self.assertTrue(self.store.search("emoji"))


class LoaderFailureTest(FolderTestCase):
    """Row 2 of the build list: any loader's failure is a listed problem, never a traceback."""

    def test_a_loader_bug_is_the_files_problem(self):
        (self.root / "odd.md").write_text("# Odd\n", encoding="utf-8")
        with mock.patch.dict(loaders.PARSERS, {".md": mock.Mock(side_effect=KeyError("surprise"))}):
            parsed = parse_source(b"# x\n", ".md")
            self.assertIn("could not be read (KeyError", parsed.problem)
            report = self.store.index([self.root])
        self.assertEqual(report.added, 0)
        self.assertEqual(len(report.skipped), 2)


@unittest.skipUnless(hasattr(os, "symlink"), "symbolic links are not available here")
class ReadTimeLinkTest(FolderTestCase):
    """Row 11: a link re-pointed outside the folder between the walk and the read is refused."""

    def setUp(self) -> None:
        super().setUp()
        (self.root / "inside.md").write_text("Quokkas smile inside.\n", encoding="utf-8")
        self.outside = self.base / "secret.md"
        self.outside.write_text("Platypus secrets outside.\n", encoding="utf-8")
        try:
            os.symlink(self.root / "inside.md", self.root / "link.md")
        except OSError:
            self.skipTest("this file system refuses symbolic links")

    def _repoint(self) -> None:
        os.unlink(self.root / "link.md")
        os.symlink(self.outside, self.root / "link.md")

    def test_read_source_checks_the_real_path_when_reading(self):
        self.assertFalse(read_source(self.root / "link.md", within=self.root).problem)
        self._repoint()
        source = read_source(self.root / "link.md", within=self.root)
        self.assertIn("outside the indexed root", source.problem)
        self.assertEqual(source.data, b"")

    def test_an_index_run_does_not_read_the_new_target(self):
        real_walk = index_plan.walk_tree

        def walk_then_repoint(*args, **kwargs):
            result = real_walk(*args, **kwargs)
            self._repoint()
            return result

        with mock.patch.object(index_plan, "walk_tree", side_effect=walk_then_repoint):
            report = self.store.index([self.root])
        self.assertIn("outside the indexed root", dict(report.skipped)["kb/link.md"])
        self.assertEqual(self.store.search("platypus secrets"), [])

    def test_a_file_swapped_for_a_fifo_is_not_waited_for(self):
        if not hasattr(os, "mkfifo"):
            self.skipTest("no FIFOs here")
        fifo = self.root / "pipe.md"
        os.mkfifo(fifo)
        self.assertIn("not a regular file", read_source(fifo, within=self.root).problem)


class InvisibleControlsTest(unittest.TestCase):
    """Row 17: bidirectional controls and byte-order marks are dropped from indexed text."""

    def test_a_font_map_giving_a_right_to_left_override(self):
        _, data = hostile.pdf_bidi()
        parsed = parse_source(data, ".pdf")
        self.assertEqual(parsed.text, "safe text")

    def test_every_format_and_the_line_map_after_removal(self):
        text = "one \u202eevil\u202c line\nsecond \ufeffline\n\u2066\u2069\nthird line\n"
        parsed = parse_source(text.encode("utf-8"), ".txt")
        self.assertFalse(any(mark in parsed.text for mark in _INVISIBLE))
        (block,) = parsed.sections[0].blocks
        # The line that held only controls is left empty; every line keeps its number.
        self.assertEqual(block.text, "one evil line\nsecond line\n\nthird line")
        self.assertEqual([block.line_at(block.text.index(word)) for word in ("one", "second", "third")], [1, 2, 4])
        heading = parse_source("# Ti\u202etle\n\nbody\n".encode("utf-8"), ".md")
        self.assertEqual(heading.sections[0].title, "Title")


if __name__ == "__main__":
    unittest.main()
