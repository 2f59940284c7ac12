"""The PDF extractor's file layer: filters, cross-references, updates, repair, limits, fuzzing."""

from __future__ import annotations

import random
import unittest
import zlib

from pdf_builder import PdfBuilder, incremental_update, line, lzw_encode, stream, text_pdf

from agentic_rag._errors import AgenticRAGError, InvalidInputError
from agentic_rag._ingest.pdf import Limits, PdfExtraction, extract_pdf, extract_pdf_strict
from agentic_rag._ingest.pdf.filters import UnsupportedFilterError, decode_stream
from agentic_rag._ingest.pdf.lexer import PdfError, PdfLimitError
from agentic_rag._ingest.work_budget import IngestLimits, WorkBudget, WorkLimitError


def _texts(result: PdfExtraction) -> list[str]:
    return [page.text for page in result.pages]


def _decode(raw: bytes, entries: dict, budget: int = 1 << 24) -> bytes:
    return decode_stream(raw, entries, WorkBudget(IngestLimits(max_decoded_bytes=budget)), lambda value: value)


class FilterTests(unittest.TestCase):
    def test_each_filter_and_a_chain_decode_a_page(self) -> None:
        content = line(72, 700, b"Hello filters")
        for filters in (["FlateDecode"], ["ASCIIHexDecode"], ["ASCII85Decode"], ["LZWDecode"],
                        ["ASCII85Decode", "FlateDecode"], ["ASCIIHexDecode", "LZWDecode"]):
            with self.subTest(filters=filters):
                result = extract_pdf(text_pdf([content], filters=filters))
                self.assertIsNone(result.problem)
                self.assertEqual(_texts(result), ["Hello filters"])

    def test_lzw_matches_the_reference_example(self) -> None:
        # The example of the PDF reference (7.4.4.2): "-----A---B".
        self.assertEqual(_decode(bytes.fromhex("800B6050220C0C8501"), {"Filter": "LZWDecode"}), b"-----A---B")

    def test_lzw_round_trips_past_every_code_width(self) -> None:
        rng = random.Random(7)
        data = bytes(rng.choice(b"abcdefgh ijklm\n") for _ in range(60_000))
        self.assertEqual(_decode(lzw_encode(data), {"Filter": "LZWDecode"}), data)

    def test_ascii85_zero_group_and_partial_tail(self) -> None:
        self.assertEqual(_decode(b"z<~>~>", {"Filter": "ASCII85Decode"})[:4], b"\0\0\0\0")
        self.assertEqual(_decode(b"87cURDZ~>", {"Filter": "A85"}), b"Hello")

    def test_png_predictors(self) -> None:
        rows = [bytes([1, 2, 3]), bytes([4, 6, 8]), bytes([9, 9, 9]), bytes([10, 20, 30])]
        encoded = bytearray()
        previous = bytes(3)
        for kind, row in zip((0, 1, 2, 4), rows):
            if kind == 0:
                body = row
            elif kind == 1:
                body = bytes((row[i] - (row[i - 1] if i else 0)) & 0xFF for i in range(3))
            elif kind == 2:
                body = bytes((a - b) & 0xFF for a, b in zip(row, previous))
            else:
                body = bytes((row[i] - _paeth(row[i - 1] if i else 0, previous[i], previous[i - 1] if i else 0)) & 0xFF
                             for i in range(3))
            encoded += bytes((kind,)) + body
            previous = row
        entries = {"Filter": "FlateDecode", "DecodeParms": {"Predictor": 12, "Columns": 3}}
        self.assertEqual(_decode(zlib.compress(bytes(encoded)), entries), b"".join(rows))

    def test_image_filters_are_unsupported(self) -> None:
        with self.assertRaises(UnsupportedFilterError):
            _decode(b"\xff\xd8", {"Filter": "DCTDecode"})
        with self.assertRaises(UnsupportedFilterError):
            _decode(b"x", {"Filter": ["FlateDecode", "JBIG2Decode"]})

    def test_inflating_past_the_budget_is_a_limit_error(self) -> None:
        with self.assertRaises(WorkLimitError):
            _decode(zlib.compress(bytes(5_000_000)), {"Filter": "FlateDecode"}, budget=1_000_000)


def _paeth(left: int, up: int, upleft: int) -> int:
    estimate = left + up - upleft
    pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - upleft)
    return left if pa <= pb and pa <= pc else (up if pb <= pc else upleft)


class CrossReferenceTests(unittest.TestCase):
    def test_xref_stream_with_object_stream(self) -> None:
        data = text_pdf([line(72, 700, b"Packed page one"), line(72, 700, b"Packed page two")], pack=True)
        self.assertIn(b"/ObjStm", data)
        self.assertNotIn(b"\nxref\n", data)
        result = extract_pdf(data)
        self.assertEqual([(page.number, page.text) for page in result.pages], [(1, "Packed page one"), (2, "Packed page two")])

    def test_incremental_update_newest_object_wins(self) -> None:
        base = text_pdf([line(72, 700, b"Old text")])
        self.assertEqual(_texts(extract_pdf(base)), ["Old text"])
        content_num = 4  # font 1, resources 2, pages 3, first content stream 4
        self.assertIn(b"4 0 obj\n<<  /Length", base)
        updated = incremental_update(base, {content_num: stream(b"", line(72, 700, b"New text"))})
        self.assertEqual(_texts(extract_pdf(updated)), ["New text"])

    def test_broken_startxref_falls_back_to_scanning(self) -> None:
        data = text_pdf([line(72, 700, b"Still readable")])
        start = data.rindex(b"startxref")
        broken = data[:start] + b"startxref\n999999\n%%EOF\n"
        self.assertEqual(_texts(extract_pdf(broken)), ["Still readable"])

    def test_missing_xref_and_trailer_falls_back_to_the_catalog(self) -> None:
        data = text_pdf([line(72, 700, b"No xref at all")])
        self.assertEqual(_texts(extract_pdf(data[:data.index(b"xref\n")])), ["No xref at all"])

    def test_wrong_offsets_in_the_table_are_repaired(self) -> None:
        data = text_pdf([line(72, 700, b"Shifted objects")])
        shifted = data.replace(b"%PDF-1.7\n", b"%PDF-1.7\n% some junk that moves every object\n", 1)
        self.assertEqual(_texts(extract_pdf(shifted)), ["Shifted objects"])

    def test_object_stream_objects_are_found_by_the_scan(self) -> None:
        data = text_pdf([line(72, 700, b"Scanned stream objects")], pack=True)
        broken = data[:data.rindex(b"startxref")] + b"startxref\n5\n%%EOF\n"
        self.assertEqual(_texts(extract_pdf(broken)), ["Scanned stream objects"])


class RefusalTests(unittest.TestCase):
    def test_encrypted_file_is_refused(self) -> None:
        builder = PdfBuilder()
        encrypt = builder.add(b"<< /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>")
        data = text_pdf([line(72, 700, b"Secret")], trailer=b"/Encrypt %d 0 R" % encrypt, builder=builder)
        result = extract_pdf(data)
        self.assertEqual(result.pages, ())
        self.assertIn("encrypted", result.problem)

    def test_image_only_file_is_refused(self) -> None:
        builder = PdfBuilder()
        image = builder.add(stream(b"/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray "
                                   b"/BitsPerComponent 8 /Filter /DCTDecode", b"\xff\xd8\xff\xd9"))
        data = text_pdf([b"q 612 0 0 792 0 0 cm /Im1 Do Q"], extra_resources=b"/XObject << /Im1 %d 0 R >>" % image,
                        builder=builder)
        result = extract_pdf(data)
        self.assertIn("image-only", result.problem)

    def test_unsupported_filter_skips_only_that_page(self) -> None:
        builder = PdfBuilder()
        good = text_pdf([line(72, 700, b"Good page"), b"placeholder"], builder=builder)
        bad_num = max(num for num, body in builder.objects.items() if b"placeholder" in body)
        builder.objects[bad_num] = stream(b"/Filter /DCTDecode", b"\xff\xd8\xff\xd9")
        root = max(num for num, body in builder.objects.items() if b"/Catalog" in body)
        result = extract_pdf(builder.build(root))
        self.assertIn(b"placeholder", good)
        self.assertEqual(_texts(result), ["Good page"])
        self.assertEqual([(page.number, "DCTDecode" in page.reason) for page in result.skipped], [(2, True)])

    def test_not_a_pdf_and_bad_arguments(self) -> None:
        self.assertIn("not a PDF", extract_pdf(b"hello").problem)
        self.assertIn("not a PDF", extract_pdf(b"").problem)
        with self.assertRaises(InvalidInputError):
            extract_pdf("text")  # type: ignore[arg-type]
        with self.assertRaises(InvalidInputError):
            extract_pdf(b"%PDF-1.4", max_pages=0)


class LimitTests(unittest.TestCase):
    def test_more_pages_than_allowed_is_a_problem(self) -> None:
        data = text_pdf([line(72, 700, b"page %d" % i) for i in range(5)])
        self.assertEqual(len(extract_pdf(data, max_pages=5).pages), 5)
        result = extract_pdf(data, max_pages=4)
        self.assertEqual(result.pages, ())
        self.assertIn("max_pages=4", result.problem)

    def test_operator_limit_skips_the_page(self) -> None:
        data = text_pdf([b"q Q " * 50 + line(72, 700, b"busy"), line(72, 700, b"calm")])
        result = extract_pdf_strict(data, limits=Limits(max_operators=40))
        self.assertEqual(_texts(result), ["calm"])
        self.assertIn("operators", result.skipped[0].reason)

    def test_decompression_bomb_is_a_problem(self) -> None:
        bomb = b"% " + bytes(70 * 1024 * 1024)
        data = text_pdf([bomb + b"\n" + line(72, 700, b"boom")], filters=["FlateDecode"])
        self.assertLess(len(data), 200_000)
        result = extract_pdf(data)
        self.assertEqual(result.pages, ())
        self.assertIn("exceed", result.problem)

    def test_self_referencing_form_is_bounded(self) -> None:
        builder = PdfBuilder()
        form = builder.reserve()
        builder.objects[form] = stream(b"/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /Fm %d 0 R >> >>"
                                       % form, b"/Fm Do")
        data = text_pdf([b"/Fm Do " + line(72, 700, b"loop"), line(72, 700, b"after")],
                        extra_resources=b"/XObject << /Fm %d 0 R >>" % form, builder=builder)
        result = extract_pdf(data)
        self.assertEqual(_texts(result), ["after"])
        self.assertIn("nested", result.skipped[0].reason)

    def test_deeply_nested_arrays_and_page_tree_cycles_end(self) -> None:
        data = text_pdf([b"[" * 10_000 + b" Tj " + line(72, 700, b"ok")])
        self.assertIsInstance(extract_pdf(data), PdfExtraction)
        builder = PdfBuilder()
        pages = builder.reserve()
        builder.objects[pages] = b"<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % pages
        root = builder.add(b"<< /Type /Catalog /Pages %d 0 R >>" % pages)
        self.assertIn("no extractable text", extract_pdf(builder.build(root)).problem)


class FuzzTests(unittest.TestCase):
    def _samples(self) -> list[bytes]:
        fonts = {b"F2": b"<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H "
                        b"/DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /W [1 [500 600]] >>] >>"}
        content = (line(72, 700, b"Fuzzed text") + b"BT /F2 10 Tf 72 600 Td <00010002> Tj [(a) -300 (b)] TJ ET\n"
                   + b"BI /W 2 /H 2 /BPC 8 /CS /G ID \x00\x01\x02\x03 EI q 1 0 0 1 5 5 cm Q")
        return [
            text_pdf([content, line(72, 700, b"second")], fonts=fonts),
            text_pdf([content], fonts=fonts, filters=["FlateDecode"], pack=True),
            text_pdf([content], filters=["ASCII85Decode", "LZWDecode"], xref_stream=True),
        ]

    def test_truncated_and_mutated_files_only_give_problems(self) -> None:
        rng = random.Random(20261201)
        cases = 0
        for sample in self._samples():
            variants = [sample[:cut] for cut in range(0, len(sample), max(1, len(sample) // 150))]
            for _ in range(250):
                data = bytearray(sample)
                for _ in range(rng.randint(1, 8)):
                    choice = rng.random()
                    at = rng.randrange(len(data))
                    if choice < 0.4:
                        data[at] = rng.randrange(256)
                    elif choice < 0.6:
                        del data[at:at + rng.randint(1, 40)]
                    elif choice < 0.8:
                        data[at:at] = rng.choice([b"(", b")", b"<<", b">>", b"[", b"]", b"999999999 0 R", b"-1", b"/",
                                                  b"stream", b"endobj", b"\\", b"1e400", b"obj"])
                    else:
                        data[at:at] = data[rng.randrange(len(data)):][:rng.randint(1, 200)]
                variants.append(bytes(data))
            for data in variants:
                cases += 1
                try:
                    result = extract_pdf_strict(data)
                except AgenticRAGError:
                    continue
                self.assertIsInstance(result, PdfExtraction)
                for page in result.pages:
                    self.assertIsInstance(page.text, str)
        self.assertGreater(cases, 1000)

    def test_strict_mode_raises_nothing_for_garbage(self) -> None:
        rng = random.Random(5)
        for _ in range(300):
            data = b"%PDF-1.4\n" + bytes(rng.randrange(256) for _ in range(rng.randint(0, 400)))
            try:
                extract_pdf_strict(data)
            except (PdfError, AgenticRAGError):
                pass


if __name__ == "__main__":
    unittest.main()
