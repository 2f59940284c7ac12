"""Routing by where a text's best passages stand, for a store of several corpora."""

from __future__ import annotations

import unittest
from pathlib import Path

from cli_support import enter_temp_folder, run_cli
from llm_scripts import Evidence, Oracle, World

from agentic_rag._agentic.routing import CorpusRouter
from agentic_rag._contracts import Corpus
from agentic_rag._errors import InvalidInputError
from agentic_rag._interfaces.store_service import StoreService
from agentic_rag._store import KnowledgeStore
from agentic_rag.llm import ScriptedLLM

CORPORA = (
    Corpus("install", "install: 3 files about python, launcher, default, windows"),
    Corpus("library", "library: 40 files about module, class, return, value"),
    Corpus("tutorial", "tutorial: 9 files about lists, loops, functions"),
)


class LocateRouterTest(unittest.TestCase):
    def test_the_corpora_of_the_best_passages_win_over_a_shared_description_word(self):
        router = CorpusRouter(locate=lambda text: ["library", "library", "tutorial", "install"])
        decision = router.route("What is the default timeout of urlopen?", CORPORA)
        self.assertEqual(decision.corpus_ids, ("library", "tutorial"))
        self.assertIn("best passages", decision.reason)
        # Without it, the description's one shared word ("default") decides.
        self.assertEqual(CorpusRouter().route("What is the default timeout of urlopen?", CORPORA).corpus_ids, ("install",))

    def test_unknown_corpora_are_left_out_and_nothing_found_falls_back_to_descriptions(self):
        self.assertEqual(CorpusRouter(locate=lambda text: ["gone", "tutorial"]).route("loops", CORPORA).corpus_ids, ("tutorial",))
        self.assertEqual(CorpusRouter(locate=lambda text: []).route("windows launcher", CORPORA).corpus_ids, ("install",))

    def test_a_locate_that_is_not_callable_is_refused(self):
        with self.assertRaises(InvalidInputError):
            CorpusRouter(locate="library")  # type: ignore[arg-type]


class WidenedRouteTest(unittest.TestCase):
    def test_the_located_corpora_follow_a_choice_that_misses_the_best_passage_s(self):
        router = CorpusRouter(locate=lambda text: ["library", "library", "tutorial", "install"])
        decision = router.widened("the default timeout of urlopen", ("install",), CORPORA)
        self.assertEqual(decision.corpus_ids, ("install", "library", "tutorial"))
        self.assertIn("also stand in library, tutorial", decision.reason)

    def test_nothing_is_added_without_locate_or_when_the_choice_holds_the_best_passage_s(self):
        self.assertEqual(CorpusRouter().widened("urlopen", ("install",), CORPORA).corpus_ids, ("install",))
        router = CorpusRouter(locate=lambda text: ["gone", "library", "install"])
        decision = router.widened("urlopen", ("library", "library"), CORPORA)
        self.assertEqual((decision.corpus_ids, decision.reason), (("library",), ""))
        # The best passage's corpus is chosen: the runner-up's is not added.
        self.assertEqual(router.widened("urlopen", ("library",), CORPORA).corpus_ids, ("library",))
        # It is not: every located corpus missing from the choice is.
        self.assertEqual(router.widened("urlopen", ("install",), CORPORA).corpus_ids, ("install", "library"))


class StoreAskRoutingTest(unittest.TestCase):
    def test_ask_finds_the_answer_in_the_corpus_whose_description_shares_no_word_with_the_question(self):
        folder = enter_temp_folder(self)
        docs = {
            "using/windows.md": "# Installing\n\nThe default Python will be located and used by the launcher on Windows.\n",
            "using/configure.md": "# Configure\n\nThe default build uses the system compiler and the default prefix.\n",
            "library/urlreader.md": "# urlreader\n\nThe fetch() function gives up after 45 seconds unless its timeout argument "
                                    "is set: the timeout of fetch() is 45 seconds by default.\n",
            "library/pathtools.md": "# pathtools\n\nThe join() function joins path segments with the separator.\n",
        }
        for name, text in docs.items():
            path = Path(folder, "docs", name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        # Descriptions as a user might write them: only the installation guide's shares a word
        # ("default") with the question.
        for corpus, description in (("using", "Installing and configuring Python: the default launcher and build"),
                                    ("library", "The library reference: modules, classes and functions")):
            code, _, err = run_cli("index", f"docs/{corpus}", "--store", "store", "--corpus", corpus, "--description", description, "--quiet")
            self.assertEqual(code, 0, err)
        code, out, err = run_cli("ask", "What is the default timeout of fetch()?", "--store", "store")
        self.assertEqual(code, 0, err)
        self.assertIn("45 seconds", out)
        self.assertIn("library/urlreader.md", out)


class StoreAskWithModelRoutingTest(unittest.TestCase):
    def test_a_model_that_routes_by_description_still_searches_where_the_passages_stand(self):
        folder = enter_temp_folder(self)
        docs = {
            "using/windows.md": "# Installing\n\nThe default Python will be located and used by the launcher on Windows.\n",
            "library/urlreader.md": "# urlreader\n\nThe timeout of fetch() is 45 seconds by default.\n",
        }
        for name, text in docs.items():
            path = Path(folder, "docs", name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        store = KnowledgeStore(Path(folder, "store"), base=Path(folder))
        store.index(Path(folder, "docs", "using"), corpus="using")
        store.index(Path(folder, "docs", "library"), corpus="library")
        # The model sends the fact to the installation guide, whose description shares
        # "default" with it; the passage that answers stands in the library reference.
        world = World(
            facts=({"id": "timeout", "description": "the default timeout of fetch()", "priority": "must", "corpus_ids": ["using"]},),
            queries={"timeout": ["fetch() timeout default"]},
            evidence=(Evidence("timeout", "docs/library/urlreader.md", "The timeout of fetch() is 45 seconds by default",
                               "The timeout of fetch() is 45 seconds by default."),),
        )
        outcome = StoreService(store, llm=ScriptedLLM(Oracle(world))).ask("What is the default timeout of fetch()?")
        result = outcome.result
        self.assertEqual(result.plan.route("timeout").corpus_ids, ("using", "library"))
        self.assertEqual(result.answer.status.value, "answered")
        self.assertIn("45 seconds", result.answer.text)


if __name__ == "__main__":
    unittest.main()
