"""Regression tests for what the fuzz harness (``bench/ingestion/fuzz.py``) found, each shrunk to the
smallest input that showed it. Every input here once raised an exception outside the library's
error tree (or gave an MCP internal error); now each is refused or handled cleanly.
"""

from __future__ import annotations

import hashlib
import json
import math
import struct
import tempfile
import unittest
from pathlib import Path

from agentic_rag._agentic.config import OrchestratorConfig
from agentic_rag._contracts import Route
from agentic_rag._contracts import Document
from agentic_rag._errors import AgenticRAGError, IndexFormatError, InvalidInputError, StructuredOutputError
from agentic_rag._ingest import parse_source
from agentic_rag._interfaces.mcp_protocol import ErrorCode, McpServer
from agentic_rag.llm.json_schema import check_schema, validate_json
from agentic_rag.llm.structured import extract_json
from agentic_rag._parallel.evidence import Contribution
from agentic_rag._retrieval import BM25Index


class McpHandlerFindings(unittest.TestCase):
    """Raw lines that once escaped ``McpServer.handle_line`` (the loop answered -32603, id null)."""

    def answer(self, line: str) -> dict:
        text = McpServer([]).handle_line(line)
        self.assertIsNotNone(text)
        return json.loads(text)

    def test_an_id_that_overflows_to_infinity_is_an_invalid_request(self) -> None:
        answer = self.answer('{"":"","id":1e400,"":""}')
        self.assertEqual(answer["error"]["code"], int(ErrorCode.INVALID_REQUEST))
        self.assertIsNone(answer["id"])

    def test_nesting_deeper_than_the_recursion_limit_is_a_parse_error(self) -> None:
        for line in ("[" * 100_000, '{"a":' * 5_000 + "1" + "}" * 5_000):
            with self.subTest(line=line[:10]):
                answer = self.answer(line)
                self.assertEqual(answer["error"]["code"], int(ErrorCode.PARSE_ERROR))
                self.assertIsNone(answer["id"])


class LoaderFindings(unittest.TestCase):
    """Files that once raised out of ``parse_source`` (and so stopped an index run)."""

    def test_json_and_jsonl_nested_too_deeply_are_a_problem_not_a_recursion_error(self) -> None:
        for data, suffix in ((b"{" + b'"":{' * 3_000, ".json"), (b"[" * 100_000 + b"]" * 100_000, ".json"),
                             (b'{"a":' * 5_000 + b"1" + b"}" * 5_000, ".jsonl")):
            with self.subTest(suffix=suffix, start=data[:8]):
                parsed = parse_source(data, suffix)
                self.assertEqual(parsed.sections, ())
                self.assertTrue(parsed.problem)

    def test_html_character_references_to_line_breaks_keep_the_source_lines(self) -> None:
        from agentic_rag._ingest import ChunkOptions, chunk_sections

        for data, expected in ((b"<p>one&#10;two</p>", [(1, 1)]), (b"<p>alpha&#10;&#10;&#10;beta</p>\n<p>gamma</p>", [(1, 1), (2, 2)]),
                               (b"&#xa;a<", [(1, 1)])):
            with self.subTest(data=data):
                chunks = chunk_sections(parse_source(data, ".html").sections, "page.html", ChunkOptions(2, 0))
                self.assertEqual([(c.start_line, c.end_line) for c in chunks], expected)

    def test_html_marked_sections_the_standard_parser_asserts_on_are_skipped(self) -> None:
        for data in (b"<![<", b"<C<![<", b"<!<![\x01"):
            with self.subTest(data=data):
                parsed = parse_source(data, ".html")
                self.assertEqual(parsed.sections, ())


class SavedIndexFindings(unittest.TestCase):
    """Saved files whose header (checksum made to match) once raised ValueError, TypeError or
    OverflowError out of ``BM25Index.load``."""

    def test_a_header_with_a_wrong_meta_or_an_infinite_length_is_an_index_format_error(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "index.bm25"
            BM25Index.from_documents([Document("a", "hello world")]).save(path)
            data = path.read_bytes()
            prefix = struct.Struct("<8sIQ")
            magic, version, length = prefix.unpack_from(data)
            header = json.loads(data[prefix.size:prefix.size + length])
            sealed = hashlib.sha256(data[:-32]).digest() == data[-32:]  # a whole-file checksum at the end
            payload = data[prefix.size + length:len(data) - 32 if sealed else len(data)]
            analyzer = header["meta"]["analyzer"]
            edits = [{"meta": "1"}, {"meta": -1}, {"meta": [0]}, {"payload_length": math.inf},
                     *({"meta": {**header["meta"], **change}} for change in (
                         {"analyzer": []}, {"analyzer": 1e308}, {"analyzer": {**analyzer, "stopwords": math.nan}},
                         {"analyzer": {**analyzer, "stemmer": []}}, {"postings": math.inf})),
                     {"sections": [dict(header["sections"][0], offset=math.inf)] + header["sections"][1:]}]
            for edit in edits:
                with self.subTest(edit=str(edit)[:40]):
                    raw = json.dumps({**header, **edit}).encode()
                    body = prefix.pack(magic, version, len(raw)) + raw + payload
                    path.write_bytes(body + hashlib.sha256(body).digest() if sealed else body)
                    with self.assertRaises(IndexFormatError):
                        BM25Index.load(path)


class ContractFindings(unittest.TestCase):
    """``from_dict`` once accepted values that ``to_dict`` could not write back as strict JSON."""

    def test_non_finite_numbers_and_wrong_types_are_refused(self) -> None:
        cases = [
            (Route, {"fact_id": "a", "corpus_ids": ["?"], "reason": [math.inf]}),
            (Contribution, {"branch": "1", "branch_index": 5, "rank": 3, "weight": 10.0, "value": 1, "retriever": {"id": [math.inf]}}),
            (OrchestratorConfig, {"deadline_s": math.inf}),
        ]
        for cls, data in cases:
            with self.subTest(contract=cls.__name__):
                with self.assertRaises(InvalidInputError):
                    cls.from_dict(data)


class JsonSchemaFindings(unittest.TestCase):
    """Malformed keyword values that ``check_schema`` once let through (so ``validate_json`` then
    raised TypeError) or refused with TypeError/AttributeError instead of InvalidInputError."""

    MALFORMED = [
        ({"properties": "1"}, "properties"), ({"properties": {"a": 1}}, "properties/a"),
        ({"type": 7}, "type"), ({"type": False}, "type"), ({"type": []}, "type"), ({"type": [None]}, "type"),
        ({"required": 0}, "required"), ({"required": [1]}, "required"), ({"enum": -1}, "enum"), ({"enum": "ab"}, "enum"),
        ({"minLength": "x"}, "minLength"), ({"maxLength": {}}, "maxLength"), ({"minItems": []}, "minItems"),
        ({"maxItems": {}}, "maxItems"), ({"minItems": -1}, "minItems"), ({"maxLength": True}, "maxLength"),
        ({"maxLength": 1.5}, "maxLength"), ({"minimum": "a"}, "minimum"), ({"maximum": math.nan}, "maximum"),
        ({"minimum": math.inf}, "minimum"), ({"maximum": False}, "maximum"), ({"items": 0}, "items"),
        ({"items": {"type": "date"}}, "date"), ({"title": 3}, "title"), ({"description": ["x"]}, "description"),
        ({1: "x", "a": 2}, "unsupported"),
    ]

    def test_malformed_keyword_values_are_refused_naming_the_keyword(self) -> None:
        for schema, named in self.MALFORMED:
            with self.subTest(schema=schema):
                with self.assertRaises(InvalidInputError) as caught:
                    check_schema(schema)
                self.assertIn(named, str(caught.exception))

    def test_schemas_nested_past_the_depth_bound_or_cyclic_are_refused(self) -> None:
        deep: dict = {"type": "string"}
        for _ in range(10_000):
            deep = {"type": "array", "items": deep}
        cyclic: dict = {"type": "object", "properties": {}}
        cyclic["properties"]["self"] = cyclic
        for label, schema in (("deep", deep), ("cyclic", cyclic)):
            with self.subTest(schema=label), self.assertRaises(InvalidInputError):
                check_schema(schema)

    def test_validate_json_refuses_a_malformed_schema_inside_the_error_tree(self) -> None:
        cases = [([], {"type": False}), ("t", {"enum": -1}), ("t", {"minLength": "x"}), ("t", {"maxLength": {}}),
                 ([], {"minItems": []}), ([], {"maxItems": {}}), (1, {"minimum": "a"}), ({}, {"properties": "1"})]
        for instance, schema in cases:
            with self.subTest(schema=schema), self.assertRaises(InvalidInputError):
                validate_json(instance, schema)

    def test_values_python_cannot_convert_or_compare_are_reported_not_raised(self) -> None:
        deep: list = []
        for _ in range(100_000):
            deep = [deep]
        self.assertEqual(validate_json(10**400, {"type": "number", "minimum": 0.5}), [])
        self.assertEqual(len(validate_json(deep, {"type": "string"})), 1)
        self.assertEqual(len(validate_json(deep, {"enum": [deep[0], 1]})), 1)

    def test_well_formed_schemas_still_pass(self) -> None:
        check_schema({"type": ["string", "null"], "enum": ["a", None], "minLength": 0, "maxLength": 3, "title": "t",
                      "description": "d", "default": "a"})
        check_schema({"type": "number", "minimum": -1, "maximum": 2.5})
        check_schema({"type": "object", "required": [], "properties": {"a": {"type": "array", "items": {}, "minItems": 0}}})


class ExtractJsonFindings(unittest.TestCase):
    """Answers that once escaped ``extract_json`` or made it quadratic."""

    def test_nesting_deeper_than_the_recursion_limit_is_no_json(self) -> None:
        for text in ("[" * 100_000, '{"a":' * 5_000 + "1" + "}" * 5_000):
            with self.subTest(text=text[:10]), self.assertRaises(StructuredOutputError):
                extract_json(text)

    def test_a_reasoning_block_left_open_is_read_in_one_pass_as_no_answer(self) -> None:
        # 200 KB of unclosed tags: the old pattern rescanned the rest of the text from every tag
        # (seconds at this size, and returned the JSON inside the reasoning); one forward pass
        # takes milliseconds.
        for text in ("<think> " * 25_000 + '{"a": 1}', ' <think>The answer could be {"a": 1}, but'):
            with self.subTest(text=text[:20]), self.assertRaises(StructuredOutputError):
                extract_json(text)

    def test_closed_blocks_are_removed_and_a_tag_after_the_answer_has_started_is_text(self) -> None:
        cases = [
            ('<THINK>{"x": 0}</Think> {"a": 1} <think> [2]', {"a": 1}),
            ('<think>a<think>{"x": 0}</think>{"a": 1}</think>', {"a": 1}),
            ('<think>{"x": 0}</think>\n<think>{"y": 0}</think>{"a": 1}', {"a": 1}),
            ('{"note": "<think>"}', {"note": "<think>"}),
            ('Here it is: <think> {"a": 1}', {"a": 1}),
        ]
        for text, expected in cases:
            with self.subTest(text=text):
                self.assertEqual(extract_json(text), expected)

    def test_nothing_escapes_the_error_tree(self) -> None:
        for text in ("[" * 5_000 + '"' + "\\" * 10, "{" * 3_000, "<think>" * 1_000 + "[" * 50_000):
            with self.subTest(text=text[:10]):
                try:
                    extract_json(text)
                except AgenticRAGError:
                    pass


if __name__ == "__main__":
    unittest.main()
