"""What one index run covers: the files to read, the scope each path given removes files from,
and the corpus each file goes to, decided before any file is read.

The corpus of a file (``docs/cli.md`` says the same to users):

- ``corpus=NAME`` given: every file goes to ``NAME``; paths may overlap (a file is read once).
- One path given: each top-level folder under it is a corpus named after that folder, and the
  files directly in it a corpus named after it (``index docs`` over ``docs/flask`` and
  ``docs/django`` gives ``flask`` and ``django``); a single file goes to the corpus named
  after its folder.
- Several paths given: each folder given is one corpus named after it, holding all of it,
  subfolders included; each file given goes to the corpus named after its folder. A path
  inside another folder given is refused (:func:`distinct_paths`): its files would belong to
  two corpora, and neither reading is what both arguments ask for.
- A path given twice counts once.
- Two folders that would share a name in one run are each named by the last parts of their
  path, as many as tell them apart (``v1/docs`` and ``v2/docs``): deterministic, and the name
  says where the corpus comes from.
- A name a stored corpus holds for files of another folder, which this run leaves alone, is
  refused (:func:`refuse_merged_folders`): two folders never share a corpus unless asked to.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from agentic_rag._errors import InvalidInputError
from agentic_rag._ingest.text_format import SphinxSuffixes
from agentic_rag._ingest.walker import SourceFile, walk_tree
from agentic_rag._store.layout import StoreSettings

__all__ = ["PlannedFile", "RunPlan", "Scope", "corpus_names", "distinct_paths", "index_roots", "plan_run", "refuse_merged_folders"]

_STAGE = "store"


@dataclass(frozen=True, slots=True)
class PlannedFile:
    """One file an index run reads (or finds unchanged)."""

    key: str
    source: SourceFile
    corpus_id: str
    read_as: str  # the loader's file ending: the file's own, or what a Sphinx conf.py says
    within: str  # the real path the file must still resolve inside when it is read


@dataclass(frozen=True, slots=True)
class Scope:
    """The stored files a path given to a run speaks for: a file, or everything under a folder
    (``key`` ``""``: the base folder)."""

    key: str
    single_file: bool

    def holds(self, key: str) -> bool:
        """True when ``key`` is this file, or a file under this folder."""
        if self.single_file:
            return key == self.key
        if not self.key:
            return not key.startswith("/") and ":" not in key.split("/", 1)[0]
        return key.startswith(self.key + "/")


@dataclass(frozen=True, slots=True)
class RunPlan:
    """What an index run covers.

    Attributes:
        files: The files to read, by key.
        skipped: ``(key, reason)`` of the files the walk passed over.
        scopes: One per path given: stored files there that the walk no longer finds are removed.
        corpus_roots: The key of the folder each corpus met stands for.
        unreadable: Folders that could not be listed (their stored files are kept).
        named: Every file goes to a corpus the caller named.
    """

    files: tuple[PlannedFile, ...]
    skipped: tuple[tuple[str, str], ...]
    scopes: tuple[Scope, ...]
    corpus_roots: Mapping[str, str]
    unreadable: tuple[Scope, ...]
    named: bool


def _join(root_key: str, relative: str) -> str:
    return f"{root_key}/{relative}" if root_key else relative


def _shown(key: str) -> str:
    return key or "."


def distinct_paths(settings: StoreSettings, paths: Sequence[Path], *, named: bool) -> list[Path]:
    """The paths of a run, each once, in the order given.

    Args:
        settings: The store's settings (paths are shown as the store names them).
        paths: Absolute paths of existing files and folders.
        named: Every file goes to one corpus the caller named (paths may then overlap).

    Raises:
        InvalidInputError: Without a named corpus, a path inside another folder given.
    """
    unique = list(dict.fromkeys(Path(os.path.abspath(p)) for p in paths))
    if named or len(unique) < 2:
        return unique
    folders = {p for p in unique if p.is_dir()}
    for path in unique:
        outer = next((parent for parent in path.parents if parent in folders), None)
        if outer is not None:
            inner, holder = _shown(settings.key(path)), _shown(settings.key(outer))
            raise InvalidInputError(
                f"{inner!r} is inside {holder!r}, also given: each folder given is one corpus holding all of it, so the files of "
                f"{inner!r} would be in two corpora; give one of the two, or one corpus for all with corpus=NAME (--corpus NAME)",
                stage=_STAGE)
    return unique


def corpus_names(settings: StoreSettings, folders: Sequence[Path]) -> dict[Path, str]:
    """The corpus name of each folder: its own name, or, when several folders of one run share
    it, the last parts of each one's path, as many as tell them apart.

    Args:
        settings: The store's settings (the parts are those of the name the store gives the
            folder: relative to the base when inside it).
        folders: Absolute folder paths, each once.

    Returns:
        Folder -> corpus name, one name per folder.
    """
    groups: dict[str, list[Path]] = {}
    for folder in sorted(set(folders)):
        groups.setdefault(folder.name or "root", []).append(folder)
    names: dict[Path, str] = {}
    for name, members in groups.items():
        if len(members) == 1:
            names[members[0]] = name
            continue
        parts = {m: _parts(settings, m) for m in members}
        longest = max(len(p) for p in parts.values())
        for count in range(2, longest + 1):
            tried = {m: "/".join(p[-count:]) for m, p in parts.items()}
            if len(set(tried.values())) == len(members):
                break
        else:  # the same parts under two spellings (inside the base and outside it): the whole path
            tried = {m: Path(m).as_posix() for m in members}
        names.update(tried)
    return names


def _parts(settings: StoreSettings, folder: Path) -> list[str]:
    key = settings.key(folder)
    # The base itself has no relative parts: its absolute ones tell it from a folder below it.
    return [p for p in (key or Path(folder).as_posix()).split("/") if p]


def plan_run(settings: StoreSettings, paths: Sequence[Path], corpus: str | None) -> RunPlan:
    """Walk ``paths`` (already :func:`distinct_paths`) and assign every file its corpus.

    Args:
        settings: The store's settings.
        paths: Absolute paths of existing files and folders.
        corpus: One corpus for every file, or ``None`` for the rules of the module docstring.

    Returns:
        The run's files, skipped files, scopes, corpus roots and unreadable folders.
    """
    found: dict[str, tuple[SourceFile, Path, str, str]] = {}  # key -> (source, corpus folder, read_as, within)
    first_root = ""  # a named corpus stands for the first path that gave it a file
    skipped: dict[str, str] = {}
    scopes: list[Scope] = []
    unreadable: list[Scope] = []
    several = len(paths) > 1
    for path in paths:
        result = walk_tree(path, settings.walk, exclude=(settings.directory,))
        root, single = result.root, result.root.is_file()
        root_key = settings.key(root)
        scopes.append(Scope(root_key, single))
        unreadable.extend(Scope(_join(root_key, folder) if folder else root_key, False) for folder in result.unreadable)
        folder = root.parent if single else root
        sphinx = SphinxSuffixes(folder)
        # Resolved once per path: the walk's files all lie within its root.
        within = os.path.realpath(root) if not single else ""
        for item in result.skipped:
            reason = item.reason
            if (item.relative.rstrip("/") if item.relative != "." else "") in result.unreadable:
                reason += "; what was indexed under it before is kept"
            skipped.setdefault(root_key if single else _join(root_key, item.relative), reason)
        for source in result.files:
            key = root_key if single else _join(root_key, source.relative)
            if key in found:
                continue
            if not found:
                first_root = root_key
            home = folder
            if not single and not several and "/" in source.relative:
                home = root / source.relative.split("/", 1)[0]  # one path: its top-level folders are corpora
            found[key] = (source, home, sphinx.read_as(source.path), within or os.path.realpath(source.path))
    if corpus is not None:
        names = {home: corpus for _, home, _, _ in found.values()}
        roots = {corpus: first_root} if found else {}
    else:
        names = corpus_names(settings, [home for _, home, _, _ in found.values()])
        roots = {name: settings.key(home) for home, name in names.items()}
    files = tuple(PlannedFile(key, source, names[home], read_as, within) for key, (source, home, read_as, within) in sorted(found.items()))
    return RunPlan(files, tuple(sorted((k, r) for k, r in skipped.items() if k not in found)), tuple(scopes), roots, tuple(unreadable),
                   corpus is not None)


def refuse_merged_folders(plan: RunPlan, stored: Mapping[str, str]) -> None:
    """Refuse a run that would add a folder to a stored corpus of the same name holding files
    of another folder, which the run leaves where they are.

    Args:
        plan: The run's plan.
        stored: ``{file key: corpus id}`` of every file in the store.

    Raises:
        InvalidInputError: Naming the corpus, a stored file of the other folder and the folder
            this run would add (nothing is written).
    """
    if plan.named:
        return  # a corpus the caller named may hold any folders: that is what naming it asks
    for key in sorted(stored):
        corpus_id = stored[key]
        root = plan.corpus_roots.get(corpus_id)
        if root is None or any(scope.holds(key) for scope in plan.scopes) or Scope(root, False).holds(key):
            continue
        raise InvalidInputError(
            f"corpus {corpus_id!r} already holds {key!r}, from another folder than {_shown(root)!r}, which this run would name "
            f"{corpus_id!r} too; name it with corpus=NAME (--corpus NAME), or index both folders in one run: folders of one name "
            "are then named by their paths", stage=_STAGE)


def index_roots(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The files and folders ``index`` was given, as absolute paths.

    Raises:
        InvalidInputError: No path, an empty or non-path item, a path that is not valid
            UTF-8 (it could not be stored or cited), or one that does not exist.
    """
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    if not items:
        raise InvalidInputError("index needs at least one path", stage=_STAGE)
    roots = []
    for item in items:
        if not isinstance(item, (str, os.PathLike)) or not os.fspath(item):
            raise InvalidInputError(f"paths must be non-empty file or folder paths, got {item!r}", stage=_STAGE)
        root = Path(os.path.abspath(os.fspath(item)))
        try:
            os.fspath(root).encode("utf-8")
        except UnicodeEncodeError:
            shown = os.fsencode(root).decode("utf-8", "backslashreplace")
            raise InvalidInputError(f"cannot index {shown!r}: its path is not valid UTF-8, so it cannot be stored or cited; rename it", stage=_STAGE) from None
        if not root.exists():
            raise InvalidInputError(f"cannot index {os.fspath(item)!r}: no such file or folder", stage=_STAGE)
        roots.append(root)
    return roots
