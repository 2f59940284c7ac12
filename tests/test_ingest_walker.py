"""walk_tree: sorted, hidden and tool folders left out, links kept inside the root, never fatal."""

from __future__ import annotations

import os
import tempfile
import unittest
from pathlib import Path

from agentic_rag._errors import InvalidInputError
from agentic_rag._ingest import SUPPORTED_SUFFIXES, WalkOptions, walk_tree


def _write(path: Path, text: str = "Some text.\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


class WalkTreeTest(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.root = Path(self._tmp.name) / "root"
        self.root.mkdir()

    def _symlink(self, target: Path, link: Path) -> None:
        try:
            link.symlink_to(target, target_is_directory=target.is_dir())
        except (OSError, NotImplementedError) as exc:
            self.skipTest(f"symbolic links unavailable here: {exc}")

    def test_files_sorted_by_relative_path_and_supported_types_only(self):
        for name in ("b.md", "a/z.txt", "a/b/c.html", "a-b.json", "data.csv", "notes.jsonl", "page.htm", "x.markdown"):
            _write(self.root / name)
        _write(self.root / "image.png", "not really")
        _write(self.root / "Makefile", "all:")
        result = walk_tree(self.root)
        relatives = [f.relative for f in result.files]
        self.assertEqual(relatives, sorted(relatives))
        self.assertEqual(set(relatives), {"b.md", "a/z.txt", "a/b/c.html", "a-b.json", "data.csv", "notes.jsonl", "page.htm", "x.markdown"})
        reasons = {s.relative: s.reason for s in result.skipped}
        self.assertEqual(reasons["image.png"], "unsupported file type '.png'")
        self.assertEqual(reasons["Makefile"], "unsupported file type (no extension)")
        self.assertEqual(result.root, self.root)

    def test_suffixes_are_case_insensitive(self):
        _write(self.root / "README.MD")
        self.assertEqual([f.relative for f in walk_tree(self.root).files], ["README.MD"])
        self.assertEqual(walk_tree(self.root).files[0].suffix, ".md")

    def test_hidden_and_tool_folders_are_skipped_silently(self):
        for folder in (".git", ".agentic-rag", "__pycache__", "node_modules", ".hidden"):
            _write(self.root / folder / "inside.md")
        _write(self.root / ".secret.md")
        _write(self.root / "kept.md")
        result = walk_tree(self.root)
        self.assertEqual([f.relative for f in result.files], ["kept.md"])
        self.assertEqual(result.skipped, ())

    def test_include_hidden_walks_dot_folders_but_not_tool_folders(self):
        _write(self.root / ".hidden" / "inside.md")
        _write(self.root / ".git" / "config.md")
        result = walk_tree(self.root, WalkOptions(include_hidden=True))
        self.assertEqual([f.relative for f in result.files], [".hidden/inside.md"])

    def test_excluded_folder_is_not_entered(self):
        _write(self.root / "store" / "x.md")
        _write(self.root / "doc.md")
        result = walk_tree(self.root, exclude=[self.root / "store"])
        self.assertEqual([f.relative for f in result.files], ["doc.md"])

    def test_symlink_to_a_file_outside_the_root_is_listed_not_followed(self):
        outside = _write(Path(self._tmp.name) / "outside" / "secret.md", "Top secret.")
        self._symlink(outside, self.root / "leak.md")
        self._symlink(outside.parent, self.root / "leakdir")
        _write(self.root / "own.md")
        result = walk_tree(self.root)
        self.assertEqual([f.relative for f in result.files], ["own.md"])
        reasons = {s.relative: s.reason for s in result.skipped}
        self.assertIn("outside the indexed root", reasons["leak.md"])
        self.assertIn("outside the indexed root", reasons["leakdir/"])

    def test_symlink_inside_the_root_is_followed_and_cycles_end(self):
        _write(self.root / "real" / "page.md")
        self._symlink(self.root / "real" / "page.md", self.root / "alias.md")
        self._symlink(self.root, self.root / "real" / "loop")
        result = walk_tree(self.root)
        self.assertEqual([f.relative for f in result.files], ["alias.md", "real/page.md"])

    def test_broken_symlink_is_listed(self):
        self._symlink(self.root / "missing.md", self.root / "dangling.md")
        result = walk_tree(self.root)
        self.assertEqual([(s.relative, s.reason) for s in result.skipped], [("dangling.md", "broken symbolic link")])

    def test_too_large_files_are_listed(self):
        _write(self.root / "big.txt", "word " * 100)
        result = walk_tree(self.root, WalkOptions(max_file_bytes=50))
        self.assertEqual(result.files, ())
        self.assertIn("file too large", result.skipped[0].reason)

    def test_a_file_root_yields_itself(self):
        page = _write(self.root / "one.md")
        result = walk_tree(page)
        self.assertEqual([(f.relative, f.path) for f in result.files], [("one.md", page)])
        self.assertEqual(walk_tree(_write(self.root / "x.bin")).skipped[0].reason, "unsupported file type '.bin'")

    def test_missing_root_raises(self):
        with self.assertRaises(InvalidInputError) as caught:
            walk_tree(self.root / "nope")
        self.assertIn("nope", str(caught.exception))

    def test_unreadable_folder_is_listed_not_fatal(self):
        if os.name != "posix" or os.geteuid() == 0:
            self.skipTest("folder permissions are not enforced here (not POSIX, or running as root)")
        locked = self.root / "locked"
        _write(locked / "x.md")
        locked.chmod(0)
        self.addCleanup(locked.chmod, 0o755)
        result = walk_tree(self.root)
        self.assertEqual([s.relative for s in result.skipped], ["locked"])
        self.assertIn("unreadable folder", result.skipped[0].reason)

    def test_options_are_validated(self):
        with self.assertRaises(InvalidInputError):
            WalkOptions(max_file_bytes=0)
        with self.assertRaises(InvalidInputError):
            WalkOptions(suffixes=".md")
        self.assertIn(".jsonl", SUPPORTED_SUFFIXES)


if __name__ == "__main__":
    unittest.main()
