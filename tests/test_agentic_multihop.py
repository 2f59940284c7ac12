"""Bridge-aware planning, bridge extraction, the judge without required terms, and the
multi-hop metrics, on small fixtures written for these tests."""

from __future__ import annotations

import unittest

from agentic_rag import (
    AgenticRAGOrchestrator,
    AnswerStatus,
    AnswerabilityLabel,
    AutoraterStyleSufficiencyJudge,
    Corpus,
    Document,
    InvalidInputError,
    OrchestratorConfig,
    Snippet,
)
from agentic_rag.compat import InMemoryKeywordRetriever
from agentic_rag.components import HeuristicPlanner
from agentic_rag.types import DraftAnswer
from agentic_rag._agentic.fact_evidence import FactEvidenceModel
from agentic_rag._text.questions import AnswerType, anchor_entity, answer_type, is_bridge_question
from agentic_rag.evaluation.dataset_records import MultiHopQuestion
from agentic_rag.evaluation.multihop import EvidenceRun, MultiHopConfiguration, compare_configurations, score_evidence, split_questions

QUESTION = "Who directed the 2001 film that featured Lin Mei?"
WIKI = Corpus(id="wiki", description="encyclopedia articles")
PARAGRAPHS = (
    Document(id="lin-mei", corpus_id="wiki", title="Lin Mei",
             text="Lin Mei is a Chinese actress. She is known for the 1993 film Red Harbour and for the 2001 film Desert Lanterns, a historical epic."),
    Document(id="desert-lanterns", corpus_id="wiki", title="Desert Lanterns (film)",
             text="Desert Lanterns is a 2001 South Korean historical film directed by Park Joon-ho. It follows envoys lost in the Gobi desert."),
    Document(id="red-harbour", corpus_id="wiki", title="Red Harbour",
             text="Red Harbour is a 1993 action film directed by Wong Kar-lok, set in the port of Tianjin."),
    Document(id="park-chan", corpus_id="wiki", title="Park Chan-soo",
             text="Park Chan-soo directed the 2001 comedy Spring Rain, which featured an ensemble cast of newcomers."),
    Document(id="gobi", corpus_id="wiki", title="Gobi Desert",
             text="The Gobi Desert is a large cold desert in Asia. Several films have been shot there."),
)


def snippet(doc: Document) -> Snippet:
    return Snippet(id=doc.id, corpus_id=doc.corpus_id, document_id=doc.id, text=doc.text, metadata={"title": doc.title})


def run(documents, top_k=3):
    orchestrator = AgenticRAGOrchestrator(retriever=InMemoryKeywordRetriever(documents), config=OrchestratorConfig(top_k=top_k))
    return orchestrator.run(QUESTION, (WIKI,))


class QuestionShapeTest(unittest.TestCase):
    def test_bridge_questions_are_recognised(self):
        self.assertTrue(is_bridge_question(QUESTION))
        self.assertTrue(is_bridge_question("Where was the founder of Acme Robotics born?"))
        self.assertFalse(is_bridge_question("Who founded Acme Robotics?"))
        self.assertFalse(is_bridge_question("When was Lin Mei born?"))

    def test_anchor_prefers_quoted_then_multiword_names(self):
        self.assertEqual(anchor_entity(QUESTION), "Lin Mei")
        self.assertEqual(anchor_entity('Which band released a song called "Counterparts" in Canada?'), "Counterparts")
        self.assertEqual(anchor_entity("what is this?"), "")

    def test_answer_types(self):
        self.assertIs(answer_type("When was Lin Mei born?"), AnswerType.DATE)
        self.assertIs(answer_type("How many films did she make?"), AnswerType.NUMBER)
        self.assertIs(answer_type(QUESTION), AnswerType.NAME)
        self.assertIs(answer_type("Are Lin Mei and Park Chan-soo both actors?"), AnswerType.YES_NO)
        self.assertIs(answer_type("Which film came first?"), AnswerType.ENTITY)

    def test_planner_splits_a_bridge_question_into_two_hops(self):
        plan = HeuristicPlanner().plan(QUESTION, (WIKI,))
        first, second = plan.facts
        self.assertEqual(first.required_terms, ("Lin Mei",))
        self.assertEqual(second.depends_on, (first.id,))
        self.assertEqual(second.description, QUESTION)
        single = HeuristicPlanner(bridge_facts=False).plan(QUESTION, (WIKI,))
        self.assertEqual(len(single.facts), 1)


class BridgeExtractionTest(unittest.TestCase):
    def test_bridges_skip_what_the_question_names_and_rank_names_near_its_terms_first(self):
        model = FactEvidenceModel()
        bridges = model.bridges(snippet(PARAGRAPHS[0]), QUESTION)
        self.assertNotIn("Lin Mei", bridges)  # the anchor's own title: the question names it
        self.assertEqual(bridges[0], "Desert Lanterns")  # its sentence holds "2001" and "film"
        self.assertIn("Red Harbour", bridges)
        self.assertLess(bridges.index("Desert Lanterns"), bridges.index("Red Harbour"))
        self.assertNotIn("2001", bridges)  # numbers the question states are not bridges

    def test_anchor_passage(self):
        model = FactEvidenceModel()
        self.assertTrue(model.is_anchor(snippet(PARAGRAPHS[0]), QUESTION))
        self.assertFalse(model.is_anchor(snippet(PARAGRAPHS[1]), QUESTION))

    def test_follow_up_queries_name_the_bridge_and_link_their_parent(self):
        result = run(PARAGRAPHS, top_k=2)  # the first round misses the film's article
        self.assertIs(result.answer.status, AnswerStatus.ANSWERED)
        follow_ups = [sq for t in result.iterations[1:] for sq in t.subqueries]
        self.assertTrue(follow_ups)
        self.assertTrue(follow_ups[0].text.startswith("Desert Lanterns"), follow_ups[0].text)
        self.assertIsNotNone(follow_ups[0].parent_id)


class JudgeWithoutRequiredTermsTest(unittest.TestCase):
    def assess(self, docs):
        plan = HeuristicPlanner().plan(QUESTION, (WIKI,))
        return AutoraterStyleSufficiencyJudge().assess(QUESTION, plan, [snippet(d) for d in docs], DraftAnswer(""))

    def test_both_hops_are_sufficient(self):
        self.assertIs(self.assess(PARAGRAPHS).label, AnswerabilityLabel.SUFFICIENT)

    def test_second_hop_missing_names_the_second_fact(self):
        without = [d for d in PARAGRAPHS if d.id != "desert-lanterns"]
        assessment = self.assess(without)
        self.assertIs(assessment.label, AnswerabilityLabel.USEFUL_BUT_INCOMPLETE)
        self.assertEqual(assessment.missing_fact_ids, ("f2",))
        self.assertEqual(assessment.covered_fact_ids, ("f1",))

    def test_a_passage_that_is_not_linked_does_not_count(self):
        # "Park Chan-soo directed the 2001 comedy ... featured" has the words but is not the
        # film Lin Mei's article names.
        assessment = self.assess([PARAGRAPHS[0], PARAGRAPHS[3], PARAGRAPHS[4]])
        self.assertIn("f2", assessment.missing_fact_ids)

    def test_stated_years_must_be_found(self):
        model = FactEvidenceModel()
        self.assertEqual(model.key_terms(QUESTION), frozenset({"2001", "lin", "mei"}))


class SecondHopRemovedTest(unittest.TestCase):
    def test_removing_the_second_hop_turns_answered_into_partial(self):
        full = run(PARAGRAPHS)
        self.assertIs(full.answer.status, AnswerStatus.ANSWERED)
        self.assertIn("Park Joon-ho", full.answer.text)
        cut = run([d for d in PARAGRAPHS if d.id != "desert-lanterns"])
        self.assertIs(cut.answer.status, AnswerStatus.PARTIAL)
        self.assertEqual([f.description for f in cut.answer.missing_facts], [QUESTION])
        self.assertNotIn("Park Joon-ho", cut.answer.text)


def question(qid, gold, line):
    return MultiHopQuestion(id=qid, question="q?", answer="Park Joon-ho", aliases=(), type="bridge", gold_doc_ids=gold, pool_doc_ids=(), line_number=line)


class MultiHopMetricsTest(unittest.TestCase):
    def test_score_evidence(self):
        q = question("a", ("x", "y"), 0)
        score = score_evidence(q, EvidenceRun(("x", "z", "y"), ("", "", "directed by Park Joon-ho")), k=2)
        self.assertFalse(score.all_gold)
        self.assertEqual(score.gold_recall, 0.5)
        self.assertFalse(score.answer_in_evidence)
        score = score_evidence(q, EvidenceRun(("x", "z", "y"), ("", "", "directed by Park Joon-ho")), k=3)
        self.assertTrue(score.all_gold)
        self.assertTrue(score.answer_in_evidence)

    def test_yes_no_answers_never_count_as_found(self):
        q = MultiHopQuestion(id="b", question="q?", answer="yes", aliases=(), type="comparison", gold_doc_ids=("x",), pool_doc_ids=(), line_number=1)
        self.assertFalse(score_evidence(q, EvidenceRun(("x",), ("yes it is",)), k=1).answer_in_evidence)

    def test_split_by_line_parity(self):
        qs = [question(str(i), ("x",), i) for i in range(5)]
        self.assertEqual([q.id for q in split_questions(qs, "tune")], ["0", "2", "4"])
        self.assertEqual([q.id for q in split_questions(qs, "report")], ["1", "3"])
        with self.assertRaises(InvalidInputError):
            split_questions(qs, "other")

    def test_compare_configurations_runs_every_configuration_on_the_same_questions(self):
        qs = [question("a", ("x", "y"), 0), question("b", ("y",), 1)]
        seen = []

        def perfect(q):
            seen.append(q.id)
            return EvidenceRun(q.gold_doc_ids, (), retriever_calls=2, iterations=2)

        reports = compare_configurations(qs, [MultiHopConfiguration("none", lambda q: EvidenceRun(("z",))), MultiHopConfiguration("perfect", perfect)], k=10, clock=iter(range(100)).__next__)
        self.assertEqual([r.all_gold_at_k for r in reports], [0.0, 1.0])
        self.assertEqual(reports[1].retriever_calls, 2.0)
        self.assertEqual(seen, ["a", "b"])
        with self.assertRaises(InvalidInputError):
            compare_configurations(qs, [MultiHopConfiguration("x", perfect), MultiHopConfiguration("x", perfect)])


if __name__ == "__main__":
    unittest.main()
