"""Files named by a version the query names: read from file names and queries, ranked before
later releases that restate their notes, and added to the first stage's candidates."""

from __future__ import annotations

import dataclasses
import tempfile
import unittest
from pathlib import Path

from agentic_rag import KnowledgeStore
from agentic_rag._store.records import StoreHit
from agentic_rag._store.second_stage import DEFAULT_WEIGHTS, finish_hits
from agentic_rag._store.version_files import asked_versions, name_version, versioned_paths
from agentic_rag._text.relevance import RelevanceModel

ALL = dataclasses.replace(DEFAULT_WEIGHTS, keep_ratio=0.0)


class VersionNamesTest(unittest.TestCase):
    def test_file_names_that_are_versions(self):
        self.assertEqual(name_version("log/3_6_12.html"), (3, 6, 12))
        self.assertEqual(name_version("releases/2.2.13.txt"), (2, 2, 13))
        self.assertEqual(name_version("v1.4.md"), (1, 4))
        self.assertEqual(name_version("release-5.0.rst"), (5, 0))
        self.assertEqual(name_version("3.35.0.md"), (3, 35))  # trailing zeros past the second dropped
        self.assertIsNone(name_version("notes.txt"))
        self.assertIsNone(name_version("chapter1.md"))
        self.assertIsNone(name_version("upgrading-to-version-two.md"))

    def test_versions_a_query_names(self):
        self.assertEqual(asked_versions("the 3.6.12 shell and v2.2"), frozenset({(3, 6, 12), (2, 2)}))
        self.assertEqual(asked_versions("JSON in 3.35"), asked_versions("JSON in 3.35.0"))
        self.assertEqual(asked_versions("a 1.5x speed-up"), frozenset())
        self.assertEqual(asked_versions("no version here"), frozenset())

    def test_a_question_asking_which_release_names_its_starting_point_only(self):
        # The answer is another release's page: the one named gets no preference.
        self.assertEqual(asked_versions("A regression in 5.2.3 broke it. Which release fixed that?"), frozenset())
        self.assertEqual(asked_versions("We run 1.7. Which 1.7.x release closed the hole?"), frozenset())
        self.assertEqual(asked_versions("Since when does 3.8 support it?"), frozenset())

    def test_paths_named_by_an_asked_version(self):
        paths = ["log/3_6_11.html", "log/3_6_12.html", "log/3_7_0.html", "notes.txt"]
        self.assertEqual(versioned_paths("what did 3.6.12 add to the shell?", paths), ["log/3_6_12.html"])
        self.assertEqual(versioned_paths("what did the shell add?", paths), [])


def _hit(path: str, text: str, score: float) -> StoreHit:
    return StoreHit(f"{path}#0", path, 1, 1, score, text, "log", "", line_marks=((0, 1),))


class RankingTest(unittest.TestCase):
    QUESTION = "In the 3.6.12 shell, which dot-command generates foreign key triggers?"
    # A later release restates the change in more of the question's words, with a higher
    # BM25 score; the release's own page says it first.
    RESTATED = _hit("log/3_7_0.html", "The .genfkey command of the shell, which creates foreign key triggers, is now faster.", 9.0)
    OWN = _hit("log/3_6_12.html", "Added the .genfkey command to the shell for creating foreign key triggers.", 8.0)

    def test_the_named_release_s_own_page_comes_first(self):
        hits = finish_hits(self.QUESTION, [self.RESTATED, self.OWN], RelevanceModel(), 2, weights=ALL)
        self.assertEqual(hits[0].path, "log/3_6_12.html")

    def test_without_the_signal_the_restatement_comes_first(self):
        off = dataclasses.replace(ALL, version_file=0.0)
        hits = finish_hits(self.QUESTION, [self.RESTATED, self.OWN], RelevanceModel(), 2, weights=off)
        self.assertEqual(hits[0].path, "log/3_7_0.html")


class FirstStageTest(unittest.TestCase):
    def test_the_named_release_s_page_joins_the_candidates(self):
        # Forty later releases mention the shell's triggers (and 3.6.12) more often; the asked release's
        # page, named only by its file, would not be among the first stage's candidates.
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp, "log")
            folder.mkdir()
            for minor in range(7, 47):
                (folder / f"3_{minor}_0.md").write_text(
                    f"# Release 3.{minor}.0\n\nShell triggers: the shell triggers of 3.6.12 now run faster; shell triggers are logged.\n", encoding="utf-8")
            (folder / "3_6_12.md").write_text("# Release 3.6.12\n\nAdded .genfkey to the shell for triggers.\n", encoding="utf-8")
            store = KnowledgeStore(Path(tmp, "store"))
            store.index(folder, corpus="log")
            query = "3.6.12 shell triggers"
            plain = store.search("shell triggers", k=3, cut=False)
            self.assertNotIn("3_6_12.md", [Path(h.path).name for h in plain])
            hits = store.search(query, k=3, cut=False)
            self.assertEqual(Path(hits[0].path).name, "3_6_12.md")


if __name__ == "__main__":
    unittest.main()
