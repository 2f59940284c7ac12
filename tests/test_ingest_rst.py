"""reStructuredText: Sphinx documents become titled sections of plain text citing exact lines."""

from __future__ import annotations

import tempfile
import time
import unittest
from pathlib import Path

from agentic_rag._ingest import SUPPORTED_SUFFIXES, chunk_sections, parse_rst, parse_source
from agentic_rag._ingest.rst_inline import clean_rst_inline
from agentic_rag._store import KnowledgeStore

QUICKSTART = """\
.. _quickstart:

==========
Quickstart
==========

:orphan:

This guide shows how to use :mod:`foo` with :class:`~foo.client.Client`.

Installation
------------

Install it::

    pip install foo
    foo --version

Then configure it:

.. code-block:: python
   :linenos:

   import foo

   client = foo.Client(timeout=5)

.. note::

   The client is **not** thread-safe; see :ref:`Threads <threads>`.

.. versionadded:: 2.0
   The ``timeout`` argument.

Options
-------

* ``timeout``: seconds to wait (default ``5``).
* ``retries``: how many times to retry.

  #. First nested.
  #. Second nested
     wraps here.

.. function:: connect(host, port=80)

   Open a connection.

   :param host: The host name.
   :param port: The port.
   :returns: A :class:`Connection`.

timeout
    Seconds to wait.

=====  =======
Name   Default
=====  =======
a      1
b      2
=====  =======

.. toctree::
   :maxdepth: 2

   install

.. This is a comment
   spanning lines.

.. |version| replace:: 2.0

Current version: |version|. See `the docs <https://example.com>`_ and Quickstart_.

.. deprecated:: 3.1 Use :func:`bar` instead.
"""


def _blocks(sections):
    return [(s.title, b.text, tuple(line for _, line in b.line_marks)) for s in sections for b in s.blocks]


class QuickstartTest(unittest.TestCase):
    def test_every_block_text_and_line(self):
        self.assertEqual(_blocks(parse_rst(QUICKSTART)), [
            ("Quickstart", "This guide shows how to use foo with Client.", (9,)),
            ("Quickstart › Installation", "Install it:", (14,)),
            ("Quickstart › Installation", "pip install foo\nfoo --version", (16, 17)),
            ("Quickstart › Installation", "Then configure it:", (19,)),
            ("Quickstart › Installation", "import foo\nclient = foo.Client(timeout=5)", (24, 26)),
            ("Quickstart › Installation", "Note:\nThe client is not thread-safe; see Threads.", (28, 30)),
            ("Quickstart › Installation", "Version added 2.0:\nThe timeout argument.", (32, 33)),
            ("Quickstart › Options", "- timeout: seconds to wait (default 5).\n- retries: how many times to retry.\n"
                                         "  #. First nested.\n  #. Second nested\n    wraps here.", (38, 39, 41, 42, 43)),
            ("Quickstart › Options", "connect(host, port=80)\nOpen a connection.", (45, 47)),
            ("Quickstart › Options", "param host: The host name.\nparam port: The port.\nreturns: A Connection.", (49, 50, 51)),
            ("Quickstart › Options", "timeout\nSeconds to wait.", (53, 54)),
            ("Quickstart › Options", "Name | Default\na | 1\nb | 2", (57, 59, 60)),
            ("Quickstart › Options", "Current version: version. See the docs and Quickstart.", (73,)),
            ("Quickstart › Options", "Deprecated 3.1: Use bar instead.", (75,)),
        ])

    def test_chunks_cite_lines_that_hold_their_words(self):
        lines = QUICKSTART.split("\n")
        for chunk in chunk_sections(parse_rst(QUICKSTART), "docs/quickstart.rst"):
            source = " ".join(lines[chunk.start_line - 1:chunk.end_line])
            for word in ("pip", "thread-safe", "Seconds", "bar"):
                if word in chunk.text:
                    self.assertIn(word, source, chunk.citation)


class DirectiveAndTableTest(unittest.TestCase):
    def test_literal_block_forms(self):
        text = "Ends in a space ::\n\n   code a\n\n::\n\n   expanded form\n\n- Item with code::\n\n      x = 1\n"
        self.assertEqual(_blocks(parse_rst(text)), [
            ("", "Ends in a space", (1,)), ("", "code a", (3,)), ("", "expanded form", (7,)),
            ("", "- Item with code:", (9,)), ("", "x = 1", (11,)),
        ])

    def test_object_directives_admonitions_and_dropped_directives(self):
        text = (".. py:method:: Client.get(key)\n               Client.get(key, default)\n   :async:\n\n   Get a value.\n\n"
                ".. autoclass:: pkg.Thing\n   :members:\n\n.. figure:: pic.png\n   :alt: a picture\n\n   The caption.\n\n"
                ".. seealso:: :func:`other`\n\n.. admonition:: Custom title\n\n   Body.\n\n"
                ".. image:: logo.png\n.. include:: ../CHANGES.rst\n.. highlight:: python\n\n| line block one\n| line block two\n")
        self.assertEqual(_blocks(parse_rst(text)), [
            ("", "Client.get(key)\nClient.get(key, default)\nGet a value.", (1, 2, 5)),
            ("", "pkg.Thing", (7,)),
            ("", "The caption.", (13,)),
            ("", "See also: other", (15,)),
            ("", "Custom title\nBody.", (17, 19)),
            ("", "line block one\nline block two", (25, 26)),
        ])

    def test_tables(self):
        text = ("+-------+--------+\n| Name  | Value  |\n+=======+========+\n| a     | one    |\n+-------+--------+\n\n"
                ".. list-table:: Params\n   :header-rows: 1\n\n   * - Name\n     - Default\n   * - ``x``\n     - 5\n\n"
                ".. csv-table:: Sizes\n\n   \"small, light\", 1\n   big, 2\n")
        sections = parse_rst(text)
        self.assertEqual(_blocks(sections), [
            ("", "Name | Value\na | one", (2, 4)),
            ("", "Params", (7,)),
            ("", "Name | Default\nx | 5", (10, 11, 12, 13)),
            ("", "Sizes", (15,)),
            ("", "small, light | 1\nbig | 2", (17, 18)),
        ])
        list_table = sections[0].blocks[2]
        self.assertEqual(list_table.line_at(list_table.text.index("Default")), 11)

    def test_roles_and_inline_markup(self):
        cases = {
            ":func:`foo` and :ref:`Title <label>`": "foo and Title",
            ":class:`~pkg.mod.Cls` and :meth:`!x` and :py:func:`pkg.f`": "Cls and x and pkg.f",
            "``code *not em*`` then *em* and **strong**": "code *not em* then em and strong",
            "`interpreted` and `link <https://x.org>`_ and `anon <u>`__ and word_ ref": "interpreted and link and anon and word ref",
            "|sub| and |sub|_ and a note [1]_ and [#]_.": "sub and sub and a note and.",
            "__init__, snake_case, 2*3*4 and a\\ b and \\*star\\*": "__init__, snake_case, 2*3*4 and ab and *star*",
            # An inline literal keeps its backslashes; the text around it still reads escapes.
            "encoded as ``\\054`` and ``\\073``, not \\*starred\\*": "encoded as \\054 and \\073, not *starred*",
        }
        for line, expected in cases.items():
            with self.subTest(line=line):
                self.assertEqual(clean_rst_inline(line), expected)

    def test_links_and_roles_running_onto_the_next_line(self):
        text = ("Title\n=====\n\nSee the article\non `Cross-Site Scripting\n<https://example.org/xss>`_. Also see\n"
                ":ref:`the long\nlabel <lbl>` and ``code`` here.\n")
        (section,) = parse_rst(text)
        (block,) = section.blocks
        self.assertEqual(block.text, "See the article\non Cross-Site Scripting\n. Also see\nthe long\nlabel and code here.")
        self.assertEqual([block.line_at(block.text.index(w)) for w in ("Cross", "Also", "label")], [5, 6, 8])

    def test_titles_and_transitions(self):
        text = "Over\n====\n\nPara one.\n\n----------\n\n=======\n Inset\n=======\nBody.\nTitle\n=====\nnot a title above\n"
        self.assertEqual([(t, x) for t, x, _ in _blocks(parse_rst(text))], [("Over", "Para one."), ("Over › Inset", "Body.\nTitle\n=====\nnot a title above")])

    def test_pathological_file_finishes_fast(self):
        size = 1_000_000
        texts = ["**x *y ``a `b :r:`c |d " * (size // 24), ".. x\n" * (size // 5), "=== ===\nx y\n=== ===\n\n" * (size // 24),
                 "".join(" " * (i % 60) + "- x\n" for i in range(size // 64)), "a::\n\n" + "   x\n" * (size // 5), "\\" * size]
        for text in texts:
            started = time.monotonic()
            parse_source(text.encode(), ".rst")
            self.assertLess(time.monotonic() - started, 10)


class IncludeTest(unittest.TestCase):
    def test_include_only_file_is_a_problem_naming_the_target(self):
        self.assertEqual(parse_source(b".. include:: ../CHANGES.rst\n", ".rst").problem, "only includes ../CHANGES.rst")
        text = b".. _changes:\n\n.. include:: ../CHANGES.rst\n   :start-after: start\n\n.. literalinclude:: ex.py\n"
        self.assertEqual(parse_source(text, ".rst").problem, "only includes ../CHANGES.rst, ex.py")
        self.assertEqual(parse_source(b".. comment only\n", ".rst").problem, "no indexable text")


class StoreTest(unittest.TestCase):
    def test_rst_folder_is_indexed_and_searchable_with_exact_lines(self):
        self.assertIn(".rst", SUPPORTED_SUFFIXES)
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "docs"
            root.mkdir()
            (root / "quickstart.rst").write_text(QUICKSTART, encoding="utf-8")
            (root / "changes.rst").write_text(".. include:: CHANGELOG.rst\n", encoding="utf-8")
            (root / "CHANGELOG.rst").write_text("Changelog\n=========\n\n2.0\n---\n\n- Added the wombat cache.\n", encoding="utf-8")
            store = KnowledgeStore(Path(tmp) / ".agentic-rag")
            report = store.index([root])
            self.assertEqual(report.added, 2)
            self.assertIn(("docs/changes.rst", "only includes CHANGELOG.rst"), report.skipped)
            hit = store.search("thread-safe client")[0]
            self.assertEqual((hit.path, hit.section), ("docs/quickstart.rst", "Quickstart › Installation"))
            lines = QUICKSTART.split("\n")
            self.assertIn("thread-safe", " ".join(lines[hit.start_line - 1:hit.end_line]))
            wombat = store.search("wombat cache")[0]
            self.assertEqual((wombat.citation, wombat.section), ("docs/CHANGELOG.rst:7-7", "Changelog › 2.0"))


if __name__ == "__main__":
    unittest.main()
