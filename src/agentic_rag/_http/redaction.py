"""Keeping credentials out of reprs, logs, exceptions, traces and recordings.

A key is held in a :class:`Secret`, whose ``repr`` and ``str`` never show the value; it is
only revealed when the request headers are built. Every URL that reaches a trace or an error
goes through :func:`redact_url`, every header list through :func:`redact_headers`, and every
provider message through :func:`scrub` with the secrets the client knows.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterable, Sequence

__all__ = ["REDACTED", "SECRET_HEADERS", "SECRET_QUERY_PARAMS", "Secret", "bearer_headers", "redact_headers", "redact_url", "scrub", "secret_values"]

REDACTED = "<redacted>"

# Lower-case header names whose values are credentials in the APIs we speak.
SECRET_HEADERS = frozenset({
    "api-key",
    "authorization",
    "cookie",
    "proxy-authorization",
    "set-cookie",
    "x-api-key",
    "x-goog-api-key",
})

# Query parameters that carry credentials (Google's ``key``, presigned URLs...).
SECRET_QUERY_PARAMS = frozenset({
    "access_token",
    "api-key",
    "api_key",
    "apikey",
    "key",
    "sig",
    "signature",
    "token",
    "x-amz-credential",
    "x-amz-security-token",
    "x-amz-signature",
})


class Secret:
    """A credential that never prints.

    Args:
        value: The secret text (an API key or bearer token).
    """

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """Return the secret itself (only to build a request header)."""
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __repr__(self) -> str:
        return "Secret(<redacted>)"

    __str__ = __repr__

    def __reduce__(self) -> tuple:
        # Pickling would copy the value into places we cannot scrub (queues, caches).
        raise TypeError("a Secret cannot be pickled")


def bearer_headers(token: Secret | str) -> dict[str, str]:
    """Return ``{"Authorization": "Bearer <token>"}``, or no header for an empty token (local
    servers that want no key)."""
    value = token.reveal() if isinstance(token, Secret) else token
    return {"Authorization": f"Bearer {value}"} if value else {}


def redact_url(url: str) -> str:
    """Return ``url`` without user info and with credential query parameters blanked."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return REDACTED
    netloc = parts.netloc.rsplit("@", 1)[-1]
    query = parts.query
    if query:
        pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
        query = urllib.parse.urlencode(
            [(k, REDACTED if k.lower() in SECRET_QUERY_PARAMS else v) for k, v in pairs], safe="<>"
        )
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def redact_headers(headers: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """Return the headers, names lower-cased and sorted, credential values replaced."""
    out = [(name.lower(), REDACTED if name.lower() in SECRET_HEADERS else value) for name, value in headers]
    return tuple(sorted(out))


def secret_values(headers: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """Return the credential values inside ``headers`` (and their token part after a scheme).

    ``Authorization: Bearer abc`` yields both ``"Bearer abc"`` and ``"abc"`` so either form
    can be scrubbed from a provider's error message.
    """
    found: list[str] = []
    for name, value in headers:
        if name.lower() not in SECRET_HEADERS or not value:
            continue
        found.append(value)
        scheme, _, token = value.partition(" ")
        if token and scheme.isalpha():
            found.append(token.strip())
    return tuple(v for v in found if len(v) >= 4)


def scrub(text: str, secrets: Sequence[str]) -> str:
    """Return ``text`` with every occurrence of each secret replaced by ``<redacted>``."""
    for value in sorted(set(secrets), key=len, reverse=True):
        if value:
            text = text.replace(value, REDACTED)
    return _BEARER_RE.sub(r"\1" + REDACTED, text)


# A provider echoing "Bearer <token>" back is scrubbed even when we did not send it.
_BEARER_RE = re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{8,}")
