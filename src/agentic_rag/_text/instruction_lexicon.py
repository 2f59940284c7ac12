"""Kinds of cue words, in many languages, read from a sentence's words in one pass.

:mod:`agentic_rag._text.instruction_scorer` weighs a sentence's own words, which it can only
have learnt in the languages and wordings of its training phrasings, and these kinds, which
carry what it learnt to words of the same kind it never saw ("ignore" taught it what
"zignoruj" and "αγνόησε" are). Each kind is a word list: an entry is a word, a word beginning
(ending in ``*``), a phrase of words joined by ``_`` (matched on the sentence's words in order;
its last word may be a beginning) or a run of a script written without spaces (Chinese,
Japanese, Korean, Thai: matched as a substring, a ``_`` standing for a space or none). An entry
is split into words as a sentence is (apostrophes, hyphens and the vowel signs of Indic
scripts part words), so it is written as the language is.

* ``override-verb``: dropping or no longer obeying something;
* ``orders``: a noun for what a model was told (instructions, guidance, directives, rules);
* ``before``: placing it before ("previous", "above", "so far") or giving it to the reader;
* ``output-verb``: telling a reader what to say or write (say, answer, reply, describe);
* ``answer-noun``: what a model produces (an answer, a summary, a translation, a rating);
* ``model``: naming a model, an assistant or an automated reader as such;
* ``persona``: changing who the reader is or having it pretend ("act as", "developer mode");
* ``every``: making a rule general (always, every, any, whatever, only);
* ``user``: the person being served (the user, the customer, the reader);
* ``secret``: what a model must not reveal or hand over (system prompt, password, history);
* ``tool``: a model acting for the user (tools, forwarding, "on the user's behalf", silently);
* ``you``: the reader addressed ("you", "your").
"""

from __future__ import annotations

from functools import lru_cache

from pathlib import Path

from agentic_rag._pycache import derived
from agentic_rag._regex import lazy_regex

__all__ = ["KINDS", "TOKEN", "WORDS_FILE", "lexicon_kinds"]

WORDS_FILE = Path(__file__).with_name("instruction_words.txt")


def _read_kinds(path: Path) -> dict[str, str]:
    """The word lists by kind: a line ``[kind]`` opens a kind; ``#`` lines are comments."""
    kinds: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = kinds.setdefault(line[1:-1], [])
        elif current is not None:
            current.append(line)
    return {kind: "\n".join(lines) for kind, lines in kinds.items()}


#: The entry lists by kind, read from :data:`WORDS_FILE`.
KINDS: dict[str, str] = _read_kinds(WORDS_FILE)

# A word: letters and digits with the marks that sit on them (Indic vowel signs, Thai and
# Hebrew marks, Arabic vowels); an identifier's underscores split it. Sentences and entries
# are split by this one pattern.
TOKEN = lazy_regex(r"(?:[^\W_]|[\u0300-\u036f\u0591-\u05c7\u064b-\u065f\u0900-\u0dff\u0e00-\u0eff])+")
# Scripts written without spaces: an entry of them is looked for as a substring.
# One character class, so the check is one scan of the entry (the lexicon is read at import,
# which every cold search pays).
_UNSPACED = lazy_regex("[\u0e00-\u0eff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
# Spellings a casefolded text may hold for the same word: Romanian s and t with a cedilla as
# well as a comma, and Turkish capital I folded to a dotted i.
_VARIANTS = (str.maketrans("șț", "şţ"), str.maketrans("ı", "i"))
_VARIANT_LETTERS = frozenset("șțı")


def _unspaced(entry: str) -> bool:
    return not entry.isascii() and _UNSPACED.search(entry) is not None


def _forms(entry: str) -> set[str]:
    """The entry as written and casefolded (Greek final sigma, German sharp s), and its variants."""
    forms = {entry, entry.casefold()}
    if entry.isascii() or all(_VARIANT_LETTERS.isdisjoint(form) for form in forms):
        return forms  # the variant tables map only these few letters
    return forms | {form.translate(table) for form in forms for table in _VARIANTS}


_Tables = tuple[
    dict[str, set[str]],  # a word: its kinds
    dict[str, set[str]],  # a word beginning: its kinds
    # a phrase by its first word: the words after it, whether its last word is a beginning, its kind
    dict[str, set[tuple[tuple[str, ...], bool, str]]],
    dict[str, set[tuple[str, str]]],  # a run by its first character: the run and its kind
]


def _build_tables() -> _Tables:
    exact: dict[str, set[str]] = {}
    stems: dict[str, set[str]] = {}
    phrases: dict[str, set[tuple[tuple[str, ...], bool, str]]] = {}
    runs: dict[str, set[tuple[str, str]]] = {}
    for kind, entries in KINDS.items():
        for form in (form for entry in entries.split() for form in _forms(entry)):
            if _unspaced(form):
                run = form.rstrip("*")
                for joined in (run.replace("_", " "), run.replace("_", "")):
                    runs.setdefault(joined[0], set()).add((joined, kind))
                continue
            stem = form.endswith("*")
            # Most entries are one word of letters: the word itself, as TOKEN would read it (a
            # string of letters and digits is one TOKEN match), without a regex call per entry.
            core = form[:-1] if stem else form
            parts = (core,) if core.isalnum() else tuple(TOKEN.findall(form))
            if len(parts) == 1:
                (stems if stem else exact).setdefault(parts[0], set()).add(kind)
            elif parts:
                phrases.setdefault(parts[0], set()).add((parts[1:], stem, kind))
    return exact, stems, phrases, runs


# Built from the word lists once, and kept between processes (every cold search reads them).
_EXACT, _STEMS, _PHRASES, _RUNS = derived("instruction_lexicon", (WORDS_FILE, Path(__file__)), _build_tables)
_STEM_LENGTHS = tuple(sorted({len(s) for s in _STEMS}))


@lru_cache(maxsize=65536)
def _word_kinds(word: str) -> frozenset[str]:
    # Words repeat across a text's sentences: each is looked up (as a word and by each
    # beginning length) once.
    kinds = set(_EXACT.get(word, ()))
    for length in _STEM_LENGTHS:
        if len(word) < length:
            break
        kinds.update(_STEMS.get(word[:length], ()))
    return frozenset(kinds)


def _phrase_at(words: list[str], start: int, rest: tuple[str, ...], stem: bool) -> bool:
    tail = words[start:start + len(rest)]
    if len(tail) < len(rest) or tuple(tail[:-1]) != rest[:-1]:
        return False
    return tail[-1].startswith(rest[-1]) if stem else tail[-1] == rest[-1]


def lexicon_kinds(words: list[str], sentence: str) -> set[str]:
    """The kinds (``"k:override-verb"``...) whose entries stand in a sentence.

    Args:
        words: The sentence's words, casefolded, in order.
        sentence: The casefolded sentence (for runs of scripts written without spaces).
    """
    found: set[str] = set()
    for word in set(words):
        found.update(_word_kinds(word))
    for n, word in enumerate(words):
        for rest, stem, kind in _PHRASES.get(word, ()):
            if kind not in found and _phrase_at(words, n + 1, rest, stem):
                found.add(kind)
    if not sentence.isascii():
        for char in set(sentence).intersection(_RUNS):
            found.update(kind for run, kind in _RUNS[char] if kind not in found and run in sentence)
    return {f"k:{kind}" for kind in found}
