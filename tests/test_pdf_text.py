"""The PDF extractor's text layer: fonts and encodings, text operators, reading order."""

from __future__ import annotations

import shutil
import tempfile
import unittest
import zlib
from pathlib import Path
from unittest import mock

from pdf_builder import PdfBuilder, line, stream, text_pdf

from agentic_rag._ingest.pdf import extract_pdf, extract_pdf_with_pdftotext


def _text(data: bytes) -> str:
    result = extract_pdf(data)
    assert result.problem is None, result.problem
    return "\n\f\n".join(page.text for page in result.pages)


def _font(encoding: bytes, *, to_unicode: int | None = None) -> bytes:
    extra = b" /ToUnicode %d 0 R" % to_unicode if to_unicode else b""
    return b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding " + encoding + extra + b" >>"


def _cmap(body: bytes, codespace: bytes = b"<00> <FF>") -> bytes:
    program = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Test def "
               b"1 begincodespacerange " + codespace + b" endcodespacerange\n" + body +
               b"\nendcmap CMapName currentdict /CMap defineresource pop end end")
    return stream(b"/Filter /FlateDecode", zlib.compress(program))


def _cid_font(builder: PdfBuilder, encoding: bytes, to_unicode: int | None = None) -> bytes:
    descendant = builder.add(b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Test /CIDSystemInfo "
                             b"<< /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 1000 "
                             b"/W [1 [1000 1000 1000] 32 [250]] >>")
    extra = b" /ToUnicode %d 0 R" % to_unicode if to_unicode else b""
    return b"<< /Type /Font /Subtype /Type0 /BaseFont /Test /Encoding " + encoding + \
        b" /DescendantFonts [%d 0 R]" % descendant + extra + b" >>"


class EncodingTests(unittest.TestCase):
    def test_win_ansi_accents_and_quotes(self) -> None:
        self.assertEqual(_text(text_pdf([line(72, 700, b"Caf\\351 \\223quoted\\224 \\226 na\\357ve")])),
                         "Caf\u00e9 \u201cquoted\u201d \u2013 na\u00efve")

    def test_differences_with_ligatures_and_glyph_name_forms(self) -> None:
        font = _font(b"<< /BaseEncoding /WinAnsiEncoding /Differences [1 /fi /uni03A9 /f_f_l /eacute /u1F600 /bullet] >>")
        self.assertEqual(_text(text_pdf([line(72, 700, b"\\001nance \\002 ba\\003e caf\\004 \\005 \\006")], font=font)),
                         "finance \u03a9 baffle caf\u00e9 \U0001F600 \u2022")

    def test_unknown_glyph_names_stand_for_their_code_and_notdef_is_dropped(self) -> None:
        font = _font(b"<< /Differences [65 /mysteryglyph 66 /.notdef] >>")
        self.assertEqual(_text(text_pdf([line(72, 700, b"xAxBx")], font=font)), "xAx x")

    def test_to_unicode_bfchar_and_both_bfrange_forms_in_greek(self) -> None:
        builder = PdfBuilder()
        cmap = builder.add(_cmap(b"2 beginbfchar <20> <0020> <2E> <002E> endbfchar\n"
                                 b"2 beginbfrange <41> <43> <03B1> <44> <46> [<03B4> <03B5> <03B6>] endbfrange"))
        data = text_pdf([line(72, 700, b"ABC DEF.")], font=_font(b"/WinAnsiEncoding", to_unicode=cmap), builder=builder)
        self.assertEqual(_text(data), "\u03b1\u03b2\u03b3 \u03b4\u03b5\u03b6.")

    def test_right_to_left_lines_read_in_logical_order(self) -> None:
        builder = PdfBuilder()
        # Hebrew is drawn left to right as it looks: final mem, vav, lamed, shin.
        cmap = builder.add(_cmap(b"1 beginbfrange <61> <64> [<05DD> <05D5> <05DC> <05E9>] endbfrange"))
        data = text_pdf([line(72, 700, b"abcd") + line(101, 700, b"dcba")], font=_font(b"/WinAnsiEncoding", to_unicode=cmap),
                        builder=builder)
        self.assertEqual(_text(data), "\u05dd\u05d5\u05dc\u05e9 \u05e9\u05dc\u05d5\u05dd")

    def test_to_unicode_wins_over_the_encoding(self) -> None:
        builder = PdfBuilder()
        cmap = builder.add(_cmap(b"1 beginbfchar <41> <005A> endbfchar"))
        data = text_pdf([line(72, 700, b"ABA")], font=_font(b"/WinAnsiEncoding", to_unicode=cmap), builder=builder)
        self.assertEqual(_text(data), "ZBZ")

    def test_identity_h_two_byte_codes_with_to_unicode_cjk(self) -> None:
        builder = PdfBuilder()
        cmap = builder.add(_cmap(b"1 beginbfrange <0001> <0003> [<65E5> <672C> <8A9E>] endbfrange\n"
                                 b"1 beginbfchar <0020> <0020> endbfchar", codespace=b"<0000> <FFFF>"))
        font = _cid_font(builder, b"/Identity-H", cmap)
        content = b"BT /F1 12 Tf 72 700 Td <000100020003> Tj [<0001> -250 <0002>] TJ ET"
        self.assertEqual(_text(text_pdf([content], font=font, builder=builder)), "\u65e5\u672c\u8a9e\u65e5 \u672c")

    def test_ucs2_cmap_without_to_unicode(self) -> None:
        builder = PdfBuilder()
        font = _cid_font(builder, b"/UniGB-UCS2-H")
        content = b"BT /F1 12 Tf 72 700 Td <4E2D6587> Tj ET"
        self.assertEqual(_text(text_pdf([content], font=font, builder=builder)), "\u4e2d\u6587")

    def test_embedded_type1_builtin_encoding(self) -> None:
        builder = PdfBuilder()
        program = (b"%!PS-AdobeFont-1.0: CMR10\n/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\n"
                   b"dup 12 /fi put\ndup 65 /A put\ndup 123 /endash put\ndup 118 /v put\ndup 101 /e put\n"
                   b"dup 32 /space put\nreadonly def\ncurrentfile eexec\n")
        font_file = builder.add(stream(b"/Length1 %d /Length2 0 /Length3 0" % len(program), program))
        descriptor = builder.add(b"<< /Type /FontDescriptor /FontName /CMR10 /Flags 4 /FontFile %d 0 R >>" % font_file)
        font = b"<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+CMR10 /FontDescriptor %d 0 R >>" % descriptor
        self.assertEqual(_text(text_pdf([line(72, 700, b"\\014ve A\\173B")], font=font, builder=builder)), "five A\u2013")


class OperatorTests(unittest.TestCase):
    def test_tj_kerning_inserts_spaces_only_for_wide_moves(self) -> None:
        content = b"BT /F1 12 Tf 72 700 Td [(Hel) -20 (lo) -400 (World) 120 (!)] TJ ET"
        self.assertEqual(_text(text_pdf([content])), "Hello World!")

    def test_line_operators_keep_their_order(self) -> None:
        content = (b"BT /F1 12 Tf 14 TL 72 700 Td (first) Tj T* (second) Tj 0 -14 TD (third) Tj "
                   b"1 0 0 1 72 658 Tm (fourth) Tj (fifth) ' 3 0 (sixth) \" ET")
        self.assertEqual(_text(text_pdf([content])), "first\nsecond\nthird\nfourth\nfifth\nsixth")

    def test_lines_drawn_bottom_first_read_top_to_bottom(self) -> None:
        content = line(72, 600, b"three") + line(72, 628, b"one") + line(72, 614, b"two")
        self.assertEqual(_text(text_pdf([content])), "one\ntwo\nthree")

    def test_gaps_between_runs_make_word_spaces(self) -> None:
        # Helvetica "Hello" at 12 pt is 27.336 units wide.
        content = line(72, 700, b"Hello") + line(72 + 27.336 + 4, 700, b"World") + \
            line(72, 686, b"Hello") + line(72 + 27.336 + 0.3, 686, b"World")
        self.assertEqual(_text(text_pdf([content])), "Hello World\nHelloWorld")

    def test_word_spacing_moves_the_glyphs_after_a_space(self) -> None:
        # With 20 Tw, "b" ends at 72 + a + space + 20 + b; "c" drawn just there joins it.
        after_b = 72 + 6.672 + 3.336 + 20 + 6.672
        with_tw = b"BT /F1 12 Tf 20 Tw 72 700 Td (a b) Tj ET " + line(after_b + 0.3, 700, b"c")
        without = b"BT /F1 12 Tf 72 700 Td (a b) Tj ET " + line(after_b + 0.3, 700, b"c")
        self.assertIn("bc", _text(text_pdf([with_tw])))
        self.assertNotIn("bc", _text(text_pdf([without])))

    def test_cm_and_q_scale_and_restore(self) -> None:
        content = b"q 2 0 0 2 0 0 cm " + line(36, 350, b"scaled") + b"Q " + line(72, 650, b"plain")
        self.assertEqual(_text(text_pdf([content])), "scaled\n\nplain")

    def test_accents_drawn_apart_land_on_their_letter(self) -> None:
        # TeX's accent command: the circumflex (WinAnsi 0x88) is drawn over the "o" of "ole".
        content = line(72, 700, b"r") + line(76.5, 700, b"\\210") + line(76, 700, b"ole")
        self.assertEqual(_text(text_pdf([content])), "r\u00f4le")

    def test_superscripts_join_their_line(self) -> None:
        content = line(72, 700, b"E = mc") + b"BT /F1 7 Tf 110 705 Td (2) Tj ET " + line(118, 700, b"holds")
        self.assertEqual(_text(text_pdf([content])), "E = mc2 holds")

    def test_paragraph_gap_gives_a_blank_line_and_hyphens_rejoin(self) -> None:
        content = line(72, 700, b"An exam-") + line(72, 686, b"ple of text.") + line(72, 640, b"Next paragraph.")
        self.assertEqual(_text(text_pdf([content])), "An example\nof text.\n\nNext paragraph.")

    def test_two_columns_read_left_then_right(self) -> None:
        content = b""
        for row in range(5):
            y = 700 - 14 * row
            content += line(320, y, b"right%d" % row) + line(72, y, b"left%d" % row)
        content += line(72, 600, b"A full width line that crosses the gutter between both columns here")
        text = _text(text_pdf([content]))
        order = [word for word in text.split() if word.startswith(("left", "right"))]
        self.assertEqual(order, [f"left{i}" for i in range(5)] + [f"right{i}" for i in range(5)])
        self.assertTrue(text.endswith("between both columns here"))

    def test_a_heading_reads_before_the_margin_notes_below_it(self) -> None:
        content = line(200, 720, b"Heading", size=16)
        for row in range(4):
            content += line(150, 680 - 12 * row, b"body text line %d" % row, size=10)
        content += line(60, 680, b"note", size=7)
        words = _text(text_pdf([content])).split()
        self.assertEqual(words[0], "Heading")
        self.assertEqual(words.index("note"), 1)

    def test_form_xobject_with_its_own_resources(self) -> None:
        builder = PdfBuilder()
        courier = builder.add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>")
        form = builder.add(stream(b"/Type /XObject /Subtype /Form /BBox [0 0 500 500] /Matrix [1 0 0 1 0 -100] "
                                  b"/Resources << /Font << /F9 %d 0 R >> >>" % courier, line(72, 700, b"inside the form", font=b"F9")))
        content = line(72, 700, b"page text") + b" /Fm1 Do"
        data = text_pdf([content], extra_resources=b"/XObject << /Fm1 %d 0 R >>" % form, builder=builder)
        self.assertEqual(_text(data), "page text\n\ninside the form")

    def test_inline_image_bytes_do_not_leak_into_text(self) -> None:
        content = (line(72, 700, b"before") + b"q BI /W 4 /H 1 /BPC 8 /CS /G ID (ET) Tj [)\xff EI Q\n"
                   + line(72, 686, b"after"))
        self.assertEqual(_text(text_pdf([content])), "before\nafter")

    def test_rotated_text_follows_the_upright_text(self) -> None:
        content = b"BT /F1 12 Tf 0 1 -1 0 50 100 Tm (sideways) Tj ET " + line(72, 700, b"upright")
        self.assertEqual(_text(text_pdf([content])), "upright\n\nsideways")

    def test_empty_pages_are_omitted_and_numbers_kept(self) -> None:
        result = extract_pdf(text_pdf([line(72, 700, b"one"), b"", line(72, 700, b"three")]))
        self.assertEqual([(page.number, page.text) for page in result.pages], [(1, "one"), (3, "three")])
        self.assertEqual(result.skipped, ())


class PdftotextTests(unittest.TestCase):
    def test_missing_program_is_a_problem(self) -> None:
        with mock.patch("agentic_rag._ingest.pdf.shutil.which", return_value=None):
            self.assertIn("not installed", extract_pdf_with_pdftotext("missing.pdf").problem)

    @unittest.skipIf(shutil.which("pdftotext") is None, "pdftotext (poppler-utils) is not installed")
    def test_reference_agrees_on_a_generated_file(self) -> None:
        data = text_pdf([line(72, 700, b"Alpha beta gamma") + line(72, 686, b"delta epsilon"), line(72, 700, b"Second page")])
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "sample.pdf"
            path.write_bytes(data)
            reference = extract_pdf_with_pdftotext(path)
        ours = extract_pdf(data)
        self.assertIsNone(reference.problem)
        self.assertEqual([(p.number, p.text.split()) for p in reference.pages], [(p.number, p.text.split()) for p in ours.pages])

    def test_tags_beside_their_descriptions_read_row_by_row(self) -> None:
        # A man page's short option tags, each with its description on its baseline: a table
        # to poppler, read row by row (tag, description, next tag), not tags first.
        content = line(72, 720, b"OPTIONS", size=10)
        for row, (tag, text) in enumerate(((b"-a", b"list every entry there is"), (b"-b", b"print escapes for odd bytes"),
                                           (b"-c", b"sort by the change time"))):
            content += line(108, 700 - 24 * row, tag, size=10) + line(144, 700 - 24 * row, text, size=10)
        words = _text(text_pdf([content])).split()
        self.assertEqual(words[:7], ["OPTIONS", "-a", "list", "every", "entry", "there", "is"])
        self.assertEqual(words.index("-c"), words.index("bytes") + 1)
        if shutil.which("pdftotext") is not None:
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "tags.pdf"
                path.write_bytes(text_pdf([content]))
                self.assertEqual(extract_pdf_with_pdftotext(path).pages[0].text.split(), words)


if __name__ == "__main__":
    unittest.main()
