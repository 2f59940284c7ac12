"""PDF sections from the outline or running titles, page furniture left out, page labels."""

from __future__ import annotations

import unittest

from pdf_builder import PdfBuilder, line, outline, page_labels, text_pdf

from agentic_rag._ingest.chunker import chunk_sections
from agentic_rag._ingest.pdf import extract_pdf
from agentic_rag._ingest.pdf_loader import parse_pdf
from agentic_rag._ingest.pdf_pages import analyse_pages


def _page(*lines: bytes, header: tuple[bytes, ...] = (), footer: bytes = b"") -> bytes:
    """A page: header lines from the top, body paragraphs below, a footer line at the bottom."""
    out = b""
    y = 760.0
    for text in header:
        out += line(72, y, text, size=9)
        y -= 14
    y = 700.0
    for text in lines:
        if text:
            out += line(72, y, text)
        y -= 16 if text else 30  # an empty entry: a paragraph break
    if footer:
        out += line(300, 40, footer, size=9)
    return out


_WORDS = (b"alpha", b"bravo", b"charlie", b"delta", b"echo", b"foxtrot", b"golf", b"hotel", b"india", b"juliet")


def _body(n: int) -> bytes:
    """A body line of its own words (lines that differ only in a number would read as furniture)."""
    return b"The %s widget is %s when %s." % (_WORDS[n % 10], _WORDS[(n + 3) % 10], _WORDS[(n + 7) % 10])


def _chunks(data: bytes):
    parsed = parse_pdf(data)
    assert not parsed.problem, parsed.problem
    return chunk_sections(parsed.sections, "manual.pdf", line_marks=True)


def _manual(pages: int = 8, *, offset: int = -2, chapters: tuple[tuple[int, bytes], ...] = ((0, b"Getting started"), (4, b"Configuration"))) -> bytes:
    """A manual whose pages carry its title and the chapter title at the top and a printed
    page number ``offset`` from the page index at the bottom."""
    contents = []
    for index in range(pages):
        chapter = [title for first, title in chapters if first <= index][-1]
        number = b"%d" % (index + 1 + offset) if index + 1 + offset >= 1 else b""
        contents.append(_page(_body(index), b"", _body(index + 5),
                              header=(b"Widget Manual version 2.1", b"Chapter: " + chapter) if index else (), footer=number))
    return text_pdf(contents)


class OutlineSectionTest(unittest.TestCase):
    def _outlined(self, *, named: bool = False) -> bytes:
        pages = [
            _page(b"Guide", b"", b"The guide starts here with an overview."),
            _page(b"Install", b"", b"Run the installer with the defaults.", b"", b"Usage", b"", b"Call the tool with a file name."),
            _page(b"More usage text continues on the third page."),
        ]
        items = ((b"Guide", 1, 0), (b"Install", 2, 1), (b"Usage", 2, 1))
        return text_pdf(pages, catalog=outline(items, named=named))

    def test_the_outline_is_read_with_levels_and_pages(self) -> None:
        for named in (False, True):
            with self.subTest(named=named):
                entries = extract_pdf(self._outlined(named=named)).outline
                self.assertEqual([(e.title, e.level, e.page) for e in entries], [("Guide", 1, 1), ("Install", 2, 2), ("Usage", 2, 2)])

    def test_bookmarks_give_heading_paths_and_cut_the_page_where_they_start(self) -> None:
        sections = {c.text.split("\n")[-1]: c.section for c in _chunks(self._outlined())}
        self.assertEqual(sections["The guide starts here with an overview."], "Guide")
        self.assertEqual(sections["Run the installer with the defaults."], "Guide › Install")
        self.assertEqual(sections["Call the tool with a file name."], "Guide › Usage")
        # A page with no bookmark of its own is in the section open at the end of the last.
        self.assertEqual(sections["More usage text continues on the third page."], "Guide › Usage")

    def test_an_outline_that_loops_ends(self) -> None:
        def looping(builder: PdfBuilder, page_nums: list[int]) -> bytes:
            item = builder.reserve()
            builder.objects[item] = b"<< /Title (Loop) /Next %d 0 R /First %d 0 R /Dest [%d 0 R /Fit] >>" % (item, item, page_nums[0])
            return b"/Outlines << /First %d 0 R >>" % item

        entries = extract_pdf(text_pdf([_page(b"Only page.")], catalog=looping)).outline
        self.assertEqual([(e.title, e.page) for e in entries], [("Loop", 1)])


class PageLabelTest(unittest.TestCase):
    def test_page_labels_follow_the_number_tree(self) -> None:
        data = text_pdf([_page(b"Page %d text." % n) for n in range(1, 7)],
                        catalog=page_labels(((0, b"/S /r"), (2, b"/S /D"), (4, b"/S /A /P (App-) /St 27"))))
        self.assertEqual([p.label for p in extract_pdf(data).pages], ["i", "ii", "1", "2", "App-AA", "App-BB"])

    def test_a_file_label_wins_over_the_printed_number(self) -> None:
        data = text_pdf([_page(_body(n), footer=b"%d" % (n + 40)) for n in range(1, 6)],
                        catalog=page_labels(((0, b"/S /D /St 7"),)))
        self.assertEqual([c.page_label for c in _chunks(data)], ["7", "8", "9", "10", "11"])


class PageFurnitureTest(unittest.TestCase):
    def test_running_headers_and_footers_leave_the_text(self) -> None:
        chunks = _chunks(_manual())
        text = "\n".join(c.text for c in chunks)
        self.assertNotIn("Widget Manual", text)
        self.assertNotIn("Chapter:", text)
        for chunk in chunks:
            self.assertFalse(any(part.strip().isdigit() for part in chunk.text.split("\n")), chunk.text)
        self.assertIn(_body(2).decode(), text)

    def test_the_printed_number_becomes_the_page_label(self) -> None:
        labels = {c.page: c.page_label for c in _chunks(_manual(offset=-2))}
        self.assertEqual(labels, {n: str(n - 2) for n in range(1, 9) if n - 2 >= 1} | {1: "", 2: ""})

    def test_lines_keep_the_numbers_the_page_shows(self) -> None:
        first = _chunks(_manual())[0]
        # The two header lines are lines 1 and 2 of the page: the body starts on line 3 (the
        # first page has no header).
        second = [c for c in _chunks(_manual()) if c.page == 2][0]
        self.assertEqual((first.page, first.start_line, second.start_line), (1, 1, 3))

    def test_running_chapter_titles_name_the_sections(self) -> None:
        sections = {c.page: c.section for c in _chunks(_manual())}
        self.assertEqual(sections, {n: "Chapter: Getting started" if n <= 4 else "Chapter: Configuration" for n in range(1, 9)})

    def test_body_lines_that_merely_look_alike_stay(self) -> None:
        # The same first body line on pages far apart is no header.
        pages = [_page(b"Note: read this first." if n in (0, 5) else _body(n), b"", _body(n + 1)) for n in range(6)]
        self.assertIn("Note: read this first.", "\n".join(c.text for c in _chunks(text_pdf(pages))))

    def test_without_outline_or_running_titles_the_section_stays_empty(self) -> None:
        pages = [_page(_body(n), b"", _body(n + 2)) for n in range(4)]
        self.assertEqual({c.section for c in _chunks(text_pdf(pages))}, {""})

    def test_a_page_is_never_all_furniture(self) -> None:
        # Pages of one template (only a number changes) keep their text.
        pages = [_page(b"Record %d of the register." % n, b"", b"Entry number %d." % n) for n in range(5)]
        self.assertEqual(len(_chunks(text_pdf(pages))), 5)

    def test_short_files_have_no_furniture(self) -> None:
        layouts = analyse_pages([(1, ["Title", "text"]), (2, ["Title", "more"])])
        self.assertEqual([sorted(layout.furniture) for layout in layouts], [[], []])


if __name__ == "__main__":
    unittest.main()
