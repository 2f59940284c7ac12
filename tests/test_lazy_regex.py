"""Patterns compiled on first use (``agentic_rag._regex``), and what a search does not load."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from agentic_rag._regex import LazyRegex, lazy_regex

SRC = Path(__file__).resolve().parents[1] / "src"


class LazyRegexTest(unittest.TestCase):
    def test_nothing_is_compiled_before_first_use(self):
        pattern = lazy_regex(r"(unclosed")  # an invalid pattern fails only when used
        with self.assertRaises(re.error):
            pattern.search("text")

    def test_it_answers_as_the_compiled_pattern_does(self):
        source, flags = r"(?P<word>t\w+)", re.IGNORECASE
        lazy, eager = lazy_regex(source, flags), re.compile(source, flags)
        text = "The tide turns; then Tom tries."
        self.assertEqual(lazy.search(text).group("word"), eager.search(text).group("word"))
        self.assertIsNone(lazy.match("  The"))
        self.assertEqual(lazy.fullmatch("Tom").group(), "Tom")
        self.assertEqual([m.span() for m in lazy.finditer(text)], [m.span() for m in eager.finditer(text)])
        self.assertEqual(lazy.findall(text), eager.findall(text))
        self.assertEqual(lazy.sub("-", text), eager.sub("-", text))
        self.assertEqual(lazy.subn("-", text), eager.subn("-", text))
        self.assertEqual(lazy.split(text), eager.split(text))
        self.assertEqual((lazy.pattern, lazy.flags, lazy.groups, dict(lazy.groupindex)),
                         (eager.pattern, eager.flags, eager.groups, dict(eager.groupindex)))

    def test_a_match_names_the_compiled_pattern(self):
        # Code that asks which pattern matched compares with ``compiled``, made once.
        lazy = lazy_regex(r"a+")
        match = lazy.search("baaa")
        self.assertIs(match.re, lazy.compiled)
        self.assertIs(lazy.compiled, lazy.compiled)

    def test_attributes_a_pattern_does_not_offer_are_errors(self):
        lazy = LazyRegex(r"x")
        with self.assertRaises(AttributeError):
            lazy.scanner  # noqa: B018 (not forwarded: nothing reads it)
        self.assertIn("lazy_regex('x'", repr(lazy))


class SearchLoadsTest(unittest.TestCase):
    def test_a_search_loads_neither_workflow_nor_the_answer_contracts(self):
        # A CLI search is a new process each time: what it imports, it pays for on every call.
        code = (
            "import sys, io, contextlib\n"
            "from agentic_rag._interfaces.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['search', 'How long is the warranty?', '--store', 'store', '--json'])\n"
            "print(sorted(m for m in sys.modules if m.startswith('agentic_rag.')))\n"
        )
        with tempfile.TemporaryDirectory() as folder:
            docs = Path(folder, "docs")
            docs.mkdir()
            (docs / "warranty.md").write_text("# Warranty\n\nThe warranty lasts two years from delivery.\n", encoding="utf-8")
            env = {**os.environ, "PYTHONPATH": str(SRC)}
            subprocess.run([sys.executable, "-m", "agentic_rag", "index", "docs", "--store", "store"], cwd=folder, env=env,
                           capture_output=True, check=True)
            out = subprocess.run([sys.executable, "-c", code], cwd=folder, env=env, capture_output=True, text=True, check=True).stdout
        loaded = set(out.split("[", 1)[1].strip("]\n").replace("'", "").split(", "))
        self.assertTrue({"agentic_rag._store.knowledge_store", "agentic_rag._contracts.evidence"} <= loaded, loaded)
        for unwanted in ("agentic_rag._parallel.contracts", "agentic_rag._contracts.results", "agentic_rag._agentic",
                         "agentic_rag._interfaces.payloads", "agentic_rag.llm", "agentic_rag.evaluation",
                         "agentic_rag.evaluation.dataset_records",
                         # a search reads stored rows: the chunker, its blocks and work budget are the indexer's
                         "agentic_rag._ingest.chunker", "agentic_rag._ingest.blocks", "agentic_rag._ingest.work_budget"):
            self.assertNotIn(unwanted, loaded)

    def test_the_parsers_dataset_formats_are_the_evaluations(self):
        from agentic_rag._interfaces.cli import DATASET_FORMATS
        from agentic_rag.evaluation import DatasetFormat

        self.assertEqual(DATASET_FORMATS, tuple(f.value for f in DatasetFormat))


if __name__ == "__main__":
    unittest.main()
