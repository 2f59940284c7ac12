"""Simple-font encodings (WinAnsi, MacRoman, Standard) and glyph names to Unicode.

An encoding is a 256-entry tuple of strings (``""`` for an unmapped code). Glyph names follow
the Adobe Glyph List conventions: common names from a table, accented Latin and Greek letters
through :func:`unicodedata.lookup`, ``uniXXXX`` / ``uXXXX[XX]``, ``a_b`` ligatures and
``name.suffix`` variants.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = ["ENCODINGS", "STANDARD", "apply_differences", "glyph_to_unicode"]

_NAMED = {
    "space": " ", "exclam": "!", "quotedbl": '"', "numbersign": "#", "dollar": "$", "percent": "%",
    "ampersand": "&", "quotesingle": "'", "parenleft": "(", "parenright": ")", "asterisk": "*",
    "plus": "+", "comma": ",", "hyphen": "-", "period": ".", "slash": "/", "colon": ":",
    "semicolon": ";", "less": "<", "equal": "=", "greater": ">", "question": "?", "at": "@",
    "bracketleft": "[", "backslash": "\\", "bracketright": "]", "asciicircum": "^",
    "underscore": "_", "grave": "`", "braceleft": "{", "bar": "|", "braceright": "}",
    "asciitilde": "~", "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4",
    "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
    "quoteleft": "\u2018", "quoteright": "\u2019", "quotedblleft": "\u201c",
    "quotedblright": "\u201d", "quotesinglbase": "\u201a", "quotedblbase": "\u201e",
    "guillemotleft": "\xab", "guillemotright": "\xbb", "guilsinglleft": "\u2039",
    "guilsinglright": "\u203a", "endash": "\u2013", "emdash": "\u2014", "bullet": "\u2022",
    "ellipsis": "\u2026", "dagger": "\u2020", "daggerdbl": "\u2021", "periodcentered": "\xb7",
    "paragraph": "\xb6", "section": "\xa7", "copyright": "\xa9", "registered": "\xae",
    "trademark": "\u2122", "degree": "\xb0", "plusminus": "\xb1", "multiply": "\xd7",
    "divide": "\xf7", "minus": "\u2212", "fraction": "\u2044", "florin": "\u0192",
    "perthousand": "\u2030", "exclamdown": "\xa1", "questiondown": "\xbf", "cent": "\xa2",
    "sterling": "\xa3", "yen": "\xa5", "currency": "\xa4", "Euro": "\u20ac", "euro": "\u20ac",
    "brokenbar": "\xa6", "ordfeminine": "\xaa", "ordmasculine": "\xba", "logicalnot": "\xac",
    "mu": "\xb5", "onequarter": "\xbc", "onehalf": "\xbd", "threequarters": "\xbe",
    "onesuperior": "\xb9", "twosuperior": "\xb2", "threesuperior": "\xb3", "nbspace": "\xa0",
    "nonbreakingspace": "\xa0", "sfthyphen": "\xad", "softhyphen": "\xad",
    "fi": "fi", "fl": "fl", "ff": "ff", "ffi": "ffi", "ffl": "ffl", "st": "st",
    "AE": "\xc6", "ae": "\xe6", "OE": "\u0152", "oe": "\u0153", "Oslash": "\xd8", "oslash": "\xf8",
    "Lslash": "\u0141", "lslash": "\u0142", "germandbls": "\xdf", "dotlessi": "\u0131",
    "dotlessj": "\u0237", "Eth": "\xd0", "eth": "\xf0", "Thorn": "\xde", "thorn": "\xfe",
    "circumflex": "\u02c6", "tilde": "\u02dc", "macron": "\xaf", "breve": "\u02d8",
    "dotaccent": "\u02d9", "ring": "\u02da", "cedilla": "\xb8", "hungarumlaut": "\u02dd",
    "ogonek": "\u02db", "caron": "\u02c7", "acute": "\xb4", "dieresis": "\xa8",
    "arrowright": "\u2192", "arrowleft": "\u2190", "arrowup": "\u2191", "arrowdown": "\u2193",
    "arrowboth": "\u2194", "arrowdblright": "\u21d2", "arrowdblleft": "\u21d0",
    "arrowdblboth": "\u21d4", "infinity": "\u221e", "lessequal": "\u2264",
    "greaterequal": "\u2265", "notequal": "\u2260", "approxequal": "\u2248",
    "summation": "\u2211", "product": "\u220f", "integral": "\u222b", "radical": "\u221a",
    "partialdiff": "\u2202", "Delta": "\u0394", "Omega": "\u03a9", "lozenge": "\u25ca",
    "element": "\u2208", "universal": "\u2200", "existential": "\u2203", "emptyset": "\u2205",
    "logicaland": "\u2227", "logicalor": "\u2228", "intersection": "\u2229", "union": "\u222a",
    "propersubset": "\u2282", "propersuperset": "\u2283", "reflexsubset": "\u2286",
    "reflexsuperset": "\u2287", "similar": "\u223c", "equivalence": "\u2261",
    "circlemultiply": "\u2297", "circleplus": "\u2295", "dotmath": "\u22c5", "prime": "\u2032",
    "angleleft": "\u2329", "angleright": "\u232a", "visiblespace": "\u2423", "dotlessI": "I",
    "figuredash": "\u2012", "quotereversed": "\u201b", "afii61664": "\u200c",
    "compwordmark": "\u200c", "cwm": "\u200c", "nabla": "\u2207", "openbullet": "\u25e6",
    "lambda": "\u03bb", "Lambda": "\u039b", "dotlessj.alt": "\u0237", "perpendicular": "\u22a5",
}
_ACCENTS = {
    "acute": "ACUTE", "grave": "GRAVE", "circumflex": "CIRCUMFLEX", "dieresis": "DIAERESIS",
    "tilde": "TILDE", "ring": "RING ABOVE", "cedilla": "CEDILLA", "caron": "CARON",
    "macron": "MACRON", "breve": "BREVE", "ogonek": "OGONEK", "dotaccent": "DOT ABOVE",
    "hungarumlaut": "DOUBLE ACUTE", "commaaccent": "COMMA BELOW",
}
_ACCENTED = re.compile(r"([A-Za-z])(" + "|".join(_ACCENTS) + r")\Z")
_UNI = re.compile(r"uni((?:[0-9A-F]{4})+)\Z")
_U = re.compile(r"u([0-9A-F]{4,6})\Z")


def _codepoints(hexdigits: str, step: int) -> str:
    out = []
    for index in range(0, len(hexdigits), step):
        value = int(hexdigits[index:index + step], 16)
        if 0xD800 <= value <= 0xDFFF or value > 0x10FFFF:
            return ""
        out.append(chr(value))
    return "".join(out)


@lru_cache(maxsize=4096)
def glyph_to_unicode(name: str) -> str:
    """Map a glyph name to its text (``""`` when unknown, such as ``.notdef`` or ``g123``).

    Args:
        name: The glyph name.

    Returns:
        The Unicode text, possibly several characters for ligatures.
    """
    if name in _NAMED:
        return _NAMED[name]
    if len(name) == 1 and name.isalpha() and name.isascii():
        return name
    base = name.split(".", 1)[0]
    if not base:
        return ""
    if base != name:
        return glyph_to_unicode(base)
    if "_" in name:
        return "".join(glyph_to_unicode(part) for part in name.split("_"))
    match = _UNI.match(name)
    if match:
        return _codepoints(match.group(1), 4)
    match = _U.match(name)
    if match:
        return _codepoints(match.group(1), len(match.group(1)))
    match = _ACCENTED.match(name)
    if match:
        letter, accent = match.groups()
        case = "CAPITAL" if letter.isupper() else "SMALL"
        label = _ACCENTS[accent]
        for candidate in (label, "CEDILLA") if accent == "commaaccent" else (label,):
            try:
                return unicodedata.lookup(f"LATIN {case} LETTER {letter.upper()} WITH {candidate}")
            except KeyError:
                continue
        return ""
    if name.isalpha() and len(name) > 1:
        case = "CAPITAL" if name[0].isupper() else "SMALL"
        try:
            return unicodedata.lookup(f"GREEK {case} LETTER {name.upper()}")
        except KeyError:
            pass
    return ""


def _table(overrides: dict[int, str], base: list[str]) -> tuple[str, ...]:
    codes = list(base)
    for code, name in overrides.items():
        codes[code] = glyph_to_unicode(name)
    return tuple(codes)


_PRINTABLE = [chr(i) if 0x20 <= i < 0x7F else "" for i in range(256)]

STANDARD = _table({
    0x27: "quoteright", 0x60: "quoteleft", 0xA1: "exclamdown", 0xA2: "cent", 0xA3: "sterling",
    0xA4: "fraction", 0xA5: "yen", 0xA6: "florin", 0xA7: "section", 0xA8: "currency",
    0xA9: "quotesingle", 0xAA: "quotedblleft", 0xAB: "guillemotleft", 0xAC: "guilsinglleft",
    0xAD: "guilsinglright", 0xAE: "fi", 0xAF: "fl", 0xB1: "endash", 0xB2: "dagger",
    0xB3: "daggerdbl", 0xB4: "periodcentered", 0xB6: "paragraph", 0xB7: "bullet",
    0xB8: "quotesinglbase", 0xB9: "quotedblbase", 0xBA: "quotedblright", 0xBB: "guillemotright",
    0xBC: "ellipsis", 0xBD: "perthousand", 0xBF: "questiondown", 0xC1: "grave", 0xC2: "acute",
    0xC3: "circumflex", 0xC4: "tilde", 0xC5: "macron", 0xC6: "breve", 0xC7: "dotaccent",
    0xC8: "dieresis", 0xCA: "ring", 0xCB: "cedilla", 0xCD: "hungarumlaut", 0xCE: "ogonek",
    0xCF: "caron", 0xD0: "emdash", 0xE1: "AE", 0xE3: "ordfeminine", 0xE8: "Lslash",
    0xE9: "Oslash", 0xEA: "OE", 0xEB: "ordmasculine", 0xF1: "ae", 0xF5: "dotlessi",
    0xF8: "lslash", 0xF9: "oslash", 0xFA: "oe", 0xFB: "germandbls",
}, _PRINTABLE[:0x80] + [""] * 128)


def _codec_table(codec: str) -> list[str]:
    table = []
    for code in range(256):
        char = bytes((code,)).decode(codec, errors="replace") if code >= 0x20 else ""
        table.append("" if char == "\ufffd" or code == 0x7F else char)
    return table


_WIN = _codec_table("cp1252")
for _code in (0x81, 0x8D, 0x8F, 0x90, 0x9D):
    _WIN[_code] = "\u2022"  # the PDF reference maps cp1252's holes to bullet
_WIN[0xA0] = " "
_WIN[0xAD] = "-"
_MAC = _codec_table("mac_roman")
_MAC[0xCA] = " "

ENCODINGS: dict[str, tuple[str, ...]] = {
    "WinAnsiEncoding": tuple(_WIN),
    "MacRomanEncoding": tuple(_MAC),
    "StandardEncoding": STANDARD,
    "PDFDocEncoding": tuple(_codec_table("latin-1")),
    "MacExpertEncoding": STANDARD,
}


def apply_differences(base: tuple[str, ...], differences: object) -> tuple[tuple[str, ...], dict[int, str]]:
    """Overlay a ``/Differences`` array on an encoding.

    Args:
        base: The starting encoding.
        differences: ``[code name name ... code name ...]``; anything else is ignored.

    Returns:
        The new encoding and the glyph name given to each changed code.
    """
    table = list(base)
    names: dict[int, str] = {}
    if not isinstance(differences, list):
        return base, names
    code = 0
    for item in differences:
        if type(item) is int:
            code = item
        elif isinstance(item, str) and 0 <= code < 256:
            table[code] = glyph_to_unicode(item)
            names[code] = item
            code += 1
    return tuple(table), names
