"""Which paths a walk leaves out: ``.gitignore`` / ``.ignore`` rules and ``--exclude`` globs.

The rules follow git's pattern format (``gitignore(5)``): blank lines and ``#`` comments
match nothing, ``\\#`` and ``\\!`` escape a leading ``#`` or ``!``, trailing spaces are
dropped unless escaped, ``!`` re-includes, a trailing ``/`` matches folders only, a ``/`` at
the start or in the middle anchors the pattern to the folder of the file that holds it (else
it matches a name at any depth), ``*`` and ``?`` never match ``/``, ``[...]`` is a character
class (``!`` or ``^`` negates it, ``[:alpha:]`` and the other POSIX classes work), and ``**``
as a whole path component matches any number of folders (``**/x``, ``x/**``, ``a/**/b``). As
in git, a pattern with a ``/`` matches its leading run without wildcards as a plain prefix, so
a ``**`` right after it spans folders too (``a3**/b.md`` ignores ``a3/x/b.md``); lines end at
``\n`` only, and one trailing ``/`` is cut (``build//`` matches nothing).

Precedence is git's, with ripgrep's ``.ignore`` files on top of ``.gitignore`` in the same
folder: the repository's ``info/exclude`` is weakest, then each folder's ``.gitignore`` and
``.ignore`` from the top down, and the last rule that matches decides. A folder that is
ignored is never entered, so nothing under it can be re-included (git does the same).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from agentic_rag._errors import InvalidInputError

__all__ = ["IGNORE_FILE_NAMES", "IgnoreRule", "RuleSet", "compile_excludes", "parse_rules", "repository_rules"]

_STAGE = "ingest"

#: Files read in each folder, weakest first (ripgrep lets ``.ignore`` override ``.gitignore``).
IGNORE_FILE_NAMES: tuple[str, ...] = (".gitignore", ".ignore")

_NEVER = re.compile(r"(?!)")
_POSIX_CLASSES = {
    "alnum": "a-zA-Z0-9", "alpha": "a-zA-Z", "blank": " \\t", "cntrl": "\\x00-\\x1f\\x7f", "digit": "0-9",
    "graph": "!-~", "lower": "a-z", "print": " -~", "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    "space": " \\t\\n\\r\\f\\v", "upper": "A-Z", "xdigit": "0-9A-Fa-f",
}


@dataclass(frozen=True, slots=True)
class IgnoreRule:
    """One compiled pattern.

    Args:
        pattern: The line as written (trailing white space dropped).
        base: The folder whose file held it, relative to the rules' top and ending in ``/``
            (``""`` for the top itself); the pattern only sees paths under it.
        negated: A ``!`` rule, which re-includes what it matches.
        folders_only: A pattern with a trailing ``/``.
        regex: Matches the path relative to ``base``.
    """

    pattern: str
    base: str
    negated: bool
    folders_only: bool
    regex: re.Pattern[str]

    def matches(self, path: str, is_folder: bool) -> bool:
        """True when the rule matches ``path`` (``/``-separated, relative to the rules' top)."""
        if self.folders_only and not is_folder:
            return False
        if self.base and not path.startswith(self.base):
            return False
        return self.regex.match(path, len(self.base)) is not None


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The rules in force in one folder of a walk, weakest first.

    Args:
        rules: The compiled rules; the last one that matches a path decides.
    """

    rules: tuple[IgnoreRule, ...] = ()

    def ignores(self, path: str, is_folder: bool) -> bool:
        """True when ``path`` (relative to the rules' top, ``/``-separated) is ignored."""
        for rule in reversed(self.rules):
            if rule.matches(path, is_folder):
                return not rule.negated
        return False

    def with_folder(self, folder: str | os.PathLike[str], base: str) -> RuleSet:
        """These rules plus those of the ignore files in ``folder`` (``base`` is its path
        relative to the rules' top, ending in ``/``, or ``""``); unreadable files add none."""
        added: list[IgnoreRule] = []
        for name in IGNORE_FILE_NAMES:
            added.extend(parse_rules(_read(Path(folder) / name), base))
        return RuleSet(self.rules + tuple(added)) if added else self


def _read(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8-sig", "replace")
    except OSError:
        return ""  # no such file, or unreadable: it contributes no rule (as with git)


def parse_rules(text: str, base: str = "") -> tuple[IgnoreRule, ...]:
    """Compile the lines of an ignore file.

    Args:
        text: The file's content.
        base: Where the file's folder is, relative to the rules' top (``""`` or ending in ``/``).

    Returns:
        One rule per pattern line, in file order (comments and blank lines give none).
    """
    rules = []
    # Lines end at "\n" only, as git reads them (a "\r" before it dropped): a form feed,
    # U+0085 or U+2028, which ``str.splitlines`` also breaks at, is part of a pattern.
    for line in text.split("\n"):
        rule = _rule(line[:-1] if line.endswith("\r") else line, base)
        if rule is not None:
            rules.append(rule)
    return tuple(rules)


def compile_excludes(globs: tuple[str, ...]) -> tuple[IgnoreRule, ...]:
    """Compile ``--exclude`` globs: gitignore patterns relative to the indexed folder, never
    comments and never re-including.

    Raises:
        InvalidInputError: A blank glob, or one starting with ``!`` (an exclusion cannot
            re-include; write ``\\!`` for a literal ``!``).
    """
    rules = []
    for glob in globs:
        if not isinstance(glob, str) or not glob.strip():
            raise InvalidInputError(f"an exclude glob must be a non-blank string, got {glob!r}", stage=_STAGE)
        if glob.startswith("!"):
            raise InvalidInputError(f"exclude glob {glob!r} starts with '!': an exclusion cannot re-include; write '\\!' for a literal '!'", stage=_STAGE)
        rule = _rule(glob.replace("#", "\\#", 1) if glob.startswith("#") else glob, "")
        if rule is None:
            raise InvalidInputError(f"exclude glob {glob!r} matches nothing", stage=_STAGE)
        rules.append(rule)
    return tuple(rules)


def _trailing_spaces_cut(line: str) -> str:
    """``line`` without its trailing spaces, unless the first of them is escaped (git's
    ``trim_trailing_spaces``: a backslash escapes the character after it, a backslash included)."""
    last_space = -1
    i = 0
    while i < len(line):
        char = line[i]
        if char == " ":
            if last_space < 0:
                last_space = i
        else:
            if char == "\\":
                i += 1
                if i >= len(line):
                    return line
            last_space = -1
        i += 1
    return line[:last_space] if last_space >= 0 else line


def _rule(line: str, base: str) -> IgnoreRule | None:
    if line.startswith("#"):
        return None
    line = _trailing_spaces_cut(line)
    negated = line.startswith("!")
    body = line[1:] if negated else line
    # One trailing "/" means folders only; what is left is the pattern, so "build//" is the
    # pattern "build/", which no path matches (as in git), not "build".
    folders_only = body.endswith("/")
    body = body[:-1] if folders_only else body
    if not body:
        return None
    anchored = "/" in body
    body = body[1:] if body.startswith("/") else body
    regex = _glob_regex(body, anchored)
    return IgnoreRule(line, base, negated, folders_only, regex)


def _glob_regex(body: str, anchored: bool) -> re.Pattern[str]:
    literal = ""
    if anchored:
        # git compares a pattern's leading run without wildcards as a plain prefix and matches
        # only the rest as a glob, where a "**" that opens it is a whole component: so
        # "a3**/b.md" is "a3", then any folders, then "b.md" (a3/x/b.md, a3x/b.md, a3b.md).
        cut = next((i for i, char in enumerate(body) if char in "*?[\\"), len(body))
        literal, body = body[:cut], body[cut:]
        if not body:
            return re.compile(re.escape(literal) + r"\Z", re.DOTALL)
    parts = body.split("/")
    out: list[str] = [re.escape(literal)]
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if part == "**":
            if len(parts) == 1:
                out.append(".*")
            elif last:
                out.append(".+")  # "abc/**": everything inside abc, not abc itself
            else:
                out.append("(?:.*/)?")  # "**/x", "a/**/b": zero or more folders
            continue
        translated = _component(part)
        if translated is None:
            return _NEVER  # an unterminated class or a trailing backslash: git matches nothing
        out.append(translated + ("" if last else "/"))
    prefix = "" if anchored else "(?:.*/)?"
    return re.compile(prefix + "".join(out) + r"\Z", re.DOTALL)


def _component(part: str) -> str | None:
    out: list[str] = []
    i = 0
    while i < len(part):
        char = part[i]
        if char == "\\":
            if i + 1 >= len(part):
                return None
            out.append(re.escape(part[i + 1]))
            i += 2
        elif char == "*":
            while i < len(part) and part[i] == "*":
                i += 1  # "**" inside a component is an ordinary "*"
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
            i += 1
        elif char == "[":
            parsed = _bracket(part, i)
            if parsed is None:
                return None
            klass, i = parsed
            out.append(klass)
        else:
            out.append(re.escape(char))
            i += 1
    return "".join(out)


def _bracket(part: str, start: int) -> tuple[str, int] | None:
    """Translate the class opening at ``part[start]``; ``(regex, index after it)``."""
    i = start + 1
    negated = i < len(part) and part[i] in "!^"
    i += negated
    items: list[str] = []
    first = True
    while i < len(part):
        char = part[i]
        if char == "]" and not first:
            body = "".join(items)
            return (f"[^/{body}]" if negated else f"(?!/)[{body}]"), i + 1
        first = False
        if char == "[" and part.startswith("[:", i):
            close = part.find(":]", i + 2)
            name = part[i + 2:close] if close != -1 else ""
            if name not in _POSIX_CLASSES:
                return None
            items.append(_POSIX_CLASSES[name])
            i = close + 2
            continue
        if char == "\\":
            if i + 1 >= len(part):
                return None
            char = part[i + 1]
            i += 1
        if i + 2 < len(part) and part[i + 1] == "-" and part[i + 2] != "]":
            high = part[i + 2]
            if high < char:
                return None  # a reversed range matches nothing
            items.append(f"{_class_char(char)}-{_class_char(high)}")
            i += 3
            continue
        items.append(_class_char(char))
        i += 1
    return None


def _class_char(char: str) -> str:
    return "\\" + char if char in "\\]^-[" else char


def repository_rules(top: Path) -> tuple[RuleSet, str]:
    """The rules in force at ``top`` before its own ignore files are read.

    When ``top`` is inside a git repository (a folder above it, or ``top`` itself, holds a
    ``.git`` folder or file), the repository's ``info/exclude`` and the ignore files of the
    folders from the repository's top down to ``top``'s parent; otherwise none.

    Args:
        top: The walked folder (absolute).

    Returns:
        The rule set, and ``top``'s path relative to the rules' top (``""`` or ending in
        ``/``): the prefix of every path the walk matches against them.
    """
    root = _repository_top(top)
    if root is None:
        return RuleSet(), ""
    rules = RuleSet(parse_rules(_read(_git_dir(root) / "info" / "exclude")))
    relative = Path(os.path.relpath(top, root)).as_posix()
    if relative == ".":
        return rules, ""
    folder, base = root, ""
    for name in relative.split("/"):
        rules = rules.with_folder(folder, base)
        folder, base = folder / name, base + name + "/"
    return rules, base


def _repository_top(top: Path) -> Path | None:
    for folder in (top, *top.parents):
        if (folder / ".git").exists():
            return folder
    return None


def _git_dir(root: Path) -> Path:
    """The repository's common git folder: ``.git`` itself, or for a linked worktree or a
    submodule (a ``.git`` file saying ``gitdir: PATH``) the folder it names, and then its
    ``commondir`` when it has one."""
    dot_git = root / ".git"
    if dot_git.is_dir():
        return dot_git
    # As git reads both files: "gitdir: " then the path, and only line ends cut from the end
    # (a path may end in a space or a form feed).
    text = _without_line_ends(_read(dot_git))
    if not text.startswith("gitdir: "):
        return dot_git
    git_dir = (root / text[len("gitdir: "):]).resolve()
    common = _without_line_ends(_read(git_dir / "commondir"))
    return (git_dir / common).resolve() if common else git_dir


def _without_line_ends(text: str) -> str:
    return text.rstrip("\r\n")
