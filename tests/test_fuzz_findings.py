"""Regression tests for what the fuzz harness (``bench/fuzz.py``) found, each shrunk to the
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

from agentic_rag.agentic.config import OrchestratorConfig
from agentic_rag.contracts import Route
from agentic_rag.contracts import Document
from agentic_rag.errors import IndexFormatError, InvalidInputError
from agentic_rag.ingest import parse_source
from agentic_rag.interfaces.mcp_protocol import ErrorCode, McpServer
from agentic_rag.parallel.evidence import Contribution
from agentic_rag.retrieval import BM25Index


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
            edits = [{"meta": "1"}, {"meta": -1}, {"meta": [0]}, {"payload_length": math.inf},
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


if __name__ == "__main__":
    unittest.main()
