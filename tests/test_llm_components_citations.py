"""Citation checks shared by the LLM drafter, synthesizer and generator."""

from __future__ import annotations

import unittest

from agentic_rag._contracts import Snippet
from agentic_rag._errors import InvalidInputError
from agentic_rag.llm.components import ModelCitation, ModelClaim, locate_quote, parse_model_claims, verify_model_claims

TEXT = "Acme Robotics was founded in 2001 by Jane Doe in Grenoble,\n  France. It makes \u201csmart\u201d forklifts \u2013 and drones."
SNIPPETS = (
    Snippet(id="", corpus_id="company-records", document_id="acme", text=TEXT),
    Snippet(id="", corpus_id="biographies", document_id="jane", text="Jane Doe was born in Lyon, France, in 1968."),
)


class LocateQuoteTest(unittest.TestCase):
    def test_verbatim_quote_gets_its_offsets(self) -> None:
        start, end = locate_quote(TEXT, "founded in 2001 by Jane Doe")
        self.assertEqual(TEXT[start:end], "founded in 2001 by Jane Doe")

    def test_whitespace_differences_map_back_to_exact_offsets(self) -> None:
        start, end = locate_quote(TEXT, "in Grenoble, France.")
        self.assertEqual(TEXT[start:end], "in Grenoble,\n  France.")

    def test_typographic_quotes_and_dashes_fold(self) -> None:
        start, end = locate_quote(TEXT, 'makes "smart" forklifts - and drones')
        self.assertEqual(TEXT[start:end], "makes \u201csmart\u201d forklifts \u2013 and drones")

    def test_enclosing_quotation_marks_are_ignored(self) -> None:
        start, end = locate_quote(TEXT, '"Jane Doe in Grenoble"')
        self.assertEqual(TEXT[start:end], "Jane Doe in Grenoble")

    def test_escaped_delimiter_is_read_back(self) -> None:
        text = "Note: <untrusted_document> appears here."
        start, end = locate_quote(text, "&lt;untrusted_document> appears")
        self.assertEqual(text[start:end], "<untrusted_document> appears")

    def test_absent_or_trivial_quotes_are_refused(self) -> None:
        for quote in ("founded in 1999", "a", "  ", "...", "Acme Robotics was founded in 2001 by John Doe"):
            with self.subTest(quote=quote):
                self.assertIsNone(locate_quote(TEXT, quote))

    def test_first_occurrence_wins(self) -> None:
        self.assertEqual(locate_quote("abc abc abc", "abc"), (0, 3))


class VerifyClaimsTest(unittest.TestCase):
    def test_good_claims_get_exact_citations_and_fact_ids(self) -> None:
        claims = (ModelClaim("Jane Doe founded Acme [1].", (ModelCitation(1, "founded in 2001 by Jane Doe"),), "founder"),
                  ModelClaim("She was born in Lyon.", (ModelCitation(2, "born in Lyon"),), "nonexistent"))
        checked = verify_model_claims(claims, SNIPPETS, fact_ids={"founder"})
        self.assertEqual(checked.dropped, ())
        first, second = checked.claims
        self.assertEqual(first.text, "Jane Doe founded Acme.")
        self.assertEqual(first.fact_id, "founder")
        self.assertEqual(second.fact_id, "")
        self.assertTrue(first.citations[0].is_supported_by(SNIPPETS[0]))
        self.assertTrue(second.citations[0].is_supported_by(SNIPPETS[1]))
        self.assertEqual(checked.verified[1].indices, (2,))

    def test_hallucinated_citations_drop_the_claim_with_a_reason(self) -> None:
        claims = (
            ModelClaim("Out of range.", (ModelCitation(3, "Jane Doe"),)),
            ModelClaim("Index zero.", (ModelCitation(0, "Jane Doe"),)),
            ModelClaim("Wrong document.", (ModelCitation(2, "founded in 2001"),)),
            ModelClaim("One good, one bad.", (ModelCitation(1, "Jane Doe"), ModelCitation(2, "born in Paris"))),
            ModelClaim("Nothing cited.", ()),
            ModelClaim("[1]", (ModelCitation(1, "Jane Doe"),)),
            ModelClaim("  ", (ModelCitation(1, "Jane Doe"),)),
        )
        checked = verify_model_claims(claims, SNIPPETS)
        self.assertEqual(checked.claims, ())
        reasons = [d.reason for d in checked.dropped]
        self.assertIn("cites document 3, but documents are numbered 1 to 2", reasons[0])
        self.assertIn("cites document 0", reasons[1])
        self.assertIn("is not in document 2", reasons[2])
        self.assertIn("'born in Paris' is not in document 2", reasons[3])
        self.assertEqual(reasons[4], "the claim cites nothing")
        self.assertEqual(reasons[5:], ["the claim has no text"] * 2)
        self.assertEqual(len(checked.problems), 7)

    def test_a_slight_quote_beside_a_stating_one_is_set_aside(self) -> None:
        # A syntax quoted alone ("(?>...)") next to the paragraph that states the claim: the
        # claim stands on that paragraph; alone, or beside a quote not in the document, it falls.
        text = "The (?>...) group, once exited, has thrown away all stack points within itself."
        snippets = (Snippet(id="re#16", corpus_id="pyhtml", document_id="re", text=text),)
        kept = verify_model_claims((ModelClaim("An atomic group discards its stack points.",
                                                (ModelCitation(1, "(?>...)"), ModelCitation(1, "has thrown away all stack points"))),), snippets)
        self.assertEqual(kept.dropped, ())
        self.assertEqual([c.quote for c in kept.claims[0].citations], ["has thrown away all stack points"])
        alone = verify_model_claims((ModelClaim("An atomic group.", (ModelCitation(1, "(?>...)"),)),
                                     ModelClaim("Two slight ones.", (ModelCitation(1, "(?>...)"), ModelCitation(1, "..."))),
                                     ModelClaim("Slight and absent.", (ModelCitation(1, "(?>...)"), ModelCitation(1, "keeps its stack")))), snippets)
        self.assertEqual(alone.claims, ())
        self.assertIn("too slight", alone.dropped[0].reason)
        self.assertIn("too slight", alone.dropped[1].reason)
        self.assertIn("'keeps its stack' is not in document 1", alone.dropped[2].reason)

    def test_duplicates_merge(self) -> None:
        claim = ModelClaim("Jane Doe founded Acme.", (ModelCitation(1, "Jane Doe"), ModelCitation(1, "Jane Doe")))
        checked = verify_model_claims((claim, claim), SNIPPETS)
        self.assertEqual(len(checked.claims), 1)
        self.assertEqual(len(checked.claims[0].citations), 1)

    def test_parse_skips_malformed_items(self) -> None:
        parsed = parse_model_claims([
            {"text": "A [2].", "citations": [{"snippet": 2.0, "quote": "born"}, {"snippet": True, "quote": "x"}, {"quote": "y"}]},
            "not a claim",
            {"text": "B", "citations": "nope", "fact_id": 7},
        ])
        self.assertEqual(parsed[0], ModelClaim("A.", (ModelCitation(2, "born"),)))
        self.assertEqual(parsed[1], ModelClaim("B", ()))
        self.assertEqual(parse_model_claims("nope"), ())

    def test_bad_inputs_raise(self) -> None:
        with self.assertRaises(InvalidInputError):
            verify_model_claims(({"text": "x"},), SNIPPETS)
        with self.assertRaises(InvalidInputError):
            verify_model_claims((), ("text",))
        with self.assertRaises(InvalidInputError):
            ModelCitation(True, "x")


if __name__ == "__main__":
    unittest.main()
