"""Fake search services on loopback: Vertex AI RAG Engine and Elasticsearch / OpenSearch.

* :class:`VertexRagServer` answers ``retrieveContexts`` over in-memory corpora, accepting the
  request in proto-JSON camelCase or snake_case, one corpus per request (as the real API),
  scoring by cosine *distance* of hashed bag-of-words vectors, and omitting the contexts list
  when nothing matches (proto3 JSON drops empty fields).
* :class:`ElasticsearchServer` answers ``_search`` (BM25 ``match`` with ``term``/``terms``
  filters, Elasticsearch's top-level ``knn`` or OpenSearch's ``knn`` query, each engine
  refusing the other's dialect) and ``_bulk`` NDJSON with per-item statuses.
"""

from __future__ import annotations

import json
import math
import re
import threading
import urllib.parse
from collections.abc import Mapping, Sequence
from typing import Any

from agentic_rag.testing.loopback import Fault, LoopbackServer, RecordedRequest, Reply, hashed_embedding, json_reply, tokens

__all__ = ["ElasticsearchServer", "VertexRagServer"]

_VERTEX_PATH = re.compile(r"^/v1(?:beta1)?/projects/([^/]+)/locations/([^/:]+):retrieveContexts$")
_ES_ERROR_TYPES = {400: "parsing_exception", 401: "security_exception", 404: "index_not_found_exception", 429: "es_rejected_execution_exception"}
_GOOGLE_STATUS = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 503: "UNAVAILABLE"}


def _pick(obj: Any, camel: str, snake: str, default: Any = None) -> Any:
    if not isinstance(obj, dict):
        return default
    return obj.get(camel, obj.get(snake, default))


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


class VertexRagServer(LoopbackServer):
    """``projects/{p}/locations/{l}:retrieveContexts`` over in-memory corpora.

    Args:
        corpora: Corpus resource name -> contexts, each ``(source_uri, text)`` or
            ``(source_uri, text, display_name)``.
        token: The bearer token it accepts.
        faults: Faults for the first requests.
    """

    def __init__(self, corpora: Mapping[str, Sequence[tuple[str, ...]]], *, token: str = "test-token", faults: Sequence[Fault] = ()) -> None:
        super().__init__(faults=faults)
        self.corpora = {name: [tuple(c) for c in contexts] for name, contexts in corpora.items()}
        self.token = token

    def error_body(self, status: int, message: str) -> Any:
        return {"error": {"code": status, "message": message, "status": _GOOGLE_STATUS.get(status, "INTERNAL" if status >= 500 else "FAILED_PRECONDITION")}}

    def route(self, request: RecordedRequest) -> Reply:
        if request.header("authorization") != f"Bearer {self.token}":
            return self.error(401, "Request had invalid authentication credentials. Expected OAuth 2 access token.")
        match = _VERTEX_PATH.match(request.path)
        if request.method != "POST" or not match:
            return self.error(404, f"The requested URL {request.path} was not found on this server.")
        project, location = match.groups()
        try:
            payload = request.json()
        except ValueError:
            return self.error(400, "Invalid JSON payload received.")
        store = _pick(payload, "vertexRagStore", "vertex_rag_store", {})
        resources = _pick(store, "ragResources", "rag_resources", [])
        if not isinstance(resources, list) or len(resources) != 1:
            return self.error(400, "Currently only support one corpus or multiple files from one corpus.")
        corpus = _pick(resources[0], "ragCorpus", "rag_corpus", "")
        if not str(corpus).startswith(f"projects/{project}/locations/{location}/ragCorpora/"):
            return self.error(400, f"RagCorpus {corpus} is not in projects/{project}/locations/{location}.")
        if corpus not in self.corpora:
            return self.error(404, f"RagCorpus {corpus} is not found.")
        query = _pick(payload, "query", "query", {})
        text = query.get("text") if isinstance(query, dict) else None
        if not isinstance(text, str) or not text:
            return self.error(400, "query.text is required.")
        config = _pick(query, "ragRetrievalConfig", "rag_retrieval_config", {})
        top_k = _pick(config, "topK", "top_k", _pick(query, "similarityTopK", "similarity_top_k", 10))
        threshold = _pick(_pick(config, "filter", "filter", {}), "vectorDistanceThreshold", "vector_distance_threshold")
        q = hashed_embedding(text)
        scored = []
        for ctx in self.corpora[corpus]:
            uri, body = ctx[0], ctx[1]
            distance = round(1.0 - _cosine(q, hashed_embedding(body)), 6)
            if threshold is None or distance < threshold:
                scored.append((distance, uri, body, ctx[2] if len(ctx) > 2 else uri.rsplit("/", 1)[-1]))
        scored.sort()
        contexts = [{"sourceUri": u, "sourceDisplayName": d, "text": b, "score": s} for s, u, b, d in scored[: int(top_k)]]
        return json_reply({"contexts": {"contexts": contexts} if contexts else {}})


class ElasticsearchServer(LoopbackServer):
    """``_search`` and ``_bulk`` over in-memory indices.

    Args:
        indices: Index name -> {document id -> source}.
        opensearch: Speak OpenSearch (``query.knn``) rather than Elasticsearch (top-level ``knn``).
        authorization: The exact ``Authorization`` value required (``None``: none needed).
        reject_ids: Ids ``_bulk`` refuses with a per-item 400 (a mapping error).
        faults: Faults for the first requests.
    """

    def __init__(
        self,
        indices: Mapping[str, Mapping[str, Mapping[str, Any]]] | None = None,
        *,
        opensearch: bool = False,
        authorization: str | None = None,
        reject_ids: Sequence[str] = (),
        faults: Sequence[Fault] = (),
    ) -> None:
        super().__init__(faults=faults)
        self.indices: dict[str, dict[str, dict[str, Any]]] = {i: {d: dict(s) for d, s in docs.items()} for i, docs in (indices or {}).items()}
        self.opensearch = opensearch
        self.authorization = authorization
        self.reject_ids = frozenset(reject_ids)
        self._data_lock = threading.Lock()

    def error_body(self, status: int, message: str) -> Any:
        kind = _ES_ERROR_TYPES.get(status, "exception")
        return {"error": {"root_cause": [{"type": kind, "reason": message}], "type": kind, "reason": message}, "status": status}

    def documents(self, index: str) -> dict[str, dict[str, Any]]:
        """A copy of an index's documents."""
        with self._data_lock:
            return {d: dict(s) for d, s in self.indices.get(index, {}).items()}

    def route(self, request: RecordedRequest) -> Reply:
        if self.authorization is not None and request.header("authorization") != self.authorization:
            return self.error(401, "missing authentication credentials for REST request")
        path = urllib.parse.urlsplit(request.path).path.strip("/").split("/")
        if request.method == "POST" and path[-1] == "_bulk" and len(path) <= 2:
            return self._bulk(request, path[0] if len(path) == 2 else None)
        if request.method in ("GET", "POST") and len(path) == 2 and path[1] == "_search":
            return self._search(request, path[0])
        return self.error(400, f"no handler found for uri [{request.path}] and method [{request.method}]")

    # -- _search ------------------------------------------------------------------------
    def _search(self, request: RecordedRequest, index: str) -> Reply:
        with self._data_lock:
            if index not in self.indices:
                return self.error(404, f"no such index [{index}]")
            docs = {d: dict(s) for d, s in self.indices[index].items()}
        try:
            body = request.json() if request.body else {}
        except ValueError:
            return self.error(400, "request body is not valid JSON")
        size = body.get("size", 10)
        query = body.get("query") or {"match_all": {}}
        if "knn" in body:
            if self.opensearch:
                return self.error(400, "Unknown key for a START_OBJECT in [knn].")
            spec = body["knn"]
            scores = self._knn(docs, spec.get("field"), spec.get("query_vector"), self._filters(spec.get("filter")), spec.get("k", size))
        elif "knn" in query:
            if not self.opensearch:
                bad = next(iter(query["knn"]), "")
                return self.error(400, f"[knn] query doesn't support [{bad}]")
            field, spec = next(iter(query["knn"].items()))
            flt = spec.get("filter", {}).get("bool", {}).get("filter", []) if isinstance(spec.get("filter"), dict) else []
            scores = self._knn(docs, field, spec.get("vector"), self._filters(flt), spec.get("k", size))
        else:
            boolean = query.get("bool", {})
            musts = boolean.get("must", []) if boolean else [query]
            musts = musts if isinstance(musts, list) else [musts]
            match = next((m["match"] for m in musts if isinstance(m, dict) and "match" in m), None)
            keep = self._filters(boolean.get("filter", []) if boolean else [])
            scores = self._bm25(docs, match, keep)
        ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:size]
        excludes = set((body.get("_source") or {}).get("excludes", [])) if isinstance(body.get("_source"), dict) else set()
        hits = [{"_index": index, "_id": d, "_score": round(s, 6), "_source": {k: v for k, v in docs[d].items() if k not in excludes}} for d, s in ranked]
        return json_reply({
            "took": 1,
            "timed_out": False,
            "_shards": {"total": 1, "successful": 1, "skipped": 0, "failed": 0},
            "hits": {"total": {"value": len(scores), "relation": "eq"}, "max_score": hits[0]["_score"] if hits else None, "hits": hits},
        })

    @staticmethod
    def _filters(clauses: Any) -> list[tuple[str, frozenset]]:
        clauses = clauses if isinstance(clauses, list) else [clauses] if clauses else []
        out = []
        for clause in clauses:
            if "term" in clause:
                field, value = next(iter(clause["term"].items()))
                out.append((field, frozenset([value["value"] if isinstance(value, dict) else value])))
            elif "terms" in clause:
                field, values = next(iter(clause["terms"].items()))
                out.append((field, frozenset(values)))
        return out

    @staticmethod
    def _passes(source: Mapping[str, Any], filters: list[tuple[str, frozenset]]) -> bool:
        for field, allowed in filters:
            value = source.get(field)
            values = value if isinstance(value, list) else [value]
            if not any(v in allowed for v in values):
                return False
        return True

    def _knn(self, docs: dict[str, dict[str, Any]], field: Any, vector: Any, filters: list, k: int) -> dict[str, float]:
        scores = {}
        for doc_id, source in docs.items():
            if isinstance(source.get(field), list) and self._passes(source, filters):
                scores[doc_id] = (1.0 + _cosine(vector, source[field])) / 2.0
        return dict(sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:k])

    def _bm25(self, docs: dict[str, dict[str, Any]], match: Any, filters: list) -> dict[str, float]:
        pool = {d: s for d, s in docs.items() if self._passes(s, filters)}
        if match is None:
            return {d: 1.0 for d in pool}
        field, spec = next(iter(match.items()))
        terms = tokens(spec["query"] if isinstance(spec, dict) else str(spec))
        texts = {d: tokens(str(s.get(field, ""))) for d, s in pool.items()}
        n = len(texts) or 1
        avg = sum(len(t) for t in texts.values()) / n or 1.0
        scores: dict[str, float] = {}
        for term in set(terms):
            df = sum(1 for t in texts.values() if term in t)
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            for doc_id, words in texts.items():
                tf = words.count(term)
                if tf:
                    scores[doc_id] = scores.get(doc_id, 0.0) + idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len(words) / avg))
        return scores

    # -- _bulk --------------------------------------------------------------------------
    def _bulk(self, request: RecordedRequest, default_index: str | None) -> Reply:
        ctype = (request.header("content-type") or "").split(";")[0].strip()
        if ctype not in ("application/x-ndjson", "application/json"):
            return json_reply({"error": f"Content-Type header [{ctype}] is not supported", "status": 406}, 406)
        if not request.body.endswith(b"\n"):
            return self.error(400, "The bulk request must be terminated by a newline [\\n]")
        lines = [line for line in request.body.decode("utf-8").split("\n") if line.strip()]
        items, errors, position = [], False, 0
        with self._data_lock:
            while position < len(lines):
                try:
                    op, meta = next(iter(json.loads(lines[position]).items()))
                    source = json.loads(lines[position + 1])
                except (ValueError, IndexError, StopIteration):
                    return self.error(400, f"Malformed action/metadata line [{position + 1}]")
                position += 2
                index = meta.get("_index") or default_index
                doc_id = str(meta.get("_id") or f"auto-{len(items)}")
                item: dict[str, Any] = {"_index": index, "_id": doc_id}
                docs = self.indices.setdefault(index, {})
                if op not in ("index", "create"):
                    item.update(status=400, error={"type": "illegal_argument_exception", "reason": f"unsupported action [{op}]"})
                elif doc_id in self.reject_ids:
                    item.update(status=400, error={"type": "document_parsing_exception", "reason": f"[1:2] failed to parse document [{doc_id}]"})
                elif op == "create" and doc_id in docs:
                    reason = f"[{doc_id}]: version conflict, document already exists (current version [1])"
                    item.update(status=409, error={"type": "version_conflict_engine_exception", "reason": reason})
                else:
                    created = doc_id not in docs
                    docs[doc_id] = source
                    item.update(_version=1, result="created" if created else "updated", status=201 if created else 200)
                errors = errors or "error" in item
                items.append({op: item})
        return json_reply({"took": 1, "errors": errors, "items": items})
