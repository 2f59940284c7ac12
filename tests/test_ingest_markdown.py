"""Markdown on real documentation: code spans keep their spaces, lists keep their markers,
fenced code stays its own block, include-only files name what they include."""

from __future__ import annotations

import time
import unittest

from agentic_rag._ingest import parse_markdown, parse_source
from agentic_rag._ingest.markdown_loader import clean_inline


def _texts(sections):
    return [b.text for s in sections for b in s.blocks]


class InlineCodeTest(unittest.TestCase):
    def test_code_spans_keep_the_spaces_around_them(self):
        cases = {
            "or implement `search`/`get` like `BM25Index`": "or implement search/get like BM25Index",
            "`KnowledgeStore` opens the store at `path`": "KnowledgeStore opens the store at path",
            "Call `f()`, then `g()`; done.": "Call f(), then g(); done.",
            "Use ``a `tick` b`` here and `x` there": "Use a `tick` b here and x there",
            "`` `quoted` `` stays": "`quoted` stays",
            "*emphasis* next to `code` and **`bold code`** and [`link code`](http://x.org) ok":
                "emphasis next to code and bold code and link code ok",
            "`__init__` and `*args` keep their marks": "__init__ and *args keep their marks",
            "`a\\*b` keeps its backslash, \\*this\\* does not": "a\\*b keeps its backslash, *this* does not",
            "an unmatched `` pair, then `code` after": "an unmatched  pair, then code after",
        }
        for line, expected in cases.items():
            with self.subTest(line=line):
                self.assertEqual(clean_inline(line), expected)

    def test_a_code_span_across_two_lines_keeps_both_lines_apart(self):
        text = ("- **A retriever**: implement `Retriever.retrieve(query, k) ->\n"
                "  tuple[Snippet, ...]` (best first), or implement `search`/`get` like `BM25Index`\n"
                "  and wrap it in `IndexRetriever`.\n")
        (section,) = parse_markdown(text)
        (block,) = section.blocks
        self.assertEqual(block.text, "- A retriever: implement Retriever.retrieve(query, k) ->\n"
                                     "  tuple[Snippet, ...] (best first), or implement search/get like BM25Index\n"
                                     "  and wrap it in IndexRetriever.")
        self.assertEqual(block.line_marks, ((0, 1), (57, 2), (132, 3)))

    def test_myst_roles_show_what_sphinx_shows(self):
        cases = {
            "use the {class}`~contextvars.Token`s returned by {func}`~structlog.contextvars.bind_contextvars`":
                "use the Tokens returned by bind_contextvars",
            "see {doc}`the guide <guide>` and {py:meth}`!Foo.bar`": "see the guide and Foo.bar",
            "keep {literal}`~x.y` and a {brace} `z`": "keep ~x.y and a {brace} z",
        }
        for line, expected in cases.items():
            with self.subTest(line=line):
                self.assertEqual(clean_inline(line), expected)

    def test_long_pathological_lines_finish_quickly(self):
        for line in ("**x *y " * 100_000, "[a](" * 200_000, "`" * 500_000, "".join("`" * (i % 40 + 1) + "x" for i in range(30_000))):
            started = time.monotonic()
            parse_markdown(line)
            self.assertLess(time.monotonic() - started, 10)


class ListTest(unittest.TestCase):
    def test_markers_are_normalised_and_nesting_kept(self):
        text = ("Options:\n\n"          # 1-2
                "* `timeout`: seconds to wait\n"  # 3
                "  (default `5`).\n"    # 4
                "+ `retries`\n"         # 5
                "    1) first nested\n"  # 6
                "    2) second nested\n"  # 7
                "       continued\n"    # 8
                "- [ ] a task\n\n"      # 9
                "After the list.\n")   # 11
        (section,) = parse_markdown(text)
        self.assertEqual(_texts([section]), [
            "Options:",
            "- timeout: seconds to wait\n  (default 5).\n- retries\n  1. first nested\n  2. second nested\n    continued\n- a task",
            "After the list.",
        ])
        block = section.blocks[1]
        self.assertEqual([line for _, line in block.line_marks], [3, 4, 5, 6, 7, 8, 9])

    def test_numbers_are_kept(self):
        self.assertEqual(_texts(parse_markdown("3. three\n4. four\n10. ten\n")), ["3. three\n4. four\n10. ten"])

    def test_table_rows_one_per_line_with_empty_cells_kept(self):
        text = "| Name | Default | Meaning |\n|---|---|---|\n| `k` | 10 | hits |\n| `corpus` | | all corpora |\n"
        (section,) = parse_markdown(text)
        self.assertEqual(section.blocks[0].text, "Name | Default | Meaning\nk | 10 | hits\ncorpus |  | all corpora")
        self.assertEqual([line for _, line in section.blocks[0].line_marks], [1, 3, 4])

    def test_paragraph_before_a_fence_is_its_own_block(self):
        text = "Install it:\n```sh\npip install agentic-rag\n```\nThen run:\n\n- `agentic-rag index docs/`\n"
        (section,) = parse_markdown(text)
        self.assertEqual(_texts([section]), ["Install it:", "pip install agentic-rag", "Then run:", "- agentic-rag index docs/"])
        self.assertEqual([b.line_at(0) for b in section.blocks], [1, 3, 5, 7])


class MystIncludeTest(unittest.TestCase):
    def test_include_only_file_names_its_target(self):
        parsed = parse_source(b"```{include} ../CHANGES.md\n:relative-docs: docs/\n```\n", ".md")
        self.assertEqual((parsed.sections, parsed.problem), ((), "only includes ../CHANGES.md"))
        parsed = parse_source(b"```{literalinclude} ../src/example.py\n```\n\n```{toctree}\ninstall\n```\n", ".md")
        self.assertEqual(parsed.problem, "only includes ../src/example.py")

    def test_include_next_to_text_is_dropped_and_the_text_kept(self):
        text = ("# Changes\n\n```{include} ../CHANGES.md\n```\n\nSee also:\n\n"
                "- the `ask` command, which takes `--mode`\n")
        parsed = parse_source(text.encode(), ".md")
        self.assertEqual(parsed.problem, "")
        self.assertEqual(_texts(parsed.sections), ["See also:", "- the ask command, which takes --mode"])
        self.assertEqual([b.line_at(0) for s in parsed.sections for b in s.blocks], [6, 8])


if __name__ == "__main__":
    unittest.main()
