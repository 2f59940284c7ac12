"""The Snowball English ("Porter2") stemmer, current version of the algorithm.

This implements the English stemmer as published by the Snowball project, in its
current form, which refines Porter's 1980 algorithm. Compared with the original
Porter stemmer it adds:

* a short list of exceptional whole words (``skies`` -> ``sky``, ``news`` kept, ...);
* ``Y`` marking: an initial ``y`` and a ``y`` after a vowel are consonants;
* fixed R1 starts for the prefixes ``gener``, ``commun``, ``arsen``, ``past``,
  ``univers``, ``later``, ``emerg``, ``organ`` and ``inter`` (so ``universal`` keeps
  its ``-al`` and ``internal`` no longer stems like ``intern``);
* in step 1b, special handling of ``dying``/``lying``/``tying``/``vying`` and of the
  invariant ``inning``, ``outing``, ``canning``, ``herring``, ``earring``, ``evening``,
  ``proceed``, ``exceed`` and ``succeed``, and no undoubling after a leading
  ``a``/``e``/``o`` (``added`` -> ``add``);
* step 2 ``-ogist`` -> ``-og``.

The output matches the Snowball project's English test vocabulary
(``voc.txt`` / ``output.txt``) word for word. Input is expected to be lowercase.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import InvalidInputError

__all__ = ["SnowballEnglishStemmer"]

_VOWELS = frozenset("aeiouy")
# Letters that stop a short syllable from ending a word (``Y`` is a consonant y).
_V_WXY = frozenset("aeiouywxY")
_VALID_LI = frozenset("cdeghkmnrt")
_DOUBLES = frozenset(("bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"))

# First vowel followed by a non-vowel; its end marks where R1 (or R2) starts.
_REGION = re.compile(r"[aeiouy][^aeiouy]")

_EXCEPTIONS = {
    "skis": "ski", "skies": "sky", "idly": "idl", "gently": "gentl", "ugly": "ugli",
    "early": "earli", "only": "onli", "singly": "singl", "sky": "sky", "news": "news",
    "howe": "howe", "atlas": "atlas", "cosmos": "cosmos", "bias": "bias", "andes": "andes",
}

# Words whose R1 starts after a fixed prefix, so that related words stem together.
_R1_PREFIXES = (
    "gener", "commun", "arsen", "past", "univers", "later", "emerg", "organ", "inter",
)

# Step 1b: stems (the whole word minus its suffix) that are left alone.
_EED_KEEP = frozenset(("proc", "exc", "succ"))
_ING_KEEP = frozenset(("inn", "out", "cann", "herr", "earr", "even"))

# Steps 2 to 4: suffix -> replacement. ``None`` marks suffixes with an extra condition
# handled in code. Snowball picks the longest listed suffix and, if its condition
# fails, does nothing (it never falls back to a shorter suffix).
_STEP2 = {
    "tional": "tion", "enci": "ence", "anci": "ance", "abli": "able", "entli": "ent",
    "izer": "ize", "ization": "ize", "ational": "ate", "ation": "ate", "ator": "ate",
    "alism": "al", "aliti": "al", "alli": "al", "fulness": "ful", "ousli": "ous",
    "ousness": "ous", "iveness": "ive", "iviti": "ive", "biliti": "ble", "bli": "ble",
    "ogist": "og", "ogi": None, "fulli": "ful", "lessli": "less", "li": None,
}
_STEP3 = {
    "tional": "tion", "ational": "ate", "alize": "al", "icate": "ic", "iciti": "ic",
    "ical": "ic", "ful": "", "ness": "", "ative": None,
}
_STEP4 = {
    suffix: ""
    for suffix in (
        "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
        "ism", "ate", "iti", "ous", "ive", "ize",
    )
}
_STEP4["ion"] = None

_SuffixGroups = tuple[tuple[int, frozenset[str]], ...]


def _by_length(table: dict[str, str | None]) -> _SuffixGroups:
    """Group a table's suffixes by length, longest first, for longest-match lookup."""
    lengths = sorted({len(s) for s in table}, reverse=True)
    return tuple((n, frozenset(s for s in table if len(s) == n)) for n in lengths)


_STEP2_BY_LEN = _by_length(_STEP2)
_STEP3_BY_LEN = _by_length(_STEP3)
_STEP4_BY_LEN = _by_length(_STEP4)


def _longest_suffix(word: str, groups: _SuffixGroups) -> str:
    """Return the longest suffix of ``word`` found in ``groups``, or ``""``."""
    size = len(word)
    for n, suffixes in groups:
        if n <= size and word[-n:] in suffixes:
            return word[-n:]
    return ""


def _has_vowel(text: str) -> bool:
    """Return True when ``text`` holds one of a, e, i, o, u, y (``Y`` does not count)."""
    return any(ch in _VOWELS for ch in text)


def _ends_short_syllable(word: str) -> bool:
    """Return True when ``word`` ends in a short syllable (or in ``past``).

    A short syllable is a non-vowel other than w, x or Y, preceded by a vowel, preceded
    by a non-vowel; or, at the very start of the word, a vowel then a non-vowel.
    """
    n = len(word)
    if n >= 3:
        if word[-1] not in _V_WXY and word[-2] in _VOWELS and word[-3] not in _VOWELS:
            return True
    elif n == 2 and word[1] not in _VOWELS and word[0] in _VOWELS:
        return True
    return word.endswith("past")


def _prelude(word: str) -> str:
    """Drop a leading apostrophe and mark consonant ``y`` as ``Y``."""
    if word[0] == "'":
        word = word[1:]
    if "y" not in word:
        return word
    chars = list(word)
    if chars[0] == "y":
        chars[0] = "Y"
    for i in range(1, len(chars)):
        if chars[i] == "y" and chars[i - 1] in _VOWELS:
            chars[i] = "Y"
    return "".join(chars)


def _regions(word: str) -> tuple[int, int]:
    """Return the start offsets of R1 and R2 (``len(word)`` when a region is empty)."""
    size = len(word)
    p1 = size
    for prefix in _R1_PREFIXES:
        if word.startswith(prefix):
            p1 = len(prefix)
            break
    else:
        found = _REGION.search(word)
        if found is None:
            return size, size
        p1 = found.end()
    found = _REGION.search(word, p1)
    return p1, (found.end() if found else size)


def _step1a(word: str) -> str:
    """Possessives and plurals."""
    if word[-1] == "'":
        word = word[:-3] if word.endswith("'s'") else word[:-1]
    elif word.endswith("'s"):
        word = word[:-2]
    if not word or word[-1] not in "sd":
        return word
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith(("ied", "ies")):
        return word[:-2] if len(word) > 4 else word[:-1]
    if word[-1] == "s" and not word.endswith(("us", "ss")) and _has_vowel(word[:-2]):
        return word[:-1]
    return word


def _step1b(word: str, p1: int) -> str:
    """The -eed, -ed and -ing families."""
    if word.endswith(("eedly", "ingly")):
        size = 5
    elif word.endswith("edly"):
        size = 4
    elif word.endswith(("eed", "ing")):
        size = 3
    elif word.endswith("ed"):
        size = 2
    else:
        return word
    stem = word[:-size]
    if word.endswith(("eed", "eedly")):
        if stem in _EED_KEEP:
            return word
        return stem + "ee" if len(stem) >= p1 else word
    if size == 3 and word[-1] == "g":
        if len(stem) == 2 and stem[1] == "y" and stem[0] not in _VOWELS:
            return stem[0] + "ie"
        if stem in _ING_KEEP:
            return word
    if not _has_vowel(stem):
        return word
    tail = stem[-2:]
    if tail in ("at", "bl", "iz"):
        return stem + "e"
    if tail in _DOUBLES:
        if len(stem) == 3 and stem[0] in "aeo":
            return stem
        return stem[:-1]
    if len(stem) == p1 and _ends_short_syllable(stem):
        return stem + "e"
    return stem


def _step1c(word: str) -> str:
    """Final y (or Y) after a non-vowel that is not the first letter becomes i."""
    if len(word) > 2 and word[-1] in "yY" and word[-2] not in _VOWELS:
        return word[:-1] + "i"
    return word


def _step2(word: str, p1: int) -> str:
    """Map double suffixes in R1 to single ones (-ization -> -ize, ...)."""
    suffix = _longest_suffix(word, _STEP2_BY_LEN)
    if not suffix:
        return word
    start = len(word) - len(suffix)
    if start < p1:
        return word
    replacement = _STEP2[suffix]
    if replacement is None:
        before = word[start - 1] if start else ""
        if suffix == "ogi":
            return word[:start] + "og" if before == "l" else word
        return word[:start] if before and before in _VALID_LI else word
    return word[:start] + replacement


def _step3(word: str, p1: int, p2: int) -> str:
    """Simplify -ational, -alize, -icate, -ful, -ness, -ative (in R2) and friends."""
    suffix = _longest_suffix(word, _STEP3_BY_LEN)
    if not suffix:
        return word
    start = len(word) - len(suffix)
    if start < p1:
        return word
    replacement = _STEP3[suffix]
    if replacement is None:
        return word[:start] if start >= p2 else word
    return word[:start] + replacement


def _step4(word: str, p2: int) -> str:
    """Delete a residual suffix that lies in R2 (-ion only after s or t)."""
    suffix = _longest_suffix(word, _STEP4_BY_LEN)
    if not suffix:
        return word
    start = len(word) - len(suffix)
    if start < p2:
        return word
    if suffix == "ion" and not (start and word[start - 1] in "st"):
        return word
    return word[:start]


def _step5(word: str, p1: int, p2: int) -> str:
    """Delete a final -e (in R2, or in R1 after a non-short syllable) or one l of -ll."""
    last = len(word) - 1
    if word[-1] == "e":
        if last >= p2 or (last >= p1 and not _ends_short_syllable(word[:-1])):
            return word[:-1]
    elif word[-1] == "l" and last >= p2 and word[-2] == "l":
        return word[:-1]
    return word


def _stem_word(word: str) -> str:
    """Stem one lowercase word with no caching."""
    exception = _EXCEPTIONS.get(word)
    if exception is not None:
        return exception
    if len(word) < 3:
        return word
    word = _prelude(word)
    p1, p2 = _regions(word)
    word = _step1a(word)
    if word:
        word = _step1b(word, p1)
        word = _step1c(word)
        word = _step2(word, p1)
        word = _step3(word, p1, p2)
        word = _step4(word, p2)
        word = _step5(word, p1, p2)
    return word.replace("Y", "y")


class SnowballEnglishStemmer:
    """The Snowball English (Porter2) stemmer.

    Instances hold no mutable state besides a bounded memo of recent results
    (``functools.lru_cache``, itself thread-safe), so one instance may be shared by
    any number of threads. The memo pays off when indexing: natural text repeats a
    small working set of tokens many times.

    Args:
        cache_size: Most results to memoise; ``0`` disables the memo.

    Raises:
        InvalidInputError: If ``cache_size`` is not an int >= 0.
    """

    __slots__ = ("_stem",)

    def __init__(self, cache_size: int = 65536) -> None:
        require_int(cache_size, "cache_size", minimum=0, stage="snowball")
        self._stem = lru_cache(maxsize=cache_size)(_stem_word) if cache_size else _stem_word

    def stem(self, word: str) -> str:
        """Return the Snowball English stem of one lowercase word.

        Args:
            word: A single lowercase token; words shorter than three characters come
                back unchanged unless they are listed exceptions.

        Returns:
            The stem, which need not be a dictionary word (``"generously"`` ->
            ``"generous"``, ``"skies"`` -> ``"sky"``).

        Raises:
            InvalidInputError: If ``word`` is not a ``str``.
        """
        if type(word) is not str:
            raise InvalidInputError(f"word must be a str, got {word!r}", stage="snowball")
        return self._stem(word)
