"""A ``Retriever`` over Elasticsearch or OpenSearch: BM25 ``match`` or vector ``knn``.

Both engines take ``POST /{index}/_search`` and answer ``hits.hits[]`` with ``_id``,
``_score`` and ``_source``. The query bodies differ for vectors:

* Elasticsearch (8.x): a top-level ``knn`` section
  ``{"field", "query_vector", "k", "num_candidates", "filter"}``.
* OpenSearch (k-NN plugin): a ``knn`` *query* keyed by the vector field,
  ``{"query": {"knn": {field: {"vector", "k", "filter"}}}}`` (efficient filtering).

BM25 uses ``{"query": {"bool": {"must": [{"match": {text_field: query}}], "filter": [...]}}}``
on both. Filters are exact ``term``/``terms`` clauses; ``corpus_ids`` becomes a ``terms``
clause on ``corpus_field``. Vectors are excluded from ``_source`` so answers stay small.
"""

from __future__ import annotations

import base64
import enum
from collections.abc import Mapping, Sequence
from typing import Any

from agentic_rag._contracts import Document, Snippet
from agentic_rag._contracts.validation import freeze_metadata, require_enum, require_int, require_text, text_tuple, thaw_json
from agentic_rag._errors import InvalidInputError, ProviderError
from agentic_rag._http import HttpBacked, HttpOptions, Secret, build_client, normalise_base_url, redact_url
from agentic_rag._ports import Embedder
from agentic_rag.providers.elasticsearch_bulk import BulkResult, bulk_ndjson, parse_bulk_response

__all__ = ["ElasticsearchRetriever", "SearchMode", "knn_body", "match_body"]


class SearchMode(str, enum.Enum):
    """Which query an :class:`ElasticsearchRetriever` sends."""

    MATCH = "match"
    KNN = "knn"


def _term_clauses(filters: Mapping[str, Any]) -> list[dict[str, Any]]:
    clauses = []
    for field in sorted(filters):
        value = filters[field]
        if isinstance(value, (list, tuple)):
            clauses.append({"terms": {field: list(value)}})
        else:
            clauses.append({"term": {field: value}})
    return clauses


def match_body(query: str, k: int, *, text_field: str, filters: Sequence[Mapping[str, Any]] = (), excludes: Sequence[str] = ()) -> dict[str, Any]:
    """Return a BM25 ``match`` search body (the same for Elasticsearch and OpenSearch)."""
    body: dict[str, Any] = {"size": k, "query": {"bool": {"must": [{"match": {text_field: {"query": query}}}]}}}
    if filters:
        body["query"]["bool"]["filter"] = list(filters)
    if excludes:
        body["_source"] = {"excludes": list(excludes)}
    return body


def knn_body(
    vector: Sequence[float],
    k: int,
    *,
    vector_field: str,
    num_candidates: int,
    opensearch: bool,
    filters: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """Return a vector search body in Elasticsearch's or OpenSearch's dialect."""
    excludes = {"excludes": [vector_field]}
    if opensearch:
        spec: dict[str, Any] = {"vector": list(vector), "k": k}
        if filters:
            spec["filter"] = {"bool": {"filter": list(filters)}}
        return {"size": k, "_source": excludes, "query": {"knn": {vector_field: spec}}}
    knn: dict[str, Any] = {"field": vector_field, "query_vector": list(vector), "k": k, "num_candidates": max(num_candidates, k)}
    if filters:
        knn["filter"] = list(filters)
    return {"size": k, "_source": excludes, "knn": knn}


class ElasticsearchRetriever(HttpBacked):
    """Searches one Elasticsearch or OpenSearch index.

    Args:
        base_url: The cluster URL (for example ``http://localhost:9200``).
        index: Index (or alias, or comma-separated list) to search.
        mode: ``"match"`` (BM25) or ``"knn"`` (needs ``embedder``).
        text_field: Field holding the passage text.
        title_field: Field holding the title (``None``: none).
        id_field: Source field with the document id (``None``: the hit's ``_id``).
        corpus_field: Source field with the corpus id, filtered by ``corpus_ids``
            (``None``: every hit belongs to ``corpus_id``).
        corpus_id: Corpus of every hit when there is no ``corpus_field`` (default: ``index``).
        vector_field: Vector field for ``knn`` (and for :meth:`bulk_index` with an embedder).
        filters: Exact-match filters ``{field: value or [values]}`` applied to every query.
        embedder: Embeds queries for ``knn`` and documents for :meth:`bulk_index`.
        num_candidates: Elasticsearch's per-shard candidates for ``knn`` (at least ``k``).
        api_key: Sent as ``Authorization: ApiKey <api_key>`` (the encoded key).
        basic_auth: ``(user, password)`` for ``Authorization: Basic``.
        opensearch: Speak OpenSearch's ``knn`` dialect.
        name: Label for traces and branch names (default ``"<engine>:<index>:<mode>"``).
        timeout_s: Timeout of one attempt, capped by the run's deadline (default 30 s).
        max_retries: Retries on 408/409/425/429/5xx, timeouts and resets (default 3).
        http: Transport (recording, replay, tests), retry policy and test hooks, as
            :class:`~agentic_rag.llm.HttpOptions`.
        **legacy: ``retry=``, ``transport=``, ``sleep=``, ``rng=``: deprecated, use ``http=``.

    Raises:
        InvalidInputError: An unknown mode, ``knn`` without an embedder, both credentials,
            or a malformed field name or filter.
    """

    stage = "elasticsearch"

    def __init__(
        self,
        base_url: str,
        index: str,
        *,
        mode: SearchMode | str = SearchMode.MATCH,
        text_field: str = "text",
        title_field: str | None = "title",
        id_field: str | None = None,
        corpus_field: str | None = None,
        corpus_id: str | None = None,
        vector_field: str = "embedding",
        filters: Mapping[str, Any] | None = None,
        embedder: Embedder | None = None,
        num_candidates: int = 100,
        api_key: str | None = None,
        basic_auth: tuple[str, str] | None = None,
        opensearch: bool = False,
        name: str = "",
        timeout_s: float | None = None,
        max_retries: int | None = None,
        http: HttpOptions | None = None,
        **legacy: Any,
    ) -> None:
        self.mode = require_enum(SearchMode, mode, "mode", stage=self.stage)
        if self.mode is SearchMode.KNN and embedder is None:
            raise InvalidInputError("mode='knn' needs an embedder to turn queries into vectors", stage=self.stage)
        if api_key and basic_auth:
            raise InvalidInputError("pass api_key or basic_auth, not both", stage=self.stage)
        self.base_url = normalise_base_url(base_url, strip_suffixes=(), stage=self.stage)
        self.index = require_text(index, "index", stage=self.stage)
        self.text_field = require_text(text_field, "text_field", stage=self.stage)
        self.title_field = title_field and require_text(title_field, "title_field", stage=self.stage)
        self.id_field = id_field and require_text(id_field, "id_field", stage=self.stage)
        self.corpus_field = corpus_field and require_text(corpus_field, "corpus_field", stage=self.stage)
        self.corpus_id = require_text(corpus_id or index, "corpus_id", stage=self.stage)
        self.vector_field = require_text(vector_field, "vector_field", stage=self.stage)
        self.filters = thaw_json(freeze_metadata(filters, "filters", stage=self.stage))
        self.embedder = embedder
        self.num_candidates = require_int(num_candidates, "num_candidates", minimum=1, stage=self.stage)
        self.opensearch = bool(opensearch)
        engine = "opensearch" if self.opensearch else "elasticsearch"
        self.name = name or f"{engine}:{self.index}:{self.mode.value}"
        if basic_auth is not None:
            user, password = basic_auth
            token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
            self._auth = Secret(f"Basic {token}")
        else:
            self._auth = Secret(f"ApiKey {api_key}" if api_key else "")
        self._http = build_client(type(self).__name__, stage=self.stage, http=http, timeout_s=timeout_s, max_retries=max_retries,
                                  default_timeout_s=30.0, legacy=legacy)

    @property
    def kind(self) -> str:
        """``"vector"`` in ``knn`` mode, else ``"lexical"`` (read by the parallel workflow)."""
        return "vector" if self.mode is SearchMode.KNN else "lexical"

    def _headers(self) -> dict[str, str]:
        return {"Authorization": self._auth.reveal()} if self._auth else {}

    def search_body(self, query: str, k: int, *, corpus_ids: Sequence[str] | None = None) -> dict[str, Any]:
        """Return the ``_search`` body :meth:`retrieve` would send (embeds in ``knn`` mode)."""
        clauses = _term_clauses(self.filters)
        if corpus_ids is not None and self.corpus_field:
            clauses.append({"terms": {self.corpus_field: sorted(set(corpus_ids))}})
        if self.mode is SearchMode.MATCH:
            return match_body(query, k, text_field=self.text_field, filters=clauses)
        vectors = self.embedder.embed([query])  # type: ignore[union-attr]
        if len(vectors) != 1:
            raise ProviderError(f"the embedder returned {len(vectors)} vectors for one query", stage=self.stage)
        return knn_body(vectors[0], k, vector_field=self.vector_field, num_candidates=self.num_candidates, opensearch=self.opensearch, filters=clauses)

    def retrieve(self, query: str, k: int, *, corpus_ids: Sequence[str] | None = None) -> tuple[Snippet, ...]:
        """Search the index and return snippets best first.

        Args:
            query: The query text.
            k: At most this many snippets.
            corpus_ids: Only these corpora.

        Returns:
            Snippets by score descending, ties by id; each carries the title, index and the
            remaining source fields in its metadata.

        Raises:
            InvalidInputError: Empty query or ``k`` below 1.
            ProviderHTTPError: The engine answered with an error status.
            ProviderTimeoutError: No answer in time.
            ProviderError: Connection failure or an answer without ``hits.hits``.
        """
        require_text(query, "query", stage=self.stage)
        require_int(k, "k", minimum=1, stage=self.stage)
        if corpus_ids is not None:
            wanted = text_tuple(corpus_ids, "corpus_ids", stage=self.stage)
            if not self.corpus_field and self.corpus_id not in wanted:
                return ()
            corpus_ids = wanted
        body = self.search_body(query, k, corpus_ids=corpus_ids)
        data = self._http.post_json(f"{self.base_url}/{self.index}/_search", body, headers=self._headers()).data
        hits = data.get("hits", {}).get("hits") if isinstance(data, dict) and isinstance(data.get("hits"), dict) else None
        if not isinstance(hits, list):
            raise ProviderError("the answer has no hits.hits list; expected a _search response", stage=self.stage)
        snippets = sorted((self._snippet(hit, i) for i, hit in enumerate(hits)), key=lambda s: (-s.score, s.id))
        return tuple(snippets[:k])

    def _snippet(self, hit: Any, position: int) -> Snippet:
        if not isinstance(hit, dict) or not isinstance(hit.get("_source", {}), dict):
            raise ProviderError(f"hits[{position}] is not a hit object with a _source", stage=self.stage)
        source = dict(hit.get("_source") or {})
        raw_text = source.pop(self.text_field, "")
        text = "\n".join(str(t) for t in raw_text) if isinstance(raw_text, list) else str(raw_text or "")
        title = source.pop(self.title_field, "") if self.title_field else ""
        doc_id = source.pop(self.id_field, None) if self.id_field else None
        doc_id = str(doc_id if doc_id is not None else hit.get("_id", f"hit-{position}"))
        corpus = source.pop(self.corpus_field, None) if self.corpus_field else None
        corpus = str(corpus) if corpus not in (None, "") else self.corpus_id
        source.pop(self.vector_field, None)
        metadata = {"index": str(hit.get("_index", self.index)), **{k: v for k, v in source.items() if k not in ("index", "title")}}
        if title:
            metadata["title"] = str(title)
        score = hit.get("_score")
        score = float(score) if isinstance(score, (int, float)) and not isinstance(score, bool) else 0.0
        return Snippet(id=f"{corpus}/{doc_id}", corpus_id=corpus, document_id=doc_id, text=text, score=score, metadata=metadata)

    def bulk_index(self, docs: Sequence[Document], *, refresh: bool = False, batch_size: int = 500, op_type: str = "index") -> BulkResult:
        """Index documents through ``_bulk`` and report each one that failed.

        The source of each document holds its metadata, then the text, title, corpus and id
        fields this retriever reads, and (with an embedder) its vector in ``vector_field``.

        Args:
            docs: The documents.
            refresh: Make them searchable before returning (``?refresh=true``).
            batch_size: Documents per request.
            op_type: ``index`` (create or replace) or ``create`` (refuse existing ids).

        Returns:
            Written ids and per-document failures, in input order.

        Raises:
            InvalidInputError: A non-Document item, a bad batch size or op type.
            ProviderHTTPError: The request itself failed (not a per-document failure).
        """
        require_int(batch_size, "batch_size", minimum=1, stage=self.stage)
        if op_type not in ("index", "create"):
            raise InvalidInputError(f"op_type must be 'index' or 'create', got {op_type!r}", stage=self.stage)
        items = list(docs)
        for i, doc in enumerate(items):
            if not isinstance(doc, Document):
                raise InvalidInputError(f"docs[{i}] must be a Document, got {type(doc).__name__}", stage=self.stage)
        result = BulkResult((), ())
        url = f"{self.base_url}/{self.index}/_bulk" + ("?refresh=true" if refresh else "")
        for start in range(0, len(items), batch_size):
            batch = items[start : start + batch_size]
            vectors = self.embedder.embed([d.text or d.title for d in batch]) if self.embedder is not None else None
            if vectors is not None and len(vectors) != len(batch):
                raise ProviderError(f"the embedder returned {len(vectors)} vectors for {len(batch)} documents", stage=self.stage)
            pairs = [(d.id, self._source(d, vectors[i] if vectors else None)) for i, d in enumerate(batch)]
            body = bulk_ndjson(self.index, pairs, op_type=op_type)
            data = self._http.request("POST", url, headers=self._headers(), body=body, content_type="application/x-ndjson").data
            result = result.merged(parse_bulk_response(data, [d.id for d in batch], stage=self.stage))
        return result

    def _source(self, doc: Document, vector: Sequence[float] | None) -> dict[str, Any]:
        source: dict[str, Any] = thaw_json(doc.metadata)
        source[self.text_field] = doc.text
        if self.title_field and doc.title:
            source[self.title_field] = doc.title
        if self.corpus_field:
            source[self.corpus_field] = doc.corpus_id
        if self.id_field:
            source[self.id_field] = doc.id
        if vector is not None:
            source[self.vector_field] = list(vector)
        return source

    def __repr__(self) -> str:
        engine = "OpenSearch" if self.opensearch else "Elasticsearch"
        return f"ElasticsearchRetriever({engine} {redact_url(self.base_url)!r}, index={self.index!r}, mode={self.mode.value!r})"
