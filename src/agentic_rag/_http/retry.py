"""When a failed HTTP attempt is worth sending again, and how long to wait first.

The one definition of the retryable statuses (408, 409, 425, 429 and every 5xx): the HTTP
client retries them, a recording replay skips the ones a later answer superseded, and the
LLM components fall back to their deterministic twin on them once the retries are spent.
"""

from __future__ import annotations

import email.utils
import random
import re
from dataclasses import dataclass

from agentic_rag._contracts.validation import require_int, require_number
from agentic_rag._http.transport import HttpResponse

__all__ = ["RETRYABLE_4XX", "RetryPolicy", "is_retryable_status", "parse_retry_after", "positive_number"]

#: The client errors that say "try again later" rather than "the request is wrong".
RETRYABLE_4XX = frozenset({408, 409, 425, 429})
# Error texts of request validation (pydantic/FastAPI, OpenAI-style servers): the request is
# wrong as sent, whatever the status says.
_INVALID_REQUEST_RE = re.compile(
    r"validation error|input should be|field required|extra inputs are not permitted|"
    r"\b(?:literal|missing|extra_forbidden|string_type|int_parsing|enum)_error\b|\[type=[a-z_]+",
    re.IGNORECASE,
)


def is_retryable_status(status: int) -> bool:
    """True for 408, 409, 425, 429 and every 5xx: statuses a later attempt may turn into a 2xx."""
    return status in RETRYABLE_4XX or 500 <= status <= 599


def positive_number(value: object, name: str, *, allow_zero: bool = False, stage: str = "http") -> float:
    """Return ``value`` as a float after checking it is a number above 0 (or at least 0).

    Raises:
        InvalidInputError: A bool, a non-number, or a number out of range.
    """
    if allow_zero:
        return require_number(value, name, minimum=0, stage=stage)
    return require_number(value, name, above=0, stage=stage)


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """When and how long to wait before trying again.

    Args:
        max_retries: Retries after the first attempt (0 disables retrying).
        base_delay_s: Backoff scale: retry ``n`` (from 0) waits uniform(0, base * 2**n).
        max_delay_s: Cap of one backoff wait.
        max_retry_after_s: A ``Retry-After`` longer than this is not waited for.
        retry_timeouts: Retry attempts that timed out.
        retry_connection_errors: Retry refused or reset connections.

    Raises:
        InvalidInputError: A negative count or delay.
    """

    max_retries: int = 3
    base_delay_s: float = 0.5
    max_delay_s: float = 20.0
    max_retry_after_s: float = 60.0
    retry_timeouts: bool = True
    retry_connection_errors: bool = True

    def __post_init__(self) -> None:
        require_int(self.max_retries, "RetryPolicy.max_retries", minimum=0, stage="http")
        for name in ("base_delay_s", "max_delay_s", "max_retry_after_s"):
            object.__setattr__(self, name, positive_number(getattr(self, name), f"RetryPolicy.{name}", allow_zero=True))

    @staticmethod
    def is_retryable_status(status: int) -> bool:
        """True for 408, 409, 425, 429 and every 5xx (see :func:`is_retryable_status`)."""
        return is_retryable_status(status)

    @staticmethod
    def says_request_invalid(message: str) -> bool:
        """True when an error message says the request itself failed validation (so the same
        request would fail again), whatever the status."""
        return _INVALID_REQUEST_RE.search(message) is not None

    @classmethod
    def is_retryable_response(cls, status: int, message: str) -> bool:
        """True for a retryable status whose error message does not call the request invalid."""
        return is_retryable_status(status) and not cls.says_request_invalid(message)

    def backoff_s(self, retry_index: int, rng: random.Random) -> float:
        """Return the full-jitter wait before retry ``retry_index`` (from 0)."""
        return rng.uniform(0.0, min(self.max_delay_s, self.base_delay_s * (2.0 ** retry_index)))


def parse_retry_after(response: HttpResponse, *, now: float) -> float | None:
    """Return the wait a response asks for, in seconds, or ``None`` when it asks for none.

    Reads ``retry-after-ms`` (OpenAI) first, then ``Retry-After`` as seconds or an HTTP-date
    (compared with ``now``, a POSIX timestamp). Past dates give 0.
    """
    millis = response.header("retry-after-ms")
    if millis:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = response.header("retry-after")
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - now)
