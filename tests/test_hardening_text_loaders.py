"""The text loaders within one work budget, in linear time (hardening round 3, rows 1-10 and
25-27).

Each input is built small (with small limits where a budget is what stops it), at a size where
the old code took seconds to minutes; the tests assert what the loader makes, the work it
counts or the memory it holds, never seconds. The full-size inputs are measured by
``bench/ingestion/bench_hostile_inputs.py``.
"""

from __future__ import annotations

import json
import random
import re
import tracemalloc
import unittest
from unittest import mock

import hostile_inputs as hostile

from agentic_rag._ingest import chunk_sections, html_loader, markdown_loader, parse_source, text_format
from agentic_rag._ingest.blocks import TextBlock, TextSection
from agentic_rag._ingest.markdown_loader import _unquoted, parse_markdown
from agentic_rag._ingest.rst_inline import _named_refs, _without_target, clean_rst_line
from agentic_rag._ingest.template_html import template_share
from agentic_rag._ingest.work_budget import IngestLimits
from agentic_rag._answering import earned
from agentic_rag._interfaces.locations import marked_span
from agentic_rag._text import relevance

MiB = 1024 * 1024


class _CountedMarks(tuple):
    """A line map that counts the marks read from it."""

    read = 0

    def __iter__(self):
        _CountedMarks.read += len(self)
        return super().__iter__()

    def __getitem__(self, key):
        item = super().__getitem__(key)
        _CountedMarks.read += len(item) if isinstance(key, slice) else 1
        return item


class ChunkerLinesTest(unittest.TestCase):
    """Row 1: a block of many short lines costs marks read in proportion to its lines."""

    def test_the_line_map_is_read_once_not_once_per_chunk(self):
        lines = 20_000
        text = "\n".join("word" for _ in range(lines))
        block = TextBlock(text, tuple((5 * n, n + 1) for n in range(lines)))
        object.__setattr__(block, "line_marks", _CountedMarks(block.line_marks))
        _CountedMarks.read = 0
        chunks = chunk_sections((TextSection((block,)),), "a.txt", line_marks=True)
        self.assertGreater(len(chunks), 100)
        self.assertEqual([c.line_marks[0][1] for c in chunks[:2]], [1, chunks[1].start_line])
        self.assertEqual(chunks[-1].end_line, lines)
        # Every chunk reads the marks inside it (with its overlap) and a bisection's worth;
        # scanning the whole map per chunk read len(chunks) * lines, over 2 million here.
        self.assertLess(_CountedMarks.read, 4 * lines)

    def test_every_variant_of_a_long_block_is_chunked_with_its_lines(self):
        for ending in (".txt", ".md-list", ".md-fence", ".md-table", ".rst-fields", ".html-pre"):
            with self.subTest(ending=ending):
                suffix, data = hostile.text_short_lines(ending, size=60_000)
                parsed = parse_source(data, suffix)
                self.assertEqual(parsed.problem, "")
                chunks = chunk_sections(parsed.sections, "f" + suffix, line_marks=True)
                self.assertGreater(len(chunks), 20)
                self.assertGreater(chunks[-1].end_line, data.count(b"\n") - 3)


class RoleSniffTest(unittest.TestCase):
    """Row 2: the reStructuredText sniffing of a ``.txt`` file."""

    def test_text_without_a_role_ending_is_never_searched_for_roles(self):
        _, data = hostile.text_role_sniff(size=30_000)
        with mock.patch.object(text_format, "_ROLE") as role:
            self.assertFalse(text_format.looks_like_rst(data.decode()))
        role.finditer.assert_not_called()
        role.findall.assert_not_called()

    def test_role_names_are_bounded_and_counting_stops_at_the_threshold(self):
        title = "Title\n=====\n\n"
        roles = " ".join(f":ref:`r{n}`" for n in range(3))
        self.assertTrue(text_format.looks_like_rst(title + roles))
        long_name = " ".join(f":{'a' * 80}:`r{n}`" for n in range(3))
        self.assertFalse(text_format.looks_like_rst(title + long_name))
        hostile_line = ":a-" * 100_000 + " :x:`y`"
        self.assertFalse(text_format.looks_like_rst(title + hostile_line))


# The named-reference pattern the one-pass reader replaces: the reference it must agree with.
_OLD_NAMED_REF = re.compile(r"(?<![\w`])([A-Za-z0-9](?:[\w.+-]*?[A-Za-z0-9])?)__?(?![\w])")
_OLD_LINK_TARGET = re.compile(r"\s*<[^<>]*>\s*$|^\s*<[^<>]*>\s*$")
_OLD_QUOTE = re.compile(r"^[ \t]{0,3}(>[ \t]?)+")
_OLD_DOTTED = re.compile(r"(?<![\w.])\d+(?:\.\d+)+(?![\w.]*\d)")
_OLD_IDENTIFIER = re.compile(r"\w+(?:[._]\w+)+|\w+\(|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*")


def _random_strings(alphabet: str, count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        yield "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))


class NamedReferenceTest(unittest.TestCase):
    """Row 3: ``a.`` repeated then ``_`` (the named-reference pattern was quadratic)."""

    def test_it_agrees_with_the_pattern_on_random_text(self):
        for text in _random_strings("a1_.+-` éZ_", 20_000, 3):
            self.assertEqual(_named_refs(text), _OLD_NAMED_REF.sub(r"\1", text), text)

    def test_a_long_line_is_read_in_one_pass(self):
        suffix, data = hostile.rst_named_reference(size=400_000)  # the pattern: about 17 minutes
        self.assertEqual(parse_source(data, suffix).text, data.decode().strip())  # no name ends at "._"
        self.assertEqual(parse_source(data[:-2] + b"a_\n", suffix).text, data.decode()[:-2] + "a")


class WideTableTest(unittest.TestCase):
    """Row 4: every cell a border's columns give a row is charged before it is cut."""

    def test_a_border_of_many_columns_is_refused_at_the_budget(self):
        suffix, data = hostile.rst_wide_table(columns=2_000, rows=30)
        parsed = parse_source(data, suffix, limits=IngestLimits(max_units=20_000))
        self.assertIn("over a work limit", parsed.problem)
        self.assertIn("table cells", parsed.problem)

    def test_an_ordinary_table_is_read(self):
        suffix, data = hostile.rst_wide_table(columns=3, rows=2)
        self.assertEqual(parse_source(data, suffix).text, "x | y | \nx | y | ")


class CsvBudgetTest(unittest.TestCase):
    """Rows 5, 9 and 10: the CSV loader within the budget, whatever its fields."""

    def test_repeated_header_text_is_charged_as_it_is_made(self):
        suffix, data = hostile.csv_long_header(size=200_000, columns=20, name_chars=500)
        parsed = parse_source(data, suffix, limits=IngestLimits(max_chars=100_000))
        self.assertIn("characters of text", parsed.problem)
        self.assertEqual(parse_source(data[:30_000], suffix).problem, "")

    def test_a_cell_over_the_modules_default_limit_is_read(self):
        suffix, data = hostile.csv_big_field(chars=200_000)
        parsed = parse_source(data, suffix)
        self.assertEqual(parsed.problem, "")
        self.assertEqual([s.record_id for s in parsed.sections], ["1", "2", "3"])
        self.assertEqual(parsed.sections[1].blocks[0].text, "id: 2\ntext: " + "x" * 200_000)


class ManyUnitsTest(unittest.TestCase):
    """Row 9: rows, records, headings and lines are charged as they are made."""

    def test_each_kind_is_stopped_at_the_budget(self):
        for kind in ("csv", "json", "jsonl", "headings", "paragraphs"):
            with self.subTest(kind=kind):
                suffix, data = hostile.many_units(kind, size=15_000)
                parsed = parse_source(data, suffix, limits=IngestLimits(max_units=1_000))
                self.assertIn("over a work limit", parsed.problem)
                self.assertEqual(parse_source(data, suffix, limits=IngestLimits(max_units=100_000)).problem, "")

    def test_a_json_array_is_decoded_record_by_record(self):
        # Decoded whole first, the broken tail made it "invalid JSON" after millions of records.
        suffix, data = hostile.many_units("json", size=15_000)
        parsed = parse_source(data[:-1] + b", oops]", suffix, limits=IngestLimits(max_units=1_000))
        self.assertIn("over a work limit", parsed.problem)
        self.assertIn("invalid JSON", parse_source(data[:-1] + b", oops]", suffix).problem)
        for broken in (b"[1,]", b'["a" "b"]', b'["a"]]', b'["a"', b'["a"] x'):
            self.assertIn("invalid JSON", parse_source(broken, suffix).problem, broken)

    def test_a_notebook_or_word_document_over_it_keeps_what_was_read(self):
        cells = [{"cell_type": "markdown", "source": "\n".join(f"line {i}" for i in range(300)), "metadata": {}} for _ in range(10)]
        notebook = json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}).encode("utf-8")
        word = hostile.docx(hostile.body(b"".join(hostile.paragraph(f"p{i}") for i in range(3_000))))
        for suffix, data, note in ((".ipynb", notebook, "cells 4-10 not indexed"), (".docx", word, "not indexed after line 1001")):
            with self.subTest(suffix=suffix):
                parsed = parse_source(data, suffix, limits=IngestLimits(max_units=1_000))
                self.assertEqual(parsed.problem, "")
                self.assertTrue(parsed.sections)
                self.assertIn(note, parsed.notes[0])
                self.assertIn("more lines, headings", parsed.notes[0])

    def test_html_text_is_charged_too(self):
        data = b"".join(b"<p>w%d</p>\n" % n for n in range(2_000))
        self.assertIn("over a work limit", parse_source(data, ".html", limits=IngestLimits(max_units=1_000)).problem)
        headings = b"".join(b"<h2>h%d</h2>\n" % n for n in range(2_000))
        self.assertIn("over a work limit", parse_source(headings, ".html", limits=IngestLimits(max_units=1_000)).problem)


class HtmlTest(unittest.TestCase):
    """Rows 6 and 27: stray end tags and template openings cost linear time."""

    def test_stray_end_tags_under_many_open_elements(self):
        suffix, data = hostile.html_svg_end_tags(size=100_000)

        class Counted(list):
            looked_at = 0

            def __contains__(self, item):
                Counted.looked_at += len(self)
                return super().__contains__(item)

        class Collector(html_loader._TextCollector):
            def __init__(self) -> None:
                super().__init__()
                self.dropped = Counted()

        with mock.patch.object(html_loader, "_TextCollector", Collector):
            parsed = parse_source(data + b"<p>after</p>", suffix)
        self.assertEqual(parsed.problem, "no indexable text")  # everything stays inside the <svg>s
        # A membership test of the open elements per end tag looked at 70 million here.
        self.assertLess(Counted.looked_at, len(data))

    def test_a_comment_tag_never_holds_another_opening(self):
        self.assertAlmostEqual(template_share("{# a {# b #}"), len("{#b#}") / len("{#a{#b#}"))
        self.assertEqual(template_share("{# b #}"), 1.0)

    def test_comment_openings_repeated(self):
        suffix, data = hostile.html_comment_openings(size=100_000)
        self.assertEqual(parse_source(data, suffix).problem, "")


class MarkdownTest(unittest.TestCase):
    """Rows 7 and 8: lone backtick runs and long quote-marker runs."""

    def test_each_line_is_scanned_for_backticks_a_bounded_number_of_times(self):
        suffix, data = hostile.markdown_lone_backticks(size=200_000)
        scanned = 0
        real = markdown_loader._TICKS

        class Counting:
            def finditer(self, text):
                nonlocal scanned
                scanned += len(text)
                return real.finditer(text)

        with mock.patch.object(markdown_loader, "_TICKS", Counting()):
            sections = parse_markdown(data.decode())
        self.assertTrue(sections)
        # Rescanning the next 20 lines for every run scanned each character about 600 times.
        self.assertLess(scanned, 4 * len(data))

    def test_a_run_of_quote_markers_holds_no_memory_per_marker(self):
        text = ">" * 1_000_000 + " text\n"
        tracemalloc.start()
        try:
            sections = parse_markdown(text)
            peak = tracemalloc.get_traced_memory()[1] / MiB
        finally:
            tracemalloc.stop()
        self.assertEqual(sections[0].blocks[0].text, "text")
        self.assertLess(peak, 40)  # the pattern kept a frame per marker: about 150 MB here

    def test_quote_markers_agree_with_the_pattern(self):
        for text in _random_strings(" \t>a>", 20_000, 4):
            self.assertEqual(_unquoted(text), _OLD_QUOTE.sub("", text), text)


class OpenSpanTest(unittest.TestCase):
    """Row 26: a long run of blanks inside interpreted text left open."""

    def test_it_agrees_with_the_pattern_on_random_text(self):
        for text in _random_strings("a <>\t\u00a0x", 20_000, 5):
            self.assertEqual(_without_target(text), _OLD_LINK_TARGET.sub("", text), text)

    def test_a_long_run_of_blanks(self):
        cleaned, still_open = clean_rst_line("`open" + " " * 300_000 + "x", False)  # the pattern: about 2 minutes
        self.assertEqual((cleaned, still_open), ("open" + " " * 300_000 + "x", True))
        suffix, data = hostile.rst_open_span_spaces(spaces=300_000)
        self.assertEqual(parse_source(data, suffix).problem, "")


class LongWordTest(unittest.TestCase):
    """Row 25: one long word in evidence (a hex blob) is read in linear time at question time."""

    def test_identifiers_start_at_a_word_boundary(self):
        for text in _random_strings("aB_.( 1é-", 20_000, 6):
            self.assertEqual([m.group() for m in relevance._IDENTIFIER.finditer(text)],
                             [m.group() for m in _OLD_IDENTIFIER.finditer(text)], text)

    def test_a_quote_is_placed_beside_a_long_word_through_the_line_map(self):
        blob = "0f" * 150_000
        text = "The checksum is below.\n" + blob + "\nIt is ASCII."
        marks = ((0, 1), (23, 3), (24 + len(blob), 4))
        self.assertEqual(marked_span(text, marks, "The checksum is below."), (1, 1))
        self.assertEqual(marked_span(text, marks, "below. " + blob[:40]), (1, 3))
        self.assertEqual(marked_span(text, marks, "it is ascii"), (4, 4))  # by its letters and digits

    def test_a_long_dotted_run_is_no_version_and_is_read_once(self):
        self.assertEqual(earned._DOTTED.findall("1." * 100_000 + "1a1"), [])  # retried per length: hours
        self.assertEqual(earned._DOTTED.findall("from 1.2.3 to 10.0, not 1.2.3a4 or v2.0.1"), ["1.2.3", "10.0"])
        for text in _random_strings("1.2a .x9", 20_000, 7):
            self.assertEqual(earned._DOTTED.findall(text), _OLD_DOTTED.findall(text), text)

    def test_a_long_word_names_no_api(self):
        blob = "0f" * 150_000  # the pattern without a boundary: about 15 minutes
        self.assertEqual(relevance._names_api(blob, "what is the checksum"), 0.0)
        self.assertEqual(relevance._names_api(blob + " use ssl.wrap", "what is the checksum"), 1.0)


if __name__ == "__main__":
    unittest.main()
