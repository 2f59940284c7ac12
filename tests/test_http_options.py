"""Tests for the one HTTP layer: ``http=HttpOptions(...)`` on every client, the deprecated
keywords, the single retryable-status set, per-call JSON modes, and the layering."""

from __future__ import annotations

import ast
import json
import unittest
from pathlib import Path

from agentic_rag._errors import InvalidInputError, ProviderHTTPError
from agentic_rag._http import is_retryable_status
from agentic_rag.llm import (
    AnthropicLLM,
    HttpOptions,
    HttpRequest,
    HttpResponse,
    Message,
    OllamaEmbedder,
    OpenAICompatibleLLM,
    OpenAIEmbedder,
    ResponseFormat,
    RetryPolicy,
)
from agentic_rag.llm.components.fallback import falls_back
from agentic_rag.providers import ElasticsearchRetriever, VertexRagRetriever

SRC = Path(__file__).resolve().parents[1] / "src" / "agentic_rag"
# One body every client can read: each takes its own keys.
ANY_OK = json.dumps({
    "choices": [{"message": {"content": "ok"}, "finish_reason": "stop"}],
    "content": [{"type": "text", "text": "ok"}],
    "data": [{"index": 0, "embedding": [1.0, 0.0]}],
    "embeddings": [[1.0, 0.0]],
    "hits": {"hits": []},
    "contexts": {"contexts": []},
}).encode()
NO_SLEEP = {"sleep": lambda _s: None}


class FakeTransport:
    """Answers every request with ``status`` and remembers the timeout each attempt got."""

    def __init__(self, status: int = 200) -> None:
        self.status = status
        self.timeouts: list[float] = []

    def send(self, request: HttpRequest, timeout_s: float) -> HttpResponse:
        self.timeouts.append(timeout_s)
        body = ANY_OK if self.status == 200 else b'{"error": {"message": "busy"}}'
        return HttpResponse(self.status, (("content-type", "application/json"),), body)


# name: (build with keyword arguments, one call, default timeout)
CLIENTS = {
    "OpenAICompatibleLLM": (lambda **kw: OpenAICompatibleLLM("http://127.0.0.1:9/v1", "m", **kw), lambda c: c.complete([Message.user("q")]), 60.0),
    "AnthropicLLM": (lambda **kw: AnthropicLLM("http://127.0.0.1:9", "m", "key-1234", **kw), lambda c: c.complete([Message.user("q")]), 60.0),
    "OpenAIEmbedder": (lambda **kw: OpenAIEmbedder("http://127.0.0.1:9/v1", "e", "key-1234", **kw), lambda c: c.embed(["x"]), 60.0),
    "OllamaEmbedder": (lambda **kw: OllamaEmbedder("http://127.0.0.1:9", "e", **kw), lambda c: c.embed(["x"]), 60.0),
    "ElasticsearchRetriever": (lambda **kw: ElasticsearchRetriever("http://127.0.0.1:9", "idx", **kw), lambda c: c.retrieve("q", 1), 30.0),
    "VertexRagRetriever": (
        lambda **kw: VertexRagRetriever("p", "us-central1", ["projects/p/locations/us-central1/ragCorpora/c"], token_provider=lambda: "tok-1234",
                                        base_url="http://127.0.0.1:9", **kw),
        lambda c: c.retrieve("q", 1),
        30.0,
    ),
}


class HttpOptionsTest(unittest.TestCase):
    def test_every_client_sends_through_the_options_transport_with_its_default_timeout(self) -> None:
        for name, (build, use, default) in CLIENTS.items():
            with self.subTest(client=name):
                transport = FakeTransport()
                client = build(http=HttpOptions(transport=transport))
                use(client)
                self.assertEqual(transport.timeouts, [default])
                self.assertEqual([a.status for a in client.attempts], [200])

    def test_one_options_object_can_be_shared(self) -> None:
        transport = FakeTransport()
        shared = HttpOptions(transport=transport, timeout_s=7.0)
        for name, (build, use, _default) in CLIENTS.items():
            with self.subTest(client=name):
                use(build(http=shared))
        self.assertEqual(transport.timeouts, [7.0] * len(CLIENTS))

    def test_the_shortcuts_set_timeout_and_retries(self) -> None:
        for name, (build, use, _default) in CLIENTS.items():
            with self.subTest(client=name):
                transport = FakeTransport()
                use(build(timeout_s=5, http=HttpOptions(transport=transport)))
                self.assertEqual(transport.timeouts, [5.0])
                failing = FakeTransport(503)
                with self.assertRaises(ProviderHTTPError):
                    use(build(max_retries=2, http=HttpOptions(transport=failing, **NO_SLEEP)))
                self.assertEqual(len(failing.timeouts), 3)
                failing = FakeTransport(503)
                with self.assertRaises(ProviderHTTPError):
                    use(build(http=HttpOptions(transport=failing, retry=RetryPolicy(max_retries=0))))
                self.assertEqual(len(failing.timeouts), 1)

    def test_a_setting_given_twice_is_refused(self) -> None:
        for name, (build, _use, _default) in CLIENTS.items():
            with self.subTest(client=name):
                with self.assertRaisesRegex(InvalidInputError, "timeout_s"):
                    build(timeout_s=5, http=HttpOptions(timeout_s=7))
                with self.assertRaisesRegex(InvalidInputError, "max_retries"):
                    build(max_retries=1, http=HttpOptions(retry=RetryPolicy()))
                with self.assertRaisesRegex(InvalidInputError, r"http=HttpOptions\(transport=\.\.\.\)"):
                    build(http=HttpOptions(), transport=FakeTransport())

    def test_bad_options_are_refused_at_construction(self) -> None:
        bad = [{"timeout_s": 0}, {"timeout_s": True}, {"retry": 3}, {"transport": object()}, {"sleep": 1}, {"rng": 7}]
        for kwargs in bad:
            with self.subTest(kwargs=kwargs), self.assertRaises(InvalidInputError):
                HttpOptions(**kwargs)
        build = CLIENTS["OpenAICompatibleLLM"][0]
        with self.assertRaisesRegex(InvalidInputError, "HttpOptions"):
            build(http={"timeout_s": 5})
        with self.assertRaisesRegex(InvalidInputError, "max_retries"):
            build(max_retries=-1)
        with self.assertRaisesRegex(TypeError, "'transprot'"):
            build(transprot=FakeTransport())


class DeprecatedKeywordsTest(unittest.TestCase):
    def test_the_former_keywords_still_work_with_a_warning_naming_the_replacement(self) -> None:
        for name, (build, use, _default) in CLIENTS.items():
            with self.subTest(client=name):
                transport = FakeTransport(503)
                with self.assertWarns(DeprecationWarning) as caught:
                    client = build(transport=transport, sleep=lambda _s: None, retry=RetryPolicy(max_retries=1))
                message = str(caught.warning)
                self.assertIn(f"{name}(", message)
                self.assertIn("http=HttpOptions(transport=..., sleep=..., retry=...)", message)
                self.assertEqual(caught.filename, __file__)  # points at the caller's line
                with self.assertRaises(ProviderHTTPError):
                    use(client)
                self.assertEqual(len(transport.timeouts), 2)


class RetryableStatusesTest(unittest.TestCase):
    def test_the_client_and_the_component_fallback_share_one_status_set(self) -> None:
        for status in range(400, 600):
            with self.subTest(status=status):
                error = ProviderHTTPError("the server said no", status=status, stage="test")
                self.assertEqual(falls_back(error), is_retryable_status(status))
        self.assertEqual(sorted(s for s in range(400, 500) if is_retryable_status(s)), [408, 409, 425, 429])


class PerCallJsonModeTest(unittest.TestCase):
    SCHEMA = ResponseFormat.json_schema("a", {"type": "object"})

    def test_a_call_in_flight_keeps_its_own_mode_sequence(self) -> None:
        sent: list[tuple[str, str]] = []
        state = {"inner": False}

        def kind(request: HttpRequest) -> str:
            fmt = json.loads(request.body)["response_format"]
            return "json_schema" if fmt["type"] == "json_schema" else "json_object_schema" if "schema" in fmt else "json_object"

        class Server:
            def send(self, request: HttpRequest, timeout_s: float) -> HttpResponse:
                mode = kind(request)
                who = "inner" if state["inner"] else "outer"
                sent.append((who, mode))
                if who == "outer" and len(sent) == 1:
                    # Another call runs while this one waits, and meets more refusals.
                    state["inner"] = True
                    llm.complete([Message.user("inner")], response_format=PerCallJsonModeTest.SCHEMA)
                    state["inner"] = False
                refused = mode == "json_schema" or (who == "inner" and mode == "json_object_schema")
                if refused:
                    return HttpResponse(400, (), b'{"error": {"message": "response_format of this type is not supported"}}')
                return HttpResponse(200, (), ANY_OK)

        llm = OpenAICompatibleLLM("http://127.0.0.1:9/v1", "m", http=HttpOptions(transport=Server()))
        self.assertEqual(llm.json_mode, "json_schema")
        llm.complete([Message.user("outer")], response_format=self.SCHEMA)
        self.assertEqual([m for who, m in sent if who == "outer"], ["json_schema", "json_object_schema"])
        self.assertEqual([m for who, m in sent if who == "inner"], ["json_schema", "json_object_schema", "json_object"])
        self.assertEqual(llm.json_mode, "json_object")  # later calls start past every refused mode


class LayeringTest(unittest.TestCase):
    @staticmethod
    def imports(path: Path) -> set[str]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        return {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("agentic_rag")}

    def test_the_http_package_sits_below_llm_and_providers(self) -> None:
        allowed = ("agentic_rag._http", "agentic_rag._errors", "agentic_rag._budget", "agentic_rag._contracts", "agentic_rag._lazy")
        for path in sorted((SRC / "_http").glob("*.py")):
            with self.subTest(module=path.name):
                self.assertEqual([m for m in self.imports(path) if not m.startswith(allowed)], [])

    def test_providers_take_their_http_from_the_http_package(self) -> None:
        for path in sorted((SRC / "providers").glob("*.py")):
            with self.subTest(module=path.name):
                llm_imports = {m for m in self.imports(path) if m.startswith("agentic_rag.llm")}
                self.assertEqual(llm_imports, set())


if __name__ == "__main__":
    unittest.main()
