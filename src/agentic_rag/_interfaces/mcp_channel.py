"""Requests from the MCP server to its client, answered while a tool call is in progress.

The server handles one client request at a time, in order. A tool that needs the client's
model (``sampling/createMessage``) must send a request of its own and read the client's answer
before the tool call can finish, so reading the input cannot wait for the tool. The design:

- A reader thread (:meth:`McpClientChannel.read_lines`) reads every input line. A line that is
  the response to one of the server's pending requests is routed straight to the thread
  waiting for it; every other line (requests, notifications, late or unknown responses) is
  queued, in order, for the server's loop. Requests that arrive during a tool call are
  therefore answered after it, in the order they came; nothing is dropped.
- The server's own requests have ids of their own (``agentic-rag-1``, ``agentic-rag-2``...),
  written under the same lock as every response, so lines never interleave.
- Every wait is bounded: by the caller's timeout (the run's deadline). A request not answered
  in time is forgotten, the client is told with ``notifications/cancelled``, and the caller
  gets :class:`~agentic_rag._errors.ProviderTimeoutError`; a response that comes later is
  logged and ignored. End of input fails every waiting request at once.
- A line that cannot be read while requests of ours wait (not JSON, not an object, over the
  size limit, or an error answer with no id) may well be the answer they wait for, and it can
  never be routed: every waiting request fails at once with the reason, instead of waiting
  out its deadline. The line still goes to the server's loop, which answers it with the
  JSON-RPC error it deserves.
- No line is held whole beyond :data:`MAX_MESSAGE_BYTES`: a longer one is read and dropped in
  pieces and the loop is handed an :class:`OversizedMessage` to answer with an error.

Sampling needs the handshake: the client declares ``capabilities.sampling`` in
``initialize``. A request of the stateless 2026-07-28 revision is answered on its own, with no
session to send a request over (that revision moves server-to-client requests into multi
round-trip results, which this server does not implement), so sampling is unavailable for it.
"""

from __future__ import annotations

import itertools
import json
import queue
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO, Any

from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import ProviderError, ProviderTimeoutError

__all__ = ["MAX_MESSAGE_BYTES", "McpClientChannel", "OversizedMessage"]

_STAGE = "mcp-sampling"
MAX_MESSAGE_BYTES = 1 << 20
"""Longest input line read (bytes, or characters on a text stream): requests and the client's
answers alike. A sampling answer is a model's text, a request a few arguments; a 50 MB line
would cost the server seconds and hundreds of megabytes before it could refuse it."""
_SKIP_CHUNK = 1 << 16


@dataclass(frozen=True, slots=True)
class OversizedMessage:
    """An input line longer than the limit, dropped unread (queued in its place)."""

    size: int
    limit: int


class _Pending:
    """One request of ours waiting for the client's response."""

    __slots__ = ("done", "failure", "response")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.response: dict[str, Any] | None = None
        self.failure = ""  # why it ended without a response that could be read


class McpClientChannel:
    """The server's side of server-to-client requests on one stdio connection.

    The server sets :attr:`client_capabilities` at ``initialize`` and :attr:`stateless` for the
    request being handled; :meth:`serving` / :meth:`stopped` bracket one connection.
    """

    def __init__(self, *, max_message_bytes: int = MAX_MESSAGE_BYTES) -> None:
        self.max_message_bytes = require_int(max_message_bytes, "max_message_bytes", minimum=64, stage=_STAGE)
        self.client_capabilities: dict[str, Any] | None = None
        self.stateless = False
        self._write: Callable[[dict[str, Any]], bool] | None = None
        self._log: Callable[[str], None] = lambda text: None
        self._lock = threading.Lock()
        self._pending: dict[str, _Pending] = {}
        self._ids = itertools.count(1)
        self._closed_reason = "the MCP server is not serving a client"

    # -- the connection ---------------------------------------------------------------------

    def serving(self, write: Callable[[dict[str, Any]], bool], log: Callable[[str], None]) -> None:
        """Start a connection: ``write`` sends one message (False once the client is gone)."""
        with self._lock:
            self._write, self._log, self._closed_reason = write, log, ""
            self.client_capabilities, self.stateless = None, False

    def stopped(self, reason: str) -> None:
        """End the connection: every waiting request fails with ``reason``."""
        with self._lock:
            self._write, self._closed_reason = None, reason
            pending, self._pending = self._pending, {}
        for entry in pending.values():
            entry.failure = reason
            entry.done.set()

    def _fail_pending(self, reason: str) -> None:
        """Fail every waiting request at once with ``reason`` (the connection stays open)."""
        with self._lock:
            pending, self._pending = self._pending, {}
        for request_id, entry in sorted(pending.items()):
            self._log(f"{request_id}: failed at once: {reason}")
            entry.failure = reason
            entry.done.set()

    def read_lines(self, stdin: IO[Any], inbox: queue.Queue) -> None:
        """Reader thread body: route responses to waiting requests, queue every other line
        (an :class:`OversizedMessage` for one over the limit), and put ``None`` at end of
        input (or when the stream fails)."""
        limit = self.max_message_bytes
        try:
            while True:
                line = stdin.readline(limit + 1)
                if not line:
                    break
                if len(line) > limit and line[-1:] not in (b"\n", "\n"):
                    size = len(line) + _skip_line(stdin)
                    del line
                    self._fail_pending(f"the client sent a message of {size} bytes, over the limit of {limit}")
                    inbox.put(OversizedMessage(size, limit))
                    continue
                if not self._route(line):
                    inbox.put(line)
        except (OSError, ValueError) as exc:  # the stream was closed under us
            self._log(f"reading input failed: {type(exc).__name__}: {exc}")
        finally:
            self.stopped("the client closed the connection (end of input)")
            inbox.put(None)

    def _route(self, line: str | bytes) -> bool:
        """Deliver ``line`` when it is the response to a pending request of ours; fail the
        pending requests when it cannot be read (see the module docstring)."""
        with self._lock:
            if not self._pending:
                return False
        try:
            message = json.loads(line)
        except (ValueError, RecursionError) as exc:
            if isinstance(line, (str, bytes)) and line.strip():
                self._fail_pending(f"the client sent a line that is not JSON ({type(exc).__name__}: {str(exc)[:80]})")
            return False
        if not isinstance(message, dict):
            self._fail_pending(f"the client sent a JSON {type(message).__name__}, not a JSON-RPC object")
            return False
        if "method" in message:
            return False  # a request or notification of the client's: the server's loop answers it
        request_id = message.get("id")
        with self._lock:
            entry = self._pending.pop(request_id, None) if isinstance(request_id, str) else None
        if entry is None:
            if request_id is None and "error" in message:
                # The client could not read a request of ours and said so without its id.
                self._fail_pending(f"the client answered with an error and no id: {json.dumps(message.get('error'))[:120]}")
            return False
        entry.response = message
        entry.done.set()
        return True

    # -- the SamplingChannel interface ------------------------------------------------------

    def unavailable_reason(self, capability: str) -> str | None:
        """Why a request needing the client ``capability`` cannot be sent now, or ``None``."""
        with self._lock:
            if self._write is None:
                return self._closed_reason
        if self.stateless:
            return ("the request uses the stateless 2026-07-28 revision, which has no session for server-to-client requests "
                    "(connect with the initialize handshake to use sampling)")
        if self.client_capabilities is None:
            return f"the client has not sent initialize, so it declared no {capability!r} capability"
        if not isinstance(self.client_capabilities.get(capability), dict):
            return f"the MCP client did not declare the {capability!r} capability in initialize"
        return None

    def request(self, method: str, params: Mapping[str, Any], *, timeout_s: float) -> dict[str, Any]:
        """Send one request to the client and wait at most ``timeout_s`` for its result.

        Raises:
            ProviderTimeoutError: No answer in time (the client is sent ``notifications/cancelled``).
            ProviderError: The client answered with an error or a result that is not an
                object, sent a line that cannot be read while the request waited, or the
                connection is closed.
        """
        request_id = f"agentic-rag-{next(self._ids)}"
        entry = _Pending()
        with self._lock:
            write = self._write
            if write is None:
                raise ProviderError(f"cannot send {method}: {self._closed_reason}", stage=_STAGE)
            self._pending[request_id] = entry
        if not write({"jsonrpc": "2.0", "id": request_id, "method": method, "params": dict(params)}):
            with self._lock:
                self._pending.pop(request_id, None)
            raise ProviderError(f"cannot send {method}: the client closed the connection", stage=_STAGE)
        if not entry.done.wait(max(0.0, timeout_s)):
            with self._lock:
                self._pending.pop(request_id, None)
            if entry.response is None and not entry.failure:
                self._log(f"{method} {request_id}: no answer in {timeout_s:.3g} s; cancelled")
                write({"jsonrpc": "2.0", "method": "notifications/cancelled",
                       "params": {"requestId": request_id, "reason": f"no answer in {timeout_s:.3g} s"}})
                raise ProviderTimeoutError(f"the client did not answer {method} in {timeout_s:.3g} s", stage=_STAGE)
        response = entry.response
        if response is None:
            with self._lock:
                still_open = self._write is not None
            if still_open and entry.failure:  # the client may still be working on it
                write({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": request_id, "reason": entry.failure}})
            raise ProviderError(f"{method} was not answered: {entry.failure or self._closed_reason}", stage=_STAGE)
        if "error" in response:
            error = response["error"] if isinstance(response["error"], dict) else {}
            raise ProviderError(f"the client answered {method} with error {error.get('code')!r}: {error.get('message')!r}", stage=_STAGE)
        result = response.get("result")
        if not isinstance(result, dict):
            raise ProviderError(f"the client's {method} result is not an object: {json.dumps(result)[:80]}", stage=_STAGE)
        return result


def _skip_line(stdin: IO[Any]) -> int:
    """Read the rest of the current line in pieces, keeping none; return how much was read."""
    skipped = 0
    while True:
        piece = stdin.readline(_SKIP_CHUNK)
        skipped += len(piece)
        if not piece or piece[-1:] in (b"\n", "\n"):
            return skipped
