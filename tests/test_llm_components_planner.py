"""The LLM planner: the port contract, plan repairs, repair rounds, fallbacks and budgets."""

from __future__ import annotations

import json
import unittest

from llm_scripts import FIXTURE_WORLD, GARBAGE, Oracle
from agentic_rag.testing.contracts import PlannerContract
from agentic_rag.testing.contracts.fixtures import fixture_corpora, QUESTION

from agentic_rag._agentic import HeuristicPlanner
from agentic_rag._agentic.routing import CorpusRouter
from agentic_rag._budget import RunBudget, use_budget
from agentic_rag._contracts import ContextAssessment, FactPriority, FeedbackQuery, SufficiencyStatus
from agentic_rag._errors import BudgetExhaustedError, InvalidInputError, ProviderHTTPError, StructuredOutputError
from agentic_rag.llm import HttpOptions, OpenAICompatibleLLM, ScriptedLLM
from agentic_rag.llm.components import ComponentEventKind, LLMPlanner
from agentic_rag.testing import Fault, OpenAICompatibleServer


def plan_json(*facts: dict) -> str:
    return json.dumps({"facts": list(facts), "rationale": "test"})


def fact(fact_id: str, corpora=("companies",), priority="must", **extra) -> dict:
    return {"id": fact_id, "description": f"fact {fact_id}", "priority": priority, "corpus_ids": list(corpora), **extra}


class LLMPlannerContractTest(PlannerContract, unittest.TestCase):
    def make_planner(self):
        return LLMPlanner(ScriptedLLM(Oracle(FIXTURE_WORLD)))


class GarbagePlannerContractTest(PlannerContract, unittest.TestCase):
    def make_planner(self):
        return LLMPlanner(ScriptedLLM([GARBAGE], repeat_last=True))


class PlanRepairTest(unittest.TestCase):
    def plan(self, reply: str, **options):
        planner = LLMPlanner(ScriptedLLM([reply]), **options)
        return planner, planner.plan(QUESTION, fixture_corpora())

    def test_good_plan_is_taken_as_given(self) -> None:
        planner, plan = self.plan(json.dumps({"facts": [dict(f) for f in FIXTURE_WORLD.facts]}))
        self.assertEqual([f.id for f in plan.facts], ["founder", "birthplace", "staff"])
        self.assertEqual(plan.fact("birthplace").depends_on, ("founder",))
        self.assertIs(plan.fact("staff").priority, FactPriority.SHOULD)
        self.assertEqual(plan.route("birthplace").corpus_ids, ("people",))
        self.assertEqual(planner.events, ())
        self.assertIsNone(planner.last_fallback_reason)

    def test_ids_are_sanitised_and_unique(self) -> None:
        planner, plan = self.plan(plan_json(fact("who founded?"), fact("who founded?"), fact("  "), fact("x", depends_on=["who founded?"])))
        self.assertEqual([f.id for f in plan.facts], ["who_founded", "who_founded_2", "f3", "x"])
        self.assertEqual(plan.fact("x").depends_on, ("who_founded",))
        self.assertIs(planner.events[0].kind, ComponentEventKind.ADJUSTED)

    def test_unknown_corpora_are_dropped_and_empty_routes_use_the_router(self) -> None:
        reply = plan_json(
            fact("a", corpora=["COMPANIES", "warehouse"]),
            {"id": "b", "description": "where was Ann Vale born", "priority": "must", "corpus_ids": ["nowhere"]},
        )
        planner, plan = self.plan(reply)
        self.assertEqual(plan.route("a").corpus_ids, ("companies",))
        self.assertEqual(plan.route("b").corpus_ids, ("people",))
        self.assertIn("routed by description", plan.route("b").reason)
        self.assertIn("dropped unknown corpora", planner.events[0].message)

    def test_a_router_that_locates_passages_widens_the_model_s_route(self) -> None:
        router = CorpusRouter(locate=lambda text: ["people", "companies"])
        _, plan = self.plan(plan_json(fact("a")), router=router)
        self.assertEqual(plan.route("a").corpus_ids, ("companies", "people"))
        self.assertIn("also stand in people", plan.route("a").reason)

    def test_dependencies_are_ordered_and_cycles_dropped(self) -> None:
        reply = plan_json(
            fact("c", depends_on=["b"]), fact("b", depends_on=["a", "ghost", "b"]), fact("a"),
            fact("x", depends_on=["y"]), fact("y", depends_on=["x"]),
        )
        planner, plan = self.plan(reply)
        self.assertEqual([f.id for f in plan.facts], ["a", "b", "c", "x", "y"])
        self.assertEqual(plan.fact("b").depends_on, ("a",))
        self.assertEqual(plan.fact("x").depends_on, ())
        self.assertEqual(plan.fact("y").depends_on, ("x",))
        self.assertIn("x -> y", planner.events[0].message)

    def test_a_plan_without_a_must_fact_gets_one(self) -> None:
        _, plan = self.plan(plan_json(fact("a", priority="may"), fact("b", priority="should")))
        self.assertEqual([f.priority for f in plan.facts], [FactPriority.MUST, FactPriority.SHOULD])

    def test_prior_assessment_is_shown_to_the_model(self) -> None:
        llm = ScriptedLLM(Oracle(FIXTURE_WORLD))
        prior = ContextAssessment(SufficiencyStatus.INSUFFICIENT, 0.5, ("founder",), ("birthplace",),
                                  feedback_queries=(FeedbackQuery("birthplace", "Ann Vale born"),))
        LLMPlanner(llm).plan(QUESTION, fixture_corpora(), prior)
        prompt = llm.calls[0].messages[-1].content
        self.assertIn("missing facts: birthplace", prompt)
        self.assertIn("suggested search for birthplace: Ann Vale born", prompt)
        with self.assertRaises(InvalidInputError):
            LLMPlanner(llm).plan(QUESTION, fixture_corpora(), prior="nope")


class RepairAndFallbackTest(unittest.TestCase):
    GOOD = json.dumps({"facts": [dict(f) for f in FIXTURE_WORLD.facts]})

    def test_malformed_then_repaired(self) -> None:
        llm = ScriptedLLM(["```json\n{\"facts\": [{\"id\": 1}]}\n```", self.GOOD])
        planner = LLMPlanner(llm)
        plan = planner.plan(QUESTION, fixture_corpora())
        self.assertEqual(len(plan.facts), 3)
        self.assertEqual(len(llm.calls), 2)
        self.assertIn("$.facts[0].id: expected string", llm.calls[1].messages[-1].content)
        self.assertEqual(planner.events, ())

    def test_schema_violations_twice_fall_back_to_the_heuristic_planner(self) -> None:
        bad = json.dumps({"facts": [{"id": "a", "description": "x", "priority": "high", "corpus_ids": []}]})
        llm = ScriptedLLM([bad, bad])
        planner = LLMPlanner(llm)
        plan = planner.plan(QUESTION, fixture_corpora())
        self.assertEqual(plan, HeuristicPlanner().plan(QUESTION, fixture_corpora()))
        self.assertEqual(len(llm.calls), 2)
        self.assertIn("'high' is not one of", planner.last_fallback_reason)
        self.assertEqual(planner.fallback_count, 1)
        self.assertTrue(any("minItems" in e for e in planner.events[0].errors))

    def test_without_fallback_a_clear_error(self) -> None:
        planner = LLMPlanner(ScriptedLLM([GARBAGE, GARBAGE]), fallback=None)
        with self.assertRaises(StructuredOutputError) as ctx:
            planner.plan(QUESTION, fixture_corpora())
        self.assertIn("llm_planner got no usable answer and has no fallback", str(ctx.exception))
        self.assertEqual(ctx.exception.text, GARBAGE)

    def test_a_valid_but_empty_plan_falls_back(self) -> None:
        planner = LLMPlanner(ScriptedLLM([plan_json({"id": "a", "description": "   ", "priority": "must", "corpus_ids": ["x"]})]))
        planner.plan(QUESTION, fixture_corpora())
        self.assertIn("no fact with a description", planner.last_fallback_reason)

    def test_budget_exhaustion_propagates_instead_of_falling_back(self) -> None:
        llm = ScriptedLLM([GARBAGE, GARBAGE])
        planner = LLMPlanner(llm)
        with use_budget(RunBudget(max_llm_calls=1)) as budget:
            with self.assertRaises(BudgetExhaustedError) as ctx:
                planner.plan(QUESTION, fixture_corpora())
        self.assertEqual(ctx.exception.reason, "call_budget")
        self.assertEqual(planner.events, ())
        self.assertEqual(budget.snapshot().llm_calls, len(llm.calls))

    def test_usage_is_charged_once_per_call(self) -> None:
        llm = ScriptedLLM([GARBAGE, self.GOOD])
        with use_budget(RunBudget()) as budget:
            LLMPlanner(llm).plan(QUESTION, fixture_corpora())
        snap = budget.snapshot()
        self.assertEqual(snap.llm_calls, 2)
        expected = sum(sum(-(-len(m.content) // 4) for m in c.messages) for c in llm.calls)
        self.assertEqual(snap.prompt_tokens, expected)

    def test_bad_arguments(self) -> None:
        with self.assertRaises(InvalidInputError):
            LLMPlanner(object())
        with self.assertRaises(InvalidInputError):
            LLMPlanner(ScriptedLLM([GARBAGE]), fallback=object())
        with self.assertRaises(InvalidInputError):
            LLMPlanner(ScriptedLLM([GARBAGE]), repair_rounds=-1)
        with self.assertRaises(InvalidInputError):
            LLMPlanner(ScriptedLLM([GARBAGE])).plan(QUESTION, ())


class LoopbackPlannerTest(unittest.TestCase):
    def client(self, server: OpenAICompatibleServer) -> OpenAICompatibleLLM:
        return OpenAICompatibleLLM(server.url, "test-model", max_retries=1, http=HttpOptions(sleep=lambda s: None))

    def test_repaired_over_http(self) -> None:
        with OpenAICompatibleServer([GARBAGE, RepairAndFallbackTest.GOOD]) as server:
            plan = LLMPlanner(self.client(server)).plan(QUESTION, fixture_corpora())
            self.assertEqual(len(server.requests), 2)
            first = json.loads(server.requests[0].body)
        self.assertEqual([f.id for f in plan.facts], ["founder", "birthplace", "staff"])
        self.assertEqual(first["response_format"]["type"], "json_schema")
        self.assertEqual(first["response_format"]["json_schema"]["name"], "planner")

    def test_a_flaky_endpoint_falls_back(self) -> None:
        faults = [Fault.http(503), Fault.http(503)]
        with OpenAICompatibleServer([RepairAndFallbackTest.GOOD], faults=faults) as server:
            planner = LLMPlanner(self.client(server))
            plan = planner.plan(QUESTION, fixture_corpora())
        self.assertEqual(plan, HeuristicPlanner().plan(QUESTION, fixture_corpora()))
        self.assertIn("HTTP 503", planner.last_fallback_reason)

    def test_a_prompt_too_long_for_the_model_falls_back(self) -> None:
        # llama.cpp's server says so with HTTP 400: a limit of this request, not a bad setting.
        message = "This model's maximum context length is 4096 tokens. However, you requested 4518 tokens."
        with OpenAICompatibleServer([RepairAndFallbackTest.GOOD], faults=[Fault.http(400, message)]) as server:
            planner = LLMPlanner(self.client(server))
            plan = planner.plan(QUESTION, fixture_corpora())
        self.assertEqual(plan, HeuristicPlanner().plan(QUESTION, fixture_corpora()))
        self.assertIn("maximum context length", planner.last_fallback_reason)

    def test_a_configuration_error_is_not_hidden(self) -> None:
        with OpenAICompatibleServer([RepairAndFallbackTest.GOOD], api_key="right") as server:
            planner = LLMPlanner(OpenAICompatibleLLM(server.url, "m", api_key="wrong", max_retries=0))
            with self.assertRaises(ProviderHTTPError) as ctx:
                planner.plan(QUESTION, fixture_corpora())
        self.assertEqual(ctx.exception.status, 401)
        self.assertEqual(planner.events, ())


if __name__ == "__main__":
    unittest.main()
