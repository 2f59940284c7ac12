"""Telling a page from a template: HTML whose text is mostly Jinja, Django or Liquid syntax.

A docs theme's partials (``overrides/partials/nav.html``), a web app's templates and a Sphinx
theme's ``layout.html`` are HTML files whose visible text is ``{% for item in nav %}`` and
``{{ item.title }}``: indexed, they become a corpus of their own and turn up as evidence. A
file is a template when at least :data:`TEMPLATE_SHARE` of the non-blank characters of the
text the HTML loader extracts lies inside ``{% %}``, ``{{ }}`` or ``{# #}``.

The line was measured on real files. 210 templates with text (Django 5.2's admin, forms and
error-page templates and the theme of its documentation, Sphinx 9's themes, and 20 templates
shipped in other Python packages): median share 1.0, 207 at 0.5 or more; the three below
(0.10, 0.22, 0.23) are error and status pages whose text is mostly prose, which is worth
indexing. 2,870 real HTML pages with text (1,500 drawn at random from Rust's documentation,
the pages of it that hold ``{{``, and npm's, Node.js's, libxslt's, Valgrind's and other
installed manuals; 82 hold ``{{``): none above 0.23 (a Rust source page whose macros use
``{{ }}``), so a page with an example or two of template syntax is indexed. The measurement
is ``bench/ingestion/measure_ingest_rules.py``.
"""

from __future__ import annotations

import re

__all__ = ["TEMPLATE_SHARE", "template_problem", "template_share"]

#: The share of a file's text inside template tags from which it is a template, not a page.
TEMPLATE_SHARE = 0.5

# A tag never holds another opening of its kind and stays short, so a literal "{{" in code
# (a Rust format string) does not swallow the text up to a "}}" pages later, and the scan from
# one opening stops at the next: a text of "{#" repeated costs linear time, not 2,000
# characters from every opening.
_TAG = re.compile(r"\{%(?:(?!%\}|\{%).){0,400}?%\}|\{\{(?:(?!\}\}|\{\{).){0,400}?\}\}|\{#(?:(?!#\}|\{#).){0,2000}?#\}", re.DOTALL)
_SPACE = re.compile(r"\s+")


def template_share(text: str) -> float:
    """The share (0 to 1) of the non-blank characters of ``text`` inside template tags.

    Args:
        text: Text extracted from an HTML file.

    Returns:
        The share; 0.0 for blank text.
    """
    total = len(_SPACE.sub("", text))
    if not total:
        return 0.0
    inside = sum(len(_SPACE.sub("", m.group())) for m in _TAG.finditer(text))
    return inside / total


def template_problem(text: str) -> str:
    """Why an HTML file's extracted ``text`` is not indexed, or ``""`` when it is a page."""
    share = template_share(text)
    if share < TEMPLATE_SHARE:
        return ""
    return f"a template, not a page: {share:.0%} of its text is template syntax ({{% %}}, {{{{ }}}}, {{# #}})"
