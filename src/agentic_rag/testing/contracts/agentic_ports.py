"""The agentic workflow's port contracts: Planner, QueryRewriter, Drafter, SufficiencyJudge,
Synthesizer; written once, applied to every implementation.

Each mixin is a plain class holding ``test_*`` methods and one abstract factory
(``make_planner()``, ``make_rewriter()``, ...). A test file combines it with
``unittest.TestCase``::

    class TestHeuristicPlanner(PlannerContract, unittest.TestCase):
        def make_planner(self):
            return HeuristicPlanner()

The mixins share one small fixture world (three corpora, a two-hop plan, whole-document
snippets) from :mod:`agentic_rag.testing.contracts.fixtures`, so any implementation of a port
is checked on the same evidence.
"""

from __future__ import annotations

from agentic_rag._contracts import (
    AnswerabilityLabel,
    AnswerStatus,
    Citation,
    Claim,
    ContextAssessment,
    DraftAnswer,
    FactPriority,
    FeedbackQuery,
    GroundedAnswer,
    RetrievalPlan,
    SubqueryOrigin,
    SufficiencyStatus,
)
from agentic_rag._errors import InvalidInputError
from agentic_rag.testing.contracts.fixtures import (
    QUESTION,
    contract_json as _json,
    fixture_corpora,
    fixture_plan,
    fixture_snippet,
    snippet_sets,
    synthesis_scenarios,
)

__all__ = [
    "DrafterContract",
    "PlannerContract",
    "QueryRewriterContract",
    "SufficiencyJudgeContract",
    "SynthesizerContract",
]


class PlannerContract:
    """Every :class:`~agentic_rag._ports.Planner` must satisfy these."""

    def make_planner(self):
        """Return the planner under test."""
        raise NotImplementedError

    def contract_questions(self) -> tuple[str, ...]:
        """Questions to plan; override to add implementation-specific ones."""
        return (
            QUESTION,
            "Which was founded first, Zeta Labs or Omega Works?",
            "When was Zeta Labs founded and how many people does it employ?",
            "zzz qqq?",
        )

    def test_every_fact_has_one_route_to_known_corpora(self):
        known = {c.id for c in fixture_corpora()}
        for question in self.contract_questions():
            with self.subTest(question=question):
                plan = self.make_planner().plan(question, fixture_corpora())
                self.assertIsInstance(plan, RetrievalPlan)
                self.assertEqual(plan.question, question)
                self.assertTrue(plan.facts)
                self.assertEqual(sorted(r.fact_id for r in plan.routes), sorted(f.id for f in plan.facts))
                for fact in plan.facts:
                    route = plan.route(fact.id)
                    self.assertTrue(route.corpus_ids)
                    self.assertLessEqual(set(route.corpus_ids), known, f"fact {fact.id} routed outside the corpora")

    def test_plan_is_deterministic(self):
        for question in self.contract_questions():
            with self.subTest(question=question):
                first = self.make_planner().plan(question, fixture_corpora())
                second = self.make_planner().plan(question, fixture_corpora())
                self.assertEqual(first, second)
                self.assertEqual(_json(first), _json(second))

    def test_bad_question_raises_invalid_input(self):
        for bad in ("", "   \n\t", None, 42, b"bytes?"):
            with self.subTest(question=bad):
                with self.assertRaises(InvalidInputError) as ctx:
                    self.make_planner().plan(bad, fixture_corpora())
                self.assertIn(repr(bad), str(ctx.exception))


class QueryRewriterContract:
    """Every :class:`~agentic_rag._ports.QueryRewriter` must satisfy these."""

    def make_rewriter(self):
        """Return the rewriter under test."""
        raise NotImplementedError

    def contract_feedback(self) -> tuple[FeedbackQuery, ...]:
        """Feedback for a later round: one with a parent query, one without, one routed."""
        return (
            FeedbackQuery("birthplace", "Ann Vale born", reason="follow the founder", parent_id="q1.1"),
            FeedbackQuery("staff", "Zeta Labs employees", reason="staff missing"),
            FeedbackQuery("founder", "Zeta Labs founded year", corpus_ids=("companies",), parent_id="q1.2"),
        )

    def test_first_round_comes_from_the_plan(self):
        plan = fixture_plan()
        queries = self.make_rewriter().rewrite(plan, (), iteration=1)
        self.assertTrue(queries)
        fact_ids = {f.id for f in plan.facts}
        corpus_ids = {c.id for c in plan.corpora}
        self.assertEqual(len({q.id for q in queries}), len(queries), "subquery ids must be unique")
        for query in queries:
            self.assertIs(query.origin, SubqueryOrigin.PLAN)
            self.assertEqual(query.iteration, 1)
            self.assertIn(query.fact_id, fact_ids)
            self.assertTrue(query.corpus_ids)
            self.assertLessEqual(set(query.corpus_ids), corpus_ids)

    def test_feedback_rounds_keep_lineage(self):
        plan = fixture_plan()
        feedback = self.contract_feedback()
        first_ids = {q.id for q in self.make_rewriter().rewrite(plan, (), iteration=1)}
        for iteration in (2, 3):
            with self.subTest(iteration=iteration):
                queries = self.make_rewriter().rewrite(plan, feedback, iteration=iteration)
                self.assertTrue(queries)
                self.assertEqual(len({q.id for q in queries}), len(queries))
                self.assertFalse(first_ids & {q.id for q in queries}, "ids must be unique across rounds")
                for query in queries:
                    self.assertIs(query.origin, SubqueryOrigin.FEEDBACK)
                    self.assertEqual(query.iteration, iteration)
                    self.assertIn(query.fact_id, {f.fact_id for f in feedback})
                    self.assertLessEqual(set(query.corpus_ids), {c.id for c in plan.corpora})
                carried = {(q.fact_id, q.parent_id) for q in queries}
                for item in feedback:
                    if item.parent_id is not None:
                        self.assertIn((item.fact_id, item.parent_id), carried)

    def test_rewrite_is_deterministic(self):
        plan, feedback = fixture_plan(), self.contract_feedback()
        for iteration, items in ((1, ()), (2, feedback)):
            first = self.make_rewriter().rewrite(plan, items, iteration=iteration)
            second = self.make_rewriter().rewrite(plan, items, iteration=iteration)
            self.assertEqual(first, second)
            self.assertEqual([_json(q) for q in first], [_json(q) for q in second])


class DrafterContract:
    """Every :class:`~agentic_rag._ports.Drafter` must satisfy these."""

    def make_drafter(self):
        """Return the drafter under test."""
        raise NotImplementedError

    def test_every_citation_quotes_its_span(self):
        plan = fixture_plan()
        for snippets in snippet_sets():
            with self.subTest(snippets=[s.id for s in snippets]):
                draft = self.make_drafter().draft(QUESTION, plan, snippets)
                self.assertIsInstance(draft, DraftAnswer)
                by_id = {s.id: s for s in snippets}
                for claim in draft.claims:
                    self.assertTrue(claim.citations, f"claim without citation: {claim.text!r}")
                    for citation in claim.citations:
                        self.assertIn(citation.snippet_id, by_id)
                        snippet = by_id[citation.snippet_id]
                        self.assertEqual(snippet.text[citation.start:citation.end], citation.quote)
                        self.assertTrue(citation.is_supported_by(snippet))

    def test_no_evidence_no_claims(self):
        self.assertEqual(self.make_drafter().draft(QUESTION, fixture_plan(), ()).claims, ())

    def test_draft_is_deterministic(self):
        plan = fixture_plan()
        for snippets in snippet_sets():
            first = self.make_drafter().draft(QUESTION, plan, snippets)
            second = self.make_drafter().draft(QUESTION, plan, snippets)
            self.assertEqual(first, second)
            self.assertEqual(_json(first), _json(second))


class SufficiencyJudgeContract:
    """Every :class:`~agentic_rag._ports.SufficiencyJudge` must satisfy these."""

    def make_judge(self):
        """Return the judge under test."""
        raise NotImplementedError

    def _assessments(self):
        plan = fixture_plan()
        for snippets in snippet_sets():
            yield plan, snippets, self.make_judge().assess(QUESTION, plan, snippets, DraftAnswer(""))

    def test_score_and_partition(self):
        for plan, snippets, assessment in self._assessments():
            with self.subTest(snippets=[s.id for s in snippets]):
                self.assertIsInstance(assessment, ContextAssessment)
                self.assertGreaterEqual(assessment.sufficiency_score, 0.0)
                self.assertLessEqual(assessment.sufficiency_score, 1.0)
                covered, missing = assessment.covered_fact_ids, assessment.missing_fact_ids
                self.assertEqual(len(set(covered)) + len(set(missing)), len(covered) + len(missing), "duplicate fact ids")
                self.assertFalse(set(covered) & set(missing))
                self.assertEqual(set(covered) | set(missing), {f.id for f in plan.facts})

    def test_sufficient_means_no_must_fact_missing(self):
        seen = False
        for plan, snippets, assessment in self._assessments():
            with self.subTest(snippets=[s.id for s in snippets]):
                if assessment.status is SufficiencyStatus.SUFFICIENT:
                    seen = True
                    self.assertIs(assessment.label, AnswerabilityLabel.SUFFICIENT)
                    must = {f.id for f in plan.facts if f.priority is FactPriority.MUST}
                    self.assertFalse(must & set(assessment.missing_fact_ids))
        self.assertTrue(seen, "no evidence set was judged sufficient; the two-hop set should be")

    def test_feedback_targets_missing_facts(self):
        for _, snippets, assessment in self._assessments():
            with self.subTest(snippets=[s.id for s in snippets]):
                self.assertLessEqual({q.fact_id for q in assessment.feedback_queries}, set(assessment.missing_fact_ids))

    def test_empty_evidence_is_not_sufficient(self):
        assessment = self.make_judge().assess(QUESTION, fixture_plan(), (), DraftAnswer(""))
        self.assertIs(assessment.status, SufficiencyStatus.INSUFFICIENT)
        self.assertNotEqual(assessment.label, AnswerabilityLabel.SUFFICIENT)

    def test_claim_citing_an_unknown_snippet_is_unsupported(self):
        snippets = (fixture_snippet("zeta-labs"),)
        good = Claim("Zeta Labs was founded in 1999 by Ann Vale in Porto.",
                     (Citation(snippets[0].id, "Zeta Labs was founded in 1999 by Ann Vale in Porto.", 0),), "founder")
        bad = Claim("Ann Vale was born in Braga.", (Citation("people/nowhere#0-10", "Ann Vale"),), "birthplace")
        draft = DraftAnswer(f"{good.text} {bad.text}", (good, bad))
        assessment = self.make_judge().assess(QUESTION, fixture_plan(), snippets, draft)
        self.assertEqual(assessment.unsupported_claims, (bad,))

    def test_assess_is_deterministic(self):
        plan = fixture_plan()
        for snippets in snippet_sets():
            first = self.make_judge().assess(QUESTION, plan, snippets, DraftAnswer(""))
            second = self.make_judge().assess(QUESTION, plan, tuple(reversed(snippets)), DraftAnswer(""))
            self.assertEqual(_json(first), _json(second), "the verdict must not depend on snippet order")


class SynthesizerContract:
    """Every :class:`~agentic_rag._ports.Synthesizer` must satisfy these."""

    def make_synthesizer(self):
        """Return the synthesizer under test."""
        raise NotImplementedError

    def test_status_never_claims_more_than_the_assessment(self):
        for name, snippets, assessment in synthesis_scenarios():
            with self.subTest(scenario=name):
                answer = self.make_synthesizer().synthesize(QUESTION, fixture_plan(), snippets, assessment)
                self.assertIsInstance(answer, GroundedAnswer)
                if not assessment.is_sufficient:
                    self.assertIsNot(answer.status, AnswerStatus.ANSWERED)
                if assessment.label is AnswerabilityLabel.UNANSWERABLE:
                    self.assertIs(answer.status, AnswerStatus.UNANSWERABLE)

    def test_claims_cite_given_snippets_exactly(self):
        for name, snippets, assessment in synthesis_scenarios():
            with self.subTest(scenario=name):
                answer = self.make_synthesizer().synthesize(QUESTION, fixture_plan(), snippets, assessment)
                by_id = {s.id: s for s in snippets}
                for claim in answer.claims:
                    self.assertTrue(claim.citations)
                    for citation in claim.citations:
                        self.assertIn(citation.snippet_id, by_id)
                        self.assertTrue(citation.is_supported_by(by_id[citation.snippet_id]), citation)

    def test_missing_facts_follow_the_assessment(self):
        for name, snippets, assessment in synthesis_scenarios():
            with self.subTest(scenario=name):
                answer = self.make_synthesizer().synthesize(QUESTION, fixture_plan(), snippets, assessment)
                self.assertEqual(tuple(f.id for f in answer.missing_facts), assessment.missing_fact_ids)
                for fact in answer.missing_facts:
                    self.assertEqual(fact, fixture_plan().fact(fact.id))

    def test_synthesize_is_deterministic(self):
        for name, snippets, assessment in synthesis_scenarios():
            with self.subTest(scenario=name):
                first = self.make_synthesizer().synthesize(QUESTION, fixture_plan(), snippets, assessment)
                second = self.make_synthesizer().synthesize(QUESTION, fixture_plan(), snippets, assessment)
                self.assertEqual(_json(first), _json(second))
