"""The orchestrator's invariants: honest status, verified citations, real counts, lineage,
budgets and progress guards."""

from __future__ import annotations

import dataclasses
import json
import time
import unittest

from agentic_rag import (
    AgenticRAGOrchestrator,
    AnswerStatus,
    AnswerabilityLabel,
    Citation,
    Claim,
    ContextAssessment,
    Corpus,
    GroundedAnswer,
    InvalidInputError,
    OrchestratorConfig,
    RequiredFact,
    RetrievalError,
    RetrievalPlan,
    RunResult,
    Snippet,
    StopReason,
)
from agentic_rag.components import HeuristicPlanner
from agentic_rag.types import Route, SufficiencyStatus
from agentic_rag._budget import current_budget
from agentic_rag._samples import TWO_HOP_QUESTION, sample_corpora, sample_documents, two_hop_facts
from agentic_rag._text import Analyzer

_ANALYZER = Analyzer()


class OverlapRetriever:
    """A small deterministic retriever for orchestration tests: shared-term counts."""

    def __init__(self, documents=None):
        self.documents = tuple(documents if documents is not None else sample_documents())
        self.calls: list[tuple[str, tuple[str, ...]]] = []

    def retrieve(self, query, k, *, corpus_ids=None):
        self.calls.append((query, tuple(corpus_ids or ())))
        terms = set(_ANALYZER.analyze(query))
        hits = []
        for doc in self.documents:
            if corpus_ids and doc.corpus_id not in corpus_ids:
                continue
            score = len(terms & set(_ANALYZER.analyze(f"{doc.title} {doc.text}")))
            if score:
                hits.append(Snippet(id="", corpus_id=doc.corpus_id, document_id=doc.id, text=doc.text, score=score, metadata={"title": doc.title}))
        hits.sort(key=lambda s: (-s.score, s.id))
        return tuple(hits[:k])


def orchestrator(retriever=None, *, facts=two_hop_facts(), **config):
    return AgenticRAGOrchestrator(
        retriever=retriever or OverlapRetriever(),
        planner=HeuristicPlanner(facts),
        config=OrchestratorConfig(top_k=3, **config),
    )


class TwoHopRunTest(unittest.TestCase):
    def setUp(self):
        self.result = orchestrator().run(TWO_HOP_QUESTION, sample_corpora())

    def test_answers_after_two_real_iterations(self):
        self.assertIs(self.result.answer.status, AnswerStatus.ANSWERED)
        self.assertIs(self.result.stop_reason, StopReason.SUFFICIENT)
        self.assertEqual(len(self.result.iterations), 2)
        self.assertEqual(self.result.answer.iterations, 2)
        self.assertEqual([t.iteration for t in self.result.iterations], [1, 2])
        self.assertIn("Lyon", self.result.answer.text)

    def test_trace_links_question_facts_subqueries_snippets_citations(self):
        plan = self.result.plan
        fact_ids = {f.id for f in plan.facts}
        subqueries = {sq.id: sq for t in self.result.iterations for sq in t.subqueries}
        for sq in subqueries.values():
            self.assertIn(sq.fact_id, fact_ids)
        follow_up = self.result.iterations[1].subqueries[0]
        self.assertEqual(follow_up.origin.value, "feedback")
        self.assertIn(follow_up.parent_id, subqueries)
        snippets = {s.id: s for s in self.result.snippets}
        for snippet in snippets.values():
            self.assertIn(snippet.query_id, subqueries)
        for claim in self.result.answer.claims:
            for citation in claim.citations:
                self.assertTrue(citation.is_supported_by(snippets[citation.snippet_id]))
        self.assertEqual({c.fact_id for c in self.result.answer.claims}, fact_ids)

    def test_distractor_corpus_never_searched(self):
        self.assertFalse(any(s.corpus_id == "recipes" for s in self.result.snippets))

    def test_json_round_trip_is_byte_stable(self):
        data = json.dumps(self.result.to_dict(), sort_keys=True)
        again = RunResult.from_dict(json.loads(data))
        self.assertEqual(again, self.result)
        self.assertEqual(json.dumps(again.to_dict(), sort_keys=True), data)

    def test_same_input_same_output(self):
        other = orchestrator().run(TWO_HOP_QUESTION, sample_corpora())
        strip = lambda r: json.dumps(dataclasses.replace(r, usage=dataclasses.replace(r.usage, elapsed_s=0.0)).to_dict(), sort_keys=True)
        self.assertEqual(strip(other), strip(self.result))


class ScriptedJudge:
    def __init__(self, label=AnswerabilityLabel.USEFUL_BUT_INCOMPLETE):
        self.label = label

    def assess(self, question, plan, snippets, draft):
        sufficient = self.label is AnswerabilityLabel.SUFFICIENT
        return ContextAssessment(
            status=SufficiencyStatus.SUFFICIENT if sufficient else SufficiencyStatus.INSUFFICIENT,
            sufficiency_score=1.0 if sufficient else 0.5,
            covered_fact_ids=tuple(f.id for f in plan.facts) if sufficient else (),
            missing_fact_ids=() if sufficient else tuple(f.id for f in plan.facts),
            label=self.label,
        )


class OverclaimingSynthesizer:
    """Claims ANSWERED whatever the evidence, citing what it is told to."""

    def __init__(self, citation_for):
        self.citation_for = citation_for

    def synthesize(self, question, plan, snippets, assessment):
        # Each claim says what it quotes, so only the citation itself can make it fail.
        cited = [self.citation_for(snippets, i) for i in range(2)]
        claims = tuple(Claim(text=c.quote, citations=(c,)) for c in cited)
        return GroundedAnswer(text="overclaimed", claims=claims, status=AnswerStatus.ANSWERED)


class InvariantTest(unittest.TestCase):
    def test_never_answered_after_insufficient_final_assessment(self):
        good = lambda snippets, i: Citation(snippet_id=snippets[i].id, quote=snippets[i].text[:40], start=0)
        run = AgenticRAGOrchestrator(retriever=OverlapRetriever(), judge=ScriptedJudge(), synthesizer=OverclaimingSynthesizer(good),
                                     config=OrchestratorConfig(max_iterations=1)).run(TWO_HOP_QUESTION, sample_corpora())
        self.assertFalse(run.iterations[-1].assessment.is_sufficient)
        self.assertIs(run.answer.status, AnswerStatus.PARTIAL)

    def test_citations_to_unretrieved_snippets_are_removed_and_status_downgraded(self):
        def half_bad(snippets, i):
            if i == 0:
                return Citation(snippet_id="nowhere/never-retrieved", quote="invented and never retrieved")
            return Citation(snippet_id=snippets[0].id, quote=snippets[0].text[:40], start=0)

        run = AgenticRAGOrchestrator(retriever=OverlapRetriever(), judge=ScriptedJudge(AnswerabilityLabel.SUFFICIENT),
                                     synthesizer=OverclaimingSynthesizer(half_bad)).run(TWO_HOP_QUESTION, sample_corpora())
        self.assertEqual(len(run.answer.claims), 1)
        self.assertEqual(run.answer.claims[0].citations[0].snippet_id, run.snippets[0].id)
        self.assertIs(run.answer.status, AnswerStatus.PARTIAL)
        self.assertNotIn("invented", run.answer.text)

    def test_misquoted_span_is_removed(self):
        def misquote(snippets, i):
            return Citation(snippet_id=snippets[0].id, quote="text that is not there", start=0)

        run = AgenticRAGOrchestrator(retriever=OverlapRetriever(), judge=ScriptedJudge(AnswerabilityLabel.SUFFICIENT),
                                     synthesizer=OverclaimingSynthesizer(misquote)).run(TWO_HOP_QUESTION, sample_corpora())
        self.assertEqual(run.answer.claims, ())
        self.assertIs(run.answer.status, AnswerStatus.UNANSWERABLE)

    def test_iterations_is_the_real_count_when_capped(self):
        run = orchestrator(max_iterations=1).run(TWO_HOP_QUESTION, sample_corpora())
        self.assertEqual(len(run.iterations), 1)
        self.assertEqual(run.answer.iterations, 1)
        self.assertIs(run.stop_reason, StopReason.MAX_ITERATIONS)
        self.assertIs(run.answer.status, AnswerStatus.PARTIAL)
        self.assertEqual([f.id for f in run.answer.missing_facts], ["birthplace"])


class DuplicateRetriever(OverlapRetriever):
    """Returns the same Acme document for every query, with a query-dependent score."""

    def retrieve(self, query, k, *, corpus_ids=None):
        doc = next(d for d in self.documents if d.id == "acme-robotics")
        return (Snippet(id="", corpus_id=doc.corpus_id, document_id=doc.id, text=doc.text, score=float(len(query))),)


class ProgressGuardTest(unittest.TestCase):
    def test_no_progress_when_a_round_finds_nothing_new(self):
        facts = (RequiredFact(id="a", description="Acme Robotics founded", required_terms=("employees", "Acme")),)
        run = orchestrator(DuplicateRetriever(), facts=facts).run("How many employees does Acme Robotics have?", sample_corpora())
        self.assertIs(run.stop_reason, StopReason.NO_PROGRESS)
        self.assertEqual(len(run.iterations), 2)
        self.assertEqual(len(run.snippets), 1)

    def test_duplicate_snippets_keep_best_score_and_merge_lineage(self):
        class TwoQueryRewriter:
            def rewrite(self, plan, feedback, *, iteration):
                from agentic_rag import Subquery
                return tuple(Subquery(id=f"q{iteration}.{n}", fact_id=plan.facts[0].id, text=t, corpus_ids=("company-records",), iteration=iteration)
                             for n, t in enumerate(("short", "a much longer query"), start=1)) if iteration == 1 else ()

        facts = (RequiredFact(id="a", description="Acme employees", required_terms=("employees",)),)
        run = AgenticRAGOrchestrator(retriever=DuplicateRetriever(), planner=HeuristicPlanner(facts), rewriter=TwoQueryRewriter()).run("How many employees?", sample_corpora())
        self.assertEqual(len(run.snippets), 1)
        snippet = run.snippets[0]
        self.assertEqual(snippet.score, float(len("a much longer query")))
        self.assertEqual(snippet.lineage, (("q1.1", "a"), ("q1.2", "a")))
        # Nothing found touches the fact: the judge labels the question unanswerable, which
        # ends the run (more rounds would not change it).
        self.assertIs(run.stop_reason, StopReason.UNANSWERABLE)
        self.assertEqual(len(run.iterations), 1)

    def test_no_queries_when_feedback_repeats(self):
        run = orchestrator(facts=()).run("When was Acme Robotics founded and how many employees does it have?", sample_corpora())
        self.assertIn(run.stop_reason, (StopReason.NO_QUERIES, StopReason.NO_PROGRESS))
        self.assertIs(run.answer.status, AnswerStatus.PARTIAL)
        self.assertTrue(run.answer.missing_facts)
        issued = [(sq.text.casefold(), sq.corpus_ids) for t in run.iterations for sq in t.subqueries]
        self.assertEqual(len(issued), len(set(issued)))

    def test_max_snippets(self):
        run = orchestrator(max_snippets=2).run(TWO_HOP_QUESTION, sample_corpora())
        self.assertEqual(len(run.snippets), 2)
        self.assertIs(run.stop_reason, StopReason.MAX_SNIPPETS)


class ChargingJudge:
    """A judge that charges the run's budget like an LLM-backed one would."""

    def __init__(self):
        from agentic_rag import AutoraterStyleSufficiencyJudge
        self.inner = AutoraterStyleSufficiencyJudge()

    def assess(self, question, plan, snippets, draft):
        budget = current_budget()
        budget.check_llm()
        budget.charge_llm(prompt_tokens=100, completion_tokens=20)
        return self.inner.assess(question, plan, snippets, draft)


class SlowRetriever(OverlapRetriever):
    def retrieve(self, query, k, *, corpus_ids=None):
        time.sleep(0.06)
        return super().retrieve(query, k, corpus_ids=corpus_ids)


class BudgetTest(unittest.TestCase):
    def run_with(self, **config):
        return AgenticRAGOrchestrator(retriever=OverlapRetriever(), planner=HeuristicPlanner(two_hop_facts()), judge=ChargingJudge(),
                                      config=OrchestratorConfig(top_k=3, **config)).run(TWO_HOP_QUESTION, sample_corpora())

    def test_call_cap_ends_run_gracefully(self):
        run = self.run_with(max_llm_calls=1)
        self.assertIs(run.stop_reason, StopReason.CALL_BUDGET)
        self.assertEqual(run.usage.llm_calls, 1)
        self.assertIs(run.answer.status, AnswerStatus.PARTIAL)
        self.assertEqual(len(run.iterations), 1)

    def test_token_cap_ends_run_gracefully(self):
        run = self.run_with(max_tokens=50)
        self.assertIs(run.stop_reason, StopReason.TOKEN_BUDGET)
        self.assertEqual(run.usage.prompt_tokens, 100)

    def test_usage_counts_calls(self):
        run = self.run_with()
        self.assertEqual(run.usage.llm_calls, 2)
        self.assertEqual(run.usage.retriever_calls, run.usage.subqueries)
        self.assertEqual(run.usage.subqueries, sum(len(t.subqueries) for t in run.iterations))

    def test_deadline_ends_run_with_best_answer_so_far(self):
        run = AgenticRAGOrchestrator(retriever=SlowRetriever(), planner=HeuristicPlanner(two_hop_facts()),
                                     config=OrchestratorConfig(top_k=3, deadline_s=0.05)).run(TWO_HOP_QUESTION, sample_corpora())
        self.assertIs(run.stop_reason, StopReason.DEADLINE)
        self.assertEqual(len(run.iterations), 1)
        self.assertIsNot(run.answer.status, AnswerStatus.ANSWERED)


class RecordingPlanner(HeuristicPlanner):
    def __init__(self, facts):
        super().__init__(facts)
        self.priors = []

    def plan(self, question, corpora, prior=None):
        self.priors.append(prior)
        return super().plan(question, corpora, prior)


class BadInputTest(unittest.TestCase):
    def test_bad_questions(self):
        o = orchestrator()
        for bad in ("", "   ", None, 42):
            with self.subTest(bad=bad), self.assertRaises(InvalidInputError) as ctx:
                o.run(bad, sample_corpora())
            self.assertIn(repr(bad), str(ctx.exception))

    def test_duplicate_corpus_ids(self):
        with self.assertRaises(InvalidInputError) as ctx:
            orchestrator().run(TWO_HOP_QUESTION, (Corpus(id="a"), Corpus(id="a")))
        self.assertIn("'a'", str(ctx.exception))

    def test_route_to_unknown_corpus(self):
        class Planner:
            def plan(self, question, corpora, prior=None):
                fact = RequiredFact(id="f", description="x")
                return RetrievalPlan(question=question, facts=(fact,), routes=(Route(fact_id="f", corpus_ids=("nowhere",)),))

        with self.assertRaises(InvalidInputError) as ctx:
            AgenticRAGOrchestrator(retriever=OverlapRetriever(), planner=Planner()).run("q?", sample_corpora())
        self.assertIn("nowhere", str(ctx.exception))

    def test_budget_below_one(self):
        for field in ("max_iterations", "max_subqueries_per_iteration", "top_k", "max_snippets"):
            with self.subTest(field=field), self.assertRaises(InvalidInputError):
                OrchestratorConfig(**{field: 0})

    def test_component_without_port_method(self):
        with self.assertRaises(InvalidInputError) as ctx:
            AgenticRAGOrchestrator(retriever=object())
        self.assertIn("retriever", str(ctx.exception))

    def test_foreign_retriever_error_is_wrapped(self):
        class Broken:
            def retrieve(self, query, k, *, corpus_ids=None):
                raise KeyError("boom")

        with self.assertRaises(RetrievalError) as ctx:
            AgenticRAGOrchestrator(retriever=Broken()).run(TWO_HOP_QUESTION, sample_corpora())
        self.assertIn("KeyError", str(ctx.exception))


class ReplanTest(unittest.TestCase):
    def test_replanning_receives_the_prior_assessment(self):
        planner = RecordingPlanner(two_hop_facts())
        AgenticRAGOrchestrator(retriever=OverlapRetriever(), planner=planner, config=OrchestratorConfig(top_k=3, replan=True)).run(TWO_HOP_QUESTION, sample_corpora())
        self.assertIsNone(planner.priors[0])
        self.assertIsInstance(planner.priors[1], ContextAssessment)


if __name__ == "__main__":
    unittest.main()
