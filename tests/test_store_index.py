"""KnowledgeStore: indexing a tree, corpora, incremental re-index, search with file:lines."""

from __future__ import annotations

import os
import re
import sqlite3
import tempfile
import unittest
from contextlib import closing
from pathlib import Path

from agentic_rag._contracts import Corpus, Document, Snippet
from agentic_rag._errors import InvalidInputError, StoreError
from agentic_rag._ingest import ChunkOptions, FieldMapping
from agentic_rag._ports import Retriever
from agentic_rag._store import IndexReport, KnowledgeStore, StoreHit, StoreRetriever

GUIDE_INSTALL = """# Installing

Run the installer with the quokka flag. The installer copies every file.

## Checking

Verify the quokka checksum before you start the service.
"""

GUIDE_CONFIG = """# Configuration

Settings live in a plain text file. Each setting has a name and a value.
The wombat option controls caching.
"""

API_PAGE = """<html><head><title>API</title></head><body>
<h1>Endpoints</h1>
<p>The search endpoint returns ranked platypus results.</p>
</body></html>
"""

RECORDS = '{"_id": "r1", "title": "Echidna", "text": "Echidnas lay eggs and eat ants."}\n{"_id": "r2", "text": "Numbats eat termites."}\n'


def make_tree(root: Path) -> None:
    files = {
        "guide/install.md": GUIDE_INSTALL,
        "guide/config.md": GUIDE_CONFIG,
        "api/endpoints.html": API_PAGE,
        "data/records.jsonl": RECORDS,
        "top.txt": "A top level note about kangaroos.\n",
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "blob.txt").write_bytes(b"\x00\x01binary")
    (root / "latin.txt").write_bytes("caf\u00e9".encode("latin-1"))
    (root / "photo.png").write_bytes(b"\x89PNG")


class StoreTestCase(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.base = Path(self._tmp.name)
        self.root = self.base / "kb"
        make_tree(self.root)
        self.store = KnowledgeStore(self.base / ".agentic-rag")

    def index(self, *paths: Path, **kwargs) -> IndexReport:
        return self.store.index(list(paths) or [self.root], **kwargs)

    def chunk_ids(self, store: KnowledgeStore | None = None) -> list[str]:
        return [d.id for d in (store or self.store).documents()]


class IndexAndSearchTest(StoreTestCase):
    def test_report_counts_and_skipped_files(self):
        report = self.index()
        self.assertEqual((report.files_seen, report.added, report.updated, report.removed, report.unchanged), (8, 5, 0, 0, 0))
        self.assertEqual(report.files_seen, report.added + report.updated + report.unchanged + len(report.skipped))
        reasons = dict(report.skipped)
        self.assertEqual(sorted(reasons), ["kb/blob.txt", "kb/latin.txt", "kb/photo.png"])
        self.assertEqual(reasons["kb/blob.txt"], "binary file (contains NUL bytes)")
        self.assertIn("not UTF-8", reasons["kb/latin.txt"])
        self.assertEqual(report.chunks_added, len(self.chunk_ids()))
        self.assertEqual(report.generation, 1)
        self.assertEqual(report.corpora, ("api", "data", "guide", "kb"))
        self.assertTrue(report.changed)
        self.assertEqual(IndexReport.from_dict(report.to_dict()), report)

    def test_a_corpus_per_top_level_folder_with_generated_descriptions(self):
        self.index()
        corpora = {c.id: c for c in self.store.corpora()}
        self.assertEqual(sorted(corpora), ["api", "data", "guide", "kb"])
        self.assertIsInstance(corpora["guide"], Corpus)
        self.assertEqual(corpora["guide"].metadata["root"], "kb/guide")
        self.assertEqual(corpora["kb"].metadata["root"], "kb")
        self.assertEqual(corpora["guide"].metadata["files"], 2)
        self.assertTrue(corpora["guide"].metadata["generated_description"])
        self.assertRegex(corpora["guide"].description, r"^guide: 2 files: [^;]+(; [^;]+)?; about ")
        self.assertIn("quokka", corpora["guide"].description)
        self.assertIn("platypus", corpora["api"].description)

    def test_search_returns_paths_and_line_ranges(self):
        self.index()
        hits = self.store.search("quokka checksum", k=3)
        self.assertIsInstance(hits[0], StoreHit)
        best = hits[0]
        self.assertEqual((best.path, best.start_line, best.end_line, best.corpus_id, best.section), ("kb/guide/install.md", 7, 7, "guide", "Installing › Checking"))
        self.assertEqual(best.chunk_id, "kb/guide/install.md#1")
        self.assertEqual(best.citation, "kb/guide/install.md:7-7")
        lines = (self.root / "guide/install.md").read_text().split("\n")
        self.assertIn("checksum", " ".join(lines[best.start_line - 1:best.end_line]))
        self.assertEqual([h.score for h in hits], sorted((h.score for h in hits), reverse=True))
        html_hit = self.store.search("platypus")[0]
        self.assertEqual((html_hit.path, html_hit.start_line, html_hit.section), ("kb/api/endpoints.html", 3, "Endpoints"))
        record = self.store.search("termites")[0]
        self.assertEqual((record.chunk_id, record.start_line, record.end_line), ("kb/data/records.jsonl#1", 2, 2))

    def test_search_filters_by_corpus_and_validates(self):
        self.index()
        self.assertEqual({h.corpus_id for h in self.store.search("eat", corpus_ids=["data"])}, {"data"})
        self.assertEqual(self.store.search("quokka", corpus_ids=["api"]), [])
        self.assertEqual(self.store.search("the and of"), [])
        with self.assertRaises(InvalidInputError) as caught:
            self.store.search("x", corpus_ids=["nope"])
        self.assertIn("unknown corpus ids ['nope']", str(caught.exception))
        for bad in ({"k": 0}, {"corpus_ids": "guide"}):
            with self.subTest(bad=bad), self.assertRaises(InvalidInputError):
                self.store.search("quokka", **bad)

    def test_retriever_snippets_carry_lines_and_follow_new_generations(self):
        self.index()
        retriever = self.store.retriever()
        self.assertIsInstance(retriever, StoreRetriever)
        self.assertIsInstance(retriever, Retriever)
        (snippet,) = retriever.retrieve("wombat caching", 1)
        self.assertIsInstance(snippet, Snippet)
        self.assertEqual(snippet.document_id, "kb/guide/config.md#0")
        self.assertEqual({k: snippet.metadata[k] for k in ("path", "start_line", "end_line", "section", "title")},
                         {"path": "kb/guide/config.md", "start_line": 3, "end_line": 4, "section": "Configuration", "title": "Configuration"})
        (self.root / "guide/new.md").write_text("Dingo facts.\n", encoding="utf-8")
        self.index()
        self.assertEqual([s.document_id for s in retriever.retrieve("dingo", 5)], ["kb/guide/new.md#0"])

    def test_documents_and_stats(self):
        self.index()
        documents = list(self.store.documents())
        self.assertTrue(all(isinstance(d, Document) for d in documents))
        self.assertEqual([d.id for d in documents], sorted(d.id for d in documents))
        first = documents[0]
        self.assertEqual(set(first.metadata), {"path", "start_line", "end_line", "section", "sha256", "line_marks"})
        self.assertEqual([d.corpus_id for d in self.store.documents(["data"])], ["data", "data"])
        stats = self.store.stats()
        self.assertEqual((stats.generation, stats.corpora, stats.files, stats.chunks, stats.vector), (1, 4, 5, len(documents), False))
        self.assertGreater(stats.bytes, 0)
        self.assertFalse(self.store.is_empty)
        self.assertEqual(self.store.generation, 1)

    def test_ids_and_content_are_stable_across_stores(self):
        self.index()
        other = KnowledgeStore(self.base / "second-store", base=self.base)
        other.index([self.root])
        self.assertEqual(list(self.store.documents()), list(other.documents()))
        self.assertEqual(self.store.corpora(), tuple(Corpus(c.id, c.description, c.metadata) for c in other.corpora()))
        self.assertTrue(all(re.fullmatch(r"kb/.+#\d+", i) for i in self.chunk_ids()))


class IncrementalTest(StoreTestCase):
    def test_unchanged_tree_changes_nothing(self):
        self.index()
        before = (sorted(os.listdir(self.store.directory)), self.chunk_ids())
        report = self.index()
        self.assertEqual((report.added, report.updated, report.removed, report.unchanged, report.chunks_added), (0, 0, 0, 5, 0))
        self.assertFalse(report.changed)
        self.assertEqual(report.generation, 1)
        self.assertEqual((sorted(os.listdir(self.store.directory)), self.chunk_ids()), before)

    def test_changed_files_are_replaced_and_deleted_files_removed(self):
        self.index()
        (self.root / "guide/config.md").write_text("# Configuration\n\nThe koala option replaced it.\n", encoding="utf-8")
        (self.root / "top.txt").unlink()
        (self.root / "guide/extra.md").write_text("Extra bilby page.\n", encoding="utf-8")
        report = self.index()
        self.assertEqual((report.added, report.updated, report.removed, report.unchanged), (1, 1, 1, 3))
        self.assertEqual((report.chunks_added, report.chunks_removed), (2, 2))
        self.assertEqual(report.generation, 2)
        self.assertEqual(self.store.search("wombat"), [])
        self.assertEqual(self.store.search("koala")[0].path, "kb/guide/config.md")
        self.assertEqual(self.store.search("bilby")[0].path, "kb/guide/extra.md")
        self.assertEqual(self.store.search("kangaroos"), [])
        self.assertNotIn("kb", [c.id for c in self.store.corpora()])  # its only file is gone
        self.assertEqual(sorted(p for p in os.listdir(self.store.directory) if p.endswith(".idx")), [])  # BM25 is in the database

    def test_deletion_only_within_the_indexed_roots(self):
        self.index(self.root / "guide")
        self.index(self.root / "api")
        (self.root / "guide/config.md").unlink()
        report = self.index(self.root / "api")
        self.assertEqual((report.removed, report.unchanged), (0, 1))
        self.assertEqual(self.store.search("wombat")[0].path, "kb/guide/config.md")
        report = self.index(self.root / "guide")
        self.assertEqual(report.removed, 1)
        self.assertEqual(self.store.search("wombat"), [])

    def test_a_file_that_becomes_unreadable_is_removed_and_listed(self):
        self.index()
        (self.root / "top.txt").write_bytes(b"\x00binary now")
        report = self.index()
        self.assertEqual(report.removed, 1)
        self.assertIn(("kb/top.txt", "binary file (contains NUL bytes)"), report.skipped)
        self.assertEqual(self.store.search("kangaroos"), [])

    def test_single_file_paths_are_indexed_and_scoped(self):
        report = self.index(self.root / "top.txt")
        self.assertEqual((report.added, report.corpora), (1, ("kb",)))
        self.assertEqual(self.store.search("kangaroos")[0].chunk_id, "kb/top.txt#0")
        self.assertEqual(self.index(self.root / "top.txt").unchanged, 1)

    def test_new_chunking_settings_re_chunk_every_file(self):
        self.index()
        small = KnowledgeStore(self.store.directory, chunking=ChunkOptions(max_words=8, overlap_words=2))
        report = small.index([self.root])
        self.assertEqual((report.updated, report.unchanged), (5, 0))
        self.assertEqual(small.index([self.root]).unchanged, 5)

    def test_field_mapping_applies_to_records(self):
        store = KnowledgeStore(self.store.directory, fields=FieldMapping(text_fields=("title",)))
        store.index([self.root / "data"])
        self.assertEqual([d.text for d in store.documents()], ["Echidna"])


class CorpusOptionsTest(StoreTestCase):
    def test_named_corpus_with_description_keeps_it_on_re_index(self):
        self.index(self.root / "guide", self.root / "api", corpus="manual", description="The product manual.")
        (corpus,) = self.store.corpora()
        self.assertEqual((corpus.id, corpus.description, corpus.metadata["generated_description"]), ("manual", "The product manual.", False))
        (self.root / "guide/config.md").write_text("Changed text about emus.\n", encoding="utf-8")
        self.index(self.root / "guide", self.root / "api", corpus="manual")
        self.assertEqual(self.store.corpora()[0].description, "The product manual.")

    def test_generated_description_is_regenerated_when_content_changes(self):
        self.index(self.root / "guide", corpus="guide")
        before = self.store.corpora()[0].description
        (self.root / "guide/config.md").write_text("Cassowary cassowary cassowary habitat notes.\n", encoding="utf-8")
        self.index(self.root / "guide", corpus="guide")
        after = self.store.corpora()[0].description
        self.assertNotEqual(before, after)
        self.assertIn("cassowary", after)

    def test_moving_files_to_a_named_corpus_drops_empty_corpora(self):
        self.index()
        report = self.index(corpus="everything")
        self.assertEqual((report.updated, report.unchanged), (5, 0))
        self.assertEqual([c.id for c in self.store.corpora()], ["everything"])

    def test_bad_arguments_are_refused(self):
        cases = [
            ({"corpus": ""}, "corpus"), ({"corpus": " x"}, "white space"), ({"description": "d"}, "needs a corpus"),
            ({"progress": 3}, "callable"),
        ]
        for kwargs, message in cases:
            with self.subTest(kwargs=kwargs), self.assertRaises(InvalidInputError) as caught:
                self.index(**kwargs)
            self.assertIn(message, str(caught.exception))
        with self.assertRaises(InvalidInputError):
            self.store.index([])
        with self.assertRaises(InvalidInputError) as caught:
            self.store.index(self.base / "missing")
        self.assertIn("no such file or folder", str(caught.exception))
        self.assertFalse(self.store.exists)
        with self.assertRaises(InvalidInputError):
            KnowledgeStore(self.base / "s", vector="yes")  # type: ignore[arg-type]


class MissingAndEmptyStoreTest(StoreTestCase):
    def test_missing_store_reads_raise_a_clear_error(self):
        self.assertTrue(self.store.is_empty)
        self.assertFalse(self.store.exists)
        self.assertEqual(self.store.generation, 0)
        for read in (lambda: self.store.search("x"), self.store.corpora, self.store.stats, self.store.bm25,
                     lambda: self.store.documents(), self.store.retriever):
            with self.subTest(read=read), self.assertRaises(StoreError) as caught:
                read()
            self.assertIn("no knowledge store at", str(caught.exception))
        self.assertFalse(self.store.directory.exists(), "reading must not create the store")

    def test_store_with_nothing_indexable_is_empty(self):
        report = self.store.index([self.root / "photo.png"])
        self.assertEqual((report.files_seen, report.added, len(report.skipped)), (1, 0, 1))
        self.assertTrue(self.store.is_empty)
        self.assertEqual(self.store.corpora(), ())
        with self.assertRaises(StoreError) as caught:
            self.store.search("anything")
        self.assertIn("is empty", str(caught.exception))

    def test_store_emptied_by_deletions(self):
        self.index(self.root / "guide")
        for name in ("install.md", "config.md"):
            (self.root / "guide" / name).unlink()
        self.assertEqual(self.index(self.root / "guide").removed, 2)
        self.assertTrue(self.store.is_empty)
        with self.assertRaises(StoreError):
            self.store.search("quokka")

    def test_lost_postings_are_reported_then_rebuilt(self):
        self.index()
        with closing(sqlite3.connect(self.store.directory / "store.sqlite3")) as db, db:
            db.execute("DROP TABLE bm25_postings")
        fresh = KnowledgeStore(self.store.directory)
        with self.assertRaises(StoreError) as caught:
            fresh.search("quokka")
        self.assertIn("bm25_postings", str(caught.exception))
        report = fresh.index([self.root])
        self.assertEqual((report.unchanged, report.generation), (5, 2))
        self.assertIn("rebuilt", " ".join(report.repaired))
        self.assertEqual(fresh.search("quokka")[0].path, "kb/guide/install.md")

    def test_store_path_that_is_a_file(self):
        target = self.base / "file-store"
        target.write_text("x")
        with self.assertRaises(StoreError):
            KnowledgeStore(target).index([self.root])


class PathNamingTest(StoreTestCase):
    def test_indexing_the_base_folder_itself_skips_the_store(self):
        (self.base / "readme.md").write_text("Root readme about bandicoots.\n", encoding="utf-8")
        report = self.store.index([self.base])
        self.assertEqual(report.corpora, tuple(sorted((self.base.name, "kb"))))
        self.assertEqual(self.store.search("bandicoots")[0].path, "readme.md")
        self.assertEqual(self.store.search("quokka")[0].path, "kb/guide/install.md")
        self.assertEqual(self.store.index([self.base]).unchanged, 6)

    def test_files_outside_the_base_keep_absolute_paths(self):
        store = KnowledgeStore(self.base / "nested" / ".agentic-rag")
        store.index([self.root / "guide"])
        path = store.search("quokka")[0].path
        self.assertEqual(path, (self.root / "guide" / "install.md").as_posix())
        self.assertTrue(Path(path).is_file())

    def test_symlinks_leaving_the_root_are_listed_not_indexed(self):
        outside = self.base / "outside.md"
        outside.write_text("Secret marsupial.\n", encoding="utf-8")
        try:
            (self.root / "link.md").symlink_to(outside)
        except (OSError, NotImplementedError) as exc:
            self.skipTest(f"symbolic links unavailable here: {exc}")
        report = self.index()
        self.assertIn(("kb/link.md", "symbolic link to a file outside the indexed root"), report.skipped)
        self.assertEqual(self.store.search("marsupial"), [])


class VectorOptionTest(StoreTestCase):
    def test_vector_index_is_kept_beside_bm25_when_asked(self):
        self.index()
        with self.assertRaises(StoreError) as caught:
            self.store.vector_index()
        self.assertIn("keeps no vector index", str(caught.exception))
        vector_store = KnowledgeStore(self.store.directory, vector=True)
        report = vector_store.index([self.root])
        self.assertEqual((report.unchanged, report.generation), (5, 2))
        self.assertEqual(len(vector_store.vector_index()), len(self.chunk_ids()))
        snippets = vector_store.retriever(vector=True).retrieve("platypus results", 1)
        self.assertEqual(snippets[0].metadata["path"], "kb/api/endpoints.html")
        (self.root / "top.txt").write_text("Now about wallabies.\n", encoding="utf-8")
        KnowledgeStore(self.store.directory).index([self.root])  # vector=None keeps the vector index
        self.assertIn("kb/top.txt#0", self.store.vector_index())
        self.assertEqual(self.store.stats().vector, True)
        KnowledgeStore(self.store.directory, vector=False).index([self.root])
        self.assertFalse(self.store.stats().vector)
        self.assertEqual(sorted(p for p in os.listdir(self.store.directory) if p.endswith(".idx")), [])


if __name__ == "__main__":
    unittest.main()
