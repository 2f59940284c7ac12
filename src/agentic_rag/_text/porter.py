"""Martin Porter's original English stemmer, as in his reference implementation.

This follows the published C reference implementation rather than the 1980 paper
("An algorithm for suffix stripping", *Program* 14(3)), including its three documented
departures from the paper:

* words of length 1 or 2 are returned unchanged;
* step 2 maps ``-logi`` to ``-log``;
* step 2 maps ``-bli`` to ``-ble`` in place of the paper's ``-abli`` to ``-able``.

The output matches Porter's published test vocabulary (``voc.txt`` / ``output.txt``)
word for word. Input is assumed to be lowercase; other characters are treated as
consonants, exactly as the reference code does.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import InvalidInputError

__all__ = ["PorterStemmer"]

_VOWELS = frozenset("aeiou")

# Suffix tables: (suffix, replacement). For each step the reference code tests a fixed
# list and stops at the first suffix that matches, whether or not its condition then
# holds; in every list a longer suffix is tested before any shorter one it ends with,
# so "longest match wins, no fallback" reproduces it exactly.
_STEP2 = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize",
    "bli": "ble", "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous",
    "ization": "ize", "ation": "ate", "ator": "ate", "alism": "al", "iveness": "ive",
    "fulness": "ful", "ousness": "ous", "aliti": "al", "iviti": "ive", "biliti": "ble",
    "logi": "log",
}
_STEP3 = {
    "icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "",
    "ness": "",
}
_STEP4 = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
    "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
)


def _by_length(suffixes: Iterable[str]) -> tuple[tuple[int, frozenset[str]], ...]:
    """Group suffixes by length, longest first, for longest-match lookup."""
    pool = tuple(suffixes)
    lengths = sorted({len(s) for s in pool}, reverse=True)
    return tuple((n, frozenset(s for s in pool if len(s) == n)) for n in lengths)


_STEP2_BY_LEN = _by_length(_STEP2)
_STEP3_BY_LEN = _by_length(_STEP3)
_STEP4_BY_LEN = _by_length(_STEP4)


def _longest_suffix(word: str, groups: tuple[tuple[int, frozenset[str]], ...]) -> str:
    """Return the longest suffix of ``word`` found in ``groups``, or ``""``."""
    size = len(word)
    for n, suffixes in groups:
        if n <= size and word[-n:] in suffixes:
            return word[-n:]
    return ""


def _is_cons(word: str, i: int) -> bool:
    """Porter's consonant test: ``y`` is a consonant at the start or after a vowel."""
    ch = word[i]
    if ch in _VOWELS:
        return False
    if ch != "y":
        return True
    # A run of y's alternates consonant/vowel from whatever precedes the run; walk it
    # iteratively rather than recursing so long runs cannot exhaust the stack.
    start = i
    while start > 0 and word[start - 1] == "y":
        start -= 1
    first_is_cons = start == 0 or word[start - 1] in _VOWELS
    return first_is_cons == ((i - start) % 2 == 0)


def _measure(stem: str) -> int:
    """Return m, the number of vowel-consonant sequences in ``stem``."""
    m = 0
    prev_vowel = False
    for i, ch in enumerate(stem):
        if ch in _VOWELS:
            vowel = True
        elif ch == "y":
            # y after a consonant (and not at the start) acts as a vowel.
            vowel = i > 0 and not prev_vowel
        else:
            vowel = False
        if prev_vowel and not vowel:
            m += 1
        prev_vowel = vowel
    return m


def _has_vowel(stem: str) -> bool:
    """Return True when ``stem`` contains a vowel in Porter's sense."""
    for i, ch in enumerate(stem):
        if ch in _VOWELS or (ch == "y" and i > 0 and _is_cons(stem, i - 1)):
            return True
    return False


def _ends_cvc(stem: str) -> bool:
    """Return True when ``stem`` ends consonant-vowel-consonant, last not w, x or y."""
    i = len(stem) - 1
    if i < 2 or stem[i] in "wxy":
        return False
    return _is_cons(stem, i) and not _is_cons(stem, i - 1) and _is_cons(stem, i - 2)


def _ends_double_cons(stem: str) -> bool:
    """Return True when ``stem`` ends in a doubled consonant."""
    return len(stem) >= 2 and stem[-1] == stem[-2] and _is_cons(stem, len(stem) - 1)


def _step1ab(word: str) -> str:
    """Plurals and -ed/-ing."""
    if word[-1] == "s":
        if word.endswith("sses"):
            word = word[:-2]
        elif word.endswith("ies"):
            word = word[:-2]
        elif word[-2] != "s":
            word = word[:-1]
    if word.endswith("eed"):
        if _measure(word[:-3]) > 0:
            word = word[:-1]
        return word
    if word.endswith("ed"):
        stem = word[:-2]
    elif word.endswith("ing"):
        stem = word[:-3]
    else:
        return word
    if not _has_vowel(stem):
        return word
    if stem.endswith(("at", "bl", "iz")):
        return stem + "e"
    if _ends_double_cons(stem):
        return stem if stem[-1] in "lsz" else stem[:-1]
    if _measure(stem) == 1 and _ends_cvc(stem):
        return stem + "e"
    return stem


def _step1c(word: str) -> str:
    """Terminal y to i when there is another vowel in the stem."""
    if word[-1] == "y" and _has_vowel(word[:-1]):
        return word[:-1] + "i"
    return word


def _replace_if_m_positive(
    word: str, groups: tuple[tuple[int, frozenset[str]], ...], table: dict[str, str]
) -> str:
    """Steps 2 and 3: swap the longest listed suffix when the stem has m > 0."""
    suffix = _longest_suffix(word, groups)
    if suffix:
        stem = word[: -len(suffix)]
        if _measure(stem) > 0:
            return stem + table[suffix]
    return word


def _step4(word: str) -> str:
    """Drop a residual suffix when the stem has m > 1."""
    suffix = _longest_suffix(word, _STEP4_BY_LEN)
    if not suffix:
        return word
    stem = word[: -len(suffix)]
    if suffix == "ion" and not (stem and stem[-1] in "st"):
        return word
    return stem if _measure(stem) > 1 else word


def _step5(word: str) -> str:
    """Tidy a final -e and a final -ll."""
    if word[-1] == "e":
        stem = word[:-1]
        m = _measure(stem)
        if m > 1 or (m == 1 and not _ends_cvc(stem)):
            word = stem
    if word[-1] == "l" and _ends_double_cons(word) and _measure(word) > 1:
        word = word[:-1]
    return word


def _stem_word(word: str) -> str:
    """Stem one lowercase word with no caching."""
    if len(word) <= 2:
        return word
    word = _step1ab(word)
    if len(word) <= 1:
        return word
    word = _step1c(word)
    word = _replace_if_m_positive(word, _STEP2_BY_LEN, _STEP2)
    word = _replace_if_m_positive(word, _STEP3_BY_LEN, _STEP3)
    word = _step4(word)
    return _step5(word)


class PorterStemmer:
    """The original Porter stemmer (reference-implementation variant).

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
        require_int(cache_size, "cache_size", minimum=0, stage="porter")
        self._stem = lru_cache(maxsize=cache_size)(_stem_word) if cache_size else _stem_word

    def stem(self, word: str) -> str:
        """Return the Porter stem of one lowercase word.

        Args:
            word: A single lowercase token; words of one or two characters come back
                unchanged.

        Returns:
            The stem, which need not be a dictionary word (``"ponies"`` -> ``"poni"``).

        Raises:
            InvalidInputError: If ``word`` is not a ``str``.
        """
        if type(word) is not str:
            raise InvalidInputError(f"word must be a str, got {word!r}", stage="porter")
        return self._stem(word)
