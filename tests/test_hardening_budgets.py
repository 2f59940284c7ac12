"""One work budget per file (hardening round 2, rows 1-4, 7, 8 and 15): a crafted file that asks
for unbounded bytes, operators, characters, elements or cells is stopped at its budget, with the
reason listed and what was read before it kept.

Each input is built small and read with small limits, so the tests stay fast; the full-size
inputs are timed by ``bench/ingestion/bench_hostile_inputs.py``.
"""

from __future__ import annotations

import io
import tracemalloc
import zipfile
import unittest
from unittest import mock

import hostile_inputs as hostile
from pdf_builder import text_pdf

from agentic_rag._ingest import chunk_sections, docx_parts, parse_source
from agentic_rag._ingest.docx_loader import _inherit_levels
from agentic_rag._ingest.pdf import extract_pdf, extract_pdf_strict
from agentic_rag._ingest.pdf import layout
from agentic_rag._ingest.pdf.cmaps import parse_cmap
from agentic_rag._ingest.work_budget import IngestLimits, WorkBudget

MiB = 1024 * 1024


def _peak_mib(fn) -> tuple[object, float]:
    tracemalloc.start()
    try:
        result = fn()
        return result, tracemalloc.get_traced_memory()[1] / MiB
    finally:
        tracemalloc.stop()


class DecodedBytesTest(unittest.TestCase):
    """Row 1: RunLength and ASCII85 output is charged as it is produced, not after."""

    def test_runlength_after_flate_stops_at_the_budget(self):
        _, data = hostile.pdf_runlength_bomb(pairs=200_000)  # would decode to 25.6 MB
        budget = WorkBudget(IngestLimits(max_decoded_bytes=MiB))
        result, peak = _peak_mib(lambda: extract_pdf_strict(data, budget=budget))
        self.assertIn("over a work limit", result.problem)
        self.assertIn("decoded streams", result.problem)
        self.assertLess(budget.decoded_bytes, MiB + 2 * 65536)
        self.assertLess(peak, 8, "the stream was decoded before the budget was charged")

    def test_ascii85_zero_groups_after_flate_stop_at_the_budget(self):
        _, data = hostile.pdf_ascii85_bomb(zeros=1_000_000)  # would decode to 4 MB
        budget = WorkBudget(IngestLimits(max_decoded_bytes=MiB // 2))
        result, peak = _peak_mib(lambda: extract_pdf_strict(data, budget=budget))
        self.assertIn("over a work limit", result.problem)
        self.assertLess(peak, 3.5, "the stream was decoded before the budget was charged")

    def test_bytes_through_byte_by_byte_filters_are_bounded(self):
        _, data = hostile.pdf_runlength_bomb(pairs=100_000)
        result = parse_source(data, ".pdf", limits=IngestLimits(max_filter_input_bytes=50_000))
        self.assertIn("ASCII85, LZW, RunLength", result.problem)


class ContentTokensTest(unittest.TestCase):
    """Row 2: the operator budget is the file's, over every page, not each page's."""

    def test_nested_forms_drawn_on_every_page_share_one_budget(self):
        _, data = hostile.pdf_nested_forms(depth=5, fanout=8, pages=10)
        budget = WorkBudget(IngestLimits(max_content_tokens=20_000))
        result = extract_pdf_strict(data, budget=budget)
        self.assertEqual(result.pages, ())
        self.assertIn("operators, operands and objects", result.problem)
        self.assertEqual(len(result.skipped), 10, "every page is listed with the reason")
        self.assertLessEqual(budget.content_tokens, 20_000 + 64)

    def test_pages_read_before_the_budget_ran_out_are_kept(self):
        pages = [hostile.line(72, 700, b"page %d" % n) for n in range(1, 6)]
        data = text_pdf(pages)
        full = WorkBudget()
        self.assertEqual(len(extract_pdf(data, budget=full).pages), 5)
        # The smallest budget that reads some pages but not all: those read are kept, in order,
        # and every page after them is listed with the reason.
        for limit in range(10, full.content_tokens):
            result = extract_pdf(data, budget=WorkBudget(IngestLimits(max_content_tokens=limit)))
            if result.pages:
                break
        read = [p.number for p in result.pages]
        self.assertEqual(read, list(range(1, len(read) + 1)))
        self.assertLess(len(read), 5)
        self.assertEqual([p.number for p in result.skipped], list(range(len(read) + 1, 6)))
        self.assertIn("over a work limit", result.skipped[0].reason)
        parsed = parse_source(data, ".pdf", limits=IngestLimits(max_content_tokens=limit))
        self.assertEqual([s.page for s in parsed.sections], read)
        self.assertIn(": over a work limit", parsed.notes[0])


class LayoutTest(unittest.TestCase):
    """Row 3: a page with more words than the layout budget is read line by line, linearly."""

    def test_a_crowded_page_skips_block_building_and_reads_top_to_bottom(self):
        _, data = hostile.pdf_many_runs(runs=3000, per_line=50)
        with mock.patch.object(layout, "_build_blocks", side_effect=AssertionError("block layout on a crowded page")):
            parsed = parse_source(data, ".pdf", limits=IngestLimits(max_layout_words=500))
        self.assertFalse(parsed.problem)
        lines = parsed.sections[0].blocks[0].text.split("\n")
        self.assertEqual(len(lines), 60)
        self.assertTrue(lines[0].startswith("w0 w1 w2"), lines[0][:40])
        self.assertTrue(lines[1].startswith("w50 w51"), lines[1][:40])


class CharactersTest(unittest.TestCase):
    """Row 4: a font map cannot turn one code into thousands of characters, and the file's
    characters are bounded."""

    def test_a_mapping_is_cut_to_the_specification_limit(self):
        destination = ("x" * 30_000).encode("utf-16-be").hex().encode()
        cmap = parse_cmap(b"1 beginbfchar <41> <" + destination + b"> endbfchar")
        self.assertEqual(len(cmap.unicode[0x41]), 256)

    def test_shown_text_is_charged_before_it_is_kept(self):
        _, data = hostile.pdf_to_unicode_bomb(chars=30_000, shows=2_000)
        parsed = parse_source(data, ".pdf", limits=IngestLimits(max_chars=100_000))
        self.assertIn("characters of text", parsed.problem)
        parsed = parse_source(data, ".pdf")
        self.assertEqual(len(parsed.text), 256 * 2_000)


class WordElementsTest(unittest.TestCase):
    """Row 7: Word parts are parsed as a stream, each element charged; what was read is kept."""

    def test_a_flood_of_empty_elements_is_refused(self):
        _, data = hostile.docx_empty_elements(count=200_000)
        parsed, peak = _peak_mib(lambda: parse_source(data, ".docx", limits=IngestLimits(max_elements=20_000)))
        self.assertIn("XML elements", parsed.problem)
        self.assertLess(peak, 40)

    def test_paragraphs_past_the_budget_are_named_and_the_rest_kept(self):
        _, data = hostile.docx_paragraphs(count=20_000)
        parsed = parse_source(data, ".docx", limits=IngestLimits(max_elements=3_000))
        self.assertFalse(parsed.problem)
        self.assertIn("over a work limit", parsed.notes[0])
        kept = sum(len(s.blocks) for s in parsed.sections)
        self.assertTrue(300 < kept < 1_100, kept)

    def test_notes_past_the_budget_leave_the_body_indexed(self):
        body = hostile.body(b'<w:p><w:r><w:t>Body text</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p>')
        notes = (b"<w:footnotes " + hostile.W_NS + b'><w:footnote w:id="1">' + hostile.paragraph("note") * 2_000
                 + b"</w:footnote></w:footnotes>")
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as archive:
            archive.writestr("word/document.xml", body)
            archive.writestr("word/footnotes.xml", notes)
        parsed = parse_source(out.getvalue(), ".docx", limits=IngestLimits(max_elements=1_000))
        self.assertEqual(parsed.text, "Body text[1]")
        self.assertIn("footnotes and endnotes not indexed: over a work limit", parsed.notes[0])

    def test_paragraphs_are_dropped_once_read(self):
        _, data = hostile.docx_paragraphs(count=2_000)
        roots = []
        real = docx_parts.stream_xml

        def keep_root(*args, **kwargs):
            roots.append(real(*args, **kwargs))
            return roots[-1]

        with mock.patch.object(docx_parts, "stream_xml", side_effect=keep_root):
            parsed = parse_source(data, ".docx")
        self.assertEqual(sum(len(s.blocks) for s in parsed.sections), 2_000)
        # Each paragraph was read as it ended and dropped: the tree never held the body.
        body = roots[0][0]
        self.assertTrue(body.tag.endswith("}body"))
        self.assertEqual(len(body), 0)


class _Counted(str):
    """A style id that counts equality tests (a list membership test makes one per item)."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        _Counted.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


class StyleChainTest(unittest.TestCase):
    """Row 8: the ``basedOn`` chain walk is linear."""

    def test_a_long_chain_is_walked_in_linear_comparisons(self):
        length = 3_000
        ids = [_Counted(f"s{n}") for n in range(length)]
        based = {ids[n]: ids[n - 1] for n in range(length - 1, 0, -1)}  # newest first: long walks
        levels = {ids[0]: 1}
        _Counted.compared = 0
        _inherit_levels(levels, based)
        self.assertEqual(levels[ids[-1]], 1)
        self.assertLess(_Counted.compared, 20 * length, "quadratic: a list membership test per step")

    def test_a_styled_paragraph_at_the_end_of_a_chain_is_a_heading(self):
        _, data = hostile.docx_based_on_chain(length=2_000)
        parsed = parse_source(data, ".docx")
        self.assertEqual([s.title for s in parsed.sections], ["Deep heading"])


class NotebookTest(unittest.TestCase):
    """Row 15: notebook cells are grouped into chunks, and cells are charged."""

    def test_small_cells_make_few_chunks(self):
        _, data = hostile.notebook_cells(count=3_000)
        parsed = parse_source(data, ".ipynb")
        chunks = chunk_sections(parsed.sections, "nb.ipynb", line_marks=True)
        self.assertLess(len(chunks), 300, "one chunk per cell")

    def test_cells_past_the_budget_are_named_and_the_rest_kept(self):
        _, data = hostile.notebook_cells(count=500)
        parsed = parse_source(data, ".ipynb", limits=IngestLimits(max_cells=100))
        self.assertFalse(parsed.problem)
        self.assertEqual(parsed.notes, ("cells 101-500 not indexed: over a work limit: more notebook cells than one file may hold (limit 100)",))
        self.assertIn("x_99 = 99 + 1", parsed.text)
        self.assertNotIn("x_100 = 100 + 1", parsed.text)


class ChunkCapTest(unittest.TestCase):
    def test_chunking_stops_at_the_cap(self):
        _, data = hostile.notebook_cells(count=3_000)
        parsed = parse_source(data, ".ipynb")
        chunks = chunk_sections(parsed.sections, "nb.ipynb", max_chunks=3)
        self.assertEqual([c.n for c in chunks], [0, 1, 2])


class LimitsTest(unittest.TestCase):
    def test_limits_are_checked(self):
        from agentic_rag._errors import InvalidInputError

        with self.assertRaises(InvalidInputError):
            IngestLimits(max_chars=0)
        with self.assertRaises(InvalidInputError):
            parse_source(b"x", ".txt", limits={"max_chars": 1})


if __name__ == "__main__":
    unittest.main()
