"""The command line and the MCP server under hostile or unlucky conditions.

Regression tests: ``agentic-rag search ... | head -1`` printed "error: [Errno 32] Broken pipe"
and exited 1; ``--llm`` at an unreachable address fell back to the deterministic components
without a word; MCP answered ``id: 1e400`` and very deep nesting with -32603 (internal error)
instead of -32600 / -32700; ``--strict`` must exit 3 on a parallel-mode partial answer.
"""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from agentic_rag._interfaces import cli_commands
from agentic_rag._interfaces.cli import main
from agentic_rag._interfaces.mcp_protocol import McpServer
from agentic_rag._interfaces.mcp_demo import demo_tools
from agentic_rag.llm import OpenAICompatibleLLM
from agentic_rag.llm.scripted import ScriptedLLM
from cli_support import run_cli

SRC = str(Path(__file__).resolve().parents[1] / "src")


class StoreTestCase(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = Path(tmp.name)
        old = os.getcwd()
        os.chdir(self.dir)
        self.addCleanup(os.chdir, old)
        docs = self.dir / "notes" / "companies"
        docs.mkdir(parents=True)
        (docs / "acme.md").write_text("# Acme\n\nAcme Robotics was founded in 2001 by Jane Doe.\n\nIt builds warehouse robots.\n", encoding="utf-8")
        people = self.dir / "notes" / "people"
        people.mkdir()
        (people / "jane.md").write_text("# Jane Doe\n\nJane Doe was born in Lyon in 1968.\n", encoding="utf-8")
        self.store = str(self.dir / "store")
        code, _, err = run_cli("index", "notes", "--store", self.store, "--quiet")
        self.assertEqual(code, 0, err)


class StrictParallelTest(StoreTestCase):
    def test_strict_exits_3_on_a_parallel_partial_answer(self):
        question = "When was Acme Robotics founded and how many employees does it have?"
        code, out, err = run_cli("ask", question, "--store", self.store, "--mode", "parallel", "--json")
        self.assertEqual(code, 0, err)
        self.assertIn(json.loads(out)["status"], ("partial", "unanswerable"))
        code, _, _ = run_cli("ask", question, "--store", self.store, "--mode", "parallel", "--strict")
        self.assertEqual(code, 3)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ModelFallbackIsReportedTest(StoreTestCase):
    QUESTION = "Where was the founder of Acme Robotics born?"

    def ask_with(self, llm, *extra):
        with mock.patch.object(cli_commands, "_llm", return_value=llm):
            return run_cli("ask", self.QUESTION, "--store", self.store, *extra)

    def test_an_unreachable_model_is_reported_on_stderr_and_in_json(self):
        llm = OpenAICompatibleLLM(f"http://127.0.0.1:{closed_port()}/v1", "some-model", max_retries=0, timeout_s=2)
        for mode in ("agentic", "parallel"):
            with self.subTest(mode=mode):
                code, out, err = self.ask_with(llm, "--json", "--mode", mode)
                self.assertEqual(code, 0, err)
                model = json.loads(out)["model"]
                self.assertIs(model["used"], False)
                self.assertEqual(model["name"], "some-model")
                self.assertIn("127.0.0.1", model["reason"])
                self.assertIn("warning", err)
                self.assertIn("not used", err)
                code, out, err = self.ask_with(llm, "--mode", mode)
                self.assertIn("not used", err)

    def test_a_model_that_answers_is_reported_as_used(self):
        code, out, err = self.ask_with(ScriptedLLM(["not json"], repeat_last=True, model="scripted-model"), "--json")
        self.assertEqual(code, 0, err)
        model = json.loads(out)["model"]
        self.assertIs(model["used"], True)
        self.assertEqual(model["name"], "scripted-model")
        self.assertGreaterEqual(model["calls"], 1)
        self.assertNotIn("warning", err)

    def test_without_a_model_the_payload_has_no_model_key(self):
        code, out, _ = run_cli("ask", self.QUESTION, "--store", self.store, "--json")
        self.assertNotIn("model", json.loads(out))


class BrokenPipeTest(StoreTestCase):
    def run_closed(self, *argv: str) -> subprocess.CompletedProcess:
        env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
        process = subprocess.Popen([sys.executable, "-m", "agentic_rag", *argv, "--store", self.store], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, env=env, cwd=self.dir)
        process.stdout.close()  # the reader is gone before anything is written, as `| head -0`
        try:
            _, err = process.communicate(timeout=10)
        finally:
            process.kill()
        return subprocess.CompletedProcess(process.args, process.returncode, None, err.decode("utf-8", "replace"))

    def test_search_into_a_closed_pipe_exits_quietly(self):
        for argv in (("search", "Acme Robotics", "--json"), ("search", "Acme Robotics"), ("ask", "Who founded Acme Robotics?")):
            with self.subTest(argv=argv):
                done = self.run_closed(*argv)
                self.assertEqual(done.stderr, "")
                self.assertEqual(done.returncode, 141)


class McpErrorCodesTest(unittest.TestCase):
    def setUp(self):
        self.server = McpServer(demo_tools())

    def answer(self, line: str) -> dict:
        out = io.StringIO()
        self.server.serve(io.StringIO(line + "\n"), out, None)
        return json.loads(out.getvalue())

    def test_a_non_finite_id_is_an_invalid_request(self):
        for raw in ("1e400", "-1e400"):
            with self.subTest(id=raw):
                reply = self.answer('{"jsonrpc": "2.0", "id": %s, "method": "ping"}' % raw)
                self.assertEqual(reply["error"]["code"], -32600)
                self.assertIsNone(reply["id"])
                self.assertIn("id", reply["error"]["message"])

    def test_a_large_finite_id_is_echoed(self):
        self.assertEqual(self.answer('{"jsonrpc": "2.0", "id": 1e300, "method": "ping"}')["id"], 1e300)

    def test_nesting_too_deep_to_parse_is_a_parse_error(self):
        for line in ("[" * 100_000 + "]" * 100_000, '{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"a": ' + "[" * 50_000 + "]" * 50_000 + "}}"):
            with self.subTest(length=len(line)):
                reply = self.answer(line)
                self.assertEqual(reply["error"]["code"], -32700)
                self.assertIsNone(reply["id"])
                self.assertIn("nest", reply["error"]["message"])

    def test_deep_but_parsable_nesting_is_an_invalid_request(self):
        arguments = '{"query": ' + "[" * 500 + "]" * 500 + "}"
        reply = self.answer('{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "search", "arguments": %s}}' % arguments)
        self.assertEqual(reply["error"]["code"], -32600)
        self.assertEqual(reply["id"], 7)
        self.assertIn("nest", reply["error"]["message"])


if __name__ == "__main__":
    unittest.main()
