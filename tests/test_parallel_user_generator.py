"""A generator the caller binds decides the answer text; the workflow's verdict goes beside it.
The library's own extractive generator keeps the workflow's abstention."""

from __future__ import annotations

import unittest

from agentic_rag._contracts import AnswerStatus
from agentic_rag._parallel import (
    ExtractiveGenerator,
    FunctionGenerator,
    FunctionRetriever,
    GeneratedAnswer,
    ParallelRAGWorkflow,
    RAGRequest,
)

CORPUS = {
    "tides": "Ocean tides are caused by the Moon's gravity. The Sun adds a smaller pull.",
    "moon": "The Moon orbits Earth every 27 days and raises two tidal bulges of ocean water.",
    "photo": "Photosynthesis converts light into chemical energy in leaves.",
}


def _rows(query, k):
    words = set(query.lower().replace("?", "").split())
    rows = [{"id": d, "text": t, "score": float(len(words & set(t.lower().replace(".", "").split())))} for d, t in CORPUS.items()]
    return sorted(rows, key=lambda r: (-r["score"], r["id"]))[:k]


def _reversed(query, k):
    return _rows(query, k)[::-1]


def _workflow(generator):
    return ParallelRAGWorkflow([FunctionRetriever(_rows, name="a"), FunctionRetriever(_reversed, name="b")], generator=generator)


# Nothing in the corpus says who invented the telescope: the answerability check says unanswerable.
UNANSWERED = "Who invented the telescope in 1608?"


class UserGeneratorKeepsItsTextTest(unittest.TestCase):
    def test_an_unanswerable_verdict_does_not_replace_a_function_generators_text(self):
        text = "Hans Lippershey applied for the first telescope patent."
        result = _workflow(FunctionGenerator(lambda q, docs: text)).run(RAGRequest(UNANSWERED, top_k=2))
        self.assertEqual(result.answer.text, text)
        self.assertFalse(result.answer.refused)
        self.assertIs(result.status, AnswerStatus.UNANSWERABLE)
        self.assertTrue(any(n.startswith("answerability: unanswerable") and "text is kept" in n for n in result.trace.notes), result.trace.notes)
        self.assertTrue(any("cites no document" in n for n in result.trace.notes), result.trace.notes)

    def test_an_object_generator_keeps_its_answer_object(self):
        answer = GeneratedAnswer("The telescope is Dutch [1].")

        class Mine:
            name = "mine"

            def generate(self, query, documents):
                return answer

        result = _workflow(Mine()).run(RAGRequest(UNANSWERED, top_k=2))
        self.assertIs(result.answer, answer)
        self.assertIsNot(result.status, AnswerStatus.ANSWERED)

    def test_an_answered_question_stays_answered_beside_a_free_text_answer(self):
        result = _workflow(FunctionGenerator(lambda q, docs: "The Moon's gravity.")).run(RAGRequest("What causes ocean tides?", top_k=2))
        self.assertEqual(result.answer.text, "The Moon's gravity.")
        self.assertIs(result.status, AnswerStatus.ANSWERED)

    def test_a_bad_citation_lowers_the_status_but_not_the_text(self):
        result = _workflow(FunctionGenerator(lambda q, docs: "Tides come from the Moon [7].")).run(RAGRequest("What causes ocean tides?", top_k=2))
        self.assertEqual(result.answer.text, "Tides come from the Moon [7].")
        self.assertIs(result.status, AnswerStatus.PARTIAL)
        self.assertTrue(any("citation problem" in n for n in result.trace.notes))


class ExtractiveGeneratorKeepsItsAbstentionTest(unittest.TestCase):
    def test_the_workflow_refuses_in_its_place(self):
        result = _workflow(ExtractiveGenerator()).run(RAGRequest(UNANSWERED, top_k=2))
        self.assertTrue(result.answer.refused)
        self.assertIs(result.status, AnswerStatus.UNANSWERABLE)
        self.assertTrue(result.answer.text.startswith("The retrieved evidence"), result.answer.text)

    def test_only_the_library_generators_declare_it(self):
        from agentic_rag.llm.components import LLMGenerator

        self.assertIs(ExtractiveGenerator.workflow_guards_text, True)
        self.assertIs(LLMGenerator.workflow_guards_text, True)
        self.assertFalse(hasattr(FunctionGenerator, "workflow_guards_text"))


if __name__ == "__main__":
    unittest.main()
