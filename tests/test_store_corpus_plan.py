"""Which corpus each indexed file goes to: one corpus per folder given, holding all of it; one
folder's top-level folders as corpora; names that two folders share told apart by their paths;
overlapping paths and a name a stored corpus holds for another folder refused."""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from agentic_rag._errors import InvalidInputError
from agentic_rag._store import KnowledgeStore
from agentic_rag._store.index_plan import Scope, corpus_names

FILES = {
    "docs/a/top.md": "# A\n\nThe alpha page is about otters.\n",
    "docs/a/sub/deep.md": "# Deep\n\nThe sub page says wombats sleep all day.\n",
    "docs/a/sub/deeper/deepest.md": "# Deepest\n\nThe deepest page names the quokka.\n",
    "docs/b/b.md": "# B\n\nThe beta page is about herons.\n",
    "docs/readme.md": "# Docs\n\nThe docs folder's own readme on kestrels.\n",
    "v1/docs/guide.md": "# Guide\n\nVersion one runs on llamas.\n",
    "v2/docs/guide.md": "# Guide\n\nVersion two runs on alpacas.\n",
    "v3/docs/guide.md": "# Guide\n\nVersion three runs on vicunas.\n",
}


class CorpusPlanTestCase(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.base = Path(tmp.name)
        for name, text in FILES.items():
            path = self.base / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        self.store = KnowledgeStore(self.base / ".agentic-rag", base=self.base)

    def index(self, *names: str, **kwargs):
        return self.store.index([self.base / n for n in names], **kwargs)

    def corpora(self) -> dict[str, dict]:
        return {c.id: dict(c.metadata) for c in self.store.corpora()}


class SeveralFoldersTest(CorpusPlanTestCase):
    def test_each_folder_given_is_one_corpus_holding_all_of_it(self):
        report = self.index("docs/a", "docs/b")
        self.assertEqual(report.corpora, ("a", "b"))
        corpora = self.corpora()
        self.assertEqual((corpora["a"]["root"], corpora["a"]["files"]), ("docs/a", 3))
        self.assertEqual((corpora["b"]["root"], corpora["b"]["files"]), ("docs/b", 1))
        self.assertEqual([h.path for h in self.store.search("wombats sleep", corpus_ids=["a"])], ["docs/a/sub/deep.md"])
        self.assertEqual([h.path for h in self.store.search("quokka", corpus_ids=["a"])], ["docs/a/sub/deeper/deepest.md"])
        self.assertEqual(self.store.search("wombats sleep", corpus_ids=["b"]), [])

    def test_a_file_given_goes_to_the_corpus_of_its_folder(self):
        report = self.index("docs/readme.md", "docs/b")
        self.assertEqual(report.corpora, ("b", "docs"))
        self.assertEqual(self.corpora()["docs"]["root"], "docs")
        self.assertEqual([h.path for h in self.store.search("kestrels", corpus_ids=["docs"])], ["docs/readme.md"])

    def test_a_path_given_twice_counts_once(self):
        once = KnowledgeStore(self.base / "once", base=self.base).index([self.base / "docs/a", self.base / "docs/b"])
        twice = self.index("docs/a", "docs/b/", "docs/a", "docs/../docs/a")
        self.assertEqual((twice.files_seen, twice.added, twice.corpora), (once.files_seen, once.added, once.corpora))

    def test_one_folder_given_twice_is_one_folder(self):
        report = self.index("docs", "docs")
        self.assertEqual(report.corpora, ("a", "b", "docs"))  # as `index docs`


class OneFolderTest(CorpusPlanTestCase):
    def test_its_top_level_folders_are_corpora_holding_their_subfolders(self):
        report = self.index("docs")
        self.assertEqual(report.corpora, ("a", "b", "docs"))
        corpora = self.corpora()
        self.assertEqual((corpora["a"]["files"], corpora["b"]["files"], corpora["docs"]["files"]), (3, 1, 1))
        self.assertEqual(corpora["docs"]["root"], "docs")
        self.assertEqual([h.path for h in self.store.search("quokka", corpus_ids=["a"])], ["docs/a/sub/deeper/deepest.md"])

    def test_one_folder_of_several_given_alone_makes_corpora_of_its_subfolders(self):
        self.index("docs/a")
        self.assertEqual(sorted(self.corpora()), ["a", "sub"])
        self.assertEqual(self.corpora()["sub"]["files"], 2)


class ReindexTest(CorpusPlanTestCase):
    def test_moving_to_one_corpus_per_folder_keeps_every_file_and_chunk(self):
        first = self.index("docs/a")
        chunks = sorted(d.id for d in self.store.documents())
        report = self.index("docs/a", "docs/b")
        self.assertEqual(sorted(self.corpora()), ["a", "b"])
        # The two files of docs/a/sub change corpus (read again), docs/a/top.md stays, docs/b is new.
        self.assertEqual((report.updated, report.unchanged, report.added, report.removed), (2, 1, 1, 0))
        self.assertEqual(sorted(d.id for d in self.store.documents() if d.corpus_id == "a"), chunks)
        self.assertEqual(report.generation, first.generation + 1)

    def test_a_corpus_moved_to_another_folder_says_where_it_is_now(self):
        self.index("docs")  # corpus "a" is docs/a
        (self.base / "other/a").mkdir(parents=True)
        (self.base / "other/a/x.md").write_text("# X\n\nAnother alpha about lynxes.\n", encoding="utf-8")
        self.index("other/a", "docs")  # docs/a's files go to "docs" now; "a" is other/a
        corpora = self.corpora()
        self.assertEqual((corpora["a"]["root"], corpora["a"]["files"]), ("other/a", 1))
        self.assertEqual(corpora["docs"]["files"], 5)


class SharedNamesTest(CorpusPlanTestCase):
    def test_folders_of_one_name_are_named_by_their_paths_whatever_the_order(self):
        report = self.index("v2/docs", "v1/docs")
        self.assertEqual(report.corpora, ("v1/docs", "v2/docs"))
        self.assertEqual([h.path for h in self.store.search("alpacas", corpus_ids=["v2/docs"])], ["v2/docs/guide.md"])
        other = KnowledgeStore(self.base / "other", base=self.base)
        self.assertEqual(other.index([self.base / "v1/docs", self.base / "v2/docs"]).corpora, report.corpora)

    def test_as_many_parts_as_tell_them_apart(self):
        settings = self.store._settings
        folders = [self.base / "x/v1/docs", self.base / "y/v1/docs", self.base / "z/docs", self.base / "docs"]
        self.assertEqual(corpus_names(settings, folders), {
            self.base / "x/v1/docs": "x/v1/docs", self.base / "y/v1/docs": "y/v1/docs", self.base / "z/docs": "z/docs",
            self.base / "docs": "docs",
        })
        # The base itself and a folder of its name below it.
        inner = self.base / self.base.name
        names = corpus_names(settings, [self.base, inner])
        self.assertEqual(names[inner], self.base.name)
        self.assertEqual(names[self.base], "/".join(self.base.parts[-2:]).lstrip("/"))
        self.assertEqual(corpus_names(settings, [self.base / "a", self.base / "b"]), {self.base / "a": "a", self.base / "b": "b"})

    def test_a_subfolder_named_as_its_folder_is_told_apart_from_the_folders_own_files(self):
        (self.base / "docs/docs").mkdir()
        (self.base / "docs/docs/inner.md").write_text("# Inner\n\nThe inner docs page on ibises.\n", encoding="utf-8")
        report = self.index("docs")
        self.assertEqual(report.corpora, ("a", "b", "docs", "docs/docs"))
        self.assertEqual([h.path for h in self.store.search("ibises", corpus_ids=["docs/docs"])], ["docs/docs/inner.md"])
        self.assertEqual(self.store.search("ibises", corpus_ids=["docs"]), [])


class RefusedTest(CorpusPlanTestCase):
    def test_a_folder_inside_another_given_is_refused_naming_both(self):
        for names in (("docs", "docs/a"), ("docs/a/sub", "docs/a"), ("docs/a", "docs/a/top.md")):
            with self.subTest(names=names), self.assertRaises(InvalidInputError) as caught:
                self.index(*names)
            inner, outer = sorted(names, key=len, reverse=True)
            self.assertIn(f"{inner!r} is inside {outer!r}", str(caught.exception))
            self.assertFalse(self.store.exists, "nothing is written")

    def test_overlapping_paths_into_a_named_corpus_read_each_file_once(self):
        report = self.index("docs", "docs/a", corpus="all")
        self.assertEqual((report.added, report.corpora), (5, ("all",)))

    def test_a_name_a_stored_corpus_holds_for_another_folder_is_refused_and_nothing_changes(self):
        self.index("v1/docs", "docs/b")  # corpus "docs" is v1/docs
        before = (self.store.generation, self.store.corpora())
        with self.assertRaises(InvalidInputError) as caught:
            self.index("v2/docs")
        message = str(caught.exception)
        for part in ("corpus 'docs'", "'v1/docs/guide.md'", "'v2/docs'", "--corpus NAME"):
            self.assertIn(part, message)
        self.assertEqual((self.store.generation, self.store.corpora()), before)
        # The ways out it names: a name of your own, or both folders in one run.
        self.assertEqual(self.index("v2/docs", corpus="v2").corpora, ("v2",))
        self.assertEqual(self.index("v1/docs", "v3/docs").corpora, ("v1/docs", "v3/docs"))
        self.assertEqual(sorted(self.corpora()), ["b", "v1/docs", "v2", "v3/docs"])

    def test_re_indexing_the_same_folder_or_a_file_of_it_is_no_clash(self):
        self.index("v1/docs", "docs/b")
        self.assertEqual(self.index("v1/docs").unchanged, 1)
        self.assertEqual(self.index("v1/docs/guide.md").corpora, ("docs",))
        self.assertEqual(self.index("docs/b", "v1/docs").unchanged, 2)

    def test_a_named_corpus_may_hold_several_folders_over_runs(self):
        self.index("v1/docs", corpus="docs")
        self.assertEqual(self.index("v2/docs", corpus="docs").corpora, ("docs",))
        self.assertEqual(self.corpora()["docs"]["files"], 2)


class ScopeTest(unittest.TestCase):
    def test_what_a_scope_holds(self):
        self.assertTrue(Scope("docs", False).holds("docs/a/b.md"))
        self.assertFalse(Scope("docs", False).holds("docsx/b.md"))
        self.assertTrue(Scope("docs/a.md", True).holds("docs/a.md"))
        self.assertFalse(Scope("docs/a.md", True).holds("docs/a.md/x"))
        self.assertTrue(Scope("", False).holds("a.md"))
        self.assertFalse(Scope("", False).holds("/elsewhere/a.md"))


if __name__ == "__main__":
    unittest.main()
