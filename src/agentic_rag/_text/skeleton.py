"""Text as a reader sees it: invisible characters removed, look-alike letters folded.

A word filter reads code points; a model and a person read shapes. ``Ig\\u2063nore`` and
``іgnоrе`` (Cyrillic і, о, е) read as "ignore" to both, and match nothing written in Latin
letters. :func:`visible_text` removes what is never drawn: every format character (Unicode
category Cf: zero-width spaces and joiners, invisible operators U+2061-U+2064, the Mongolian
vowel separator U+180E, the tag characters U+E0000-U+E007F, the byte order mark) and the
combining grapheme joiner U+034F and variation selectors (category Mn, but drawn as nothing).
:func:`skeleton` then maps each letter to the Latin letter it is drawn like, in the manner of
the skeleton of Unicode Technical Standard #39 (confusable detection), with a table written
here from the standard's confusables data for the scripts attackers use (Cyrillic, Greek,
Armenian, Cherokee, Latin small capitals and look-alike Latin letters). Accented letters are
kept (French and German phrasings are matched with their accents); full-width and
mathematical letters are already folded by NFKC.

The skeleton is for matching only: it turns Russian or Greek words into Latin nonsense, so a
matcher tries both the visible text and its skeleton.
"""

from __future__ import annotations

import re
import unicodedata

from agentic_rag._text.term_weights import bounded_cache

__all__ = ["hidden_tag_text", "skeleton", "visible_text"]

# Drawn as nothing although not of category Cf: the combining grapheme joiner, the variation
# selectors and the Hangul fillers.
_NOT_DRAWN = frozenset({0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)})

# Letter -> the Latin letter it is drawn like (case kept: an upper-case Greek eta is an H, the
# lower-case one an n).
_LOOK_ALIKES = {
    # Cyrillic
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "һ": "h", "і": "i", "ј": "j", "к": "k", "ӏ": "l", "м": "m", "о": "o",
    "р": "p", "ԛ": "q", "г": "r", "ѕ": "s", "т": "t", "ѵ": "v", "ԝ": "w", "х": "x", "у": "y", "ү": "y",
    "А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "І": "I", "Ј": "J", "К": "K", "М": "M", "О": "O", "Р": "P",
    "Ԛ": "Q", "Ѕ": "S", "Т": "T", "Ԝ": "W", "Х": "X", "Ү": "Y", "Ӏ": "I", "Ԍ": "G",
    # Greek
    "α": "a", "ϲ": "c", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y",
    "Α": "A", "Β": "B", "Ϲ": "C", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϳ": "J",
    # Armenian
    "օ": "o", "ս": "u", "ց": "g", "հ": "h", "ո": "n", "ռ": "n", "զ": "q", "ա": "w", "Տ": "S", "Օ": "O", "Ս": "U",
    # Cherokee capitals
    "Ꭺ": "A", "Ᏼ": "B", "Ꮯ": "C", "Ꭰ": "D", "Ꭼ": "E", "Ꮐ": "G", "Ꮋ": "H", "Ꮖ": "I", "Ꭻ": "J", "Ꮶ": "K", "Ꮮ": "L",
    "Ꮇ": "M", "Ꮲ": "P", "Ꮪ": "S", "Ꭲ": "T", "Ꮩ": "V", "Ꮃ": "W", "Ꮓ": "Z",
    # Latin small capitals and other look-alike Latin letters
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ɢ": "g", "ʜ": "h", "ɪ": "i", "ᴊ": "j", "ᴋ": "k", "ʟ": "l",
    "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ʀ": "r", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y",
    "ᴢ": "z", "ı": "i", "ȷ": "j", "ɑ": "a", "ɡ": "g", "ɩ": "i", "ℯ": "e", "℮": "e", "ǀ": "l", "ø": "o", "ð": "d",
}
_FOLD = str.maketrans(_LOOK_ALIKES)
# Characters known to be drawn (a cache of visible_text's lookups, emptied when it grows past
# _DRAWN_LIMIT: every character of Unicode would take tens of megabytes).
_DRAWN: set[str] = set()
_DRAWN_LIMIT = 100_000
_TAGS = re.compile("[\U000e0020-\U000e007e]{4,}")


def visible_text(text: str) -> str:
    """``text`` in NFKC with every character that is drawn as nothing removed (see the module
    docstring); ASCII text is returned as it is."""
    return text if text.isascii() else _visible(text)


def _visible_uncached(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    if len(_DRAWN) > _DRAWN_LIMIT:
        _DRAWN.clear()
    hidden: dict[int, None] = {}
    # Only characters not yet known to be drawn are looked up (a set difference, in C): a
    # passage of CJK holds thousands of distinct characters, and one question reads it often.
    for ch in set(text) - _DRAWN:
        if "\u4e00" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" or "\u3400" <= ch <= "\u4dbf" or "\u3040" <= ch <= "\u30ff":
            # CJK ideographs, kana and Hangul syllables are all drawn (none is a format
            # character): a run of random ideographs holds twenty thousand distinct ones, each
            # a look-up otherwise.
            continue
        if unicodedata.category(ch) == "Cf" or ord(ch) in _NOT_DRAWN:
            hidden[ord(ch)] = None
        else:
            _DRAWN.add(ch)
    return text.translate(hidden) if hidden else text


# The detector reads one passage's lines and units again and again in one question; listing a
# long CJK text's characters costs tens of milliseconds each time. The results are texts as
# long as their arguments: few long ones are kept.
_visible = bounded_cache(_visible_uncached, 256, long_entries=4)


def skeleton(text: str) -> str:
    """``text`` with every look-alike letter replaced by the Latin letter it is drawn like (apply to :func:`visible_text`'s result); ASCII text is returned as it is."""
    if text.isascii():
        return text
    return text.translate(_FOLD)


def hidden_tag_text(text: str) -> str:
    """The ASCII a run of four or more tag characters (U+E0020-U+E007E) spells, one run a line
    (``""`` when there is none): text smuggled to a model that no reader sees."""
    if text.isascii():
        return ""
    return "\n".join("".join(chr(ord(ch) - 0xE0000) for ch in run) for run in _TAGS.findall(text))
