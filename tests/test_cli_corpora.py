"""`agentic-rag corpora`: the store's corpora as text and JSON, the same objects as the MCP
``list_corpora`` tool; `index A B` then `search --corpus A` finds A's subfolders."""

from __future__ import annotations

import json
import unittest
from pathlib import Path

from agentic_rag._interfaces.cli import EXIT_NOT_FOUND, EXIT_USAGE
from agentic_rag._interfaces.mcp_server import store_tools
from agentic_rag._interfaces.store_service import StoreService
from agentic_rag._store import KnowledgeStore
from cli_support import enter_temp_folder, run_cli


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


class CorporaCommandTest(unittest.TestCase):
    def setUp(self) -> None:
        self.dir = enter_temp_folder(self)
        write(self.dir, {
            "docs/a/top.md": "# A\n\nThe alpha page is about otters.\n",
            "docs/a/sub/deep.md": "# Deep\n\nThe sub page says wombats sleep all day.\n",
            "docs/b/b.md": "# B\n\nThe beta page is about herons.\n\nHerons wade.\n",
            "notes.md": "# Notes\n\nLoose notes on kestrels.\n",
        })

    def index(self, *args: str) -> None:
        code, _, err = run_cli("index", *args, "--quiet")
        self.assertEqual(code, 0, err)

    def test_text_lists_name_folder_counts_and_description(self):
        self.index("docs/a", "docs/b")
        code, out, err = run_cli("corpora")
        self.assertEqual((code, err), (0, ""))
        lines = out.splitlines()
        self.assertEqual(lines[0], "a  docs/a  2 files, 2 chunks")
        self.assertTrue(lines[1].startswith("   a: 2 files: top; Deep; about "), lines[1])  # the files' titles, then words
        self.assertIn("wombats", lines[1])
        self.assertEqual(lines[2], "b  docs/b  1 file, 1 chunk")
        self.assertEqual(len(lines), 4)

    def test_a_named_corpus_of_the_folder_index_ran_in_shows_dot_and_its_description(self):
        self.index("notes.md", "--corpus", "loose notes", "--description", "Notes on birds.\nAnd more.")
        code, out, _ = run_cli("corpora")
        self.assertEqual(code, 0)
        self.assertEqual(out.splitlines(), ["loose notes  notes.md  1 file, 1 chunk", "   Notes on birds.", "   And more."])
        KnowledgeStore(".agentic-rag", base=self.dir).index([self.dir / "docs/b"])  # no name: a file's folder
        code, out, _ = run_cli("corpora", "--json")
        self.assertEqual([(c["id"], c["root"]) for c in json.loads(out)], [("b", "docs/b"), ("loose notes", "notes.md")])
        self.index("notes.md")
        code, out, _ = run_cli("corpora")
        self.assertIn(f"{self.dir.name}  .  1 file, 1 chunk", out.splitlines())

    def test_json_is_the_mcp_list_corpora_list(self):
        self.index("docs/a", "docs/b", "--store", "st")
        code, out, _ = run_cli("corpora", "--store", "st", "--json")
        self.assertEqual(code, 0)
        corpora = json.loads(out)
        self.assertEqual([sorted(c) for c in corpora], [["chunks", "description", "files", "id", "root"]] * 2)
        self.assertEqual([(c["id"], c["root"], c["files"], c["chunks"]) for c in corpora], [("a", "docs/a", 2, 2), ("b", "docs/b", 1, 1)])
        tool = next(t for t in store_tools(StoreService(KnowledgeStore("st", base=self.dir))) if t.name == "list_corpora")
        result = tool.call({})
        self.assertIs(result["isError"], False)
        self.assertEqual(result["structuredContent"], {"corpora": corpora})

    def test_no_store_or_an_empty_one_exits_2_with_the_reason(self):
        code, out, err = run_cli("corpora", "--store", "nowhere")
        self.assertEqual((code, out), (EXIT_NOT_FOUND, ""))
        self.assertIn("no store at 'nowhere'", err)
        (self.dir / "empty").mkdir()
        self.index("empty", "--store", "st")
        code, out, err = run_cli("corpora", "--store", "st", "--json")
        self.assertEqual((code, out), (EXIT_NOT_FOUND, ""))
        self.assertIn("is empty", err)


class IndexSeveralFoldersTest(unittest.TestCase):
    def setUp(self) -> None:
        self.dir = enter_temp_folder(self)
        write(self.dir, {
            "docs/a/top.md": "# A\n\nThe alpha page is about otters.\n",
            "docs/a/sub/deep.md": "# Deep\n\nThe sub page says wombats sleep all day.\n",
            "docs/b/b.md": "# B\n\nThe beta page is about herons.\n",
        })

    def test_search_of_a_folder_given_finds_its_subfolders(self):
        code, out, err = run_cli("index", "docs/a", "docs/b", "--json")
        self.assertEqual(code, 0, err)
        self.assertEqual(json.loads(out)["corpora"], ["a", "b"])
        code, out, _ = run_cli("search", "wombats sleep", "--corpus", "a", "--json")
        self.assertEqual((code, [h["path"] for h in json.loads(out)]), (0, ["docs/a/sub/deep.md"]))
        self.assertEqual(json.loads(out)[0]["corpus"], "a")
        code, _, err = run_cli("search", "wombats", "--corpus", "sub")
        self.assertEqual(code, EXIT_USAGE)
        self.assertIn("unknown corpus ids ['sub']", err)

    def test_a_folder_inside_another_given_is_a_usage_error(self):
        code, out, err = run_cli("index", "docs/a", "docs/a/sub")
        self.assertEqual((code, out), (EXIT_USAGE, ""))
        self.assertIn("'docs/a/sub' is inside 'docs/a'", err)
        self.assertFalse((self.dir / ".agentic-rag").exists())


if __name__ == "__main__":
    unittest.main()
