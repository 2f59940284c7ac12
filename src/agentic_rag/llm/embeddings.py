"""Embedding clients implementing the ``Embedder`` port over HTTP.

* :class:`OpenAIEmbedder`: ``POST {base}/embeddings`` with ``model`` and ``input`` (a list);
  the answer's ``data[i]`` carry an ``index``, and vectors are put back in input order by it
  (servers are not obliged to keep the order).
* :class:`OllamaEmbedder`: ``POST {base}/api/embed`` with ``model`` and ``input``; the answer's
  ``embeddings`` are in input order.

Both send texts in batches, check that every vector arrived and that all share one dimension,
and cap their timeouts by the run's deadline. Embedding calls are not charged to the LLM call
budget.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agentic_rag._contracts.validation import is_int, is_number, require_int
from agentic_rag._errors import InvalidInputError, ProviderError
from agentic_rag._http import HttpBacked, HttpOptions, Secret, bearer_headers, build_client, normalise_base_url, redact_url
from agentic_rag._http.environment import (
    ENV_EMBED_API_KEY,
    ENV_EMBED_BASE_URL,
    ENV_EMBED_MODEL,
    ENV_LLM_API_KEY,
    ENV_LLM_BASE_URL,
    ENV_OLLAMA_HOST,
    from_env,
)

__all__ = ["OllamaEmbedder", "OpenAIEmbedder"]


def _check_texts(texts: Sequence[str], stage: str) -> list[str]:
    if isinstance(texts, (str, bytes)) or not isinstance(texts, Sequence):
        raise InvalidInputError(f"texts must be a sequence of strings, got {type(texts).__name__}", stage=stage)
    out = list(texts)
    for i, text in enumerate(out):
        if not isinstance(text, str):
            raise InvalidInputError(f"texts[{i}] must be a string, got {type(text).__name__} {text!r}", stage=stage)
    return out


def _vector(value: Any, where: str, stage: str) -> list[float]:
    if not isinstance(value, list) or not value:
        raise ProviderError(f"{where} is not a non-empty list of numbers", stage=stage)
    out: list[float] = []
    for x in value:
        if not is_number(x):  # the provider's answer is bad, not the caller's input
            raise ProviderError(f"{where} holds {x!r}, expected finite numbers", stage=stage)
        out.append(float(x))
    return out


class _BatchingEmbedder(HttpBacked):
    """Batching, dimension checks and the HTTP client shared by both embedders."""

    stage = "embeddings"

    def __init__(
        self,
        *,
        batch_size: int,
        timeout_s: float | None,
        max_retries: int | None,
        http: HttpOptions | None,
        legacy: Mapping[str, Any],
    ) -> None:
        require_int(batch_size, "batch_size", minimum=1, stage=self.stage)
        self.batch_size = batch_size
        # Four frames up: build_client, this, the subclass's __init__, the user's call.
        self._http = build_client(type(self).__name__, stage=self.stage, http=http, timeout_s=timeout_s, max_retries=max_retries,
                                  default_timeout_s=60.0, legacy=legacy, stacklevel=4)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Return one vector per text, in input order.

        Args:
            texts: The texts (an empty sequence returns ``[]`` without a request).

        Returns:
            The vectors, all of one dimension.

        Raises:
            InvalidInputError: ``texts`` is not a sequence of strings.
            ProviderHTTPError: The server answered with an error status.
            ProviderTimeoutError: No answer in time.
            ProviderError: A missing, duplicated or malformed vector, or mixed dimensions.
            BudgetExhaustedError: The run's deadline passed.
        """
        items = _check_texts(texts, self.stage)
        vectors: list[list[float]] = []
        for start in range(0, len(items), self.batch_size):
            batch = items[start : start + self.batch_size]
            got = self._embed_batch(batch)
            if len(got) != len(batch):
                raise ProviderError(f"asked for {len(batch)} embeddings, got {len(got)}", stage=self.stage)
            vectors.extend(got)
        dims = {len(v) for v in vectors}
        if len(dims) > 1:
            raise ProviderError(f"the server returned vectors of several dimensions {sorted(dims)}", stage=self.stage)
        return vectors

    def _embed_batch(self, batch: list[str]) -> list[list[float]]:
        raise NotImplementedError


class OpenAIEmbedder(_BatchingEmbedder):
    """Embeddings from an OpenAI-compatible ``/embeddings`` endpoint.

    Args:
        base_url: Base URL before ``/embeddings``; default ``$AGENTIC_RAG_EMBED_BASE_URL``, else
            ``$AGENTIC_RAG_LLM_BASE_URL``.
        model: Embedding model; default ``$AGENTIC_RAG_EMBED_MODEL``.
        api_key: Bearer key; default ``$AGENTIC_RAG_EMBED_API_KEY``, else (only when the base
            URL also came from the LLM variable) ``$AGENTIC_RAG_LLM_API_KEY``.
        timeout_s: Timeout of one attempt, capped by the run's deadline (default 60 s).
        max_retries: Retries on 408/409/425/429/5xx, timeouts and resets (default 3).
        batch_size: Texts per request.
        dimensions: Ask the model for shorter vectors (OpenAI ``dimensions``), if supported.
        http: Transport (recording, replay, tests), retry policy and test hooks, as
            :class:`~agentic_rag.llm.HttpOptions`.
        **legacy: ``retry=``, ``transport=``, ``sleep=``, ``rng=``: deprecated, use ``http=``.

    Raises:
        InvalidInputError: No base URL or model (naming the variables to set).
    """

    stage = "openai-embeddings"

    def __init__(
        self,
        base_url: str | None = None,
        model: str | None = None,
        api_key: str | None = None,
        timeout_s: float | None = None,
        max_retries: int | None = None,
        *,
        batch_size: int = 128,
        dimensions: int | None = None,
        http: HttpOptions | None = None,
        **legacy: Any,
    ) -> None:
        explicit = from_env(base_url, ENV_EMBED_BASE_URL)
        resolved = explicit or from_env(None, ENV_LLM_BASE_URL)
        model = from_env(model, ENV_EMBED_MODEL)
        if not resolved or not model:
            raise InvalidInputError(
                f"OpenAIEmbedder needs a base URL and a model: pass base_url=... and model=..., or set "
                f"{ENV_EMBED_BASE_URL} (or {ENV_LLM_BASE_URL}) and {ENV_EMBED_MODEL}",
                stage=self.stage,
            )
        key = from_env(api_key, ENV_EMBED_API_KEY)
        if key is None and not explicit:
            # The LLM key only goes to the LLM's own server, never to another host.
            key = from_env(None, ENV_LLM_API_KEY)
        if dimensions is not None:
            require_int(dimensions, "dimensions", minimum=1, stage=self.stage)
        super().__init__(batch_size=batch_size, timeout_s=timeout_s, max_retries=max_retries, http=http, legacy=legacy)
        self.base_url = normalise_base_url(resolved, strip_suffixes=("/embeddings",), stage=self.stage)
        self.model = model
        self.dimensions = dimensions
        self._api_key = Secret(key or "")

    def _embed_batch(self, batch: list[str]) -> list[list[float]]:
        payload: dict[str, Any] = {"model": self.model, "input": batch}
        if self.dimensions is not None:
            payload["dimensions"] = self.dimensions
        data = self._http.post_json(f"{self.base_url}/embeddings", payload, headers=bearer_headers(self._api_key)).data
        items = data.get("data") if isinstance(data, dict) else None
        if not isinstance(items, list):
            raise ProviderError("the answer has no 'data' list; expected an embeddings response", stage=self.stage)
        by_index: dict[int, list[float]] = {}
        for position, item in enumerate(items):
            if not isinstance(item, dict):
                raise ProviderError(f"data[{position}] is not an object", stage=self.stage)
            index = item.get("index", position)
            if not is_int(index) or not 0 <= index < len(batch) or index in by_index:
                raise ProviderError(f"data[{position}].index is {index!r}; expected each of 0..{len(batch) - 1} once", stage=self.stage)
            by_index[index] = _vector(item.get("embedding"), f"data[{position}].embedding", self.stage)
        return [by_index[i] for i in sorted(by_index)]

    def __repr__(self) -> str:
        key = "set" if self._api_key else "none"
        return f"OpenAIEmbedder(base_url={redact_url(self.base_url)!r}, model={self.model!r}, api_key=<{key}>)"


class OllamaEmbedder(_BatchingEmbedder):
    """Embeddings from Ollama's ``/api/embed``.

    Args:
        base_url: Ollama address; default ``$OLLAMA_HOST`` or ``http://localhost:11434``.
        model: Embedding model (for example ``nomic-embed-text``); default
            ``$AGENTIC_RAG_EMBED_MODEL``.
        timeout_s: Timeout of one attempt, capped by the run's deadline (default 60 s).
        max_retries: Retries on 408/409/425/429/5xx, timeouts and resets (default 3).
        batch_size: Texts per request.
        truncate: Let Ollama truncate inputs longer than the context (else it errors).
        keep_alive: How long Ollama keeps the model loaded (for example ``"5m"``).
        http: Transport (recording, replay, tests), retry policy and test hooks, as
            :class:`~agentic_rag.llm.HttpOptions`.
        **legacy: ``retry=``, ``transport=``, ``sleep=``, ``rng=``: deprecated, use ``http=``.

    Raises:
        InvalidInputError: No model (naming the variable to set).
    """

    stage = "ollama-embeddings"

    def __init__(
        self,
        base_url: str | None = None,
        model: str | None = None,
        timeout_s: float | None = None,
        max_retries: int | None = None,
        *,
        batch_size: int = 64,
        truncate: bool = True,
        keep_alive: str | None = None,
        http: HttpOptions | None = None,
        **legacy: Any,
    ) -> None:
        model = from_env(model, ENV_EMBED_MODEL)
        if not model:
            raise InvalidInputError(f"OllamaEmbedder needs a model: pass model=... or set {ENV_EMBED_MODEL}", stage=self.stage)
        host = from_env(base_url, ENV_OLLAMA_HOST) or "http://localhost:11434"
        if not host.lower().startswith(("http://", "https://")):
            host = f"http://{host}"  # OLLAMA_HOST is often written as host:port
        super().__init__(batch_size=batch_size, timeout_s=timeout_s, max_retries=max_retries, http=http, legacy=legacy)
        self.base_url = normalise_base_url(host, strip_suffixes=("/api/embed",), stage=self.stage)
        self.model = model
        self.truncate = bool(truncate)
        self.keep_alive = keep_alive

    def _embed_batch(self, batch: list[str]) -> list[list[float]]:
        payload: dict[str, Any] = {"model": self.model, "input": batch, "truncate": self.truncate}
        if self.keep_alive is not None:
            payload["keep_alive"] = self.keep_alive
        data = self._http.post_json(f"{self.base_url}/api/embed", payload).data
        embeddings = data.get("embeddings") if isinstance(data, dict) else None
        if not isinstance(embeddings, list):
            raise ProviderError("the answer has no 'embeddings' list; expected an /api/embed response", stage=self.stage)
        return [_vector(v, f"embeddings[{i}]", self.stage) for i, v in enumerate(embeddings)]

    def __repr__(self) -> str:
        return f"OllamaEmbedder(base_url={redact_url(self.base_url)!r}, model={self.model!r})"
