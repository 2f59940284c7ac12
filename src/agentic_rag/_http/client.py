"""The JSON HTTP client every model and search client uses: deadlines, retries with backoff, error mapping.

* The timeout of each attempt is the client's ``timeout_s`` capped by the time the current
  run has left (:func:`agentic_rag._budget.current_budget`), so no call outlives the run.
* 408, 409, 425, 429 and 5xx are retried (as are timeouts and connection failures), up to
  ``max_retries`` times, after ``Retry-After`` (seconds, HTTP-date, or OpenAI's
  ``retry-after-ms``) or else an exponential backoff with full jitter; a wait the deadline
  cannot afford ends the retries. Other 4xx fail at once, and so does any status whose body
  says the request itself is invalid (a validation error such as llama-cpp-python's 500
  "Input should be 'text' or 'json_object'"): sending it again cannot succeed.
* Every attempt is recorded (:class:`~agentic_rag._http.transport.HttpAttempt`): in the
  result, on the raised exception as ``.attempts``, and in the client's bounded ``attempts``.
* Failures become :class:`~agentic_rag._errors.ProviderHTTPError` (status plus the provider's
  own message), :class:`~agentic_rag._errors.ProviderTimeoutError` or
  :class:`~agentic_rag._errors.ProviderError`; credentials are scrubbed from every message.
"""

from __future__ import annotations

import collections
import json
import logging
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from agentic_rag._budget import current_budget
from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import BudgetExhaustedError, InvalidInputError, ProviderError, ProviderHTTPError, ProviderTimeoutError
from agentic_rag._http.redaction import redact_url, scrub, secret_values
from agentic_rag._http.retry import RetryPolicy, parse_retry_after, positive_number
from agentic_rag._http.transport import HttpAttempt, HttpRequest, HttpResponse, Transport, UrllibTransport

__all__ = ["HttpResult", "JsonHttpClient", "attempt_timeout", "provider_message"]

_LOG = logging.getLogger("agentic_rag.http")

_MAX_MESSAGE_CHARS = 500


def provider_message(body: bytes, secrets: Iterable[str] = ()) -> str:
    """Return the provider's own error text from an error body, credentials scrubbed.

    Understands OpenAI/llama.cpp/Anthropic/Google ``{"error": {"message"}}``, Ollama
    ``{"error": "..."}``, Elasticsearch ``{"error": {"reason", "root_cause"}}`` and FastAPI
    ``{"detail"}``; anything else is quoted (truncated).
    """
    text = body.decode("utf-8", errors="replace").strip()
    message = ""
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        err = data.get("error", data)
        if isinstance(err, str):
            message = err
        elif isinstance(err, dict):
            kind = err.get("type") or err.get("status") or ""
            detail = err.get("message") or err.get("reason") or err.get("detail") or ""
            causes = err.get("root_cause")
            if not detail and isinstance(causes, list) and causes and isinstance(causes[0], dict):
                detail = causes[0].get("reason", "")
            if not detail and "detail" in data:
                detail = data["detail"]
            message = f"{kind}: {detail}" if kind and detail else str(detail or kind)
    if not message:
        message = text or "(empty body)"
    message = " ".join(str(message).split())
    if len(message) > _MAX_MESSAGE_CHARS:
        message = message[:_MAX_MESSAGE_CHARS] + "..."
    return scrub(message, tuple(secrets))


def attempt_timeout(timeout_s: float, *, where: str, stage: str) -> float:
    """Return the timeout of one attempt: ``timeout_s`` capped by the time the run has left.

    Args:
        timeout_s: The client's own per-attempt timeout.
        where: What is about to be sent (for the error).
        stage: The stage the error names.

    Raises:
        BudgetExhaustedError: The run's deadline has already passed.
    """
    budget = current_budget()
    remaining = budget.remaining_s() if budget is not None else None
    if remaining is None:
        return timeout_s
    if remaining <= 0:
        raise BudgetExhaustedError(f"the run's deadline passed before {where}", reason="deadline", stage=stage)
    return min(timeout_s, remaining)


@dataclass(frozen=True, slots=True)
class HttpResult:
    """A successful call: status, headers, body, the parsed JSON and the attempts it took."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    data: Any
    attempts: tuple[HttpAttempt, ...]


class JsonHttpClient:
    """Sends JSON requests with a deadline-aware timeout, retries and a trace of attempts.

    Args:
        stage: Name used in errors and logs (for example ``"openai"``).
        timeout_s: Timeout of one attempt before the run's deadline caps it.
        retry: The retry policy.
        transport: Sends one attempt (default :class:`UrllibTransport`; pass a
            :class:`~agentic_rag.llm.recording.RecordingTransport` to record or replay).
        sleep: Waits between attempts (injectable so tests never sleep).
        rng: Jitter source (injectable for reproducible waits).
        clock: Monotonic clock for elapsed times.
        wall_clock: POSIX time, to read ``Retry-After`` dates.
        trace_limit: How many recent attempts ``attempts`` keeps.

    Raises:
        InvalidInputError: A non-positive timeout or trace limit.
    """

    def __init__(
        self,
        *,
        stage: str = "http",
        timeout_s: float = 60.0,
        retry: RetryPolicy | None = None,
        transport: Transport | None = None,
        sleep: Callable[[float], None] | None = None,
        rng: random.Random | None = None,
        clock: Callable[[], float] | None = None,
        wall_clock: Callable[[], float] | None = None,
        trace_limit: int = 256,
    ) -> None:
        self.stage = stage
        self.timeout_s = positive_number(timeout_s, "timeout_s", stage=stage)
        self.retry = retry if retry is not None else RetryPolicy()
        if not isinstance(self.retry, RetryPolicy):
            raise InvalidInputError(f"retry must be a RetryPolicy, got {type(self.retry).__name__}", stage=stage)
        self.transport: Transport = transport if transport is not None else UrllibTransport(stage=stage)
        self._sleep = sleep or time.sleep
        self._rng = rng or random.Random()
        self._clock = clock or time.monotonic
        self._wall_clock = wall_clock or time.time
        require_int(trace_limit, "trace_limit", minimum=1, stage=stage)
        self._trace: collections.deque[HttpAttempt] = collections.deque(maxlen=trace_limit)
        self._lock = threading.Lock()

    @property
    def attempts(self) -> tuple[HttpAttempt, ...]:
        """The most recent attempts of every call, oldest first (bounded by ``trace_limit``)."""
        with self._lock:
            return tuple(self._trace)

    def post_json(self, url: str, payload: Any, *, headers: Mapping[str, str] | None = None) -> HttpResult:
        """POST ``payload`` as JSON and parse the JSON answer (see :meth:`request`)."""
        body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return self.request("POST", url, headers=headers, body=body, content_type="application/json")

    def request(
        self,
        method: str,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        body: bytes = b"",
        content_type: str | None = None,
        expect_json: bool = True,
    ) -> HttpResult:
        """Send a request, retrying what is worth retrying, and return the 2xx result.

        Args:
            method: HTTP method.
            url: Absolute URL.
            headers: Extra headers (credentials included; they never reach a trace).
            body: Request body.
            content_type: ``Content-Type`` of ``body``.
            expect_json: Parse the 2xx body as JSON into ``HttpResult.data``.

        Returns:
            The successful result with every attempt it took.

        Raises:
            ProviderHTTPError: A non-retryable status, or a retryable one after the retries.
            ProviderTimeoutError: The last attempt timed out.
            ProviderError: Connection failures, or a 2xx body that is not JSON.
            BudgetExhaustedError: The run's deadline has passed before an attempt.
        """
        pairs = dict(headers or {})
        pairs.setdefault("Accept", "application/json")
        if content_type:
            pairs["Content-Type"] = content_type
        request = HttpRequest(method, url, tuple(pairs.items()), body)
        secrets = secret_values(request.headers)
        shown_url = redact_url(url)
        where = f"{request.method} {shown_url}"
        attempts: list[HttpAttempt] = []
        retry_index = 0
        while True:
            timeout = attempt_timeout(self.timeout_s, where=where, stage=self.stage)
            started = self._clock()
            retry_after: float | None = None
            status: int | None = None
            try:
                response = self.transport.send(request, timeout)
            except ProviderError as exc:
                kind: type[ProviderError] = type(exc)
                detail = scrub(exc.message, secrets)
                retryable = self.retry.retry_timeouts if isinstance(exc, ProviderTimeoutError) else self.retry.retry_connection_errors
                # A transport can mark a failure as final (a replay that has no recording).
                retryable = retryable and getattr(exc, "retryable", True)
            else:
                status = response.status
                if 200 <= status < 300:
                    return self._success(request, response, attempts, started, expect_json, secrets)
                kind = ProviderHTTPError
                message = provider_message(response.body, secrets)
                detail = f"{where}: {message}"
                retryable = RetryPolicy.is_retryable_response(status, message)
                retry_after = parse_retry_after(response, now=self._wall_clock())
            delay, note = self._retry_delay(retryable, retry_index, retry_after)
            shown = f"HTTP {status}: {detail}" if status is not None else detail
            self._record(HttpAttempt(request.method, shown_url, status, self._clock() - started, delay, shown), attempts)
            if delay is None:
                message = f"{detail} ({note})" if note else detail
                failure = ProviderHTTPError(message, status=status, stage=self.stage) if status is not None else kind(message, stage=self.stage)
                failure.attempts = tuple(attempts)  # type: ignore[attr-defined]
                raise failure
            _LOG.info("%s: attempt %d failed (%s); retrying in %.2f s", self.stage, len(attempts), shown, delay)
            self._sleep(delay)
            retry_index += 1

    def _retry_delay(self, retryable: bool, retry_index: int, retry_after: float | None) -> tuple[float | None, str]:
        if not retryable:
            return None, ""
        if retry_index >= self.retry.max_retries:
            return None, f"gave up after {retry_index + 1} attempts" if self.retry.max_retries else ""
        if retry_after is not None:
            if retry_after > self.retry.max_retry_after_s:
                return None, f"Retry-After {retry_after:.3g} s exceeds the {self.retry.max_retry_after_s:.3g} s the policy waits"
            delay = retry_after
        else:
            delay = self.retry.backoff_s(retry_index, self._rng)
        budget = current_budget()
        remaining = budget.remaining_s() if budget is not None else None
        if remaining is not None and delay >= remaining:
            return None, f"not retried: waiting {delay:.3g} s would pass the run's deadline ({remaining:.3g} s left)"
        return delay, ""

    def _success(
        self,
        request: HttpRequest,
        response: HttpResponse,
        attempts: list[HttpAttempt],
        started: float,
        expect_json: bool,
        secrets: tuple[str, ...],
    ) -> HttpResult:
        shown_url = redact_url(request.url)
        data: Any = None
        error = ""
        if expect_json:
            try:
                data = response.json()
            except (ValueError, UnicodeDecodeError):
                snippet = scrub(response.body[:120].decode("utf-8", errors="replace"), secrets)
                error = f"{request.method} {shown_url} returned malformed JSON (status {response.status}): {snippet!r}"
        self._record(HttpAttempt(request.method, shown_url, response.status, self._clock() - started, None, error), attempts)
        if error:
            failure = ProviderError(error, stage=self.stage)
            failure.attempts = tuple(attempts)  # type: ignore[attr-defined]
            raise failure
        return HttpResult(response.status, response.headers, response.body, data, tuple(attempts))

    def _record(self, attempt: HttpAttempt, attempts: list[HttpAttempt]) -> None:
        attempts.append(attempt)
        with self._lock:
            self._trace.append(attempt)
        _LOG.debug("%s: %s %s -> %s in %.3f s", self.stage, attempt.method, attempt.url, attempt.status, attempt.elapsed_s)

    def __repr__(self) -> str:
        return f"JsonHttpClient(stage={self.stage!r}, timeout_s={self.timeout_s}, max_retries={self.retry.max_retries})"

