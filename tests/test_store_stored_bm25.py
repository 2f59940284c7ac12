"""The store's BM25 read from its database ranks exactly as the in-memory engine."""

from __future__ import annotations

import json
import math
import shutil
import sqlite3
import tempfile
import unittest
from contextlib import closing
from pathlib import Path

from agentic_rag._errors import InvalidInputError
from agentic_rag._retrieval.bm25 import BM25Index
from agentic_rag._store import KnowledgeStore
from agentic_rag._store.postings import PostingsWriter, pack_docs, pack_numbers, unpack_docs, unpack_numbers, read_stats
from agentic_rag._store.schema import connect, create_schema
from agentic_rag._store.stored_bm25 import StoredBM25Index
from agentic_rag.evaluation import load_beir

ROOT = Path(__file__).resolve().parents[1]
DOCS_QA = ROOT / "bench" / "data" / "docs_qa"
SCIFACT = ROOT.parent / "shared" / "data" / "scifact"


def top10(index, query: str, **options) -> list[tuple[str, float]]:
    return [(h.document_id, h.score) for h in index.search(query, 10, **options)]


def _ndcg_at_10(ranking: list[str], grades: dict[str, int]) -> float:
    dcg = sum((2 ** grades.get(d, 0) - 1) / math.log2(i + 2) for i, d in enumerate(ranking[:10]))
    ideal = sorted(grades.values(), reverse=True)[:10]
    return dcg / sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))


class PackingTest(unittest.TestCase):
    def test_numbers_round_trip_in_the_narrowest_type(self):
        for values, code in (([1, 2, 255], "B"), ([0, 70000], "I"), ([3, 65535], "H"), ([1.5, 2.0], "d"), ([], "B")):
            packed = pack_numbers(values)
            self.assertEqual(chr(packed[0]), code)
            self.assertEqual(list(unpack_numbers(packed)), values)

    def test_documents_round_trip_as_gaps(self):
        for docs in ([], [7], [1, 2, 3, 70000, 70001, 200000], list(range(0, 10**6, 997))):
            self.assertEqual(unpack_docs(pack_docs(docs)), docs)


class DocsQaEquivalenceTest(unittest.TestCase):
    """A real folder indexed into a store, searched from its tables and from memory."""

    @classmethod
    def setUpClass(cls) -> None:
        cls._tmp = tempfile.TemporaryDirectory()
        cls.root = Path(cls._tmp.name) / "docs"
        shutil.copytree(DOCS_QA, cls.root, ignore=shutil.ignore_patterns("*.jsonl"))
        cls.store = KnowledgeStore(Path(cls._tmp.name) / ".agentic-rag")
        cls.store.index([cls.root])
        lines = (DOCS_QA / "questions.jsonl").read_text(encoding="utf-8").splitlines()
        cls.queries = [json.loads(line)["question"] for line in lines if line.strip()][:60]
        cls.queries += ["define field", "the the the", "configuration configuration option", "", "zzzunknownword"]

    @classmethod
    def tearDownClass(cls) -> None:
        cls._tmp.cleanup()

    def assertSameRankings(self) -> None:
        stored = self.store.bm25()
        self.assertIsInstance(stored, StoredBM25Index)
        memory = BM25Index.from_documents(self.store.documents())
        self.assertEqual(len(stored), len(memory))
        corpora = [c.id for c in self.store.corpora()]
        for query in self.queries:
            with self.subTest(query=query):
                self.assertEqual(top10(stored, query), top10(memory, query))
                self.assertEqual(top10(stored, query, corpus_ids=corpora[:2]), top10(memory, query, corpus_ids=corpora[:2]))
        where = {"section": []}  # an empty "any of" list keeps nothing
        self.assertEqual(top10(stored, "install", where=where), top10(memory, "install", where=where))
        path = memory.get(top10(memory, "install")[0][0]).metadata["path"]
        self.assertEqual(top10(stored, "install", where={"path": path}), top10(memory, "install", where={"path": path}))
        paths = sorted({memory.get(hit).metadata["path"] for hit, _ in top10(memory, "configuration field")})[:3] + ["no/such.md"]
        for query in ("configuration field", "install"):
            self.assertEqual(top10(stored, query, where={"path": paths}), top10(memory, query, where={"path": paths}))
            mixed = {"path": [*paths, 7]}  # a value no path equals, of another type
            self.assertEqual(top10(stored, query, where=mixed), top10(memory, query, where=mixed))
            self.assertEqual(top10(stored, query, where={"path": paths}, corpus_ids=corpora[:1]),
                             top10(memory, query, where={"path": paths}, corpus_ids=corpora[:1]))
        for term in ("configur", "flask", "nosuchterm"):
            self.assertEqual(stored.document_frequency(term), memory.document_frequency(term))

    def test_identical_top_10_ids_and_scores(self):
        self.assertSameRankings()

    def test_identical_after_files_change_and_go(self):
        files = sorted(p for p in self.root.rglob("*.md"))
        files[0].write_text(files[0].read_text(encoding="utf-8") + "\n\nA new paragraph on configuration and field aliases.\n", encoding="utf-8")
        files[1].unlink()
        (self.root / "flask" / "new_page.md").write_text("# Routing\n\nDefine a route with a field and an option.\n", encoding="utf-8")
        report = self.store.index([self.root])
        self.assertEqual((report.updated, report.removed, report.added), (1, 1, 1))
        self.assertSameRankings()

    def test_an_index_made_before_a_change_ranks_as_a_new_one(self):
        # The chunk lengths a search reads are kept between searches: a change to the store
        # (a file shortened to one line, another grown) must reach an index object made before it.
        kept = self.store.bm25()
        before = top10(kept, "configuration option field")
        files = sorted(p for p in self.root.rglob("*.md"))
        files[2].write_text("# Options\n\nconfiguration option field\n", encoding="utf-8")
        files[3].write_text(files[3].read_text(encoding="utf-8") * 2, encoding="utf-8")
        self.store.index([self.root])
        after = top10(kept, "configuration option field")
        self.assertNotEqual(after, before)
        self.assertEqual(after, top10(KnowledgeStore(self.store.directory).bm25(), "configuration option field"))
        self.assertEqual(after, top10(BM25Index.from_documents(self.store.documents()), "configuration option field"))

    def test_search_and_ask_never_read_the_whole_store(self):
        from unittest import mock

        from agentic_rag._interfaces.store_service import StoreService
        from agentic_rag._store import knowledge_store, rows

        def whole(*args, **kwargs):
            raise AssertionError("the whole store was read")

        store = KnowledgeStore(self.store.directory)
        with mock.patch.object(BM25Index, "load", whole), mock.patch.object(rows, "stored_documents", whole), \
                mock.patch.object(knowledge_store, "read_documents", whole), mock.patch.object(BM25Index, "add", whole):
            service = StoreService(store)
            self.assertTrue(service.search("configure a field default", 3))
            self.assertTrue(service.ask("How do I give a field a default value?").payload["evidence"])
            self.assertTrue(service.ask("How do I give a field a default value?", "parallel").payload["evidence"])

    def test_a_filter_by_file_reads_no_other_chunk(self):
        # The version rule searches within the files a query's version names: the filter is read
        # through the path index, not by making a Document of every chunk a query word is in.
        from unittest import mock

        from agentic_rag._store import stored_bm25

        stored = self.store.bm25()
        memory = BM25Index.from_documents(self.store.documents())
        paths = sorted({memory.get(hit).metadata["path"] for hit, _ in top10(memory, "the configuration")})[:2]
        expected = top10(memory, "the configuration", where={"path": paths})
        with mock.patch.object(stored_bm25, "chunk_documents", side_effect=AssertionError("documents made")):
            self.assertEqual(top10(stored, "the configuration", where={"path": paths}), expected)
        self.assertTrue(expected)

    def test_get_returns_the_hit_and_refuses_unknown_ids(self):
        stored = self.store.bm25()
        hit = stored.search("configuration", 1)[0]
        self.assertEqual(stored.get(hit.document_id).id, hit.document_id)
        with self.assertRaises(InvalidInputError):
            stored.get("no/such#0")


class OldSnapshotStoreTest(unittest.TestCase):
    """A store of schema version 2 (BM25 in a snapshot file) is searched as it is, then
    upgraded by the next index run without losing anything."""

    def test_searched_through_its_snapshot_then_upgraded(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "docs"
            shutil.copytree(DOCS_QA / "attrs", root)
            store = KnowledgeStore(Path(tmp) / "store")
            store.index([root])
            expected = top10(store.bm25(), "define a field with a default")
            memory = BM25Index.from_documents(store.documents())
            memory.save(store.directory / "bm25-000001.idx")
            with closing(sqlite3.connect(store.directory / "store.sqlite3")) as db, db:  # as version 2 left it
                db.execute("DROP TABLE bm25_postings")
                db.execute("DROP TABLE bm25_blocks")
                db.execute("DELETE FROM meta WHERE key = 'bm25_stats'")
                db.execute("UPDATE meta SET value = 'bm25-000001.idx' WHERE key = 'bm25_file'")
                db.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
            old = KnowledgeStore(store.directory)
            self.assertIsInstance(old.bm25(), BM25Index)
            self.assertEqual(top10(old.bm25(), "define a field with a default"), expected)
            chunks = len(list(old.documents()))
            report = old.index([root])
            self.assertEqual((report.unchanged, report.repaired, report.generation), (len(list(root.rglob("*.*"))), (), 2))
            upgraded = KnowledgeStore(store.directory)
            self.assertIsInstance(upgraded.bm25(), StoredBM25Index)
            self.assertEqual(top10(upgraded.bm25(), "define a field with a default"), expected)
            self.assertEqual(len(list(upgraded.documents())), chunks)
            self.assertFalse(list(store.directory.glob("*.idx")))  # the snapshot file is gone


class SciFactThroughTheStoreTest(unittest.TestCase):
    """SciFact's abstracts as chunk rows, ranked from the postings tables."""

    @classmethod
    def setUpClass(cls) -> None:
        if not (SCIFACT / "corpus.jsonl.gz").exists():
            raise unittest.SkipTest("SciFact not found under ../shared/data/scifact")
        dataset = load_beir(SCIFACT, corpus_id="scifact")  # the library's own BEIR reader
        cls.documents = list(dataset.corpus)
        cls.qrels = {query: dict(grades) for query, grades in dataset.qrels.items()}
        cls.queries = {query.id: query.text for query in dataset.queries}
        cls._tmp = tempfile.TemporaryDirectory()
        directory = Path(cls._tmp.name)
        db = connect(directory, timeout=5.0, create=True)
        db.execute("BEGIN IMMEDIATE")
        create_schema(db, directory)
        db.executemany("INSERT INTO chunks (id, path, corpus_id, n, start_line, end_line, section, title, text, sha256, record_id) "
                       "VALUES (?, 'corpus.jsonl', 'scifact', ?, 1, 1, '', ?, ?, '', ?)",
                       [(d.id, n, d.title, d.text, d.id) for n, d in enumerate(cls.documents)])
        PostingsWriter(db, rebuild=True).write()
        stats = read_stats(db)
        db.execute("COMMIT")
        db.close()
        cls.stored = StoredBM25Index(lambda: sqlite3.connect(directory / "store.sqlite3", check_same_thread=False, isolation_level=None), stats)

    @classmethod
    def tearDownClass(cls) -> None:
        cls._tmp.cleanup()

    def test_identical_top_10_and_ndcg_at_least_0_678(self):
        memory = BM25Index.from_documents(self.documents)
        scores = []
        for query_id, text in sorted(self.queries.items()):
            stored = top10(self.stored, text)
            self.assertEqual(stored, top10(memory, text), text)
            scores.append(_ndcg_at_10([d for d, _ in stored], self.qrels[query_id]))
        self.assertGreaterEqual(sum(scores) / len(scores), 0.678)  # measured 0.6784, as in memory


if __name__ == "__main__":
    unittest.main()
