"""Crafted hostile files for the loaders' work budgets, built in code at any size.

The tests build them small (with small limits passed in); ``bench/ingestion/bench_hostile_inputs.py``
builds them at the sizes that once cost seconds and gigabytes, and times them in a child
process. Each function returns ``(file ending, bytes)``.
"""

from __future__ import annotations

import base64
import io
import json
import random
import string
import zipfile
import zlib

from pdf_builder import HELVETICA, PdfBuilder, line, stream, text_pdf

W_NS = b'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def docx(document: bytes, *, styles: bytes | None = None) -> bytes:
    """A ``.docx`` archive around a ``word/document.xml`` (and ``word/styles.xml``) given as is."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/document.xml", document)
        if styles is not None:
            archive.writestr("word/styles.xml", styles)
    return out.getvalue()


def body(paragraphs: bytes) -> bytes:
    """A UTF-8 ``document.xml`` holding ``paragraphs`` in its body."""
    return b'<?xml version="1.0" encoding="UTF-8"?><w:document ' + W_NS + b"><w:body>" + paragraphs + b"</w:body></w:document>"


def paragraph(text: str) -> bytes:
    return b"<w:p><w:r><w:t>" + text.encode("utf-8") + b"</w:t></w:r></w:p>"


# -- PDF ---------------------------------------------------------------------------------------


def encoded_page(filters: bytes, raw: bytes) -> bytes:
    """A one-page PDF whose content stream is ``raw`` as stored, read through ``filters``."""
    builder = PdfBuilder()
    resources = builder.add(b"<< /Font << /F1 %d 0 R >> >>" % builder.add(HELVETICA))
    content = builder.add(stream(b"/Filter [" + filters + b"]", raw))
    pages = builder.reserve()
    page = builder.add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources %d 0 R /Contents %d 0 R >>" % (pages, resources, content))
    builder.objects[pages] = b"<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % page
    return builder.build(builder.add(b"<< /Type /Catalog /Pages %d 0 R >>" % pages))


def pdf_runlength_bomb(pairs: int = 30_000_000) -> tuple[str, bytes]:
    """Row 1: a Flate stream inflating to RunLength pairs that each repeat a byte 128 times."""
    return ".pdf", encoded_page(b"/FlateDecode /RunLengthDecode", flate(b"\x81A" * pairs + b"\x80"))


def pdf_ascii85_bomb(zeros: int = 150_000_000) -> tuple[str, bytes]:
    """Row 1: a Flate stream inflating to ASCII85 ``z`` groups (four zero bytes each)."""
    return ".pdf", encoded_page(b"/FlateDecode /ASCII85Decode", flate(b"z" * zeros + b"~>"))


def pdf_nested_forms(depth: int = 12, fanout: int = 8, pages: int = 10) -> tuple[str, bytes]:
    """Row 2: Form XObjects nested ``depth`` deep, each drawing the one below ``fanout`` times."""
    builder = PdfBuilder()
    inner = builder.add(stream(b"/Type /XObject /Subtype /Form /BBox [0 0 612 792]", line(72, 700, b"leaf")))
    for _ in range(depth - 1):
        inner = builder.add(stream(b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /X %d 0 R >> >>" % inner,
                                   b"/X Do\n" * fanout))
    return ".pdf", text_pdf([b"/X Do\n"] * pages, extra_resources=b"/XObject << /X %d 0 R >>" % inner, builder=builder)


def pdf_many_runs(runs: int = 200_000, per_line: int = 50) -> tuple[str, bytes]:
    """Row 3: one page showing ``runs`` words, each placed on its own."""
    parts = [b"BT /F1 10 Tf\n"]
    for index in range(runs):
        row, column = divmod(index, per_line)
        parts.append(b"1 0 0 1 %d %d Tm (w%d) Tj\n" % (20 + 30 * column, 100_000 - 12 * row, index % 1000))
    parts.append(b"ET\n")
    return ".pdf", text_pdf([b"".join(parts)], filters=["FlateDecode"])


def _to_unicode_font(builder: PdfBuilder, destination: bytes) -> bytes:
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n1 begincodespacerange <00> <FF> endcodespacerange\n"
            b"1 beginbfchar <41> <" + destination.hex().encode() + b"> endbfchar\nendcmap end end\n")
    ref = builder.add(stream(b"", cmap))
    return b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode %d 0 R >>" % ref


def pdf_to_unicode_bomb(chars: int = 30_000, shows: int = 6_000) -> tuple[str, bytes]:
    """Row 4: a ToUnicode entry mapping one code to ``chars`` characters, shown ``shows`` times."""
    builder = PdfBuilder()
    font = _to_unicode_font(builder, ("x" * chars).encode("utf-16-be"))
    content = b"BT /F1 12 Tf 72 700 Td " + b"(A) Tj " * shows + b"ET\n"
    return ".pdf", text_pdf([content], font=font, filters=["FlateDecode"], builder=builder)


def pdf_long_startxref() -> tuple[str, bytes]:
    """Row 5: a 25-digit ``startxref``; the objects are all there for a scan to find."""
    data = text_pdf([line(72, 700, b"found by the scan")])
    head, _, _ = data.rpartition(b"startxref")
    return ".pdf", head + b"startxref\n" + b"9" * 25 + b"\n%%EOF\n"


def pdf_huge_number(digits: int = 100_000) -> tuple[str, bytes]:
    """Row 5: a content stream holding a ``digits``-digit integer operand, then text."""
    return ".pdf", text_pdf([b"1" * digits + b" 0 Td\n" + line(72, 700, b"after the number")])


def pdf_self_length() -> tuple[str, bytes]:
    """Row 5: a content stream whose ``/Length`` refers to its own object."""
    builder = PdfBuilder()
    content = line(72, 700, b"length of itself")
    num = builder.reserve()
    builder.objects[num] = b"<< /Length %d 0 R >>\nstream\n" % num + content + b"\nendstream"
    resources = builder.add(b"<< /Font << /F1 %d 0 R >> >>" % builder.add(HELVETICA))
    pages = builder.reserve()
    page = builder.add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources %d 0 R /Contents %d 0 R >>" % (pages, resources, num))
    builder.objects[pages] = b"<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % page
    root = builder.add(b"<< /Type /Catalog /Pages %d 0 R >>" % pages)
    return ".pdf", builder.build(root)


def pdf_bidi() -> tuple[str, bytes]:
    """Row 17: a font map giving U+202E (right-to-left override) and U+FEFF around a word."""
    builder = PdfBuilder()
    font = _to_unicode_font(builder, "\u202esafe\ufeff".encode("utf-16-be"))
    content = b"BT /F1 12 Tf 72 700 Td (A) Tj ( text) Tj ET\n"
    return ".pdf", text_pdf([content], font=font, builder=builder)


# -- Word ----------------------------------------------------------------------------------------


def docx_declared_encoding(encoding: str = "Shift_JIS") -> tuple[str, bytes]:
    """Row 6: a ``document.xml`` declaring an encoding the XML parser does not read."""
    xml = (f'<?xml version="1.0" encoding="{encoding}"?><w:document ' + W_NS.decode() + '><w:body>'
           '<w:p><w:r><w:t>text</w:t></w:r></w:p></w:body></w:document>').encode("ascii")
    return ".docx", docx(xml)


def docx_empty_elements(count: int = 15_000_000) -> tuple[str, bytes]:
    """Row 7: one paragraph holding ``count`` empty elements."""
    return ".docx", docx(body(b"<w:p>" + b"<a/>" * count + b"</w:p>" + paragraph("tail")))


def docx_paragraphs(count: int = 1_000_000) -> tuple[str, bytes]:
    """Row 7: ``count`` short paragraphs."""
    return ".docx", docx(body(paragraph("p") * count))


def docx_based_on_chain(length: int = 50_000) -> tuple[str, bytes]:
    """Row 8: ``styles.xml`` with a ``basedOn`` chain ``length`` styles long, ending at a heading."""
    styles = [b'<w:style w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>']
    for index in range(length):
        parent = b"Heading1" if index == 0 else b"s%d" % (index - 1)
        styles.append(b'<w:style w:styleId="s%d"><w:name w:val="s%d"/><w:basedOn w:val="%s"/></w:style>' % (index, index, parent))
    xml = b"<w:styles " + W_NS + b">" + b"".join(styles) + b"</w:styles>"
    styled = b'<w:p><w:pPr><w:pStyle w:val="s%d"/></w:pPr><w:r><w:t>Deep heading</w:t></w:r></w:p>' % (length - 1)
    return ".docx", docx(body(styled + paragraph("text")), styles=xml)


def docx_utf16_dtd() -> tuple[str, bytes]:
    """Row 9: a UTF-16 ``document.xml`` whose internal DTD defines an entity used in the text."""
    xml = ('<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE w:document [<!ENTITY e "EXPANDED-ENTITY">]>'
           '<w:document ' + W_NS.decode() + '><w:body><w:p><w:r><w:t>&e;</w:t></w:r></w:p></w:body></w:document>')
    return ".docx", docx(xml.encode("utf-16"))


# -- JSON and notebooks ----------------------------------------------------------------------------


def lone_surrogate(ending: str = ".ipynb") -> tuple[str, bytes]:
    """Row 10: a lone surrogate escape (``"\\ud83d"``) in a notebook, JSON or JSONL file."""
    text = "half an emoji \\ud83d here"
    if ending == ".ipynb":
        return ending, ('{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "markdown", "source": "'
                        + text + '"}]}').encode("ascii")
    record = '{"id": "a", "text": "' + text + '"}'
    return ending, (record if ending == ".jsonl" else "[" + record + "]").encode("ascii")


def notebook_cells(count: int = 100_000) -> tuple[str, bytes]:
    """Row 15: a notebook of ``count`` small code cells."""
    cells = [{"cell_type": "code", "source": f"x_{index} = {index} + 1\n", "outputs": [], "metadata": {}} for index in range(count)]
    return ".ipynb", json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}).encode("utf-8")


def flate(data: bytes) -> bytes:
    return zlib.compress(data, 9)


# -- Text formats (hardening round 3) ------------------------------------------------------------


def text_short_lines(ending: str = ".txt", size: int = 9_000_000) -> tuple[str, bytes]:
    """Row 1: one block of short lines with no blank line between them: a ``.txt`` paragraph,
    a Markdown list, fenced block or table, an rST field list or an HTML ``<pre>``."""
    count = size // 6
    if ending == ".txt":
        return ending, b"word\n" * (size // 5)
    if ending == ".md-list":
        return ".md", b"- item\n" * (size // 7)
    if ending == ".md-fence":
        return ".md", b"```\n" + b"code\n" * (size // 5) + b"```\n"
    if ending == ".md-table":
        return ".md", b"| a | b |\n|---|---|\n" + b"| c | d |\n" * (size // 10)
    if ending == ".rst-fields":
        return ".rst", b"Title\n=====\n\n" + b":f: v\n" * count
    if ending == ".html-pre":
        return ".html", b"<pre>\n" + b"code\n" * (size // 5) + b"</pre>\n"
    raise ValueError(f"no short-lines variant {ending!r}")


def text_role_sniff(size: int = 9_000_000) -> tuple[str, bytes]:
    """Row 2: a ``.txt`` of ``:a-`` repeated on one line (the reStructuredText sniffing regex)."""
    return ".txt", b":a-" * (size // 3)


def rst_named_reference(size: int = 9_000_000) -> tuple[str, bytes]:
    """Row 3: an rST line of ``a.`` repeated, then one ``_`` (the named-reference regex)."""
    return ".rst", b"a." * (size // 2) + b"_\n"


def rst_wide_table(columns: int = 100_000, rows: int = 1_000) -> tuple[str, bytes]:
    """Row 4: an rST simple table whose border has ``columns`` columns, then ``rows`` short rows."""
    border = b"= " * columns + b"\n"
    return ".rst", border + b"x y\n" * rows + border


def csv_long_header(size: int = 9_000_000, columns: int = 50, name_chars: int = 2_000) -> tuple[str, bytes]:
    """Row 5: a CSV whose header names are long: each row's text repeats every name."""
    header = ",".join(f"{index}{'h' * name_chars}" for index in range(columns)).encode("ascii") + b"\n"
    row = b",".join([b"v"] * columns) + b"\n"
    return ".csv", header + row * max(1, (size - len(header)) // len(row))


def html_svg_end_tags(size: int = 9_000_000) -> tuple[str, bytes]:
    """Row 6: many open ``<svg>`` elements, then stray end tags of another dropped element."""
    half = size // 2
    return ".html", b"<svg>" * (half // 5) + b"</math>" * (half // 7)


def markdown_lone_backticks(size: int = 9_000_000, runs: int = 30) -> tuple[str, bytes]:
    """Row 7: one paragraph whose lines hold backtick runs that none of the next 20 lines
    closes (line ``k`` holds runs of the lengths ``k % 21 + 1 + 21 * i``)."""
    lines = [b" ".join(b"`" * (group + 1 + 21 * i) for i in range(runs)) + b"\n" for group in range(21)]
    cycle = b"".join(lines)
    return ".md", cycle * max(1, size // len(cycle))


def markdown_quote_run(size: int = 9_000_000) -> tuple[str, bytes]:
    """Row 8: a line of ``>`` repeated (a blockquote marker run)."""
    return ".md", b">" * size + b" text\n"


def many_units(kind: str, size: int = 9_000_000) -> tuple[str, bytes]:
    """Row 9: a file of many small units: CSV rows, JSON records, Markdown headings or
    one-word paragraphs."""
    if kind == "csv":
        return ".csv", b"text\n" + b"w\n" * (size // 2)
    if kind == "json":
        return ".json", b"[" + b",".join([b'"w"'] * (size // 4)) + b"]"
    if kind == "jsonl":
        return ".jsonl", b'"w"\n' * (size // 4)
    if kind == "headings":
        return ".md", b"# h\nw\n" * (size // 6)
    if kind == "paragraphs":
        return ".txt", b"w\n\n" * (size // 3)
    raise ValueError(f"no many-units kind {kind!r}")


def csv_big_field(chars: int = 200_000) -> tuple[str, bytes]:
    """Row 10: a well-formed CSV with one cell of ``chars`` characters (over the csv module's
    default field limit of 128 KB)."""
    return ".csv", b"id,text\n1,short\n2," + b"x" * chars + b"\n3,after\n"


def rst_open_span_spaces(spaces: int = 9_000_000) -> tuple[str, bytes]:
    """Row 26: interpreted text a line opens and never closes, then a long run of spaces."""
    return ".rst", b"Some `open" + b" " * spaces + b"x\n"


def html_comment_openings(size: int = 9_000_000) -> tuple[str, bytes]:
    """Row 27: HTML text of ``{#`` repeated (the template check)."""
    return ".html", b"<p>" + b"{#" * (size // 2) + b"</p>\n"


def long_hex_word(size: int = 9_000_000) -> tuple[str, bytes]:
    """Row 25: a sentence, then one word of ``size`` hexadecimal digits (a checksum blob)."""
    digits = (b"0123456789abcdef" * (size // 16 + 1))[:size]
    return ".txt", b"The firmware checksum is below.\n\n" + digits + b"\n"


# -- Long tokens at question time (issue 37) ---------------------------------------------------

#: The kinds of :func:`long_token`.
LONG_TOKEN_KINDS = ("letters", "digits", "cjk", "base64", "url", "dotted", "spaces")
_URL_CHARACTERS = string.ascii_letters + string.digits + "/._-~%?=&#:+"


def long_token(kind: str, size: int = 100_000, seed: int = 37) -> str:
    """One run of ``size`` characters no white space breaks (``spaces``: white space between
    two letters): what a data URI, a base64 image, a minified line or a hash list puts in a
    passage. Drawn from ``random.Random(seed)``, so the same every time.

    Kinds: ``letters`` (lower case), ``digits``, ``cjk`` (U+4E00-U+9FA5), ``base64``, ``url``
    (URL characters after ``https://example.com/``), ``dotted`` (``1.1.1...``), ``spaces``.
    """
    rng = random.Random(seed)
    if kind == "letters":
        return "".join(rng.choices(string.ascii_lowercase, k=size))
    if kind == "digits":
        return "".join(rng.choices(string.digits, k=size))
    if kind == "cjk":
        return "".join(chr(code) for code in rng.choices(range(0x4E00, 0x9FA6), k=size))
    if kind == "base64":
        return base64.b64encode(rng.randbytes(size * 3 // 4 + 3)).decode("ascii")[:size]
    if kind == "url":
        return ("https://example.com/" + "".join(rng.choices(_URL_CHARACTERS, k=size)))[:size]
    if kind == "dotted":
        return ("1." * (size // 2 + 1))[:size]
    if kind == "spaces":
        return "x" + (" \t" * (size // 2))[:max(size - 2, 0)] + "y"
    raise ValueError(f"no long-token kind {kind!r}; expected one of {LONG_TOKEN_KINDS}")


def long_token_markdown(kind: str, size: int = 100_000) -> tuple[str, bytes]:
    """A Markdown page whose passage holds :func:`long_token` on a line of its own between
    two sentences about a firmware checksum (what the question-time rows ask about)."""
    text = (f"# Firmware\n\nThe firmware checksum of the release is below.\n\n{long_token(kind, size)}\n\n"
            "The firmware was released in 2021 by the platform team.\n")
    return ".md", text.encode("utf-8")
