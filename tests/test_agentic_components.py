"""The deterministic agentic components: port contracts plus each component's own behaviour
(routing, question reading, planning, rewriting, judging, abstention, extractive drafting and
synthesis, sentence and entity extraction)."""

from __future__ import annotations

import unittest

from agentic_rag.testing.contracts import DrafterContract, PlannerContract, QueryRewriterContract, SufficiencyJudgeContract, SynthesizerContract
from agentic_rag.testing.contracts.fixtures import fixture_corpora, fixture_plan, fixture_snippet, QUESTION

from agentic_rag._agentic.extractive import ExtractiveDrafter, ExtractiveGroundedSynthesizer
from agentic_rag._agentic.fact_evidence import FactEvidenceModel
from agentic_rag._agentic.judge import AutoraterStyleSufficiencyJudge, unsupported_claims
from agentic_rag._agentic.planner import HeuristicPlanner
from agentic_rag._agentic.policy import AbstentionPolicy
from agentic_rag._text.questions import find_comparison, split_compound
from agentic_rag._agentic.rewriter import PlanFeedbackRewriter
from agentic_rag._agentic.routing import CorpusRouter
from agentic_rag._contracts import (
    AnswerabilityLabel,
    AnswerStatus,
    Citation,
    Claim,
    Corpus,
    DraftAnswer,
    FeedbackQuery,
    RequiredFact,
    RetrievalPlan,
    Route,
    Snippet,
    StopConditions,
    SubqueryOrigin,
    SufficiencyStatus,
)
from agentic_rag._errors import InvalidInputError
from agentic_rag._samples import PARTIAL_QUESTION, TWO_HOP_QUESTION, sample_corpora
from agentic_rag._text import Analyzer
from agentic_rag._text.entities import extract_entities
from agentic_rag._text.sentences import split_sentences

S = fixture_snippet


def judge(snippets, plan=None, draft=DraftAnswer("")):
    plan = plan or fixture_plan()
    return AutoraterStyleSufficiencyJudge().assess(plan.question, plan, tuple(snippets), draft)


def one_fact_plan(description, required_terms=(), **fact):
    facts = (RequiredFact("f", description, required_terms=required_terms, **fact),)
    return RetrievalPlan(description + "?", facts, (Route("f", ("c",)),))


def snip(sid, text, score=1.0, **kw):
    return Snippet(id=sid, corpus_id="c", document_id=sid, text=text, score=score, **kw)


# --- the port contracts -----------------------------------------------------------------


class TestHeuristicPlannerContract(PlannerContract, unittest.TestCase):
    def make_planner(self):
        return HeuristicPlanner()


class TestHeuristicPlannerWithFactsContract(PlannerContract, unittest.TestCase):
    def make_planner(self):
        return HeuristicPlanner(fixture_plan().facts)


class TestPlanFeedbackRewriterContract(QueryRewriterContract, unittest.TestCase):
    def make_rewriter(self):
        return PlanFeedbackRewriter()


class TestExtractiveDrafterContract(DrafterContract, unittest.TestCase):
    def make_drafter(self):
        return ExtractiveDrafter()


class TestAutoraterJudgeContract(SufficiencyJudgeContract, unittest.TestCase):
    def make_judge(self):
        return AutoraterStyleSufficiencyJudge()


class TestExtractiveSynthesizerContract(SynthesizerContract, unittest.TestCase):
    def make_synthesizer(self):
        return ExtractiveGroundedSynthesizer()


# --- routing, questions, planning, rewriting --------------------------------------------


class CorpusRouterTest(unittest.TestCase):
    def test_picks_by_description_overlap(self):
        decision = CorpusRouter().route("Where was Ann Vale born?", fixture_corpora())
        self.assertEqual(decision.corpus_ids, ("people",))
        self.assertIn("born", decision.reason)

    def test_best_overlap_first_then_weaker_within_min_relative(self):
        corpora = (Corpus("a", "born city"), Corpus("z", "born founder city"), Corpus("m", "city"))
        # overlaps z 3, a 2, m 1: the default keeps scores >= 3 * 0.5
        self.assertEqual(CorpusRouter().route("founder born city", corpora).corpus_ids, ("z", "a"))
        self.assertEqual(CorpusRouter(min_relative=0.8).route("founder born city", corpora).corpus_ids, ("z",))
        self.assertEqual(CorpusRouter(max_corpora=1).route("founder born city", corpora).corpus_ids, ("z",))

    def test_ties_broken_by_corpus_id_not_input_order(self):
        corpora = (Corpus("beta", "ships and ferries"), Corpus("alpha", "ferries and ships"), Corpus("gamma", "ships"))
        self.assertEqual(CorpusRouter(max_corpora=3).route("ships ferries", corpora).corpus_ids, ("alpha", "beta", "gamma"))
        self.assertEqual(CorpusRouter(max_corpora=1).route("ships ferries", tuple(reversed(corpora))).corpus_ids, ("alpha",))

    def test_corpus_id_words_count(self):
        corpora = (Corpus("company-records"), Corpus("recipes"))
        self.assertEqual(CorpusRouter().route("company founders", corpora).corpus_ids, ("company-records",))

    def test_no_overlap_falls_back_to_all_or_fallback(self):
        corpora = (Corpus("b", "ships"), Corpus("a", "bread"))
        decision = CorpusRouter().route("quantum chromodynamics", corpora)
        self.assertEqual(decision.corpus_ids, ("a", "b"))
        self.assertIn("no corpus", decision.reason)
        self.assertEqual(CorpusRouter().route("quantum", corpora, fallback=("b",)).corpus_ids, ("b",))

    def test_bad_arguments(self):
        for make in (lambda: CorpusRouter(max_corpora=0), lambda: CorpusRouter(min_relative=0),
                     lambda: CorpusRouter(min_relative=1.5), lambda: CorpusRouter().route("x", ())):
            with self.assertRaises(InvalidInputError):
                make()


class QuestionReadingTest(unittest.TestCase):
    analyzer = Analyzer()

    def test_comparison_items(self):
        cases = {
            "Which was founded first, Cobalt Foods or Borealis Analytics?": ("Cobalt Foods", "Borealis Analytics"),
            "Which magazine was started first, Arthur's Magazine or First for Women?": ("Arthur's Magazine", "First for Women"),
            "Are Jane Doe and Mark Roe both engineers?": ("Jane Doe", "Mark Roe"),
            "Acme Robotics vs Cobalt Foods: which is older?": ("Acme Robotics", "Cobalt Foods"),
        }
        for question, items in cases.items():
            with self.subTest(question=question):
                comparison = find_comparison(question, self.analyzer)
                self.assertIsNotNone(comparison)
                self.assertEqual(comparison.items, items)
        aspect = find_comparison("Which was founded first, Cobalt Foods or Borealis Analytics?", self.analyzer).aspect
        self.assertEqual(aspect, "founded first")

    def test_not_comparisons(self):
        for question in (TWO_HOP_QUESTION, "Who founded Acme Robotics and Cobalt Foods?", "Bread or soup", ""):
            with self.subTest(question=question):
                self.assertIsNone(find_comparison(question, self.analyzer))

    def test_compound_split_resolves_pronoun(self):
        self.assertEqual(split_compound(PARTIAL_QUESTION), ("When was Acme Robotics founded?", "How many employees does Acme Robotics have?"))
        self.assertEqual(split_compound(TWO_HOP_QUESTION), (TWO_HOP_QUESTION,))
        self.assertEqual(split_compound("Who is Jane Doe and where was she born?"), ("Who is Jane Doe?", "Where was Jane Doe born?"))


class HeuristicPlannerTest(unittest.TestCase):
    def test_comparison_gives_one_fact_per_item(self):
        plan = HeuristicPlanner().plan("Which was founded first, Cobalt Foods or Borealis Analytics?", sample_corpora())
        self.assertEqual([f.required_terms for f in plan.facts], [("Cobalt Foods",), ("Borealis Analytics",)])
        self.assertEqual([f.metadata["compared_item"] for f in plan.facts], ["Cobalt Foods", "Borealis Analytics"])
        self.assertEqual({r.corpus_ids for r in plan.routes}, {("company-records",)})

    def test_compound_splits_and_plain_question_is_one_fact(self):
        plan = HeuristicPlanner().plan(PARTIAL_QUESTION, sample_corpora())
        self.assertEqual([f.description for f in plan.facts], ["When was Acme Robotics founded?", "How many employees does Acme Robotics have?"])
        plan = HeuristicPlanner().plan("What temperature bakes sourdough bread?", sample_corpora())
        self.assertEqual([f.description for f in plan.facts], ["What temperature bakes sourdough bread?"])
        self.assertEqual(plan.routes[0].corpus_ids, ("recipes",))

    def test_given_facts_are_routed_not_derived(self):
        facts = fixture_plan().facts
        plan = HeuristicPlanner(facts, stop_conditions=StopConditions(min_sufficiency=0.5)).plan("anything?", fixture_corpora())
        self.assertEqual(plan.facts, facts)
        self.assertEqual(plan.stop_conditions.min_sufficiency, 0.5)
        # "founder" matches companies and "born" people: one term each, tie broken by id
        self.assertEqual(plan.route("birthplace").corpus_ids, ("companies", "people"))

    def test_bad_corpora_and_facts(self):
        with self.assertRaises(InvalidInputError):
            HeuristicPlanner().plan("q?", ())
        with self.assertRaises(InvalidInputError) as ctx:
            HeuristicPlanner().plan("q?", (Corpus("a"), Corpus("a")))
        self.assertIn("'a'", str(ctx.exception))
        with self.assertRaises(InvalidInputError):
            HeuristicPlanner((RequiredFact("f", "x"), RequiredFact("f", "y")))

    def test_corpus_ids_instead_of_corpora_is_refused_at_the_boundary(self):
        # HeuristicPlanner.plan raises AttributeError ('str' object has no attribute 'id').
        with self.assertRaises(InvalidInputError):
            HeuristicPlanner().plan("q?", ["company-records"])


class PlanFeedbackRewriterTest(unittest.TestCase):
    def test_round_one_waits_for_bridges_and_adds_required_terms(self):
        queries = PlanFeedbackRewriter().rewrite(fixture_plan(), (), iteration=1)
        self.assertEqual([(q.id, q.fact_id) for q in queries], [("q1.1", "founder"), ("q1.2", "staff")])
        self.assertEqual(queries[0].text, "Who founded Zeta Labs")  # required terms already in the description
        self.assertEqual(queries[0].corpus_ids, ("companies",))
        plan = one_fact_plan("Who started it", ("Zeta Labs",))
        self.assertEqual(PlanFeedbackRewriter().rewrite(plan, (), iteration=1)[0].text, "Who started it Zeta Labs")

    def test_feedback_routing(self):
        feedback = (FeedbackQuery("birthplace", "Ann Vale born", parent_id="q1.1"),
                    FeedbackQuery("founder", "Zeta Labs", corpus_ids=("recipes",)),
                    FeedbackQuery("staff", "quantum chromodynamics"))
        queries = PlanFeedbackRewriter().rewrite(fixture_plan(), feedback, iteration=2)
        self.assertEqual([q.id for q in queries], ["q2.1", "q2.2", "q2.3"])
        self.assertEqual(queries[0].corpus_ids, ("people",))  # routed by its text
        self.assertEqual(queries[0].parent_id, "q1.1")
        self.assertEqual(queries[1].corpus_ids, ("recipes",))  # the judge's choice is kept
        self.assertEqual(queries[2].corpus_ids, ("companies",))  # nothing overlaps: the fact's route
        self.assertTrue(all(q.origin is SubqueryOrigin.FEEDBACK for q in queries))

    def test_bad_iteration_and_unknown_fact(self):
        for bad in (0, -1, True, "2"):
            with self.subTest(iteration=bad), self.assertRaises(InvalidInputError):
                PlanFeedbackRewriter().rewrite(fixture_plan(), (), iteration=bad)
        with self.assertRaises(InvalidInputError) as ctx:
            PlanFeedbackRewriter().rewrite(fixture_plan(), (FeedbackQuery("nope", "x"),), iteration=2)
        self.assertIn("'nope'", str(ctx.exception))


# --- judging ----------------------------------------------------------------------------


class JudgeCoverageTest(unittest.TestCase):
    def test_required_terms_must_all_appear_in_one_snippet(self):
        plan = one_fact_plan("When Zeta Labs started", ("Zeta Labs", "founded"))
        self.assertEqual(judge([snip("a", "Zeta Labs makes sensors. It started in 1999.")], plan).missing_fact_ids, ("f",))
        self.assertEqual(judge([snip("a", "Zeta Labs makes sensors."), snip("b", "It was founded in 1999.")], plan).missing_fact_ids, ("f",))
        self.assertEqual(judge([snip("a", "Zeta Labs was founded in 1999.")], plan).covered_fact_ids, ("f",))

    def test_content_terms_when_no_required_terms(self):
        plan = one_fact_plan("Omega Works employs many people")  # omega work employ mani peopl
        self.assertEqual(judge([snip("a", "Omega Works employs 40 people, many of them welders.")], plan).covered_fact_ids, ("f",))
        partial = [snip("a", "Omega Works employs 40 people.")]  # 4 of 5 terms = 0.8, the default bar
        self.assertEqual(judge(partial, plan).covered_fact_ids, ("f",))
        three = [snip("a", "Omega Works employs welders.")]  # 3 of 5 = 0.6
        assessment = judge(three, plan)
        self.assertEqual(assessment.missing_fact_ids, ("f",))
        self.assertEqual(assessment.sufficiency_score, 0.6)
        strict = AutoraterStyleSufficiencyJudge(term_threshold=0.5).assess(plan.question, plan, three, DraftAnswer(""))
        self.assertEqual(strict.covered_fact_ids, ("f",))

    def test_dependent_fact_needs_the_bridge_entity(self):
        wrong_person = judge([S("zeta-labs", 3), S("bob-stone", 2)])  # Bob Stone "was born", but he did not found Zeta Labs
        self.assertIn("birthplace", wrong_person.missing_fact_ids)
        right_person = judge([S("zeta-labs", 3), S("ann-vale", 2)])
        self.assertEqual(right_person.covered_fact_ids, ("founder", "birthplace"))
        self.assertIn("birthplace covered by people/ann-vale", right_person.rationale)

    def test_a_fact_cannot_come_before_its_dependency(self):
        # Dependencies resolve in plan order, so the plan refuses a forward reference (which
        # also rules out cycles) instead of letting the verdict depend on fact order.
        plan = fixture_plan()
        with self.assertRaises(InvalidInputError) as ctx:
            RetrievalPlan(plan.question, (plan.facts[1], plan.facts[0], plan.facts[2]), plan.routes, corpora=plan.corpora)
        self.assertIn("must come before it", str(ctx.exception))

    def test_chain_of_two_snippets_covers_a_fact(self):
        plan = RetrievalPlan("Where was the founder of Zeta Labs born?",
                             (RequiredFact("f", "founder Zeta Labs born"),), (Route("f", ("c",)),))
        head = snip("s1", "Zeta Labs was started by its founder Ann Vale.", 2)  # 3 of 4 terms
        tail = snip("s2", "Ann Vale was born in Porto.")
        other = snip("s3", "Bob Stone was born in Faro.")
        self.assertEqual(judge([head], plan).missing_fact_ids, ("f",))
        self.assertEqual(judge([head, other], plan).missing_fact_ids, ("f",))  # the tail must name the bridge
        chained = FactEvidenceModel().assess(plan, [tail, head])[0]
        self.assertTrue(chained.covered)
        self.assertEqual(chained.snippet_ids, ("s1", "s2"))
        self.assertEqual(judge([head, tail], plan).label, AnswerabilityLabel.SUFFICIENT)

    def test_score_weights_priorities(self):
        # founder 1.0 + birthplace 1.0 + staff (SHOULD, 2 of 5 terms) 0.5 * 0.4, over 2.5
        self.assertAlmostEqual(judge([S("zeta-labs", 3), S("ann-vale", 2)]).sufficiency_score, 0.88)

    def test_min_sufficiency_bar(self):
        plan = HeuristicPlanner(fixture_plan().facts, stop_conditions=StopConditions(min_sufficiency=0.95)).plan(QUESTION, fixture_corpora())
        assessment = judge([S("zeta-labs", 3), S("ann-vale", 2)], plan)
        self.assertIs(assessment.status, SufficiencyStatus.INSUFFICIENT)
        self.assertIs(assessment.label, AnswerabilityLabel.USEFUL_BUT_INCOMPLETE)


class JudgeLabelsTest(unittest.TestCase):
    def test_labels(self):
        cases = (
            ("sufficient (SHOULD fact still missing)", [S("zeta-labs", 3), S("ann-vale", 2)], AnswerabilityLabel.SUFFICIENT),
            ("one hop of two", [S("zeta-labs")], AnswerabilityLabel.USEFUL_BUT_INCOMPLETE),
            ("touches facts, covers none", [S("omega-works")], AnswerabilityLabel.INSUFFICIENT),
            ("conflicting years", [S("zeta-labs", 3), S("zeta-directory", 2), S("ann-vale", 1)], AnswerabilityLabel.CONFLICTING),
            ("distractor only", [S("bread")], AnswerabilityLabel.UNANSWERABLE),
            ("no evidence", [], AnswerabilityLabel.UNANSWERABLE),
        )
        for name, snippets, label in cases:
            with self.subTest(case=name):
                assessment = judge(snippets)
                self.assertIs(assessment.label, label)
                expected = SufficiencyStatus.SUFFICIENT if label is AnswerabilityLabel.SUFFICIENT else SufficiencyStatus.INSUFFICIENT
                self.assertIs(assessment.status, expected)
        self.assertEqual(judge([]).sufficiency_score, 0.0)

    def test_conflict_lists_snippets_for_each_side(self):
        snippets = [S("zeta-labs", 3), S("zeta-directory", 2), S("ann-vale", 1)]
        assessment = judge(snippets)
        self.assertEqual(len(assessment.conflicts), 1)
        conflict = assessment.conflicts[0]
        self.assertEqual(conflict.fact_id, "founder")
        self.assertEqual([(g.value, g.snippet_ids) for g in conflict.groups],
                         [("1999", (snippets[0].id,)), ("2003", (snippets[1].id,))])
        self.assertIs(AbstentionPolicy().status_for(assessment.label), AnswerStatus.PARTIAL)
        answer = ExtractiveGroundedSynthesizer().synthesize(QUESTION, fixture_plan(), snippets, assessment)
        self.assertIs(answer.status, AnswerStatus.PARTIAL)
        self.assertEqual(answer.conflicts, assessment.conflicts)
        self.assertIn("1999 versus 2003", answer.text)
        for value, snippet in (("1999", snippets[0]), ("2003", snippets[1])):
            self.assertTrue(any(c.citations[0].snippet_id == snippet.id and value in c.text for c in answer.claims), value)

    def test_one_conflict_value_is_no_conflict(self):
        self.assertEqual(judge([S("zeta-labs", 3), S("ann-vale", 2)]).conflicts, ())


class JudgeFeedbackTest(unittest.TestCase):
    def test_one_query_per_missing_fact_none_while_blocked(self):
        empty = judge([])
        self.assertEqual(empty.missing_fact_ids, ("founder", "birthplace", "staff"))
        self.assertEqual([q.fact_id for q in empty.feedback_queries], ["founder", "staff"])  # birthplace waits for founder
        self.assertIn("birthplace waits for founder", empty.rationale)

    def test_follow_up_uses_the_bridge_and_links_its_parent(self):
        assessment = judge([S("zeta-labs")])
        by_fact = {}
        for q in assessment.feedback_queries:  # ranked: the first per fact is the best
            by_fact.setdefault(q.fact_id, q)
        self.assertEqual(sorted(by_fact), ["birthplace", "staff"])
        self.assertTrue(by_fact["birthplace"].text.startswith("Ann Vale"))
        self.assertIn("born", by_fact["birthplace"].text)
        self.assertEqual(by_fact["birthplace"].parent_id, "q1.1")

    def test_nothing_asked_when_sufficient_and_complete(self):
        plan = one_fact_plan("Zeta Labs founded", ("Zeta Labs", "founded"))
        self.assertEqual(judge([S("zeta-labs")], plan).feedback_queries, ())


class UnsupportedClaimsTest(unittest.TestCase):
    def test_each_kind_of_unsupported_claim(self):
        s = snip("s", "Zeta Labs was founded in 1999. It makes sensors.")
        good = Claim("It makes sensors.", (Citation("s", "It makes sensors.", 31),))
        cases = {
            "no citation": Claim("Zeta Labs exists."),
            "unknown snippet": Claim("It makes sensors.", (Citation("other", "It makes sensors.", 31),)),
            "wrong span": Claim("It makes sensors.", (Citation("s", "It makes sensors.", 0),)),
            "not in the snippet": Claim("It makes boats.", (Citation("s", "It makes boats.", 31),)),
            "one bad of two": Claim("Both.", (good.citations[0], Citation("s", "founded in 2003", 14))),
        }
        for name, claim in cases.items():
            with self.subTest(case=name):
                self.assertEqual(unsupported_claims([good, claim], [s]), (claim,))
        assessment = judge([s], one_fact_plan("Zeta Labs founded"), DraftAnswer("x", (good, cases["wrong span"])))
        self.assertEqual(assessment.unsupported_claims, (cases["wrong span"],))


class AbstentionPolicyTest(unittest.TestCase):
    def test_default_mapping(self):
        policy = AbstentionPolicy()
        expected = {
            AnswerabilityLabel.SUFFICIENT: AnswerStatus.ANSWERED,
            AnswerabilityLabel.USEFUL_BUT_INCOMPLETE: AnswerStatus.PARTIAL,
            AnswerabilityLabel.CONFLICTING: AnswerStatus.PARTIAL,
            AnswerabilityLabel.INSUFFICIENT: AnswerStatus.UNANSWERABLE,
            AnswerabilityLabel.UNANSWERABLE: AnswerStatus.UNANSWERABLE,
        }
        for label, status in expected.items():
            self.assertIs(policy.status_for(label), status)
            self.assertIs(policy.status_for(label.value), status)

    def test_never_maps_a_non_sufficient_label_to_answered(self):
        for name in ("useful_but_incomplete", "conflicting", "insufficient"):
            for value in (AnswerStatus.ANSWERED, "answered"):
                with self.subTest(field=name, value=value), self.assertRaises(InvalidInputError) as ctx:
                    AbstentionPolicy(**{name: value})
                self.assertIn(name, str(ctx.exception))

    def test_custom_mapping(self):
        policy = AbstentionPolicy(insufficient="partial", useful_but_incomplete=AnswerStatus.UNANSWERABLE)
        self.assertIs(policy.status_for(AnswerabilityLabel.INSUFFICIENT), AnswerStatus.PARTIAL)
        self.assertIs(policy.status_for(AnswerabilityLabel.USEFUL_BUT_INCOMPLETE), AnswerStatus.UNANSWERABLE)
        self.assertIs(policy.status_for(AnswerabilityLabel.UNANSWERABLE), AnswerStatus.UNANSWERABLE)


# --- extractive drafting and synthesis --------------------------------------------------


class ExtractiveDrafterTest(unittest.TestCase):
    def test_picks_the_best_sentence_with_an_exact_span(self):
        text = "Intro about ships. Dr. Ann Vale was born in Braga, near Porto. She studied physics."
        plan = one_fact_plan("Where Ann Vale was born", ("Ann Vale", "born"))
        draft = ExtractiveDrafter().draft(plan.question, plan, [snip("s", text)])
        self.assertEqual(len(draft.claims), 1)
        claim = draft.claims[0]
        self.assertEqual(claim.text, "Dr. Ann Vale was born in Braga, near Porto.")
        self.assertEqual(claim.fact_id, "f")
        citation = claim.citations[0]
        self.assertEqual((citation.snippet_id, citation.start, citation.end), ("s", 19, 62))
        self.assertEqual(text[citation.start:citation.end], citation.quote)
        self.assertEqual(draft.text, claim.text)

    def test_ties_go_to_the_earlier_sentence(self):
        drafter = ExtractiveDrafter()
        claim = drafter.best_sentence_claim(snip("s", "Ships sail. Boats float. Ships sail again."), {"ship"}, (), "f")
        self.assertEqual((claim.text, claim.citations[0].start), ("Ships sail.", 0))
        self.assertIsNone(drafter.best_sentence_claim(snip("e", ""), {"ship"}, (), "f"))

    def test_must_mention_prefers_that_sentence(self):
        claim = ExtractiveDrafter().best_sentence_claim(snip("s", "Founded in 1999 here. Also 2003."), {"found"}, (), "f", must_mention="2003")
        self.assertEqual(claim.text, "Also 2003.")


class ExtractiveSynthesizerTest(unittest.TestCase):
    def synthesize(self, snippets):
        snippets = tuple(snippets)
        return ExtractiveGroundedSynthesizer().synthesize(QUESTION, fixture_plan(), snippets, judge(snippets))

    def test_answered_two_hop(self):
        answer = self.synthesize([S("zeta-labs", 3), S("ann-vale", 2)])
        self.assertIs(answer.status, AnswerStatus.ANSWERED)
        self.assertEqual([c.fact_id for c in answer.claims], ["founder", "birthplace"])
        self.assertIn("Ann Vale was born in Braga in 1960.", answer.text)
        self.assertEqual(answer.final_score, 0.88)
        self.assertEqual(answer.iterations, 0)

    def test_partial_names_what_is_missing(self):
        answer = self.synthesize([S("zeta-labs")])
        self.assertIs(answer.status, AnswerStatus.PARTIAL)
        self.assertEqual([f.id for f in answer.missing_facts], ["birthplace", "staff"])
        self.assertIn("Not found in the evidence: the second and third parts of the question.", answer.text)

    def test_unanswerable_has_no_claims_and_names_missing_facts(self):
        for snippets in ([], [S("bread")], [S("omega-works")]):
            with self.subTest(snippets=[s.id for s in snippets]):
                answer = self.synthesize(snippets)
                self.assertIs(answer.status, AnswerStatus.UNANSWERABLE)
                self.assertEqual(answer.claims, ())
                # missing_facts names each fact; the text says so once, without repeating them.
                self.assertEqual(answer.missing_facts, fixture_plan().facts)
                self.assertEqual(answer.text, "The evidence is insufficient to answer this question.")

    def test_partial_answer_has_a_claim(self):
        # Half-covered facts with none covered are INSUFFICIENT (not USEFUL_BUT_INCOMPLETE),
        # so the answer abstains instead of being a PARTIAL answer without a single claim.
        plan = one_fact_plan("Omega Works employs many people")
        snippets = (snip("a", "Omega Works employs welders."),)  # 0.6 coverage, not covered
        assessment = judge(snippets, plan)
        answer = ExtractiveGroundedSynthesizer().synthesize(plan.question, plan, snippets, assessment)
        self.assertIs(assessment.label, AnswerabilityLabel.INSUFFICIENT)
        self.assertIs(answer.status, AnswerStatus.UNANSWERABLE)
        self.assertEqual(answer.claims, ())

    def test_conflict_claims_are_not_repeated(self):
        # The covered fact's claim and the conflict side citing the same sentence are both kept.
        answer = self.synthesize([S("zeta-labs", 3), S("zeta-directory", 2), S("ann-vale", 1)])
        self.assertEqual(len(answer.claims), len(set(answer.claims)))


# --- sentences and entities ---------------------------------------------------------------


class SentenceSplitterTest(unittest.TestCase):
    def assertSentences(self, text, expected):
        spans = split_sentences(text)
        self.assertEqual([s.text for s in spans], expected)
        for span in spans:
            self.assertEqual(text[span.start:span.end], span.text)
            self.assertEqual(span.text, span.text.strip())
        self.assertEqual([s.start for s in spans], sorted(s.start for s in spans))

    def test_offsets_and_abbreviations(self):
        cases = {
            "Dr. Smith arrived. He left.": ["Dr. Smith arrived.", "He left."],
            "  Mr. and Mrs. Doe met in Jan. 2001. Fine!  ": ["Mr. and Mrs. Doe met in Jan. 2001.", "Fine!"],
            "See e.g. the U.S. Army. Next one.": ["See e.g. the U.S. Army.", "Next one."],
            "J. R. Tolkien wrote books. They sold.": ["J. R. Tolkien wrote books.", "They sold."],
            "Is it? Yes! Ok.": ["Is it?", "Yes!", "Ok."],
            "Version 2.5 was out. 2006 was better.": ["Version 2.5 was out.", "2006 was better."],
            "The firm (Acme Inc.) grew. Then it fell.": ["The firm (Acme Inc.) grew.", "Then it fell."],
            "First part\n\nsecond paragraph": ["First part", "second paragraph"],
            "no punctuation at all": ["no punctuation at all"],
            "": [],
            " \n ": [],
        }
        for text, expected in cases.items():
            with self.subTest(text=text):
                self.assertSentences(text, expected)

    def test_closing_quotes_and_brackets_stay_with_their_sentence(self):
        self.assertSentences('He said "Go." She went.', ['He said "Go."', "She went."])
        self.assertSentences("She asked “Why?” Then left.", ["She asked “Why?”", "Then left."])
        self.assertSentences("(See above.) Next.", ["(See above.)", "Next."])


class EntityExtractionTest(unittest.TestCase):
    def mentions(self, text):
        return [(m.text, m.start, m.kind) for m in extract_entities(text)]

    def test_names_numbers_and_order(self):
        self.assertEqual(self.mentions("Jane Doe was born in Lyon, France, in 1968."),
                         [("Jane Doe", 0, "name"), ("Lyon", 21, "name"), ("France", 27, "name"), ("1968", 38, "number")])
        self.assertEqual(self.mentions("It employs 1,200 people and 3.5 percent."), [("1,200", 11, "number"), ("3.5", 28, "number")])
        self.assertEqual(self.mentions("The Bank of England opened in 1694."), [("Bank of England", 4, "name"), ("1694", 30, "number")])
        self.assertEqual(self.mentions("Jane Doe and Mark Roe"), [("Jane Doe", 0, "name"), ("Mark Roe", 13, "name")])
        self.assertEqual(self.mentions("J. R. R. Tolkien wrote it."), [("J. R. R. Tolkien", 0, "name")])
        self.assertEqual(self.mentions("no names here"), [])
        self.assertEqual(self.mentions(""), [])

    def test_quoted_titles(self):
        self.assertIn(("The Old Man and the Sea", 9, "quoted"), self.mentions('He read "The Old Man and the Sea" twice.'))
        self.assertIn(("Atlas picker", 5, "quoted"), self.mentions("The “Atlas picker” shipped."))

    def test_one_mention_per_surface_form_first_offset(self):
        self.assertEqual(self.mentions("Jane Doe met JANE DOE and Jane Doe."), [("Jane Doe", 0, "name")])

    def test_sentence_initial_function_words_are_not_names(self):
        self.assertEqual(self.mentions("In 2019 she won. The Medal went to Ann Vale."),
                         [("2019", 3, "number"), ("Medal", 21, "name"), ("Ann Vale", 35, "name")])
        self.assertEqual(self.mentions("He met Jane Doe. Then Mark Roe came."), [("Jane Doe", 7, "name"), ("Mark Roe", 22, "name")])

    def test_runs_of_connectors_inside_names(self):
        self.assertEqual(self.mentions("Jean de la Fontaine wrote fables."), [("Jean de la Fontaine", 0, "name")])
        self.assertEqual(self.mentions("She joined the Bank of the West."), [("Bank of the West", 15, "name")])


if __name__ == "__main__":
    unittest.main()
