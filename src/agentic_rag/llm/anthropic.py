"""A chat client for Anthropic's Messages API (``POST /v1/messages``).

Differences from the OpenAI shape that matter here: the key goes in ``x-api-key`` with an
``anthropic-version`` header; system prompts are a top-level ``system`` field, not messages;
``max_tokens`` is required; the answer is a list of content blocks; usage is
``input_tokens`` / ``output_tokens``; 529 means overloaded (retried like any 5xx). A JSON
response format becomes an instruction appended to the system prompt, and the answer is
validated afterwards like every other. Validation, metering and retries are the shared
:meth:`~agentic_rag.llm.chat.ChatModel.complete`; this module only builds and parses the wire
request.
"""

from __future__ import annotations

from typing import Any

from agentic_rag._errors import InvalidInputError, ProviderError
from agentic_rag._http import HttpOptions, HttpResult, Secret, normalise_base_url, redact_url
from agentic_rag._http.environment import ENV_ANTHROPIC_API_KEY, ENV_ANTHROPIC_BASE_URL, ENV_ANTHROPIC_MODEL, from_env
from agentic_rag.llm.chat import ChatCall, HttpChatModel, system_and_turns
from agentic_rag.llm.metering import usage_from_counts
from agentic_rag.llm.port import Completion

__all__ = ["ANTHROPIC_VERSION", "AnthropicLLM"]

ANTHROPIC_VERSION = "2023-06-01"
DEFAULT_BASE_URL = "https://api.anthropic.com"


class AnthropicLLM(HttpChatModel):
    """Claude models through the Messages API.

    System messages are joined into the top-level ``system`` field; consecutive messages of
    the same role are merged because the API expects alternating turns; the temperature must
    be in [0, 1]; a JSON response format becomes a system-prompt instruction.

    Args:
        base_url: Default ``$ANTHROPIC_BASE_URL`` or ``https://api.anthropic.com``.
        model: Model name; default ``$ANTHROPIC_MODEL``.
        api_key: Key sent as ``x-api-key``; default ``$ANTHROPIC_API_KEY``.
        timeout_s: Timeout of one attempt, capped by the run's deadline (default 60 s).
        max_retries: Retries on 408/409/425/429/5xx (529 included), timeouts and resets (default 3).
        http: Transport (recording, replay, tests), retry policy and test hooks, as
            :class:`~agentic_rag.llm.HttpOptions`.
        anthropic_version: The ``anthropic-version`` header.
        **legacy: ``retry=``, ``transport=``, ``sleep=``, ``rng=``: deprecated, use ``http=``.

    Raises:
        InvalidInputError: No key or no model (naming the variables to set), or an HTTP
            setting given twice.
    """

    stage = "anthropic"

    def __init__(
        self,
        base_url: str | None = None,
        model: str | None = None,
        api_key: str | None = None,
        timeout_s: float | None = None,
        max_retries: int | None = None,
        *,
        http: HttpOptions | None = None,
        anthropic_version: str = ANTHROPIC_VERSION,
        **legacy: Any,
    ) -> None:
        model = from_env(model, ENV_ANTHROPIC_MODEL)
        key = from_env(api_key, ENV_ANTHROPIC_API_KEY)
        if not model or not key:
            missing = [n for n, v in ((ENV_ANTHROPIC_API_KEY, key), (ENV_ANTHROPIC_MODEL, model)) if not v]
            raise InvalidInputError(
                f"AnthropicLLM needs an API key and a model; missing {', '.join(missing)}. Pass api_key=... "
                f"and model=..., or set {ENV_ANTHROPIC_API_KEY} and {ENV_ANTHROPIC_MODEL}",
                stage=self.stage,
            )
        self.model = model
        self._api_key = Secret(key)
        self.base_url = normalise_base_url(
            from_env(base_url, ENV_ANTHROPIC_BASE_URL) or DEFAULT_BASE_URL, strip_suffixes=("/v1/messages", "/v1"), stage=self.stage
        )
        self.anthropic_version = anthropic_version
        super().__init__(timeout_s=timeout_s, max_retries=max_retries, http=http, legacy=legacy)

    def _check_call(self, call: ChatCall) -> None:
        if call.temperature > 1.0:
            raise InvalidInputError(f"Anthropic's temperature must be in [0, 1], got {call.temperature!r}", stage=self.stage)

    def _request(self, call: ChatCall, mode: str | None) -> dict[str, Any]:
        system, turns = system_and_turns(call)
        if not turns:
            raise InvalidInputError("AnthropicLLM needs at least one user message besides system messages", stage=self.stage)
        payload: dict[str, Any] = {
            "model": self.model,
            "max_tokens": call.max_tokens,
            "messages": [{"role": role, "content": text} for role, text in turns],
            "temperature": call.temperature,
        }
        if system:
            payload["system"] = system
        return payload

    def _endpoint(self) -> str:
        return f"{self.base_url}/v1/messages"

    def _headers(self) -> dict[str, str]:
        return {"x-api-key": self._api_key.reveal(), "anthropic-version": self.anthropic_version}

    def _parse(self, result: HttpResult, call: ChatCall) -> Completion:
        data = result.data
        blocks = data.get("content") if isinstance(data, dict) else None
        if not isinstance(blocks, list):
            shape = sorted(data) if isinstance(data, dict) else type(data).__name__
            raise ProviderError(f"the answer has no content list; expected a Messages response, got {shape}", stage=self.stage)
        texts = [b["text"] for b in blocks if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)]
        if not texts and data.get("stop_reason") != "max_tokens":
            raise ProviderError(f"the answer holds no text block (stop_reason {data.get('stop_reason')!r})", stage=self.stage)
        text = "".join(texts)
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        return Completion(
            text=text,
            usage=usage_from_counts(usage.get("input_tokens"), usage.get("output_tokens"), messages=call.messages, text=text),
            model=str(data.get("model") or self.model),
            raw=data,
            finish_reason=str(data.get("stop_reason") or ""),
            attempts=result.attempts,
        )

    def __repr__(self) -> str:
        return f"AnthropicLLM(base_url={redact_url(self.base_url)!r}, model={self.model!r}, api_key=<set>)"
