"""A ``Retriever`` over Vertex AI RAG Engine's ``retrieveContexts``.

``POST {base}/v1/projects/{project}/locations/{location}:retrieveContexts`` with
``vertexRagStore.ragResources[]`` (one ``ragCorpus``: the API takes a single corpus per
request) and ``query {text, ragRetrievalConfig {topK, filter {vectorDistanceThreshold}}}``;
the answer is ``contexts.contexts[]`` with ``sourceUri``, ``sourceDisplayName``, ``text`` and
``score``. Several corpora are searched by fanning the query out, one request per corpus in
parallel, and merging the contexts by score (ties by snippet id).

Vertex's ``score`` is a distance for the default ``COSINE_DISTANCE`` metric (lower is
better); with ``score_is_distance=True`` (the default) a snippet's score is ``1 - distance``
(cosine similarity), so higher is better like every other retriever. The raw value stays in
``metadata["vertex_score"]``.

Authentication is an OAuth bearer token from ``token_provider()`` (called for every request,
so it can refresh) or the ``AGENTIC_RAG_VERTEX_TOKEN`` environment variable (for example from
``gcloud auth print-access-token``). The token never appears in a repr, trace or error.
"""

from __future__ import annotations

import concurrent.futures
import contextvars
import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from agentic_rag._contracts import Snippet
from agentic_rag._contracts.validation import require_int, require_number, require_text, text_tuple
from agentic_rag._errors import InvalidInputError, ProviderError
from agentic_rag._http import HttpBacked, HttpOptions, Secret, bearer_headers, build_client, normalise_base_url, redact_url
from agentic_rag._http.environment import ENV_VERTEX_TOKEN, from_env

__all__ = ["VertexRagRetriever"]

_MAX_PARALLEL = 8


def corpus_short_id(resource: str) -> str:
    """Return the id after ``ragCorpora/`` in a corpus resource name (or the name itself)."""
    return resource.rstrip("/").rsplit("/", 1)[-1]


class VertexRagRetriever(HttpBacked):
    """Retrieves contexts from one or several Vertex AI RAG Engine corpora.

    Args:
        project: Google Cloud project id.
        location: Region such as ``us-central1`` (``global`` uses the global endpoint).
        corpora: RAG corpus resource names
            (``projects/{p}/locations/{l}/ragCorpora/{id}``); a snippet's ``corpus_id`` is
            the trailing ``{id}``.
        top_k: Contexts asked from each corpus (``None``: the ``k`` of each call).
        vector_distance_threshold: Only contexts closer than this distance.
        token_provider: Returns a bearer token; called for every request.
        base_url: Endpoint override (tests, private endpoints).
        score_is_distance: Turn Vertex's distance into ``1 - distance`` (see module doc).
        name: Label for traces and branch names.
        timeout_s: Timeout of one attempt, capped by the run's deadline (default 30 s).
        max_retries: Retries on 408/409/425/429/5xx, timeouts and resets (default 3).
        http: Transport (recording, replay, tests), retry policy and test hooks, as
            :class:`~agentic_rag.llm.HttpOptions`.
        **legacy: ``retry=``, ``transport=``, ``sleep=``, ``rng=``: deprecated, use ``http=``.

    Raises:
        InvalidInputError: No corpora, a duplicate corpus id, a bad ``top_k`` or threshold,
            or neither a token provider nor ``AGENTIC_RAG_VERTEX_TOKEN``.
    """

    stage = "vertex"

    def __init__(
        self,
        project: str,
        location: str,
        corpora: Sequence[str],
        *,
        top_k: int | None = None,
        vector_distance_threshold: float | None = None,
        token_provider: Callable[[], str] | None = None,
        base_url: str | None = None,
        score_is_distance: bool = True,
        name: str = "vertex-rag",
        timeout_s: float | None = None,
        max_retries: int | None = None,
        http: HttpOptions | None = None,
        **legacy: Any,
    ) -> None:
        self.project = require_text(project, "project", stage=self.stage)
        self.location = require_text(location, "location", stage=self.stage)
        self.corpora = text_tuple(corpora, "corpora", stage=self.stage)
        if not self.corpora:
            raise InvalidInputError("corpora must name at least one RAG corpus resource", stage=self.stage)
        ids = [corpus_short_id(c) for c in self.corpora]
        if len(set(ids)) != len(ids):
            raise InvalidInputError(f"corpora {list(self.corpora)} repeat a corpus id; each corpus must appear once", stage=self.stage)
        if top_k is not None:
            require_int(top_k, "top_k", minimum=1, stage=self.stage)
        require_number(vector_distance_threshold, "vector_distance_threshold", optional=True, stage=self.stage)
        self.top_k = top_k
        self.vector_distance_threshold = vector_distance_threshold
        self.score_is_distance = score_is_distance
        self.name = require_text(name, "name", stage=self.stage)
        env_token = from_env(None, ENV_VERTEX_TOKEN)
        if token_provider is None and env_token is None:
            raise InvalidInputError(
                f"VertexRagRetriever needs credentials: pass token_provider=<callable returning a bearer token> "
                f"or set {ENV_VERTEX_TOKEN} (for example to the output of `gcloud auth print-access-token`)",
                stage=self.stage,
            )
        if token_provider is not None and not callable(token_provider):
            raise InvalidInputError(f"token_provider must be callable, got {type(token_provider).__name__}", stage=self.stage)
        self._token_provider = token_provider
        self._env_token = Secret(env_token or "")
        default = "https://aiplatform.googleapis.com" if location == "global" else f"https://{location}-aiplatform.googleapis.com"
        self.base_url = normalise_base_url(base_url or default, strip_suffixes=("/v1",), stage=self.stage)
        self._http = build_client(type(self).__name__, stage=self.stage, http=http, timeout_s=timeout_s, max_retries=max_retries,
                                  default_timeout_s=30.0, legacy=legacy)

    @property
    def endpoint(self) -> str:
        """The ``retrieveContexts`` URL."""
        return f"{self.base_url}/v1/projects/{self.project}/locations/{self.location}:retrieveContexts"

    @property
    def kind(self) -> str:
        """``"vector"``: RAG Engine ranks by embedding distance (read by the parallel workflow)."""
        return "vector"

    def retrieve(self, query: str, k: int, *, corpus_ids: Sequence[str] | None = None) -> tuple[Snippet, ...]:
        """Query every selected corpus and merge the contexts best first.

        Args:
            query: The query text.
            k: At most this many snippets overall.
            corpus_ids: Only these corpora (trailing ids or full resource names).

        Returns:
            Snippets by score descending, ties by id.

        Raises:
            InvalidInputError: Empty query or ``k`` below 1.
            ProviderHTTPError: A corpus request failed with an error status.
            ProviderTimeoutError: A corpus did not answer in time.
            ProviderError: Connection failure, malformed answer, or a token provider error.
        """
        require_text(query, "query", stage=self.stage)
        require_int(k, "k", minimum=1, stage=self.stage)
        selected = self.corpora
        if corpus_ids is not None:
            wanted = set(text_tuple(corpus_ids, "corpus_ids", stage=self.stage))
            selected = tuple(c for c in self.corpora if c in wanted or corpus_short_id(c) in wanted)
        if not selected:
            return ()
        per_corpus = self.top_k or k
        if len(selected) == 1:
            results = [self._retrieve_one(selected[0], query, per_corpus)]
        else:
            results = self._fan_out(selected, query, per_corpus)
        merged = sorted((s for batch in results for s in batch), key=lambda s: (-s.score, s.id))
        return tuple(merged[:k])

    def _fan_out(self, selected: tuple[str, ...], query: str, per_corpus: int) -> list[tuple[Snippet, ...]]:
        with concurrent.futures.ThreadPoolExecutor(max_workers=min(_MAX_PARALLEL, len(selected))) as pool:
            # Each worker runs in a copy of this context so it sees the run's budget.
            futures = [pool.submit(contextvars.copy_context().run, self._retrieve_one, c, query, per_corpus) for c in selected]
            # Results in corpus order, and the first failure in corpus order, whatever finished first.
            return [f.result() for f in futures]

    def _token(self) -> str:
        if self._token_provider is None:
            return self._env_token.reveal()
        try:
            token = self._token_provider()
        except Exception as exc:  # the provider is user code; report it without its details
            raise ProviderError(f"token_provider failed: {type(exc).__name__}", stage=self.stage) from None
        if not isinstance(token, str) or not token.strip():
            raise ProviderError(f"token_provider must return a non-empty string, got {type(token).__name__}", stage=self.stage)
        return token.strip()

    def _retrieve_one(self, corpus: str, query: str, top_k: int) -> tuple[Snippet, ...]:
        config: dict[str, Any] = {"topK": top_k}
        if self.vector_distance_threshold is not None:
            config["filter"] = {"vectorDistanceThreshold": self.vector_distance_threshold}
        payload = {"vertexRagStore": {"ragResources": [{"ragCorpus": corpus}]}, "query": {"text": query, "ragRetrievalConfig": config}}
        data = self._http.post_json(self.endpoint, payload, headers=bearer_headers(self._token())).data
        if not isinstance(data, dict):
            raise ProviderError(f"expected a JSON object from retrieveContexts, got {type(data).__name__}", stage=self.stage)
        outer = data.get("contexts") or {}
        contexts = outer.get("contexts", []) if isinstance(outer, dict) else None
        if not isinstance(contexts, list):
            raise ProviderError("the answer's contexts.contexts is not a list", stage=self.stage)
        corpus_id = corpus_short_id(corpus)
        return tuple(self._snippet(corpus, corpus_id, ctx, i) for i, ctx in enumerate(contexts))

    def _snippet(self, corpus: str, corpus_id: str, ctx: Any, position: int) -> Snippet:
        if not isinstance(ctx, dict) or not isinstance(ctx.get("text", ""), str):
            raise ProviderError(f"contexts[{position}] from {corpus_id!r} is not a context object with text", stage=self.stage)
        text = ctx.get("text", "")
        source_uri = ctx.get("sourceUri") or ctx.get("source_uri") or ""
        display = ctx.get("sourceDisplayName") or ctx.get("source_display_name") or ""
        raw = ctx.get("score", ctx.get("distance"))
        raw_score = float(raw) if isinstance(raw, (int, float)) and not isinstance(raw, bool) else None
        if raw_score is None:
            score = 0.0
        else:
            score = 1.0 - raw_score if self.score_is_distance else raw_score
        document_id = source_uri or display or f"context-{position}"
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
        metadata: dict[str, Any] = {"source_uri": source_uri, "rag_corpus": corpus, "text_sha256": digest}
        if display:
            metadata["title"] = display
        if raw_score is not None:
            metadata["vertex_score"] = raw_score
        # Chunks of one file share its URI and offset 0, so the text hash tells them apart.
        return Snippet(id=f"{corpus_id}/{document_id}#{digest}", corpus_id=corpus_id, document_id=document_id, text=text, score=score, metadata=metadata)

    def __repr__(self) -> str:
        return f"VertexRagRetriever(project={self.project!r}, location={self.location!r}, corpora={len(self.corpora)}, base_url={redact_url(self.base_url)!r})"
