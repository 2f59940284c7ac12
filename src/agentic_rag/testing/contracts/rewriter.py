"""The ``QueryViewRewriter`` port's contract, written once and applied to every implementation.

Combine the mixin with ``unittest.TestCase`` and give it a factory::

    class TestMyRewriterContract(QueryViewRewriterContract, unittest.TestCase):
        def make_rewriter(self):
            return MyRewriter()
"""

from __future__ import annotations

from agentic_rag._errors import InvalidInputError
from agentic_rag._parallel.contracts import RewriteRequest, RewriteResult
from agentic_rag._parallel.ports import QueryViewRewriter

__all__ = ["CONTRACT_QUERIES", "QueryViewRewriterContract"]

CONTRACT_QUERIES = (
    "What causes ocean tides?",
    "tides",
    "Which is older, the Moon or the Sun?",
    "When was Zeta Labs founded and who founded it?",
)


class QueryViewRewriterContract:
    """Every :class:`agentic_rag.QueryViewRewriter` must satisfy these."""

    def make_rewriter(self):
        """Return the rewriter under test."""
        raise NotImplementedError

    def test_is_a_query_view_rewriter(self):
        self.assertIsInstance(self.make_rewriter(), QueryViewRewriter)

    def test_returns_a_rewrite_result_deterministically(self):
        for query in CONTRACT_QUERIES:
            with self.subTest(query=query):
                first = self.make_rewriter().rewrite(RewriteRequest(query))
                self.assertIsInstance(first, RewriteResult)
                self.assertEqual(first, self.make_rewriter().rewrite(RewriteRequest(query)))

    def test_views_are_non_empty_text(self):
        for query in CONTRACT_QUERIES:
            with self.subTest(query=query):
                result = self.make_rewriter().rewrite(RewriteRequest(query))
                self.assertTrue(result.keep_original or result.queries or result.rewritten_query,
                                "a rewrite must leave at least one query to search")
                for text in result.queries:
                    self.assertIsInstance(text, str)
                    self.assertTrue(text.strip(), f"empty query view in {result.queries!r}")

    def test_refuses_a_bare_string(self):
        with self.assertRaises(InvalidInputError):
            self.make_rewriter().rewrite("What causes tides?")
