"""Tests for the OpenAI-compatible and Ollama embedding clients over loopback servers."""

from __future__ import annotations

import os
import unittest
from unittest import mock

from agentic_rag._budget import RunBudget, use_budget
from agentic_rag._errors import BudgetExhaustedError, InvalidInputError, ProviderError, ProviderHTTPError
from agentic_rag.llm import HttpOptions, OllamaEmbedder, OpenAIEmbedder
from agentic_rag._ports import Embedder
from agentic_rag.testing import Fault, OllamaServer, OpenAICompatibleServer, hashed_embedding, json_reply

KEY = "sk-embed-SECRET-99887766"
TEXTS = ["the tower is tall", "paris is in france", "a river", "bridges cross the river", "tall tower in paris"]


class OpenAIEmbedderTest(unittest.TestCase):
    def test_batches_and_restores_order_by_index(self) -> None:
        with OpenAICompatibleServer(api_key=KEY, max_batch=2, reverse_embeddings=True) as server:
            embedder = OpenAIEmbedder(server.url, "emb-model", KEY, batch_size=2)
            vectors = embedder.embed(TEXTS)
            requests = server.requests
        self.assertEqual(vectors, [hashed_embedding(t) for t in TEXTS])
        self.assertEqual([r.json()["input"] for r in requests], [TEXTS[0:2], TEXTS[2:4], TEXTS[4:]])
        self.assertEqual({r.json()["model"] for r in requests}, {"emb-model"})
        self.assertEqual(requests[0].path, "/v1/embeddings")
        self.assertEqual(requests[0].header("authorization"), f"Bearer {KEY}")
        self.assertIsInstance(embedder, Embedder)
        self.assertNotIn(KEY, repr(embedder))

    def test_empty_input_sends_nothing(self) -> None:
        with OpenAICompatibleServer() as server:
            self.assertEqual(OpenAIEmbedder(server.url, "m").embed([]), [])
            self.assertEqual(server.requests, ())

    def test_too_large_batch_is_a_400_not_retried(self) -> None:
        with OpenAICompatibleServer(max_batch=2) as server:
            with self.assertRaises(ProviderHTTPError) as ctx:
                OpenAIEmbedder(server.url, "m", batch_size=3, http=HttpOptions(sleep=lambda _s: None)).embed(TEXTS)
            self.assertEqual(len(server.requests), 1)
        self.assertEqual(ctx.exception.status, 400)

    def test_retries_then_succeeds(self) -> None:
        with OpenAICompatibleServer(faults=[Fault.http(429, retry_after="0"), Fault.http(502)]) as server:
            embedder = OpenAIEmbedder(server.url, "m", http=HttpOptions(sleep=lambda _s: None))
            self.assertEqual(len(embedder.embed(["x"])), 1)
        self.assertEqual([a.status for a in embedder.attempts], [429, 502, 200])

    def test_malformed_answers_are_provider_errors(self) -> None:
        bodies = [
            {"data": [{"index": 0, "embedding": [1.0]}, {"index": 0, "embedding": [1.0]}]},
            {"data": [{"index": 0, "embedding": [1.0]}, {"index": 1, "embedding": "nope"}]},
            {"data": [{"index": 0, "embedding": [1.0]}, {"index": 1, "embedding": [1.0, 2.0]}]},
            {"data": [{"index": 0, "embedding": [1.0]}]},
            {"object": "list"},
        ]
        for body in bodies:
            with self.subTest(body=body), OpenAICompatibleServer() as server:
                server.route = lambda request, body=body: json_reply(body)
                with self.assertRaises(ProviderError):
                    OpenAIEmbedder(server.url, "m").embed(["a", "b"])

    def test_environment_and_key_fallback(self) -> None:
        with OpenAICompatibleServer(api_key=KEY) as server:
            env = {"AGENTIC_RAG_LLM_BASE_URL": server.url, "AGENTIC_RAG_LLM_API_KEY": KEY, "AGENTIC_RAG_EMBED_MODEL": "e"}
            with mock.patch.dict(os.environ, env, clear=True):
                self.assertEqual(len(OpenAIEmbedder().embed(["x"])), 1)
            # A separate embeddings host never receives the LLM key.
            env["AGENTIC_RAG_EMBED_BASE_URL"] = server.url
            with mock.patch.dict(os.environ, env, clear=True):
                with self.assertRaises(ProviderHTTPError):
                    OpenAIEmbedder(http=HttpOptions(sleep=lambda _s: None)).embed(["x"])
            self.assertIsNone(server.requests[-1].header("authorization"))
        with mock.patch.dict(os.environ, {}, clear=True), self.assertRaises(InvalidInputError) as ctx:
            OpenAIEmbedder()
        self.assertIn("AGENTIC_RAG_EMBED_MODEL", str(ctx.exception))

    def test_bad_input_is_refused(self) -> None:
        embedder = OpenAIEmbedder("http://127.0.0.1:9", "m")
        for bad in ("a string", [1, 2], None):
            with self.subTest(bad=bad), self.assertRaises(InvalidInputError):
                embedder.embed(bad)  # type: ignore[arg-type]

    def test_passed_deadline_stops_the_call(self) -> None:
        now = [0.0]
        budget = RunBudget(deadline_s=1.0, clock=lambda: now[0])
        now[0] = 5.0
        with use_budget(budget), self.assertRaises(BudgetExhaustedError):
            OpenAIEmbedder("http://127.0.0.1:9", "m").embed(["x"])


class OllamaEmbedderTest(unittest.TestCase):
    def test_embeds_in_batches(self) -> None:
        with OllamaServer(models=["nomic-embed-text"]) as server:
            embedder = OllamaEmbedder(server.url, "nomic-embed-text", batch_size=2, keep_alive="1m")
            vectors = embedder.embed(TEXTS)
            requests = server.requests
        self.assertEqual(vectors, [hashed_embedding(t) for t in TEXTS])
        self.assertEqual(len(requests), 3)
        self.assertEqual(requests[0].path, "/api/embed")
        self.assertEqual(requests[0].json(), {"model": "nomic-embed-text", "input": TEXTS[:2], "truncate": True, "keep_alive": "1m"})
        self.assertIsInstance(embedder, Embedder)

    def test_unknown_model_is_a_404_with_ollamas_message(self) -> None:
        with OllamaServer(models=["a"]) as server:
            with self.assertRaises(ProviderHTTPError) as ctx:
                OllamaEmbedder(server.url, "missing").embed(["x"])
        self.assertEqual(ctx.exception.status, 404)
        self.assertIn("try pulling it first", str(ctx.exception))

    def test_ollama_host_without_scheme_and_missing_model(self) -> None:
        with mock.patch.dict(os.environ, {"OLLAMA_HOST": "127.0.0.1:11434", "AGENTIC_RAG_EMBED_MODEL": "m"}, clear=True):
            self.assertEqual(OllamaEmbedder().base_url, "http://127.0.0.1:11434")
        with mock.patch.dict(os.environ, {}, clear=True), self.assertRaises(InvalidInputError):
            OllamaEmbedder()

    def test_wrong_count_and_malformed_json(self) -> None:
        with OllamaServer() as server:
            server.route = lambda request: json_reply({"model": "m", "embeddings": [[1.0]]})
            with self.assertRaises(ProviderError) as ctx:
                OllamaEmbedder(server.url, "m").embed(["a", "b"])
        self.assertIn("asked for 2", str(ctx.exception))
        with OllamaServer(faults=[Fault.malformed_json()]) as server:
            with self.assertRaises(ProviderError):
                OllamaEmbedder(server.url, "m").embed(["a"])


if __name__ == "__main__":
    unittest.main()
