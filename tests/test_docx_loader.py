"""The Word (.docx) loader: headings, lists, tables, footnotes, line numbers, bad archives.

Documents are built here from XML strings (a .docx is a zip of XML parts), so every case shows
the markup it reads.
"""

from __future__ import annotations

import io
import tempfile
import unittest
import zipfile
from pathlib import Path
from unittest import mock

from agentic_rag._ingest import chunk_sections, parse_docx, parse_source, read_source
from agentic_rag._ingest import docx_parts

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
STYLES = (f'<w:styles {W}>'
          '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>'
          '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>'
          '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Heading1"/></w:style>'
          '<w:style w:type="paragraph" w:styleId="MyHeading"><w:name w:val="My Heading"/><w:basedOn w:val="Heading2"/></w:style>'
          '<w:style w:type="paragraph" w:styleId="ListBullet"><w:name w:val="List Bullet"/>'
          '<w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>'
          '</w:styles>')
NUMBERING = (f'<w:numbering {W}>'
             '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/></w:lvl>'
             '<w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum>'
             '<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/></w:lvl>'
             '<w:lvl w:ilvl="1"><w:numFmt w:val="lowerLetter"/></w:lvl></w:abstractNum>'
             '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>'
             '</w:numbering>')


def para(text: str = "", style: str = "", num: tuple[str, int] | None = None, runs: str = "") -> str:
    """One ``<w:p>``: a style, list numbering, and either plain text or raw run XML."""
    props = (f'<w:pStyle w:val="{style}"/>' if style else "") + (
        f'<w:numPr><w:ilvl w:val="{num[1]}"/><w:numId w:val="{num[0]}"/></w:numPr>' if num else "")
    body = runs or (f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>' if text else "")
    return f"<w:p>{'<w:pPr>' + props + '</w:pPr>' if props else ''}{body}</w:p>"


def table(rows: list[list[str]]) -> str:
    cells = "".join("<w:tr>" + "".join(f"<w:tc>{para(cell)}</w:tc>" for cell in row) + "</w:tr>" for row in rows)
    return f"<w:tbl>{cells}</w:tbl>"


def docx_bytes(body: str, *, styles: str = STYLES, numbering: str = NUMBERING, footnotes: str = "",
               parts: dict[str, bytes | str] | None = None, title: str = "") -> bytes:
    """A .docx archive whose document body is ``body`` (XML of paragraphs and tables)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        archive.writestr("word/document.xml", f'<?xml version="1.0" encoding="UTF-8"?><w:document {W}><w:body>{body}<w:sectPr/></w:body></w:document>')
        if styles:
            archive.writestr("word/styles.xml", styles)
        if numbering:
            archive.writestr("word/numbering.xml", numbering)
        if footnotes:
            archive.writestr("word/footnotes.xml", f'<w:footnotes {W}>{footnotes}</w:footnotes>')
        if title:
            archive.writestr("docProps/core.xml", '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
                             f'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>{title}</dc:title></cp:coreProperties>')
        for name, data in (parts or {}).items():
            archive.writestr(name, data)
    return out.getvalue()


def blocks(parsed) -> list[tuple[str, str]]:
    return [(section.title, block.text) for section in parsed.sections for block in section.blocks]


class StructureTest(unittest.TestCase):
    def test_headings_become_parent_heading_titles(self):
        body = (para("Annual Report", "Title") + para("Overview", "Heading1") + para("The plant produced 12 tons.")
                + para("Safety", "Heading2") + para("No incidents.") + para("Audit", "MyHeading") + para("Passed."))
        parsed = parse_docx(docx_bytes(body))
        self.assertEqual(parsed.problem, "")
        self.assertTrue(parsed.extracted)
        self.assertEqual(blocks(parsed), [("Annual Report \u203a Overview", "The plant produced 12 tons."),
                                          ("Overview \u203a Safety", "No incidents."),
                                          ("Overview \u203a Audit", "Passed.")])

    def test_outline_level_on_the_paragraph_makes_a_heading(self):
        runs = '<w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:r><w:t>Scope</w:t></w:r>'
        parsed = parse_docx(docx_bytes(f"<w:p>{runs}</w:p>" + para("Everything in scope.")))
        self.assertEqual(blocks(parsed), [("Scope", "Everything in scope.")])

    def test_style_chains_and_cycles_resolve(self):
        chain = "".join(f'<w:style w:styleId="S{n}"><w:basedOn w:val="S{n - 1}"/></w:style>' for n in range(1, 3000))
        styles = (f'<w:styles {W}><w:style w:styleId="S0"><w:name w:val="heading 3"/></w:style>{chain}'
                  '<w:style w:styleId="A"><w:basedOn w:val="B"/></w:style><w:style w:styleId="B"><w:basedOn w:val="A"/></w:style></w:styles>')
        parsed = parse_docx(docx_bytes(para("Deep", "S2999") + para("Under it.") + para("Loop", "A") + para("Plain."), styles=styles))
        self.assertEqual(blocks(parsed), [("Deep", "Under it."), ("Deep", "Loop"), ("Deep", "Plain.")])

    def test_the_document_title_titles_the_text_before_any_heading(self):
        parsed = parse_docx(docx_bytes(para("Opening words."), title="Field Notes"))
        self.assertEqual(blocks(parsed), [("Field Notes", "Opening words.")])

    def test_list_items_keep_markers_and_nesting(self):
        body = (para("Intro.") + para("apples", num=("1", 0)) + para("green ones", num=("1", 1)) + para("pears", num=("1", 0))
                + para("first step", num=("2", 0)) + para("sub step", num=("2", 1)) + para("second step", num=("2", 0))
                + para("styled bullet", "ListBullet") + para("After the list."))
        parsed = parse_docx(docx_bytes(body))
        self.assertEqual([text for _, text in blocks(parsed)], [
            "Intro.",
            "- apples\n  - green ones\n- pears\n1. first step\n  1. sub step\n2. second step\n- styled bullet",
            "After the list.",
        ])

    def test_tables_are_read_row_by_row_like_the_other_loaders(self):
        parsed = parse_docx(docx_bytes(para("Before.") + table([["Name", "Value"], ["alpha", ""], ["beta", "2"]])))
        self.assertEqual([text for _, text in blocks(parsed)], ["Before.", "Name | Value\nalpha | \nbeta | 2"])

    def test_hyperlinks_tabs_and_breaks(self):
        runs = ('<w:r><w:t>See </w:t></w:r><w:hyperlink w:history="1"><w:r><w:t>the manual</w:t></w:r></w:hyperlink>'
                '<w:r><w:t>.</w:t><w:br/><w:t>Col A</w:t><w:tab/><w:t>Col B</w:t></w:r>')
        parsed = parse_docx(docx_bytes(para(runs=runs)))
        self.assertEqual([text for _, text in blocks(parsed)], ["See the manual.\nCol A\tCol B"])

    def test_deleted_revisions_and_field_codes_are_left_out(self):
        runs = ('<w:r><w:t>Kept</w:t></w:r><w:del><w:r><w:delText> removed</w:delText></w:r></w:del>'
                '<w:ins><w:r><w:t> inserted</w:t></w:r></w:ins><w:r><w:instrText> PAGE </w:instrText></w:r>')
        parsed = parse_docx(docx_bytes(para(runs=runs)))
        self.assertEqual([text for _, text in blocks(parsed)], ["Kept inserted"])

    def test_footnotes_follow_in_their_own_section_and_are_referenced(self):
        runs = '<w:r><w:t>A claim</w:t></w:r><w:r><w:footnoteReference w:id="5"/></w:r><w:r><w:t>.</w:t></w:r>'
        notes = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
                 '<w:footnote w:id="5"><w:p><w:r><w:t>Source: the 2019 survey.</w:t></w:r></w:p></w:footnote>'
                 '<w:footnote w:id="6"><w:p><w:r><w:t>Never referenced.</w:t></w:r></w:p></w:footnote>')
        parsed = parse_docx(docx_bytes(para("Body", "Heading1") + para(runs=runs), footnotes=notes))
        self.assertEqual(blocks(parsed), [("Body", "A claim[1]."), ("Footnotes", "[1] Source: the 2019 survey.")])


class LineNumbersTest(unittest.TestCase):
    def test_lines_count_lines_of_extracted_text_and_chunks_carry_their_map(self):
        body = (para("Guide", "Heading1") + para("") + para("First paragraph.")
                + para(runs="<w:r><w:t>Line one.</w:t><w:br/><w:t>Line two.</w:t></w:r>") + table([["a", "b"], ["c", "d"]]))
        parsed = parse_docx(docx_bytes(body))
        (section,) = parsed.sections
        # Heading = line 1; the empty paragraph is not a line; then 2, 3-4, 5-6.
        self.assertEqual([b.line_marks for b in section.blocks], [((0, 2),), ((0, 3), (10, 4)), ((0, 5), (6, 6))])
        (chunk,) = chunk_sections(parsed.sections, "guide.docx", line_marks=True)
        self.assertEqual((chunk.start_line, chunk.end_line, chunk.page, chunk.cell), (2, 6, None, None))
        self.assertEqual(chunk.citation, "guide.docx:2-6")
        for offset, line in chunk.line_marks:
            expected = {2: "First", 3: "Line one", 4: "Line two", 5: "a | b", 6: "c | d"}[line]
            self.assertTrue(chunk.text[offset:].startswith(expected), (offset, line, chunk.text[offset:]))


class BadArchiveTest(unittest.TestCase):
    def assertProblem(self, data: bytes, *words: str) -> None:
        parsed = parse_source(data, ".docx")
        self.assertEqual(parsed.sections, ())
        for word in words:
            self.assertIn(word, parsed.problem)

    def test_not_a_zip(self):
        self.assertProblem(b"plain words, not an archive", "not a Word document", "zip")

    def test_an_encrypted_document_is_named(self):
        self.assertProblem(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 512, "encrypted")

    def test_no_document_part(self):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as archive:
            archive.writestr("other.xml", "<a/>")
        self.assertProblem(out.getvalue(), "word/document.xml")

    def test_malformed_xml(self):
        data = docx_bytes(para("x"), parts={})
        broken = data.replace(b"word/document.xml", b"word/xocument.xml")
        self.assertProblem(broken, "word/document.xml")
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as archive:
            archive.writestr("word/document.xml", "<w:document><w:body><w:p>")
        self.assertProblem(out.getvalue(), "not well-formed")

    def test_a_dtd_is_refused_so_entities_cannot_expand(self):
        out = io.BytesIO()
        bomb = ('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
                f'<w:document {W}><w:body><w:p><w:r><w:t>&b;</w:t></w:r></w:p></w:body></w:document>')
        with zipfile.ZipFile(out, "w") as archive:
            archive.writestr("word/document.xml", bomb)
        self.assertProblem(out.getvalue(), "DTD")

    def test_a_part_inflating_past_the_bound_is_refused(self):
        data = docx_bytes(para("x" * 5000))
        with mock.patch.object(docx_parts, "MAX_PART_BYTES", 4096):
            self.assertProblem(data, "too large", "word/document.xml")

    def test_too_many_entries_are_refused(self):
        data = docx_bytes(para("x"), parts={f"junk/{n}.xml": "<a/>" for n in range(12)})
        with mock.patch.object(docx_parts, "MAX_ENTRIES", 10):
            self.assertProblem(data, "entries")

    def test_a_document_with_no_text(self):
        self.assertProblem(docx_bytes(para("")), "no indexable text")

    def test_a_docx_is_read_although_it_holds_nul_bytes(self):
        data = docx_bytes(para("Readable text."))
        self.assertIn(b"\0", data)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "a.docx"
            path.write_bytes(data)
            source = read_source(path)
            self.assertEqual(source.problem, "")
            self.assertEqual(blocks(parse_source(source.data, ".DOCX")), [("", "Readable text.")])
            (Path(tmp) / "a.txt").write_bytes(b"text\0")
            self.assertIn("NUL", read_source(Path(tmp) / "a.txt").problem)


if __name__ == "__main__":
    unittest.main()
