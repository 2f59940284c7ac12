"""Ignore files and exclude globs: git's pattern semantics, checked against git itself."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from agentic_rag._errors import InvalidInputError
from agentic_rag._ingest import WalkOptions, walk_tree
from agentic_rag._ingest.ignore_rules import RuleSet, parse_rules

# Each line exercises one part of gitignore(5); the files below sit on both sides of it.
_ROOT_RULES = """\
# a comment line, and a blank line next

\\#literal.md
\\!literal.md
trailing.md   \n\
sp\\ ace.md
*.tmp.md
!keep.tmp.md
build/
/rooted.md
docs/anchored.md
**/deep/any.md
logs/**
!logs/keep.md
!logs/sub/keep.md
a/**/b.md
[abc]class.md
[!x]neg.md
?single.md
thing.md/
foo**bar.md
**/nested/
/top/*.md
!/top/keep.md
out/
!out/inner.md
[[:digit:]]posix.md
.hidden2/
[a-c]range.md
"""

_FILES = (
    "#literal.md", "!literal.md", "trailing.md", "sp ace.md", "spXace.md",
    "x.tmp.md", "keep.tmp.md", "sub/y.tmp.md", "sub/keep.tmp.md", "sub/z.tmp.md",
    "build/a.md", "sub/build/b.md", "build.md",
    "rooted.md", "sub/rooted.md",
    "docs/anchored.md", "sub/docs/anchored.md",
    "deep/any.md", "x/deep/any.md", "x/y/deep/any.md", "deep/other.md",
    "logs/a.md", "logs/keep.md", "logs/sub/keep.md",
    "a/b.md", "a/x/b.md", "a/x/y/b.md", "c/a/b.md",
    "aclass.md", "dclass.md", "ab/class.md",
    "yneg.md", "xneg.md",
    "1single.md", "12single.md",
    "thing.md", "sub/thing.md/in.md",
    "foobar.md", "fooXYbar.md", "foo/bar.md",
    "nested/n.md", "q/nested/n.md", "q/nested.md",
    "top/a.md", "top/keep.md", "top/sub/c.md",
    "out/inner.md", "out/other.md",
    "5posix.md", "xposix.md",
    ".hidden/h.md", ".hidden2/h.md",
    "brange.md", "drange.md",
    "info.md", "sub/info.md",
    "sub/local.md", "sub/deeper/local.md",
    "sub/deeper/more/skip.md", "sub/deeper/more/kept.md",
)

_SUB_RULES = "!y.tmp.md\n/local.md\n!info.md\n"
_DEEPER_RULES = "more/*.md\n!more/kept.md\n"


def _git() -> str | None:
    return shutil.which("git")


def _write(path: Path, text: str = "Some text.\n") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


class TrickyTree(unittest.TestCase):
    """A generated tree of the cases gitignore(5) describes."""

    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.root = Path(self._tmp.name) / "repo"
        for name in _FILES:
            _write(self.root / name)
        _write(self.root / ".gitignore", _ROOT_RULES)
        _write(self.root / "sub" / ".gitignore", _SUB_RULES)
        _write(self.root / "sub" / "deeper" / ".gitignore", _DEEPER_RULES)

    def _git_repo(self) -> dict[str, str]:
        git = _git()
        if git is None:
            self.skipTest("git is not installed: the comparison with git check-ignore needs it")
        env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "HOME": self._tmp.name}
        subprocess.run([git, "init", "-q", str(self.root)], check=True, env=env, timeout=60)
        _write(self.root / ".git" / "info" / "exclude", "info.md\n")
        return env

    def _git_files(self, env: dict[str, str], under: str = "") -> list[str]:
        listed = subprocess.run([_git() or "git", "ls-files", "--others", "--exclude-standard", "-z"], cwd=self.root, env=env,
                                check=True, capture_output=True, timeout=60).stdout.decode("utf-8")
        return sorted(p[len(under):] for p in listed.split("\0") if p.endswith(".md") and p.startswith(under))

    def _walked(self, folder: Path, **options: object) -> list[str]:
        walk = WalkOptions(include_hidden=True, skipped_folders=frozenset(), **options)  # type: ignore[arg-type]
        return [f.relative for f in walk_tree(folder, walk).files]

    def test_same_files_as_git(self):
        env = self._git_repo()
        expected = self._git_files(env)
        self.assertIn("logs/keep.md", expected)  # a sanity check of the tree itself
        self.assertNotIn("logs/sub/keep.md", expected)
        self.assertEqual(self._walked(self.root), expected)

    def test_each_ignored_path_agrees_with_git_check_ignore(self):
        env = self._git_repo()
        walked = set(self._walked(self.root))
        checked = subprocess.run([_git() or "git", "check-ignore", "--stdin", "-z", "--no-index"], cwd=self.root, env=env,
                                 input="\0".join(_FILES).encode("utf-8"), capture_output=True, timeout=60)
        ignored = {p for p in checked.stdout.decode("utf-8").split("\0") if p}
        # check-ignore tests each path on its own; a file under an ignored folder is ignored
        # by the walk without a rule naming it, so those are compared through their folder.
        for name in _FILES:
            under_ignored = any("/".join(name.split("/")[:n]) in ignored for n in range(1, name.count("/") + 1))
            with self.subTest(path=name):
                self.assertEqual(name not in walked, name in ignored or under_ignored)

    def test_a_subfolder_walk_reads_the_repository_rules_above_it(self):
        env = self._git_repo()
        self.assertEqual(self._walked(self.root / "sub"), self._git_files(env, "sub/"))
        self.assertIn("y.tmp.md", self._walked(self.root / "sub"))
        self.assertNotIn("local.md", self._walked(self.root / "sub"))
        self.assertEqual(self._walked(self.root / "top"), ["keep.md", "sub/c.md"])

    def test_a_folder_asked_for_is_walked_even_when_ignored_above(self):
        # As ripgrep does with a path it is given; rules above still apply to what is inside.
        self._git_repo()
        self.assertEqual(self._walked(self.root / "build"), ["a.md"])
        self.assertEqual(self._walked(self.root / "logs"), ["keep.md"])

    def test_git_folder_is_never_walked(self):
        self._git_repo()
        _write(self.root / ".git" / "notes.md")
        self.assertNotIn(".git/notes.md", self._walked(self.root))

    def test_without_a_repository_the_folder_rules_still_apply_and_can_be_turned_off(self):
        walked = self._walked(self.root)
        self.assertNotIn("build/a.md", walked)
        self.assertIn("info.md", walked)  # no repository: no info/exclude
        everything = self._walked(self.root, ignore_files=False)
        self.assertEqual(everything, sorted(_FILES))


class IgnoreFileTest(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.root = Path(self._tmp.name) / "docs"

    def _files(self, **options: object) -> list[str]:
        return [f.relative for f in walk_tree(self.root, WalkOptions(**options)).files]  # type: ignore[arg-type]

    def test_dot_ignore_overrides_gitignore_in_the_same_folder(self):
        for name in ("a.md", "b.md", "c.md"):
            _write(self.root / name)
        _write(self.root / ".gitignore", "*.md\n")
        _write(self.root / ".ignore", "!a.md\nc.txt\n")
        self.assertEqual(self._files(), ["a.md"])

    def test_deeper_file_overrides_a_higher_one(self):
        _write(self.root / "x" / "a.md")
        _write(self.root / "x" / "b.md")
        _write(self.root / ".gitignore", "a.md\n")
        _write(self.root / "x" / ".gitignore", "!a.md\nb.md\n")
        self.assertEqual(self._files(), ["x/a.md"])

    def test_ignored_files_are_not_listed_as_skipped(self):
        _write(self.root / "theme" / "nav.html", "<nav></nav>")
        _write(self.root / "page.md")
        _write(self.root / ".gitignore", "theme/\n")
        result = walk_tree(self.root)
        self.assertEqual([f.relative for f in result.files], ["page.md"])
        self.assertEqual(result.skipped, ())

    def _linked_worktree(self, name: str, line_end: str) -> Path:
        """A linked worktree whose git folder is ``main.git/worktrees/NAME`` (its ".git" file and
        "commondir" ending their line with ``line_end``), a file the common info/exclude leaves
        out and one it keeps; returns the worktree's git folder."""
        gitdir = Path(self._tmp.name) / "main.git" / "worktrees" / name
        _write(gitdir.parent.parent / "info" / "exclude", "local-only.md\n")
        _write(gitdir / "commondir", f"../..{line_end}")
        _write(self.root / ".git", f"gitdir: {gitdir}{line_end}")
        _write(self.root / "local-only.md")
        _write(self.root / "guide.md")
        return gitdir

    def test_a_linked_worktree_reads_the_common_info_exclude(self):
        # A linked worktree's ".git" is a file naming its git folder, whose "commondir"
        # leads to the folder holding info/exclude.
        self._linked_worktree("docs", "\n")
        self.assertEqual(self._files(), ["guide.md"])

    def test_the_git_file_is_read_as_git_reads_it(self):
        # "gitdir: " then the path, only line ends cut (git's read_gitfile_gently): a path may
        # end in a space; "commondir" likewise.
        gitdir = self._linked_worktree("docs ", "\r\n")
        self.assertEqual(self._files(), ["guide.md"])
        _write(self.root / ".git", f"gitdir:{gitdir}\n")  # git wants "gitdir: "
        self.assertEqual(self._files(), ["guide.md", "local-only.md"])

    def test_parse_rules_matches_like_git(self):
        rules = RuleSet(parse_rules("*.md\n!important.md\ndocs/**/draft.md\n"))
        self.assertTrue(rules.ignores("notes.md", False))
        self.assertFalse(rules.ignores("important.md", False))
        self.assertTrue(rules.ignores("docs/draft.md", False))
        self.assertTrue(rules.ignores("docs/a/b/draft.md", False))
        self.assertFalse(RuleSet(parse_rules("build/\n")).ignores("build", False))
        self.assertTrue(RuleSet(parse_rules("build/\n")).ignores("x/build", True))
        self.assertFalse(RuleSet(parse_rules("[z-a].md\n")).ignores("b.md", False))


class ExcludeGlobTest(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self._tmp.cleanup)
        self.root = Path(self._tmp.name) / "docs"
        for name in ("guide.md", "drafts/a.md", "api/drafts/b.md", "CHANGES.rst", "old/CHANGES.rst", "site/x.min.html", "site/y.html"):
            _write(self.root / name)

    def _files(self, *globs: str) -> list[str]:
        return [f.relative for f in walk_tree(self.root, WalkOptions(exclude=globs)).files]

    def test_globs_are_gitignore_patterns_relative_to_the_walked_folder(self):
        self.assertEqual(self._files("drafts/"), ["CHANGES.rst", "guide.md", "old/CHANGES.rst", "site/x.min.html", "site/y.html"])
        self.assertEqual(self._files("/CHANGES.rst"), ["api/drafts/b.md", "drafts/a.md", "guide.md", "old/CHANGES.rst", "site/x.min.html", "site/y.html"])
        self.assertEqual(self._files("*.min.html", "api/**"), ["CHANGES.rst", "drafts/a.md", "guide.md", "old/CHANGES.rst", "site/y.html"])

    def test_an_exclude_wins_over_a_negated_ignore_rule(self):
        _write(self.root / ".gitignore", "!guide.md\n")
        self.assertNotIn("guide.md", self._files("guide.md"))

    def test_bad_globs_are_refused_up_front(self):
        for bad in ("", "   ", "!keep.md"):
            with self.subTest(glob=bad), self.assertRaises(InvalidInputError):
                WalkOptions(exclude=(bad,))
        with self.assertRaises(InvalidInputError):
            WalkOptions(exclude="drafts/")  # type: ignore[arg-type]


# Hardening round 3, rows 22-24: the rules git reads differently from a glob library.
_ROW_RULES = "a3**/b.md\ndocs**/drafts/\nbuild//\nff.md\fgg.md\nhh.md\x85ii.md\njj.md\u2028kk.md\nll\u2028mm.md\n"


class GitQuirksTest(unittest.TestCase):
    """Rows 22-24: ``**`` inside a component, ``build//`` and line ends other than ``\\n``."""

    def setUp(self) -> None:
        self.rules = RuleSet(parse_rules(_ROW_RULES))

    def test_a_double_star_after_a_literal_prefix_spans_folders(self):
        for path in ("a3/b.md", "a3/x/b.md", "a3/x/y/b.md", "a3x/b.md", "a3b.md"):
            self.assertTrue(self.rules.ignores(path, False), path)
        self.assertFalse(self.rules.ignores("a/b.md", False))
        self.assertFalse(self.rules.ignores("a3/x/c.md", False))
        for folder in ("docs/drafts", "docs/x/drafts", "docsy/drafts", "docsdrafts"):
            self.assertTrue(self.rules.ignores(folder, True), folder)
        self.assertFalse(self.rules.ignores("docs/x/drafts", False))

    def test_a_doubled_trailing_slash_matches_nothing(self):
        for path, folder in (("build", True), ("x/build", True), ("build", False), ("build/a.md", False)):
            self.assertFalse(self.rules.ignores(path, folder), path)

    def test_lines_end_at_newline_only(self):
        for name in ("ff.md", "gg.md", "hh.md", "ii.md", "jj.md", "kk.md"):
            self.assertFalse(self.rules.ignores(name, False), name)
        self.assertTrue(self.rules.ignores("ff.md\fgg.md", False))
        self.assertTrue(self.rules.ignores("ll\u2028mm.md", False))
        self.assertTrue(RuleSet(parse_rules("a.md\r\nb.md")).ignores("b.md", False))
        self.assertTrue(RuleSet(parse_rules("a.md\r\nb.md")).ignores("a.md", False))

    def test_trailing_spaces_as_git_cuts_them(self):
        self.assertTrue(RuleSet(parse_rules("a\\\\  \n")).ignores("a\\", False))  # an escaped backslash escapes no space
        self.assertTrue(RuleSet(parse_rules("b\\  \n")).ignores("b ", False))  # an escaped space stays, the rest is cut


# Characters str.splitlines breaks at and git does not: in a rule they are part of the pattern.
_NOT_LINE_ENDS = {"ff": "\f", "vt": "\v", "fs": "\x1c", "gs": "\x1d", "rs": "\x1e", "nel": "\x85", "ls": "\u2028", "ps": "\u2029"}
# CRLF line ends (the "\r" dropped, then trailing spaces), and a last line without "\n" whose
# "\r" goes too (git adds the "\n").
_CRLF_RULES = "\r\n".join([*(f"{tag}-a{char}b.md" for tag, char in _NOT_LINE_ENDS.items()), "crlf.md", "spaced.md  ", "!kept.md"]) + "\r\n*.tmp\r\ntail-cr.md\r"
_CRLF_FILES = (*(f"{tag}-a{char}b.md" for tag, char in _NOT_LINE_ENDS.items()), *(f"{tag}-a" for tag in _NOT_LINE_ENDS), "b.md",
               "crlf.md", "crlf.md\r", "spaced.md", "kept.md", "x.tmp", "tail-cr.md", "tail-cr.md\r")


def _git_repo_folder(case: unittest.TestCase) -> tuple[str, Path]:
    """git's path and a fresh folder for a repository (removed after the test); skips the test
    when git is not installed."""
    git = _git()
    if git is None:
        case.skipTest("git is not installed: the comparison with git check-ignore needs it")
    tmp = tempfile.TemporaryDirectory()
    case.addCleanup(tmp.cleanup)
    return git, Path(tmp.name) / "repo"


class LineEndsAgainstGit(unittest.TestCase):
    """Rules split at "\n" only, a "\r" before it dropped: a form feed, a vertical tab, U+001C
    to U+001E, U+0085, U+2028 or U+2029 inside a line is part of its pattern, path by path as
    ``git check-ignore`` and ``git ls-files`` read the same ``.gitignore``."""

    def test_each_path_as_git(self):
        git, root = _git_repo_folder(self)
        for name in _CRLF_FILES:
            _write(root / name)
        (root / ".gitignore").write_bytes(_CRLF_RULES.encode("utf-8"))
        env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(root.parent)}
        subprocess.run([git, "init", "-q", str(root)], check=True, env=env, timeout=60)
        checked = subprocess.run([git, "check-ignore", "--stdin", "-z", "--no-index"], cwd=root, env=env,
                                 input="\0".join(_CRLF_FILES).encode("utf-8"), capture_output=True, timeout=60)
        self.assertIn(checked.returncode, (0, 1), checked.stderr)
        by_git = {p for p in checked.stdout.decode("utf-8").split("\0") if p}
        self.assertIn("ff-a\fb.md", by_git)  # a sanity check of what git reads
        self.assertNotIn("ff-a", by_git)
        rules = RuleSet(parse_rules((root / ".gitignore").read_bytes().decode("utf-8")))
        for name in _CRLF_FILES:
            with self.subTest(path=name):
                self.assertEqual(rules.ignores(name, False), name in by_git)
        listed = subprocess.run([git, "ls-files", "--others", "--exclude-standard", "-z"], cwd=root, env=env,
                                check=True, capture_output=True, timeout=60).stdout.decode("utf-8")
        kept_by_git = sorted(p for p in listed.split("\0") if p and p != ".gitignore")
        # Ignored paths are not listed at all; the others are files or, without a suffix the
        # index reads, skipped files.
        found = walk_tree(root, WalkOptions(include_hidden=True, skipped_folders=frozenset()))
        walked = sorted([f.relative for f in found.files] + [f.relative for f in found.skipped if f.relative != ".gitignore"])
        self.assertEqual(walked, kept_by_git)


_COMPONENTS = ("a", "a3", "a3x", "b", "docs", "docsy", "drafts", "build", "x", "ab")
_NAMES = ("b.md", "a.md", "x.md", "a3b.md", "drafts.md", "build.md", "ff.md\fgg.md", "ll\u2028mm.md", "abc.md")
_TOKENS = ("a", "a3", "b", "docs", "drafts", "build", "x", "*", "**", "?", "a*", "*3", "a3**", "docs**", "**x", "[ab]", "[!a]*",
           "b.md", "*.md", "a?.md", "x.md", "**.md", "\\a", "ab*", "")


def _random_tree(rng: random.Random) -> list[str]:
    paths: set[str] = set()
    for _ in range(120):
        depth = rng.randint(0, 3)
        folders = [rng.choice(_COMPONENTS) for _ in range(depth)]
        paths.add("/".join(folders + [rng.choice(_NAMES)]))
    return sorted(paths)


def _random_pattern(rng: random.Random) -> str:
    parts = [rng.choice(_TOKENS) for _ in range(rng.choice((1, 1, 2, 2, 3)))]
    pattern = "/".join(parts)
    if rng.random() < 0.2:
        pattern = "/" + pattern
    pattern += rng.choice(("", "", "", "/", "//"))
    if rng.random() < 0.15:
        pattern = "!" + pattern
    return pattern


class RandomRulesAgainstGit(unittest.TestCase):
    """Rows 22-24 and 300 seeded random patterns on a generated tree, path by path against
    ``git check-ignore``."""

    def test_every_path_agrees_with_git(self):
        git, root = _git_repo_folder(self)
        rng = random.Random(28)
        files = _random_tree(rng)
        for name in files:
            _write(root / name)
        folders = sorted({"/".join(f.split("/")[:n]) for f in files for n in range(1, f.count("/") + 1)})
        env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(root.parent)}
        subprocess.run([git, "init", "-q", str(root)], check=True, env=env, timeout=60)
        groups = [_ROW_RULES] + ["\n".join(_random_pattern(rng) for _ in range(5)) + "\n" for _ in range(60)]
        paths = files + folders
        for text in groups:
            _write(root / ".gitignore", text)
            checked = subprocess.run([git, "check-ignore", "--stdin", "-z", "--no-index"], cwd=root, env=env,
                                     input="\0".join(paths).encode("utf-8"), capture_output=True, timeout=60)
            self.assertIn(checked.returncode, (0, 1), checked.stderr)
            by_git = {p for p in checked.stdout.decode("utf-8").split("\0") if p}
            rules = RuleSet(parse_rules(text))
            for path in paths:
                # Compared through the folders above: git check-ignore may or may not report a
                # path inside an ignored folder; the walk never enters one.
                above = ["/".join(path.split("/")[:n]) for n in range(1, path.count("/") + 1)]
                ours = any(rules.ignores(f, True) for f in above) or rules.ignores(path, path in folders)
                theirs = any(f in by_git for f in above) or path in by_git
                self.assertEqual(ours, theirs, f"{path!r} under rules {text!r}")


if __name__ == "__main__":
    unittest.main()
