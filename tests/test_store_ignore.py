"""Index runs honour ignore files and --exclude; files indexed before and now left out are removed."""

from __future__ import annotations

import json
import unittest

from agentic_rag._ingest.walker import WalkOptions
from agentic_rag._store import KnowledgeStore
from cli_support import enter_temp_folder, run_cli


class IgnoredOnReindexTest(unittest.TestCase):
    def setUp(self) -> None:
        self.dir = enter_temp_folder(self)
        for name, text in (("guide.md", "# Guide\n\nThe retry limit is five.\n"), ("drafts/plan.md", "# Plan\n\nThe retry limit may become nine.\n"),
                           ("theme/partials/nav.md", "# Nav\n\nRetry limit navigation.\n")):
            path = self.dir / "docs" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")

    def _index(self, *flags: str) -> dict:
        code, out, err = run_cli("index", "docs", "--store", "store", "--quiet", "--json", *flags)
        self.assertEqual(code, 0, err)
        return json.loads(out)

    def _paths(self) -> list[str]:
        return sorted({hit.path for hit in KnowledgeStore("store", base=self.dir).search("retry limit", 10)})

    def test_files_newly_ignored_or_excluded_are_removed_like_deleted_ones(self):
        self.assertEqual(self._index()["added"], 3)
        (self.dir / "docs" / ".gitignore").write_text("theme/\n", encoding="utf-8")
        report = self._index()
        self.assertEqual((report["removed"], report["unchanged"]), (1, 2))
        self.assertEqual(self._paths(), ["docs/drafts/plan.md", "docs/guide.md"])
        report = self._index("--exclude", "drafts/", "--exclude", "*.txt")
        self.assertEqual((report["removed"], report["unchanged"]), (1, 1))
        self.assertEqual(self._paths(), ["docs/guide.md"])
        self.assertEqual(report["skipped"], [])  # left out on purpose: not listed as skipped
        report = self._index("--no-ignore")
        self.assertEqual((report["added"], report["unchanged"]), (2, 1))
        self.assertEqual(self._paths(), ["docs/drafts/plan.md", "docs/guide.md", "docs/theme/partials/nav.md"])

    def test_cli_refuses_a_negated_exclude(self):
        code, _, err = run_cli("index", "docs", "--store", "store", "--quiet", "--exclude", "!guide.md")
        self.assertEqual(code, 1)
        self.assertIn("'!guide.md'", err)

    def test_library_walk_options_take_the_same_globs(self):
        store = KnowledgeStore(self.dir / "store", walk=WalkOptions(exclude=("theme/",)))
        report = store.index(self.dir / "docs")
        self.assertEqual(report.added, 2)


if __name__ == "__main__":
    unittest.main()
