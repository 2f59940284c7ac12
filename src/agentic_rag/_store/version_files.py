"""Files named by a version that a query names: a release note's own page.

A folder of release notes names its files by version (``3_6_12.html``, ``2.2.13.txt``,
``v1.4.md``), and a question about one release names it ("the 3.6.12 shell ..."). Version
numbers are poor words for BM25 (their parts, "3", "6", "12", stand in every release's
notes), so in the user's other words the release's own page can miss the first stage while
later releases that restate its notes fill it. An agent with grep opens the file of that name
first; :func:`versioned_paths` finds those files, and the store's first stage adds their best
chunks for the query to the candidates the second stage reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from agentic_rag._regex import lazy_regex

__all__ = ["VERSION_FILE_HITS", "asked_versions", "name_version", "versioned_paths", "with_version_files"]

# A version in running text: two to four dotted numbers, not part of a longer dotted run or
# word ("3.6.12", "v2.2"; not "3.6.12.1.5", not "1.5x"). A four-part address ("10.0.0.1")
# reads as one too; it names a file only where a file is named so.
_ASKED = lazy_regex(r"(?<![\w.])v?(\d{1,4}(?:\.\d{1,4}){1,3})(?![\w.]*\d|[A-Za-z_])")
# A file stem that is a version, with at most a short word before it ("3_6_12", "2.2.13",
# "v1.4", "release-5.0", "changes_2.1"); the extension is taken off before matching.
_NAMED = lazy_regex(r"(?:[A-Za-z]{1,12}[-_ ]?)?v?(\d{1,4}(?:[._-]\d{1,4}){1,3})")
#: Chunks of the files named by a version the query names that join the first stage's candidates.
VERSION_FILE_HITS = 3
_Hit = TypeVar("_Hit")
_PARTS = lazy_regex(r"\d+")
# A question asking which release did something ("Which 1.7.x release closed that hole?",
# "since when"): the version it names is where it starts from, not the page that answers.
_ASKS_RELEASE = lazy_regex(r"\b(?:which|what)\s+(?:[\w.-]+\s+){0,3}?(?:versions?|releases?)\b|\bsince\s+when\b", re.IGNORECASE)


def _key(version: str) -> tuple[int, ...]:
    """A version's numbers without trailing zeros past the second ("3.35.0" = "3.35")."""
    numbers = [int(part) for part in _PARTS.findall(version)]
    while len(numbers) > 2 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def asked_versions(query: str) -> frozenset[tuple[int, ...]]:
    """The versions ``query`` names, as comparable keys; empty when it names none or asks
    which release did something (the answer is another release's page)."""
    if _ASKS_RELEASE.search(query):
        return frozenset()
    return frozenset(_key(match.group(1)) for match in _ASKED.finditer(query))


def name_version(path: str) -> tuple[int, ...] | None:
    """The version a file's name is (``docs/releases/3_6_12.html`` -> (3, 6, 12)), or None."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0] if "." in name and not name.rsplit(".", 1)[1].isdigit() else name
    match = _NAMED.fullmatch(stem)
    return _key(match.group(1)) if match is not None else None


def versioned_paths(query: str, paths: Iterable[str]) -> list[str]:
    """Of ``paths``, sorted, those whose file name is a version ``query`` names."""
    wanted = asked_versions(query)
    if not wanted:
        return []
    return sorted(path for path in paths if name_version(path) in wanted)


def with_version_files(hits: Sequence[_Hit], query: str, paths: Callable[[], Iterable[str]],
                       search_in: Callable[[list[str]], Sequence[_Hit]]) -> list[_Hit]:
    """``hits`` followed by the best chunks for ``query`` of the files named by a version it
    names that ``hits`` lack (the same hits when it names none).

    Args:
        hits: The first stage's hits (objects with ``document_id``).
        query: The query.
        paths: The store's file paths that may be searched (called only for a query naming a version).
        search_in: Searches ``query`` within the given paths.
    """
    if not asked_versions(query):
        return list(hits)
    named = versioned_paths(query, paths())
    if not named:
        return list(hits)
    seen = {hit.document_id for hit in hits}  # type: ignore[attr-defined]
    return [*hits, *(hit for hit in search_in(named) if hit.document_id not in seen)]  # type: ignore[attr-defined]
