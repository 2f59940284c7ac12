"""LLM query rewriting: the agentic rewriter, parallel query views and the HyDE writer."""

from __future__ import annotations

import dataclasses
import json
import unittest

from llm_scripts import FIXTURE_WORLD, GARBAGE, SAMPLE_WORLD, Oracle
from agentic_rag.testing.contracts import QueryRewriterContract
from agentic_rag.testing.contracts.fixtures import fixture_plan

from agentic_rag._agentic import PlanFeedbackRewriter
from agentic_rag._agentic.routing import CorpusRouter
from agentic_rag._budget import RunBudget, use_budget
from agentic_rag._contracts import FactPriority, FeedbackQuery, SubqueryOrigin
from agentic_rag._errors import BindingError, BudgetExhaustedError, InvalidInputError, StructuredOutputError
from agentic_rag.llm import ScriptedLLM
from agentic_rag.llm.components import LLMHyDEWriter, LLMQueryRewriter, LLMQueryViewRewriter, QueryViewStrategy, hyde_generate_fn, statement_document
from agentic_rag._parallel import (
    DecompositionRewriter,
    ExtractiveGenerator,
    FunctionRetriever,
    HyDERewriter,
    MultiQueryRewriter,
    ParallelRAGWorkflow,
    QueryViewRewriter,
    RewriteRequest,
    RewriteResult,
    ViewKind,
)


def queries_json(*rows: tuple[str, str]) -> str:
    return json.dumps({"queries": [{"fact_id": f, "text": t, "strategy": "paraphrase"} for f, t in rows]})


class LLMRewriterContractTest(QueryRewriterContract, unittest.TestCase):
    def make_rewriter(self):
        return LLMQueryRewriter(ScriptedLLM(Oracle(FIXTURE_WORLD)))


class GarbageRewriterContractTest(QueryRewriterContract, unittest.TestCase):
    def make_rewriter(self):
        return LLMQueryRewriter(ScriptedLLM([GARBAGE], repeat_last=True))


class AgenticRewriterTest(unittest.TestCase):
    def test_first_round_asks_for_independent_and_must_facts_and_uses_their_routes(self) -> None:
        llm = ScriptedLLM([queries_json(("founder", "Zeta Labs founder"), ("founder", "zeta labs founder "), ("staff", "Zeta Labs staff"),
                                        ("birthplace", "birthplace of the founder of Zeta Labs"), ("ghost", "nothing"))])
        queries = LLMQueryRewriter(llm).rewrite(fixture_plan(), (), iteration=1)
        request = llm.calls[0].messages[-1].content
        # The must fact that depends on the founder is searched now, in the question's words.
        self.assertIn("Write queries only for these facts: founder, birthplace, staff; at most 3 a fact.", request)
        self.assertIn("birthplace depends on facts not yet found", request)
        self.assertEqual([(q.id, q.fact_id, q.text) for q in queries],
                         [("q1.1", "founder", "Zeta Labs founder"), ("q1.2", "birthplace", "birthplace of the founder of Zeta Labs"),
                          ("q1.3", "staff", "Zeta Labs staff")])
        self.assertEqual([q.corpus_ids for q in queries], [("companies",), ("people",), ("companies",)])
        self.assertTrue(all(q.origin is SubqueryOrigin.PLAN for q in queries))

    def test_a_dependent_fact_that_is_not_must_waits_for_its_bridge(self) -> None:
        plan = fixture_plan()
        facts = tuple(dataclasses.replace(f, priority=FactPriority.SHOULD) if f.id == "birthplace" else f for f in plan.facts)
        plan = dataclasses.replace(plan, facts=facts)
        llm = ScriptedLLM([queries_json(("founder", "Zeta Labs founder"), ("birthplace", "x"))])
        queries = LLMQueryRewriter(llm).rewrite(plan, (), iteration=1)
        self.assertIn("Write queries only for these facts: founder, staff; at most 3 a fact.", llm.calls[0].messages[-1].content)
        self.assertNotIn("depend", llm.calls[0].messages[-1].content.split("Write queries only")[1])
        self.assertEqual([q.fact_id for q in queries], ["founder", "staff"])  # staff: the plan's description stands in

    def test_the_request_states_the_cap_the_rewriter_keeps(self) -> None:
        rows = [("founder", f"founder query {n}") for n in range(5)]
        llm = ScriptedLLM([queries_json(*rows)])
        queries = LLMQueryRewriter(llm, max_queries_per_fact=2).rewrite(fixture_plan(), (), iteration=1)
        self.assertIn("at most 2 a fact", llm.calls[0].messages[-1].content)
        self.assertEqual([q.text for q in queries if q.fact_id == "founder"], ["founder query 0", "founder query 1"])

    def test_queries_interleave_across_facts(self) -> None:
        llm = ScriptedLLM([queries_json(("founder", "a1"), ("founder", "a2"), ("staff", "b1"))])
        queries = LLMQueryRewriter(llm).rewrite(fixture_plan(), (), iteration=1)
        self.assertEqual([q.text for q in queries], ["a1", "b1", "a2"])

    def test_feedback_round_routes_by_text_and_keeps_lineage(self) -> None:
        feedback = (FeedbackQuery("birthplace", "Ann Vale born", parent_id="q1.1"),)
        llm = ScriptedLLM([queries_json(("birthplace", "Ann Vale birthplace biography"))])
        queries = LLMQueryRewriter(llm).rewrite(fixture_plan(), feedback, iteration=2)
        self.assertIn("Follow-up round", llm.calls[0].messages[-1].content)
        self.assertEqual([(q.fact_id, q.text, q.parent_id, q.origin) for q in queries],
                         [("birthplace", "Ann Vale birthplace biography", "q1.1", SubqueryOrigin.FEEDBACK)])
        self.assertEqual(queries[0].corpus_ids, ("people",))

    def test_a_follow_up_the_judge_routed_also_searches_where_its_passages_stand(self) -> None:
        feedback = (FeedbackQuery("birthplace", "Ann Vale born", parent_id="q1.1", corpus_ids=("people",)),)
        llm = ScriptedLLM([queries_json(("birthplace", "Ann Vale birthplace biography"))])
        router = CorpusRouter(locate=lambda text: ["companies", "people"])
        queries = LLMQueryRewriter(llm, router=router).rewrite(fixture_plan(), feedback, iteration=2)
        self.assertEqual(queries[0].corpus_ids, ("people", "companies"))
        self.assertIn("also stand in companies", queries[0].reason)
        # Without a router that can locate passages, the judge's choice stands alone.
        llm = ScriptedLLM([queries_json(("birthplace", "Ann Vale birthplace biography"))])
        self.assertEqual(LLMQueryRewriter(llm).rewrite(fixture_plan(), feedback, iteration=2)[0].corpus_ids, ("people",))

    def test_later_round_without_feedback_makes_no_call(self) -> None:
        llm = ScriptedLLM([])
        self.assertEqual(LLMQueryRewriter(llm).rewrite(fixture_plan(), (), iteration=2), ())
        self.assertEqual(llm.calls, ())

    def test_no_usable_query_falls_back(self) -> None:
        rewriter = LLMQueryRewriter(ScriptedLLM([queries_json(("ghost", "x"))]))
        queries = rewriter.rewrite(fixture_plan(), (), iteration=1)
        self.assertEqual(queries, PlanFeedbackRewriter().rewrite(fixture_plan(), (), iteration=1))
        self.assertIn("no query names a requested fact", rewriter.last_fallback_reason)

    def test_without_fallback_raises_and_budget_propagates(self) -> None:
        with self.assertRaises(StructuredOutputError):
            LLMQueryRewriter(ScriptedLLM([GARBAGE, GARBAGE]), fallback=None).rewrite(fixture_plan(), (), iteration=1)
        rewriter = LLMQueryRewriter(ScriptedLLM([GARBAGE, GARBAGE]))
        with use_budget(RunBudget(max_llm_calls=1)), self.assertRaises(BudgetExhaustedError):
            rewriter.rewrite(fixture_plan(), (), iteration=1)
        self.assertEqual(rewriter.events, ())

    def test_bad_arguments(self) -> None:
        rewriter = LLMQueryRewriter(ScriptedLLM([GARBAGE]))
        for call in (lambda: rewriter.rewrite("plan", (), iteration=1), lambda: rewriter.rewrite(fixture_plan(), ("x",), iteration=2),
                     lambda: rewriter.rewrite(fixture_plan(), (), iteration=0)):
            with self.assertRaises(InvalidInputError):
                call()


class QueryViewRewriterTest(unittest.TestCase):
    def test_multi_query_views(self) -> None:
        llm = ScriptedLLM([queries_json(("q", "Who founded Acme Robotics?"), ("q", "Acme Robotics founder"), ("q", "acme robotics FOUNDER"), ("q", "Acme founded by"))])
        rewriter = LLMQueryViewRewriter(llm, max_queries=2)
        self.assertIsInstance(rewriter, QueryViewRewriter)
        result = rewriter.rewrite(RewriteRequest("Who founded Acme Robotics?", temperature=0.3, max_tokens=64))
        self.assertEqual(result, RewriteResult(queries=("Acme Robotics founder", "Acme founded by")))
        self.assertEqual((llm.calls[0].temperature, llm.calls[0].max_tokens), (0.3, 64))
        self.assertEqual(rewriter.name, "llm_multi_query")
        # A question of several parts gets a query per part before any paraphrase, within the cap.
        request = llm.calls[0].messages[-1].content
        self.assertIn("Write up to 2 alternative search queries", request)
        self.assertLess(request.index("strategy decomposition"), request.index("strategy paraphrase"))

    def test_decomposition_prompt_and_fallback(self) -> None:
        llm = ScriptedLLM([GARBAGE, GARBAGE])
        rewriter = LLMQueryViewRewriter(llm, strategy="decomposition")
        request = RewriteRequest("Which is older, Acme Robotics or Cobalt Foods?")
        self.assertEqual(rewriter.rewrite(request), DecompositionRewriter().rewrite(request))
        self.assertIn("Split the question", llm.calls[0].messages[-1].content)
        self.assertEqual(rewriter.fallback_count, 1)
        self.assertIsInstance(LLMQueryViewRewriter(llm).fallback, MultiQueryRewriter)

    def test_only_the_original_back_is_one_view(self) -> None:
        result = LLMQueryViewRewriter(ScriptedLLM([queries_json(("p1", "tides"))])).rewrite(RewriteRequest("Tides?"))
        self.assertEqual(result.queries, ("Tides?",))

    def test_bad_arguments(self) -> None:
        with self.assertRaises(InvalidInputError):
            LLMQueryViewRewriter(ScriptedLLM([GARBAGE]), strategy="hyde")
        with self.assertRaises(InvalidInputError):
            LLMQueryViewRewriter(ScriptedLLM([GARBAGE])).rewrite("text")
        with self.assertRaises(StructuredOutputError):
            LLMQueryViewRewriter(ScriptedLLM([GARBAGE, GARBAGE]), fallback=None).rewrite(RewriteRequest("x"))
        self.assertEqual(QueryViewStrategy("decomposition"), QueryViewStrategy.DECOMPOSITION)


class HyDETest(unittest.TestCase):
    def test_writer_feeds_hyde_and_vector_branches_only(self) -> None:
        writer = hyde_generate_fn(ScriptedLLM(Oracle(SAMPLE_WORLD)), corpus_description="company records")
        self.assertIsInstance(writer, LLMHyDEWriter)
        seen: dict[str, list[str]] = {"lex": [], "vec": []}

        def search(name):
            return lambda query, k: seen[name].append(query) or [{"id": "acme", "text": "Acme Robotics was founded in 2001 by Jane Doe.", "score": 1.0}]

        workflow = ParallelRAGWorkflow(
            [FunctionRetriever(search("lex"), name="lex"), FunctionRetriever(search("vec"), name="vec", kind="vector")],
            rewriter=HyDERewriter(writer), generator=ExtractiveGenerator(),
        )
        result = workflow.run("Who founded Acme Robotics?")
        self.assertEqual(seen["lex"], ["Who founded Acme Robotics?"])
        self.assertIn(SAMPLE_WORLD.hyde, seen["vec"])
        self.assertEqual([v.kind for v in result.trace.views], [ViewKind.ORIGINAL, ViewKind.HYPOTHETICAL])
        self.assertFalse(result.degraded)

    def test_hyde_binding_rule_still_applies(self) -> None:
        lex = [FunctionRetriever(lambda q, k: [], name="a"), FunctionRetriever(lambda q, k: [], name="b")]
        with self.assertRaises(BindingError):
            ParallelRAGWorkflow(lex, rewriter=HyDERewriter(LLMHyDEWriter(ScriptedLLM([GARBAGE]))), generator=ExtractiveGenerator())

    def test_fallback_is_the_statement_view(self) -> None:
        writer = LLMHyDEWriter(ScriptedLLM([GARBAGE, json.dumps({"hypothetical_document": "   "})]))
        self.assertEqual(writer("What is the capital of France?"), "the capital of France is")
        self.assertEqual(statement_document("tides"), "tides")
        self.assertEqual(writer.fallback_count, 1)
        custom = LLMHyDEWriter(ScriptedLLM([GARBAGE, GARBAGE]), fallback=lambda q: f"about {q}")
        self.assertEqual(custom("tides"), "about tides")
        with self.assertRaises(StructuredOutputError):
            LLMHyDEWriter(ScriptedLLM([GARBAGE, GARBAGE]), fallback=None)("tides")
        with self.assertRaises(InvalidInputError):
            LLMHyDEWriter(ScriptedLLM([GARBAGE]), fallback="nope")


if __name__ == "__main__":
    unittest.main()
