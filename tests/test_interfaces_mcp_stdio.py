"""The MCP server as a subprocess: a line-oriented client speaks to
``python -m agentic_rag._interfaces.mcp_demo`` over stdio, every wait bounded."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import unittest
from pathlib import Path

from agentic_rag._interfaces.mcp_server import PROTOCOL_VERSION_META_KEY, STATELESS_PROTOCOL_VERSIONS

MODERN = STATELESS_PROTOCOL_VERSIONS[-1]
META = {"_meta": {PROTOCOL_VERSION_META_KEY: MODERN, "io.modelcontextprotocol/clientCapabilities": {}}}


class _StdioClient:
    """A line-oriented MCP client driving the server as a subprocess, every wait bounded."""

    TIMEOUT = 30

    def __init__(self):
        src = Path(__file__).resolve().parents[1] / "src"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(src), os.environ.get("PYTHONPATH")])), PYTHONUTF8="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "agentic_rag._interfaces.mcp_demo"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        )
        self.lines: queue.Queue = queue.Queue()
        self.raw_lines: list[bytes] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._stderr = threading.Thread(target=lambda: setattr(self, "stderr", self.proc.stderr.read()), daemon=True)
        self._stderr.start()

    def _read(self):
        for line in self.proc.stdout:
            self.raw_lines.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def write(self, text):
        self.proc.stdin.write(text.encode("utf-8") + b"\n")
        self.proc.stdin.flush()

    def request(self, method, params=None, id=1):
        message = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        self.write(json.dumps(message))
        return self.receive()

    def receive(self):
        line = self.lines.get(timeout=self.TIMEOUT)
        if line is None:
            raise AssertionError("the server closed stdout")
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        code = self.proc.wait(timeout=self.TIMEOUT)
        self._reader.join(timeout=self.TIMEOUT)
        self._stderr.join(timeout=self.TIMEOUT)
        return code

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=self.TIMEOUT)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if not stream.closed:
                stream.close()


class SubprocessClientTest(unittest.TestCase):
    def setUp(self):
        self.client = _StdioClient()
        self.addCleanup(self.client.kill)

    def _assert_citations_point_at_lines(self, answer):
        for claim in answer["claims"]:
            for citation in claim["citations"]:
                self.assertTrue(citation["path"].endswith(".md"))
                self.assertLessEqual(1, citation["start_line"])
                self.assertLessEqual(citation["start_line"], citation["end_line"])
                # The quote, or "" when it is the claim's own text.
                self.assertTrue(citation["quote"] or claim["text"])

    def test_handshake_session_over_stdio(self):
        c = self.client
        init = c.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}, id=0)
        self.assertEqual(init["result"]["protocolVersion"], "2025-06-18")
        c.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        names = [t["name"] for t in c.request("tools/list", id="list")["result"]["tools"]]
        self.assertEqual(names, ["search", "ask", "list_corpora", "show"])
        hits = c.request("tools/call", {"name": "search", "arguments": {"query": "Acme Robotics founded", "k": 3}}, id=2)["result"]
        self.assertIs(hits["isError"], False)
        first = hits["structuredContent"]["hits"][0]
        self.assertEqual(first["path"], "company-records/acme-robotics.md")
        self.assertLessEqual(first["start_line"], first["end_line"])
        self.assertLessEqual(first["start_line"], first["focus_start_line"])
        self.assertLessEqual(first["focus_start_line"], first["focus_end_line"])
        self.assertLessEqual(first["focus_end_line"], first["end_line"])
        self.assertGreaterEqual(first["relevance"], 0.5)
        location = f"{first['path']}:{first['focus_start_line']}-{first['focus_end_line']}"
        shown = c.request("tools/call", {"name": "show", "arguments": {"location": location}}, id="show")["result"]
        self.assertIs(shown["isError"], False)
        lines = [(line["line"], line["text"]) for block in shown["structuredContent"]["blocks"] for line in block["lines"]]
        for focus_line in first["focus_text"].split("\n"):
            # "3-4: a sentence wrapped over lines 3 and 4": its words stand in those lines.
            numbers, text = focus_line.split(": ", 1)
            low, _, high = numbers.partition("-")
            within = " ".join(" ".join(t.split()) for n, t in lines if int(low) <= n <= int(high or low))
            self.assertIn(text.rstrip("… "), within)
        for mode in ("agentic", "parallel"):
            with self.subTest(mode=mode):
                result = c.request("tools/call", {"name": "ask", "arguments": {"question": "When was Acme Robotics founded?", "mode": mode}}, id=mode)["result"]
                self.assertIs(result["isError"], False, result["content"][0]["text"])
                answer = result["structuredContent"]
                self.assertIn(answer["status"], ("answered", "partial", "unanswerable"))
                self.assertIn("2001", answer["answer"])
                self._assert_citations_point_at_lines(answer)
                self.assertTrue(answer["evidence"])
                self.assertLessEqual(len(answer["evidence"]), 5)
                self.assertEqual(answer["evidence"][0]["path"], "company-records/acme-robotics.md")
        corpora = c.request("tools/call", {"name": "list_corpora", "arguments": {}}, id=4)["result"]["structuredContent"]["corpora"]
        self.assertEqual([x["id"] for x in corpora], ["biographies", "company-records", "recipes"])
        # errors, then the session goes on
        c.write("{not json")
        self.assertEqual(c.receive()["error"]["code"], -32700)
        self.assertEqual(c.request("tools/call", {"name": "nope", "arguments": {}}, id=5)["error"]["code"], -32602)
        bad = c.request("tools/call", {"name": "search", "arguments": {"query": "x", "corpus": "unknown"}}, id=6)["result"]
        self.assertIs(bad["isError"], True)
        self.assertEqual(c.request("ping", id=7), {"jsonrpc": "2.0", "id": 7, "result": {}})
        self.assertEqual(c.close(), 0)
        for raw in c.raw_lines:  # stdout holds protocol messages only
            self.assertEqual(json.loads(raw)["jsonrpc"], "2.0")
        self.assertIn(b"parse error", c.stderr)

    def test_stateless_session_over_stdio(self):
        c = self.client
        discover = c.request("server/discover", META, id="d")["result"]
        self.assertEqual(discover["supportedVersions"], [MODERN])
        result = c.request("tools/call", {"name": "search", "arguments": {"query": "sourdough bread"}, **META}, id="s")["result"]
        self.assertEqual(result["resultType"], "complete")
        self.assertTrue(result["structuredContent"]["hits"][0]["path"].startswith("recipes/"))
        self.assertEqual(c.close(), 0)


if __name__ == "__main__":
    unittest.main()
