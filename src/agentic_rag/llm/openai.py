"""A chat client for any OpenAI-compatible ``/chat/completions`` endpoint.

OpenAI itself, vLLM, llama.cpp's ``llama-server`` (and ``python -m llama_cpp.server``), LM
Studio and Ollama's ``/v1`` all accept the same request: ``model``, ``messages``,
``temperature``, ``max_tokens`` and an optional ``response_format`` of ``{"type":
"json_object"}`` or ``{"type": "json_schema", "json_schema": {"name", "schema", "strict"}}``.
llama-cpp-python's server, llama.cpp's ``llama-server`` and Ollama's ``/v1`` also constrain
the answer to a schema sent as ``{"type": "json_object", "schema": {...}}`` (grammar-constrained
decoding, so the answer ends when the schema is satisfied). ``json_mode`` chooses the form:

================== ============================================================================
``json_schema``    the default: ``{"type": "json_schema", "json_schema": {...}}`` as asked
``json_object_schema`` ``{"type": "json_object", "schema": {...}}`` (without length and item
                   bounds, which grammar compilers expand into huge grammars)
``json_object``    plain JSON mode, ``{"type": "json_object"}``: the schema is in the prompt only
``none``           no ``response_format``
================== ============================================================================

When a server answers a ``json_schema`` request with an error saying it does not take that
format (llama-cpp-python's server: HTTP 500, "Input should be 'text' or 'json_object'"), the
client switches to ``json_object_schema`` for that call and every later one, and from there to
plain ``json_object`` if that is refused too. Each call computes its mode when it starts, from
the configured mode and the modes this server has refused so far; concurrent calls never
change each other's mode mid-call. Answers are validated afterwards either way.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from agentic_rag._errors import InvalidInputError, ProviderError, ProviderHTTPError
from agentic_rag._http import HttpOptions, HttpResult, Secret, bearer_headers, normalise_base_url, redact_url
from agentic_rag._http.environment import ENV_LLM_API_KEY, ENV_LLM_BASE_URL, ENV_LLM_JSON_MODE, ENV_LLM_MODEL, from_env
from agentic_rag.llm.chat import ChatCall, HttpChatModel
from agentic_rag.llm.metering import usage_from_counts
from agentic_rag.llm.port import Completion, ResponseFormat, ResponseFormatType

__all__ = ["JSON_MODES", "OpenAICompatibleLLM", "decoding_schema"]

# How a requested JSON format reaches the server, from the most to the least constrained: as
# asked, the schema inside JSON mode, plain JSON mode, or not sent.
JSON_MODES = ("json_schema", "json_object_schema", "json_object", "none")
# The next mode to try after a server refuses a mode's response format.
_DOWNGRADES = {"json_schema": "json_object_schema", "json_object_schema": "json_object"}
# Schema keywords left out of a schema sent for grammar-constrained decoding (see decoding_schema).
_UNBOUNDED_FOR_GRAMMARS = frozenset({"maxLength", "maxItems"})
TOKEN_LIMIT_PARAMS = ("max_tokens", "max_completion_tokens")


class OpenAICompatibleLLM(HttpChatModel):
    """Chat completions over HTTP from any OpenAI-compatible server.

    Args:
        base_url: Base URL ending before ``/chat/completions`` (for example
            ``https://api.openai.com/v1`` or ``http://localhost:8080/v1``); default
            ``$AGENTIC_RAG_LLM_BASE_URL``.
        model: Model name; default ``$AGENTIC_RAG_LLM_MODEL``.
        api_key: Bearer key; default ``$AGENTIC_RAG_LLM_API_KEY`` (local servers need none).
        timeout_s: Timeout of one attempt, capped by the run's deadline (default 60 s).
        max_retries: Retries on 408/409/425/429/5xx, timeouts and connection errors (default 3).
        http: Transport (recording, replay, tests), retry policy and test hooks, as
            :class:`~agentic_rag.llm.HttpOptions`.
        json_mode: How a JSON-schema format is sent (see the module docstring):
            ``"json_schema"``, ``"json_object_schema"``, ``"json_object"`` or ``"none"``;
            default ``$AGENTIC_RAG_LLM_JSON_MODE``, else ``"json_schema"``.
        token_limit_param: ``"max_tokens"`` or ``"max_completion_tokens"`` (newer OpenAI models).
        extra_body: Extra JSON fields merged into every request (``seed``, ``top_p``...).
        **legacy: ``retry=``, ``transport=``, ``sleep=``, ``rng=``: deprecated, use ``http=``.

    Raises:
        InvalidInputError: No base URL or model (naming the variables to set), an option
            outside its allowed values, or an HTTP setting given twice.
    """

    stage = "openai"

    def __init__(
        self,
        base_url: str | None = None,
        model: str | None = None,
        api_key: str | None = None,
        timeout_s: float | None = None,
        max_retries: int | None = None,
        *,
        http: HttpOptions | None = None,
        json_mode: str | None = None,
        token_limit_param: str = "max_tokens",
        extra_body: Mapping[str, Any] | None = None,
        **legacy: Any,
    ) -> None:
        base_url = from_env(base_url, ENV_LLM_BASE_URL)
        model = from_env(model, ENV_LLM_MODEL)
        if not base_url or not model:
            missing = [n for n, v in ((ENV_LLM_BASE_URL, base_url), (ENV_LLM_MODEL, model)) if not v]
            raise InvalidInputError(
                f"OpenAICompatibleLLM needs a base URL and a model; missing {', '.join(missing)}. Pass "
                f"base_url=... and model=..., or set {ENV_LLM_BASE_URL} (for example http://localhost:8080/v1) "
                f"and {ENV_LLM_MODEL} (and {ENV_LLM_API_KEY} if the server wants a key)",
                stage=self.stage,
            )
        json_mode = from_env(json_mode, ENV_LLM_JSON_MODE) or "json_schema"
        if json_mode not in JSON_MODES:
            raise InvalidInputError(f"json_mode (or {ENV_LLM_JSON_MODE}) must be one of {list(JSON_MODES)}, got {json_mode!r}", stage=self.stage)
        if token_limit_param not in TOKEN_LIMIT_PARAMS:
            raise InvalidInputError(f"token_limit_param must be one of {list(TOKEN_LIMIT_PARAMS)}, got {token_limit_param!r}", stage=self.stage)
        self.base_url = normalise_base_url(base_url, strip_suffixes=("/chat/completions",), stage=self.stage)
        self.model = model
        self._api_key = Secret(from_env(api_key, ENV_LLM_API_KEY) or "")
        self._configured_json_mode = json_mode
        # Modes this server refused; only ever grows, read when a call starts.
        self._refused_modes: set[str] = set()
        self._mode_lock = threading.Lock()
        self.token_limit_param = token_limit_param
        self.extra_body = dict(extra_body or {})
        super().__init__(timeout_s=timeout_s, max_retries=max_retries, http=http, legacy=legacy)

    @property
    def json_mode(self) -> str:
        """The JSON mode the next call starts with: the configured mode, moved down past every
        mode this server has refused."""
        with self._mode_lock:
            mode = self._configured_json_mode
            while mode in self._refused_modes:
                mode = _DOWNGRADES[mode]
            return mode

    def _json_mode_for_call(self) -> str:
        return self.json_mode

    def _next_json_mode(self, error: ProviderHTTPError, call: ChatCall, mode: str | None) -> str | None:
        # The server does not take this form of the format (older vLLM, llama-cpp-python's
        # server): this call goes on with the next form, and later calls start there; the
        # caller's schema validation still applies.
        if mode not in _DOWNGRADES or not _refuses_format(error, self._wire_format(call.response_format, mode)):
            return None
        with self._mode_lock:
            self._refused_modes.add(mode)
        return _DOWNGRADES[mode]

    def _request(self, call: ChatCall, mode: str | None) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": [m.to_wire() for m in call.messages],
            "temperature": call.temperature,
            self.token_limit_param: call.max_tokens,
        }
        wire_format = self._wire_format(call.response_format, mode)
        if wire_format is not None:
            payload["response_format"] = wire_format
        payload.update(self.extra_body)
        return payload

    def _wire_format(self, fmt: ResponseFormat | None, mode: str | None) -> dict[str, Any] | None:
        if fmt is None or fmt.type is ResponseFormatType.TEXT or mode == "none":
            return None
        if fmt.type is ResponseFormatType.JSON_OBJECT or mode == "json_object":
            return {"type": "json_object"}
        if mode == "json_object_schema":
            return {"type": "json_object", "schema": decoding_schema(fmt.schema_dict())}
        spec: dict[str, Any] = {"name": fmt.name, "schema": fmt.schema_dict()}
        if fmt.strict:
            spec["strict"] = True
        return {"type": "json_schema", "json_schema": spec}

    def _endpoint(self) -> str:
        return f"{self.base_url}/chat/completions"

    def _headers(self) -> dict[str, str]:
        return bearer_headers(self._api_key)

    def _parse(self, result: HttpResult, call: ChatCall) -> Completion:
        data = result.data
        choices = data.get("choices") if isinstance(data, dict) else None
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            shape = sorted(data) if isinstance(data, dict) else type(data).__name__
            raise ProviderError(f"the answer has no choices[0]; expected a chat completion, got {shape}", stage=self.stage)
        choice = choices[0]
        message = choice.get("message") if isinstance(choice.get("message"), dict) else {}
        content = message.get("content")
        if isinstance(content, list):  # some servers return content parts
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        if not isinstance(content, str):
            refusal = message.get("refusal")
            why = f"the model refused: {refusal}" if refusal else f"choices[0].message.content is {content!r}, expected text"
            raise ProviderError(why, stage=self.stage)
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        return Completion(
            text=content,
            usage=usage_from_counts(usage.get("prompt_tokens"), usage.get("completion_tokens"), messages=call.messages, text=content),
            model=str(data.get("model") or self.model),
            raw=data,
            finish_reason=str(choice.get("finish_reason") or ""),
            attempts=result.attempts,
        )

    def __repr__(self) -> str:
        key = "set" if self._api_key else "none"
        return f"OpenAICompatibleLLM(base_url={redact_url(self.base_url)!r}, model={self.model!r}, api_key=<{key}>)"


def decoding_schema(schema: Any) -> Any:
    """Return ``schema`` without ``maxLength`` and ``maxItems``, for grammar-constrained decoding.

    Servers that turn a schema into a grammar (llama.cpp, llama-cpp-python, Ollama) expand a
    bounded repetition into one nested rule per allowed character or item: a ``maxLength`` of
    3,000 makes a grammar llama.cpp refuses (and llama-cpp-python's server dies on). Without
    the bounds the grammar stays small; the role's ``max_tokens`` still ends a long answer, and
    the answer is validated against the full schema afterwards.
    """
    if isinstance(schema, dict):
        return {k: decoding_schema(v) for k, v in schema.items() if k not in _UNBOUNDED_FOR_GRAMMARS}
    if isinstance(schema, list):
        return [decoding_schema(v) for v in schema]
    return schema


def _refuses_format(error: ProviderHTTPError, wire_format: dict[str, Any] | None) -> bool:
    """True when a failed request carried a schema format and the server's error says it does
    not support that response format (rather than failing for another reason)."""
    if wire_format is None or error.status not in (400, 422, 500, 501):
        return False
    if wire_format.get("type") != "json_schema" and "schema" not in wire_format:
        return False
    text = error.message.casefold()
    return any(word in text for word in ("response_format", "response format", "json_schema", "schema"))
