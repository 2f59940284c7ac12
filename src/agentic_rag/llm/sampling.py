"""``McpSamplingLLM``: the ``LLM`` port over MCP ``sampling/createMessage``.

An MCP server can ask its client's model for a completion while it handles a tool call: it
sends a ``sampling/createMessage`` request back over the same connection and waits for the
answer. This lets the LLM-backed roles run on the host agent's own model, with no API key and
no endpoint to configure. The request carries::

    {"messages": [{"role": "user" | "assistant", "content": {"type": "text", "text": ...}}],
     "systemPrompt": ..., "includeContext": "none", "temperature": ..., "maxTokens": ...,
     "modelPreferences": {"hints": [{"name": ...}]}}

and the client answers ``{"role": "assistant", "content": {"type": "text", "text": ...},
"model": ..., "stopReason": "endTurn" | "stopSequence" | "maxTokens" | ...}`` (revision
2025-11-25 allows a list of content blocks; the text blocks are joined).

Sampling has no system role and no response format: system messages become ``systemPrompt``,
consecutive turns of one speaker are joined, and a JSON format becomes an instruction appended
to the system prompt. Answers are validated afterwards by the caller, exactly as for the HTTP
clients (:func:`~agentic_rag.llm.structured.complete_json`: one repair round, then the
component's deterministic fallback). Clients report no token counts, so usage is estimated
(about four characters a token) and token caps still hold.

The connection itself is a :class:`SamplingChannel`, supplied by the MCP server
(:class:`agentic_rag._interfaces.mcp_channel.McpClientChannel`): it sends the request, routes the
client's response back and says when sampling is unavailable (the client did not declare the
``sampling`` capability, or the request came without a handshake). Every wait is bounded by
the call's ``timeout_s`` and by the run's deadline (:func:`agentic_rag._http.client.attempt_timeout`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from agentic_rag._contracts.validation import require_number
from agentic_rag._errors import InvalidInputError, ProviderError
from agentic_rag._http.client import attempt_timeout
from agentic_rag.llm.chat import ChatCall, ChatModel, system_and_turns
from agentic_rag.llm.metering import usage_from_counts
from agentic_rag.llm.port import Completion

__all__ = ["SAMPLING_METHOD", "McpSamplingLLM", "SamplingChannel"]

SAMPLING_METHOD = "sampling/createMessage"
# MCP stop reasons mapped to the names complete_json reads ("length": the answer was cut off).
_STOP_REASONS = {"endTurn": "stop", "stopSequence": "stop", "maxTokens": "length"}


@runtime_checkable
class SamplingChannel(Protocol):
    """The MCP connection a :class:`McpSamplingLLM` sends its requests over."""

    def unavailable_reason(self, capability: str) -> str | None:
        """Why a request needing the client ``capability`` cannot be sent now, or ``None``."""
        ...

    def request(self, method: str, params: Mapping[str, Any], *, timeout_s: float) -> dict[str, Any]:
        """Send one request to the client and return its result.

        Raises:
            ProviderTimeoutError: No answer within ``timeout_s``.
            ProviderError: The client answered with an error, or the connection closed.
        """
        ...


class McpSamplingLLM(ChatModel):
    """Chat completions from the MCP client's own model (``sampling/createMessage``).

    Args:
        channel: The connection to the client (see :class:`SamplingChannel`).
        model_hint: A model name sent as ``modelPreferences.hints`` (the client may ignore it).
        timeout_s: Longest wait for one answer; the run's deadline caps it.
        name: The name reported for this model (``model`` of the ``ask`` payload).

    Raises:
        InvalidInputError: A channel without ``request``/``unavailable_reason``, a bad
            timeout or hint.
    """

    stage = "mcp-sampling"

    def __init__(self, channel: SamplingChannel, *, model_hint: str | None = None, timeout_s: float = 120.0, name: str = "mcp-sampling") -> None:
        if not isinstance(channel, SamplingChannel):
            raise InvalidInputError(f"channel must have request() and unavailable_reason(), got {type(channel).__name__}", stage=self.stage)
        require_number(timeout_s, "timeout_s (seconds)", above=0, stage=self.stage)
        if model_hint is not None and (not isinstance(model_hint, str) or not model_hint.strip()):
            raise InvalidInputError(f"model_hint must be a non-empty string or None, got {model_hint!r}", stage=self.stage)
        if not isinstance(name, str) or not name.strip():
            raise InvalidInputError(f"name must be a non-empty string, got {name!r}", stage=self.stage)
        self.channel = channel
        self.model_hint = model_hint
        self.timeout_s = float(timeout_s)
        self.model = name

    def unavailable(self) -> str | None:
        """Why the client's model cannot be asked for the request in progress, or ``None``.

        The store service asks this before a run: when it says why, the run uses the
        deterministic components and the ``ask`` payload's ``model.reason`` carries the reason.
        """
        return self.channel.unavailable_reason("sampling")

    def _request(self, call: ChatCall, mode: str | None) -> dict[str, Any]:
        system, turns = system_and_turns(call)
        if not turns:
            raise InvalidInputError("McpSamplingLLM needs at least one user or assistant message besides system messages", stage=self.stage)
        params: dict[str, Any] = {
            "messages": [{"role": role, "content": {"type": "text", "text": text}} for role, text in turns],
            "includeContext": "none",
            "temperature": float(call.temperature),
            "maxTokens": call.max_tokens,
        }
        if system:
            params["systemPrompt"] = system
        if self.model_hint:
            params["modelPreferences"] = {"hints": [{"name": self.model_hint}]}
        # Checked before the call is charged: an unavailable client model costs nothing.
        reason = self.unavailable()
        if reason is not None:
            raise ProviderError(f"the client's model cannot be asked: {reason}", stage=self.stage)
        return params

    def _send(self, request: dict[str, Any], call: ChatCall) -> Completion:
        timeout = attempt_timeout(self.timeout_s, where=SAMPLING_METHOD, stage=self.stage)
        result = self.channel.request(SAMPLING_METHOD, request, timeout_s=timeout)
        text = _text_of(result.get("content") if isinstance(result, Mapping) else None)
        if text is None:
            shape = sorted(result) if isinstance(result, Mapping) else type(result).__name__
            raise ProviderError(f"the client's {SAMPLING_METHOD} result holds no text content; got {shape}", stage=self.stage)
        stop = str(result.get("stopReason") or "")
        return Completion(
            text=text,
            usage=usage_from_counts(None, None, messages=call.messages, text=text),
            model=str(result.get("model") or self.model),
            raw=result,
            finish_reason=_STOP_REASONS.get(stop, stop),
        )

    def __repr__(self) -> str:
        return f"McpSamplingLLM(model_hint={self.model_hint!r}, timeout_s={self.timeout_s:g})"


def _text_of(content: Any) -> str | None:
    """The text of a sampling result's ``content`` (one block or a list), or ``None``."""
    blocks = content if isinstance(content, list) else [content]
    texts = [b["text"] for b in blocks if isinstance(b, Mapping) and b.get("type") == "text" and isinstance(b.get("text"), str)]
    return "".join(texts) if texts else None
