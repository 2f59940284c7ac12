"""``k`` above the default asks to see the hits: the default is cut to the evidence (fewer hits
when the first are clearly better), a larger ``k`` prints every hit up to it (an agent whose one
printed hit did not answer could not see the others by raising ``-k``)."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from agentic_rag._interfaces.ask_mode import DEFAULT_HITS
from agentic_rag._interfaces.store_service import StoreService
from agentic_rag._store import KnowledgeStore

PAGES = {
    "quokka.md": "# The quokka\n\nThe quokka is a small marsupial. The quokka lives on Rottnest Island, where the quokka is protected.\n",
    "island.md": "# Islands\n\nRottnest Island lies off Perth. Ferries run daily.\n",
    "zoo.md": "# Zoo notes\n\nA keeper fed the marsupial at noon before the tour.\n",
    "ferry.md": "# Ferry timetable\n\nThe ferry to the island leaves at nine; small animals travel in crates.\n",
}


class SearchKTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        folder = Path(cls.tmp.name) / "docs"
        folder.mkdir()
        for name, text in PAGES.items():
            (folder / name).write_text(text, encoding="utf-8")
        store = KnowledgeStore(Path(cls.tmp.name) / "store", base=folder)
        store.index(folder, corpus="docs")
        cls.service = StoreService(store)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_the_default_is_cut_and_a_larger_k_shows_every_hit(self) -> None:
        query = "Where does the quokka marsupial live on the island?"
        cut = self.service.search(query, DEFAULT_HITS)
        every = self.service.search(query, DEFAULT_HITS + 3)
        self.assertEqual(cut[0]["path"], "quokka.md")
        self.assertLess(len(cut), len(every))
        self.assertEqual([h["path"] for h in every[:len(cut)]], [h["path"] for h in cut])
        self.assertLessEqual(len(every), DEFAULT_HITS + 3)

    def test_the_store_search_cuts_unless_told_not_to(self) -> None:
        query = "Where does the quokka marsupial live on the island?"
        store = self.service.store
        self.assertLess(len(store.search(query, 8)), len(store.search(query, 8, cut=False)))


if __name__ == "__main__":
    unittest.main()
