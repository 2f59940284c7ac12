"""The LLM generator of the parallel workflow: cited answers, refusals, fallbacks, full runs."""

from __future__ import annotations

import json
import unittest

from llm_scripts import GARBAGE, SAMPLE_WORLD, Oracle

from agentic_rag._budget import RunBudget, use_budget
from agentic_rag._contracts import Snippet
from agentic_rag._errors import BudgetExhaustedError, InvalidInputError, StructuredOutputError
from agentic_rag.llm import OpenAICompatibleLLM, ScriptedLLM
from agentic_rag.llm.components import LLMGenerator, LLMQueryViewRewriter
from agentic_rag._parallel import ExtractiveGenerator, FusedDocument, Generator, ParallelRAGWorkflow, verify_citations
from agentic_rag._retrieval.bm25_retriever import BM25Retriever
from agentic_rag._retrieval.hashing_embedder import HashingEmbedder
from agentic_rag._retrieval.index_retriever import IndexRetriever
from agentic_rag._retrieval.vector import VectorIndex
from agentic_rag._samples import sample_documents
from agentic_rag.testing import OpenAICompatibleServer

TEXTS = (
    ("acme-robotics", "Acme Robotics was founded in 2001 by Jane Doe in Grenoble, France."),
    ("jane-doe", "Jane Doe was born in Lyon, France, in 1968."),
)


def documents(pairs=TEXTS) -> list[FusedDocument]:
    out = []
    for rank, (doc_id, text) in enumerate(pairs, start=1):
        snippet = Snippet(id=f"c/{doc_id}", corpus_id="c", document_id=doc_id, text=text)
        out.append(FusedDocument(doc_id, "c", 1.0 / rank, 1.0 / rank, rank, (), snippet))
    return out


def answer_json(claims, status="answered") -> str:
    return json.dumps({"answer": "", "claims": claims, "status": status, "missing_fact_ids": []})


GOOD = [
    {"text": "Jane Doe founded Acme Robotics.", "citations": [{"snippet": 1, "quote": "founded in 2001 by Jane Doe"}]},
    {"text": "She was born in Lyon", "citations": [{"snippet": 2, "quote": "born in Lyon"}, {"snippet": 1, "quote": "Jane Doe"}]},
]
BAD = [{"text": "Acme has 900 staff.", "citations": [{"snippet": 3, "quote": "900"}]}]


def workflow(generator, rewriter=None) -> ParallelRAGWorkflow:
    docs = sample_documents()
    vectors = VectorIndex(HashingEmbedder())
    vectors.add(docs)
    return ParallelRAGWorkflow([BM25Retriever.from_documents(docs), IndexRetriever(vectors, name="vector")], rewriter=rewriter, generator=generator)


class GeneratorTest(unittest.TestCase):
    def test_answer_with_markers_and_exact_citations(self) -> None:
        generator = LLMGenerator(ScriptedLLM([answer_json(GOOD)]))
        self.assertIsInstance(generator, Generator)
        docs = documents()
        answer = generator.generate("Who founded Acme Robotics and where was she born?", docs)
        self.assertEqual(answer.text, "Jane Doe founded Acme Robotics [1]. She was born in Lyon [2] [1]")
        # Each marker is read as one ("[2][1]" was read as "[2]" and text, joining claims).
        from agentic_rag._answering import marked_segments
        self.assertEqual(marked_segments(answer.text), [("Jane Doe founded Acme Robotics.", (1,)), ("She was born in Lyon", (2, 1))])
        self.assertFalse(answer.refused)
        self.assertEqual([(c.number, c.document_id, c.quote) for c in answer.citations],
                         [(1, "acme-robotics", "founded in 2001 by Jane Doe"), (2, "jane-doe", "born in Lyon"), (1, "acme-robotics", "Jane Doe")])
        self.assertEqual(verify_citations(answer, docs), ())

    def test_hallucinated_citations_are_dropped_and_noted(self) -> None:
        generator = LLMGenerator(ScriptedLLM([answer_json(GOOD[:1] + BAD)]))
        answer = generator.generate("Who founded Acme Robotics?", documents())
        self.assertEqual(verify_citations(answer, documents()), ())
        self.assertIn("1 claim(s) removed", answer.text)
        self.assertNotIn("[3]", answer.text)

    def test_refuses_when_the_model_says_insufficient_or_nothing_holds(self) -> None:
        for reply in (answer_json(GOOD, status="unanswerable"), answer_json(BAD), answer_json([])):
            with self.subTest(reply=reply[:60]):
                answer = LLMGenerator(ScriptedLLM([reply])).generate("Who founded Acme Robotics?", documents())
                self.assertTrue(answer.refused)
                self.assertEqual(answer.citations, ())
                self.assertTrue(answer.text.startswith("The retrieved evidence is insufficient to answer"))

    def test_no_documents_no_call(self) -> None:
        llm = ScriptedLLM([])
        self.assertTrue(LLMGenerator(llm).generate("q?", []).refused)
        self.assertEqual(llm.calls, ())

    def test_each_claim_keeps_its_own_quotes_in_the_workflows_check(self) -> None:
        # Two quotes from one document, and a quote two claims share: the workflow pairs each
        # marker with the next citation of its number, so each claim must carry all its own
        # (the report run dropped true claims checked against another claim's quote).
        claims = [
            {"text": "Acme Robotics was founded in 2001.", "citations": [{"snippet": 1, "quote": "Acme Robotics was founded in 2001"}]},
            {"text": "Jane Doe founded it in Grenoble.", "citations": [{"snippet": 1, "quote": "by Jane Doe"}, {"snippet": 1, "quote": "in Grenoble, France"}]},
            {"text": "Acme Robotics was founded in 2001 by Jane Doe.", "citations": [{"snippet": 1, "quote": "Acme Robotics was founded in 2001"}]},
        ]
        answer = LLMGenerator(ScriptedLLM([answer_json(claims)])).generate("Who founded Acme Robotics, and when?", documents())
        from agentic_rag._parallel.verdict import _grounded
        from agentic_rag._answering import marked_segments

        self.assertEqual([numbers for _, numbers in marked_segments(answer.text)], [(1,), (1, 1), (1,)])
        self.assertEqual([c.quote for c in answer.citations],
                         ["Acme Robotics was founded in 2001", "by Jane Doe", "in Grenoble, France", "Acme Robotics was founded in 2001"])
        self.assertEqual(_grounded(answer, documents()), (answer, []))

    def test_partial_answers_say_so(self) -> None:
        answer = LLMGenerator(ScriptedLLM([answer_json(GOOD[:1], status="partial")])).generate("q?", documents())
        self.assertIn("does not answer every part", answer.text)

    def test_a_second_question_sentence_is_a_part_the_model_can_name_missing(self) -> None:
        # Retrieval keeps "... ? How much ...?" whole (the second sentence leans on the first),
        # but the model must be able to say which of the two the documents leave unanswered.
        reply = json.dumps({"answer": "", "claims": [{**GOOD[0], "fact_id": "p1"}], "status": "partial", "missing_fact_ids": ["p2"]})
        llm = ScriptedLLM([reply])
        answer = LLMGenerator(llm).generate("Who founded Acme Robotics? How many people does it employ?", documents())
        request = llm.calls[0].messages[-1].content
        self.assertIn("- p1 [must]: Who founded Acme Robotics?", request)
        self.assertIn("- p2 [must]: How many people does it employ?", request)
        self.assertEqual(answer.status.value, "partial")
        self.assertEqual(answer.missing, ("How many people does it employ?",))

    def test_model_parts(self) -> None:
        from agentic_rag.llm.components.generator import model_parts

        self.assertEqual(model_parts("Which option should I set, and since which version is it available?"),
                         ("Which option should I set?", "Since which version is it available?"))
        self.assertEqual(model_parts("When was Acme founded and how many employees does it have?"),
                         ("When was Acme founded?", "How many employees does Acme have?"))
        self.assertEqual(model_parts("What is the default timeout?"), ("What is the default timeout?",))
        # A piece with no words of its own stays with its part.
        self.assertEqual(model_parts("Who founded it? And?"), ("Who founded it? And?",))

    def test_fallback_none_and_budget(self) -> None:
        docs = documents()
        generator = LLMGenerator(ScriptedLLM([GARBAGE, GARBAGE]))
        self.assertEqual(generator.generate("Who founded Acme Robotics?", docs), ExtractiveGenerator().generate("Who founded Acme Robotics?", docs))
        self.assertEqual(generator.fallback_count, 1)
        with self.assertRaises(StructuredOutputError):
            LLMGenerator(ScriptedLLM([GARBAGE, GARBAGE]), fallback=None).generate("q?", docs)
        with use_budget(RunBudget(max_llm_calls=1)), self.assertRaises(BudgetExhaustedError):
            LLMGenerator(ScriptedLLM([GARBAGE, GARBAGE])).generate("q?", docs)

    def test_bad_arguments(self) -> None:
        generator = LLMGenerator(ScriptedLLM([GARBAGE]))
        for call in (lambda: generator.generate("", documents()), lambda: generator.generate("q", "docs"), lambda: generator.generate("q", ["doc"])):
            with self.assertRaises(InvalidInputError):
                call()


class ParallelWorkflowTest(unittest.TestCase):
    QUESTION = "Who founded Acme Robotics?"

    def test_llm_rewriter_and_generator_over_bm25_and_vectors(self) -> None:
        oracle = Oracle(SAMPLE_WORLD)
        llm = ScriptedLLM(oracle)
        result = workflow(LLMGenerator(llm), LLMQueryViewRewriter(llm)).run(self.QUESTION)
        self.assertFalse(result.degraded)
        self.assertEqual(len(result.trace.views), 3)
        self.assertFalse(result.answer.refused)
        self.assertIn("Acme Robotics was founded in 2001 by Jane Doe", result.answer.text)
        self.assertEqual(verify_citations(result.answer, result.documents), ())
        self.assertFalse(any(n.startswith("citation problem") for n in result.trace.notes))
        self.assertEqual([r.value for r in oracle.roles], ["query_rewriter", "synthesizer"])

    def test_over_loopback_http(self) -> None:
        with OpenAICompatibleServer(Oracle(SAMPLE_WORLD).payload_reply) as server:
            llm = OpenAICompatibleLLM(server.url, "test-model", max_retries=0)
            result = workflow(LLMGenerator(llm)).run(self.QUESTION)
        self.assertFalse(result.answer.refused)
        self.assertEqual(verify_citations(result.answer, result.documents), ())

    def test_garbage_model_falls_back_and_stays_verified(self) -> None:
        generator = LLMGenerator(ScriptedLLM([GARBAGE], repeat_last=True))
        rewriter = LLMQueryViewRewriter(ScriptedLLM([GARBAGE], repeat_last=True))
        result = workflow(generator, rewriter).run(self.QUESTION)
        self.assertEqual(verify_citations(result.answer, result.documents), ())
        self.assertEqual((generator.fallback_count, rewriter.fallback_count), (1, 1))


if __name__ == "__main__":
    unittest.main()
