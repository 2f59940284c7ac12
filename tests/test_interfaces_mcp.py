"""The MCP server in process: both protocol eras, the JSON-RPC error rules, the serve loop and
the store tools (the stdio client test is in test_interfaces_mcp_stdio.py)."""

from __future__ import annotations

import io
import json
import unittest

from agentic_rag._contracts import Corpus
from agentic_rag._errors import InvalidInputError
from agentic_rag._interfaces.ask_mode import MAX_QUERY_CHARS
from agentic_rag._interfaces.mcp_channel import MAX_MESSAGE_BYTES, McpClientChannel
from agentic_rag._interfaces.mcp_server import (
    HANDSHAKE_PROTOCOL_VERSIONS,
    PROTOCOL_VERSION_META_KEY,
    SERVER_INFO_META_KEY,
    STATELESS_PROTOCOL_VERSIONS,
    AskMode,
    McpServer,
    McpTool,
    build_store_tools,
)
from agentic_rag.llm.json_schema import check_schema

MODERN = STATELESS_PROTOCOL_VERSIONS[-1]
META = {"_meta": {PROTOCOL_VERSION_META_KEY: MODERN, "io.modelcontextprotocol/clientCapabilities": {}}}
ECHO_INPUT = {
    "type": "object",
    "properties": {"text": {"type": "string"}, "times": {"type": "integer", "minimum": 1, "maximum": 3, "default": 1}},
    "required": ["text"],
    "additionalProperties": False,
}
ECHO_OUTPUT = {"type": "object", "properties": {"echo": {"type": "string"}}, "required": ["echo"]}


def _boom(arguments):
    raise RuntimeError("kaboom")


def _test_tools():
    return (
        McpTool("echo", "Echo", "Repeat the text.", ECHO_INPUT, ECHO_OUTPUT, lambda a: {"echo": a["text"] * a["times"]}),
        McpTool("boom", "Boom", "Always fails.", {"type": "object"}, None, _boom),
        McpTool("liar", "Liar", "Breaks its output schema.", {"type": "object"}, ECHO_OUTPUT, lambda a: {"echo": 3}),
    )


class Session:
    """An in-process client: one JSON line in, the parsed answer (or None) out."""

    def __init__(self, tools=None, **kwargs):
        self.server = McpServer(_test_tools() if tools is None else tools, instructions="Use the tools.", **kwargs)

    def send(self, message):
        line = message if isinstance(message, (str, bytes)) else json.dumps(message)
        answer = self.server.handle_line(line)
        return None if answer is None else json.loads(answer)

    def request(self, method, params=None, id=1):
        message = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        return self.send(message)

    def initialize(self, version=HANDSHAKE_PROTOCOL_VERSIONS[-1]):
        answer = self.request("initialize", {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def call(self, name, arguments=None, **params):
        return self.request("tools/call", {"name": name, "arguments": arguments, **params})["result"]


class HandshakeTest(unittest.TestCase):
    def test_each_handshake_revision_is_echoed(self):
        for version in HANDSHAKE_PROTOCOL_VERSIONS:
            with self.subTest(version=version):
                session = Session()
                result = session.initialize(version)["result"]
                self.assertEqual(result["protocolVersion"], version)
                self.assertEqual(result["capabilities"], {"tools": {}})
                self.assertEqual(result["serverInfo"]["name"], "agentic-rag")
                self.assertIsInstance(result["serverInfo"]["version"], str)
                self.assertEqual(result["instructions"], "Use the tools.")
                self.assertTrue(session.server.initialized)

    def test_unsupported_version_gets_the_latest_handshake_revision(self):
        for asked in ("2023-01-01", MODERN, "banana"):
            with self.subTest(asked=asked):
                self.assertEqual(Session().initialize(asked)["result"]["protocolVersion"], HANDSHAKE_PROTOCOL_VERSIONS[-1])

    def test_initialize_without_a_version_is_invalid_params(self):
        answer = Session().request("initialize", {"capabilities": {}}, id=9)
        self.assertEqual((answer["id"], answer["error"]["code"]), (9, -32602))

    def test_old_revisions_get_no_titles_output_schemas_or_structured_content(self):
        session = Session()
        session.initialize("2025-03-26")
        tool = session.request("tools/list")["result"]["tools"][0]
        self.assertEqual(set(tool), {"name", "description", "inputSchema"})
        result = session.call("echo", {"text": "a"})
        self.assertNotIn("structuredContent", result)
        self.assertEqual(json.loads(result["content"][0]["text"]), {"echo": "a"})

    def test_new_revisions_get_titles_output_schemas_and_structured_content(self):
        session = Session()
        session.initialize("2025-06-18")
        tool = session.request("tools/list")["result"]["tools"][0]
        self.assertEqual((tool["title"], tool["outputSchema"]), ("Echo", ECHO_OUTPUT))
        result = session.call("echo", {"text": "ab", "times": 2})
        self.assertEqual(result["structuredContent"], {"echo": "abab"})
        self.assertEqual(json.loads(result["content"][0]["text"]), result["structuredContent"])
        self.assertIs(result["isError"], False)

    def test_ping_answers_an_empty_result(self):
        self.assertEqual(Session().request("ping", id="p")["result"], {})


class StatelessRevisionTest(unittest.TestCase):
    def test_server_discover_without_handshake(self):
        for params in (META, None):
            with self.subTest(with_meta=params is not None):
                result = Session().request("server/discover", params)["result"]
                self.assertEqual(result["resultType"], "complete")
                self.assertEqual(result["supportedVersions"], [MODERN])
                self.assertEqual(result["capabilities"], {"tools": {}})
                self.assertEqual(result["serverInfo"]["name"], "agentic-rag")
                self.assertEqual(result["_meta"][SERVER_INFO_META_KEY], result["serverInfo"])
                self.assertEqual(result["instructions"], "Use the tools.")
                self.assertIsInstance(result["ttlMs"], int)
                self.assertIn(result["cacheScope"], ("public", "private"))

    def test_requests_with_meta_are_served_without_initialize(self):
        session = Session()
        listing = session.request("tools/list", META)["result"]
        self.assertEqual((listing["resultType"], listing["cacheScope"]), ("complete", "public"))
        self.assertEqual([t["name"] for t in listing["tools"]], ["echo", "boom", "liar"])
        result = session.call("echo", {"text": "x"}, **META)
        self.assertEqual((result["resultType"], result["structuredContent"]), ("complete", {"echo": "x"}))
        self.assertIsNone(session.server.negotiated_version)

    def test_unsupported_per_request_version_is_error_32022(self):
        for version in ("2099-01-01", HANDSHAKE_PROTOCOL_VERSIONS[-1]):
            with self.subTest(version=version):
                answer = Session().request("tools/list", {"_meta": {PROTOCOL_VERSION_META_KEY: version}}, id="v")
                self.assertEqual((answer["id"], answer["error"]["code"]), ("v", -32022))
                self.assertEqual(answer["error"]["data"], {"supported": [MODERN], "requested": version})

    def test_non_string_version_is_invalid_params(self):
        answer = Session().request("tools/list", {"_meta": {PROTOCOL_VERSION_META_KEY: 20260728}})
        self.assertEqual(answer["error"]["code"], -32602)


class ToolCallTest(unittest.TestCase):
    def test_unknown_tool_is_a_protocol_error(self):
        answer = Session().request("tools/call", {"name": "nope", "arguments": {}}, id=4)
        self.assertEqual((answer["id"], answer["error"]["code"]), (4, -32602))
        self.assertIn("nope", answer["error"]["message"])
        self.assertNotIn("result", answer)

    def test_bad_arguments_are_a_tool_error_naming_the_problem(self):
        cases = {
            "missing": ({}, "text"),
            "type": ({"text": 5}, "expected string"),
            "range": ({"text": "a", "times": 9}, "maximum"),
            "extra": ({"text": "a", "colour": "red"}, "colour"),
        }
        for label, (arguments, needle) in cases.items():
            with self.subTest(label):
                result = Session().call("echo", arguments)
                self.assertIs(result["isError"], True)
                self.assertIn(needle, result["content"][0]["text"])
                self.assertNotIn("structuredContent", result)

    def test_malformed_call_params_are_invalid_params(self):
        session = Session()
        for params in ({"arguments": {}}, {"name": 3}, {"name": "echo", "arguments": [1]}):
            with self.subTest(params=params):
                self.assertEqual(session.request("tools/call", params)["error"]["code"], -32602)

    def test_a_tool_that_raises_returns_is_error_with_the_message(self):
        result = Session().call("boom", {})
        self.assertIs(result["isError"], True)
        self.assertIn("kaboom", result["content"][0]["text"])

    def test_output_that_breaks_the_schema_is_a_tool_error(self):
        result = Session().call("liar", {})
        self.assertIs(result["isError"], True)
        self.assertIn("outputSchema", result["content"][0]["text"])

    def test_list_with_an_unknown_cursor_is_invalid_params(self):
        self.assertEqual(Session().request("tools/list", {"cursor": "next"})["error"]["code"], -32602)


class JsonRpcRulesTest(unittest.TestCase):
    def test_malformed_json_is_a_parse_error_with_null_id(self):
        for line in ('{"jsonrpc": "2.0", "id": 1,', "garbage", b"\xff\xfe{}", '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}'):
            with self.subTest(line=line):
                answer = Session().send(line)
                self.assertEqual((answer["id"], answer["error"]["code"]), (None, -32700))

    def test_batch_arrays_are_invalid_requests(self):
        for batch in ([{"jsonrpc": "2.0", "id": 1, "method": "ping"}], []):
            with self.subTest(batch=batch):
                answer = Session().send(batch)
                self.assertEqual((answer["id"], answer["error"]["code"]), (None, -32600))

    def test_invalid_request_shapes(self):
        cases = [
            ({"id": 1, "method": "ping"}, 1, -32600),
            ({"jsonrpc": "1.0", "id": 1, "method": "ping"}, 1, -32600),
            ({"jsonrpc": "2.0", "id": 2, "method": 7}, 2, -32600),
            ({"jsonrpc": "2.0", "id": True, "method": "ping"}, None, -32600),
            ({"jsonrpc": "2.0", "id": None, "method": "ping"}, None, -32600),
            ({"jsonrpc": "2.0", "id": 3, "method": "ping", "params": [1]}, 3, -32602),
            ("42", None, -32600),
        ]
        for message, echoed, code in cases:
            with self.subTest(message=message):
                answer = Session().send(message)
                self.assertEqual((answer["id"], answer["error"]["code"]), (echoed, code))

    def test_unknown_method_echoes_the_id(self):
        answer = Session().request("resources/list", id="r-1")
        self.assertEqual((answer["id"], answer["error"]["code"]), ("r-1", -32601))

    def test_ids_are_echoed_exactly(self):
        for request_id in ("abc", "", "é-✓", 0, -5, 2**70, 1.5):
            with self.subTest(id=request_id):
                line = Session().server.handle_line(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping"}))
                self.assertEqual(json.loads(line)["id"], request_id)
                self.assertIs(type(json.loads(line)["id"]), type(request_id))

    def test_notifications_and_responses_get_no_reply(self):
        session = Session()
        for message in (
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}},
            {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "boom"}},
            {"jsonrpc": "2.0", "method": "no/such/method", "params": [1]},
            {"jsonrpc": "2.0", "id": 5, "result": {}},
            "   ",
        ):
            with self.subTest(message=message):
                self.assertIsNone(session.send(message))


class ServeLoopTest(unittest.TestCase):
    def _serve(self, lines, binary=False):
        text = "".join(line + "\n" for line in lines)
        stdin = io.BytesIO(text.encode("utf-8")) if binary else io.StringIO(text)
        stdout, stderr = (io.BytesIO() if binary else io.StringIO()), io.StringIO()
        code = Session().server.serve(stdin, stdout, stderr)
        out = stdout.getvalue().decode("utf-8") if binary else stdout.getvalue()
        return code, [json.loads(line) for line in out.splitlines()], stderr.getvalue()

    def test_keeps_serving_after_every_error_and_exits_0_at_eof(self):
        lines = [
            json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}}),
            json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            "{broken",
            "[]",
            json.dumps({"jsonrpc": "2.0", "id": 2, "method": "nope"}),
            json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "missing"}}),
            json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "boom"}}),
            json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "ok"}}}),
        ]
        for binary in (False, True):
            with self.subTest(binary=binary):
                code, answers, log = self._serve(lines, binary)
                self.assertEqual(code, 0)
                self.assertEqual([a["id"] for a in answers], [1, None, None, 2, 3, 4, 5])
                self.assertEqual(answers[-1]["result"]["structuredContent"], {"echo": "ok"})
                self.assertIn("parse error", log)
                self.assertTrue(all(a["jsonrpc"] == "2.0" for a in answers))

    def test_empty_input_exits_0_with_no_output(self):
        self.assertEqual(self._serve([]), (0, [], ""))

    def test_a_message_over_the_size_limit_is_refused_unread_and_serving_goes_on(self):
        big = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "x" * 5000}}})
        ping = json.dumps({"jsonrpc": "2.0", "id": 8, "method": "ping"})
        for binary in (False, True):
            with self.subTest(binary=binary):
                text = f"{big}\n{ping}\n"
                stdin = io.BytesIO(text.encode("utf-8")) if binary else io.StringIO(text)
                stdout = io.BytesIO() if binary else io.StringIO()
                server = McpServer(_test_tools(), channel=McpClientChannel(max_message_bytes=4096))
                self.assertEqual(server.serve(stdin, stdout, io.StringIO()), 0)
                out = stdout.getvalue().decode("utf-8") if binary else stdout.getvalue()
                first, second = [json.loads(line) for line in out.splitlines()]
                self.assertEqual((first["id"], first["error"]["code"]), (None, -32600))
                self.assertEqual(first["error"]["data"], {"size": len(big) + 1, "limit": 4096})
                self.assertIn("at most 4096 bytes", first["error"]["message"])
                self.assertEqual(second, {"jsonrpc": "2.0", "id": 8, "result": {}})

    def test_the_default_limit_holds_a_megabyte(self):
        self.assertEqual(MAX_MESSAGE_BYTES, 1 << 20)
        with self.assertRaises(InvalidInputError):
            McpClientChannel(max_message_bytes=10)

    def test_output_lines_escape_line_separators(self):
        tool = McpTool("sep", "", "", {"type": "object"}, None, lambda a: {"text": "a\u2028b\nc"})
        server = McpServer([tool])
        line = server.handle_line(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "sep"}}))
        self.assertNotIn("\u2028", line)
        self.assertNotIn("\n", line)
        self.assertEqual(json.loads(line)["result"]["structuredContent"], {"text": "a\u2028b\nc"})


PASSAGE = {"path": "docs/a.md", "start_line": 3, "end_line": 5, "section": "Guide", "score": 1.5, "corpus": "docs",
           "focus_start_line": 4, "focus_end_line": 4, "focus_text": "4: alpha", "relevance": 0.75}
HIT = {**PASSAGE, "text": "alpha"}


class StoreToolsTest(unittest.TestCase):
    def setUp(self):
        self.calls = []

        def search(query, k, corpus, context):
            self.calls.append(("search", query, k, corpus, context))
            return [dict(HIT)]

        def ask(question, mode, evidence, full_text):
            self.calls.append(("ask", question, mode, evidence, full_text))
            return {"status": "partial", "answer": "A.", "claims": [], "missing_facts": ["b"], "iterations": 2, "stop_reason": "max_iterations",
                    "evidence": [{**PASSAGE, "fact_ids": ["f1"]}][:evidence]}

        corpora = [Corpus("zeta", "last"), {"id": "alpha", "description": "first"}]
        self.session = Session(build_store_tools(search, ask, lambda: corpora))
        self.session.initialize()

    def test_tools_list_declares_the_three_tools_with_schemas(self):
        tools = {t["name"]: t for t in self.session.request("tools/list")["result"]["tools"]}
        self.assertEqual(list(tools), ["search", "ask", "list_corpora"])
        for tool in tools.values():
            check_schema(tool["inputSchema"])
            check_schema(tool["outputSchema"])
            self.assertTrue(tool["title"] and tool["description"])
        k = tools["search"]["inputSchema"]["properties"]["k"]
        self.assertEqual((k["minimum"], k["maximum"], k["default"]), (1, 50, 5))
        self.assertEqual(tools["search"]["inputSchema"]["required"], ["query"])
        self.assertEqual(tools["ask"]["inputSchema"]["properties"]["mode"]["enum"], ["agentic", "parallel"])
        self.assertEqual(
            tools["ask"]["outputSchema"]["required"], ["status", "answer", "claims", "missing_facts", "iterations", "stop_reason", "evidence"]
        )
        evidence = tools["ask"]["inputSchema"]["properties"]["evidence"]
        self.assertEqual((evidence["type"], evidence["minimum"], evidence["default"]), ("integer", 0, 3))
        self.assertEqual(tools["ask"]["inputSchema"]["properties"]["full_text"]["default"], False)
        self.assertEqual(tools["search"]["inputSchema"]["properties"]["context"]["default"], 0)
        passage = tools["ask"]["outputSchema"]["properties"]["evidence"]["items"]
        self.assertEqual(sorted(passage["required"]), sorted([*PASSAGE, "fact_ids"]))
        hit = tools["search"]["outputSchema"]["properties"]["hits"]["items"]
        self.assertEqual(sorted(hit["required"]), sorted(HIT))
        self.assertEqual((hit["properties"]["relevance"]["minimum"], hit["properties"]["relevance"]["maximum"]), (0, 1))
        self.assertIn("relevance", tools["search"]["description"])
        self.assertIn("evidence", tools["ask"]["description"])

    def test_search_fills_defaults_and_delegates(self):
        result = self.session.call("search", {"query": "alpha"})
        self.assertEqual(self.calls, [("search", "alpha", 5, None, 0)])
        self.assertEqual(result["structuredContent"]["hits"][0]["path"], "docs/a.md")
        self.session.call("search", {"query": "alpha", "k": 3, "corpus": "docs", "context": 2})
        self.assertEqual(self.calls[-1], ("search", "alpha", 3, "docs", 2))

    def test_queries_and_questions_over_the_cap_are_tool_errors_naming_it(self):
        long = "word " * (MAX_QUERY_CHARS // 5 + 1)
        for tool, key in (("search", "query"), ("ask", "question")):
            with self.subTest(tool=tool):
                result = self.session.call(tool, {key: long})
                self.assertIs(result["isError"], True)
                self.assertIn(f"longer than maxLength {MAX_QUERY_CHARS}", result["content"][0]["text"])
        self.assertEqual(self.calls, [])
        self.session.call("search", {"query": long[:MAX_QUERY_CHARS]})
        self.assertEqual(len(self.calls), 1)

    def test_search_k_out_of_range_is_a_tool_error(self):
        for k in (0, 51, "5"):
            with self.subTest(k=k):
                self.assertIs(self.session.call("search", {"query": "a", "k": k})["isError"], True)
        self.assertEqual(self.calls, [])

    def test_ask_passes_the_mode_and_the_evidence_count(self):
        result = self.session.call("ask", {"question": "Why?", "mode": "parallel"})
        self.assertEqual(self.calls, [("ask", "Why?", AskMode.PARALLEL, 3, False)])
        self.assertEqual(result["structuredContent"]["status"], "partial")
        self.assertEqual(result["structuredContent"]["evidence"][0]["fact_ids"], ["f1"])
        self.session.call("ask", {"question": "Why?"})
        self.assertIs(self.calls[-1][2], AskMode.AGENTIC)
        none = self.session.call("ask", {"question": "Why?", "evidence": 0})
        self.assertEqual((self.calls[-1][3], none["structuredContent"]["evidence"]), (0, []))
        self.assertIs(self.session.call("ask", {"question": "Why?", "mode": "fast"})["isError"], True)
        self.session.call("ask", {"question": "Why?", "full_text": True})
        self.assertIs(self.calls[-1][4], True)

    def test_bad_evidence_counts_are_tool_errors(self):
        for evidence in (-1, "5", 2.5, True):
            with self.subTest(evidence=evidence):
                result = self.session.call("ask", {"question": "Why?", "evidence": evidence})
                self.assertIs(result["isError"], True)
                self.assertIn("evidence", result["content"][0]["text"])
        self.assertEqual(self.calls, [])

    def test_an_answer_without_evidence_breaks_the_output_schema(self):
        tools = build_store_tools(lambda q, k, c, n: [], lambda q, m, e, f: {"status": "answered", "answer": "A.", "claims": [], "missing_facts": [],
                                                                           "iterations": 1, "stop_reason": "sufficient"}, lambda: [])
        result = tools[1].call({"question": "Why?", "mode": "agentic", "evidence": 5})
        self.assertIs(result["isError"], True)
        self.assertIn("evidence", result["content"][0]["text"])

    def test_list_corpora_accepts_contracts_and_mappings_sorted_by_id(self):
        result = self.session.call("list_corpora", {})
        self.assertEqual(result["structuredContent"], {"corpora": [{"id": "alpha", "description": "first"}, {"id": "zeta", "description": "last"}]})


class ToolContractTest(unittest.TestCase):
    def test_bad_tools_are_refused(self):
        ok = {"type": "object"}
        cases = {
            "name": lambda: McpTool("bad name", "", "", ok, None, _boom),
            "schema type": lambda: McpTool("t", "", "", {"type": "string"}, None, _boom),
            "keyword": lambda: McpTool("t", "", "", {"type": "object", "oneOf": []}, None, _boom),
            "handler": lambda: McpTool("t", "", "", ok, None, "not callable"),
            "duplicates": lambda: McpServer([McpTool("t", "", "", ok, None, _boom)] * 2),
            "not a tool": lambda: McpServer(["t"]),
        }
        for label, build in cases.items():
            with self.subTest(label), self.assertRaises(InvalidInputError):
                build()


if __name__ == "__main__":
    unittest.main()
