"""The ``Retriever`` port's contract, written once and applied to every implementation.

Combine the mixin with ``unittest.TestCase`` and give it a factory::

    class TestBM25RetrieverContract(RetrieverContract, unittest.TestCase):
        def make_retriever(self, documents):
            return BM25Retriever.from_documents(documents)

The factory receives :func:`contract_documents` (two corpora, and two documents with the
same text so a tie must be broken by id) and returns a retriever over them.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentic_rag._contracts import Document, Snippet
from agentic_rag._errors import InvalidInputError

__all__ = ["RetrieverContract", "contract_documents"]


def contract_documents() -> tuple[Document, ...]:
    """Documents every retriever under contract is built over."""
    return (
        Document("d1", "The Moon's gravity causes ocean tides on Earth.", corpus_id="a"),
        Document("d2", "Photosynthesis in plants converts sunlight into chemical energy.", corpus_id="a"),
        Document("d3", "Tides rise and fall twice each day along most coasts.", corpus_id="a"),
        Document("d4", "Volcanic eruptions release ash and sulfur dioxide.", corpus_id="b"),
        Document("d5", "The gravity of the Sun also affects ocean tides.", corpus_id="b"),
        Document("d6", "Glaciers carve valleys as they slowly move downhill.", corpus_id="b"),
        Document("d7", "Quartz crystals vibrate at a precise frequency.", corpus_id="a"),
        Document("d8", "Quartz crystals vibrate at a precise frequency.", corpus_id="a"),
    )


class RetrieverContract:
    """Every :class:`~agentic_rag._ports.Retriever` must satisfy these."""

    def make_retriever(self, documents: Sequence[Document]):
        """Return the retriever under test, searching ``documents``."""
        raise NotImplementedError

    def contract_document_id(self, hit: Snippet) -> str:
        """The contract document a hit came from (override when ids are derived, as a
        store's ``folder/corpus/doc.md#0`` ids are)."""
        return hit.document_id

    def _retriever(self):
        return self.make_retriever(contract_documents())

    def test_returns_a_tuple_of_snippets(self):
        hits = self._retriever().retrieve("ocean tides gravity", 5)
        self.assertIsInstance(hits, tuple)
        self.assertTrue(hits, "a query matching several documents found nothing")
        for hit in hits:
            self.assertIsInstance(hit, Snippet)

    def test_returns_at_most_k(self):
        retriever = self._retriever()
        for k in (1, 2, 3, 50):
            with self.subTest(k=k):
                self.assertLessEqual(len(retriever.retrieve("ocean tides gravity crystals", k)), k)

    def test_finds_the_document_naming_a_rare_term(self):
        ids = [self.contract_document_id(h) for h in self._retriever().retrieve("photosynthesis sunlight", 3)]
        self.assertIn("d2", ids)

    def test_best_first_with_ties_broken_by_id(self):
        # Equal scores order by id. Index-backed retrievers order ties by document id and
        # others by snippet id ("corpus/document"); the two agree inside one corpus, so across
        # corpora either is accepted.
        retriever = self._retriever()
        for query in ("ocean tides gravity", "quartz crystals vibrate"):
            hits = retriever.retrieve(query, 8)
            with self.subTest(query=query):
                for before, after in zip(hits, hits[1:]):
                    tie_ok = before.id < after.id or (before.corpus_id != after.corpus_id and before.document_id < after.document_id)
                    self.assertTrue(
                        before.score > after.score or (before.score == after.score and tie_ok),
                        f"{before.id} ({before.score}) precedes {after.id} ({after.score})",
                    )

    def test_identical_documents_tie_in_id_order(self):
        hits = [h for h in self._retriever().retrieve("quartz crystals vibrate precise frequency", 8)
                if self.contract_document_id(h) in ("d7", "d8")]
        self.assertEqual([self.contract_document_id(h) for h in hits], ["d7", "d8"])
        self.assertEqual(hits[0].score, hits[1].score)

    def test_corpus_filter_is_respected(self):
        retriever = self._retriever()
        for corpus in ("a", "b"):
            with self.subTest(corpus=corpus):
                hits = retriever.retrieve("ocean tides gravity", 8, corpus_ids=[corpus])
                self.assertTrue(hits)
                self.assertEqual({h.corpus_id for h in hits}, {corpus})

    def test_deterministic_across_calls(self):
        retriever = self._retriever()
        first = [h.to_dict() for h in retriever.retrieve("ocean tides gravity sun", 5)]
        second = [h.to_dict() for h in retriever.retrieve("ocean tides gravity sun", 5)]
        self.assertEqual(first, second)
        rebuilt = [h.to_dict() for h in self._retriever().retrieve("ocean tides gravity sun", 5)]
        self.assertEqual(first, rebuilt)

    def test_lineage_left_empty(self):
        for hit in self._retriever().retrieve("ocean tides", 3):
            self.assertEqual((hit.query_id, hit.fact_id, hit.lineage), ("", "", ()))

    def test_k_below_one_is_refused(self):
        retriever = self._retriever()
        for k in (0, -1):
            with self.subTest(k=k):
                with self.assertRaises(InvalidInputError):
                    retriever.retrieve("ocean tides", k)
