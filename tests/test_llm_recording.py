"""Tests for record/replay: byte-identical offline replays, secret-free recordings."""

from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

from agentic_rag._errors import IndexFormatError, InvalidInputError, ProviderError
from agentic_rag.llm import HttpOptions, HttpRequest, Message, OllamaEmbedder, OpenAICompatibleLLM, OpenAIEmbedder, RecordingTransport, RecordMode
from agentic_rag.llm.recording import request_key
from agentic_rag.providers import ElasticsearchRetriever, VertexRagRetriever
from agentic_rag.testing import ElasticsearchServer, Fault, OllamaServer, OpenAICompatibleServer, VertexRagServer

KEY = "sk-record-SECRET-5555666677"
CORPUS = "projects/p/locations/us-central1/ragCorpora/c1"


class RecordReplayTest(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.path = Path(self._tmp.name) / "calls.jsonl"

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def test_chat_replays_byte_for_byte_without_the_server(self) -> None:
        with OpenAICompatibleServer(['{"answer": "Paris"}', "second"], api_key=KEY) as server:
            url = server.url
            llm = OpenAICompatibleLLM(url, "m", KEY, http=HttpOptions(transport=RecordingTransport(self.path, mode="record")))
            live = [llm.complete([Message.user("capital?")]), llm.complete([Message.user("again")])]
        # The server is gone: the replay must not touch the network.
        replayer = OpenAICompatibleLLM(url, "m", "a-different-key", http=HttpOptions(transport=RecordingTransport(self.path, mode=RecordMode.REPLAY)))
        replayed = [replayer.complete([Message.user("capital?")]), replayer.complete([Message.user("again")])]
        self.assertEqual([c.text for c in replayed], [c.text for c in live])
        self.assertEqual([c.raw for c in replayed], [c.raw for c in live])
        self.assertEqual([c.usage for c in replayed], [c.usage for c in live])
        recorded = self.path.read_text(encoding="utf-8")
        self.assertNotIn(KEY, recorded)
        self.assertEqual(len(recorded.splitlines()), 2)
        entry = json.loads(recorded.splitlines()[0])
        self.assertEqual(len(entry["key"]), 64)
        self.assertEqual(json.loads(entry["response"]["body"])["choices"][0]["message"]["content"], '{"answer": "Paris"}')

    def test_response_bytes_are_identical(self) -> None:
        with OpenAICompatibleServer(["ok"]) as server:
            recorder = RecordingTransport(self.path, mode="record")
            request = HttpRequest("POST", f"{server.url}/embeddings", (("Content-Type", "application/json"),), b'{"model":"m","input":["a"]}')
            live = recorder.send(request, 2.0)
        replayed = RecordingTransport(self.path).send(request, 2.0)
        self.assertEqual(replayed.body, live.body)
        self.assertEqual(replayed.status, live.status)

    def test_unrecorded_request_fails_clearly(self) -> None:
        with OpenAICompatibleServer(["ok"]) as server:
            url = server.url
            OpenAICompatibleLLM(url, "m", http=HttpOptions(transport=RecordingTransport(self.path, mode="record"))).complete([Message.user("a")])
        replayer = OpenAICompatibleLLM(url, "m", http=HttpOptions(transport=RecordingTransport(self.path, mode="replay")))
        with self.assertRaises(ProviderError) as ctx:
            replayer.complete([Message.user("something else")])
        self.assertIn("was not recorded", str(ctx.exception))
        self.assertEqual(len(ctx.exception.attempts), 1)

    def test_retries_are_recorded_but_not_replayed(self) -> None:
        with OpenAICompatibleServer(["ok"], faults=[Fault.http(503), Fault.http(429, retry_after="0")]) as server:
            url = server.url
            OpenAICompatibleLLM(url, "m", http=HttpOptions(transport=RecordingTransport(self.path, mode="record"), sleep=lambda _s: None)).complete([Message.user("a")])
        self.assertEqual(len(self.path.read_text().splitlines()), 3)
        completion = OpenAICompatibleLLM(url, "m", http=HttpOptions(transport=RecordingTransport(self.path))).complete([Message.user("a")])
        self.assertEqual([a.status for a in completion.attempts], [200])

    def test_auto_mode_records_only_what_is_missing(self) -> None:
        with OpenAICompatibleServer(["first", "second"]) as server:
            llm = OpenAICompatibleLLM(server.url, "m", http=HttpOptions(transport=RecordingTransport(self.path, mode="auto")))
            llm.complete([Message.user("a")])
            again = OpenAICompatibleLLM(server.url, "m", http=HttpOptions(transport=RecordingTransport(self.path, mode="auto")))
            self.assertEqual(again.complete([Message.user("a")]).text, "first")
            again.complete([Message.user("b")])
            self.assertEqual(len(server.requests), 2)
        self.assertEqual(len(self.path.read_text().splitlines()), 2)

    def test_embeddings_and_search_calls_replay_too(self) -> None:
        docs = {"idx": {"d1": {"text": "the eiffel tower is tall"}, "d2": {"text": "rivers flow"}}}
        with OllamaServer() as ollama, ElasticsearchServer(docs) as es, VertexRagServer({CORPUS: [("gs://b/a.txt", "tower facts")]}, token=KEY) as vertex:
            urls = (ollama.url, es.url, vertex.url)
            live = self._calls(urls, "record")
        self.assertEqual(self._calls(urls, "replay"), live)
        self.assertEqual([len(x) for x in live], [1, 1, 1])
        self.assertNotIn(KEY, self.path.read_text(encoding="utf-8"))

    def _calls(self, urls: tuple[str, str, str], mode: str) -> tuple:
        transport = RecordingTransport(self.path, mode=mode)
        vectors = OllamaEmbedder(urls[0], "m", http=HttpOptions(transport=transport)).embed(["tower"])
        hits = ElasticsearchRetriever(urls[1], "idx", http=HttpOptions(transport=transport)).retrieve("tower", 2)
        contexts = VertexRagRetriever("p", "us-central1", [CORPUS], token_provider=lambda: KEY, base_url=urls[2], http=HttpOptions(transport=transport)).retrieve("tower", 1)
        return vectors, hits, contexts

    def test_key_ignores_credentials_and_json_key_order(self) -> None:
        a = HttpRequest("POST", "http://h/x", (("Authorization", "Bearer one"), ("Content-Type", "application/json")), b'{"a":1,"b":2}')
        b = HttpRequest("POST", "http://h/x", (("authorization", "Bearer two"), ("content-type", "application/json")), b'{"b": 2, "a": 1}')
        c = HttpRequest("POST", "http://h/x", (("Content-Type", "application/json"),), b'{"a":1,"b":3}')
        self.assertEqual(request_key(a), request_key(b))
        self.assertNotEqual(request_key(a), request_key(c))

    def test_bad_files_and_modes(self) -> None:
        with self.assertRaises(InvalidInputError):
            RecordingTransport(self.path, mode="replay")  # no recording yet
        with self.assertRaises(InvalidInputError):
            RecordingTransport(self.path, mode="rewind")
        self.path.write_text("not json\n", encoding="utf-8")
        with self.assertRaises(IndexFormatError):
            RecordingTransport(self.path, mode="replay")

    def test_embedder_key_is_not_recorded(self) -> None:
        with OpenAICompatibleServer(api_key=KEY) as server:
            OpenAIEmbedder(server.url, "m", KEY, http=HttpOptions(transport=RecordingTransport(self.path, mode="record"))).embed(["x"])
        self.assertNotIn(KEY, self.path.read_text(encoding="utf-8"))


if __name__ == "__main__":
    unittest.main()
