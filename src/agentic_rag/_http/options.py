"""``HttpOptions``: the one object every HTTP-speaking client takes as ``http=``.

A client (chat model, embedder, search retriever) used to repeat six keyword arguments for
its HTTP layer. They live here now, in one frozen value that can be built once and shared::

    options = HttpOptions(transport=RecordingTransport("calls.jsonl", mode="auto"), retry=RetryPolicy(max_retries=1))
    llm = OpenAICompatibleLLM(base_url, model, http=options)
    embedder = OpenAIEmbedder(base_url, "text-embedding-3-small", http=options)

``timeout_s`` and ``max_retries`` stay on every client as the two everyday shortcuts (giving
one both there and in ``http=`` is refused, since one of them would be ignored). The former
keywords ``retry=``, ``transport=``, ``sleep=`` and ``rng=`` still work for one release with a
``DeprecationWarning`` naming the replacement; :func:`build_client` applies all of it.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import InvalidInputError
from agentic_rag._http.client import JsonHttpClient
from agentic_rag._http.retry import RetryPolicy, positive_number
from agentic_rag._http.transport import HttpAttempt, Transport

__all__ = ["LEGACY_HTTP_KEYWORDS", "HttpBacked", "HttpOptions", "build_client"]

#: The keyword arguments ``http=`` replaced; accepted (with a DeprecationWarning) for one release.
LEGACY_HTTP_KEYWORDS = ("retry", "transport", "sleep", "rng")


@dataclass(frozen=True, slots=True)
class HttpOptions:
    """How a client speaks HTTP: per-attempt timeout, retry policy, transport, and test hooks.

    Every field is optional; ``None`` keeps the client's default.

    Args:
        timeout_s: Timeout of one attempt, capped by the run's deadline (default: 60 s for
            model and embedding clients, 30 s for search retrievers).
        retry: When and how long to retry (default ``RetryPolicy()``: 3 retries on
            408/409/425/429/5xx, timeouts and connection errors, full-jitter backoff).
        transport: Sends one attempt (default urllib with the environment's proxies; pass a
            :class:`~agentic_rag.llm.recording.RecordingTransport` to record or replay, or a
            test double).
        sleep: Waits between attempts (tests pass a no-op).
        rng: Jitter source for the backoff (for reproducible waits).

    Raises:
        InvalidInputError: A field of the wrong type, or a timeout that is not above 0.
    """

    timeout_s: float | None = None
    retry: RetryPolicy | None = None
    transport: Transport | None = None
    sleep: Callable[[float], None] | None = None
    rng: random.Random | None = None

    def __post_init__(self) -> None:
        if self.timeout_s is not None:
            object.__setattr__(self, "timeout_s", positive_number(self.timeout_s, "HttpOptions.timeout_s"))
        _check_type(self.retry, RetryPolicy, "HttpOptions.retry", "a RetryPolicy")
        _check_type(self.transport, Transport, "HttpOptions.transport", "a Transport (an object with send(request, timeout_s))")
        _check_type(self.rng, random.Random, "HttpOptions.rng", "a random.Random")
        if self.sleep is not None and not callable(self.sleep):
            raise InvalidInputError(f"HttpOptions.sleep must be callable, got {type(self.sleep).__name__}", stage="http")


def _check_type(value: object, kind: type, name: str, expected: str) -> None:
    if value is not None and not isinstance(value, kind):
        raise InvalidInputError(f"{name} must be None or {expected}, got {type(value).__name__}", stage="http")


def build_client(
    owner: str,
    *,
    stage: str,
    http: HttpOptions | None,
    timeout_s: float | None,
    max_retries: int | None,
    default_timeout_s: float,
    legacy: Mapping[str, Any] | None = None,
    stacklevel: int = 3,
) -> JsonHttpClient:
    """Return the JSON HTTP client of one client object, from its constructor arguments.

    Args:
        owner: The class name errors and warnings name (``"OpenAICompatibleLLM"``).
        stage: The owner's error stage.
        http: The ``http=`` argument.
        timeout_s: The ``timeout_s`` shortcut (``None``: not given).
        max_retries: The ``max_retries`` shortcut (``None``: not given).
        default_timeout_s: The owner's timeout when neither the shortcut nor ``http`` sets one.
        legacy: Any other keyword arguments the owner received (the former HTTP keywords).
        stacklevel: Frames between the warning and the user's call.

    Returns:
        The client, built once.

    Raises:
        TypeError: An unknown keyword argument (as Python would raise it).
        InvalidInputError: ``http`` of the wrong type, a setting given twice, or a bad value.
    """
    options = _merge_legacy(owner, http, dict(legacy or {}), stacklevel + 1)
    if timeout_s is not None and options.timeout_s is not None:
        raise InvalidInputError(f"{owner} got timeout_s={timeout_s!r} and http.timeout_s={options.timeout_s!r}; give the timeout once", stage=stage)
    if max_retries is not None:
        require_int(max_retries, "max_retries", minimum=0, stage=stage)
        if options.retry is not None:
            raise InvalidInputError(f"{owner} got max_retries={max_retries!r} and http.retry; set RetryPolicy(max_retries=...) in http.retry instead", stage=stage)
    timeout = timeout_s if timeout_s is not None else options.timeout_s if options.timeout_s is not None else default_timeout_s
    retry = options.retry if options.retry is not None else RetryPolicy(max_retries=3 if max_retries is None else max_retries)
    return JsonHttpClient(stage=stage, timeout_s=timeout, retry=retry, transport=options.transport, sleep=options.sleep, rng=options.rng)


def _merge_legacy(owner: str, http: HttpOptions | None, legacy: dict[str, Any], stacklevel: int) -> HttpOptions:
    unknown = sorted(name for name in legacy if name not in LEGACY_HTTP_KEYWORDS)
    if unknown:
        raise TypeError(f"{owner}() got an unexpected keyword argument {unknown[0]!r}")
    if http is not None and not isinstance(http, HttpOptions):
        raise InvalidInputError(f"http must be None or an HttpOptions, got {type(http).__name__}", stage="http")
    given = {name: value for name, value in legacy.items() if value is not None}
    if not given:
        return http if http is not None else HttpOptions()
    names = ", ".join(f"{name}=..." for name in given)
    if http is not None:
        raise InvalidInputError(f"{owner} got both http= and {names}; put them in http=HttpOptions({names})", stage="http")
    warnings.warn(f"{owner}({names}) is deprecated and will be removed in the next release; pass http=HttpOptions({names})",
                  DeprecationWarning, stacklevel=stacklevel)
    return HttpOptions(**given)



class HttpBacked:
    """Base of every client that owns a :class:`JsonHttpClient` (built by :func:`build_client`
    into ``_http``): gives it the ``attempts`` trace."""

    _http: JsonHttpClient

    @property
    def attempts(self) -> tuple[HttpAttempt, ...]:
        """Recent HTTP attempts of this client (bounded), oldest first."""
        return self._http.attempts
