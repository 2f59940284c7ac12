"""HTML templates are skipped with their reason; ``.txt`` reStructuredText is read as such."""

from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

from agentic_rag._ingest.loaders import parse_source
from agentic_rag._ingest.template_html import TEMPLATE_SHARE, template_share
from agentic_rag._ingest.text_format import SphinxSuffixes, looks_like_rst, source_suffixes
from cli_support import enter_temp_folder, run_cli

# Written for these tests in the shape of a docs theme's navigation partial.
_NAV_PARTIAL = """\
{# the site navigation, one level deep #}
<nav class="site-nav" aria-label="{{ lang.t('nav') }}">
  <ul>
  {% for item in nav %}
    {% if item.children %}
      <li class="{% if item.active %}active{% endif %}">{{ item.title }}
        <ul>{% for child in item.children %}<li><a href="{{ child.url | url }}">{{ child.title }}</a></li>{% endfor %}</ul>
      </li>
    {% else %}
      <li><a href="{{ item.url | url }}">{{ item.title }}</a></li>
    {% endif %}
  {% endfor %}
  </ul>
</nav>
"""

_DJANGO_TEMPLATE = """\
{% extends "base.html" %}
{% load i18n %}
{% block content %}
<h1>{% translate "Delete" %} {{ object_name }}</h1>
<p>{% blocktranslate %}Are you sure?{% endblocktranslate %}</p>
{% endblock %}
"""

_PAGE_WITH_EXAMPLE = """\
<html><head><title>Variables</title></head><body>
<h1>Printing a variable</h1>
<p>Templates print the value of a variable where it is written between double braces. The
variable is looked up in the context passed to the template, and filters may follow it.</p>
<pre>Hello {{ user.name }}!</pre>
<p>An undefined variable prints as an empty string unless the environment is strict.</p>
</body></html>
"""

_RST_TXT = """\
=============
Writing views
=============

A view is a function that takes a request and returns a response.

.. note::

    Class-based views are described in :doc:`class-based-views`.

Returning errors
================

Raise :exc:`Http404` to return a not-found page.
"""

_LICENCE = """\
BSD 3-Clause License
====================

Copyright (c) the authors.

Redistribution and use in source and binary forms, with or without modification, are
permitted provided that the following conditions are met: ...
"""

_TITLE_ONLY_RST = "Release notes\n=============\n\nA bug fix release.\n"


class TemplateHtmlTest(unittest.TestCase):
    def test_templates_are_skipped_with_the_reason(self):
        for name, text in (("nav partial", _NAV_PARTIAL), ("django template", _DJANGO_TEMPLATE)):
            with self.subTest(name):
                parsed = parse_source(text.encode("utf-8"), ".html")
                self.assertTrue(parsed.problem.startswith("a template, not a page: "), parsed.problem)
                self.assertIn("template syntax ({% %}, {{ }}, {# #})", parsed.problem)
                self.assertEqual(parsed.sections, ())

    def test_a_page_with_an_example_is_indexed(self):
        parsed = parse_source(_PAGE_WITH_EXAMPLE.encode("utf-8"), ".htm")
        self.assertEqual(parsed.problem, "")
        self.assertIn("{{ user.name }}", parsed.text)
        self.assertLess(template_share(parsed.text), TEMPLATE_SHARE)

    def test_a_literal_double_brace_does_not_swallow_the_page(self):
        # A format string's "{{" with its "}}" far later is no tag.
        text = "let s = format!(\"{{\");\n" + "prose " * 200 + "\nlet t = format!(\"}}\");"
        self.assertLess(template_share(text), 0.05)


class RstTxtByContentTest(unittest.TestCase):
    def test_rst_named_txt_is_read_as_rst(self):
        self.assertTrue(looks_like_rst(_RST_TXT))
        parsed = parse_source(_RST_TXT.encode("utf-8"), ".txt")
        self.assertEqual([s.title for s in parsed.sections], ["Writing views", "Writing views › Returning errors"])
        self.assertNotIn("====", parsed.text)
        self.assertNotIn(":exc:", parsed.text)

    def test_plain_text_stays_plain(self):
        for name, text in (("licence with an underlined title", _LICENCE), ("title only", _TITLE_ONLY_RST),
                           ("two roles are not enough", "News\n====\n\nFixed :func:`a` and :exc:`B`.\n"),
                           ("a directive but no title", "notes\n\n.. note:: this\n")):
            with self.subTest(name):
                self.assertFalse(looks_like_rst(text))
                parsed = parse_source(text.encode("utf-8"), ".txt")
                self.assertEqual([s.title for s in parsed.sections], [""])
        self.assertIn("====", parse_source(_LICENCE.encode("utf-8"), ".txt").text)


class SourceSuffixTest(unittest.TestCase):
    def test_the_str_list_and_dict_forms(self):
        self.assertEqual(source_suffixes("source_suffix = '.txt'\n"), {".txt": ".rst"})
        self.assertEqual(source_suffixes("source_suffix = ['.rst', '.TXT']\n"), {".rst": ".rst", ".txt": ".rst"})
        self.assertEqual(source_suffixes("source_suffix = {'.txt': 'restructuredtext', '.md': 'markdown', '.x': 'other'}\n"),
                         {".txt": ".rst", ".md": ".md"})
        self.assertEqual(source_suffixes("source_suffix: dict = {'.txt': 'restructuredtext'}\n"), {".txt": ".rst"})
        self.assertEqual(source_suffixes("source_suffix = '.rst'\nsource_suffix = '.txt'\n"), {".txt": ".rst"})

    def test_anything_else_says_nothing(self):
        for text in ("", "project = 'x'\n", "source_suffix = suffixes()\n", "source_suffix = (\n", "source_suffix = 3\n"):
            with self.subTest(text=text):
                self.assertEqual(source_suffixes(text), {})

    def test_conf_py_is_parsed_never_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            marker = root / "ran"
            (root / "conf.py").write_text(f"open({str(marker)!r}, 'w').close()\nsource_suffix = '.txt'\n", encoding="utf-8")
            self.assertEqual(SphinxSuffixes(root).read_as(root / "a" / "b.txt"), ".rst")
            self.assertFalse(marker.exists())


class SphinxProjectIndexTest(unittest.TestCase):
    def setUp(self) -> None:
        self.dir = enter_temp_folder(self)
        self.docs = self.dir / "project" / "docs"
        (self.docs / "releases").mkdir(parents=True)
        (self.docs / "releases" / "1.0.txt").write_text(_TITLE_ONLY_RST, encoding="utf-8")
        (self.docs / "theme" / "partials").mkdir(parents=True)
        (self.docs / "theme" / "partials" / "nav.html").write_text(_NAV_PARTIAL, encoding="utf-8")
        (self.docs / "variables.html").write_text(_PAGE_WITH_EXAMPLE, encoding="utf-8")

    def _index(self, path: str) -> dict:
        code, out, err = run_cli("index", path, "--store", "store", "--quiet", "--json")
        self.assertEqual(code, 0, err)
        return json.loads(out)

    def _release_text(self) -> str:
        code, out, err = run_cli("search", "bug fix release", "--store", "store", "--json", "-k", "1")
        self.assertEqual(code, 0, err)
        return json.loads(out)[0]["text"]

    def test_conf_py_makes_txt_rst_and_templates_are_listed_as_skipped(self):
        report = self._index("project/docs")
        self.assertEqual(report["added"], 2)
        reasons = dict(report["skipped"])
        self.assertTrue(reasons["project/docs/theme/partials/nav.html"].startswith("a template, not a page: "))
        self.assertIn("=====", self._release_text())  # no conf.py: a title alone reads as plain text
        (self.docs / "conf.py").write_text("project = 'p'\nsource_suffix = {'.txt': 'restructuredtext'}\n", encoding="utf-8")
        report = self._index("project/docs")
        self.assertEqual((report["updated"], report["unchanged"]), (1, 1))  # only the .txt file is re-read
        self.assertNotIn("=====", self._release_text())

    def test_a_conf_py_above_the_indexed_folder_is_not_read(self):
        (self.dir / "project" / "conf.py").write_text("source_suffix = '.txt'\n", encoding="utf-8")
        self._index("project/docs")
        self.assertIn("=====", self._release_text())


if __name__ == "__main__":
    unittest.main()
