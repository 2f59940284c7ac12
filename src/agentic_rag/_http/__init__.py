"""The HTTP layer under every model, embedding and search client (private).

Layers, bottom up; ``agentic_rag.llm`` and ``agentic_rag.providers`` both import from here and
never from each other for HTTP:

* :mod:`.redaction`: :class:`Secret`, URL and header redaction, scrubbing of messages.
* :mod:`.transport`: the request/response/attempt types and the one-attempt ``Transport`` port
  (urllib's, with the environment's proxies and no redirects).
* :mod:`.retry`: the retryable statuses (defined once), :class:`RetryPolicy`, ``Retry-After``.
* :mod:`.client`: :class:`JsonHttpClient`: deadlines, retries, error mapping, attempt traces.
* :mod:`.options`: :class:`HttpOptions`, the one ``http=`` argument every client takes, and
  :func:`build_client`, which turns a client's constructor arguments into its HTTP client.
* :mod:`.urls`: base-URL normalising.
* :mod:`.environment`: the environment variables the clients read.

The public names are re-exported by :mod:`agentic_rag.llm`.
"""

from __future__ import annotations

from agentic_rag._lazy import lazy_exports

# Where each name lives; a module is imported when one of its names is first used.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "agentic_rag._http.client": ("HttpResult", "JsonHttpClient", "provider_message"),
    "agentic_rag._http.options": ("HttpBacked", "HttpOptions", "build_client"),
    "agentic_rag._http.redaction": ("Secret", "bearer_headers", "redact_url"),
    "agentic_rag._http.retry": ("RetryPolicy", "is_retryable_status"),
    "agentic_rag._http.transport": (
        "HttpAttempt",
        "HttpRequest",
        "HttpResponse",
        "Transport",
        "UrllibTransport",
    ),
    "agentic_rag._http.urls": ("normalise_base_url",),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)
