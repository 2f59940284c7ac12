"""One HTTP attempt: the request and response types, the ``Transport`` port, urllib's transport.

A transport sends one request and returns whatever status came back; it never retries and
never raises for a non-2xx status. Retries, deadlines and error mapping live one layer up in
:class:`~agentic_rag._http.client.JsonHttpClient`, so a recording or a test double only has to
implement ``send``.
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from agentic_rag._errors import InvalidInputError, ProviderError, ProviderTimeoutError
from agentic_rag._http.redaction import redact_headers, redact_url

__all__ = ["HttpAttempt", "HttpRequest", "HttpResponse", "Transport", "UrllibTransport"]

USER_AGENT = "agentic-rag (python urllib)"


def _header_tuple(headers: Mapping[str, str] | Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    items = headers.items() if isinstance(headers, Mapping) else headers
    return tuple((str(k), str(v)) for k, v in items)


@dataclass(frozen=True, slots=True, repr=False)
class HttpRequest:
    """One request as sent on the wire.

    Args:
        method: ``GET`` or ``POST`` (any token is passed through).
        url: Absolute ``http`` or ``https`` URL.
        headers: Header pairs; credentials are fine here, ``repr`` redacts them.
        body: The request body (empty for ``GET``).

    Raises:
        InvalidInputError: A URL that is not http(s).
    """

    method: str
    url: str
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""

    def __post_init__(self) -> None:
        if not isinstance(self.url, str) or not self.url.lower().startswith(("http://", "https://")):
            raise InvalidInputError(f"the URL must start with http:// or https://, got {redact_url(str(self.url))!r}", stage="http")
        object.__setattr__(self, "method", self.method.upper())
        object.__setattr__(self, "headers", _header_tuple(self.headers))

    def header(self, name: str) -> str | None:
        """Return the first value of header ``name`` (case-insensitive), or ``None``."""
        lowered = name.lower()
        return next((v for k, v in self.headers if k.lower() == lowered), None)

    def __repr__(self) -> str:
        return f"HttpRequest({self.method} {redact_url(self.url)}, headers={redact_headers(self.headers)!r}, {len(self.body)} bytes)"


@dataclass(frozen=True, slots=True)
class HttpResponse:
    """One response: status, headers (names lower-cased) and the raw body bytes."""

    status: int
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""

    def header(self, name: str) -> str | None:
        """Return the first value of header ``name`` (case-insensitive), or ``None``."""
        lowered = name.lower()
        return next((v for k, v in self.headers if k.lower() == lowered), None)

    def json(self) -> Any:
        """Parse the body as JSON.

        Raises:
            ValueError: The body is not JSON (callers map it to ``ProviderError``).
        """
        return json.loads(self.body.decode("utf-8"))


@dataclass(frozen=True, slots=True)
class HttpAttempt:
    """One attempt in a call's trace; holds no headers, so no credentials.

    Args:
        method: HTTP method.
        url: The URL with credentials redacted.
        status: HTTP status, or ``None`` when no response arrived.
        elapsed_s: Seconds the attempt took.
        retry_delay_s: Seconds waited before the next attempt (``None``: no retry followed).
        error: Short description of a failure (``""`` on success).
    """

    method: str
    url: str
    status: int | None
    elapsed_s: float
    retry_delay_s: float | None = None
    error: str = ""


@runtime_checkable
class Transport(Protocol):
    """Sends one HTTP request and returns the response, whatever its status."""

    def send(self, request: HttpRequest, timeout_s: float) -> HttpResponse:
        """Send ``request`` and wait at most ``timeout_s`` seconds per socket operation.

        Raises:
            ProviderTimeoutError: No answer in time.
            ProviderError: Connection refused, reset or otherwise failed.
        """
        ...


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    # A redirect would re-send credentials to wherever the Location header points.
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


class UrllibTransport:
    """The default transport: ``urllib.request`` with proxies from the environment.

    Redirects are not followed (the 3xx response is returned) so credentials are never sent
    to another host.

    Args:
        stage: Name used in error messages.
    """

    def __init__(self, *, stage: str = "http") -> None:
        self.stage = stage
        self._opener = urllib.request.build_opener(_NoRedirect())

    def send(self, request: HttpRequest, timeout_s: float) -> HttpResponse:
        """Send one request (see :class:`Transport`)."""
        req = urllib.request.Request(request.url, data=request.body or None, method=request.method)
        names = {k.lower() for k, _ in request.headers}
        for name, value in request.headers:
            req.add_header(name, value)
        if "user-agent" not in names:
            req.add_header("User-Agent", USER_AGENT)
        where = f"{request.method} {redact_url(request.url)}"
        try:
            with self._opener.open(req, timeout=timeout_s) as resp:
                body = resp.read()
                return HttpResponse(resp.status, _lower(resp.headers.items()), body)
        except urllib.error.HTTPError as exc:
            try:
                body = exc.read()
            except (OSError, http.client.HTTPException):
                body = b""
            finally:
                exc.close()
            return HttpResponse(exc.code, _lower(exc.headers.items() if exc.headers else ()), body)
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise ProviderTimeoutError(f"{where} did not answer within {timeout_s:.3g} s", stage=self.stage) from None
            raise ProviderError(f"{where} failed to connect: {exc.reason}", stage=self.stage) from None
        except TimeoutError:
            raise ProviderTimeoutError(f"{where} did not answer within {timeout_s:.3g} s", stage=self.stage) from None
        except (OSError, http.client.HTTPException) as exc:
            raise ProviderError(f"{where} failed: {type(exc).__name__}: {exc}", stage=self.stage) from None

    def __repr__(self) -> str:
        return "UrllibTransport()"


def _lower(items: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple((k.lower(), v) for k, v in items)
