"""The ``Generator`` port's contract, written once and applied to every implementation.

Combine the mixin with ``unittest.TestCase`` and give it a factory::

    class TestMyGeneratorContract(GeneratorContract, unittest.TestCase):
        def make_generator(self):
            return MyGenerator()

The generator is given fused documents built from :func:`contract_passages`; every ``[n]``
marker and citation it returns must point into them with a verbatim quote.
"""

from __future__ import annotations

from agentic_rag._contracts import AnswerStatus, Snippet
from agentic_rag._parallel.evidence import FusedDocument, GeneratedAnswer
from agentic_rag._parallel.fusion import reciprocal_rank_fusion
from agentic_rag._parallel.generator import verify_citations

__all__ = ["GeneratorContract", "contract_fused_documents", "contract_passages"]

QUERY = "What causes ocean tides?"


def contract_passages() -> tuple[Snippet, ...]:
    """Passages one branch found, best first."""
    rows = (
        ("d1", "Ocean tides are caused mainly by the gravity of the Moon. The Sun adds a smaller pull."),
        ("d2", "Spring tides occur when the Sun and the Moon line up."),
        ("d3", "Glaciers carve valleys as they slowly move downhill."),
    )
    return tuple(Snippet(id="", corpus_id="c", document_id=d, text=t, score=float(3 - n)) for n, (d, t) in enumerate(rows))


def contract_fused_documents() -> tuple[FusedDocument, ...]:
    """The passages fused (one branch) as the workflow would hand them to a generator."""
    return reciprocal_rank_fusion({"bm25": contract_passages()})


class GeneratorContract:
    """Every :class:`agentic_rag.Generator` must satisfy these."""

    def make_generator(self):
        """Return the generator under test."""
        raise NotImplementedError

    def test_returns_a_generated_answer_with_verified_citations(self):
        documents = contract_fused_documents()
        answer = self.make_generator().generate(QUERY, documents)
        self.assertIsInstance(answer, GeneratedAnswer)
        self.assertEqual(verify_citations(answer, documents), ())

    def test_no_documents_is_not_an_answer(self):
        answer = self.make_generator().generate(QUERY, ())
        self.assertIsInstance(answer, GeneratedAnswer)
        self.assertEqual(answer.citations, ())
        self.assertTrue(answer.refused or answer.status is not AnswerStatus.ANSWERED,
                        "an answer from no documents must be refused or not ANSWERED")

    def test_an_answer_that_is_not_refused_cites_something(self):
        answer = self.make_generator().generate(QUERY, contract_fused_documents())
        if not answer.refused and answer.status is AnswerStatus.ANSWERED:
            self.assertTrue(answer.citations, "an ANSWERED answer must cite its documents")

    def test_generate_is_deterministic(self):
        documents = contract_fused_documents()
        first = self.make_generator().generate(QUERY, documents)
        self.assertEqual(first, self.make_generator().generate(QUERY, documents))
