"""Base URLs as the clients keep them: http(s) only, no trailing slash, no pasted endpoint."""

from __future__ import annotations

from collections.abc import Sequence

from agentic_rag._errors import InvalidInputError
from agentic_rag._http.redaction import redact_url

__all__ = ["normalise_base_url"]


def normalise_base_url(url: str, *, strip_suffixes: Sequence[str] = (), stage: str = "http") -> str:
    """Return ``url`` without trailing slashes or a pasted endpoint suffix.

    Args:
        url: The base URL as the user gave it (``http://localhost:8080/v1/chat/completions/``).
        strip_suffixes: Endpoint paths a user may paste by mistake, removed from the end.
        stage: The stage errors name.

    Returns:
        The base URL the client appends its endpoint paths to.

    Raises:
        InvalidInputError: Not an http(s) URL (shown with its credentials redacted).
    """
    if not isinstance(url, str) or not url.lower().startswith(("http://", "https://")):
        raise InvalidInputError(f"base_url must start with http:// or https://, got {redact_url(str(url))!r}", stage=stage)
    url = url.rstrip("/")
    for suffix in strip_suffixes:
        if url.endswith(suffix):
            url = url[: -len(suffix)].rstrip("/")
    return url
