"""Record every HTTP exchange to JSONL and replay it offline, byte for byte.

:class:`RecordingTransport` wraps any :class:`~agentic_rag.llm.Transport`, so it works for
chat, embedding and search clients alike (pass it as ``http=HttpOptions(transport=...)``). Each line of
the file holds one exchange keyed by the SHA-256 of the canonical request: method, URL and
headers with credentials removed (so a different key replays the same recording), and the
body with JSON canonicalised. Replaying serves recorded responses for a key in the order they
were recorded, repeating the last one; a retryable failure (429, 5xx) that was followed by
another answer to the same request is skipped, so a replay does not wait out old retries.
A request missing from the recording fails with :class:`~agentic_rag._errors.ProviderError`.

The whole file is rewritten to a temporary name and ``os.replace``-d after each exchange, so
a crash never leaves a half-written recording (recordings are test fixtures, not logs).
"""

from __future__ import annotations

import base64
import enum
import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Any

from agentic_rag._contracts.validation import require_enum
from agentic_rag._errors import IndexFormatError, InvalidInputError, ProviderError
from agentic_rag._files import atomic_write
from agentic_rag._http.redaction import SECRET_HEADERS, redact_headers, redact_url, scrub, secret_values
from agentic_rag._http.retry import is_retryable_status
from agentic_rag._http.transport import HttpRequest, HttpResponse, Transport, UrllibTransport

__all__ = ["RecordMode", "RecordingTransport", "canonical_request", "request_key"]

# Headers that change between runs without changing what is asked.
_VOLATILE_HEADERS = frozenset({"accept-encoding", "connection", "content-length", "host", "user-agent"})


class RecordMode(str, enum.Enum):
    """What a :class:`RecordingTransport` does with each request."""

    RECORD = "record"  # send every request and record it (starting a fresh file)
    REPLAY = "replay"  # answer only from the recording, never touching the network
    AUTO = "auto"  # replay what is recorded, send and record the rest


def _canonical_body(body: bytes, secrets: tuple[str, ...]) -> str:
    text = body.decode("utf-8", errors="surrogateescape")
    try:
        text = json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    except ValueError:
        lines = text.splitlines()
        try:  # NDJSON (Elasticsearch _bulk)
            text = "\n".join(json.dumps(json.loads(line), sort_keys=True, ensure_ascii=False, separators=(",", ":")) for line in lines if line.strip())
        except ValueError:
            pass
    return scrub(text, secrets)


def canonical_request(request: HttpRequest) -> dict[str, Any]:
    """Return the request as the recording sees it: credentials removed, JSON canonical."""
    secrets = secret_values(request.headers)
    headers = [[k, v] for k, v in redact_headers(request.headers) if k not in SECRET_HEADERS and k not in _VOLATILE_HEADERS]
    return {
        "method": request.method,
        "url": redact_url(request.url),
        "headers": headers,
        "body": _canonical_body(request.body, secrets),
    }


def request_key(request: HttpRequest) -> str:
    """Return the SHA-256 hex digest of :func:`canonical_request`."""
    canonical = json.dumps(canonical_request(request), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8", errors="surrogateescape")).hexdigest()


def _encode_response(response: HttpResponse) -> dict[str, Any]:
    out: dict[str, Any] = {
        "status": response.status,
        "headers": [[k, v] for k, v in response.headers if k.lower() not in SECRET_HEADERS],
    }
    try:
        out["body"] = response.body.decode("utf-8")
    except UnicodeDecodeError:
        out["body_b64"] = base64.b64encode(response.body).decode("ascii")
    return out


def _decode_response(data: Any, where: str) -> HttpResponse:
    try:
        body = data["body"].encode("utf-8") if "body" in data else base64.b64decode(data["body_b64"])
        return HttpResponse(int(data["status"]), tuple((str(k), str(v)) for k, v in data["headers"]), body)
    except (KeyError, TypeError, ValueError) as exc:
        raise IndexFormatError(f"{where}: malformed recorded response ({exc})", stage="recording") from None


class RecordingTransport:
    """Records or replays the exchanges of any transport.

    Args:
        path: The JSONL recording.
        mode: ``record``, ``replay`` or ``auto`` (see :class:`RecordMode`).
        inner: The transport that really sends (default urllib); unused when replaying.

    Raises:
        InvalidInputError: An unknown mode.
        IndexFormatError: The recording exists but is not valid JSONL (replay and auto).
    """

    def __init__(self, path: str | os.PathLike[str], *, mode: RecordMode | str = RecordMode.REPLAY, inner: Transport | None = None) -> None:
        self.mode = require_enum(RecordMode, mode, "mode", stage="recording")
        self.path = Path(path)
        self.inner: Transport = inner if inner is not None else UrllibTransport(stage="recording")
        self._lock = threading.Lock()
        self._entries: list[dict[str, Any]] = [] if self.mode is RecordMode.RECORD else self._load()
        self._queues = self._build_queues(self._entries)
        self._cursor: dict[str, int] = {}

    def _load(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            if self.mode is RecordMode.REPLAY:
                raise InvalidInputError(f"no recording at {self.path}; record one first with mode='record'", stage="recording")
            return []
        entries = []
        with self.path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    entry = json.loads(line)
                    _ = entry["key"], entry["response"]
                except (ValueError, KeyError, TypeError) as exc:
                    raise IndexFormatError(f"{self.path}:{number}: not a recorded exchange ({exc})", stage="recording") from None
                entries.append(entry)
        return entries

    @staticmethod
    def _build_queues(entries: list[dict[str, Any]]) -> dict[str, list[HttpResponse]]:
        grouped: dict[str, list[HttpResponse]] = {}
        for i, entry in enumerate(entries):
            grouped.setdefault(entry["key"], []).append(_decode_response(entry["response"], f"entry {i + 1}"))
        for key, responses in grouped.items():
            kept = [r for j, r in enumerate(responses) if j == len(responses) - 1 or not is_retryable_status(r.status)]
            grouped[key] = kept
        return grouped

    def send(self, request: HttpRequest, timeout_s: float) -> HttpResponse:
        """Replay the recorded answer to ``request`` or send it and record the answer.

        Raises:
            ProviderError: Replay mode and the request was not recorded.
            ProviderTimeoutError: The inner transport timed out (nothing is recorded).
        """
        key = request_key(request)
        if self.mode is not RecordMode.RECORD:
            with self._lock:
                queue = self._queues.get(key)
                if queue:
                    position = self._cursor.get(key, 0)
                    self._cursor[key] = position + 1
                    return queue[min(position, len(queue) - 1)]
            if self.mode is RecordMode.REPLAY:
                missing = ProviderError(
                    f"{request.method} {redact_url(request.url)} was not recorded in {self.path.name} (request key {key[:12]}); "
                    "record it with mode='record' or 'auto'",
                    stage="recording",
                )
                missing.retryable = False  # type: ignore[attr-defined]
                raise missing
        response = self.inner.send(request, timeout_s)
        entry = {"key": key, "request": canonical_request(request), "response": _encode_response(response)}
        with self._lock:
            self._entries.append(entry)
            self._write()
        return response

    def _write(self) -> None:
        lines = [(json.dumps(entry, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8") for entry in self._entries]
        atomic_write(self.path, lines, mode=0o600)  # private, as the temporary file it replaces was

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def __repr__(self) -> str:
        return f"RecordingTransport({self.path.name!r}, mode={self.mode.value!r}, entries={len(self)})"
