"""Tests for ElasticsearchRetriever (Elasticsearch and OpenSearch dialects) and bulk indexing."""

from __future__ import annotations

import base64
import json
import unittest

from agentic_rag._contracts import Document
from agentic_rag._errors import InvalidInputError, ProviderError, ProviderHTTPError
from agentic_rag.llm import HttpOptions, OpenAIEmbedder
from agentic_rag._ports import Retriever
from agentic_rag.providers import ElasticsearchRetriever, knn_body, match_body
from agentic_rag.testing import ElasticsearchServer, Fault, OpenAICompatibleServer, hashed_embedding, json_reply

DOCS = [
    Document(id="d1", text="The Eiffel Tower is 330 metres tall.", title="Eiffel Tower", corpus_id="wiki", metadata={"lang": "en", "year": 1889}),
    Document(id="d2", text="The Seine flows through Paris past the tower.", title="Seine", corpus_id="wiki", metadata={"lang": "en"}),
    Document(id="d3", text="La tour Eiffel mesure 330 mètres.", title="Tour Eiffel", corpus_id="frwiki", metadata={"lang": "fr"}),
    Document(id="d4", text="Bridges cross the river in many places.", corpus_id="news", metadata={"lang": "en"}),
]
API_KEY = "VnVhQ2ZHY0JDZGJrU-SECRET"


class HashedEmbedder:
    """A deterministic in-process embedder matching the fake servers' vectors."""

    def embed(self, texts):
        return [hashed_embedding(t) for t in texts]


def es(server: ElasticsearchServer, **kwargs) -> ElasticsearchRetriever:
    kwargs.setdefault("corpus_field", "corpus")
    return ElasticsearchRetriever(server.root, "docs", http=HttpOptions(sleep=lambda _s: None), **kwargs)


def loaded(server: ElasticsearchServer, **kwargs) -> ElasticsearchRetriever:
    retriever = es(server, **kwargs)
    result = retriever.bulk_index(DOCS, refresh=True)
    assert result.ok, result.failures
    return retriever


class MatchTest(unittest.TestCase):
    def test_bm25_match_query_and_snippets(self) -> None:
        with ElasticsearchServer() as server:
            retriever = loaded(server)
            snippets = retriever.retrieve("eiffel tower tall", 3)
            body = server.requests[-1].json()
        self.assertEqual(server.requests[-1].path, "/docs/_search")
        self.assertEqual(body, {"size": 3, "query": {"bool": {"must": [{"match": {"text": {"query": "eiffel tower tall"}}}]}}})
        self.assertEqual(snippets[0].id, "wiki/d1")
        self.assertEqual((snippets[0].corpus_id, snippets[0].document_id, snippets[0].title), ("wiki", "d1", "Eiffel Tower"))
        self.assertEqual(snippets[0].metadata["lang"], "en")
        self.assertEqual(snippets[0].metadata["index"], "docs")
        self.assertEqual([s.score for s in snippets], sorted((s.score for s in snippets), reverse=True))
        self.assertIsInstance(retriever, Retriever)

    def test_filters_and_corpus_ids_become_term_clauses(self) -> None:
        with ElasticsearchServer() as server:
            retriever = loaded(server, filters={"lang": "en"})
            snippets = retriever.retrieve("tower", 5, corpus_ids=["wiki", "news"])
            body = server.requests[-1].json()
        self.assertEqual(body["query"]["bool"]["filter"], [{"term": {"lang": "en"}}, {"terms": {"corpus": ["news", "wiki"]}}])
        self.assertEqual({s.corpus_id for s in snippets}, {"wiki"})

    def test_without_a_corpus_field_the_index_is_one_corpus(self) -> None:
        with ElasticsearchServer() as server:
            loaded(server)
            plain = es(server, corpus_field=None, corpus_id="mycorpus")
            self.assertEqual({s.corpus_id for s in plain.retrieve("tower", 5)}, {"mycorpus"})
            requests_before = len(server.requests)
            self.assertEqual(plain.retrieve("tower", 5, corpus_ids=["other"]), ())
            self.assertEqual(len(server.requests), requests_before)

    def test_id_field_and_missing_index(self) -> None:
        with ElasticsearchServer({"docs": {"x1": {"text": "tower", "doc_id": "real-1"}}}) as server:
            self.assertEqual(es(server, id_field="doc_id").retrieve("tower", 1)[0].document_id, "real-1")
            with self.assertRaises(ProviderHTTPError) as ctx:
                ElasticsearchRetriever(server.root, "nope").retrieve("tower", 1)
        self.assertEqual(ctx.exception.status, 404)
        self.assertIn("index_not_found_exception", str(ctx.exception))


class KnnTest(unittest.TestCase):
    def test_elasticsearch_top_level_knn(self) -> None:
        with ElasticsearchServer() as server:
            retriever = loaded(server, mode="knn", embedder=HashedEmbedder(), num_candidates=50)
            snippets = retriever.retrieve("Eiffel Tower 330 metres tall", 2, corpus_ids=["wiki"])
            body = server.requests[-1].json()
            stored = server.documents("docs")["d1"]
        self.assertEqual(body["knn"]["field"], "embedding")
        self.assertEqual(body["knn"]["query_vector"], hashed_embedding("Eiffel Tower 330 metres tall"))
        self.assertEqual((body["knn"]["k"], body["knn"]["num_candidates"]), (2, 50))
        self.assertEqual(body["knn"]["filter"], [{"terms": {"corpus": ["wiki"]}}])
        self.assertEqual(body["_source"], {"excludes": ["embedding"]})
        self.assertEqual(snippets[0].id, "wiki/d1")
        self.assertNotIn("embedding", snippets[0].metadata)
        self.assertEqual(stored["embedding"], hashed_embedding(DOCS[0].text))

    def test_opensearch_knn_query(self) -> None:
        with ElasticsearchServer(opensearch=True) as server:
            retriever = loaded(server, mode="knn", embedder=HashedEmbedder(), opensearch=True)
            snippets = retriever.retrieve("Seine Paris", 1, corpus_ids=["wiki"])
            body = server.requests[-1].json()
        spec = body["query"]["knn"]["embedding"]
        self.assertEqual(spec["k"], 1)
        self.assertEqual(spec["filter"], {"bool": {"filter": [{"terms": {"corpus": ["wiki"]}}]}})
        self.assertEqual(snippets[0].id, "wiki/d2")

    def test_each_engine_refuses_the_other_dialect(self) -> None:
        with ElasticsearchServer(opensearch=True) as server:
            with self.assertRaises(ProviderHTTPError) as ctx:
                loaded(server, mode="knn", embedder=HashedEmbedder(), opensearch=False).retrieve("x", 1)
        self.assertEqual(ctx.exception.status, 400)
        with ElasticsearchServer() as server:
            with self.assertRaises(ProviderHTTPError):
                loaded(server, mode="knn", embedder=HashedEmbedder(), opensearch=True).retrieve("x", 1)

    def test_body_builders(self) -> None:
        self.assertEqual(match_body("q", 2, text_field="body", excludes=["v"])["_source"], {"excludes": ["v"]})
        self.assertEqual(knn_body([1.0], 5, vector_field="v", num_candidates=1, opensearch=False)["knn"]["num_candidates"], 5)

    def test_knn_needs_an_embedder(self) -> None:
        with self.assertRaises(InvalidInputError):
            ElasticsearchRetriever("http://127.0.0.1:9", "docs", mode="knn")
        with self.assertRaises(InvalidInputError):
            ElasticsearchRetriever("http://127.0.0.1:9", "docs", mode="fuzzy")


class BulkTest(unittest.TestCase):
    def test_ndjson_body_and_per_document_failures(self) -> None:
        with ElasticsearchServer(reject_ids=["d3"]) as server:
            result = es(server).bulk_index(DOCS, refresh=True)
            request = server.requests[0]
        self.assertEqual(request.path, "/docs/_bulk?refresh=true")
        self.assertEqual(request.header("content-type"), "application/x-ndjson")
        lines = request.body.decode("utf-8").split("\n")
        self.assertEqual(lines[-1], "")
        self.assertEqual(json.loads(lines[0]), {"index": {"_index": "docs", "_id": "d1"}})
        self.assertEqual(json.loads(lines[1]), {"corpus": "wiki", "lang": "en", "text": DOCS[0].text, "title": "Eiffel Tower", "year": 1889})
        self.assertEqual(result.indexed, ("d1", "d2", "d4"))
        self.assertFalse(result.ok)
        failure = result.failures[0]
        self.assertEqual((failure.document_id, failure.status, failure.error_type), ("d3", 400, "document_parsing_exception"))
        self.assertIn("failed to parse", failure.reason)

    def test_create_conflicts_and_batches(self) -> None:
        with ElasticsearchServer() as server:
            retriever = es(server)
            retriever.bulk_index(DOCS[:2])
            result = retriever.bulk_index(DOCS, op_type="create", batch_size=3)
            self.assertEqual(len(server.requests), 3)
        self.assertEqual(result.indexed, ("d3", "d4"))
        self.assertEqual([(f.document_id, f.status) for f in result.failures], [("d1", 409), ("d2", 409)])
        self.assertEqual(result.failures[0].error_type, "version_conflict_engine_exception")

    def test_bulk_rejected_as_a_whole_is_retried_then_raises(self) -> None:
        with ElasticsearchServer(faults=[Fault.http(429, "es_rejected_execution_exception")]) as server:
            self.assertTrue(es(server).bulk_index(DOCS).ok)
        with ElasticsearchServer() as server:
            with self.assertRaises(InvalidInputError):
                es(server).bulk_index(["not a document"])  # type: ignore[list-item]
            with self.assertRaises(InvalidInputError):
                es(server).bulk_index(DOCS, op_type="delete")

    def test_malformed_bulk_answer(self) -> None:
        with ElasticsearchServer() as server:
            server.route = lambda request: json_reply({"took": 1, "errors": False, "items": []})
            with self.assertRaises(ProviderError):
                es(server).bulk_index(DOCS[:1])


class AuthTest(unittest.TestCase):
    def test_api_key_and_basic_auth_headers_never_leak(self) -> None:
        with ElasticsearchServer(authorization=f"ApiKey {API_KEY}") as server:
            retriever = es(server, api_key=API_KEY)
            retriever.bulk_index(DOCS[:1])
            self.assertEqual(len(retriever.retrieve("tower", 1)), 1)
            wrong = es(server, api_key="wrong-key-123")
            with self.assertRaises(ProviderHTTPError) as ctx:
                wrong.retrieve("tower", 1)
        self.assertEqual(ctx.exception.status, 401)
        self.assertNotIn(API_KEY, repr(retriever) + repr(vars(retriever)) + repr(retriever.attempts))
        basic = "Basic " + base64.b64encode(b"elastic:changeme").decode()
        with ElasticsearchServer({"docs": {"a": {"text": "tower"}}}, authorization=basic) as server:
            self.assertEqual(len(ElasticsearchRetriever(server.root, "docs", basic_auth=("elastic", "changeme")).retrieve("tower", 1)), 1)
        with self.assertRaises(InvalidInputError):
            ElasticsearchRetriever("http://127.0.0.1:9", "docs", api_key="a", basic_auth=("u", "p"))

    def test_knn_with_an_http_embedder(self) -> None:
        with OpenAICompatibleServer() as llm_server, ElasticsearchServer() as server:
            retriever = loaded(server, mode="knn", embedder=OpenAIEmbedder(llm_server.url, "emb"))
            self.assertEqual(retriever.retrieve("Eiffel Tower 330 metres tall", 1)[0].id, "wiki/d1")


if __name__ == "__main__":
    unittest.main()
