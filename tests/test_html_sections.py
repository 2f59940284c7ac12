"""HTML heading paths, note boxes, navigation; list pages by shape and their rank; Word headings."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from pdf_builder import text_pdf
from test_docx_loader import docx_bytes, para
from test_pdf_sections import _WORDS, _chunks, _page

from agentic_rag._ingest.chunker import chunk_sections
from agentic_rag._ingest.docx_loader import parse_docx
from agentic_rag._ingest.html_loader import parse_html
from agentic_rag._ingest.list_pages import is_list_page
from agentic_rag._retrieval.hits import SearchHit
from agentic_rag._store import KnowledgeStore
from agentic_rag._store.list_pages import asks_for_list, demote_list_pages


def _sections(html: str) -> dict[str, str]:
    """Each paragraph's text -> the heading path of the chunk holding it."""
    out = {}
    for chunk in chunk_sections(parse_html(html), "page.html", line_marks=True):
        for part in chunk.text.split("\n\n"):
            out[part] = chunk.section
    return out


PAGE = """<html><head><title>Locks</title></head><body>
<div class="navheader"><table><tr><th>20.12. Lock Management</th></tr>
<tr><td><a href="prev.html">Prev</a></td><td><div class="inner">Up</div></td></tr></table><hr/></div>
<nav><ul><li><a href="/">Home</a></li></ul></nav>
<h1>Server Configuration</h1>
<p>Opening words.</p>
<h2>Lock Management</h2>
<p>Deadlocks are checked after a timeout.</p>
<div class="note"><h3 class="title">Note</h3><p>The timeout is per session.</p></div>
<p>After the box, still about locks.</p>
<div class="warning"><h3>Warning:</h3><p>Never set it to zero.</p></div>
<h3>Details</h3>
<p>Deeper text.</p>
<h2>Logging</h2>
<p>Log lines.</p>
<div role="navigation"><p>Next chapter</p></div>
<footer><p>Copyright the group.</p></footer>
<div class="navfooter"><p>Prev Up Next</p></div>
</body></html>"""


class HtmlSectionTest(unittest.TestCase):
    def test_headings_give_a_path_of_the_open_headings(self) -> None:
        sections = _sections(PAGE)
        self.assertEqual(sections["Opening words."], "Server Configuration")
        self.assertEqual(sections["Deadlocks are checked after a timeout."], "Server Configuration › Lock Management")
        self.assertEqual(sections["Deeper text."], "Server Configuration › Lock Management › Details")
        self.assertEqual(sections["Log lines."], "Server Configuration › Logging")

    def test_a_note_box_keeps_the_section_it_stands_in(self) -> None:
        sections = _sections(PAGE)
        for text in ("The timeout is per session.", "After the box, still about locks.", "Never set it to zero."):
            self.assertEqual(sections[text], "Server Configuration › Lock Management", text)
        self.assertFalse(any(path.endswith(("Note", "Warning:")) for path in sections.values()))
        self.assertIn("Note", sections)  # the box's title stays a line of text

    def test_navigation_bars_and_footers_are_not_text(self) -> None:
        text = "\n".join(_sections(PAGE))
        for gone in ("Prev", "Up", "Home", "Next chapter", "Copyright", "20.12."):
            self.assertNotIn(gone, text)
        self.assertIn("Log lines.", text)

    def test_the_page_title_titles_the_text_before_any_heading(self) -> None:
        sections = parse_html("<title>T</title><p>Before.</p><h2>H</h2><p>After.</p>")
        self.assertEqual([(s.title, s.heading_path) for s in sections], [("T", "T"), ("H", "H")])


def _index_html(terms: int = 40) -> str:
    entries = "".join(f'<dt><a href="p{n}.html">term{n} lock</a>, <a href="s{n}.html">Section {n}</a></dt>' for n in range(terms))
    return f"<html><head><title>Index</title></head><body><h1>Index</h1><dl>{entries}</dl></body></html>"


class ListPageTest(unittest.TestCase):
    def test_an_html_index_is_a_list_page_and_an_article_is_not(self) -> None:
        self.assertTrue(all(section.list_page for section in parse_html(_index_html())))
        article = "".join(f"<p>Paragraph {n} explains how locks wait, see <a href='x.html'>x</a>.</p>" for n in range(40))
        self.assertFalse(any(section.list_page for section in parse_html(f"<title>Locks</title>{article}")))
        # Few lines: a short page, whatever its links.
        self.assertFalse(any(section.list_page for section in parse_html(_index_html(5))))

    def test_a_list_of_outside_links_is_content(self) -> None:
        # A glossary citing its sources links elsewhere: its definitions are content.
        entries = "".join(f'<dt><a href="https://example.org/t{n}">T{n}</a></dt><dd>Term {n}</dd>' for n in range(30))
        self.assertFalse(any(section.list_page for section in parse_html(f"<title>Acronyms</title><dl>{entries}</dl>")))

    def test_a_table_of_numbers_is_no_index(self) -> None:
        self.assertFalse(is_list_page([f"{n} | {n * 7} | {n % 3}" for n in range(30)]))

    def test_a_pdf_table_of_contents_is_a_list_page(self) -> None:
        toc = [b"Contents"] + [b"%d.%d %s %s . . . . . . . . . . %d" % (n // 3, n % 3, _WORDS[n % 10], _WORDS[n // 10], n + 4)
                               for n in range(30)]
        pages = [_page(*toc[:16]), _page(*toc[16:]), _page(b"The body of the manual starts here.")]
        flags = {c.page: c.list_page for c in _chunks(text_pdf(pages))}
        self.assertEqual(flags, {1: True, 2: True, 3: False})

    def test_shape_rules(self) -> None:
        index = [f"term {n}, {n * 3}, {n * 3 + 5}" for n in range(20)]
        self.assertTrue(is_list_page(index))
        prose = [f"Line {n} of a long paragraph that goes on and on with many words in it." for n in range(20)]
        self.assertFalse(is_list_page(prose))
        entries = [f"entry {chr(97 + n)}" for n in range(20)]
        self.assertTrue(is_list_page(entries, linked_share=0.9))
        self.assertFalse(is_list_page(entries, linked_share=0.1))

    def test_queries_that_ask_for_the_list(self) -> None:
        for query in ("table of contents", "Where is the alphabetical index?", "index", "site map of the docs"):
            self.assertTrue(asks_for_list(query), query)
        for query in ("how do I create an index", "rebuild the index after an upgrade", "lock timeout"):
            self.assertFalse(asks_for_list(query), query)

    def test_list_hits_go_below_content_hits_with_a_lower_score(self) -> None:
        hits = [SearchHit("idx#0", 9.0), SearchHit("a#0", 5.0), SearchHit("idx#1", 4.0), SearchHit("b#0", 3.0)]
        ranked = demote_list_pages(hits, "lock timeout", lambda hit: hit.document_id.startswith("idx"))
        self.assertEqual([h.document_id for h in ranked], ["a#0", "b#0", "idx#0", "idx#1"])
        self.assertTrue(ranked[2].score < 3.0 and ranked[3].score < 3.0)
        self.assertEqual(demote_list_pages(hits, "table of contents", lambda hit: True), hits)


class ListPageStoreTest(unittest.TestCase):
    def test_the_store_ranks_the_index_page_below_the_content_page(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "docs").mkdir()
            (root / "docs" / "genindex.html").write_text(_index_html())
            (root / "docs" / "locks.html").write_text("<title>Locks</title><h1>Locks</h1><p>A lock waits for the timeout.</p>")
            store = KnowledgeStore(root / "store")
            store.index(root / "docs")
            paths = [hit.path for hit in store.search("lock", 5)]
            self.assertEqual(paths[0], "docs/locks.html")
            # still searchable: a candidate of the first stage (the search's cut may leave it
            # out when the content page is clearly better)
            self.assertIn("docs/genindex.html", [hit.path for hit in store._first_stage("lock", 5, None)])
            self.assertEqual(store.retriever().retrieve("lock", 3)[0].metadata["path"], "docs/locks.html")
            self.assertEqual(store.search("alphabetical index lock", 1)[0].path, "docs/genindex.html")


class WordHeadingTest(unittest.TestCase):
    def test_heading_styles_give_chunks_their_heading_path(self) -> None:
        body = (para("Overview", "Heading1") + para("The plant produced 12 tons.") + para("Safety", "Heading2")
                + para("No incidents were reported.") + para("Audit", "Heading1") + para("Passed."))
        chunks = chunk_sections(parse_docx(docx_bytes(body)).sections, "report.docx", line_marks=True)
        sections = {chunk.text.split("\n\n")[-1]: chunk.section for chunk in chunks}
        self.assertEqual(sections, {"The plant produced 12 tons.": "Overview", "No incidents were reported.": "Overview › Safety",
                                    "Passed.": "Audit"})


if __name__ == "__main__":
    unittest.main()


class HighlightedCodeAndPermalinksTest(unittest.TestCase):
    """Sphinx pages: code highlighted token by token, and a permalink sign after each heading."""

    PAGE = ('<html><body><h1>tomllib<a class="headerlink" href="#t" title="Permalink to this heading">\u00b6</a></h1>\n'
            '<div class="highlight"><pre><span></span><span class="kn">import</span> <span class="nn">tomllib</span>\n\n'
            '<span class="k">with</span> <span class="nb">open</span><span class="p">(</span><span class="s2">&quot;a.toml&quot;</span>'
            '<span class="p">)</span> <span class="k">as</span> <span class="n">f</span><span class="p">:</span>\n'
            '    <span class="n">data</span> <span class="o">=</span> <span class="n">tomllib</span><span class="o">.</span>'
            '<span class="n">load</span><span class="p">(</span><span class="n">f</span><span class="p">)</span>\n</pre></div>\n'
            '</body></html>')

    def test_spaces_between_highlighted_tokens_and_indentation_are_kept(self):
        text = "\n".join(block.text for section in parse_html(self.PAGE) for block in section.blocks)
        self.assertIn("import tomllib", text)
        self.assertIn('with open("a.toml") as f:', text)
        self.assertIn("    data = tomllib.load(f)", text)

    def test_the_permalink_sign_is_no_part_of_the_heading(self):
        sections = parse_html(self.PAGE)
        self.assertEqual(sections[0].title, "tomllib")
