"""The parallel workflow: fan-out, deadline, branch outcomes, degradation, reranking per
branch, HyDE evidence rule, determinism, async entry point and budget charging.

Slow branches block on events the test controls (bounded waits), so no assertion depends on
how fast the machine is.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
import unittest

from agentic_rag._budget import RunBudget, use_budget
from agentic_rag._errors import BranchFailureError, InvalidInputError
from agentic_rag._parallel import (
    BranchStatus,
    ExtractiveGenerator,
    FunctionGenerator,
    FunctionRetriever,
    HyDERewriter,
    LexicalReranker,
    MultiQueryRewriter,
    ParallelRAGWorkflow,
    RAGRequest,
    RAGResult,
    ViewKind,
    verify_citations,
)
from agentic_rag._text import Analyzer

CORPUS = {
    "tides": "Ocean tides are caused by the Moon's gravity. The Sun adds a smaller pull.",
    "moon": "The Moon orbits Earth every 27 days and raises two tidal bulges of ocean water.",
    "photo": "Photosynthesis converts light into chemical energy in leaves.",
    "rrf": "Reciprocal rank fusion sums one over k plus rank.",
}
QUERY = "What causes ocean tides?"
HYPOTHETICAL = "Zyzzyva hypothetical passage: tides follow the Moon."
_ANALYZER = Analyzer()


def lexical(query, k):
    wanted = set(_ANALYZER.analyze(query))
    rows = []
    for doc_id, text in CORPUS.items():
        score = len(wanted & set(_ANALYZER.analyze(text)))
        if score:
            rows.append({"id": doc_id, "text": text, "score": float(score), "source": "lexical"})
    return rows


def trigram(query, k):
    def grams(text):
        text = f" {text.lower()} "
        return {text[i:i + 3] for i in range(len(text) - 2)}

    wanted = grams(query)
    return [{"id": d, "text": t, "score": len(wanted & grams(t)) / len(wanted | grams(t)), "source": "trigram"} for d, t in CORPUS.items()]


def lex_retriever(name="lex"):
    return FunctionRetriever(lexical, name=name, kind="lexical")


def vec_retriever(name="vec"):
    return FunctionRetriever(trigram, name=name, kind="vector")


class Blocking:
    """A retriever that waits for ``release`` (at most 2 s), then answers one late document."""

    def __init__(self, name="slow"):
        self.name = name
        self.release = threading.Event()
        self.finished = threading.Event()

    def retrieve(self, query, k, *, corpus_ids=None):
        try:
            self.release.wait(2.0)
            return FunctionRetriever(lambda q, n: [{"id": "late", "text": "Late tides arrive.", "score": 99.0}]).retrieve(query, k)
        finally:
            self.finished.set()


class Failing:
    name = "broken"

    def retrieve(self, query, k, *, corpus_ids=None):
        raise RuntimeError("index offline")


class RecordingGenerator:
    name = "recording"

    def __init__(self):
        self.inner = ExtractiveGenerator()
        self.calls = []

    def generate(self, query, documents):
        self.calls.append((query, tuple(documents)))
        return self.inner.generate(query, documents)


class RecordingReranker:
    name = "recording"

    def __init__(self):
        self.inner = LexicalReranker()
        self.calls = []
        self.lock = threading.Lock()

    def rerank(self, query, hits, top_k):
        with self.lock:
            self.calls.append((query, tuple(h.metadata["source"] for h in hits)))
        return self.inner.rerank(query, hits, top_k)


def canonical(result: RAGResult) -> str:
    """The result as JSON without wall-clock fields."""
    data = result.to_dict()
    data.pop("trace")
    for outcome in data["outcomes"]:
        outcome.pop("elapsed_s")
    return json.dumps(data, sort_keys=True)


def workflow(*retrievers, **kwargs):
    kwargs.setdefault("generator", ExtractiveGenerator())
    return ParallelRAGWorkflow(list(retrievers), **kwargs)


class FanOut(unittest.TestCase):
    def test_every_retriever_runs_every_view_in_branch_order(self):
        result = workflow(lex_retriever(), vec_retriever(), rewriter=MultiQueryRewriter()).run(QUERY)
        views = [v.text for v in result.trace.views]
        self.assertEqual(views, [QUERY, "causes ocean tides"])
        self.assertEqual([o.branch for o in result.outcomes], ["lex/q1", "vec/q1", "lex/q2", "vec/q2"])
        self.assertEqual([o.query for o in result.outcomes], [QUERY, QUERY, "causes ocean tides", "causes ocean tides"])
        self.assertTrue(all(o.status is BranchStatus.OK and o.hit_count > 0 for o in result.outcomes))
        self.assertFalse(result.degraded)

    def test_answer_cites_the_fused_documents(self):
        result = workflow(lex_retriever(), vec_retriever()).run(RAGRequest(QUERY, top_k=3))
        self.assertLessEqual(len(result.documents), 3)
        self.assertEqual(result.documents[0].document_id, "tides")
        self.assertFalse(result.answer.refused)
        self.assertIn("[1]", result.answer.text)
        self.assertEqual(verify_citations(result.answer, result.documents), ())
        self.assertEqual(result.trace.notes, ())
        top = result.documents[0]
        self.assertEqual([(c.retriever, c.rank) for c in top.contributions], [("lex", 1), ("vec", 1)])
        self.assertEqual(top.normalized_score, 1.0)

    def test_worker_pool_is_bounded(self):
        threads = set()

        def tracking(query, k):
            threads.add(threading.get_ident())
            return lexical(query, k)

        wf = workflow(FunctionRetriever(tracking, name="a"), FunctionRetriever(tracking, name="b"), rewriter=MultiQueryRewriter(), max_workers=1)
        result = wf.run(QUERY)
        self.assertEqual(len(result.outcomes), 4)
        self.assertEqual(len(threads), 1)

    def test_request_forms(self):
        wf = workflow(lex_retriever(), vec_retriever())
        self.assertEqual(canonical(wf.run(QUERY)), canonical(wf.run({"query": QUERY})))
        with self.assertRaises(InvalidInputError):
            wf.run(42)
        with self.assertRaises(InvalidInputError):
            wf.run(RAGRequest(QUERY, weights={"nope": 2.0}))

    def test_result_round_trips_through_json(self):
        result = workflow(lex_retriever(), vec_retriever(), reranker=LexicalReranker()).run(QUERY)
        self.assertEqual(RAGResult.from_dict(json.loads(json.dumps(result.to_dict()))), result)


class DeadlineAndFailures(unittest.TestCase):
    def test_timed_out_branch_is_reported_and_the_answer_comes_back_degraded(self):
        slow = Blocking()
        result = workflow(lex_retriever(), vec_retriever(), slow).run(RAGRequest(QUERY, deadline_s=0.2))
        statuses = {o.retriever: o.status for o in result.outcomes}
        self.assertEqual(statuses, {"lex": BranchStatus.OK, "vec": BranchStatus.OK, "slow": BranchStatus.TIMEOUT})
        self.assertTrue(result.degraded)
        self.assertFalse(result.answer.refused)
        before = json.dumps(result.to_dict(), sort_keys=True)
        slow.release.set()
        self.assertTrue(slow.finished.wait(2.0))
        time.sleep(0.02)  # let the abandoned worker complete its future
        self.assertEqual(json.dumps(result.to_dict(), sort_keys=True), before, "a late branch changed the result")
        self.assertNotIn("late", [d.document_id for d in result.documents])

    def test_error_branch_carries_type_and_message(self):
        result = workflow(lex_retriever(), Failing()).run(QUERY)
        broken = result.outcomes[1]
        self.assertEqual((broken.status, broken.error_type, broken.error_message), (BranchStatus.ERROR, "RuntimeError", "index offline"))
        self.assertTrue(result.degraded)
        self.assertEqual(result.outcomes[0].status, BranchStatus.OK)

    def test_below_minimum_raises_with_every_outcome(self):
        with self.assertRaises(BranchFailureError) as caught:
            workflow(lex_retriever(), Failing()).run(RAGRequest(QUERY, min_branches=2))
        outcomes = caught.exception.outcomes
        self.assertEqual([(o.retriever, o.status) for o in outcomes], [("lex", BranchStatus.OK), ("broken", BranchStatus.ERROR)])
        self.assertIn("1 of 2 branches", str(caught.exception))

    def test_all_branches_timing_out_raises(self):
        first, second = Blocking("s1"), Blocking("s2")
        try:
            with self.assertRaises(BranchFailureError) as caught:
                workflow(first, second).run(RAGRequest(QUERY, deadline_s=0.1))
            self.assertEqual([o.status for o in caught.exception.outcomes], [BranchStatus.TIMEOUT, BranchStatus.TIMEOUT])
        finally:
            first.release.set()
            second.release.set()

    def test_failing_rewriter_falls_back_to_the_query(self):
        class BrokenRewriter:
            name = "broken"

            def rewrite(self, request):
                raise ValueError("model down")

        result = workflow(lex_retriever(), vec_retriever(), rewriter=BrokenRewriter()).run(QUERY)
        self.assertEqual([v.text for v in result.trace.views], [QUERY])
        self.assertTrue(result.degraded)
        self.assertIn("rewriter 'broken' failed", result.trace.notes[0])

    def test_run_budget_deadline_and_charges_reach_the_caller(self):
        budget = RunBudget()
        with use_budget(budget):
            workflow(lex_retriever(), vec_retriever(), rewriter=MultiQueryRewriter()).run(QUERY)
        self.assertEqual(budget.snapshot().retriever_calls, 4)
        slow = Blocking()
        try:
            with use_budget(RunBudget(deadline_s=0.15)):
                result = workflow(lex_retriever(), slow).run(QUERY)
            self.assertEqual(result.outcomes[1].status, BranchStatus.TIMEOUT)
        finally:
            slow.release.set()


class RerankingAndFusion(unittest.TestCase):
    def test_reranker_runs_per_branch_with_the_original_query(self):
        reranker = RecordingReranker()
        result = workflow(lex_retriever(), vec_retriever(), rewriter=MultiQueryRewriter(), reranker=reranker).run(QUERY)
        self.assertEqual(len(reranker.calls), len(result.outcomes))
        for query, sources in reranker.calls:
            self.assertEqual(query, QUERY)
            self.assertEqual(len(set(sources)), 1, "a rerank call mixed branches")

    def test_weights_by_retriever_name(self):
        result = workflow(lex_retriever(), vec_retriever()).run(RAGRequest(QUERY, weights={"vec": 3.0}))
        weights = {c.retriever: c.weight for d in result.documents for c in d.contributions}
        self.assertEqual(weights, {"lex": 1.0, "vec": 3.0})

    def test_rank_window_and_rank_constant_reach_fusion(self):
        result = workflow(lex_retriever(), vec_retriever()).run(RAGRequest(QUERY, rank_window=1, rank_constant=10))
        self.assertTrue(all(c.rank == 1 for d in result.documents for c in d.contributions))
        self.assertAlmostEqual(result.documents[0].contributions[0].value, 1 / 11, places=15)

    def test_deterministic_across_thread_timings(self):
        def jittery(fn):
            def search(query, k):
                time.sleep(random.uniform(0.0, 0.02))
                return fn(query, k)
            return search

        wf = workflow(FunctionRetriever(jittery(lexical), name="lex"), FunctionRetriever(jittery(trigram), name="vec", kind="vector"), rewriter=MultiQueryRewriter(), reranker=LexicalReranker())
        outputs = {canonical(wf.run(QUERY)) for _ in range(5)}
        self.assertEqual(len(outputs), 1)

    def test_generator_must_return_a_generated_answer_and_citations_are_checked(self):
        class StringGenerator:
            def generate(self, query, documents):
                return "plain text"

        with self.assertRaises(InvalidInputError):
            workflow(lex_retriever(), vec_retriever(), generator=StringGenerator()).run(QUERY)
        result = workflow(lex_retriever(), vec_retriever(), generator=FunctionGenerator(lambda q, docs: "See [9].")).run(QUERY)
        self.assertIn("citation problem: marker [9] is out of range", result.trace.notes[0])


class HyDEEvidenceRule(unittest.TestCase):
    def test_hypothetical_document_is_searched_by_vectors_only_and_never_evidence(self):
        lexical_queries = []

        def recording_lexical(query, k):
            lexical_queries.append(query)
            return lexical(query, k)

        def echoing_vectors(query, k):
            rows = trigram(query, k)
            if "Zyzzyva" in query:  # a store that happens to hold the hypothetical text
                rows.insert(0, {"id": "echo", "text": query, "score": 5.0})
            return rows

        generator = RecordingGenerator()
        wf = ParallelRAGWorkflow(
            [FunctionRetriever(recording_lexical, name="lex"), FunctionRetriever(echoing_vectors, name="vec", kind="vector")],
            rewriter=HyDERewriter(lambda q: HYPOTHETICAL),
            generator=generator,
        )
        result = wf.run(RAGRequest(QUERY, top_k=10))
        self.assertEqual([(o.branch, o.view_kind) for o in result.outcomes], [("lex/q1", ViewKind.ORIGINAL), ("vec/q1", ViewKind.ORIGINAL), ("vec/q2", ViewKind.HYPOTHETICAL)])
        self.assertEqual(lexical_queries, [QUERY])
        self.assertNotIn("echo", [d.document_id for d in result.documents])
        self.assertTrue(all("Zyzzyva" not in d.text for d in result.documents))
        (_, given), = generator.calls
        self.assertTrue(all("Zyzzyva" not in d.text for d in given))
        self.assertNotIn("Zyzzyva", result.answer.text)

    def test_without_keep_original_vectors_search_only_the_hypothetical(self):
        wf = ParallelRAGWorkflow([lex_retriever(), vec_retriever()], rewriter=HyDERewriter(lambda q: HYPOTHETICAL, keep_original=False), generator=ExtractiveGenerator())
        result = wf.run(QUERY)
        self.assertEqual([(o.retriever, o.query) for o in result.outcomes], [("lex", QUERY), ("vec", HYPOTHETICAL)])


class AsyncEntryPoint(unittest.TestCase):
    def test_arun_matches_run(self):
        wf = workflow(lex_retriever(), vec_retriever(), rewriter=MultiQueryRewriter())
        self.assertEqual(canonical(asyncio.run(wf.arun(QUERY))), canonical(wf.run(QUERY)))

    def test_arun_does_not_block_the_event_loop(self):
        loop_ran = threading.Event()
        seen = []

        def waits_for_the_loop(query, k):
            seen.append(loop_ran.wait(2.0))
            return lexical(query, k)

        wf = workflow(FunctionRetriever(waits_for_the_loop, name="a"), lex_retriever())

        async def other_task():
            await asyncio.sleep(0)
            loop_ran.set()

        async def main():
            result, _ = await asyncio.gather(wf.arun(QUERY), other_task())
            return result

        result = asyncio.run(main())
        self.assertEqual(seen, [True], "the event loop was blocked while the workflow ran")
        self.assertFalse(result.degraded)


if __name__ == "__main__":
    unittest.main()


class GeneratorBudgetTest(unittest.TestCase):
    def test_a_spent_budget_in_the_generator_degrades_instead_of_raising(self):
        from agentic_rag._parallel import FunctionRetriever, ParallelRAGWorkflow, RAGRequest

        class ChargingGenerator:
            def generate(self, query, documents):
                from agentic_rag._budget import current_budget
                current_budget().check_llm()
                raise AssertionError("the budget should have stopped this call")

        docs = [{"id": "a", "text": "Tides are caused by the Moon."}, {"id": "b", "text": "Soup needs salt."}]
        search = lambda q, k: [d for d in docs if "tide" in d["text"].lower() or "moon" in q.lower()][:k]  # noqa: E731
        workflow = ParallelRAGWorkflow([FunctionRetriever(search, name="one"), FunctionRetriever(search, name="two")], generator=ChargingGenerator())
        budget = RunBudget(max_llm_calls=1)
        budget.charge_llm()
        with use_budget(budget):
            result = workflow.run(RAGRequest("What causes tides?"))
        self.assertTrue(result.degraded)
        self.assertTrue(any("budget" in note for note in result.trace.notes))
        self.assertIn("Moon", result.answer.text)
