"""One ask mode, one search shape: the demo is served through ``StoreService`` over a
temporary store, so it answers exactly as a store of the same files does."""

from __future__ import annotations

import gc
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from agentic_rag._errors import InvalidInputError
from agentic_rag._interfaces.ask_mode import AskMode
from agentic_rag._interfaces.cli import build_parser
from agentic_rag._interfaces import mcp_demo
from agentic_rag._interfaces.mcp_demo import demo_service, demo_tools
from agentic_rag._interfaces.mcp_server import store_tools
from agentic_rag._interfaces.mcp_tools import ASK_INPUT_SCHEMA
from agentic_rag._interfaces.store_service import StoreService
from agentic_rag._samples import sample_corpora, sample_folder
from agentic_rag._store import KnowledgeStore


def _tool(tools, name):
    return next(t for t in tools if t.name == name)


class OneAskModeTest(unittest.TestCase):
    def test_cli_and_mcp_choices_come_from_the_enum(self):
        values = [m.value for m in AskMode]
        self.assertEqual(ASK_INPUT_SCHEMA["properties"]["mode"]["enum"], values)
        parser = build_parser()
        ask = parser._subparsers._group_actions[0].choices["ask"]  # argparse keeps sub-parsers here
        mode = next(a for a in ask._actions if a.dest == "mode")
        self.assertEqual(list(mode.choices), values)
        self.assertEqual(mode.default, AskMode.AGENTIC.value)

    def test_the_service_refuses_an_unknown_mode_naming_the_choices(self):
        with demo_service() as service:
            with self.assertRaisesRegex(InvalidInputError, r"mode must be one of \['agentic', 'parallel'\], got 'fast'"):
                service.ask("When was Acme Robotics founded?", "fast")


class DemoIsAStoreTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = Path(tempfile.mkdtemp())
        root = sample_folder()
        store = KnowledgeStore(cls.dir / "store", base=root)
        for corpus in sample_corpora():
            store.index(root / corpus.id, corpus=corpus.id, description=corpus.description)
        cls.store_tools = store_tools(StoreService(store))
        cls.demo_tools = demo_tools()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def call(self, tools, name, arguments):
        result = _tool(tools, name).call(arguments)
        self.assertIs(result["isError"], False, result["content"][0]["text"])
        return result["structuredContent"]

    def test_search_answers_in_the_store_shape(self):
        for arguments in ({"query": "Acme Robotics founded", "k": 3}, {"query": "sourdough", "corpus": "recipes"}):
            with self.subTest(arguments=arguments):
                demo = self.call(self.demo_tools, "search", arguments)
                self.assertEqual(demo, self.call(self.store_tools, "search", arguments))
                self.assertTrue(demo["hits"])
                self.assertIn("corpus", demo["hits"][0])

    def test_ask_answers_as_the_store_does_in_both_modes(self):
        for mode in AskMode:
            with self.subTest(mode=mode):
                arguments = {"question": "When was Acme Robotics founded?", "mode": mode.value}
                demo = self.call(self.demo_tools, "ask", arguments)
                self.assertEqual(demo, self.call(self.store_tools, "ask", arguments))
                self.assertIn("2001", demo["answer"])

    def test_list_corpora_and_unknown_corpus(self):
        corpora = self.call(self.demo_tools, "list_corpora", {})["corpora"]
        self.assertEqual([c["id"] for c in corpora], ["biographies", "company-records", "recipes"])
        bad = _tool(self.demo_tools, "search").call({"query": "x", "corpus": "unknown"})
        self.assertIs(bad["isError"], True)
        self.assertIn("unknown", bad["content"][0]["text"])


class DemoCleanupTest(unittest.TestCase):
    def test_the_context_removes_its_store(self):
        with demo_service() as service:
            folder = service.store.directory.parent  # the temporary folder holding the store
            self.assertTrue(service.store.exists)
        self.assertFalse(folder.exists())

    def test_dropped_tools_remove_their_store(self):
        made, real = [], tempfile.mkdtemp

        def mkdtemp(**kwargs):
            made.append(Path(real(**kwargs)))
            return str(made[-1])

        with mock.patch.object(mcp_demo.tempfile, "mkdtemp", mkdtemp):
            tools = demo_tools()
        self.assertEqual(len(made), 1)
        self.assertTrue(made[0].is_dir())
        del tools
        gc.collect()
        self.assertFalse(made[0].exists())


@unittest.skipIf(sys.platform == "win32", "SIGTERM is POSIX")
class DemoServerStopTest(unittest.TestCase):
    """``python -m agentic_rag._interfaces.mcp_demo`` removes its store however it stops: end of input or SIGTERM
    (how MCP clients stop a server that outlives its input)."""

    def run_server(self, stop) -> tuple[int, list[Path]]:
        tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, tmp, ignore_errors=True)
        src = Path(__file__).resolve().parents[1] / "src"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(src), os.environ.get("PYTHONPATH")])), TMPDIR=str(tmp))
        server = subprocess.Popen([sys.executable, "-m", "agentic_rag._interfaces.mcp_demo"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.addCleanup(self.reap, server)
        server.stdin.write(b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}\n')
        server.stdin.flush()
        self.assertEqual(json.loads(server.stdout.readline())["result"], {})
        self.assertEqual(len(list(tmp.glob("agentic-rag-demo-*"))), 1)  # the store, while serving
        stop(server)
        code = server.wait(timeout=30)
        self.assertNotIn(b"Fatal", server.stderr.read())
        return code, list(tmp.glob("agentic-rag-demo-*"))

    @staticmethod
    def reap(server: subprocess.Popen) -> None:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=30)
        for stream in (server.stdin, server.stdout, server.stderr):
            if not stream.closed:
                stream.close()

    def test_end_of_input(self):
        code, left = self.run_server(lambda server: server.stdin.close())
        self.assertEqual((code, left), (0, []))

    def test_sigterm(self):
        code, left = self.run_server(lambda server: server.send_signal(signal.SIGTERM))
        self.assertEqual((code, left), (128 + signal.SIGTERM, []))


if __name__ == "__main__":
    unittest.main()
