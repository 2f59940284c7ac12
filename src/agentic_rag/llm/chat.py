"""One ``complete()`` for every chat model; each client only builds and parses its wire request.

:meth:`ChatModel.complete` does, once for every implementation (the HTTP clients, the MCP
sampling client and :class:`~agentic_rag.llm.scripted.ScriptedLLM`):

1. validation: the messages (:func:`~agentic_rag.llm.port.check_messages`), the sampling
   values (:func:`~agentic_rag.llm.port.check_sampling`), the response format, then the
   client's own checks (``_check_call``), all before anything is sent or charged;
2. JSON mode: the mode of the call is computed when the call starts (``_json_mode_for_call``)
   and kept in the call; when the server refuses the format of that mode, ``_next_json_mode``
   names the next one for the rest of this call (the client may remember the refusal for
   later calls, never change the mode of a call in flight);
3. metering: each request is run through :func:`~agentic_rag.llm.metering.metered_call`, so
   the run's budget is checked first and charged after;
4. the wire: ``_request`` builds the request, ``_send`` sends it and parses the answer.

:class:`HttpChatModel` adds the HTTP side once: one
:class:`~agentic_rag._http.client.JsonHttpClient` from the ``http=`` options (deadlines,
retries, redaction, attempt traces), and a ``_send`` that posts the request to ``_endpoint()``
with ``_headers()`` and hands the result to ``_parse``.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from agentic_rag._errors import ProviderHTTPError
from agentic_rag._http import HttpBacked, HttpOptions, HttpResult, build_client
from agentic_rag.llm.metering import metered_call
from agentic_rag.llm.port import Completion, Message, MessageLike, MessageRole, ResponseFormat, ResponseFormatType, check_messages, check_sampling

__all__ = ["JSON_INSTRUCTION", "ChatCall", "ChatModel", "HttpChatModel", "system_and_turns"]

#: What clients without a response-format parameter append to the system prompt for JSON.
JSON_INSTRUCTION = "Respond with a single JSON object and nothing else: no prose, no code fences."


@dataclass(frozen=True, slots=True)
class ChatCall:
    """One checked call to a chat model (what a :class:`~agentic_rag.llm.scripted.ScriptedLLM`
    records as a ``ScriptedCall``).

    Args:
        messages: The conversation, as :class:`~agentic_rag.llm.port.Message` objects.
        temperature: Sampling temperature in [0, 2].
        max_tokens: Cap on generated tokens.
        response_format: The requested format, or ``None`` for free text.
    """

    messages: tuple[Message, ...]
    temperature: float
    max_tokens: int
    response_format: ResponseFormat | None

    @property
    def wants_json(self) -> bool:
        """True when the call asks for a JSON object (with or without a schema)."""
        return self.response_format is not None and self.response_format.type is not ResponseFormatType.TEXT


def system_and_turns(call: ChatCall) -> tuple[str, list[tuple[str, str]]]:
    """Split a call for APIs with a separate system prompt (Anthropic, MCP sampling).

    Returns:
        The system prompt (system messages joined by blank lines, plus
        :data:`JSON_INSTRUCTION` when the call wants JSON; ``""`` when there is none) and the
        other turns as ``(role, text)``, consecutive turns of one speaker joined (those APIs
        want the speakers to alternate).
    """
    system = [m.content for m in call.messages if m.role is MessageRole.SYSTEM]
    if call.wants_json:
        system.append(JSON_INSTRUCTION)
    turns: list[tuple[str, str]] = []
    for m in call.messages:
        if m.role is MessageRole.SYSTEM:
            continue
        if turns and turns[-1][0] == m.role.value:
            turns[-1] = (m.role.value, turns[-1][1] + "\n\n" + m.content)
        else:
            turns.append((m.role.value, m.content))
    return "\n\n".join(system), turns


class ChatModel(abc.ABC):
    """Base of the chat models: the ``complete`` template over ``_request`` and ``_send``."""

    stage: ClassVar[str] = "llm"

    def complete(
        self,
        messages: Sequence[MessageLike],
        *,
        temperature: float = 0.0,
        max_tokens: int = 512,
        response_format: ResponseFormat | Mapping[str, Any] | None = None,
    ) -> Completion:
        """Return the model's answer to ``messages`` (see :class:`~agentic_rag.llm.port.LLM`).

        Args:
            messages: The conversation (Message objects or ``{"role", "content"}`` dicts).
            temperature: Sampling temperature in [0, 2] (a provider may allow less).
            max_tokens: Cap on generated tokens.
            response_format: JSON mode or a JSON schema; ``None`` for free text.

        Returns:
            The completion, with usage (estimated when the model reports none).

        Raises:
            InvalidInputError: Bad messages, sampling values or format (nothing is sent).
            BudgetExhaustedError: The run's call or token cap is spent, or its deadline passed.
            ProviderHTTPError: The server answered with an error status.
            ProviderTimeoutError: No answer in time.
            ProviderError: Connection failure or an answer without text.
        """
        msgs = check_messages(messages, stage=self.stage)
        check_sampling(temperature, max_tokens, stage=self.stage)
        call = ChatCall(msgs, temperature, max_tokens, ResponseFormat.coerce(response_format, stage=self.stage))
        self._check_call(call)
        mode = self._json_mode_for_call()
        while True:
            request = self._request(call, mode)
            try:
                return metered_call(lambda: self._send(request, call))
            except ProviderHTTPError as exc:
                mode = self._next_json_mode(exc, call, mode)
                if mode is None:
                    raise

    def _check_call(self, call: ChatCall) -> None:
        """Refuse what this provider cannot take (default: nothing more to check)."""

    def _json_mode_for_call(self) -> str | None:
        """The JSON mode a new call starts with (default ``None``: the client has no modes)."""
        return None

    def _next_json_mode(self, error: ProviderHTTPError, call: ChatCall, mode: str | None) -> str | None:
        """The mode to try after ``error`` refused ``mode``'s format, or ``None`` to raise it."""
        return None

    @abc.abstractmethod
    def _request(self, call: ChatCall, mode: str | None) -> Any:
        """Build the wire request of ``call`` in JSON mode ``mode`` (may raise
        ``InvalidInputError`` or ``ProviderError``; nothing is charged yet)."""

    @abc.abstractmethod
    def _send(self, request: Any, call: ChatCall) -> Completion:
        """Send ``request`` and return the parsed completion (charged to the run's budget)."""


class HttpChatModel(HttpBacked, ChatModel):
    """Base of the chat models that speak JSON over HTTP.

    Args:
        timeout_s: The ``timeout_s`` shortcut (``None``: from ``http`` or 60 s).
        max_retries: The ``max_retries`` shortcut (``None``: from ``http`` or 3).
        http: Transport, retry policy, timeout and test hooks (see
            :class:`~agentic_rag._http.options.HttpOptions`).
        legacy: The former HTTP keywords the subclass received (deprecated).

    Raises:
        InvalidInputError: A setting given twice or a bad value.
    """

    default_timeout_s: ClassVar[float] = 60.0

    def __init__(self, *, timeout_s: float | None, max_retries: int | None, http: HttpOptions | None, legacy: Mapping[str, Any]) -> None:
        # Four frames up: build_client, this, the subclass's __init__, the user's call.
        self._http = build_client(type(self).__name__, stage=self.stage, http=http, timeout_s=timeout_s, max_retries=max_retries,
                                  default_timeout_s=self.default_timeout_s, legacy=legacy, stacklevel=4)

    def _send(self, request: Any, call: ChatCall) -> Completion:
        return self._parse(self._http.post_json(self._endpoint(), request, headers=self._headers()), call)

    @abc.abstractmethod
    def _endpoint(self) -> str:
        """The URL requests are posted to."""

    @abc.abstractmethod
    def _headers(self) -> dict[str, str]:
        """The request headers (credentials included; the HTTP layer redacts them)."""

    @abc.abstractmethod
    def _parse(self, result: HttpResult, call: ChatCall) -> Completion:
        """Turn a 2xx answer into a completion carrying ``result.attempts``.

        Raises:
            ProviderError: The answer does not have the expected shape.
        """
