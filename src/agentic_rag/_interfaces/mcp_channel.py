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
from typing import IO, Any

from agentic_rag._errors import ProviderError, ProviderTimeoutError

__all__ = ["McpClientChannel"]

_STAGE = "mcp-sampling"


class _Pending:
    """One request of ours waiting for the client's response."""

    __slots__ = ("done", "response")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.response: dict[str, Any] | None = None


class McpClientChannel:
    """The server's side of server-to-client requests on one stdio connection.

    The server sets :attr:`client_capabilities` at ``initialize`` and :attr:`stateless` for the
    request being handled; :meth:`serving` / :meth:`stopped` bracket one connection.
    """

    def __init__(self) -> None:
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
            entry.done.set()

    def read_lines(self, stdin: IO[Any], inbox: queue.Queue) -> None:
        """Reader thread body: route responses to waiting requests, queue every other line,
        and put ``None`` at end of input (or when the stream fails)."""
        try:
            while True:
                line = stdin.readline()
                if not line:
                    break
                if not self._route(line):
                    inbox.put(line)
        except (OSError, ValueError) as exc:  # the stream was closed under us
            self._log(f"reading input failed: {type(exc).__name__}: {exc}")
        finally:
            self.stopped("the client closed the connection (end of input)")
            inbox.put(None)

    def _route(self, line: str | bytes) -> bool:
        """Deliver ``line`` when it is the response to a pending request of ours."""
        with self._lock:
            if not self._pending:
                return False
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            return False
        if not isinstance(message, dict) or "method" in message or not ("result" in message or "error" in message):
            return False
        request_id = message.get("id")
        with self._lock:
            entry = self._pending.pop(request_id, None) if isinstance(request_id, str) else None
        if entry is None:
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
                object, or the connection is closed.
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
            if entry.response is None:
                self._log(f"{method} {request_id}: no answer in {timeout_s:.3g} s; cancelled")
                write({"jsonrpc": "2.0", "method": "notifications/cancelled",
                       "params": {"requestId": request_id, "reason": f"no answer in {timeout_s:.3g} s"}})
                raise ProviderTimeoutError(f"the client did not answer {method} in {timeout_s:.3g} s", stage=_STAGE)
        response = entry.response
        if response is None:
            raise ProviderError(f"{method} was not answered: {self._closed_reason}", stage=_STAGE)
        if "error" in response:
            error = response["error"] if isinstance(response["error"], dict) else {}
            raise ProviderError(f"the client answered {method} with error {error.get('code')!r}: {error.get('message')!r}", stage=_STAGE)
        result = response.get("result")
        if not isinstance(result, dict):
            raise ProviderError(f"the client's {method} result is not an object: {json.dumps(result)[:80]}", stage=_STAGE)
        return result
