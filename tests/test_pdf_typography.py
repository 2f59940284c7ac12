"""PDF typography: bold faces and line styles, and the sections a file without an outline gets
from its headings (a man page's ``OPTIONS`` and option tags, a report's larger headings)."""

from __future__ import annotations

import unittest

from pdf_builder import PdfBuilder, line, outline, text_pdf

from agentic_rag._ingest.chunker import chunk_sections
from agentic_rag._ingest.pdf import LineStyle, extract_pdf
from agentic_rag._ingest.pdf_headings import typography_segments
from agentic_rag._ingest.pdf_loader import parse_pdf

_ROMAN = b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>"
_BOLD = b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Bold /Encoding /WinAnsiEncoding >>"
_ITALIC = b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Italic /Encoding /WinAnsiEncoding >>"
_FONTS = {b"F2": _BOLD, b"F3": _ITALIC}


def _show(x: float, y: float, *parts: tuple[bytes, bytes], size: float = 10) -> bytes:
    """One line in several fonts: ``(font, text)`` pieces shown one after the other."""
    out = b"BT %g %g Td " % (x, y)
    for font, text in parts:
        out += b"/%s %g Tf (%s) Tj " % (font, size, text)
    return out + b"ET\n"


def _furniture(number: int) -> bytes:
    """The running header and footer groff prints on every page of a man page."""
    return (line(72, 750, b"TOOL(1)", size=10) + line(250, 750, b"General Commands Manual", size=10) + line(500, 750, b"TOOL(1)", size=10)
            + line(72, 40, b"tool 1.4", size=10) + line(280, 40, b"June 2024", size=10) + line(530, 40, b"%d" % number, size=10))


def _heading(y: float, text: bytes) -> bytes:
    return line(72, y, text, font=b"F2", size=10.9)


def _text(x: float, y: float, text: bytes, font: bytes = b"F1") -> bytes:
    """A line of the body's 10 point type."""
    return line(x, y, text, font=font, size=10)


def _man_page(catalog=None) -> bytes:
    """Three pages set like ``groff -man -Tpdf``: bold flush-left section headings, body text
    indented under them, bold option tags over (or beside) their indented descriptions."""
    first = (_furniture(1) + _heading(700, b"NAME") + _text(108, 686, b"tool - frobnicate the widgets of a folder")
             + _heading(662, b"SYNOPSIS") + _show(108, 648, (b"F2", b"tool"), (b"F1", b" [OPTION]... FILE"))
             + _heading(624, b"OPTIONS")
             + _text(108, 610, b"The options below change how each widget is frobnicated.")
             + _text(108, 586, b"-a, --all", b"F2") + _text(144, 574, b"frobnicate hidden widgets too, even those")
             + _text(144, 562, b"whose names start with a dot")
             # Short tags with their description beside them, on the same baseline.
             + _text(108, 538, b"-b", b"F2") + _text(144, 538, b"bend every widget backwards first")
             + _text(108, 514, b"-c", b"F2") + _text(144, 514, b"count the widgets and print the total")
             + _show(108, 490, (b"F2", b"--color="), (b"F3", b"WHEN")) + _text(144, 478, b"colour the report as WHEN says")
             + _text(108, 454, b"Exit status is zero when every widget was frobnicated."))
    second = (_furniture(2) + _heading(700, b"PARAMETERS")
              + _text(108, 686, b"A parameter is an entity that stores a widget setting.")
              + _text(90, 662, b"Special Parameters", b"F2") + _text(108, 650, b"The shell treats several parameters specially.")
              + _text(108, 626, b"depth", b"F2") + _text(144, 614, b"how deep the frobnication reaches into subfolders")
              + _text(108, 590, b"Parameters are read once, when the tool starts.")
              # A tag whose carets are set two points larger: still a tag, not a title above
              # the man page's sections.
              + b"BT 108 566 Td /F2 12 Tf (^) Tj /F2 10 Tf (old) Tj /F2 12 Tf (^) Tj /F2 10 Tf (new) Tj ET\n"
              + _text(144, 554, b"repeat the last command with old replaced by new"))
    third = _furniture(3) + _heading(700, b"SEE ALSO") + _text(108, 686, b"widgets(7), frob(1)")
    return text_pdf([first, second, third], font=_ROMAN, fonts=_FONTS, catalog=catalog)


def _chunks(data: bytes):
    parsed = parse_pdf(data)
    assert not parsed.problem, parsed.problem
    return chunk_sections(parsed.sections, "tool.pdf")


def _section_of(chunks, text: str) -> str:
    found = [c.section for c in chunks if text in c.text]
    assert len(found) == 1, (text, found)
    return found[0]


class BoldFaceTest(unittest.TestCase):
    def _bold(self, font: bytes, builder: PdfBuilder | None = None) -> int:
        page = extract_pdf(text_pdf([line(72, 700, b"Heading")], font=font, builder=builder)).pages[0]
        return page.styles[0].bold

    def test_the_font_name_tells_a_bold_face(self) -> None:
        cases = {b"Times-Bold": True, b"ABCDEF+Inter-SemiBold": True, b"Arial,Bold": True, b"NimbusSans-Black": True,
                 b"Helvetica": False, b"Times-Italic": False, b"Boldini-Regular": False, b"CMBX10": True, b"CMR10": False}
        for name, bold in cases.items():
            with self.subTest(name=name):
                font = b"<< /Type /Font /Subtype /Type1 /BaseFont /" + name + b" /Encoding /WinAnsiEncoding >>"
                self.assertEqual(self._bold(font), len("Heading") if bold else 0)

    def test_the_descriptor_tells_a_bold_face(self) -> None:
        for entries, bold in ((b"/FontWeight 700", True), (b"/Flags 262144", True), (b"/FontWeight 400 /Flags 32", False)):
            with self.subTest(entries=entries):
                builder = PdfBuilder()
                descriptor = builder.add(b"<< /Type /FontDescriptor /FontName /Custom " + entries + b" >>")
                font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Custom /Encoding /WinAnsiEncoding /FontDescriptor %d 0 R >>" % descriptor
                self.assertEqual(self._bold(font, builder), len("Heading") if bold else 0)


class LineStyleTest(unittest.TestCase):
    def test_each_line_has_its_indent_size_and_bold_start(self) -> None:
        content = (line(72, 700, b"OPTIONS", font=b"F2", size=12) + _show(108, 680, (b"F2", b"--color="), (b"F3", b"WHEN"))
                   + line(144, 668, b"colour the output"))
        page = extract_pdf(text_pdf([content], font=_ROMAN, fonts=_FONTS)).pages[0]
        lines = page.text.split("\n")
        self.assertEqual(len(lines), len(page.styles))
        styled = {text: style for text, style in zip(lines, page.styles) if style is not None}
        self.assertEqual(set(styled), {"OPTIONS", "--color=WHEN", "colour the output"})
        self.assertEqual([round(styled[t].x0) for t in ("OPTIONS", "--color=WHEN", "colour the output")], [72, 108, 144])
        self.assertEqual(round(styled["OPTIONS"].size), 12)
        self.assertEqual((styled["OPTIONS"].bold, styled["--color=WHEN"].bold, styled["colour the output"].bold), (7, 8, 0))
        # Blank lines between blocks have no style.
        self.assertTrue(all(style is None for text, style in zip(lines, page.styles) if not text))

    def test_a_wide_gap_marks_where_a_tag_ends(self) -> None:
        # The tag's block takes in the text beside it, which the line under it overlaps.
        content = line(108, 700, b"-l", font=b"F2") + line(160, 700, b"also list the leaders of") + line(108, 688, b"every group in the report")
        page = extract_pdf(text_pdf([content], font=_ROMAN, fonts=_FONTS)).pages[0]
        styles = dict(zip(page.text.split("\n"), page.styles))
        self.assertEqual(styles["-l also list the leaders of"].tab, 2)
        self.assertEqual(styles["every group in the report"].tab, 0)


class TypographySectionTest(unittest.TestCase):
    def test_a_man_page_gets_its_sections_and_option_tags(self) -> None:
        chunks = _chunks(_man_page())
        self.assertEqual(_section_of(chunks, "frobnicate the widgets of a folder"), "NAME")
        self.assertEqual(_section_of(chunks, "[OPTION]... FILE"), "SYNOPSIS")
        self.assertEqual(_section_of(chunks, "change how each widget"), "OPTIONS")
        self.assertEqual(_section_of(chunks, "whose names start with a dot"), "OPTIONS › -a, --all")
        self.assertEqual(_section_of(chunks, "bend every widget backwards"), "OPTIONS › -b")
        self.assertEqual(_section_of(chunks, "count the widgets"), "OPTIONS › -c")
        self.assertEqual(_section_of(chunks, "colour the report"), "OPTIONS › --color=WHEN")
        # The paragraph after the option list, at the tags' indent, is back in OPTIONS.
        self.assertEqual(_section_of(chunks, "Exit status is zero"), "OPTIONS")
        self.assertEqual(_section_of(chunks, "stores a widget setting"), "PARAMETERS")
        self.assertEqual(_section_of(chunks, "treats several parameters"), "PARAMETERS › Special Parameters")
        self.assertEqual(_section_of(chunks, "how deep the frobnication"), "PARAMETERS › Special Parameters › depth")
        self.assertEqual(_section_of(chunks, "read once"), "PARAMETERS › Special Parameters")
        self.assertEqual(_section_of(chunks, "with old replaced by new"), "PARAMETERS › Special Parameters › ^old^new")
        self.assertEqual(_section_of(chunks, "widgets(7)"), "SEE ALSO")

    def test_running_headers_and_footers_are_no_headings_and_labels_stay(self) -> None:
        chunks = _chunks(_man_page())
        text = "\n".join(c.text for c in chunks)
        for furniture in ("TOOL(1)", "General Commands Manual", "June 2024", "tool 1.4"):
            self.assertNotIn(furniture, text)
            self.assertFalse(any(furniture in c.section for c in chunks), furniture)
        self.assertEqual(sorted({(c.page, c.page_label) for c in chunks}), [(1, "1"), (2, "2"), (3, "3")])

    def test_the_reading_order_keeps_each_tag_with_its_description(self) -> None:
        text = extract_pdf(_man_page()).pages[0].text
        order = [text.index(part) for part in ("-b", "bend every", "-c", "count the widgets", "--color=WHEN")]
        self.assertEqual(order, sorted(order))

    def test_the_outline_wins_where_there_is_one(self) -> None:
        outlined = _man_page(outline(((b"Tool manual", 1, 0), (b"Parameters", 2, 1))))
        self.assertEqual({c.section for c in _chunks(outlined)}, {"Tool manual", "Tool manual › Parameters"})

    def test_plain_tags_of_a_list_and_tags_that_start_their_description(self) -> None:
        content = _heading(700, b"TESTS")
        y = 686.0
        for tag, text in ((b"-user uname", b"File is owned by user uname."), (b"-group gname", b"File belongs to group gname."),
                          (b"-size n", b"File uses n units of space.")):
            content += _text(108, y, tag) + _text(144, y - 12, text)
            y -= 36
        # A short line of running text over an indented example is no tag, even at the list's
        # indents: no tag of the list follows it.
        content += _text(108, y, b"An alias is expanded before the line is read, so the line")
        content += _text(108, y - 24, b"would become") + _text(144, y - 38, b"ls -l --color=auto")
        content += _text(108, y - 62, b"once the alias is expanded.")
        y -= 86
        # Two plain lines over text indented otherwise are no list: no tags.
        content += _heading(y, b"NOTES")
        for tag, text in ((b"first note", b"Widgets are counted once."), (b"second note", b"Folders are never counted.")):
            y -= 14
            content += _text(108, y, tag) + _text(126, y - 12, text)
            y -= 22
        # A bold tag with the start of its description on one line, the rest indented under it.
        content += _heading(y - 14, b"ACTIONS") + _show(108, y - 28, (b"F2", b"-delete"), (b"F1", b" Delete files or folders; true if the"))
        content += _text(144, y - 40, b"removal succeeded, false when it failed.")
        chunks = _chunks(text_pdf([content], font=_ROMAN, fonts=_FONTS))
        self.assertEqual(_section_of(chunks, "owned by user"), "TESTS › -user uname")
        self.assertEqual(_section_of(chunks, "uses n units"), "TESTS › -size n")
        self.assertEqual(_section_of(chunks, "--color=auto"), "TESTS")
        self.assertEqual(_section_of(chunks, "never counted"), "NOTES")
        self.assertEqual(_section_of(chunks, "removal succeeded"), "ACTIONS › -delete")

    def test_larger_headings_over_flush_paragraphs(self) -> None:
        content = (line(72, 720, b"Results", font=b"F2", size=16) + line(72, 700, b"The widgets were counted twice over the year.")
                   + line(72, 688, b"Both counts agree to the last widget.")
                   + line(72, 650, b"Discussion", font=b"F2", size=16) + line(72, 630, b"Counting twice costs little and finds slips."))
        chunks = _chunks(text_pdf([content], font=_ROMAN, fonts=_FONTS))
        self.assertEqual(_section_of(chunks, "counted twice"), "Results")
        self.assertEqual(_section_of(chunks, "finds slips"), "Discussion")

    def test_bold_words_in_running_text_are_no_headings(self) -> None:
        content = (_show(72, 700, (b"F2", b"Widgets"), (b"F1", b" are counted by the tool, one folder at a time,"))
                   + line(72, 688, b"and the total is printed at the end of the run.")
                   + line(72, 660, b"Always back up the widgets first.", font=b"F2") + line(72, 648, b"A frobnicated widget cannot be restored.")
                   + line(72, 620, b"Counts,", font=b"F2") + line(108, 608, b"then totals, are written to the log."))
        chunks = _chunks(text_pdf([content], font=_ROMAN, fonts=_FONTS))
        self.assertEqual({c.section for c in chunks}, {""})

    def test_infinite_or_missing_coordinates_give_no_headings(self) -> None:
        inf, nan = float("inf"), float("nan")
        styles = [LineStyle(inf, inf, 10, 4, 0), LineStyle(nan, nan, nan, 0, 0), LineStyle(72, 90, 10, 4, 0), LineStyle(inf, inf, 10, 0, 0)]
        pages = [(["NAME", "text", "HEAD", "more"], styles, frozenset()), (["no styles"], (), frozenset())]
        self.assertEqual(typography_segments(pages), [[(0, ())], [(0, ())]])


if __name__ == "__main__":
    unittest.main()
