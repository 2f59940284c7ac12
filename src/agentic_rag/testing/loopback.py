"""The loopback HTTP server every fake provider builds on, and the faults it can play.

A :class:`LoopbackServer` listens on ``127.0.0.1`` on a free port, runs in a daemon thread,
records every request it receives (bounded), and serves them through :meth:`route`, which
each provider's server implements in that provider's wire format. Before routing, it plays
the next scripted :class:`Fault`, if any: an error status in the provider's own error shape
(with ``Retry-After`` if asked), a slow answer, malformed JSON, or a dropped connection.
Use it as a context manager; leaving the ``with`` block stops the server and cuts short any
slow answer still waiting.
"""

from __future__ import annotations

import collections
import hashlib
import http.server
import json
import math
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agentic_rag._errors import InvalidInputError

__all__ = ["Fault", "LoopbackServer", "RecordedRequest", "Reply", "hashed_embedding", "json_reply", "tokens"]

_TOKEN_RE = re.compile(r"\w+", re.UNICODE)


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens, as the fake servers score text."""
    return _TOKEN_RE.findall(text.lower())


def hashed_embedding(text: str, dim: int = 16) -> list[float]:
    """A deterministic bag-of-words vector: each token adds 1 to a SHA-256-chosen slot, then
    the vector is L2-normalised (texts sharing words get similar vectors)."""
    vector = [0.0] * dim
    for token in tokens(text):
        vector[int.from_bytes(hashlib.sha256(token.encode("utf-8")).digest()[:4], "big") % dim] += 1.0
    norm = math.sqrt(sum(x * x for x in vector))
    if norm == 0.0:
        vector[0] = 1.0
        return vector
    return [round(x / norm, 6) for x in vector]


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """A request the server received: method, path (with query), headers, body."""

    method: str
    path: str
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def header(self, name: str) -> str | None:
        """Return the first value of header ``name`` (case-insensitive), or ``None``."""
        lowered = name.lower()
        return next((v for k, v in self.headers if k == lowered), None)

    def json(self) -> Any:
        """Parse the body as JSON (raises ``ValueError`` when it is not)."""
        return json.loads(self.body.decode("utf-8"))


@dataclass(frozen=True, slots=True)
class Reply:
    """What the server sends back."""

    status: int
    body: bytes
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "application/json"),)


def json_reply(data: Any, status: int = 200, headers: Sequence[tuple[str, str]] = ()) -> Reply:
    """Return a JSON reply with a compact, key-sorted body (byte-stable across runs)."""
    body = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return Reply(status, body, (("Content-Type", "application/json"), *headers))


@dataclass(frozen=True, slots=True)
class Fault:
    """One scripted misbehaviour, consumed by the next request.

    Args:
        status: Answer this status with an error body in the provider's format.
        message: The error message in that body.
        retry_after: Value of a ``Retry-After`` header (seconds or an HTTP-date).
        delay_s: Wait this long before answering (past the client's timeout: a timeout).
        malformed: Answer 200 with a body that is not valid JSON.
        disconnect: Close the connection without answering.
    """

    status: int | None = None
    message: str = "scripted fault"
    retry_after: str | None = None
    delay_s: float = 0.0
    malformed: bool = False
    disconnect: bool = False

    @classmethod
    def http(cls, status: int, message: str = "scripted fault", *, retry_after: str | float | None = None) -> Fault:
        """An error status (``retry_after`` adds a ``Retry-After`` header)."""
        return cls(status=status, message=message, retry_after=None if retry_after is None else str(retry_after))

    @classmethod
    def slow(cls, delay_s: float) -> Fault:
        """Answer normally, but only after ``delay_s`` seconds."""
        return cls(delay_s=delay_s)

    @classmethod
    def malformed_json(cls) -> Fault:
        """Answer 200 with a truncated JSON body."""
        return cls(malformed=True)

    @classmethod
    def drop(cls) -> Fault:
        """Close the connection without an answer."""
        return cls(disconnect=True)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that timed out and left is expected here; nothing to report.
        pass


class LoopbackServer:
    """Base of the fake provider servers (subclasses implement :meth:`route` and
    :meth:`error_body`).

    Args:
        faults: Faults played by the first requests, in order.
        max_recorded: How many received requests are kept (oldest dropped first).
    """

    def __init__(self, *, faults: Sequence[Fault] = (), max_recorded: int = 1000) -> None:
        self._faults: collections.deque[Fault] = collections.deque(faults)
        self._requests: collections.deque[RecordedRequest] = collections.deque(maxlen=max_recorded)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------
    def start(self) -> LoopbackServer:
        """Start listening (idempotent); returns ``self``."""
        if self._httpd is not None:
            return self
        self._stop.clear()
        self._httpd = _Server(("127.0.0.1", 0), _handler_for(self))
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the server and release its socket (idempotent)."""
        self._stop.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> LoopbackServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def root(self) -> str:
        """``http://127.0.0.1:<port>``.

        Raises:
            InvalidInputError: The server is not running.
        """
        if self._httpd is None:
            raise InvalidInputError(f"{type(self).__name__} is not running; use it in a with block", stage="testing")
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    @property
    def url(self) -> str:
        """The base URL a client is configured with (subclasses add a path)."""
        return self.root

    # -- scripting and inspection ------------------------------------------------------
    def add_faults(self, *faults: Fault) -> None:
        """Queue faults for the next requests."""
        with self._lock:
            self._faults.extend(faults)

    @property
    def requests(self) -> tuple[RecordedRequest, ...]:
        """Requests received so far, oldest first."""
        with self._lock:
            return tuple(self._requests)

    def route(self, request: RecordedRequest) -> Reply:
        """Answer a request in the provider's wire format (implemented by subclasses)."""
        raise NotImplementedError

    def error_body(self, status: int, message: str) -> Any:
        """The provider's JSON error object for ``status`` (subclasses override)."""
        return {"error": {"message": message, "code": status}}

    def error(self, status: int, message: str, headers: Sequence[tuple[str, str]] = ()) -> Reply:
        """A JSON error reply in the provider's format."""
        return json_reply(self.error_body(status, message), status, headers)

    # -- called by the handler thread --------------------------------------------------
    def _serve(self, request: RecordedRequest) -> Reply | None:
        with self._lock:
            self._requests.append(request)
            fault = self._faults.popleft() if self._faults else None
        if fault is not None:
            if fault.delay_s and self._stop.wait(fault.delay_s):
                return None
            if fault.disconnect:
                return None
            if fault.malformed:
                return Reply(200, b'{"truncated": [1, 2')
            if fault.status is not None:
                extra = (("Retry-After", fault.retry_after),) if fault.retry_after is not None else ()
                return self.error(fault.status, fault.message, extra)
        try:
            return self.route(request)
        except Exception as exc:  # a bug in a fake server must show up as a 500, not a hang
            return self.error(500, f"fake server error: {type(exc).__name__}: {exc}")


def _handler_for(server: LoopbackServer) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def _dispatch(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = tuple((k.lower(), v) for k, v in self.headers.items())
            reply = server._serve(RecordedRequest(self.command, self.path, headers, body))
            if reply is None:
                self.close_connection = True
                return
            try:
                self.send_response(reply.status)
                for name, value in reply.headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)
            except OSError:
                pass  # the client gave up (timeout) before the answer

        do_GET = do_POST = do_PUT = do_DELETE = _dispatch

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler
