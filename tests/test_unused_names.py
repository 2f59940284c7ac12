"""Names a query writes that no indexed document uses: said beside the hits, so a reader does
not search again to make sure the documents never mention them."""

from __future__ import annotations

import unittest
from pathlib import Path

from cli_support import enter_temp_folder, run_cli

from agentic_rag._interfaces.mcp_server import store_tools
from agentic_rag._interfaces.store_service import StoreService
from agentic_rag._store import KnowledgeStore
from agentic_rag._text.relevance import RelevanceModel
from agentic_rag._text.stated_names import name_words, unused_names

DOCS = {
    "docs/backends.md": "# Database backends\n\nThe PostgreSQL and SQLite backends ship with the framework.\n"
                        "A third-party backend for Oracle is maintained separately.\n",
    "docs/upgrade.md": "# Upgrading\n\nRun the migrate command after upgrading to release 4.2.\n"
                       "The framework may be used in GPLv2 software and speaks HTTP2.\n",
    "tools/scripts.md": "# Scripts\n\nThe Python helper scripts call the MongoDB shell.\n",
}


def _store(case: unittest.TestCase) -> KnowledgeStore:
    folder = enter_temp_folder(case)
    for name, text in DOCS.items():
        Path(folder, name).parent.mkdir(parents=True, exist_ok=True)
        Path(folder, name).write_text(text, encoding="utf-8")
    store = KnowledgeStore(Path(folder, ".agentic-rag"), base=folder)
    store.index(Path(folder, "docs"), corpus="docs")
    return store


class UnusedNamesTest(unittest.TestCase):
    def setUp(self) -> None:
        store = _store(self)
        self.model, self.model_store = store.relevance_model(), store.directory

    def test_a_name_no_document_uses_is_listed_as_written(self) -> None:
        self.assertEqual(unused_names("MongoDB database backend", self.model), ("MongoDB",))
        self.assertEqual(name_words("Does os.path use --no-cache or utf8mb4 in the Lambert W step?"),
                         ("os.path", "--no-cache", "utf8mb4", "Lambert"))
        # A second sentence's first word is no name, nor is a word the analyser drops.
        self.assertEqual(name_words("In release 4.2 the backend changed. Which driver does it use?"), ("4.2",))
        self.assertEqual(unused_names("Is there a backend for Cassandra or for Oracle?", self.model), ("Cassandra",))
        # A keyword query opens with its topic: its first word is read like the others; a
        # sentence's is capitalised by rule.
        self.assertEqual(unused_names("Cassandra backend support", self.model), ("Cassandra",))
        self.assertEqual(name_words("Cassandra backend support"), ("Cassandra",))
        self.assertEqual(name_words("Cassandra is not listed. Is it supported?"), ())
        self.assertEqual(name_words("Configure the backend for Cassandra and also for the replicas of it today"), ("Cassandra",))

    def test_names_the_documents_use_and_ordinary_words_are_not_listed(self) -> None:
        # "PostgreSQL" is used; "backends" stands in another form; "distributed" is an ordinary
        # word (a paraphrase is likely), and "Does" opens the question.
        self.assertEqual(unused_names("Does the PostgreSQL backend support distributed transactions?", self.model), ())
        self.assertEqual(unused_names("Migrating databases", self.model), ())

    def test_a_name_used_in_a_versioned_form_is_used(self) -> None:
        # "GPLv2" is GPL in a versioned form: saying no file uses GPL "in any form" would be
        # false. A longer word that goes on with letters ("Oraclex" for "Oracle") is another word.
        from agentic_rag._retrieval import BM25Index

        self.assertEqual(unused_names("GPL licence HTTP Redis", self.model), ("Redis",))
        self.assertEqual(unused_names("Postgre backend", self.model), ("Postgre",))
        store = KnowledgeStore(self.model_store)
        memory = RelevanceModel.of_index(BM25Index.from_documents(store.documents()))
        self.assertEqual(unused_names("GPL licence HTTP Redis", memory), ("Redis",))

    def test_a_model_without_statistics_lists_nothing(self) -> None:
        self.assertEqual(unused_names("MongoDB backend", RelevanceModel()), ())


class UnusedNamesInterfacesTest(unittest.TestCase):
    def test_search_prints_them_after_the_hits_and_the_mcp_result_carries_them(self) -> None:
        store = _store(self)
        code, out, err = run_cli("search", "MongoDB database backend")
        self.assertEqual(code, 0, err)
        self.assertTrue(out.rstrip().endswith("not in any indexed document: MongoDB"), out)
        code, out, err = run_cli("search", "PostgreSQL backend")
        self.assertEqual(code, 0, err)
        self.assertNotIn("not in any indexed document", out)
        search = store_tools(StoreService(store))[0]
        result = search.call({"query": "MongoDB database backend", "k": 3})["structuredContent"]
        self.assertEqual(result["unused_names"], ["MongoDB"])
        self.assertNotIn("unused_names", search.call({"query": "PostgreSQL backend", "k": 3})["structuredContent"])

    def test_a_name_used_only_in_another_corpus_is_unused_in_the_one_searched(self) -> None:
        store = _store(self)
        store.index(Path(store.base, "tools"), corpus="tools")
        service = StoreService(store)
        self.assertEqual(service.unused_names("MongoDB backend for Python"), ())
        self.assertEqual(service.unused_names("MongoDB backend for Python", "docs"), ("MongoDB", "Python"))
        self.assertEqual(service.unused_names("MongoDB backend for Python", "tools"), ())
        self.assertEqual(service.unused_names("Backends changed in 4.2: Which one ships?", "docs"), ())
        code, out, err = run_cli("search", "MongoDB backend for Python", "--corpus", "docs")
        self.assertEqual(code, 0, err)
        self.assertTrue(out.rstrip().endswith("not in any document of docs: MongoDB, Python"), out)
        result = store_tools(service)[0].call({"query": "MongoDB backend", "k": 3, "corpus": "docs"})["structuredContent"]
        self.assertEqual(result["unused_names"], ["MongoDB"])


if __name__ == "__main__":
    unittest.main()
