"""The Retriever contract applied to the scaffold-compatible in-memory retriever (the store's
retriever names chunks by file path, so the store's own tests cover it)."""

from __future__ import annotations

import unittest

from agentic_rag.testing.contracts import RetrieverContract

from agentic_rag.compat import InMemoryKeywordRetriever


class TestInMemoryKeywordRetrieverContract(RetrieverContract, unittest.TestCase):
    def make_retriever(self, documents):
        return InMemoryKeywordRetriever(documents)


if __name__ == "__main__":
    unittest.main()
