"""A loop a model can drive (issue 35): follow-ups are the judge's own queries, evidence that
established a fact stays in front of later rounds, a judge that finds the question unanswerable
ends the run with a final answer, rounds that add nothing end it, and a cap on model calls
still leaves the calls the final answer needs."""

from __future__ import annotations

import json
import unittest

from agentic_rag.testing.contracts.fixtures import QUESTION, fixture_plan, fixture_snippet

from agentic_rag import AgenticRAGOrchestrator, OrchestratorConfig
from agentic_rag._agentic.planner import HeuristicPlanner
from agentic_rag._contracts import (
    AnswerabilityLabel,
    ContextAssessment,
    DraftAnswer,
    FactSupport,
    RequiredFact,
    Snippet,
    StopReason,
    SufficiencyStatus,
)
from agentic_rag._samples import sample_corpora
from agentic_rag.llm import ScriptedLLM
from agentic_rag.llm.components import LLMSufficiencyJudge, LLMSynthesizer, llm_orchestrator
from agentic_rag.llm.components.prompts import FACTS_HEADER


def _judge_reply(label: str, covered=(), missing=(), documents=(), status: str = "insufficient") -> str:
    return json.dumps({
        "rationale": "read", "status": status, "label": label, "covered_fact_ids": list(covered),
        "fact_documents": [{"fact_id": f, "snippet_indices": list(i)} for f, i in documents],
        "missing_facts": [{"fact_id": f, "what_is_missing": f"{f} not stated", "follow_up_query": q} for f, q in missing],
        "conflicts": [],
    })


class LLMJudgeTest(unittest.TestCase):
    SNIPPETS = (fixture_snippet("zeta-labs", 3), fixture_snippet("ann-vale", 2))

    def test_follow_ups_are_the_models_own_and_documents_become_support(self) -> None:
        reply = _judge_reply("useful_but_incomplete", covered=("founder",), missing=(("birthplace", "Ann Vale place of birth"), ("staff", "")),
                             documents=(("founder", (2,)),))
        assessment = LLMSufficiencyJudge(ScriptedLLM([reply])).assess(QUESTION, fixture_plan(), self.SNIPPETS, DraftAnswer(""))
        # The model's query only: no bridge-and-stem queries added, none for a fact it wrote none for.
        self.assertEqual([(q.fact_id, q.text) for q in assessment.feedback_queries], [("birthplace", "Ann Vale place of birth")])
        # The judge's window is sorted by id: document 2 is zeta-labs.
        shown = sorted(self.SNIPPETS, key=lambda s: s.id)
        self.assertEqual(assessment.support, (FactSupport("founder", (shown[1].id,), 1.0),))

    def test_prompts_say_that_required_means_must(self) -> None:
        llm = ScriptedLLM([_judge_reply("insufficient")])
        LLMSufficiencyJudge(llm).assess(QUESTION, fixture_plan(), self.SNIPPETS, DraftAnswer(""))
        prompt = llm.calls[0].messages[-1].content
        self.assertIn(FACTS_HEADER, prompt)
        self.assertNotIn("Required facts", prompt)
        self.assertIn("never make the context insufficient", llm.calls[0].messages[0].content)
        from agentic_rag.llm.schemas import PLANNER_PROMPT, SYNTHESIZER_PROMPT

        # Fact descriptions stay neutral; a missing SHOULD or MAY fact never makes an answer partial.
        self.assertIn("never with the value you expect", PLANNER_PROMPT)
        self.assertIn("Should and may facts never change the status", SYNTHESIZER_PROMPT)


class _Pool:
    """A retriever answering every query with the next of a few fixed hit lists (a text, or
    several texts best first)."""

    def __init__(self, texts) -> None:
        self.texts, self.calls = list(texts), 0

    def retrieve(self, query, k, *, corpus_ids=None):
        hits = self.texts[min(self.calls, len(self.texts) - 1)]
        self.calls += 1
        corpus = (corpus_ids or ("company-records",))[0]
        return tuple(Snippet(id="", corpus_id=corpus, document_id=f"d{self.calls}-{n}", text=text)
                     for n, text in enumerate((hits,) if isinstance(hits, str) else hits))


class _Judge:
    """Scripted verdicts, one per round; records the evidence order it was shown. Like an
    LLM-backed judge, it shows its reader a window of the evidence."""

    window = "the first few"

    def __init__(self, verdicts) -> None:
        self.verdicts, self.seen = list(verdicts), []

    def assess(self, question, plan, snippets, draft):
        self.seen.append([s.text for s in snippets])
        make = self.verdicts.pop(0) if len(self.verdicts) > 1 else self.verdicts[0]
        return make(plan, snippets)


def _insufficient(plan, snippets, covered=(), label=AnswerabilityLabel.INSUFFICIENT, support=()):
    facts = [f.id for f in plan.facts]
    # No follow-ups: the rewriter below writes a new query every round.
    return ContextAssessment(SufficiencyStatus.INSUFFICIENT, 0.0, tuple(covered), tuple(f for f in facts if f not in covered), label=label,
                             support=tuple(support))


class _Rewriter:
    """A new query every round, whatever the feedback."""

    def rewrite(self, plan, feedback, *, iteration):
        from agentic_rag import Subquery

        return (Subquery(id=f"q{iteration}.1", fact_id=plan.facts[0].id, text=f"round {iteration}", corpus_ids=("company-records",), iteration=iteration),)


FACTS = (RequiredFact("f1", "Who founded Acme Robotics"), RequiredFact("f2", "How many employees Acme Robotics has"))


def _run(judge, config: OrchestratorConfig, texts=("first passage", "second passage", "third passage", "fourth passage")):
    orchestrator = AgenticRAGOrchestrator(retriever=_Pool(texts), planner=HeuristicPlanner(FACTS), rewriter=_Rewriter(), judge=judge, config=config)
    return orchestrator.run("Who founded Acme Robotics and how many employees does it have?", sample_corpora())


class LoopTest(unittest.TestCase):
    def test_a_judge_that_finds_the_question_unanswerable_ends_the_run(self) -> None:
        judge = _Judge([lambda p, s: _insufficient(p, s, label=AnswerabilityLabel.UNANSWERABLE)])
        run = _run(judge, OrchestratorConfig(max_iterations=4))
        self.assertIs(run.stop_reason, StopReason.UNANSWERABLE)
        self.assertEqual(len(run.iterations), 1)

    def test_rounds_that_cover_nothing_new_end_the_run(self) -> None:
        judge = _Judge([lambda p, s: _insufficient(p, s, covered=("f1",), label=AnswerabilityLabel.USEFUL_BUT_INCOMPLETE)])
        run = _run(judge, OrchestratorConfig(max_iterations=6, stall_rounds=2))
        self.assertIs(run.stop_reason, StopReason.NO_PROGRESS)
        self.assertEqual(len(run.iterations), 3)  # f1 found in round 1, then two rounds adding nothing
        self.assertIs(_run(_Judge([judge.verdicts[0]]), OrchestratorConfig(max_iterations=6)).stop_reason, StopReason.MAX_ITERATIONS)

    def test_evidence_that_established_a_fact_leads_later_rounds(self) -> None:
        def first(plan, snippets):
            return _insufficient(plan, snippets, covered=("f1",), label=AnswerabilityLabel.USEFUL_BUT_INCOMPLETE,
                                 support=(FactSupport("f1", (snippets[0].id,), 1.0),))

        def established(plan, snippets):
            return first(plan, [x for x in snippets if x.text == "first passage"])

        # Round 1 finds the passage establishing f1 second; later rounds' hits rank first.
        hits = (("filler", "first passage"), "second passage", "third passage")
        judge = _Judge([established])
        _run(judge, OrchestratorConfig(max_iterations=3), texts=hits)
        self.assertEqual([seen[0] for seen in judge.seen], ["filler", "first passage", "first passage"])
        # A judge that reads all the evidence (the deterministic one) keeps the pool's order.
        reader = _Judge([established])
        reader.window = None
        _run(reader, OrchestratorConfig(max_iterations=3), texts=hits)
        self.assertEqual([seen[0] for seen in reader.seen], ["filler", "filler", "filler"])


class CallBudgetTest(unittest.TestCase):
    def test_a_call_cap_leaves_the_final_answer_to_the_model(self) -> None:
        from agentic_rag._samples import sample_documents
        from agentic_rag.testing.contracts.fixtures import TermOverlapRetriever

        def reply(call):
            system = call.messages[0].content
            if system.startswith("You write the final answer"):
                return json.dumps({"answer": "", "claims": [], "status": "unanswerable", "missing_fact_ids": []})
            return "not JSON"  # every other role falls back to its deterministic component

        llm = ScriptedLLM(reply)
        orchestrator = llm_orchestrator(llm, retriever=TermOverlapRetriever(sample_documents()), config=OrchestratorConfig(max_iterations=5, max_llm_calls=7))
        orchestrator.run("Where was the founder of Acme Robotics born?", sample_corpora())
        roles = [c.messages[0].content[:30] for c in llm.calls]
        self.assertTrue(roles[-1].startswith("You write the final answer"), roles)
        self.assertLessEqual(len(llm.calls), 7)
        self.assertIsInstance(orchestrator.synthesizer, LLMSynthesizer)
        self.assertIs(orchestrator.verifier, orchestrator.synthesizer.verifier)


if __name__ == "__main__":
    unittest.main()
