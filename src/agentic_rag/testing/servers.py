"""Fake model servers on loopback: OpenAI-compatible chat and embeddings, Anthropic
Messages, Ollama embed.

Each validates requests the way the real service does for the fields the library sends (so
a client that drifts from the wire format fails here first), answers in the real response
shape with deterministic ids, and errors in the real error shape. Chat replies are scripted
(a list used in order, the last one repeating, or a function of the request), so tests can
feed a client schema-violating or fenced JSON. Faults are scripted with
:class:`~agentic_rag.testing.loopback.Fault`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from agentic_rag._errors import InvalidInputError
from agentic_rag.testing.loopback import Fault, LoopbackServer, RecordedRequest, Reply, hashed_embedding, json_reply, tokens

__all__ = ["AnthropicServer", "OllamaServer", "OpenAICompatibleServer"]

ReplyScript = Sequence[str] | Callable[[dict[str, Any]], str]


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


class _ChatScript:
    """Scripted chat replies: a sequence (last one repeats) or a function of the request."""

    def __init__(self, replies: ReplyScript) -> None:
        if not callable(replies) and (isinstance(replies, str) or not replies):
            raise InvalidInputError("replies must be a non-empty sequence of strings or a function", stage="testing")
        self._replies = replies
        self._count = 0
        self._lock = threading.Lock()

    def next(self, payload: dict[str, Any]) -> tuple[int, str]:
        """Return the 1-based number of this answer and its text."""
        with self._lock:
            self._count += 1
            number = self._count
        if callable(self._replies):
            return number, self._replies(payload)
        return number, self._replies[min(number - 1, len(self._replies) - 1)]


class OpenAICompatibleServer(LoopbackServer):
    """``/v1/chat/completions`` and ``/v1/embeddings`` like OpenAI, vLLM or llama.cpp serve.

    Args:
        replies: Chat answers (see module doc).
        api_key: When set, requests must carry ``Authorization: Bearer <api_key>``.
        embedding_dim: Dimension of the hashed bag-of-words embeddings.
        max_batch: Most inputs one embeddings request may carry (400 beyond).
        reverse_embeddings: Return ``data`` in reverse order (clients must sort by ``index``).
        supports_json_schema: When false, a ``json_schema`` response format is a 400, like
            older servers.
        report_usage: Include ``usage`` in answers.
        faults: Faults for the first requests.
    """

    def __init__(
        self,
        replies: ReplyScript = ("OK",),
        *,
        api_key: str | None = None,
        embedding_dim: int = 16,
        max_batch: int = 2048,
        reverse_embeddings: bool = False,
        supports_json_schema: bool = True,
        report_usage: bool = True,
        faults: Sequence[Fault] = (),
    ) -> None:
        super().__init__(faults=faults)
        self._script = _ChatScript(replies)
        self.api_key = api_key
        self.embedding_dim = embedding_dim
        self.max_batch = max_batch
        self.reverse_embeddings = reverse_embeddings
        self.supports_json_schema = supports_json_schema
        self.report_usage = report_usage

    @property
    def url(self) -> str:
        """The base URL to give a client (``.../v1``)."""
        return f"{self.root}/v1"

    def error_body(self, status: int, message: str) -> Any:
        default = "invalid_request_error" if status < 500 else "server_error"
        kind = {401: "invalid_api_key", 404: "not_found_error", 429: "rate_limit_exceeded"}.get(status, default)
        return {"error": {"message": message, "type": kind, "param": None, "code": None}}

    def route(self, request: RecordedRequest) -> Reply:
        if self.api_key is not None and request.header("authorization") != f"Bearer {self.api_key}":
            return self.error(401, "Incorrect API key provided.")
        if request.method != "POST":
            return self.error(405, f"method {request.method} not allowed")
        try:
            payload = request.json()
        except ValueError:
            return self.error(400, "We could not parse the JSON body of your request.")
        if not isinstance(payload, dict) or not isinstance(payload.get("model"), str):
            return self.error(400, "you must provide a model parameter")
        if request.path == "/v1/chat/completions":
            return self._chat(payload)
        if request.path == "/v1/embeddings":
            return self._embeddings(payload)
        return self.error(404, f"Invalid URL (POST {request.path})")

    def _chat(self, payload: dict[str, Any]) -> Reply:
        messages = payload.get("messages")
        if not isinstance(messages, list) or not messages:
            return self.error(400, "'messages' must be a non-empty array")
        for i, m in enumerate(messages):
            if not isinstance(m, dict) or m.get("role") not in {"system", "user", "assistant", "developer", "tool"} or "content" not in m:
                return self.error(400, f"Invalid value for 'messages[{i}]'")
        fmt = payload.get("response_format")
        if fmt is not None:
            kind = fmt.get("type") if isinstance(fmt, dict) else None
            if kind not in {"text", "json_object", "json_schema"} or (kind == "json_schema" and not self.supports_json_schema):
                return self.error(400, f"Invalid parameter: 'response_format' of type {kind!r} is not supported with this model.")
            if kind == "json_schema" and not isinstance(fmt.get("json_schema", {}).get("schema"), dict):
                return self.error(400, "Missing required parameter: 'response_format.json_schema.schema'.")
        number, text = self._script.next(payload)
        answer: dict[str, Any] = {
            "id": f"chatcmpl-{number}",
            "object": "chat.completion",
            "created": 1700000000,
            "model": payload["model"],
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        }
        if self.report_usage:
            prompt = sum(len(tokens(_content_text(m.get("content")))) for m in messages)
            answer["usage"] = {"prompt_tokens": prompt, "completion_tokens": len(tokens(text)), "total_tokens": prompt + len(tokens(text))}
        return json_reply(answer)

    def _embeddings(self, payload: dict[str, Any]) -> Reply:
        inputs = payload.get("input")
        if isinstance(inputs, str):
            inputs = [inputs]
        if not isinstance(inputs, list) or not inputs or not all(isinstance(t, str) for t in inputs):
            return self.error(400, "'input' must be a string or a non-empty array of strings")
        if len(inputs) > self.max_batch:
            return self.error(400, f"'input' array must have at most {self.max_batch} items, got {len(inputs)}")
        data = [{"object": "embedding", "index": i, "embedding": hashed_embedding(t, self.embedding_dim)} for i, t in enumerate(inputs)]
        if self.reverse_embeddings:
            data.reverse()
        used = sum(len(tokens(t)) for t in inputs)
        return json_reply({"object": "list", "data": data, "model": payload["model"], "usage": {"prompt_tokens": used, "total_tokens": used}})


class AnthropicServer(LoopbackServer):
    """``/v1/messages`` like Anthropic's API.

    Requires ``x-api-key`` (equal to ``api_key`` when given), ``anthropic-version``,
    ``model``, ``max_tokens`` and user/assistant messages only (a ``system`` role inside
    ``messages`` is a 400, as with the real API).

    Args:
        replies: Answers (see module doc).
        api_key: The key the server accepts (``None``: any non-empty key).
        faults: Faults for the first requests.
    """

    def __init__(self, replies: ReplyScript = ("OK",), *, api_key: str | None = None, faults: Sequence[Fault] = ()) -> None:
        super().__init__(faults=faults)
        self._script = _ChatScript(replies)
        self.api_key = api_key

    def error_body(self, status: int, message: str) -> Any:
        kind = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error", 404: "not_found_error",
                429: "rate_limit_error", 529: "overloaded_error"}.get(status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": message}}

    def route(self, request: RecordedRequest) -> Reply:
        key = request.header("x-api-key")
        if not key or (self.api_key is not None and key != self.api_key):
            return self.error(401, "invalid x-api-key")
        if not request.header("anthropic-version"):
            return self.error(400, "anthropic-version: header is required")
        if request.method != "POST" or request.path != "/v1/messages":
            return self.error(404, f"Not found: {request.method} {request.path}")
        try:
            payload = request.json()
        except ValueError:
            return self.error(400, "messages: request body is not valid JSON")
        if not isinstance(payload.get("model"), str):
            return self.error(400, "model: Field required")
        if not isinstance(payload.get("max_tokens"), int):
            return self.error(400, "max_tokens: Field required")
        messages = payload.get("messages")
        if not isinstance(messages, list) or not messages:
            return self.error(400, "messages: at least one message is required")
        for i, m in enumerate(messages):
            if not isinstance(m, dict) or m.get("role") not in {"user", "assistant"}:
                return self.error(400, f"messages.{i}.role: Input should be 'user' or 'assistant'")
        if "system" in payload and not isinstance(payload["system"], (str, list)):
            return self.error(400, "system: Input should be a valid string")
        number, text = self._script.next(payload)
        prompt = len(tokens(_content_text(payload.get("system", "")))) + sum(len(tokens(_content_text(m.get("content")))) for m in messages)
        return json_reply({
            "id": f"msg_{number:04d}",
            "type": "message",
            "role": "assistant",
            "model": payload["model"],
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": prompt, "output_tokens": len(tokens(text))},
        })


class OllamaServer(LoopbackServer):
    """``/api/embed`` like Ollama.

    Args:
        models: Model names it has (others answer 404 like an unpulled model); ``None``: any.
        embedding_dim: Dimension of the hashed bag-of-words embeddings.
        faults: Faults for the first requests.
    """

    def __init__(self, *, models: Sequence[str] | None = None, embedding_dim: int = 16, faults: Sequence[Fault] = ()) -> None:
        super().__init__(faults=faults)
        self.models = None if models is None else frozenset(models)
        self.embedding_dim = embedding_dim

    def error_body(self, status: int, message: str) -> Any:
        return {"error": message}

    def route(self, request: RecordedRequest) -> Reply:
        if request.method != "POST" or request.path != "/api/embed":
            return self.error(404, "404 page not found")
        try:
            payload = request.json()
        except ValueError:
            return self.error(400, "invalid character in request body")
        model = payload.get("model") if isinstance(payload, dict) else None
        if not model:
            return self.error(400, "model is required")
        if self.models is not None and model not in self.models:
            return self.error(404, f'model "{model}" not found, try pulling it first')
        inputs = payload.get("input")
        if isinstance(inputs, str):
            inputs = [inputs]
        if not isinstance(inputs, list) or not all(isinstance(t, str) for t in inputs):
            return self.error(400, "invalid input type")
        return json_reply({
            "model": model,
            "embeddings": [hashed_embedding(t, self.embedding_dim) for t in inputs],
            "total_duration": 0,
            "load_duration": 0,
            "prompt_eval_count": sum(len(tokens(t)) for t in inputs),
        })
