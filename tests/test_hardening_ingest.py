"""Hostile input never stops an index run: the bad file is skipped with a reason, the rest is
indexed, and no file costs more than linear time to parse."""

from __future__ import annotations

import os
import tempfile
import time
import unittest
from pathlib import Path
from unittest import mock

from agentic_rag._errors import InvalidInputError
from agentic_rag._ingest import parse_html, parse_markdown, parse_source, walk_tree
from agentic_rag._ingest import loaders
from agentic_rag._store import KnowledgeStore
from agentic_rag._text.analyzer import MAX_TOKEN_LENGTH, Analyzer

_DEEP = b"[" * 200_000 + b"]" * 200_000


def _bad_name(folder: Path, name: bytes, content: bytes = b"text under a bad name\n") -> bool:
    """Create a file whose name is not UTF-8; False where the file system refuses one."""
    try:
        with open(os.path.join(os.fsencode(folder), name), "wb") as handle:
            handle.write(content)
    except OSError:
        return False
    return True


class TreeTestCase(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.base = Path(self._tmp.name)
        self.root = self.base / "kb"
        self.root.mkdir()
        (self.root / "good.md").write_text("Wombats dig long burrows.\n", encoding="utf-8")
        self.store = KnowledgeStore(self.base / ".agentic-rag")


class BadFileNamesTest(TreeTestCase):
    def test_a_file_name_that_is_not_utf8_is_skipped_and_the_rest_indexed(self):
        if not _bad_name(self.root, b"bad\xff.md"):
            self.skipTest("this file system refuses names that are not UTF-8")
        report = self.store.index([self.root])
        self.assertEqual(report.added, 1)
        reasons = dict(report.skipped)
        self.assertIn("kb/bad\\xff.md", reasons)
        self.assertIn("not valid UTF-8", reasons["kb/bad\\xff.md"])
        self.assertEqual(self.store.search("wombats")[0].path, "kb/good.md")
        for path, reason in report.skipped:
            (path + reason).encode("utf-8")  # every listed name prints

    def test_a_folder_name_that_is_not_utf8_is_skipped(self):
        folder = os.path.join(os.fsencode(self.root), b"dir\xfe")
        try:
            os.mkdir(folder)
        except OSError:
            self.skipTest("this file system refuses names that are not UTF-8")
        with open(os.path.join(folder, b"inner.md"), "wb") as handle:
            handle.write(b"Hidden inside a bad folder name.\n")
        result = walk_tree(self.root)
        self.assertEqual([f.relative for f in result.files], ["good.md"])
        self.assertEqual([(s.relative, "not valid UTF-8" in s.reason) for s in result.skipped], [("dir\\xfe/", True)])
        self.assertEqual(self.store.index([self.root]).added, 1)


    def test_a_root_path_that_is_not_utf8_is_refused_clearly(self):
        folder = os.path.join(os.fsencode(self.base), b"root\xfd")
        try:
            os.mkdir(folder)
        except OSError:
            self.skipTest("this file system refuses names that are not UTF-8")
        with self.assertRaises(InvalidInputError) as caught:
            self.store.index([os.fsdecode(folder)])
        self.assertIn("not valid UTF-8", str(caught.exception))
        str(caught.exception).encode("utf-8")


class DeepNestingTest(TreeTestCase):
    def test_deep_json_is_a_problem_not_a_recursion_error(self):
        for suffix in (".json", ".jsonl"):
            with self.subTest(suffix=suffix):
                problem = parse_source(_DEEP, suffix).problem
                self.assertIn("nested too deeply", problem)

    def test_a_deep_jsonl_line_is_passed_over_and_other_records_kept(self):
        data = b'{"text": "First record about quolls."}\n' + _DEEP + b"\n"
        parsed = parse_source(data, ".jsonl")
        self.assertEqual(parsed.problem, "")
        self.assertEqual([s.blocks[0].text for s in parsed.sections], ["First record about quolls."])

    def test_an_index_run_skips_the_deep_file(self):
        (self.root / "deep.json").write_bytes(_DEEP)
        (self.root / "deep.jsonl").write_bytes(_DEEP)
        report = self.store.index([self.root])
        self.assertEqual(report.added, 1)
        reasons = dict(report.skipped)
        self.assertIn("nested too deeply", reasons["kb/deep.json"])
        self.assertIn("nested too deeply", reasons["kb/deep.jsonl"])

    def test_a_parser_recursion_error_is_a_problem(self):
        with mock.patch.dict(loaders.PARSERS, {".md": mock.Mock(side_effect=RecursionError("too deep"))}):
            self.assertIn("nested too deeply", parse_source(b"# x\n", ".md").problem)


class LinearTimeTest(unittest.TestCase):
    """Each hostile line parses in well under a second (it took seconds to minutes before)."""

    def assertFast(self, parse, text: str, limit: float = 1.0) -> None:
        started = time.process_time()
        parse(text)
        self.assertLess(time.process_time() - started, limit, f"{text[:12]!r} x {len(text)} chars")

    def test_markdown_inline_markup_is_linear(self):
        for unit in ("*a ", "![a ", "~~a ", "**a ", "[a ", "_a ", "`a ", "<a ", "<!--", "[", "![", "<http://a", "-->"):
            with self.subTest(unit=unit):
                self.assertFast(parse_markdown, unit * (66_000 // len(unit)))
        self.assertFast(parse_markdown, "[" * 33_000 + "]" * 33_000)
        self.assertFast(parse_markdown, "-->" + "<!--" * 16_000)
        self.assertFast(parse_markdown, "#" + " " * 66_000 + "x")
        self.assertFast(parse_markdown, "# x" + " " * 66_000 + "y")
        self.assertFast(parse_markdown, "|-|-" + " " * 66_000 + "x")
        self.assertFast(parse_markdown, "".join("  " * i + "- x\n" for i in range(700)))

    def test_html_is_linear(self):
        for unit in ("<a ", "<!--", "<a b='", "<!", "<?", "</", "</a ", "<![CDATA[", "<a c='>' b b b b b b b b "):
            with self.subTest(unit=unit):
                self.assertFast(parse_html, unit * (120_000 // len(unit)))


class LongTokensTest(TreeTestCase):
    def test_tokens_longer_than_the_limit_are_dropped(self):
        analyzer = Analyzer()
        word = "x" * (MAX_TOKEN_LENGTH + 1)
        self.assertEqual(analyzer.tokenize(f"quolls {word} run"), ["quolls", "run"])
        self.assertEqual(analyzer.tokenize("y" * MAX_TOKEN_LENGTH), ["y" * MAX_TOKEN_LENGTH])

    def test_a_huge_single_word_file_gives_a_short_description(self):
        (self.root / "word.txt").write_text("z" * 2_000_000 + "\n", encoding="utf-8")
        self.store.index([self.root])
        (corpus,) = self.store.corpora()
        self.assertLess(len(corpus.description), 500)
        self.assertNotIn("zzzz", corpus.description)
