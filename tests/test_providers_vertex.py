"""Tests for VertexRagRetriever over the loopback retrieveContexts server."""

from __future__ import annotations

import os
import unittest
from unittest import mock

from agentic_rag._errors import InvalidInputError, ProviderError, ProviderHTTPError
from agentic_rag._ports import Retriever
from agentic_rag.llm import HttpOptions
from agentic_rag.providers import VertexRagRetriever
from agentic_rag.testing import Fault, VertexRagServer

TOKEN = "ya29.SECRET-vertex-token-000111"
PREFIX = "projects/proj/locations/us-central1/ragCorpora/"
CORPORA = {
    PREFIX + "wiki": [("gs://wiki/eiffel.txt", "The Eiffel Tower is 330 metres tall.", "Eiffel Tower"),
                      ("gs://wiki/eiffel.txt", "The Eiffel Tower was completed in 1889."),
                      ("gs://wiki/seine.txt", "The Seine flows through Paris.")],
    PREFIX + "news": [("gs://news/2024.txt", "Tower repainting finished; the tower is tall and brown.")],
}


def retriever(server: VertexRagServer, corpora=None, **kwargs) -> VertexRagRetriever:
    kwargs.setdefault("token_provider", lambda: TOKEN)
    return VertexRagRetriever("proj", "us-central1", corpora or list(CORPORA), base_url=server.root, http=HttpOptions(sleep=lambda _s: None), **kwargs)


class VertexRequestTest(unittest.TestCase):
    def test_sends_one_request_per_corpus_in_the_documented_shape(self) -> None:
        with VertexRagServer(CORPORA, token=TOKEN) as server:
            r = retriever(server, vector_distance_threshold=0.9, top_k=3)
            r.retrieve("eiffel tower", 2)
            requests = sorted(server.requests, key=lambda q: q.json()["vertexRagStore"]["ragResources"][0]["ragCorpus"])
        self.assertEqual(len(requests), 2)
        self.assertEqual(requests[0].path, "/v1/projects/proj/locations/us-central1:retrieveContexts")
        self.assertEqual(requests[0].header("authorization"), f"Bearer {TOKEN}")
        self.assertEqual(requests[0].json(), {
            "vertexRagStore": {"ragResources": [{"ragCorpus": PREFIX + "news"}]},
            "query": {"text": "eiffel tower", "ragRetrievalConfig": {"topK": 3, "filter": {"vectorDistanceThreshold": 0.9}}},
        })
        self.assertIsInstance(r, Retriever)

    def test_fan_out_merges_by_score_then_id(self) -> None:
        with VertexRagServer(CORPORA, token=TOKEN) as server:
            snippets = retriever(server).retrieve("eiffel tower tall", 4)
        self.assertEqual(len(snippets), 4)
        self.assertEqual([s.score for s in snippets], sorted((s.score for s in snippets), reverse=True))
        top = snippets[0]
        self.assertEqual((top.corpus_id, top.document_id), ("wiki", "gs://wiki/eiffel.txt"))
        self.assertEqual(top.metadata["source_uri"], "gs://wiki/eiffel.txt")
        self.assertEqual(top.title, "Eiffel Tower")
        self.assertAlmostEqual(top.score, 1.0 - top.metadata["vertex_score"])
        self.assertEqual({s.corpus_id for s in snippets}, {"wiki", "news"})
        # Two chunks of one file keep distinct ids.
        eiffel = [s for s in snippets if s.document_id == "gs://wiki/eiffel.txt"]
        self.assertEqual(len({s.id for s in eiffel}), 2)

    def test_same_input_same_output(self) -> None:
        with VertexRagServer(CORPORA, token=TOKEN) as server:
            r = retriever(server)
            self.assertEqual(r.retrieve("paris tower", 5), r.retrieve("paris tower", 5))

    def test_corpus_ids_select_corpora(self) -> None:
        with VertexRagServer(CORPORA, token=TOKEN) as server:
            r = retriever(server)
            only_news = r.retrieve("tower", 5, corpus_ids=["news"])
            by_name = r.retrieve("tower", 5, corpus_ids=[PREFIX + "wiki"])
            nothing = r.retrieve("tower", 5, corpus_ids=["elsewhere"])
            self.assertEqual(len(server.requests), 2)
        self.assertEqual({s.corpus_id for s in only_news}, {"news"})
        self.assertEqual({s.corpus_id for s in by_name}, {"wiki"})
        self.assertEqual(nothing, ())

    def test_no_match_answers_an_empty_contexts_object(self) -> None:
        with VertexRagServer(CORPORA, token=TOKEN) as server:
            self.assertEqual(retriever(server, vector_distance_threshold=0.0).retrieve("tower", 3), ())

    def test_similarity_scores_are_kept_as_they_are(self) -> None:
        with VertexRagServer(CORPORA, token=TOKEN) as server:
            snippets = retriever(server, score_is_distance=False).retrieve("eiffel", 2, corpus_ids=["wiki"])
        self.assertEqual([s.score for s in snippets], [s.metadata["vertex_score"] for s in snippets])


class VertexFailureTest(unittest.TestCase):
    def test_transient_errors_are_retried(self) -> None:
        with VertexRagServer(CORPORA, token=TOKEN, faults=[Fault.http(429, retry_after="0"), Fault.http(503)]) as server:
            r = retriever(server, corpora=[PREFIX + "wiki"])
            self.assertEqual(len(r.retrieve("tower", 2)), 2)
        self.assertEqual([a.status for a in r.attempts], [429, 503, 200])

    def test_one_failed_corpus_fails_the_call_with_googles_message(self) -> None:
        with VertexRagServer(CORPORA, token=TOKEN) as server:
            with self.assertRaises(ProviderHTTPError) as ctx:
                retriever(server, corpora=[PREFIX + "wiki", PREFIX + "missing"]).retrieve("tower", 2)
        self.assertEqual(ctx.exception.status, 404)
        self.assertIn("NOT_FOUND", str(ctx.exception))

    def test_bad_token_is_not_retried_and_never_shown(self) -> None:
        with VertexRagServer(CORPORA, token="other") as server:
            r = retriever(server, corpora=[PREFIX + "wiki"])
            with self.assertRaises(ProviderHTTPError) as ctx:
                r.retrieve("tower", 2)
            self.assertEqual(len(server.requests), 1)
        self.assertEqual(ctx.exception.status, 401)
        self.assertNotIn(TOKEN, str(ctx.exception) + repr(r) + repr(r.attempts))

    def test_token_provider_failures_hide_details(self) -> None:
        def broken() -> str:
            raise RuntimeError(f"refresh failed for {TOKEN}")

        with VertexRagServer(CORPORA, token=TOKEN) as server:
            with self.assertRaises(ProviderError) as ctx:
                retriever(server, corpora=[PREFIX + "wiki"], token_provider=broken).retrieve("tower", 2)
        self.assertIn("RuntimeError", str(ctx.exception))
        self.assertNotIn(TOKEN, str(ctx.exception))

    def test_environment_token_and_missing_credentials(self) -> None:
        with VertexRagServer(CORPORA, token=TOKEN) as server:
            with mock.patch.dict(os.environ, {"AGENTIC_RAG_VERTEX_TOKEN": TOKEN}):
                r = VertexRagRetriever("proj", "us-central1", [PREFIX + "wiki"], base_url=server.root)
                self.assertEqual(len(r.retrieve("tower", 1)), 1)
            self.assertNotIn(TOKEN, repr(r) + repr(vars(r)))
        with mock.patch.dict(os.environ, {}, clear=True), self.assertRaises(InvalidInputError) as ctx:
            VertexRagRetriever("proj", "us-central1", [PREFIX + "wiki"])
        self.assertIn("AGENTIC_RAG_VERTEX_TOKEN", str(ctx.exception))

    def test_bad_arguments(self) -> None:
        def make(**kw):
            return VertexRagRetriever("proj", "us-central1", kw.pop("corpora", [PREFIX + "a"]), token_provider=lambda: "t", **kw)

        for kwargs in ({"corpora": []}, {"corpora": [PREFIX + "a", "other/ragCorpora/a"]}, {"top_k": 0}, {"vector_distance_threshold": "near"}):
            with self.subTest(kwargs=kwargs), self.assertRaises(InvalidInputError):
                make(**kwargs)
        r = make()
        self.assertEqual(r.endpoint, "https://us-central1-aiplatform.googleapis.com/v1/projects/proj/locations/us-central1:retrieveContexts")
        with self.assertRaises(InvalidInputError):
            r.retrieve("", 3)
        with self.assertRaises(InvalidInputError):
            r.retrieve("q", 0)


if __name__ == "__main__":
    unittest.main()
