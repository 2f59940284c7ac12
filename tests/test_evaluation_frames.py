"""FRAMES-style metrics, and the headline: iterating on feedback fetches the second hop."""

from __future__ import annotations

import unittest

from agentic_rag import AgenticRAGOrchestrator, InvalidInputError, OrchestratorConfig
from agentic_rag.compat import InMemoryKeywordRetriever
from agentic_rag.components import HeuristicPlanner
from agentic_rag.evaluation import FramesCase, compare_runs, frames_metrics, mean_metrics
from agentic_rag._samples import TWO_HOP_QUESTION, sample_corpora, sample_documents, two_hop_facts

CASE = FramesCase(
    question=TWO_HOP_QUESTION,
    facts=two_hop_facts(),
    gold_documents=("company-records/acme-robotics", "biographies/jane-doe"),
    expected_answer="Lyon",
    distractor_corpus_ids=("recipes",),
)


def run(max_iterations: int):
    orchestrator = AgenticRAGOrchestrator(
        retriever=InMemoryKeywordRetriever(sample_documents()),
        planner=HeuristicPlanner(CASE.facts),
        config=OrchestratorConfig(max_iterations=max_iterations, top_k=3),
    )
    return orchestrator.run(CASE.question, sample_corpora())


class HeadlineTest(unittest.TestCase):
    def test_one_iteration_half_two_iterations_all_never_the_distractor(self):
        one = frames_metrics(CASE, run(1))
        two = frames_metrics(CASE, run(2))
        self.assertEqual((one.fetch_coverage, one.citation_completeness), (0.5, 0.5))
        self.assertEqual((two.fetch_coverage, two.citation_completeness), (1.0, 1.0))
        self.assertEqual((one.iterations, two.iterations), (1, 2))
        self.assertEqual((one.fact_coverage, two.fact_coverage), (0.5, 1.0))
        self.assertEqual((one.reasoning_correctness, two.reasoning_correctness), (0.0, 1.0))
        self.assertEqual((one.distractor_hits, two.distractor_hits), (0, 0))
        comparison = compare_runs(one, two)
        self.assertEqual(comparison.delta("fetch_coverage"), 0.5)
        self.assertEqual(comparison.delta("iterations"), 1.0)
        with self.assertRaises(InvalidInputError):
            comparison.delta("nonsense")


class MetricsTest(unittest.TestCase):
    def test_distractor_hits_are_counted(self):
        case = FramesCase(question=CASE.question, facts=CASE.facts, gold_documents=CASE.gold_documents, distractor_corpus_ids=("biographies",))
        self.assertGreater(frames_metrics(case, run(2)).distractor_hits, 0)

    def test_mean_metrics(self):
        a, b = frames_metrics(CASE, run(1)), frames_metrics(CASE, run(2))
        mean = mean_metrics([a, b])
        self.assertEqual(mean.fetch_coverage, 0.75)
        with self.assertRaises(InvalidInputError):
            mean_metrics([])

    def test_case_validation(self):
        with self.assertRaises(InvalidInputError):
            FramesCase(question="q", facts=(), gold_documents=("no-slash",))
        with self.assertRaises(InvalidInputError):
            FramesCase(question=" ", facts=(), gold_documents=("a/b",))


if __name__ == "__main__":
    unittest.main()
