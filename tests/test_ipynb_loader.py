"""The notebook (.ipynb) loader: small cells grouped into sections, headings across cells, code
and outputs, lines counted on from a group's first cell, nbformat 3, malformed notebooks."""

from __future__ import annotations

import json
import unittest
from typing import Any

from agentic_rag._ingest import ChunkOptions, chunk_sections, parse_notebook, parse_source


def notebook_json(cells: list[dict[str, Any]], *, language: str = "python", nbformat: int = 4) -> bytes:
    """An nbformat 4 notebook's bytes with ``cells`` and a kernel of ``language``."""
    metadata = {"kernelspec": {"name": "k", "display_name": "K", "language": language}} if language else {}
    return json.dumps({"nbformat": nbformat, "nbformat_minor": 5, "metadata": metadata, "cells": cells}, indent=1).encode()


def markdown(source: str | list[str]) -> dict[str, Any]:
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def code(source: str | list[str], *outputs: dict[str, Any]) -> dict[str, Any]:
    return {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": source, "outputs": list(outputs)}


def stream(text: str) -> dict[str, Any]:
    return {"output_type": "stream", "name": "stdout", "text": text.splitlines(keepends=True)}


def result(**data: Any) -> dict[str, Any]:
    return {"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": data}


def sections_of(data: bytes) -> list[tuple[int | None, str, list[str]]]:
    parsed = parse_source(data, ".ipynb")
    assert not parsed.problem, parsed.problem
    return [(s.cell, s.title, [b.text for b in s.blocks]) for s in parsed.sections]


class CellsTest(unittest.TestCase):
    def test_markdown_headings_title_the_cells_below(self):
        data = notebook_json([
            markdown(["# Training\n", "\n", "We fit the *model* here.\n"]),
            code("model.fit(x)\n"),
            markdown("## Results"),
            code("print(score)", stream("0.93\n")),
        ])
        # Small cells share their group's section; a cell opening with a heading starts one.
        self.assertEqual(sections_of(data), [
            (1, "Training", ["We fit the model here.", "```python\nmodel.fit(x)\n```"]),
            (3, "Training \u203a Results", ["```python\nprint(score)\n```", "0.93"]),
        ])

    def test_outputs_keep_text_and_drop_images_and_html(self):
        data = notebook_json([code("df.head()", result(**{"text/plain": ["   a  b\n", "0  1  2"], "text/html": "<table>",
                                                             "image/png": "iVBOR"}),
                                   {"output_type": "display_data", "metadata": {}, "data": {"image/png": "iVBOR"}},
                                   {"output_type": "error", "ename": "ValueError", "evalue": "bad shape", "traceback": ["\x1b[31m..."]},
                                   stream("\x1b[32mok\x1b[0m\n"))])
        ((cell, _, texts),) = sections_of(data)
        self.assertEqual(texts, ["```python\ndf.head()\n```", "   a  b\n0  1  2", "ValueError: bad shape", "ok"])

    def test_the_language_comes_from_the_notebook(self):
        data = json.dumps({"nbformat": 4, "nbformat_minor": 2, "metadata": {"language_info": {"name": "julia"}},
                           "cells": [code("println(1)")]}).encode()
        self.assertEqual(sections_of(data)[0][2], ["```julia\nprintln(1)\n```"])
        self.assertEqual(sections_of(notebook_json([code("x")], language=""))[0][2], ["```\nx\n```"])

    def test_raw_cells_are_paragraphs_and_empty_cells_nothing(self):
        data = notebook_json([code(""), {"cell_type": "raw", "metadata": {}, "source": "one\n\ntwo"}, markdown("")])
        self.assertEqual(sections_of(data), [(1, "", ["one", "two"])])


class CellLinesTest(unittest.TestCase):
    def test_lines_count_within_the_cell_outputs_after_the_source(self):
        data = notebook_json([
            markdown("# Title\n\nIntro line.\nSecond line.\n"),
            code("import math\n\nx = math.pi\nprint(x)\n", stream("3.14\n"), result(**{"text/plain": "'done'"})),
        ])
        parsed = parse_source(data, ".ipynb")
        self.assertTrue(parsed.extracted)
        marks = [(s.cell, [b.line_marks for b in s.blocks]) for s in parsed.sections]
        # Cell 2 joins cell 1's group: its lines count on after cell 1's four. The fences stand
        # on the first and last source lines; outputs follow the source.
        self.assertEqual(marks, [(1, [((0, 3), (12, 4)), ((0, 5), (22, 7), (34, 8)), ((0, 9),), ((0, 10),)])])

    def test_a_large_cell_is_alone_and_keeps_its_own_lines(self):
        big = "word " * 200
        data = notebook_json([markdown("small one"), markdown(big), markdown("small two"), markdown("small three")])
        parsed = parse_source(data, ".ipynb")
        self.assertEqual([(s.cell, [b.line_marks for b in s.blocks]) for s in parsed.sections],
                         [(1, [((0, 1),)]), (2, [((0, 1),)]), (3, [((0, 1),), ((0, 2),)])])

    def test_small_cells_share_a_chunk_citing_the_first_cell(self):
        cells = [markdown(f"Cell {n} says word{n} " + "filler " * 8) for n in range(1, 6)]
        chunks = chunk_sections(parse_notebook(notebook_json(cells).decode()).sections, "nb.ipynb", ChunkOptions(500, 0), line_marks=True)
        self.assertEqual([c.cell for c in chunks], [1])
        self.assertEqual(chunks[0].citation, "nb.ipynb:c1:1-5")
        metadata = chunks[0].to_document("notes").metadata
        self.assertEqual([line for _, line in metadata["line_marks"]], [1, 2, 3, 4, 5])
        self.assertNotIn("page", metadata)

    def test_many_small_cells_make_chunks_like_the_same_text(self):
        cells = [code(f"x_{n} = {n} + 1\n") for n in range(2000)]
        chunks = chunk_sections(parse_notebook(notebook_json(cells).decode()).sections, "nb.ipynb", line_marks=True)
        # Before cells were grouped, each cell was a chunk of its own (2,000 here).
        self.assertLess(len(chunks), 2000 // 10)
        self.assertEqual(chunks[0].cell, 1)


class LineMapTest(unittest.TestCase):
    def test_every_mark_of_every_chunk_points_at_its_cell_line(self):
        sources = ["Alpha beta gamma. Delta epsilon.\nZeta eta theta iota.\n\nKappa lambda mu.",
                   "for i in range(3):\n    total += i\n\nprint(total)\nprint('done')"]
        cells = [markdown(sources[0]), code(sources[1], stream("0\n1\n3\n"))]
        # The two cells are one group: lines count on from cell 1 through cell 2.
        cell_lines = {1: sources[0].split("\n") + sources[1].split("\n") + ["0", "1", "3"]}
        parsed = parse_notebook(notebook_json(cells).decode())
        for max_words, overlap in ((2, 0), (3, 1), (5, 2), (40, 5)):
            for chunk in chunk_sections(parsed.sections, "nb.ipynb", ChunkOptions(max_words, overlap), line_marks=True):
                offsets = [offset for offset, _ in chunk.line_marks]
                self.assertEqual(offsets[0], 0)
                self.assertEqual(offsets, sorted(set(offsets)))
                for offset, line in chunk.line_marks:
                    self.assertTrue(chunk.start_line <= line <= chunk.end_line, (chunk.citation, line))
                    shown = chunk.text[offset:].split("\n", 1)[0].strip()
                    if not shown.startswith("```"):
                        self.assertIn(shown, cell_lines[chunk.cell][line - 1], (chunk.citation, offset, line))


class FormatsTest(unittest.TestCase):
    def test_nbformat_3_worksheets_heading_cells_and_pyout(self):
        data = json.dumps({"nbformat": 3, "nbformat_minor": 0, "metadata": {"name": "old"}, "worksheets": [{"cells": [
            {"cell_type": "heading", "level": 1, "source": ["Old *style*"]},
            {"cell_type": "code", "language": "python", "input": ["a = 2\n", "a * 21"],
             "outputs": [{"output_type": "pyout", "text": ["42"]}, {"output_type": "stream", "stream": "stdout", "text": ["hi\n"]}]},
            {"cell_type": "markdown", "source": "Closing words."},
        ]}]}).encode()
        self.assertEqual(sections_of(data), [(1, "Old style", ["```python\na = 2\na * 21\n```", "42", "hi", "Closing words."])])

    def test_malformed_notebooks_are_problems(self):
        cases = {
            b"{not json": "not valid JSON",
            b"[1, 2]": "not an object",
            b'{"cells": []}': "nbformat",
            b'{"nbformat": 2, "cells": []}': "nbformat 3 and 4",
            b'{"nbformat": 4, "cells": {}}': "no cells list",
            b'{"nbformat": 3}': "worksheets",
            b'{"nbformat": 4, "cells": [1, "x", {"cell_type": "code", "source": 5}]}': "no indexable text",
        }
        for data, words in cases.items():
            with self.subTest(data=data):
                parsed = parse_source(data, ".ipynb")
                self.assertEqual(parsed.sections, ())
                self.assertIn(words, parsed.problem)

    def test_deep_nesting_is_a_problem_not_a_crash(self):
        parsed = parse_source(b'{"nbformat": 4, "cells": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", ".ipynb")
        self.assertEqual(parsed.sections, ())
        self.assertTrue(parsed.problem)


if __name__ == "__main__":
    unittest.main()
