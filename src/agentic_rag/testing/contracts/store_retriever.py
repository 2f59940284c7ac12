"""The contract of a retriever over a persistent store (``KnowledgeStore.retriever()`` and
anything that stands in for it), written once and applied to every implementation.

It is the :class:`~agentic_rag.testing.contracts.RetrieverContract` (the factory gets the
contract documents) plus what a store adds: every snippet says where it came from, and a
store indexed again is searched at its new contents from the next query on.

Combine the mixin with ``unittest.TestCase`` and give it two factories::

    class TestMyStoreRetrieverContract(StoreRetrieverContract, unittest.TestCase):
        def make_store_retriever(self, folder):
            store = KnowledgeStore(folder.parent / "store", base=folder.parent)
            store.index(folder)
            self.store = store
            return store.retriever()

        def reindex(self, folder):
            self.store.index(folder)
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from agentic_rag._contracts import Document, Snippet
from agentic_rag.testing.contracts.retriever import RetrieverContract

__all__ = ["StoreRetrieverContract", "write_documents"]


def write_documents(folder: Path, documents: Sequence[Document]) -> None:
    """Write each document to ``folder/<corpus>/<id>.md`` (one corpus per sub-folder)."""
    for document in documents:
        path = folder / document.corpus_id / f"{document.id}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(document.text + "\n", encoding="utf-8")


class StoreRetrieverContract(RetrieverContract):
    """Every retriever over a persistent store must satisfy these (and the Retriever contract)."""

    def make_store_retriever(self, folder: Path):
        """Index ``folder`` into a store and return a retriever over it."""
        raise NotImplementedError

    def reindex(self, folder: Path) -> None:
        """Index ``folder`` again into the same store."""
        raise NotImplementedError

    def _folder(self) -> Path:
        # A fixed folder name inside a fresh parent: stores name chunks by path, so two
        # stores built from the same documents give the same ids.
        parent = Path(tempfile.mkdtemp(prefix="store-contract-"))
        self.addCleanup(shutil.rmtree, parent, True)
        folder = parent / "docs"
        folder.mkdir()
        return folder

    def contract_document_id(self, hit: Snippet) -> str:
        return PurePosixPath(str(hit.metadata["path"])).stem

    def make_retriever(self, documents: Sequence[Document]):
        folder = self._folder()
        write_documents(folder, documents)
        return self.make_store_retriever(folder)

    def test_snippets_say_where_they_came_from(self):
        folder = self._folder()
        write_documents(folder, (Document("tides", "Line one.\nThe Moon's gravity causes ocean tides.", corpus_id="notes"),))
        (hit,) = self.make_store_retriever(folder).retrieve("gravity tides", 1)
        path = hit.metadata["path"]
        self.assertTrue(str(path).endswith("tides.md"), path)
        lines = (folder / "notes" / "tides.md").read_text(encoding="utf-8").splitlines()
        start, end = int(hit.metadata["start_line"]), int(hit.metadata["end_line"])
        self.assertTrue(1 <= start <= end <= len(lines), (start, end))
        self.assertIn("gravity", " ".join(lines[start - 1:end]))

    def test_a_reindexed_store_is_searched_at_its_new_contents(self):
        folder = self._folder()
        write_documents(folder, (Document("a", "Quartz crystals vibrate at a precise frequency.", corpus_id="notes"),))
        retriever = self.make_store_retriever(folder)
        self.assertFalse([h for h in retriever.retrieve("wombat burrows", 3) if "Wombat" in h.text])
        write_documents(folder, (Document("b", "Wombat burrows are long and deep.", corpus_id="notes"),))
        self.reindex(folder)
        hits = retriever.retrieve("wombat burrows", 3)
        self.assertTrue(hits and "Wombat" in hits[0].text, hits)
