"""Which loader reads a ``.txt`` file: plain text, or reStructuredText that is named ``.txt``.

Sphinx projects such as Django's documentation keep their reStructuredText in ``.txt`` files
and say so in ``conf.py`` (``source_suffix = {".txt": "restructuredtext"}``). Two ways tell:

- :class:`SphinxSuffixes` reads ``source_suffix`` from the nearest ``conf.py`` in the file's
  folder or above it (up to the indexed root), with :mod:`ast`: the file is parsed, never
  run. The str, list and dict forms are understood; a value that is not a literal is ignored.
- :func:`looks_like_rst`, on the content, when no ``conf.py`` names the suffix: a title
  underline (or over- and underline) and a directive or explicit target (``.. note::``,
  ``.. _label:``), or at least :data:`MIN_ROLES` roles (``:ref:`x```). Measured on 656 real
  reStructuredText ``.txt`` files (Django 5.2's documentation) and 2,457 other ``.txt``
  files (licences, READMEs, change logs, Python's and vim's and CMake's text files): 510 of
  the 656 pass, and of the others only 8, all of them reStructuredText in fact (CMake's help
  fragments, docutils' licence, a docs index). One or two roles are not enough: IDLE's plain
  NEWS.txt quotes two. The files the rule misses are short release notes with nothing but a
  title, which read as plain text lose no more than their heading. The measurement is
  ``bench/ingestion/measure_ingest_rules.py``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

__all__ = ["MIN_ROLES", "SphinxSuffixes", "looks_like_rst", "source_suffixes"]

#: Roles that make a ``.txt`` file with a title underline reStructuredText without a directive.
MIN_ROLES = 3

_CONF_BYTES = 1024 * 1024  # a conf.py larger than this is not read
_READERS = {"restructuredtext": ".rst", "markdown": ".md"}
_ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1{2,}[ \t]*")
_DIRECTIVE = re.compile(r"^\.\. (?:[A-Za-z][\w-]*(?::[\w-]+)*::|_[^:\n]+:|\[[^\]\n]+\]|\|[^|\n]+\|)(?:\s|$)", re.MULTILINE)
# A role's name and each of its parts are bounded (``:py:func:`` has two parts of a few letters):
# unbounded, ``(?::[\w+-]+)*`` retries every split of a line of ``:a-:a-...`` from every colon.
# The colon comes first (then the look-behind), so the search jumps from colon to colon.
_ROLE = re.compile(r":(?<![\w`]:)[a-z][\w+-]{0,63}(?::[\w+-]{1,64}){0,3}:`[^`\n]+`")


def looks_like_rst(text: str) -> bool:
    """True when ``text`` (a ``.txt`` file) is reStructuredText by its content.

    Args:
        text: The decoded file.

    Returns:
        Whether it has a section title and a directive, an explicit target, or at least
        :data:`MIN_ROLES` roles.
    """
    if not _DIRECTIVE.search(text) and _roles(text) < MIN_ROLES:
        return False
    lines = text.split("\n")
    for above, line in zip(lines, lines[1:]):
        title = above.rstrip()
        if title and not title[0].isspace() and _ADORNMENT.fullmatch(line) and not _ADORNMENT.fullmatch(title) and len(line.rstrip()) >= len(title):
            return True
    return False


def _roles(text: str) -> int:
    """How many roles ``text`` holds, counted up to :data:`MIN_ROLES` (a role ends its name
    with ``:``` ``, so text without one holds none)."""
    if ":`" not in text:
        return 0
    count = 0
    for _ in _ROLE.finditer(text):
        count += 1
        if count >= MIN_ROLES:
            break
    return count


def source_suffixes(conf_text: str) -> dict[str, str]:
    """The file endings a Sphinx ``conf.py`` names in ``source_suffix``, with the loader
    ending each is read as (``".rst"`` or ``".md"``).

    Args:
        conf_text: The ``conf.py`` source (never executed).

    Returns:
        Lower-case ending -> loader ending; empty when ``source_suffix`` is absent, not a
        literal, or the file is not Python.
    """
    try:
        tree = ast.parse(conf_text)
    except (SyntaxError, ValueError):
        return {}
    value: object = None
    for node in tree.body:  # the last module-level assignment wins, as when Sphinx runs it
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == "source_suffix" for t in targets):
            try:
                value = ast.literal_eval(node.value)  # type: ignore[arg-type]
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                value = None
    if isinstance(value, str):
        value = {value: "restructuredtext"}
    elif isinstance(value, (list, tuple)):
        value = {suffix: "restructuredtext" for suffix in value if isinstance(suffix, str)}
    if not isinstance(value, dict):
        return {}
    return {k.lower(): _READERS[v] for k, v in value.items() if isinstance(k, str) and isinstance(v, str) and v in _READERS}


class SphinxSuffixes:
    """What the nearest Sphinx ``conf.py`` says a file is, for the files of one walk.

    Args:
        root: The indexed folder: ``conf.py`` files are looked for from a file's folder up to
            it, never above.
    """

    def __init__(self, root: Path) -> None:
        self._root = Path(root)
        self._by_folder: dict[Path, dict[str, str]] = {}

    def read_as(self, path: Path) -> str:
        """The loader ending a ``conf.py`` gives a ``.txt`` file, else ``path``'s own ending
        (a ``conf.py`` never changes how ``.md`` or ``.rst`` files are read)."""
        suffix = path.suffix.lower()
        return self._nearest(path.parent).get(suffix, suffix) if suffix == ".txt" else suffix

    def _nearest(self, folder: Path) -> dict[str, str]:
        if folder in self._by_folder:
            return self._by_folder[folder]
        conf = folder / "conf.py"
        found: dict[str, str] | None = None
        try:
            if conf.is_file():
                with open(conf, "rb") as handle:
                    found = source_suffixes(handle.read(_CONF_BYTES).decode("utf-8", "replace"))
        except OSError:
            found = None
        if found is None:  # no conf.py here: the one above decides, up to the indexed root
            found = self._nearest(folder.parent) if folder != self._root and self._root in folder.parents else {}
        self._by_folder[folder] = found
        return found
