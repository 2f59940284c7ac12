"""``ScriptedLLM``: an in-process ``LLM`` that answers from a script, for tests and demos.

It is part of the product so users can test their own pipelines: it runs the same
:meth:`~agentic_rag.llm.chat.ChatModel.complete` as the HTTP clients (the same checks, and the
run's budget checked and charged, tokens estimated), records every call it gets, and can play
failures by scripting exceptions.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from agentic_rag._errors import InvalidInputError, ProviderError
from agentic_rag.llm.chat import ChatCall, ChatModel
from agentic_rag.llm.metering import usage_from_counts
from agentic_rag.llm.port import Completion

__all__ = ["ScriptedCall", "ScriptedLLM"]

#: One call a :class:`ScriptedLLM` received: the checked call every chat model builds.
ScriptedCall = ChatCall


Reply = str | Completion | BaseException


class ScriptedLLM(ChatModel):
    """Answers calls from a list of replies or from a function.

    Args:
        responses: Either a sequence of replies used in order (a string, a
            :class:`Completion`, or an exception instance to raise), or a function taking the
            :class:`ScriptedCall` and returning a string or a Completion.
        model: The model name reported in completions.
        repeat_last: Keep answering with the last reply once the sequence is used up
            (otherwise a further call raises ``ProviderError``).

    Raises:
        InvalidInputError: ``responses`` is neither a sequence of replies nor a callable.
    """

    stage = "scripted"

    def __init__(
        self,
        responses: Sequence[Reply] | Callable[[ScriptedCall], str | Completion],
        *,
        model: str = "scripted",
        repeat_last: bool = False,
    ) -> None:
        if callable(responses):
            self._fn: Callable[[ScriptedCall], str | Completion] | None = responses
            self._replies: tuple[Reply, ...] = ()
        elif isinstance(responses, Sequence) and not isinstance(responses, (str, bytes)):
            for i, reply in enumerate(responses):
                if not isinstance(reply, (str, Completion, BaseException)):
                    raise InvalidInputError(f"responses[{i}] must be a str, Completion or exception, got {type(reply).__name__}", stage="scripted")
            self._fn = None
            self._replies = tuple(responses)
        else:
            raise InvalidInputError(f"responses must be a sequence of replies or a callable, got {type(responses).__name__}", stage="scripted")
        self.model = model
        self.repeat_last = repeat_last
        self._calls: list[ScriptedCall] = []
        self._lock = threading.Lock()

    @property
    def calls(self) -> tuple[ScriptedCall, ...]:
        """Every call received so far, in order."""
        with self._lock:
            return tuple(self._calls)

    def _request(self, call: ChatCall, mode: str | None) -> ChatCall:
        return call

    def _send(self, request: ChatCall, call: ChatCall) -> Completion:
        with self._lock:
            number = len(self._calls)
            self._calls.append(call)
        if self._fn is not None:
            reply: Reply = self._fn(call)
        elif number < len(self._replies):
            reply = self._replies[number]
        elif self.repeat_last and self._replies:
            reply = self._replies[-1]
        else:
            raise ProviderError(f"ScriptedLLM has no reply for call {number + 1}; {len(self._replies)} were scripted", stage="scripted")
        if isinstance(reply, BaseException):
            raise reply
        if isinstance(reply, Completion):
            return reply
        if not isinstance(reply, str):
            raise InvalidInputError(f"a scripted function must return a str or Completion, got {type(reply).__name__}", stage="scripted")
        usage = usage_from_counts(None, None, messages=call.messages, text=reply)
        return Completion(text=reply, usage=usage, model=self.model, finish_reason="stop")

    def __repr__(self) -> str:
        source = "function" if self._fn is not None else f"{len(self._replies)} replies"
        return f"ScriptedLLM({source}, model={self.model!r})"
