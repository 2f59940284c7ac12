"""Final evidence ranked as chains (a passage and the passage its bridge entity leads to) and
the round policy (a progress test from ``progress_after`` on, ``max_iterations`` as the cap),
on small fixtures written for these tests."""

from __future__ import annotations

import unittest

from agentic_rag import (
    AgenticRAGOrchestrator,
    AnswerabilityLabel,
    AutoraterStyleSufficiencyJudge,
    ContextAssessment,
    Corpus,
    InvalidInputError,
    OrchestratorConfig,
    RequiredFact,
    Snippet,
    StopReason,
)
from agentic_rag.components import HeuristicPlanner
from agentic_rag.types import DraftAnswer, FeedbackQuery, SufficiencyStatus
from agentic_rag._agentic import Chain, ChainRanker

QUESTION = "Who employed the physicist that the Mach number is named after?"
WIKI = (Corpus(id="wiki", description="encyclopedia articles"),)
ANCHOR = RequiredFact(id="f1", description="Mach number", required_terms=("Mach number",))
HOP = RequiredFact(id="f2", description=QUESTION, depends_on=("f1",))


def snippet(doc_id: str, title: str, text: str) -> Snippet:
    return Snippet(id=f"wiki/{doc_id}", corpus_id="wiki", document_id=doc_id, text=text, metadata={"title": title})


HEAD = snippet("mach-number", "Mach number", "The Mach number is named after the Austrian physicist and philosopher Ernst Mach.")
TAIL = snippet("ernst-mach", "Ernst Mach", "Ernst Mach was employed as a professor by Charles University in Prague.")
# Passages that look like the question (physicist, named, number) but lead nowhere.
LOOK_ALIKES = tuple(
    snippet(f"look-{n}", title, text)
    for n, (title, text) in enumerate((
        ("Sound barrier", "An aircraft passing Mach 1 breaks the sound barrier, a number physicists named."),
        ("Reynolds number", "The Reynolds number is named after the physicist Osborne Reynolds."),
        ("Prandtl number", "The Prandtl number is a number named after the physicist Ludwig Prandtl."),
        ("Nusselt number", "The Nusselt number is named after the physicist Wilhelm Nusselt."),
        ("Froude number", "The Froude number is a number named after William Froude."),
    ))
)


def plan(*facts: RequiredFact):
    return HeuristicPlanner(facts).plan(QUESTION, WIKI)


class ChainScoreTest(unittest.TestCase):
    def test_best_chain_is_the_passage_and_the_one_its_bridge_leads_to(self):
        best = ChainRanker().chains(QUESTION, (HEAD, *LOOK_ALIKES, TAIL))[0]
        self.assertEqual((best.head_id, best.tail_id, best.bridge), (HEAD.id, TAIL.id, "Ernst Mach"))
        self.assertIsInstance(best, Chain)

    def test_no_chain_without_a_passage_naming_the_bridge(self):
        chains = ChainRanker().chains(QUESTION, (HEAD, *LOOK_ALIKES))
        self.assertNotIn(TAIL.id, {c.tail_id for c in chains})
        self.assertFalse(any(c.head_id == HEAD.id and c.bridge == "Ernst Mach" for c in chains))

    def test_chains_do_not_depend_on_the_pool_order(self):
        ranker = ChainRanker()
        pool = (HEAD, *LOOK_ALIKES, TAIL)
        self.assertEqual(ranker.chains(QUESTION, pool), ranker.chains(QUESTION, tuple(reversed(pool))))

    def test_equal_scores_are_ordered_by_ids(self):
        twin = snippet("mach-number-copy", "Mach number", HEAD.text)
        chains = [c for c in ChainRanker().chains(QUESTION, (twin, TAIL, HEAD)) if c.tail_id == TAIL.id]
        self.assertEqual(len(chains), 2)
        self.assertEqual(chains[0].score, chains[1].score)
        self.assertEqual([c.head_id for c in chains], sorted([HEAD.id, twin.id]))


class ChainRankTest(unittest.TestCase):
    def test_second_hop_joins_the_first_at_the_top(self):
        given = [HEAD, *LOOK_ALIKES, TAIL]
        ranked = [s.id for s in ChainRanker().rank(QUESTION, plan(ANCHOR, HOP), given)]
        # The look-alikes take part in no chain: they keep their order, behind the chain.
        self.assertEqual(ranked, [s.id for s in (HEAD, TAIL, *LOOK_ALIKES)])

    def test_zero_weight_keeps_the_loop_order(self):
        given = [HEAD, *LOOK_ALIKES, TAIL]
        self.assertEqual(ChainRanker(weight=0.0).rank(QUESTION, plan(ANCHOR, HOP), given), given)

    def test_order_kept_without_a_dependent_fact(self):
        given = [HEAD, *LOOK_ALIKES, TAIL]
        plain = RequiredFact(id="f1", description=QUESTION)
        self.assertEqual(ChainRanker().rank(QUESTION, plan(plain), given), given)

    def test_same_input_same_order(self):
        given = [HEAD, *LOOK_ALIKES, TAIL]
        first = ChainRanker().rank(QUESTION, plan(ANCHOR, HOP), given)
        self.assertEqual([s.id for s in first], [s.id for s in ChainRanker().rank(QUESTION, plan(ANCHOR, HOP), given)])

    def test_bad_settings(self):
        for kwargs in ({"bridges_per_passage": 0}, {"fusion_k": 0}, {"weight": -1.0}, {"about_bonus": float("nan")}):
            with self.subTest(kwargs=kwargs), self.assertRaises(InvalidInputError):
                ChainRanker(**kwargs)


class EndlessJudge:
    """Never sufficient; asks one new follow-up query per round and reports no support."""

    def assess(self, question, plan, snippets, draft):
        return ContextAssessment(
            status=SufficiencyStatus.INSUFFICIENT,
            sufficiency_score=0.0,
            missing_fact_ids=tuple(f.id for f in plan.facts),
            feedback_queries=(FeedbackQuery(fact_id=plan.facts[0].id, text=f"follow-up {len(snippets)}"),),
            label=AnswerabilityLabel.INSUFFICIENT,
        )


class PoolRetriever:
    """Returns the given snippets in the given order, whatever the query."""

    def __init__(self, snippets):
        self.snippets = tuple(snippets)

    def retrieve(self, query, k, *, corpus_ids=None):
        return self.snippets[:k]


class OrchestratorChainsTest(unittest.TestCase):
    def run_with(self, rank_chains: bool):
        orchestrator = AgenticRAGOrchestrator(
            retriever=PoolRetriever((HEAD, *LOOK_ALIKES, TAIL)),
            planner=HeuristicPlanner((ANCHOR, HOP)),
            judge=EndlessJudge(),  # no support: the loop's order is the retriever's
            config=OrchestratorConfig(top_k=10, max_iterations=1, rank_chains=rank_chains),
        )
        return orchestrator.run(QUESTION, WIKI)

    def test_final_evidence_is_the_loop_order_fused_with_the_chain_order(self):
        plain, chained = self.run_with(False), self.run_with(True)
        expected = ChainRanker().rank(QUESTION, plain.plan, plain.snippets)
        self.assertEqual([s.id for s in plain.snippets], [s.id for s in (HEAD, *LOOK_ALIKES, TAIL)])
        self.assertEqual([s.id for s in chained.snippets], [s.id for s in expected])
        self.assertLess([s.id for s in chained.snippets].index(TAIL.id), len(LOOK_ALIKES) + 1)


class FreshRetriever:
    """A new passage for every call; ``carry`` decides whether it holds the missing word."""

    def __init__(self, carry: bool):
        self.carry, self.calls = carry, 0

    def retrieve(self, query, k, *, corpus_ids=None):
        self.calls += 1
        word = "zephyrine" if self.carry else "pebble"
        return (snippet(f"doc-{self.calls}", f"Page {self.calls}", f"Page {self.calls} talks about a {word} number {self.calls}."),)


class RoundPolicyTest(unittest.TestCase):
    FACTS = (RequiredFact(id="f1", description="zephyrine", required_terms=("zephyrine",)),)

    def run_with(self, carry: bool, **config):
        orchestrator = AgenticRAGOrchestrator(retriever=FreshRetriever(carry), planner=HeuristicPlanner(self.FACTS), judge=EndlessJudge(),
                                              config=OrchestratorConfig(top_k=1, max_iterations=8, **config))
        return orchestrator.run("Where is the zephyrine?", WIKI)

    def test_rounds_without_the_missing_part_stop_from_progress_after_on(self):
        run = self.run_with(False, progress_after=3)
        self.assertIs(run.stop_reason, StopReason.NO_PROGRESS)
        self.assertEqual(len(run.iterations), 3)

    def test_rounds_that_carry_the_missing_part_go_on_to_the_cap(self):
        run = self.run_with(True, progress_after=3)
        self.assertIs(run.stop_reason, StopReason.MAX_ITERATIONS)
        self.assertEqual(len(run.iterations), 8)
        self.assertEqual(run.usage.retriever_calls, 8)

    def test_without_progress_after_any_new_passage_is_progress(self):
        run = self.run_with(False)
        self.assertIs(run.stop_reason, StopReason.MAX_ITERATIONS)
        self.assertEqual(len(run.iterations), 8)

    def test_bad_config(self):
        for kwargs in ({"progress_after": 0}, {"progress_after": 1.5}, {"rank_chains": "yes"}):
            with self.subTest(kwargs=kwargs), self.assertRaises(InvalidInputError):
                OrchestratorConfig(**kwargs)


class OnwardBridgeTest(unittest.TestCase):
    def test_follow_ups_go_on_from_the_second_hop(self):
        # Three hops: Mach number -> Ernst Mach -> the university that employed him.
        question = "In which year was the institution that employed the physicist the Mach number is named after founded?"
        hop = RequiredFact(id="f2", description=question, depends_on=("f1",))
        plan = HeuristicPlanner((ANCHOR, hop)).plan(question, WIKI)
        assessment = AutoraterStyleSufficiencyJudge(feedback_per_fact=16).assess(question, plan, [HEAD, TAIL], DraftAnswer(""))
        self.assertEqual(assessment.missing_fact_ids, ("f2",))
        texts = [q.text for q in assessment.feedback_queries]
        # The first hop's bridges first, then the second hop's.
        self.assertTrue(texts[0].startswith("Ernst Mach "))
        onward = [n for n, t in enumerate(texts) if t.startswith("Charles University ")]
        self.assertEqual(len(onward), 1)
        self.assertGreater(onward[0], 0)


if __name__ == "__main__":
    unittest.main()
