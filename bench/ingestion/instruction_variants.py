"""Obfuscated variants of injection phrasings, made by program from base phrasings.

An attacker hides a sentence addressed to a model from a word filter without changing what a
model reads: invisible format characters inside words, letters of another script that look
like Latin ones, full-width forms, a sentence wrapped in backticks, odd capitals. Each
function here applies one disguise to a base phrasing; :func:`variants` applies all that fit.
The base phrasings are written by hand (``tests/data/instructions_*.json``); the disguises are
not, so the held-out figure covers them without anyone having written them out.
"""

from __future__ import annotations

from collections.abc import Callable

# Invisible characters a browser or a terminal shows as nothing (format characters, category
# Cf, and the combining grapheme joiner), cycled through so every one is tried.
INVISIBLE = ("\u200b", "\u2063", "\u2062", "\u180e", "\u034f", "\u2060", "\u00ad", "\U000e0041", "\u2064", "\ufeff")

# Latin letters and a letter of another script drawn alike (Unicode's confusables data).
HOMOGLYPHS = {
    "a": "\u0430", "c": "\u0441", "e": "\u0435", "i": "\u0456", "o": "\u043e", "p": "\u0440", "x": "\u0445", "y": "\u0443",
    "s": "\u0455", "j": "\u0458", "A": "\u0391", "B": "\u0392", "E": "\u0395", "H": "\u0397", "I": "\u0399", "K": "\u039a",
    "M": "\u039c", "N": "\u039d", "O": "\u039f", "P": "\u03a1", "T": "\u03a4", "X": "\u03a7", "Y": "\u03a5", "S": "\u0405",
}


def _words_of_four(text: str, change: Callable[[str, int], str]) -> str:
    out, count = [], 0
    for word in text.split(" "):
        if len(word) >= 4 and word.isalpha():
            word = change(word, count)
            count += 1
        out.append(word)
    return " ".join(out)


def invisible(text: str) -> str:
    """An invisible character in the middle of every word of four letters or more."""
    return _words_of_four(text, lambda w, n: w[: len(w) // 2] + INVISIBLE[n % len(INVISIBLE)] + w[len(w) // 2:])


def homoglyphs(text: str) -> str:
    """Every Latin letter that has a look-alike in Cyrillic or Greek replaced by it."""
    return "".join(HOMOGLYPHS.get(ch, ch) for ch in text)


def mixed_homoglyphs(text: str) -> str:
    """Every other replaceable letter swapped, so each word mixes two scripts."""
    out, n = [], 0
    for ch in text:
        if ch in HOMOGLYPHS:
            n += 1
            out.append(HOMOGLYPHS[ch] if n % 2 else ch)
        else:
            out.append(ch)
    return "".join(out)


def full_width(text: str) -> str:
    """ASCII letters, digits and punctuation in their full-width forms."""
    return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text)


def backticks(text: str) -> str:
    """The whole sentence as inline code (each line, for a multi-line phrasing)."""
    return "\n".join(f"`{line}`" if line.strip() else line for line in text.split("\n"))


def upper(text: str) -> str:
    """All capitals."""
    return text.upper()


DISGUISES: dict[str, Callable[[str], str]] = {
    "invisible": invisible, "homoglyphs": homoglyphs, "mixed-homoglyphs": mixed_homoglyphs, "full-width": full_width,
    "backticks": backticks, "upper": upper,
}
# Disguises that only make sense for text written in Latin letters.
_LATIN_ONLY = ("homoglyphs", "mixed-homoglyphs", "full-width")


def variants(language: str, text: str) -> list[tuple[str, str]]:
    """``(disguise, text)`` for each disguise that changes ``text``, in :data:`DISGUISES` order.

    Args:
        language: The phrasing's language code (``"en"``, ``"zh"``...).
        text: The base phrasing.
    """
    latin = language not in ("ru", "zh", "ja", "ko")
    out = []
    for name, disguise in DISGUISES.items():
        if name in _LATIN_ONLY and not latin:
            continue
        changed = disguise(text)
        if changed != text:
            out.append((name, changed))
    return out
