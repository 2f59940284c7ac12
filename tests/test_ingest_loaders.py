"""Loaders: text, Markdown, HTML, JSON, JSONL and CSV to sections; bad files become problems."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from agentic_rag._errors import InvalidInputError
from agentic_rag._ingest import FieldMapping, TextBlock, decode_text, load_path, parse_html, parse_markdown, parse_source, read_source


def _blocks(sections):
    return [(s.title, b.text) for s in sections for b in s.blocks]


class ReadAndDecodeTest(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.folder = Path(self._tmp.name)

    def test_read_source_hashes_bytes(self):
        path = self.folder / "a.txt"
        path.write_bytes(b"hello\n")
        source = read_source(path)
        self.assertEqual(source.problem, "")
        self.assertEqual(source.data, b"hello\n")
        self.assertEqual(source.sha256, "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03")

    def test_binary_file_with_nul_bytes_is_a_problem(self):
        path = self.folder / "fake.md"
        path.write_bytes(b"# Title\n\x00\x01\x02binary")
        self.assertEqual(read_source(path).problem, "binary file (contains NUL bytes)")
        self.assertEqual(parse_source(b"abc\x00", ".txt").problem, "binary file (contains NUL bytes)")
        self.assertEqual(load_path(path).problem, "binary file (contains NUL bytes)")

    def test_unreadable_and_oversized_files_are_problems(self):
        self.assertTrue(read_source(self.folder / "missing.txt").problem.startswith("unreadable"))
        path = self.folder / "big.txt"
        path.write_bytes(b"x" * 100)
        self.assertIn("too large", read_source(path, max_bytes=10).problem)

    def test_bad_encoding_is_reported_with_the_offset(self):
        parsed = parse_source("caf\u00e9 ok".encode("latin-1"), ".txt")
        self.assertEqual(parsed.sections, ())
        self.assertIn("not UTF-8", parsed.problem)
        self.assertIn("offset 3", parsed.problem)

    def test_bom_is_dropped_and_newlines_normalised(self):
        text, problem = decode_text(b"\xef\xbb\xbfone\r\ntwo\rthree\n")
        self.assertEqual((text, problem), ("one\ntwo\nthree\n", ""))

    def test_unsupported_suffix_and_empty_text_are_problems(self):
        self.assertEqual(parse_source(b"x", ".xlsx").problem, "unsupported file type '.xlsx'")
        self.assertEqual(parse_source(b"  \n\n ", ".txt").problem, "no indexable text")
        with self.assertRaises(InvalidInputError):
            parse_source(b"x", ".txt", fields={"text_fields": ["a"]})  # type: ignore[arg-type]


class PlainTextTest(unittest.TestCase):
    def test_paragraphs_keep_their_line_numbers(self):
        parsed = parse_source(b"\nFirst line.\nSecond line.\n\n\nThird para.\n", ".txt")
        (section,) = parsed.sections
        first, second = section.blocks
        self.assertEqual(first.text, "First line.\nSecond line.")
        self.assertEqual((first.line_at(0), first.line_at(first.text.index("Second"))), (2, 3))
        self.assertEqual(second.lines_of(0, len(second.text)), (6, 6))


class MarkdownTest(unittest.TestCase):
    def test_inline_markup_is_stripped(self):
        text = ("Intro with **bold**, *em*, _under_, ~~gone~~, `code_span`, a [link](http://x.com), "
                "![alt words](i.png) and <span>tag</span>.\nsnake_case_name and 2*3*4 stay; \\*escaped\\*.")
        (section,) = parse_markdown(text)
        self.assertEqual(section.blocks[0].text, "Intro with bold, em, under, gone, code_span, a link, alt words and tag.\n"
                                                 "snake_case_name and 2*3*4 stay; *escaped*.")

    def test_headings_become_section_titles(self):
        text = "Preamble.\n\n# Install *now*\n\nStep one.\n\n## Configure ##\nStep two.\n\nSetext\n======\nUnder it.\n"
        self.assertEqual(_blocks(parse_markdown(text)), [
            ("", "Preamble."), ("Install now", "Step one."), ("Install now › Configure", "Step two."), ("Setext", "Under it."),
        ])

    def test_empty_sections_are_dropped(self):
        self.assertEqual(_blocks(parse_markdown("# A\n# B\ntext\n")), [("B", "text")])

    def test_code_fences_are_kept_as_text_in_their_own_block(self):
        text = "Before.\n```python\ndef f(**kw):  # *not* emphasis\n    return 1\n```\nAfter.\n"
        (section,) = parse_markdown(text)
        code = section.blocks[1]
        self.assertEqual([b.text for b in section.blocks], ["Before.", "def f(**kw):  # *not* emphasis\n    return 1", "After."])
        self.assertEqual(code.lines_of(0, len(code.text)), (3, 4))

    def test_lists_quotes_tables_rules_comments_and_references(self):
        text = ("> quoted *text*\n\n- item **one**\n- [x] task\n1. numbered\n\n| a | b |\n|---|:-:|\n| 1 | 2 |\n\n"
                "***\n<!-- a\ncomment -->\nvisible\n[ref]: http://example.com\n")
        self.assertEqual([t for _, t in _blocks(parse_markdown(text))], [
            "quoted text", "- item one\n- task\n1. numbered", "a | b\n1 | 2", "visible",
        ])

    def test_front_matter_is_dropped_and_its_title_used(self):
        text = "---\ntitle: \"Guide\"\ndate: 2026\n---\nBody text.\n"
        (section,) = parse_markdown(text)
        self.assertEqual((section.title, section.blocks[0].text, section.blocks[0].line_at(0)), ("Guide", "Body text.", 5))

    def test_line_marks_point_at_the_source_lines(self):
        text = "# T\n\nalpha beta\ngamma *delta*\n\nepsilon\n"
        (section,) = parse_markdown(text)
        first, second = section.blocks
        self.assertEqual(first.line_marks, ((0, 3), (11, 4)))
        self.assertEqual(first.line_at(first.text.index("delta")), 4)
        self.assertEqual(second.line_at(0), 6)


class HtmlTest(unittest.TestCase):
    PAGE = """<!doctype html>
<html><head><title>The  Page</title>
<style>p { color: red }</style>
<script>var s = "<p>never</p>";</script>
</head>
<body>
<p>Intro text that
spans &amp; wraps.</p>
<h1>First <em>heading</em></h1>
<p>Para <b>bold</b>word.</p>
<ul><li>item a</li><li>item b</li></ul>
<pre>code line 1
  code line 2
</pre>
<table><tr><td>c1</td><td>c2</td></tr></table>
<h2>Second</h2>
text<br>after break
</body></html>"""

    def test_scripts_and_styles_are_dropped_and_headings_title_sections(self):
        blocks = _blocks(parse_html(self.PAGE))
        self.assertEqual(blocks, [
            ("The Page", "Intro text that spans & wraps."),
            ("First heading", "Para boldword."),
            ("First heading", "item a"),
            ("First heading", "item b"),
            ("First heading", "code line 1\n  code line 2"),
            ("First heading", "c1 | c2"),
            ("Second", "text"),
            ("Second", "after break"),
        ])
        self.assertNotIn("never", " ".join(t for _, t in blocks))

    def test_text_keeps_source_lines(self):
        sections = parse_html(self.PAGE)
        intro = sections[0].blocks[0]
        self.assertEqual(intro.lines_of(0, len(intro.text)), (7, 8))
        code = sections[1].blocks[3]
        self.assertEqual(code.lines_of(0, len(code.text)), (12, 13))
        self.assertEqual(sections[2].blocks[1].line_at(0), 17)

    def test_unclosed_head_ends_at_body(self):
        self.assertEqual(_blocks(parse_html("<head><title>T</title><body><p>Body words</p>")), [("T", "Body words")])


class StructuredTest(unittest.TestCase):
    def test_json_list_records_cite_their_own_lines(self):
        data = b'[\n  {"id": "r1", "title": "One", "text": "First body."},\n  {\n    "id": "r2",\n    "text": "Second body."\n  },\n  {"id": "r3"}\n]\n'
        parsed = parse_source(data, ".json")
        self.assertEqual([(s.record_id, s.title, s.blocks[0].text) for s in parsed.sections],
                         [("r1", "One", "First body."), ("r2", "r2", "Second body.")])
        self.assertEqual([s.blocks[0].lines_of(0, 1) for s in parsed.sections], [(2, 2), (3, 6)])

    def test_json_single_object_and_field_mapping(self):
        data = b'{"key": 7, "name": "Doc", "body": "The body.", "extra": ["x", "y"]}'
        fields = FieldMapping(text_fields=("body", "extra"), title_field="name", id_field="key")
        (section,) = parse_source(data, ".json", fields=fields).sections
        self.assertEqual((section.record_id, section.title, section.blocks[0].text), ("7", "Doc", "The body.\nx, y"))

    def test_json_without_text_field_joins_the_other_fields(self):
        (section,) = parse_source(b'{"_id": "a", "title": "T", "city": "Paris", "pop": 2}', ".json").sections
        self.assertEqual((section.record_id, section.blocks[0].text), ("a", "city: Paris\npop: 2"))

    def test_bad_json_is_a_problem(self):
        self.assertIn("invalid JSON", parse_source(b"{nope", ".json").problem)
        self.assertIn("must be an object or a list", parse_source(b"42", ".json").problem)
        self.assertEqual(parse_source(b'[{"text": ""}]', ".json").problem, "no JSON record has text")

    def test_jsonl_skips_bad_lines_and_cites_lines(self):
        data = b'{"_id": "a", "text": "Alpha."}\n\nnot json\n{"_id": "b", "title": "Bee", "text": "Beta."}\n'
        parsed = parse_source(data, ".jsonl")
        self.assertEqual([(s.record_id, s.title, s.blocks[0].lines_of(0, 1)) for s in parsed.sections], [("a", "a", (1, 1)), ("b", "Bee", (4, 4))])
        self.assertIn("first error at line 1", parse_source(b"bad\n", ".jsonl").problem)
        self.assertEqual(parse_source(b'{"text": "x"}', ".jsonl", fields=FieldMapping(text_fields=("body",))).problem,
                         "no JSONL record has fields ['body']")

    def test_csv_rows_default_to_all_columns(self):
        data = b'id,title,body\n1,First,"Line one"\n\n2,Second,"multi\nline body"\n'
        parsed = parse_source(data, ".csv")
        self.assertEqual([s.blocks[0].text for s in parsed.sections], ["id: 1\ntitle: First\nbody: Line one", "id: 2\ntitle: Second\nbody: multi\nline body"])
        self.assertEqual([s.blocks[0].lines_of(0, 1) for s in parsed.sections], [(2, 2), (4, 5)])
        self.assertEqual([s.title for s in parsed.sections], ["First", "Second"])

    def test_csv_text_columns_and_missing_column(self):
        parsed = parse_source(b"id,body,note\n1,Hello there,skip me\n", ".csv", fields=FieldMapping(text_fields=("body",)))
        self.assertEqual(parsed.sections[0].blocks[0].text, "Hello there")
        problem = parse_source(b"id,body\n1,x\n", ".csv", fields=FieldMapping(text_fields=("text",))).problem
        self.assertEqual(problem, "CSV header has no column 'text'; columns are ['id', 'body']")
        self.assertEqual(parse_source(b"", ".csv").problem, "empty CSV file")

    def test_field_mapping_is_validated(self):
        with self.assertRaises(InvalidInputError):
            FieldMapping(text_fields=("",))
        with self.assertRaises(InvalidInputError):
            FieldMapping(title_field="")
        self.assertEqual(FieldMapping(text_fields="body").text_fields, ("body",))  # type: ignore[arg-type]


class TextBlockTest(unittest.TestCase):
    def test_block_validation(self):
        with self.assertRaises(InvalidInputError):
            TextBlock("  ", ((0, 1),))
        with self.assertRaises(InvalidInputError):
            TextBlock("x", ((1, 1),))
        with self.assertRaises(InvalidInputError):
            TextBlock("xy", ((0, 1), (0, 2)))
        with self.assertRaises(InvalidInputError):
            TextBlock("x", ((0, 1),), fixed_lines=(3, 2))


if __name__ == "__main__":
    unittest.main()
