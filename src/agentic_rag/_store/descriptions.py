"""Generated corpus descriptions: the folder's name, its files' titles and its most distinctive words.

The planner routes questions to corpora by their descriptions, and an agent picks ``--corpus``
by them, so a corpus indexed without one gets ``"<name>: <n> files: <title>; <title>; ...
about <term>, <term>, ..."``. The titles say what the files are (a folder of eight manuals
under one name is described by the manuals' names, which its most frequent words need not
name): a file's title when it names the file (it shares a word with the file's path and is
not the title of several files, as a man page's ``NAME`` is), else the file's name when it is
a word; shallow files first, as many as fit, never a generated site's index, search or
copyright page. A corpus of 20 files or more whose files stand in two or more sub-folders,
three or more a folder, names its biggest
sub-folders with their file counts first (``library/ (317), c-api/ (64)``), and then only the
titles of the files beside them. Each file contributes its most
frequent content words with their counts (:func:`file_terms`, kept in the ``files`` table so a
re-index never re-reads unchanged files); a word scores ``its count summed over the corpus's
files x ln(1 + all files / files listing it)``, so words frequent in this corpus and rare
elsewhere come first. The result
depends only on the store's content: ties go to the alphabetically first word. Words longer
than 40 letters are not words (a hash, a hostile one-word file) and are left out, and a
description is at most 400 characters, so it stays fit to print and to send to a planner.
"""

from __future__ import annotations

import heapq
import json
import math
import re
from collections import Counter
from collections.abc import Iterable

from agentic_rag._text.stopwords import STOPWORD_LISTS

__all__ = ["describe_corpora", "file_terms", "terms_from_json", "terms_to_json"]

_WORD = re.compile(r"[^\W\d_]{3,}")
_STOP = STOPWORD_LISTS["english"] | frozenset(
    "also can could may might must one two use used uses using via within without would yes".split()
)
_FILE_TERMS = 16
_DESCRIPTION_TERMS = 8
_MAX_WORD = 40
#: Longest generated description, in characters.
MAX_DESCRIPTION_LENGTH = 400


def file_terms(text: str, limit: int = _FILE_TERMS) -> tuple[tuple[str, int], ...]:
    """A file's most frequent content words (3+ letters, no stop words) with their counts.

    Args:
        text: The file's text.
        limit: How many words to keep.

    Returns:
        ``(word, count)`` pairs, most frequent first, ties alphabetical.
    """
    counts = Counter(w for w in _WORD.findall(text.casefold()) if len(w) <= _MAX_WORD)
    for word in _STOP.intersection(counts):
        del counts[word]
    if len(counts) > limit:
        # Only words at least as frequent as the limit-th one can make the cut: sort those.
        threshold = heapq.nlargest(limit, counts.values())[-1]
        candidates = [item for item in counts.items() if item[1] >= threshold]
    else:
        candidates = list(counts.items())
    return tuple(sorted(candidates, key=lambda item: (-item[1], item[0]))[:limit])


def terms_to_json(terms: tuple[tuple[str, int], ...]) -> str:
    """Serialise :func:`file_terms` output for the ``files`` table."""
    return json.dumps([[w, c] for w, c in terms], ensure_ascii=False, separators=(",", ":"))


def terms_from_json(text: str) -> tuple[tuple[str, int], ...]:
    """The ``(word, count)`` pairs of a stored :func:`terms_to_json` value (``()`` when
    unreadable)."""
    try:
        return tuple((str(item[0]), int(item[1])) for item in json.loads(text))
    except (ValueError, TypeError, IndexError, KeyError):
        return ()


def _name_words(corpus_id: str) -> str:
    return " ".join(w for w in re.split(r"[-_\s]+", corpus_id) if w) or corpus_id


def describe_corpora(files: Iterable[tuple[str, tuple[tuple[str, int], ...]]], corpus_ids: Iterable[str],
                     titles: Iterable[tuple[str, str, str]] = ()) -> tuple[tuple[str, str], ...]:
    """Describe each corpus by its name, its files' titles and its most distinctive words.

    Args:
        files: ``(corpus id, file_terms(...) of the file)`` for every file in the store.
        corpus_ids: The corpora to describe.
        titles: ``(corpus id, path, title)`` of the files (a file's first chunk's title).

    Returns:
        ``(corpus id, description)`` pairs sorted by id.
    """
    listing: dict[str, Counter[str]] = {}
    sizes: Counter[str] = Counter()
    everywhere: Counter[str] = Counter()
    total = 0
    for corpus_id, terms in files:
        listing.setdefault(corpus_id, Counter()).update(dict(terms))
        sizes[corpus_id] += 1
        everywhere.update(word for word, _ in terms)
        total += 1
    named: dict[str, list[tuple[str, str]]] = {}
    for corpus_id, path, title in titles:
        named.setdefault(corpus_id, []).append((path, title))
    out = []
    for corpus_id in sorted(set(corpus_ids)):
        counts = listing.get(corpus_id, Counter())
        ranked = sorted(counts.items(), key=lambda item: (-item[1] * math.log(1.0 + total / everywhere[item[0]]), item[0]))
        top = [word for word, _ in ranked[:_DESCRIPTION_TERMS]]
        size = sizes[corpus_id]
        head = f"{_name_words(corpus_id)}: {size} file{'' if size == 1 else 's'}"
        folders, level = _folders(named.get(corpus_id, []))
        shown = "; ".join(part for part in (folders, _file_names(named.get(corpus_id, []), level)) if part)
        if shown:
            head = f"{head}: {shown};"
        out.append((corpus_id, _bounded(f"{head} about {', '.join(top)}" if top else head.rstrip(";"))))
    return tuple(out)


#: Most characters of the titles in a description, and of one title.
_TITLES_CHARS = 200
_TITLE_CHARS = 60
# Files every project has: their names say nothing of what a folder is about.
_PROJECT_FILES = frozenset("authors changelog changes contributing copying history index install license news notice readme".split())
# A generated site's index, search and legal pages ("genindex-A", "py-modindex"): a manual's
# shallowest files, they crowded out its subjects.
_SITE_PAGES = re.compile(r"genindex(?:[-_].*)?|(?:py-?)?modindex|search|contents|copyright", re.I)
_PATH_WORD = re.compile(r"[^\W_]+")
#: Most sub-folders a description names, and the fewest files of a corpus that names them.
_FOLDERS = 6
_FOLDERED_FILES = 20


def _folders(files: list[tuple[str, str]]) -> tuple[str, int | None]:
    """The corpus's biggest sub-folders with their file counts (``library/ (296)``), when its
    files are spread over two or more: a manual's folders say what it covers better than the
    few shallow pages its titles would list. Also the depth (slashes in a path) of the files
    beside those folders, whose titles are then the only ones listed (``None``: no folders)."""
    paths = [path for path, _ in files]
    if len(paths) < 2:
        return "", None
    parts = [path.split("/") for path in paths]
    depth = 0
    while True:
        counts = Counter(p[depth] for p in parts if len(p) > depth + 1)
        if len(counts) != 1:
            break
        # One folder holds every file below this level (the corpus's own, or a project's
        # docs/ beside its README): its sub-folders are the ones to name.
        (only,) = counts
        parts = [p for p in parts if len(p) > depth + 1 and p[depth] == only]
        depth += 1
    if len(counts) < 2 or len(paths) < _FOLDERED_FILES or sum(counts.values()) < 3 * len(counts):
        # A few files, or a folder a file (a package's one manual): the titles say more.
        return "", None
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    shown = [f"{name}/ ({count})" for name, count in ranked[:_FOLDERS]]
    return ", ".join(shown + (["\u2026"] if len(ranked) > _FOLDERS else [])), depth


def _file_names(files: list[tuple[str, str]], level: int | None = None) -> str:
    """What the files are, as a reader names them: titles that name their file, else file
    names that are words; shallow files first (a folder's own pages), then by path; with
    ``level``, only files at most that deep (the sub-folders are named instead)."""
    if level is not None:
        files = [item for item in files if item[0].count("/") <= level]
    seen = Counter(" ".join(title.split(" \u203a ", 1)[0].casefold().split()) for _, title in files)
    names: list[str] = []
    used = 0
    known: set[str] = set()
    for path, title in sorted(files, key=lambda item: (item[0].count("/"), item[0])):
        name = _file_name(path, " ".join(title.split(" \u203a ", 1)[0].split()), seen)
        if not name or name.casefold() in known:
            continue
        if used + len(name) + 2 > _TITLES_CHARS:
            names.append("\u2026")
            break
        known.add(name.casefold())
        names.append(name)
        used += len(name) + 2
    return "; ".join(names)


def _file_name(path: str, title: str, seen: Counter[str]) -> str:
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if stem.casefold() in _PROJECT_FILES or _SITE_PAGES.fullmatch(stem):
        return ""
    words = {w for w in _PATH_WORD.findall(path.casefold()) if len(w) > 1}
    if title and seen[title.casefold()] == 1 and words.intersection(_PATH_WORD.findall(title.casefold())):
        return title if len(title) <= _TITLE_CHARS else title[:_TITLE_CHARS - 1].rsplit(" ", 1)[0] + "\u2026"
    # A file name that is a word or words ("fontconfig-user"), not a number or a version.
    return stem if sum(ch.isalpha() for ch in stem) >= 3 and len(stem) <= _TITLE_CHARS else ""


def _bounded(description: str) -> str:
    if len(description) <= MAX_DESCRIPTION_LENGTH:
        return description
    cut = description[:MAX_DESCRIPTION_LENGTH - 3]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(",:") + "..."
