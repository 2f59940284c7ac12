"""The extractive grounded generator and citation verification."""

from __future__ import annotations

import unittest

from agentic_rag._contracts import Snippet
from agentic_rag._errors import InvalidInputError
from agentic_rag._parallel import (
    AnswerCitation,
    ExtractiveGenerator,
    FunctionGenerator,
    GeneratedAnswer,
    Generator,
    reciprocal_rank_fusion,
    verify_citations,
)


def documents(*texts):
    hits = [Snippet(id="", corpus_id="c", document_id=f"d{i}", text=t, score=float(10 - i)) for i, t in enumerate(texts, 1)]
    return reciprocal_rank_fusion([hits])


TEXTS = (
    "Photosynthesis converts light. It happens in leaves.",
    "Ocean tides are caused by the Moon's gravity. The Sun adds a smaller pull.",
    "Tides rise twice a day on most coasts. Some coasts see one tide a day.",
)


class ExtractiveGeneratorBehaviour(unittest.TestCase):
    def test_is_a_generator(self):
        self.assertIsInstance(ExtractiveGenerator(), Generator)

    def test_answers_with_cited_sentences_that_verify(self):
        docs = documents(*TEXTS)
        answer = ExtractiveGenerator().generate("What causes ocean tides?", docs)
        self.assertFalse(answer.refused)
        # Content terms [caus, ocean, tide]: the d2 sentence holds all three.
        self.assertEqual(answer.text, "Ocean tides are caused by the Moon's gravity [2].")
        self.assertEqual(answer.citations, (AnswerCitation(2, "d2", "Ocean tides are caused by the Moon's gravity.", 0, 45),))
        self.assertEqual(verify_citations(answer, docs), ())

    def test_greedy_cover_uses_several_documents(self):
        docs = documents(*TEXTS)
        answer = ExtractiveGenerator().generate("When do tides rise and what does the Sun add?", docs)
        # Terms [tide, rise, sun, add]. "The Sun adds a smaller pull." [2] and "Tides rise twice
        # a day on most coasts." [3] each add two new terms; the answer shows them in the order
        # of the question's parts (tides rising first).
        self.assertEqual([c.number for c in answer.citations], [3, 2])
        self.assertEqual(answer.text, "Tides rise twice a day on most coasts [3]. The Sun adds a smaller pull [2].")
        self.assertEqual(verify_citations(answer, docs), ())
        for citation in answer.citations:
            self.assertIn(f"[{citation.number}]", answer.text)

    def test_each_part_of_a_compound_question_gets_its_best_unit(self):
        # Measured on the dev half (sqlite-024): the whole question's best units were the
        # version sentence and the one naming the option that used to add the functions; the
        # sentence naming the option that removes them, the second part's answer, was not
        # quoted.
        text = ("The JSON functions and operators are built into SQLite by default, as of SQLite version 3.38.0 (2022-02-22). "
                "They can be omitted by adding the -DSQLITE_OMIT_JSON compile-time option. "
                "Prior to version 3.38.0, the JSON functions were an extension that would only be included in builds if the "
                "-DSQLITE_ENABLE_JSON1 compile-time option was included. In other words, the JSON functions went from being "
                "opt-in with SQLite version 3.37.2 and earlier to opt-out with SQLite version 3.38.0 and later.")
        docs = documents(text, "SQLite is a library.")
        question = "Since when are the JSON functions built into SQLite by default, and which compile-time option removes them?"
        answer = ExtractiveGenerator().generate(question, docs)
        self.assertIn("3.38.0", answer.text)
        self.assertIn("-DSQLITE_OMIT_JSON", answer.text)
        self.assertEqual(verify_citations(answer, docs), ())
        self.assertLessEqual(len(answer.citations), 3)  # still at most max_sentences units

    def test_max_sentences(self):
        answer = ExtractiveGenerator(max_sentences=1).generate("When do tides rise and what does the Sun add?", documents(*TEXTS))
        self.assertEqual(len(answer.citations), 1)

    def test_refuses_when_no_document_carries_the_query_terms(self):
        answer = ExtractiveGenerator().generate("Who painted the Mona Lisa?", documents(*TEXTS))
        self.assertTrue(answer.refused)
        self.assertIn("insufficient", answer.text)
        self.assertEqual(answer.citations, ())
        self.assertTrue(ExtractiveGenerator().generate("what is it?", documents(*TEXTS)).refused)
        self.assertTrue(ExtractiveGenerator().generate("tides", ()).refused)

    def test_partial_matches_are_quoted_and_left_to_the_answerability_check(self):
        # The generator quotes the best it has; whether that answers is the workflow's call.
        docs = documents("Tides are regular.")
        answer = ExtractiveGenerator().generate("tides moon gravity", docs)
        self.assertFalse(answer.refused)
        self.assertEqual([c.quote for c in answer.citations], ["Tides are regular."])

    def test_keep_ratio_bounds_the_further_units(self):
        docs = documents("Tides follow the Moon. Gravity of the Moon pulls the tides. Moon.")
        one = ExtractiveGenerator(keep_ratio=1.0).generate("moon gravity tides", docs)
        self.assertEqual([c.quote for c in one.citations], ["Gravity of the Moon pulls the tides."])
        more = ExtractiveGenerator(keep_ratio=0.1).generate("moon gravity tides", docs)
        self.assertEqual(more.citations[0].quote, "Gravity of the Moon pulls the tides.")
        self.assertGreater(len(more.citations), 1)

    def test_bad_arguments_are_refused(self):
        for kwargs in ({"max_sentences": 0}, {"keep_ratio": 0}, {"keep_ratio": 1.5}):
            with self.subTest(kwargs=kwargs), self.assertRaises(InvalidInputError):
                ExtractiveGenerator(**kwargs)
        with self.assertRaises(InvalidInputError):
            ExtractiveGenerator().generate("q", ["not a fused document"])


class CitationVerification(unittest.TestCase):
    def test_out_of_range_marker_and_bad_quote_are_reported(self):
        docs = documents(*TEXTS)
        answer = GeneratedAnswer("Tides [4]. Moon [2].", (AnswerCitation(2, "d2", "Moon made of cheese.", 0, 20), AnswerCitation(5, "d9", "x")))
        problems = verify_citations(answer, docs)
        self.assertEqual(len(problems), 3)
        self.assertIn("marker [4] is out of range", problems[0])
        self.assertIn("quote", problems[1])
        self.assertIn("citation [5] is out of range", problems[2])

    def test_wrong_document_and_missing_marker(self):
        docs = documents(*TEXTS)
        problems = verify_citations(GeneratedAnswer("no markers", (AnswerCitation(1, "d2", "x"),)), docs)
        self.assertEqual(len(problems), 2)


class FunctionGeneratorBehaviour(unittest.TestCase):
    def test_wraps_a_function(self):
        seen = []

        def answer(query, docs):
            seen.append([d.document_id for d in docs])
            return f"{docs[0].text} [1]"

        generator = FunctionGenerator(answer)
        self.assertEqual(generator.name, "answer")
        result = generator.generate("q", documents(*TEXTS))
        self.assertEqual(result.text, f"{TEXTS[0]} [1]")
        self.assertEqual(seen, [["d1", "d2", "d3"]])

    def test_bad_function_is_refused(self):
        with self.assertRaises(InvalidInputError):
            FunctionGenerator(42)
        with self.assertRaises(InvalidInputError):
            FunctionGenerator(lambda q, d: None).generate("q", ())


if __name__ == "__main__":
    unittest.main()
