"""A chat client for Anthropic's Messages API (``POST /v1/messages``).

Differences from the OpenAI shape that matter here: the key goes in ``x-api-key`` with an
``anthropic-version`` header; system prompts are a top-level ``system`` field, not messages;
``max_tokens`` is required; the answer is a list of content blocks; usage is
``input_tokens`` / ``output_tokens``; 529 means overloaded (retried like any 5xx). A JSON
response format becomes an instruction appended to the system prompt, and the answer is
validated afterwards like every other.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from agentic_rag._errors import InvalidInputError, ProviderError
from agentic_rag.llm.environment import ENV_ANTHROPIC_API_KEY, ENV_ANTHROPIC_BASE_URL, ENV_ANTHROPIC_MODEL, from_env
from agentic_rag.llm.http import JsonHttpClient, RetryPolicy
from agentic_rag.llm.metering import metered_call, usage_from_counts
from agentic_rag.llm.openai import check_sampling, normalise_base_url
from agentic_rag.llm.port import Completion, Message, MessageRole, ResponseFormat, ResponseFormatType, check_messages
from agentic_rag.llm.redaction import Secret, redact_url
from agentic_rag.llm.transport import HttpAttempt, Transport

__all__ = ["ANTHROPIC_VERSION", "AnthropicLLM"]

ANTHROPIC_VERSION = "2023-06-01"
DEFAULT_BASE_URL = "https://api.anthropic.com"
_JSON_INSTRUCTION = "Respond with a single JSON object and nothing else: no prose, no code fences."


class AnthropicLLM:
    """Claude models through the Messages API.

    Args:
        base_url: Default ``$ANTHROPIC_BASE_URL`` or ``https://api.anthropic.com``.
        model: Model name; default ``$ANTHROPIC_MODEL``.
        api_key: Key sent as ``x-api-key``; default ``$ANTHROPIC_API_KEY``.
        timeout_s: Timeout of one attempt, capped by the run's deadline.
        max_retries: Retries on 408/409/425/429/5xx (529 included), timeouts and resets.
        anthropic_version: The ``anthropic-version`` header.
        retry: A full retry policy (overrides ``max_retries``).
        transport: One-attempt transport (recording, replay, tests).
        sleep: Wait function between retries.
        rng: Jitter source for backoff.

    Raises:
        InvalidInputError: No key or no model (naming the variables to set).
    """

    stage = "anthropic"

    def __init__(
        self,
        base_url: str | None = None,
        model: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 3,
        *,
        anthropic_version: str = ANTHROPIC_VERSION,
        retry: RetryPolicy | None = None,
        transport: Transport | None = None,
        sleep: Callable[[float], None] | None = None,
        rng: random.Random | None = None,
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
        self.http = JsonHttpClient.for_client(stage=self.stage, timeout_s=timeout_s, max_retries=max_retries, retry=retry,
                                              transport=transport, sleep=sleep, rng=rng)

    @property
    def attempts(self) -> tuple[HttpAttempt, ...]:
        """Recent HTTP attempts of this client (bounded), oldest first."""
        return self.http.attempts

    def complete(
        self,
        messages: Sequence[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int = 512,
        response_format: ResponseFormat | Mapping[str, Any] | None = None,
    ) -> Completion:
        """Send the messages to ``/v1/messages`` and return the text blocks joined.

        System messages are joined into the top-level ``system`` field; consecutive messages
        of the same role are merged because the API expects alternating turns.

        Args:
            messages: The conversation (at least one user or assistant message).
            temperature: Sampling temperature in [0, 1] for Anthropic (values above 1 refused).
            max_tokens: Cap on generated tokens (required by the API).
            response_format: JSON mode or schema; becomes a system-prompt instruction.

        Returns:
            The completion with usage.

        Raises:
            InvalidInputError: Bad messages (for example only system messages) or sampling.
            BudgetExhaustedError: The run's budget allows no further call.
            ProviderHTTPError: The API answered with an error status.
            ProviderTimeoutError: No answer in time.
            ProviderError: Connection failure or an answer without text.
        """
        msgs = check_messages(messages, stage=self.stage)
        check_sampling(temperature, max_tokens, stage=self.stage)
        if temperature > 1.0:
            raise InvalidInputError(f"Anthropic's temperature must be in [0, 1], got {temperature!r}", stage=self.stage)
        fmt = ResponseFormat.coerce(response_format, stage=self.stage)
        system = [m.content for m in msgs if m.role is MessageRole.SYSTEM]
        if fmt is not None and fmt.type is not ResponseFormatType.TEXT:
            system.append(_JSON_INSTRUCTION)
        turns: list[dict[str, str]] = []
        for m in msgs:
            if m.role is MessageRole.SYSTEM:
                continue
            if turns and turns[-1]["role"] == m.role.value:
                turns[-1]["content"] += "\n\n" + m.content
            else:
                turns.append(m.to_wire())
        if not turns:
            raise InvalidInputError("AnthropicLLM needs at least one user message besides system messages", stage=self.stage)
        payload: dict[str, Any] = {"model": self.model, "max_tokens": max_tokens, "messages": turns, "temperature": temperature}
        if system:
            payload["system"] = "\n\n".join(system)
        return metered_call(lambda: self._send(payload, msgs))

    def _send(self, payload: dict[str, Any], msgs: tuple[Message, ...]) -> Completion:
        headers = {"x-api-key": self._api_key.reveal(), "anthropic-version": self.anthropic_version}
        result = self.http.post_json(f"{self.base_url}/v1/messages", payload, headers=headers)
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
            usage=usage_from_counts(usage.get("input_tokens"), usage.get("output_tokens"), messages=msgs, text=text),
            model=str(data.get("model") or self.model),
            raw=data,
            finish_reason=str(data.get("stop_reason") or ""),
            attempts=result.attempts,
        )

    def __repr__(self) -> str:
        return f"AnthropicLLM(base_url={redact_url(self.base_url)!r}, model={self.model!r}, api_key=<set>)"
