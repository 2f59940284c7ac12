"""The contracts: validation naming the bad value, JSON round trips, the run budget, the
orchestrator config and the error tree."""

from __future__ import annotations

import json
import math
import unittest

from agentic_rag.testing.contracts import TermOverlapRetriever
from agentic_rag.testing.contracts.fixtures import fixture_corpora, fixture_plan, fixture_snippet, QUESTION, synthesis_scenarios

import agentic_rag._errors as errors
from agentic_rag._agentic.config import OrchestratorConfig
from agentic_rag._agentic.extractive import ExtractiveDrafter
from agentic_rag._agentic.orchestrator import AgenticRAGOrchestrator
from agentic_rag._agentic.planner import HeuristicPlanner
from agentic_rag._budget import RunBudget, current_budget, use_budget
from agentic_rag._contracts import (
    AnswerabilityLabel,
    AnswerStatus,
    Citation,
    Claim,
    ConflictEvidence,
    ConflictGroup,
    ContextAssessment,
    Corpus,
    Document,
    DraftAnswer,
    FactPriority,
    FeedbackQuery,
    GroundedAnswer,
    IterationTrace,
    RequiredFact,
    RetrievalPlan,
    Route,
    RunResult,
    Snippet,
    StopConditions,
    StopReason,
    Subquery,
    SubqueryOrigin,
    SufficiencyStatus,
    Usage,
)
from agentic_rag._errors import AgenticRAGError, BudgetExhaustedError, InvalidInputError

FACT = RequiredFact("f1", "Who founded Zeta Labs")
ROUTE = Route("f1", ("c",))


def plan(**kw):
    args = dict(question="Who founded Zeta Labs?", facts=(FACT,), routes=(ROUTE,))
    args.update(kw)
    return RetrievalPlan(**args)


def assessment(**kw):
    args = dict(status=SufficiencyStatus.INSUFFICIENT, sufficiency_score=0.5)
    args.update(kw)
    return ContextAssessment(**args)


def run_result():
    """A full run over the fixture world: two iterations, a conflict, a SHOULD fact missing."""
    orchestrator = AgenticRAGOrchestrator(retriever=TermOverlapRetriever(), planner=HeuristicPlanner(fixture_plan().facts),
                                          config=OrchestratorConfig(top_k=2, deadline_s=None))
    return orchestrator.run(QUESTION, fixture_corpora())


class RefusesMixin:
    def assertRefuses(self, bad, make, *, shown=None):
        """``make()`` raises InvalidInputError whose message shows ``repr(bad)`` (or ``shown``)."""
        with self.assertRaises(InvalidInputError) as ctx:
            make()
        self.assertIn(shown if shown is not None else repr(bad), str(ctx.exception))
        return ctx.exception


class TextFieldValidationTest(RefusesMixin, unittest.TestCase):
    def test_ids_and_texts_refuse_empty_whitespace_and_non_strings(self):
        makers = {
            "Corpus.id": lambda v: Corpus(v),
            "Document.id": lambda v: Document(v, "text"),
            "Document.corpus_id": lambda v: Document("d", "text", corpus_id=v),
            "RequiredFact.id": lambda v: RequiredFact(v, "desc"),
            "RequiredFact.description": lambda v: RequiredFact("f", v),
            "Route.fact_id": lambda v: Route(v, ("c",)),
            "Route.corpus_ids item": lambda v: Route("f", (v,)),
            "RetrievalPlan.question": lambda v: plan(question=v),
            "Subquery.id": lambda v: Subquery(v, "f", "text", ("c",)),
            "Subquery.fact_id": lambda v: Subquery("q", v, "text", ("c",)),
            "Subquery.text": lambda v: Subquery("q", "f", v, ("c",)),
            "Snippet.corpus_id": lambda v: Snippet("s", v, "d", "t"),
            "Snippet.document_id": lambda v: Snippet("s", "c", v, "t"),
            "Citation.snippet_id": lambda v: Citation(v, "quote"),
            "Citation.quote": lambda v: Citation("s", v),
            "Claim.text": lambda v: Claim(v),
            "ConflictGroup.value": lambda v: ConflictGroup(v, ("s",)),
            "ConflictEvidence.fact_id": lambda v: ConflictEvidence(v, (ConflictGroup("a", ("s",)), ConflictGroup("b", ("t",)))),
            "FeedbackQuery.fact_id": lambda v: FeedbackQuery(v, "text"),
            "FeedbackQuery.text": lambda v: FeedbackQuery("f", v),
            "RunResult.question": lambda v: RunResult(v, plan(), GroundedAnswer("", (), "unanswerable"), (), (), "no_queries"),
        }
        for field, make in makers.items():
            for bad in ("", "   \t\n", None, 7, ["x"]):
                with self.subTest(field=field, value=bad):
                    exc = self.assertRefuses(bad, lambda: make(bad))
                    self.assertIn(field, str(exc))

    def test_optional_texts(self):
        self.assertEqual(Corpus("c").description, "")
        self.assertRefuses(1, lambda: Corpus("c", 1))
        self.assertRefuses("  ", lambda: Snippet("  ", "c", "d", "t"))  # only "" means "derive it"
        self.assertRefuses(9, lambda: Snippet(9, "c", "d", "t"))

    def test_message_names_field_and_stage(self):
        exc = self.assertRefuses("  ", lambda: RequiredFact("  ", "d"))
        self.assertIn("RequiredFact.id", str(exc))
        self.assertEqual(exc.stage, "contracts")
        self.assertTrue(str(exc).startswith("contracts: "))

    def test_bare_string_where_a_sequence_is_expected(self):
        self.assertRefuses("corpus", lambda: Route("f", "corpus"))
        self.assertRefuses("Zeta", lambda: RequiredFact("f", "d", required_terms="Zeta"))
        self.assertRefuses("Zeta", lambda: RequiredFact("f", "d", metadata={"required_terms": "Zeta"}))
        self.assertRefuses("s", lambda: ConflictGroup("v", "s"))
        self.assertRefuses("c", lambda: Subquery("q", "f", "t", "c"))


class CorpusFamilyValidationTest(RefusesMixin, unittest.TestCase):
    def test_document_needs_text_or_title(self):
        self.assertRefuses("d", lambda: Document("d", "  ", title=" "))
        self.assertEqual(Document("d", "", title="Title").title, "Title")

    def test_required_fact(self):
        self.assertIs(RequiredFact("f", "d", priority="should").priority, FactPriority.SHOULD)
        self.assertIs(RequiredFact("f", "d", priority=FactPriority.MAY).priority, FactPriority.MAY)
        self.assertRefuses("urgent", lambda: RequiredFact("f", "d", priority="urgent"))
        self.assertRefuses(3, lambda: RequiredFact("f", "d", priority=3))
        self.assertRefuses("f", lambda: RequiredFact("f", "d", depends_on=("f",)))
        self.assertRefuses("", lambda: RequiredFact("f", "d", required_terms=("ok", "")))
        legacy = RequiredFact("f", "d", metadata={"required_terms": ["Zeta Labs"], "conflict_terms": ["1999", "2003"]})
        self.assertEqual((legacy.required_terms, legacy.conflict_terms), (("Zeta Labs",), ("1999", "2003")))
        self.assertEqual([p.weight for p in FactPriority], [1.0, 0.5, 0.25])

    def test_route(self):
        self.assertRefuses("f", lambda: Route("f", ()))
        self.assertRefuses("c", lambda: Route("f", ("c", "c")))

    def test_stop_conditions(self):
        for bad in (-0.1, 1.5, math.nan, math.inf, "0.5", True):
            with self.subTest(value=bad):
                self.assertRefuses(bad, lambda: StopConditions(min_sufficiency=bad))

    def test_retrieval_plan(self):
        other = RequiredFact("f2", "Where was the founder born", depends_on=("f1",))
        self.assertRefuses("f1", lambda: plan(facts=(FACT, FACT), routes=(ROUTE,)))
        self.assertRefuses("ghost", lambda: plan(routes=(ROUTE, Route("ghost", ("c",)))))
        self.assertRefuses("f2", lambda: plan(facts=(FACT, other)))  # no route for f2
        self.assertRefuses("f1", lambda: plan(routes=(ROUTE, ROUTE)))
        self.assertRefuses("nope", lambda: plan(facts=(RequiredFact("f1", "d", depends_on=("nope",)),)))
        self.assertRefuses("elsewhere", lambda: plan(routes=(Route("f1", ("c", "elsewhere")),), corpora=(Corpus("c"),)))
        self.assertRefuses("c", lambda: plan(corpora=(Corpus("c"), Corpus("c"))))
        with self.assertRaises(InvalidInputError):
            plan(facts=(), routes=())
        ok = plan(facts=(FACT, other), routes=(ROUTE, Route("f2", ("c",))), corpora=(Corpus("c"),))
        self.assertIs(ok.fact("f2"), other)
        self.assertEqual(ok.route("f2").corpus_ids, ("c",))
        self.assertRefuses("f9", lambda: ok.fact("f9"))
        self.assertRefuses("f9", lambda: ok.route("f9"))


class EvidenceFamilyValidationTest(RefusesMixin, unittest.TestCase):
    def test_snippet_derived_id_and_end(self):
        snippet = Snippet("", "c", "d", "Zeta Labs.", start=10)
        self.assertEqual((snippet.id, snippet.end, snippet.key), ("c/d#10-20", 20, ("c", "d", 10, 20)))
        self.assertEqual(Snippet("", "c", "d", "text", start=3, end=40).id, "c/d#3-40")
        self.assertEqual(Snippet("mine", "c", "d", "text").id, "mine")
        self.assertRefuses(-1, lambda: Snippet("s", "c", "d", "t", start=-1))
        self.assertRefuses(2, lambda: Snippet("s", "c", "d", "t", start=5, end=2))
        self.assertRefuses("high", lambda: Snippet("s", "c", "d", "t", score="high"))
        self.assertRefuses(True, lambda: Snippet("s", "c", "d", "t", score=True))
        self.assertRefuses(math.nan, lambda: Snippet("s", "c", "d", "t", score=math.nan), shown="nan")
        self.assertEqual(Snippet("s", "c", "d", "t", score=3).score, 3.0)

    def test_snippet_lineage_and_title(self):
        snippet = Snippet("s", "c", "d", "t", metadata={"title": "T"}, query_id="q1.1", fact_id="f", lineage=(("q2.1", "g"),))
        self.assertEqual(snippet.lineage, (("q1.1", "f"), ("q2.1", "g")))
        self.assertEqual(snippet.title, "T")
        self.assertEqual(Snippet("s", "c", "d", "t", metadata={"title": 3}).title, "")
        self.assertRefuses(("q1",), lambda: Snippet("s", "c", "d", "t", lineage=(("q1",),)))

    def test_citation(self):
        text = "Zeta Labs was founded in 1999. It makes sensors."
        snippet = Snippet("s", "c", "d", text)
        good = Citation("s", "It makes sensors.", 31)
        self.assertEqual(good.end, 48)
        self.assertTrue(good.is_supported_by(snippet))
        self.assertFalse(Citation("s", "It makes sensors.", 30).is_supported_by(snippet))  # shifted span
        self.assertFalse(Citation("other", "It makes sensors.", 31).is_supported_by(snippet))  # wrong snippet
        self.assertFalse(Citation("s", "It makes sensors!", 31).is_supported_by(snippet))  # quote altered
        self.assertFalse(Citation("s", "It makes sensors.", 31, 40).is_supported_by(snippet))  # end disagrees
        self.assertRefuses(1, lambda: Citation("s", "abc", start=2, end=1))
        self.assertRefuses(-3, lambda: Citation("s", "abc", start=-3))

    def test_claim_and_draft(self):
        self.assertRefuses("a citation", lambda: Claim("x", ("a citation",)))
        self.assertEqual(Claim("x", [Citation("s", "q")]).citations, (Citation("s", "q"),))
        self.assertRefuses(5, lambda: DraftAnswer(5))
        self.assertEqual(DraftAnswer("").claims, ())

    def test_subquery(self):
        self.assertIs(Subquery("q", "f", "t", ("c",), origin="feedback").origin, SubqueryOrigin.FEEDBACK)
        self.assertRefuses("bogus", lambda: Subquery("q", "f", "t", ("c",), origin="bogus"))
        self.assertRefuses(0, lambda: Subquery("q", "f", "t", ("c",), iteration=0))


class AssessmentFamilyValidationTest(RefusesMixin, unittest.TestCase):
    def test_score_bounds(self):
        for bad in (-0.01, 1.01, math.nan, math.inf, None, "0.5", False):
            with self.subTest(score=bad):
                exc = self.assertRefuses(bad, lambda: assessment(sufficiency_score=bad))
                self.assertEqual(exc.stage, "judge")
        self.assertEqual(assessment(sufficiency_score=1).sufficiency_score, 1.0)

    def test_status_label_and_partition(self):
        self.assertRefuses("useful_but_incomplete", lambda: assessment(status="sufficient", label="useful_but_incomplete"))
        self.assertRefuses("f1", lambda: assessment(covered_fact_ids=("f1", "f2"), missing_fact_ids=("f1",)))
        self.assertRefuses("maybe", lambda: assessment(status="maybe"))
        self.assertRefuses("dunno", lambda: assessment(label="dunno"))
        ok = assessment(status="sufficient", label="sufficient", sufficiency_score=1.0)
        self.assertTrue(ok.is_sufficient)
        self.assertFalse(assessment().is_sufficient)
        self.assertIs(assessment().label, AnswerabilityLabel.INSUFFICIENT)

    def test_conflicts(self):
        one = ConflictGroup("1999", ("s1",))
        self.assertRefuses("f", lambda: ConflictEvidence("f", (one,)))
        self.assertRefuses("f", lambda: ConflictEvidence("f", ()))
        self.assertRefuses("1999", lambda: ConflictGroup("1999", ()))
        self.assertEqual(len(ConflictEvidence("f", [one, ConflictGroup("2003", ("s2",))]).groups), 2)


class ResultFamilyValidationTest(RefusesMixin, unittest.TestCase):
    def test_grounded_answer(self):
        self.assertIs(GroundedAnswer("t", (), "partial").status, AnswerStatus.PARTIAL)
        self.assertRefuses("done", lambda: GroundedAnswer("t", (), "done"))
        self.assertRefuses(1.5, lambda: GroundedAnswer("t", (), "partial", final_score=1.5))
        self.assertRefuses(-1, lambda: GroundedAnswer("t", (), "partial", iterations=-1))

    def test_trace_run_and_usage(self):
        self.assertRefuses(0, lambda: IterationTrace(0, (), (), DraftAnswer(""), assessment()))
        answer = GroundedAnswer("", (), "unanswerable")
        self.assertIs(RunResult("q?", plan(), answer, (), (), "no_progress").stop_reason, StopReason.NO_PROGRESS)
        self.assertRefuses("tired", lambda: RunResult("q?", plan(), answer, (), (), "tired"))
        self.assertRefuses(-2, lambda: Usage(retriever_calls=-2))
        self.assertRefuses(math.nan, lambda: Usage(elapsed_s=math.nan), shown="nan")


class NestedTypeValidationTest(RefusesMixin, unittest.TestCase):
    def test_nested_contract_fields_refuse_other_types(self):
        answer = GroundedAnswer("", (), "unanswerable")
        cases = {
            "RetrievalPlan.facts": lambda: plan(facts=({"id": "f1"},)),
            "RetrievalPlan.routes": lambda: plan(routes=("f1",)),
            "RetrievalPlan.corpora": lambda: plan(corpora=("c",)),
            "RetrievalPlan.stop_conditions": lambda: plan(stop_conditions=0.5),
            "DraftAnswer.claims": lambda: DraftAnswer("t", ("claim",)),
            "ConflictEvidence.groups": lambda: ConflictEvidence("f", ("a", "b")),
            "ContextAssessment.feedback_queries": lambda: assessment(feedback_queries=("q",)),
            "GroundedAnswer.missing_facts": lambda: GroundedAnswer("t", (), "partial", ("f1",)),
            "IterationTrace.assessment": lambda: IterationTrace(1, (), (), DraftAnswer(""), None),
            "RunResult.plan": lambda: RunResult("q?", None, answer, (), (), "no_queries"),
            "RunResult.answer": lambda: RunResult("q?", plan(), None, (), (), "no_queries"),
            "RunResult.snippets": lambda: RunResult("q?", plan(), answer, (), ("s",), "no_queries"),
            "Route.corpus_ids": lambda: Route("f", 5),
            "Snippet.query_id": lambda: Snippet("s", "c", "d", "t", query_id=None),
        }
        for field, make in cases.items():
            with self.subTest(field=field):
                self.assertRefuses(None, make, shown=field)


class MetadataTest(RefusesMixin, unittest.TestCase):
    def test_frozen_and_nested_read_only(self):
        corpus = Corpus("c", metadata={"tags": ["a", "b"], "nested": {"k": [1, {"x": None}]}})
        self.assertEqual(corpus.metadata["tags"], ("a", "b"))
        with self.assertRaises(TypeError):
            corpus.metadata["new"] = 1
        with self.assertRaises(TypeError):
            corpus.metadata["nested"]["k"] = 2
        with self.assertRaises(AttributeError):
            corpus.id = "other"
        source = {"k": [1]}
        snippet = Snippet("s", "c", "d", "t", metadata=source)
        source["k"].append(2)
        self.assertEqual(snippet.metadata["k"], (1,))  # a copy, not a view of the caller's dict

    def test_json_checked(self):
        for bad, shown in (({"k": object()}, "object"), ({1: "v"}, "1"), ({"k": math.inf}, "inf"),
                           ({"k": {2: "v"}}, "2"), ({"k": {1, 2}}, "{1, 2}"), ("meta", "str")):
            with self.subTest(metadata=bad):
                self.assertRefuses(bad, lambda: Document("d", "t", metadata=bad), shown=shown)


class RoundTripTest(unittest.TestCase):
    def assertRoundTrip(self, contract):
        data = json.loads(json.dumps(contract.to_dict()))
        again = type(contract).from_dict(data)
        self.assertEqual(again, contract)
        first = json.dumps(contract.to_dict(), sort_keys=True)
        self.assertEqual(json.dumps(again.to_dict(), sort_keys=True), first)
        self.assertEqual(json.dumps(contract.to_dict(), sort_keys=True), first)

    def test_every_contract_family(self):
        the_plan = fixture_plan()
        snippet = fixture_snippet("zeta-labs")
        claim = ExtractiveDrafter().draft(QUESTION, the_plan, (snippet,)).claims[0]
        contracts = [
            Corpus("c", "desc", {"tags": ["x"], "n": {"k": 1.5}}),
            Document("d", "text", "Title", "c", {"year": 1999, "ok": True, "none": None}),
            *the_plan.facts, *the_plan.routes, StopConditions(0.3, True), the_plan,
            Subquery("q2.1", "birthplace", "Ann Vale born", ("people",), "bridge", "q1.1", 2, SubqueryOrigin.FEEDBACK),
            snippet, Snippet("s", "c", "d", "", score=-2.5, lineage=(("q1", "f"), ("q2", "g"))),
            claim.citations[0], claim, DraftAnswer(claim.text, (claim,)),
            FeedbackQuery("f", "text", "why", ("c",), "q1.1"), FeedbackQuery("f", "text"),
            Usage(3, 4, 5, 6, 7, 0.25), OrchestratorConfig(deadline_s=None, max_llm_calls=3, replan=True),
        ]
        for _, _, scenario in synthesis_scenarios():
            contracts.append(scenario)
            contracts.extend(scenario.conflicts)
        contracts.append(GroundedAnswer("t", (claim,), AnswerStatus.PARTIAL, the_plan.facts[1:], 0.5,
                                        synthesis_scenarios()[2][2].conflicts, 2))
        for contract in contracts:
            with self.subTest(contract=type(contract).__name__):
                self.assertRoundTrip(contract)

    def test_run_result_from_a_real_run(self):
        result = run_result()
        # founder first, then the birthplace via the bridge; the trade directory's other year
        # makes it a PARTIAL answer with a conflict, so every contract family is in the result
        self.assertGreaterEqual(len(result.iterations), 2)
        self.assertIs(result.answer.status, AnswerStatus.PARTIAL)
        self.assertEqual([c.fact_id for c in result.answer.conflicts], ["founder"])
        self.assertEqual([f.id for f in result.answer.missing_facts], ["staff"])
        self.assertRoundTrip(result)
        for trace in result.iterations:
            self.assertRoundTrip(trace)

    def test_run_result_built_by_hand(self):
        the_plan = fixture_plan()
        snippets = (fixture_snippet("zeta-labs"), fixture_snippet("ann-vale"))
        draft = ExtractiveDrafter().draft(QUESTION, the_plan, snippets)
        verdict = synthesis_scenarios()[0][2]
        trace = IterationTrace(1, (Subquery("q1.1", "founder", "Who founded Zeta Labs", ("companies",)),), snippets, draft, verdict)
        answer = GroundedAnswer(draft.text, draft.claims, "answered", (the_plan.fact("staff"),), 0.8, (), 1)
        self.assertRoundTrip(RunResult(QUESTION, the_plan, answer, (trace,), snippets, StopReason.SUFFICIENT, Usage(1, 1)))

    def test_to_dict_is_plain_json_data(self):
        data = fixture_snippet("ann-vale").to_dict()
        self.assertIsInstance(data["metadata"], dict)
        self.assertEqual(data["lineage"], [["q1.1", "founder"]])
        self.assertEqual(fixture_plan().to_dict()["facts"][2]["priority"], "should")


class FromDictTest(unittest.TestCase):
    def test_unknown_fields_refused_at_any_depth(self):
        good = run_result().to_dict()
        cases = [(Corpus, {"id": "c", "colour": "red"}, "colour"), (Snippet, dict(fixture_snippet("bread").to_dict(), rank=1), "rank")]
        nested = json.loads(json.dumps(good))
        nested["plan"]["facts"][0]["weight"] = 2
        cases.append((RunResult, nested, "weight"))
        nested = json.loads(json.dumps(good))
        nested["iterations"][0]["assessment"]["verdict"] = "ok"
        cases.append((RunResult, nested, "verdict"))
        for cls, data, name in cases:
            with self.subTest(field=name):
                with self.assertRaises(InvalidInputError) as ctx:
                    cls.from_dict(data)
                self.assertIn(repr(name), str(ctx.exception))

    def test_bad_shapes(self):
        cases = [
            (Corpus, ["c"], "list"),
            (Corpus, {"description": "no id"}, "id"),
            (Route, {"fact_id": "f", "corpus_ids": "c"}, "str"),
            (Subquery, {"id": "q", "fact_id": "f", "text": "t", "corpus_ids": ["c"], "origin": "bogus"}, "bogus"),
            (RunResult, dict(run_result().to_dict(), stop_reason="tired"), "tired"),
            (Snippet, {"id": "s", "corpus_id": "c", "document_id": "d", "text": "t", "lineage": [["q", "f", "x"]]}, "lineage"),
            (RetrievalPlan, dict(fixture_plan().to_dict(), facts="f"), "str"),
            (ContextAssessment, {"status": "sufficient", "sufficiency_score": 2}, "2"),
        ]
        for cls, data, shown in cases:
            with self.subTest(cls=cls.__name__, shown=shown):
                with self.assertRaises(InvalidInputError) as ctx:
                    cls.from_dict(data)
                self.assertIn(shown, str(ctx.exception))


class RunBudgetTest(unittest.TestCase):
    def test_validation(self):
        for kwargs, bad in (({"deadline_s": 0}, "0"), ({"deadline_s": -1.5}, "-1.5"), ({"deadline_s": True}, "True"),
                            ({"deadline_s": "5"}, "'5'"), ({"max_llm_calls": 0}, "0"), ({"max_llm_calls": 2.0}, "2.0"),
                            ({"max_tokens": False}, "False"), ({"max_tokens": -10}, "-10")):
            with self.subTest(**kwargs):
                with self.assertRaises(InvalidInputError) as ctx:
                    RunBudget(**kwargs)
                self.assertIn(bad, str(ctx.exception))
                self.assertIn(next(iter(kwargs)), str(ctx.exception))

    def test_call_cap(self):
        budget = RunBudget(max_llm_calls=2)
        for _ in range(2):
            budget.check_llm()
            budget.charge_llm(prompt_tokens=10, completion_tokens=5)
        with self.assertRaises(BudgetExhaustedError) as ctx:
            budget.check_llm()
        self.assertEqual(ctx.exception.reason, "call_budget")
        self.assertIn("2", str(ctx.exception))
        snap = budget.snapshot()
        self.assertEqual((snap.llm_calls, snap.prompt_tokens, snap.completion_tokens), (2, 20, 10))

    def test_token_cap(self):
        budget = RunBudget(max_tokens=100)
        budget.charge_llm(prompt_tokens=60, completion_tokens=39)
        budget.check_llm()  # 99 < 100
        budget.charge_llm(calls=0, completion_tokens=1)
        with self.assertRaises(BudgetExhaustedError) as ctx:
            budget.check_llm()
        self.assertEqual(ctx.exception.reason, "token_budget")

    def test_deadline_with_an_injected_clock(self):
        now = [100.0]
        budget = RunBudget(deadline_s=5, clock=lambda: now[0])
        self.assertEqual(budget.remaining_s(), 5.0)
        self.assertFalse(budget.expired())
        budget.check_llm()
        now[0] = 105.0
        self.assertTrue(budget.expired())
        self.assertEqual(budget.remaining_s(), 0.0)
        with self.assertRaises(BudgetExhaustedError) as ctx:
            budget.check_llm()
        self.assertEqual(ctx.exception.reason, "deadline")
        now[0] = 107.5
        self.assertEqual(budget.snapshot().elapsed_s, 7.5)
        self.assertIsNone(RunBudget().remaining_s())

    def test_retrieval_is_counted_not_capped_and_context_variable(self):
        budget = RunBudget(max_llm_calls=1)
        budget.charge_retrieval()
        budget.charge_retrieval(3)
        self.assertEqual(budget.snapshot().retriever_calls, 4)
        self.assertIsNone(current_budget())
        with use_budget(budget) as active:
            self.assertIs(current_budget(), active)
        self.assertIsNone(current_budget())


class OrchestratorConfigTest(unittest.TestCase):
    def test_budgets_below_one_are_refused(self):
        for name in ("max_iterations", "max_subqueries_per_iteration", "top_k", "max_snippets", "max_llm_calls", "max_tokens"):
            for bad in (0, -1, 1.5, True, "3"):
                with self.subTest(field=name, value=bad):
                    with self.assertRaises(InvalidInputError) as ctx:
                        OrchestratorConfig(**{name: bad})
                    self.assertIn(name, str(ctx.exception))
                    self.assertIn(repr(bad), str(ctx.exception))
        for bad in (0, -5, False, "60"):
            with self.subTest(field="deadline_s", value=bad), self.assertRaises(InvalidInputError):
                OrchestratorConfig(deadline_s=bad)

    def test_valid_values(self):
        config = OrchestratorConfig(max_iterations=1, deadline_s=0.5, max_llm_calls=None, max_tokens=1)
        self.assertEqual((config.max_iterations, config.deadline_s, config.max_tokens), (1, 0.5, 1))
        self.assertIsNone(OrchestratorConfig(deadline_s=None).deadline_s)


class ErrorTreeTest(unittest.TestCase):
    def test_every_exported_error_is_in_the_tree(self):
        for name in errors.__all__:
            with self.subTest(error=name):
                cls = getattr(errors, name)
                self.assertTrue(issubclass(cls, AgenticRAGError))
        self.assertTrue(issubclass(InvalidInputError, ValueError))
        self.assertTrue(issubclass(errors.BindingError, InvalidInputError))
        self.assertTrue(issubclass(errors.ProviderHTTPError, errors.ProviderError))

    def test_stage_and_extra_fields(self):
        exc = InvalidInputError("k must be >= 1, got 0", stage="bm25")
        self.assertEqual((str(exc), exc.message, exc.stage), ("bm25: k must be >= 1, got 0", "k must be >= 1, got 0", "bm25"))
        self.assertEqual(str(AgenticRAGError("plain")), "plain")
        self.assertEqual(BudgetExhaustedError("spent", reason="deadline").reason, "deadline")
        http = errors.ProviderHTTPError("rate limited", status=429)
        self.assertEqual((http.status, str(http)), (429, "HTTP 429: rate limited"))
        self.assertEqual(errors.BranchFailureError("few", outcomes=[1, 2]).outcomes, (1, 2))


if __name__ == "__main__":
    unittest.main()
