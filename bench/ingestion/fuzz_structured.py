"""Structure-aware fuzz targets for the binary and nested loaders: PDF, Word, notebooks.

Byte mutation of a seed file rarely gets past a zip's checksums or a PDF's cross-reference, so
these generators build the files from random *structure* instead: PDFs with random filter chains
(Flate, LZW, ASCIIHex, ASCII85, RunLength), fonts (simple, Type0 with embedded or named CMaps,
ToUnicode maps with long destinations and huge ranges), nested Form XObjects drawn several times,
content operators with awkward operands, cross-reference tables or streams, then a few byte
edits; Word archives with nested tables, content controls, lists, footnotes, ``basedOn`` chains,
declared encodings (UTF-8, UTF-16, others) and the odd DTD; notebooks of every cell kind and
output type, with lone surrogates, huge outputs and many cells.

Each target's check reads the file as an index run does (``parse_source``, then the chunker). A
finding is an exception outside the library's tree, a file refused by the loaders' safety net
("could not be read (...)", which hides a bug), and, through ``bench/ingestion/fuzz.py``, any case over
its time or memory budget.
"""

from __future__ import annotations

import io
import json
import random
import sys
import zipfile
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the bench package (repository root) and the tests' PDF writer

from bench.ingestion.fuzz_inputs import mutate_bytes  # noqa: E402
from bench.ingestion.fuzz_base import Target, Violation  # noqa: E402
from pdf_builder import ENCODERS, PdfBuilder, stream  # noqa: E402 - the tests' PDF writer

__all__ = ["structured_targets"]

_W = b'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
_SAFETY_NET = "could not be read ("


def _read_like_an_index_run(data: bytes, suffix: str) -> None:
    from agentic_rag._ingest import chunk_sections, parse_source

    parsed = parse_source(data, suffix)
    if parsed.problem.startswith(_SAFETY_NET):
        raise Violation(f"a loader failed and the safety net caught it: {parsed.problem[:200]}", variant=suffix)
    for chunk in chunk_sections(parsed.sections, "fuzz" + suffix, line_marks=parsed.extracted):
        chunk.text.encode("utf-8")


# -- PDF ---------------------------------------------------------------------------------------


def _run_length(data: bytes) -> bytes:
    out = bytearray()
    for start in range(0, len(data), 128):
        piece = data[start:start + 128]
        out += bytes((len(piece) - 1,)) + piece
    return bytes(out + b"\x80")


_ENCODERS = {**ENCODERS, "RunLengthDecode": _run_length}
_OPERANDS = (b"0", b"1", b"-1", b"12", b"0.5", b"1e5", b"99999999999999999999999", b"-0", b".", b"/F1", b"/F2", b"/X", b"()", b"(\\)",
             b"<>", b"<4>", b"[]", b"[(a) -250 (b)]", b"<< /A 1 >>", b"null", b"true", b"(\\377\\376)", b"<FEFF202E>")
_OPERATORS = (b"BT", b"ET", b"Tf", b"Td", b"TD", b"Tm", b"T*", b"TL", b"Tc", b"Tw", b"Tz", b"Ts", b"Tj", b"TJ", b"'", b'"', b"q", b"Q",
              b"cm", b"Do", b"BI", b"ID", b"EI", b"re", b"f", b"gs", b"BDC", b"EMC")


def _content(rng: random.Random, budget: int) -> bytes:
    parts = [b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET\n"]
    for _ in range(rng.randint(0, budget)):
        roll = rng.random()
        if roll < 0.35:
            parts.append(b"BT /F%d %d Tf %d %d Td (%s) Tj ET\n" % (rng.randint(1, 2), rng.randint(1, 30), rng.randint(0, 600),
                                                                  rng.randint(0, 800), rng.choice((b"word", b"A", b"AAAA", b"\\101"))))
        elif roll < 0.5:
            parts.append(b"/X Do\n" * rng.randint(1, 4))
        elif roll < 0.6:
            parts.append(b"q %d 0 0 %d 0 0 cm Q\n" % (rng.randint(-3, 3), rng.randint(-3, 3)))
        else:
            parts.append(b" ".join(rng.choice(_OPERANDS) for _ in range(rng.randint(0, 6))) + b" " + rng.choice(_OPERATORS) + b"\n")
    return b"".join(parts)


def _encode(rng: random.Random, data: bytes) -> tuple[bytes, bytes]:
    names = [rng.choice(tuple(_ENCODERS)) for _ in range(rng.choice((0, 0, 1, 1, 2, 3)))]
    for name in reversed(names):
        data = _ENCODERS[name](data)
    entries = b"/Filter [" + b" ".join(b"/" + n.encode() for n in names) + b"]" if names else b""
    if names and rng.random() < 0.1:
        entries += b" /DecodeParms [<< /Predictor %d /Columns %d >>]" % (rng.choice((2, 10, 12, 15)), rng.randint(1, 8))
    return entries, data


def _cmap(rng: random.Random) -> bytes:
    lines = [b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
             b"1 begincodespacerange <%s> <%s> endcodespacerange" % rng.choice(((b"00", b"FF"), (b"0000", b"FFFF"), (b"00", b"FFFF")))]
    for _ in range(rng.randint(0, 4)):
        if rng.random() < 0.5:
            destination = ("x" * rng.choice((1, 2, 300, 3_000)) + rng.choice(("", "\u202e", "\ufeff", "\ud800"))).encode("utf-16-be",
                                                                                                                         "surrogatepass")
            lines.append(b"1 beginbfchar <%02X> <%s> endbfchar" % (rng.randint(0, 255), destination.hex().encode()))
        else:
            low = rng.randint(0, 0xFFFF)
            lines.append(b"1 beginbfrange <%04X> <%08X> <%04X> endbfrange" % (low, low + rng.choice((0, 5, 1 << 20, 0xFFFFFFFF - low)),
                                                                           rng.randint(0, 0xFFFF)))
    if rng.random() < 0.3:
        lines.append(b"1 begincidrange <0000> <FFFF> %d endcidrange" % rng.randint(0, 100))
    return b"\n".join(lines + [b"endcmap end end"])


def _font(rng: random.Random, builder: PdfBuilder) -> bytes:
    to_unicode = b" /ToUnicode %d 0 R" % builder.add(stream(*_encode(rng, _cmap(rng)))) if rng.random() < 0.6 else b""
    if rng.random() < 0.5:
        return b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica%s >>" % to_unicode
    encoding = b"/Identity-H" if rng.random() < 0.6 else b"%d 0 R" % builder.add(stream(b"", _cmap(rng)))
    descendant = builder.add(b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X /W [1 [500 600] 10 2000 300] /DW 1000 >>")
    return b"<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding %s /DescendantFonts [%d 0 R]%s >>" % (encoding, descendant, to_unicode)


def pdf_case(rng: random.Random, max_size: int) -> bytes:
    """A random PDF built from structure, then lightly mutated."""
    builder = PdfBuilder()
    form = builder.add(stream(*_encode(rng, _content(rng, 3))))
    for _ in range(rng.choice((0,) * 20 + (1,) * 10 + (3,) * 10 + (6, 13))):  # deep ones spend a file's whole budget
        entries, data = _encode(rng, b"/X Do\n" * rng.randint(1, 8) + _content(rng, 2))
        form = builder.add(stream(b"/Type /XObject /Subtype /Form " + entries + b" /Resources << /XObject << /X %d 0 R >> >>" % form, data))
    fonts = b"/F1 %d 0 R /F2 %d 0 R" % (builder.add(_font(rng, builder)), builder.add(_font(rng, builder)))
    resources = builder.add(b"<< /Font << " + fonts + b" >> /XObject << /X %d 0 R >> >>" % form)
    pages = builder.reserve()
    kids = []
    for _ in range(rng.randint(1, 3)):
        content = builder.add(stream(*_encode(rng, _content(rng, rng.choice((5,) * 6 + (40,) * 3 + (400,))))))
        kids.append(builder.add(b"<< /Type /Page /Parent %d 0 R /Resources %d 0 R /Contents %d 0 R /Rotate %d >>"
                                % (pages, resources, content, rng.choice((0, 90, 180, 45)))))
    builder.objects[pages] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    data = builder.build(builder.add(b"<< /Type /Catalog /Pages %d 0 R >>" % pages), xref_stream=rng.random() < 0.4)
    if rng.random() < 0.5:
        data = mutate_bytes(rng, data, (b"obj", b"endobj", b"stream", b"R", b"<<", b">>", b"startxref\n" + b"9" * 25, b"/Length 9 0 R"),
                            max(max_size, len(data) + 64))
    return data


# -- Word ----------------------------------------------------------------------------------------


def _paragraph(rng: random.Random, depth: int = 0) -> bytes:
    roll = rng.random()
    text = rng.choice(("word", "\u202eevil", "a & b", "\ufeff", "x" * 50, "")).replace("&", "&amp;").encode()
    if depth < 3 and roll < 0.1:
        rows = b"".join(b"<w:tr>" + b"".join(b"<w:tc>" + _paragraph(rng, depth + 1) + b"</w:tc>" for _ in range(rng.randint(1, 3)))
                        + b"</w:tr>" for _ in range(rng.randint(1, 3)))
        return b"<w:tbl>" + rows + b"</w:tbl>"
    if depth < 3 and roll < 0.15:
        return b"<w:sdt><w:sdtContent>" + _paragraph(rng, depth + 1) + b"</w:sdtContent></w:sdt>"
    props = rng.choice((b"", b'<w:pPr><w:pStyle w:val="s%d"/></w:pPr>' % rng.randint(0, 30),
                        b'<w:pPr><w:numPr><w:ilvl w:val="%d"/><w:numId w:val="1"/></w:numPr></w:pPr>' % rng.randint(0, 12),
                        b'<w:pPr><w:outlineLvl w:val="%d"/></w:pPr>' % rng.randint(0, 12)))
    runs = b"".join(rng.choice((b"<w:r><w:t>" + text + b"</w:t></w:r>", b"<w:r><w:tab/><w:br/></w:r>", b"<w:r/>" * rng.randint(1, 50),
                                b'<w:r><w:footnoteReference w:id="%d"/></w:r>' % rng.randint(0, 3), b"<w:del><w:r><w:t>gone</w:t></w:r></w:del>"))
                    for _ in range(rng.randint(0, 4)))
    return b"<w:p>" + props + runs + b"</w:p>"


def docx_case(rng: random.Random, max_size: int) -> bytes:
    """A random ``.docx`` archive built from structure."""
    body = b"".join(_paragraph(rng) for _ in range(rng.randint(0, 40)))
    declaration = rng.choice(('<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.0" encoding="UTF-16"?>', "",
                              '<?xml version="1.0" encoding="ISO-8859-1"?>', '<?xml version="1.0" encoding="Shift_JIS"?>'))
    dtd = rng.choice(("",) * 8 + ('<!DOCTYPE w:document [<!ENTITY e "ee">]>', '<!DOCTYPE w:document SYSTEM "x.dtd">'))
    document = (declaration + dtd).encode() + b"<w:document " + _W + b"><w:body>" + body + b"</w:body></w:document>"
    if "UTF-16" in declaration:
        document = document.decode("utf-8").encode("utf-16")
    chain = rng.choice((0, 3, 3, 40, 40, 2000))
    styles = b"".join(b'<w:style w:styleId="s%d"><w:name w:val="%s"/><w:basedOn w:val="s%d"/></w:style>'
                      % (n, b"heading 1" if n == 0 else b"s%d" % n, rng.randint(0, max(0, n)) if rng.random() < 0.9 else n + 1)
                      for n in range(chain))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", rng.choice((zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED))) as archive:
        archive.writestr("word/document.xml", document)
        archive.writestr("word/styles.xml", b"<w:styles " + _W + b">" + styles + b"</w:styles>")
        archive.writestr("word/numbering.xml", b"<w:numbering " + _W + b'><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0">'
                         b'<w:numFmt w:val="decimal"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>')
        archive.writestr("word/footnotes.xml", b"<w:footnotes " + _W + b">" + b"".join(
            b'<w:footnote w:id="%d">' % n + _paragraph(rng, 2) + b"</w:footnote>" for n in range(3)) + b"</w:footnotes>")
    return out.getvalue()


# -- notebooks -----------------------------------------------------------------------------------


def _source(rng: random.Random) -> Any:
    text = rng.choice(("# Heading\n\nText.", "x = 1\nprint(x)\n", "plain", "", "\ud83d lone", "\u202eflip", "line\n" * 200, "## H2"))
    return text.splitlines(keepends=True) if rng.random() < 0.5 else text


def _output(rng: random.Random) -> dict[str, Any]:
    kind = rng.choice(("stream", "execute_result", "display_data", "error", "pyout", "weird"))
    if kind == "stream":
        return {"output_type": kind, "name": "stdout", "text": rng.choice(("ok\n", "\x1b[31mred\x1b[0m\n", "log\n" * 3000))}
    if kind == "error":
        return {"output_type": kind, "ename": rng.choice(("E", 5, "")), "evalue": rng.choice(("v", None)), "traceback": []}
    return {"output_type": kind, "data": {"text/plain": _source(rng), "image/png": "AA"}, "metadata": {}}


def notebook_case(rng: random.Random, max_size: int) -> bytes:
    """A random notebook of many cell kinds, nbformat 4 or 3."""
    count = rng.choice((0, 1, 5, 5, 20, 20, 50, 50, 50, 2000))
    cells = []
    for _ in range(count):
        kind = rng.choice(("markdown", "code", "raw", "heading", "other", None))
        cell: dict[str, Any] = {"cell_type": kind, "metadata": {}, "source": _source(rng)}
        if kind == "code":
            cell["outputs"] = [_output(rng) for _ in range(rng.randint(0, 3))]
        if kind == "heading":
            cell["level"] = rng.choice((1, 3, 9, "x"))
        cells.append(cell if rng.random() > 0.02 else rng.choice((1, "x", None, [])))
    if rng.random() < 0.2:
        notebook: dict[str, Any] = {"nbformat": 3, "worksheets": [{"cells": [{**c, "input": c.get("source")} if isinstance(c, dict) else c
                                                                            for c in cells]}]}
    else:
        notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"language": rng.choice(("python", "r r", ""))}},
                    "cells": cells}
    return json.dumps(notebook).encode("utf-8", "surrogatepass")


def structured_targets() -> list[Target]:
    """The three structure-aware targets."""
    return [
        Target("load .pdf (structured)", pdf_case, lambda data: _read_like_an_index_run(data, ".pdf")),
        Target("load .docx (structured)", docx_case, lambda data: _read_like_an_index_run(data, ".docx")),
        Target("load .ipynb (structured)", notebook_case, lambda data: _read_like_an_index_run(data, ".ipynb")),
    ]


if __name__ == "__main__":  # a quick look at what the generators make
    generator = random.Random(1)
    for make in (pdf_case, docx_case, notebook_case):
        sample = make(generator, 65536)
        print(make.__name__, len(sample), zlib.crc32(sample))
