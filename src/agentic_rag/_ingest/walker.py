"""Finding the files to index under a folder: deterministic, contained, never fatal.

The walk visits a tree in sorted order and returns every file a loader can read plus every
file it passed over with the reason. Symbolic links are followed only while their target stays
inside the indexed root (a link out of it is listed as skipped, a link cycle is visited once);
hidden folders and tool folders (``.git``, ``__pycache__``, ``node_modules``, the store's own
``.agentic-rag``) are left out silently, and so is whatever the ignore files ignore
(``.gitignore``, ``.ignore``, the repository's ``info/exclude``: see
:mod:`~agentic_rag._ingest.ignore_rules`) or an ``exclude`` glob names. A file or folder whose name is not valid UTF-8 cannot be
stored or cited: it is listed as skipped under its name with the bad bytes written ``\\xff``.
A folder that cannot be listed is skipped and named in :attr:`WalkResult.unreadable`, so an
index run keeps what it held before instead of taking its files for deleted.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from agentic_rag._contracts.validation import require_bool, require_int
from agentic_rag._errors import InvalidInputError
from agentic_rag._ingest.ignore_rules import RuleSet, compile_excludes, repository_rules
from agentic_rag._ingest.loaders import SUFFIXES

__all__ = [
    "DEFAULT_SKIPPED_FOLDERS",
    "SUPPORTED_SUFFIXES",
    "SkippedFile",
    "SourceFile",
    "WalkOptions",
    "WalkResult",
    "walk_tree",
]

_STAGE = "ingest"

#: File name endings (lower case) a loader reads, taken from the loaders' registry.
SUPPORTED_SUFFIXES: frozenset[str] = SUFFIXES

#: Folder names never walked into by default (hidden folders are skipped as well).
DEFAULT_SKIPPED_FOLDERS: frozenset[str] = frozenset({".agentic-rag", ".git", ".hg", ".svn", "__pycache__", "node_modules"})


@dataclass(frozen=True, slots=True)
class WalkOptions:
    """What a walk visits.

    Args:
        include_hidden: Also walk hidden folders and files (names starting with ``.``);
            ``skipped_folders`` are still skipped.
        skipped_folders: Folder names never entered.
        suffixes: File endings to index (lower case, with the dot); others are listed as
            skipped.
        max_file_bytes: Larger files are listed as skipped.
        ignore_files: Leave out what ``.gitignore`` and ``.ignore`` files ignore, from the
            walked folder down and, inside a git repository, from the repository's top
            (with its ``info/exclude``), as ripgrep does; ignored paths are not listed. The
            walked folder itself is never tested (a folder asked for is walked even when a
            rule above it ignores it, as ripgrep does), nor is a single file asked for.
        exclude: Gitignore-style globs matched against paths relative to the walked folder
            (``"drafts/"``, ``"*.min.html"``, ``"/CHANGES.rst"``); what they match is left out,
            whatever the ignore files say, and not listed.

    Raises:
        InvalidInputError: A wrong type, ``max_file_bytes`` below 1, or a blank exclude glob
            or one starting with ``!``.
    """

    include_hidden: bool = False
    skipped_folders: frozenset[str] = DEFAULT_SKIPPED_FOLDERS
    suffixes: frozenset[str] = SUPPORTED_SUFFIXES
    max_file_bytes: int = 32 * 1024 * 1024
    ignore_files: bool = True
    exclude: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        require_bool(self.include_hidden, "include_hidden", stage=_STAGE)
        require_bool(self.ignore_files, "ignore_files", stage=_STAGE)
        if isinstance(self.exclude, str) or not all(isinstance(g, str) for g in self.exclude):
            raise InvalidInputError(f"exclude must be a collection of glob strings, got {self.exclude!r}", stage=_STAGE)
        object.__setattr__(self, "exclude", tuple(self.exclude))
        compile_excludes(self.exclude)  # a bad glob is said here, not in the middle of a walk
        for name in ("skipped_folders", "suffixes"):
            value = getattr(self, name)
            if isinstance(value, str) or not all(isinstance(v, str) for v in value):
                raise InvalidInputError(f"{name} must be a collection of strings, got {value!r}", stage=_STAGE)
            object.__setattr__(self, name, frozenset(value))
        object.__setattr__(self, "suffixes", frozenset(s.lower() for s in self.suffixes))
        require_int(self.max_file_bytes, "max_file_bytes", minimum=1, stage=_STAGE)


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to load.

    Args:
        path: Where to read it (under the root as walked; links not resolved).
        relative: Its path relative to the root, ``/``-separated (the root's own name when the
            root is a file).
        size: Size in bytes when walked.
        mtime: Modification time (seconds since the epoch) when walked.
    """

    path: Path
    relative: str
    size: int
    mtime: float

    @property
    def suffix(self) -> str:
        """The lower-case file ending, with its dot."""
        return self.path.suffix.lower()


@dataclass(frozen=True, slots=True)
class SkippedFile:
    """A file the walk or a loader passed over.

    Args:
        relative: Its path relative to the root, ``/``-separated.
        reason: Why, in words.
    """

    relative: str
    reason: str


@dataclass(frozen=True, slots=True)
class WalkResult:
    """The files under one root, both sorted by relative path.

    Args:
        root: The root walked (absolute, links not resolved).
        files: Files to load.
        skipped: Files passed over, with reasons.
        unreadable: Folders that could not be listed (permission denied, I/O error), relative
            to the root and ``/``-separated (``""`` for the root itself), sorted.
    """

    root: Path
    files: tuple[SourceFile, ...] = ()
    skipped: tuple[SkippedFile, ...] = field(default_factory=tuple)
    unreadable: tuple[str, ...] = ()


def walk_tree(root: str | os.PathLike[str], options: WalkOptions | None = None, *, exclude: Iterable[str | os.PathLike[str]] = ()) -> WalkResult:
    """List the files under ``root`` (or ``root`` itself when it is a file).

    Args:
        root: A folder or a single file.
        options: What to visit (default :class:`WalkOptions`).
        exclude: Folders never entered (compared after resolving links), e.g. the store.

    Returns:
        The files to load and the files skipped, each sorted by relative path.

    Raises:
        InvalidInputError: ``root`` does not exist, or is neither a folder nor a file.
    """
    options = options if options is not None else WalkOptions()
    if not isinstance(options, WalkOptions):
        raise InvalidInputError(f"options must be WalkOptions, got {type(options).__name__}", stage=_STAGE)
    top = Path(os.path.abspath(os.fspath(root)))
    if not top.exists():
        raise InvalidInputError(f"cannot index {os.fspath(root)!r}: no such file or folder", stage=_STAGE)
    if top.is_file():
        info = top.stat()
        if top.suffix.lower() not in options.suffixes:
            return WalkResult(top, (), (SkippedFile(top.name, _unsupported(top)),))
        if info.st_size > options.max_file_bytes:
            return WalkResult(top, (), (SkippedFile(top.name, _too_large(info.st_size, options)),))
        return WalkResult(top, (SourceFile(top, top.name, info.st_size, info.st_mtime),), ())
    if not top.is_dir():
        raise InvalidInputError(f"cannot index {os.fspath(root)!r}: not a regular file or folder", stage=_STAGE)
    walker = _Walker(top, options, {os.path.realpath(e) for e in exclude})
    walker.visit(top, "", walker.rules)
    return WalkResult(top, tuple(sorted(walker.files, key=lambda f: f.relative)), tuple(sorted(walker.skipped, key=lambda s: s.relative)),
                      tuple(sorted(walker.unreadable)))


class _Walker:
    def __init__(self, top: Path, options: WalkOptions, excluded: set[str]) -> None:
        self.real_top = os.path.realpath(top)
        self.options = options
        self.excluded = excluded
        self.visited: set[str] = {self.real_top}
        self.files: list[SourceFile] = []
        self.skipped: list[SkippedFile] = []
        self.unreadable: list[str] = []
        self.excludes = RuleSet(compile_excludes(options.exclude))
        # Ignore rules see paths relative to the repository's top when the walk is inside one.
        self.rules, self.lead = repository_rules(top) if options.ignore_files else (RuleSet(), "")

    def _inside(self, real: str) -> bool:
        return real == self.real_top or real.startswith(self.real_top.rstrip(os.sep) + os.sep)

    def visit(self, folder: Path, prefix: str, rules: RuleSet) -> None:
        if self.options.ignore_files:
            rules = rules.with_folder(folder, self.lead + prefix)
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            self.skipped.append(SkippedFile(prefix.rstrip("/") or ".", f"unreadable folder: {exc.strerror or exc}"))
            self.unreadable.append(prefix.rstrip("/"))
            return
        for entry in entries:
            self._entry(entry, prefix, rules)

    def _left_out(self, relative: str, is_folder: bool, rules: RuleSet) -> bool:
        return self.excludes.ignores(relative, is_folder) or rules.ignores(self.lead + relative, is_folder)

    def _entry(self, entry: os.DirEntry[str], prefix: str, rules: RuleSet) -> None:
        name, relative = entry.name, prefix + entry.name
        options = self.options
        hidden = name.startswith(".") and not options.include_hidden
        if not _utf8(name):
            if not hidden:
                shown = os.fsencode(relative).decode("utf-8", "backslashreplace")
                try:
                    kind = "folder" if entry.is_dir(follow_symlinks=False) else "file"
                except OSError:
                    kind = "file"
                self.skipped.append(SkippedFile(shown + ("/" if kind == "folder" else ""), f"{kind} name is not valid UTF-8"))
            return
        try:
            link = entry.is_symlink()
            info = os.stat(entry.path) if link else entry.stat(follow_symlinks=False)
        except OSError:
            if not hidden and not self._left_out(relative, False, rules):
                self.skipped.append(SkippedFile(relative, "broken symbolic link"))
            return
        if self._left_out(relative, stat.S_ISDIR(info.st_mode), rules):
            return
        if stat.S_ISDIR(info.st_mode):
            if hidden or name in options.skipped_folders or name == ".git":
                return
            real = os.path.realpath(entry.path)
            if link and not self._inside(real):
                self.skipped.append(SkippedFile(relative + "/", "symbolic link to a folder outside the indexed root"))
                return
            if real in self.excluded or real in self.visited:
                return  # the store itself, or a folder already walked through another link
            self.visited.add(real)
            self.visit(Path(entry.path), relative + "/", rules)
            return
        if hidden:
            return
        if link and not self._inside(os.path.realpath(entry.path)):
            self.skipped.append(SkippedFile(relative, "symbolic link to a file outside the indexed root"))
        elif not stat.S_ISREG(info.st_mode):
            self.skipped.append(SkippedFile(relative, "not a regular file"))
        elif Path(name).suffix.lower() not in options.suffixes:
            self.skipped.append(SkippedFile(relative, _unsupported(Path(name))))
        elif info.st_size > options.max_file_bytes:
            self.skipped.append(SkippedFile(relative, _too_large(info.st_size, options)))
        else:
            self.files.append(SourceFile(Path(entry.path), relative, info.st_size, info.st_mtime))


def _utf8(name: str) -> bool:
    # A name with bytes that are not UTF-8 comes back from the OS with surrogate escapes,
    # which neither SQLite nor a UTF-8 terminal accepts.
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _unsupported(path: Path) -> str:
    suffix = path.suffix.lower()
    return f"unsupported file type {suffix!r}" if suffix else "unsupported file type (no extension)"


def _too_large(size: int, options: WalkOptions) -> str:
    return f"file too large: {size} bytes, limit {options.max_file_bytes}"
