"""The host agent's model over MCP sampling: ``McpSamplingLLM`` on its own, and the store's
``ask`` tool served over stdio to a loopback MCP client that answers ``sampling/createMessage``
with scripted model output (in process over pipes, and ``agentic-rag mcp --llm sampling`` as a
subprocess). Every wait is bounded."""

from __future__ import annotations

import io
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from dataclasses import replace
from pathlib import Path

from llm_scripts import GARBAGE, SAMPLE_WORLD, Oracle

from agentic_rag._agentic import OrchestratorConfig
from agentic_rag._budget import RunBudget, use_budget
from agentic_rag._errors import BudgetExhaustedError, InvalidInputError, ProviderError, ProviderTimeoutError
from agentic_rag._interfaces.mcp_channel import McpClientChannel
from agentic_rag._interfaces.mcp_server import PROTOCOL_VERSION_META_KEY, STATELESS_PROTOCOL_VERSIONS, McpServer, build_store_tools
from agentic_rag._interfaces.store_service import StoreService
from agentic_rag.llm import McpSamplingLLM, Message, ResponseFormat
from agentic_rag._samples import sample_corpora, sample_folder
from agentic_rag._store import KnowledgeStore

WAIT_S = 30
QUESTION = "Where was the founder of Acme Robotics born?"
NO_ANSWER = object()
# The sample world with the store's document ids (file names).
# The oracle knows documents, the store cites chunks: the sampler names each chunk "path:n".
_STORE_IDS = {"acme-robotics": "company-records/acme-robotics.md:0", "jane-doe": "biographies/jane-doe.md:0"}
_CHUNK_ID = re.compile(r'id="[^"/]+/([^"#]+)#(\d+)"')
STORE_WORLD = replace(SAMPLE_WORLD, evidence=tuple(replace(e, document_id=_STORE_IDS[e.document_id]) for e in SAMPLE_WORLD.evidence))


class _FakeChannel:
    def __init__(self, result=None, reason=None):
        self.result, self.reason, self.calls = result, reason, []

    def unavailable_reason(self, capability):
        return self.reason

    def request(self, method, params, *, timeout_s):
        self.calls.append((method, params, timeout_s))
        if isinstance(self.result, BaseException):
            raise self.result
        return self.result


class SamplingLLMTest(unittest.TestCase):
    def test_request_shape(self) -> None:
        channel = _FakeChannel({"role": "assistant", "content": {"type": "text", "text": '{"a": 1}'}, "model": "host-model", "stopReason": "maxTokens"})
        llm = McpSamplingLLM(channel, model_hint="claude", timeout_s=7)
        completion = llm.complete([Message.system("Rules."), Message.user("one"), Message.user("two"), Message.assistant("ok"), Message.user("three")],
                                  temperature=0.2, max_tokens=64, response_format=ResponseFormat.json_object())
        method, params, timeout = channel.calls[0]
        self.assertEqual(method, "sampling/createMessage")
        self.assertEqual(timeout, 7)
        self.assertEqual(params["messages"], [
            {"role": "user", "content": {"type": "text", "text": "one\n\ntwo"}},
            {"role": "assistant", "content": {"type": "text", "text": "ok"}},
            {"role": "user", "content": {"type": "text", "text": "three"}},
        ])
        self.assertTrue(params["systemPrompt"].startswith("Rules.\n\n"))
        self.assertIn("single JSON object", params["systemPrompt"])
        self.assertEqual((params["maxTokens"], params["temperature"], params["includeContext"]), (64, 0.2, "none"))
        self.assertEqual(params["modelPreferences"], {"hints": [{"name": "claude"}]})
        self.assertEqual((completion.text, completion.model, completion.finish_reason), ('{"a": 1}', "host-model", "length"))
        self.assertTrue(completion.usage.estimated)

    def test_content_blocks_are_joined_and_no_text_is_an_error(self) -> None:
        blocks = {"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "image", "data": ""}, {"type": "text", "text": "b"}]}
        self.assertEqual(McpSamplingLLM(_FakeChannel(blocks)).complete([Message.user("q")]).text, "ab")
        with self.assertRaises(ProviderError):
            McpSamplingLLM(_FakeChannel({"role": "assistant", "content": {"type": "image", "data": ""}})).complete([Message.user("q")])

    def test_unavailable_sends_nothing(self) -> None:
        channel = _FakeChannel(reason="no sampling here")
        llm = McpSamplingLLM(channel)
        self.assertEqual(llm.unavailable(), "no sampling here")
        with self.assertRaises(ProviderError) as ctx:
            llm.complete([Message.user("q")])
        self.assertIn("no sampling here", str(ctx.exception))
        self.assertEqual(channel.calls, [])

    def test_the_deadline_caps_the_wait_and_the_budget_is_charged(self) -> None:
        channel = _FakeChannel({"role": "assistant", "content": {"type": "text", "text": "hello"}})
        budget = RunBudget(deadline_s=5, max_llm_calls=1)
        with use_budget(budget):
            McpSamplingLLM(channel, timeout_s=600).complete([Message.user("q")])
            self.assertLessEqual(channel.calls[0][2], 5)
            with self.assertRaises(BudgetExhaustedError):
                McpSamplingLLM(channel).complete([Message.user("q")])
        self.assertEqual(budget.snapshot().llm_calls, 1)

    def test_options_are_checked(self) -> None:
        for kwargs in ({"timeout_s": 0}, {"model_hint": ""}, {"name": " "}):
            with self.subTest(kwargs=kwargs), self.assertRaises(InvalidInputError):
                McpSamplingLLM(_FakeChannel(), **kwargs)
        with self.assertRaises(InvalidInputError):
            McpSamplingLLM(object())
        with self.assertRaises(InvalidInputError):
            McpSamplingLLM(_FakeChannel()).complete([Message.system("only system")])


def _sample_store(folder: Path) -> KnowledgeStore:
    root = sample_folder()
    store = KnowledgeStore(folder / "store", base=root)
    for corpus in sample_corpora():
        store.index(root / corpus.id, corpus=corpus.id, description=corpus.description)
    return store


def _oracle_sampler(oracle: Oracle):
    def sample(params):
        user = next(m["content"]["text"] for m in params["messages"] if m["role"] == "user")
        user = _CHUNK_ID.sub(lambda m: f'id="c/{m.group(1)}:{m.group(2)}#{m.group(2)}"', user)
        return oracle.reply(params.get("systemPrompt", ""), user)
    return sample


class _LoopbackClient:
    """An MCP client on the other end of two pipes: it answers the server's
    ``sampling/createMessage`` with ``sampler(params)`` (a text, an ``{"error": ...}`` dict,
    raw bytes sent as the whole line, or ``NO_ANSWER``) and queues everything else."""

    def __init__(self, write, read, sampler):
        self._write, self.sampler = write, sampler
        self.messages: queue.Queue = queue.Queue()
        self.sampling_requests: list[dict] = []
        self.cancelled: list[dict] = []
        self.before_answer = None  # called once, before the first sampling answer
        self._reader = threading.Thread(target=self._read, args=(read,), daemon=True)
        self._reader.start()

    def send(self, message) -> None:
        self._write.write(json.dumps(message).encode("utf-8") + b"\n")
        self._write.flush()

    def _read(self, read) -> None:
        try:
            self._read_lines(read)
        except (ValueError, OSError):
            pass  # the test closed the pipe while this thread was reading it: the client is done
        self.messages.put(None)

    def _read_lines(self, read) -> None:
        for line in read:
            message = json.loads(line)
            if message.get("method") == "sampling/createMessage":
                self.sampling_requests.append(message["params"])
                if self.before_answer is not None:
                    hook, self.before_answer = self.before_answer, None
                    hook(self)
                reply = self.sampler(message["params"])
                if reply is NO_ANSWER:
                    continue
                if isinstance(reply, bytes):
                    self._write.write(reply + b"\n")
                    self._write.flush()
                elif isinstance(reply, dict):
                    self.send({"jsonrpc": "2.0", "id": message["id"], "error": reply["error"]})
                else:
                    self.send({"jsonrpc": "2.0", "id": message["id"], "result": {
                        "role": "assistant", "content": {"type": "text", "text": reply}, "model": "loopback-model", "stopReason": "endTurn"}})
            elif message.get("method") == "notifications/cancelled":
                self.cancelled.append(message["params"])
            else:
                self.messages.put(message)

    def request(self, method, params, id):
        self.send({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        return self.receive(id)

    def receive(self, id):
        while True:
            message = self.messages.get(timeout=WAIT_S)
            if message is None:
                raise AssertionError("the server closed its output")
            if message.get("id") == id:
                return message
            self.messages.put(message)
            time.sleep(0.01)

    def initialize(self, *, sampling: bool) -> None:
        capabilities = {"sampling": {}} if sampling else {}
        answer = self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": capabilities, "clientInfo": {"name": "loopback", "version": "1"}}, "init")
        assert "result" in answer, answer
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def ask(self, id, mode="agentic", meta=None):
        params = {"name": "ask", "arguments": {"question": QUESTION, "mode": mode}}
        if meta:
            params["_meta"] = meta
        answer = self.request("tools/call", params, id)
        return json.loads(answer["result"]["content"][0]["text"])


class McpSamplingServerTest(unittest.TestCase):
    """The store's tools over stdio pipes, in process, with an ``McpSamplingLLM`` on the server's channel."""

    @classmethod
    def setUpClass(cls) -> None:
        cls._tmp = tempfile.TemporaryDirectory(prefix="agentic-rag-sampling-")
        cls.store = _sample_store(Path(cls._tmp.name))

    @classmethod
    def tearDownClass(cls) -> None:
        cls._tmp.cleanup()

    def serve(self, sampler, *, deadline_s=60.0, timeout_s=60.0, max_message_bytes=None) -> _LoopbackClient:
        channel = McpClientChannel() if max_message_bytes is None else McpClientChannel(max_message_bytes=max_message_bytes)
        service = StoreService(self.store, llm=McpSamplingLLM(channel, timeout_s=timeout_s), config=OrchestratorConfig(top_k=5, deadline_s=deadline_s))
        tools = build_store_tools(lambda q, k, c, n: service.search(q, k, c, context=n),
                                  lambda question, mode, evidence, full: service.ask(question, mode.value, evidence=evidence, full_text=full).payload,
                                  service.corpora)
        server = McpServer(tools, channel=channel)
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        server_in, server_out = open(in_r, "rb"), open(out_w, "wb")
        client_out, client_in = open(in_w, "wb"), open(out_r, "rb")
        self.log = io.StringIO()
        thread = threading.Thread(target=server.serve, args=(server_in, server_out, self.log), daemon=True)
        thread.start()
        client = _LoopbackClient(client_out, client_in, sampler)

        def stop() -> None:
            client_out.close()  # end of input: the server returns
            thread.join(WAIT_S)
            self.assertFalse(thread.is_alive(), "the server did not stop at end of input")
            for stream in (server_in, server_out, client_in):
                stream.close()
        self.addCleanup(stop)
        return client

    def test_the_clients_model_answers_with_verified_claims(self) -> None:
        oracle = Oracle(STORE_WORLD)
        client = self.serve(_oracle_sampler(oracle))
        client.initialize(sampling=True)
        answer = client.ask(2)
        self.assertEqual(answer["status"], "answered", answer)
        self.assertIn("Lyon", answer["answer"])
        self.assertEqual(answer["model"]["used"], True)
        self.assertEqual(answer["model"]["failed_calls"], 0)
        self.assertEqual(answer["model"]["calls"], len(client.sampling_requests))
        self.assertGreaterEqual(len(client.sampling_requests), 3)
        self.assertIn("planner", {r.value for r in oracle.roles})
        quotes = [c["quote"] for claim in answer["claims"] for c in claim["citations"]]
        self.assertTrue(quotes)
        for claim in answer["claims"]:
            for citation in claim["citations"]:
                lines = (sample_folder() / citation["path"]).read_text(encoding="utf-8").splitlines()
                span = " ".join(lines[citation["start_line"] - 1:citation["end_line"]])
                self.assertIn(" ".join(citation["quote"].split()), " ".join(span.split()))
        parallel = client.ask(3, mode="parallel")
        self.assertEqual(parallel["model"]["used"], True)
        self.assertIn(parallel["status"], ("answered", "partial"))

    def test_requests_arriving_during_a_tool_call_are_answered_after_it(self) -> None:
        client = self.serve(_oracle_sampler(Oracle(STORE_WORLD)))
        client.initialize(sampling=True)
        client.before_answer = lambda c: (c.send({"jsonrpc": "2.0", "id": "ping-1", "method": "ping"}),
                                          c.send({"jsonrpc": "2.0", "method": "notifications/progress", "params": {}}),
                                          c.send({"jsonrpc": "2.0", "id": "stray", "result": {}}))
        answer = client.ask(2)
        self.assertEqual(answer["status"], "answered")
        self.assertEqual(client.receive("ping-1")["result"], {})
        self.assertEqual(client.request("ping", {}, "ping-2")["result"], {})  # the stray response was handled before it
        self.assertIn("ignored a response to no pending request", self.log.getvalue())

    def test_garbage_is_repaired_then_falls_back(self) -> None:
        client = self.serve(lambda params: GARBAGE)
        client.initialize(sampling=True)
        answer = client.ask(2)
        repairs = [r for r in client.sampling_requests if "not valid for the required JSON schema" in r["messages"][-1]["content"]["text"]]
        self.assertTrue(repairs, "no repair round was sent")
        self.assertEqual(len(repairs) * 2, len(client.sampling_requests))  # each call: one answer, one repair, then the fallback
        self.assertNotIn(GARBAGE, answer["answer"])
        self.assertIn(answer["status"], ("answered", "partial", "unanswerable"))
        for claim in answer["claims"]:
            self.assertTrue(claim["citations"])

    def test_a_client_error_falls_back(self) -> None:
        client = self.serve(lambda params: {"error": {"code": -1, "message": "User rejected sampling request"}})
        client.initialize(sampling=True)
        answer = client.ask(2)
        self.assertFalse(answer["model"]["used"])
        self.assertIn("User rejected", answer["model"]["reason"])
        self.assertIn(answer["status"], ("answered", "partial"))

    def test_a_client_without_sampling_gets_the_deterministic_answer_with_a_note(self) -> None:
        client = self.serve(lambda params: self.fail("sampling was requested"))
        client.initialize(sampling=False)
        answer = client.ask(2)
        self.assertEqual(answer["model"], {"used": False, "name": "mcp-sampling", "calls": 0, "failed_calls": 0,
                                           "reason": "the MCP client did not declare the 'sampling' capability in initialize"})
        self.assertEqual(answer["status"], "answered")
        self.assertEqual(client.sampling_requests, [])

    def test_a_stateless_request_is_answered_deterministically(self) -> None:
        client = self.serve(lambda params: self.fail("sampling was requested"))
        client.initialize(sampling=True)
        answer = client.ask(2, meta={PROTOCOL_VERSION_META_KEY: STATELESS_PROTOCOL_VERSIONS[-1]})
        self.assertFalse(answer["model"]["used"])
        self.assertIn("stateless 2026-07-28", answer["model"]["reason"])
        self.assertEqual(client.sampling_requests, [])

    def test_a_client_that_never_answers_meets_the_deadline(self) -> None:
        client = self.serve(lambda params: NO_ANSWER, deadline_s=0.5)
        client.initialize(sampling=True)
        started = time.monotonic()
        answer = client.ask(2)
        self.assertLess(time.monotonic() - started, 15)
        self.assertFalse(answer["model"]["used"])
        self.assertIn("did not answer sampling/createMessage", answer["model"]["reason"])
        self.assertEqual(len(client.sampling_requests), 1)
        deadline = time.monotonic() + WAIT_S
        while not client.cancelled and time.monotonic() < deadline:
            time.sleep(0.01)
        self.assertEqual(client.cancelled[0]["requestId"], "agentic-rag-1")
        self.assertIn(answer["stop_reason"], ("deadline", "sufficient", "budget", "max_iterations", "no_progress"))

    def test_an_unparseable_reply_fails_the_waiting_request_at_once(self) -> None:
        # Before: the request waited its whole timeout (60 s in the report), then fell back.
        for mode in ("agentic", "parallel"):
            with self.subTest(mode=mode):
                client = self.serve(lambda params: b'{"jsonrpc": "2.0", "id": "agentic-rag-1", "result": {"role": "assis', timeout_s=WAIT_S)
                client.initialize(sampling=True)
                started = time.monotonic()
                answer = client.ask(2, mode=mode)
                self.assertLess(time.monotonic() - started, WAIT_S / 3)
                self.assertFalse(answer["model"]["used"])
                self.assertGreaterEqual(answer["model"]["failed_calls"], 1)
                self.assertIn("not JSON", answer["model"]["reason"])
                self.assertIn(answer["status"], ("answered", "partial"))
                parse_error = client.receive(None)  # the line itself is answered once the tool call is done
                self.assertEqual(parse_error["error"]["code"], -32700)
                self.assertTrue(client.cancelled, "the failed request was not cancelled")

    def test_an_error_without_id_and_a_non_object_fail_at_once(self) -> None:
        for line, reason in ((b'{"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "bad"}}', "error and no id"),
                             (b"[1, 2]", "not a JSON-RPC object")):
            with self.subTest(line=line):
                client = self.serve(lambda params, line=line: line, timeout_s=WAIT_S)
                client.initialize(sampling=True)
                started = time.monotonic()
                answer = client.ask(2, mode="parallel")
                self.assertLess(time.monotonic() - started, WAIT_S / 3)
                self.assertIn(reason, answer["model"]["reason"])

    def test_an_oversized_reply_is_dropped_unread_and_fails_at_once(self) -> None:
        huge = "A" * (2 * (1 << 20))  # over the default limit of one megabyte
        client = self.serve(lambda params: huge, timeout_s=WAIT_S)
        client.initialize(sampling=True)
        started = time.monotonic()
        answer = client.ask(2, mode="parallel")
        self.assertLess(time.monotonic() - started, WAIT_S / 3)
        self.assertFalse(answer["model"]["used"])
        self.assertIn("over the limit of 1048576", answer["model"]["reason"])
        refused = client.receive(None)
        self.assertEqual((refused["error"]["code"], refused["error"]["data"]["limit"]), (-32600, 1 << 20))
        self.assertGreater(refused["error"]["data"]["size"], 2 * (1 << 20))
        self.assertEqual(client.request("ping", {}, "after")["result"], {})

    def test_the_service_refuses_an_overlong_query_or_question(self) -> None:
        from agentic_rag._interfaces.ask_mode import MAX_QUERY_CHARS

        service = StoreService(self.store)
        too_long = "x" * (MAX_QUERY_CHARS + 1)
        with self.assertRaisesRegex(InvalidInputError, f"{MAX_QUERY_CHARS + 1} characters long; at most {MAX_QUERY_CHARS}"):
            service.search(too_long)
        with self.assertRaisesRegex(InvalidInputError, "question"):
            service.ask(too_long)

    def test_the_parallel_workflow_waits_at_most_the_timeout(self) -> None:
        client = self.serve(lambda params: NO_ANSWER, timeout_s=0.5)
        client.initialize(sampling=True)
        started = time.monotonic()
        answer = client.ask(2, mode="parallel")
        self.assertLess(time.monotonic() - started, 15)
        self.assertFalse(answer["model"]["used"])
        self.assertIn(answer["status"], ("answered", "partial"))


class ChannelTest(unittest.TestCase):
    def test_outside_a_connection_nothing_is_sent(self) -> None:
        channel = McpClientChannel()
        self.assertIn("not serving", channel.unavailable_reason("sampling"))
        with self.assertRaises(ProviderError):
            channel.request("sampling/createMessage", {}, timeout_s=1)

    def test_end_of_input_fails_a_waiting_request(self) -> None:
        channel = McpClientChannel()
        sent = []
        channel.serving(lambda message: sent.append(message) or True, lambda text: None)
        channel.client_capabilities = {"sampling": {}}
        self.assertIsNone(channel.unavailable_reason("sampling"))
        timer = threading.Timer(0.2, channel.stopped, args=("the client closed the connection",))
        timer.start()
        try:
            with self.assertRaises(ProviderError) as ctx:
                channel.request("sampling/createMessage", {}, timeout_s=WAIT_S)
        finally:
            timer.cancel()
        self.assertNotIsInstance(ctx.exception, ProviderTimeoutError)
        self.assertIn("closed", str(ctx.exception))
        self.assertEqual(sent[0]["id"], "agentic-rag-1")


class CliSamplingTest(unittest.TestCase):
    """``agentic-rag mcp --llm sampling`` as a subprocess, the client's model played by the oracle."""

    def test_cli_uses_the_clients_model(self) -> None:
        with tempfile.TemporaryDirectory(prefix="agentic-rag-sampling-cli-") as tmp:
            store = Path(tmp) / "store"
            src = Path(__file__).resolve().parents[1] / "src"
            env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(src), os.environ.get("PYTHONPATH")])), PYTHONUTF8="1")
            root = sample_folder()
            for corpus in sample_corpora():
                subprocess.run([sys.executable, "-m", "agentic_rag", "index", str(root / corpus.id), "--store", str(store), "--corpus", corpus.id,
                                "--description", corpus.description, "--quiet"], cwd=root, env=env, check=True, capture_output=True, timeout=WAIT_S)
            proc = subprocess.Popen([sys.executable, "-m", "agentic_rag", "mcp", "--store", str(store), "--llm", "sampling", "--model", "host-hint"],
                                    cwd=root, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            stderr = []
            drain = threading.Thread(target=lambda: stderr.append(proc.stderr.read()), daemon=True)
            drain.start()
            try:
                client = _LoopbackClient(proc.stdin, proc.stdout, _oracle_sampler(Oracle(STORE_WORLD)))
                client.initialize(sampling=True)
                answer = client.ask(2)
                proc.stdin.close()
                self.assertEqual(proc.wait(WAIT_S), 0)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait(WAIT_S)
                drain.join(WAIT_S)
                proc.stdout.close()
                proc.stderr.close()
        self.assertEqual(answer["status"], "answered", stderr)
        self.assertTrue(answer["model"]["used"])
        self.assertEqual(client.sampling_requests[0]["modelPreferences"], {"hints": [{"name": "host-hint"}]})
        self.assertIn(b"with the client's model (sampling)", stderr[0])


if __name__ == "__main__":
    unittest.main()
