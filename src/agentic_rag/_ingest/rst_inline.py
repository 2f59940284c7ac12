"""Inline reStructuredText to plain text: roles, literals, emphasis, references, substitutions.

Every pattern stops at the next delimiter character (``[^`]``, ``[^*]``...), so cleaning a
line costs time linear in its length whatever it holds.
"""

from __future__ import annotations

import re

__all__ = ["clean_rst_inline", "clean_rst_line", "role_text"]

# A role, an inline literal or interpreted text (with an optional reference suffix).
_TOKEN = re.compile(
    r"``((?:[^`]|`(?!`))+?)``"                                      # ``literal``
    r"|(?::(?P<role>[A-Za-z][\w.+-]*(?::[A-Za-z][\w.+-]*)?):)?"     # :role: prefix
    r"`(?P<text>[^`]+)`(?::[A-Za-z][\w.+-]*:)?(?:__?)?"             # `text`, `text`_
)
_STRONG = re.compile(r"(?<![\w*])\*\*(?=\S)([^*]+?)(?<=\S)\*\*(?![\w*])")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*]+?)(?<=[^\s*])\*(?![\w*])")
_SUBSTITUTION = re.compile(r"(?<![\w|])\|(?=\S)([^|]+?)(?<=\S)\|(?:__?)?(?![\w|])")
_FOOTNOTE_REF = re.compile(r"[ \t]?\[(?:#[\w-]*|\*|\d+|[A-Za-z][\w.-]*)\]_(?!\w)")
# A named reference (``name_``, ``a.b-c__``) is read by :func:`_named_refs`, not by the pattern
# ``(?<![\w`])([A-Za-z0-9](?:[\w.+-]*?[A-Za-z0-9])?)__?(?!\w)``: that one scans a line of
# ``a.a.a...`` to its end from every ``a``, quadratic in the line.
_NAME_RUN = re.compile(r"[\w.+-]+")
_REF_END = re.compile(r"(?<=[A-Za-z0-9])__?(?!\w)")
_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_ESCAPE = re.compile(r"\\(.)|\\$")
_TARGET = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.S)
_VERBATIM_ROLES = frozenset({"code", "literal", "math", "samp", "kbd", "file", "regexp"})
_PARK = 0xE000
_SLOT = "\ue100"  # stands for one already-cleaned token while the text around it is cleaned
_LITERAL_SLOT = "\ue101"  # stands for one inline literal's text while escapes are read
_MARKUP = frozenset("`*|_\\[")


def role_text(role: str | None, text: str) -> str:
    """What Sphinx shows for ``:role:`text```: the title of ``Title <target>``, the last
    component of ``~a.b.c``, the text after ``!``."""
    name = (role or "").rsplit(":", 1)[-1]
    if name in _VERBATIM_ROLES:
        return text
    target = _TARGET.match(text)
    if target and target.group(1):
        return target.group(1)
    if text.startswith("!"):
        return text[1:]
    if text.startswith("~"):
        tail = text[1:].rsplit(".", 1)[-1]
        return tail or text[1:]
    return text


def _named_refs(text: str) -> str:
    """``text`` with each named reference's trailing ``_`` or ``__`` dropped, in one pass.

    A reference name starts at an ASCII letter or digit not preceded by a word character or a
    backtick (an inner ``.``, ``+`` or ``-`` may precede it), runs over ``[\\w.+-]`` and ends at
    a letter or digit followed by ``_`` or ``__`` and then no word character; the leftmost name
    wins, ending at its first possible end past its first character, else at that character
    (what the pattern above matches).
    """
    ends = [(m.start(), m.end()) for m in _REF_END.finditer(text)]
    if not ends:
        return text
    out: list[str] = []
    done = 0  # text before this is copied (or dropped)
    position = 0  # the next end to look at
    for run in _NAME_RUN.finditer(text):
        a, b = run.span()
        while position < len(ends) and ends[position][0] < a:
            position += 1
        scan = a  # every start before ``scan`` in this run is known not to be one
        while position < len(ends) and ends[position][0] < b:
            end, past = ends[position]
            position += 1
            while scan < end and not (text[scan] in _ALNUM and (text[scan - 1] in ".+-" if scan > a else scan == 0 or text[scan - 1] != "`")):
                scan += 1
            if scan >= end:
                continue  # no name starts before this end (a start found later stays found)
            if end == scan + 1 and position < len(ends) and ends[position][0] < b:
                # A one-character name is the pattern's last resort: a longer one to a later
                # end in the same run is tried first.
                end, past = ends[position]
                position += 1
            out.append(text[done:end])
            done = scan = past
            while position < len(ends) and ends[position][0] < past:
                position += 1
    out.append(text[done:])
    return "".join(out)


def clean_rst_inline(line: str) -> str:
    """Reduce one line of reStructuredText to the text a reader sees.

    Args:
        line: One line (block markers already removed).

    Returns:
        The visible text, right-stripped.
    """
    if not _MARKUP.intersection(line):
        return line.rstrip()
    escaped = "\\" in line
    literals: list[str] = []
    if escaped and "``" in line:
        # An inline literal shows its backslashes (``\\054`` is four characters): it is set
        # aside before the escapes of the text around it are read.
        line = _LITERAL.sub(lambda m: literals.append(m.group()[2:-2]) or _LITERAL_SLOT, line)
    if escaped:
        line = _ESCAPE.sub(lambda m: chr(_PARK + ord(m.group(1))) if m.group(1) and ord(m.group(1)) < 128 else (m.group(1) or ""), line)
    tokens: list[str] = []

    def park(match: re.Match[str]) -> str:
        if match.group(1) is not None:
            tokens.append(match.group(1))
        else:
            tokens.append(role_text(match.group("role"), match.group("text")))
        return _SLOT

    text = _TOKEN.sub(park, line) if "`" in line else line
    # Each pattern only where its delimiter occurs (each is linear, but a pass over a long line).
    if "]_" in text:
        text = _FOOTNOTE_REF.sub("", text)
    if "*" in text:
        text = _EMPHASIS.sub(r"\1", _STRONG.sub(r"\1", text))
    if "|" in text:
        text = _SUBSTITUTION.sub(r"\1", text)
    if "_" in text:
        text = _named_refs(text)
    if tokens:
        contents = iter(tokens)
        text = re.sub(_SLOT, lambda m: next(contents), text)
    if escaped:
        # An escaped space joins what it separates; other escaped characters stand for themselves.
        text = text.replace(chr(_PARK + 32), "").translate({_PARK + c: c for c in range(128)})
    if literals:
        kept = iter(literals)
        text = re.sub(_LITERAL_SLOT, lambda m: next(kept), text)
    return text.rstrip()


_LITERAL = re.compile(r"``(?:[^`]|`(?!`))+?``")
_OPEN_ROLE = re.compile(r":[A-Za-z][\w.+-]*(?::[A-Za-z][\w.+-]*)?:$")
_CLOSE_SUFFIX = re.compile(r"^(?::[A-Za-z][\w.+-]*:)?(?:__?(?![\w]))?")


def _without_target(text: str) -> str:
    """``text`` without a trailing link target ``<...>`` and the white space around it (string
    methods: the pattern ``\\s*<[^<>]*>\\s*$`` retries from every blank of a long run)."""
    bare = text.rstrip()
    opening = bare.rfind("<")
    if not bare.endswith(">") or opening < 0 or ">" in bare[opening + 1:-1]:
        return text
    return bare[:opening].rstrip()


def clean_rst_line(line: str, open_span: bool = False) -> tuple[str, bool]:
    """Clean one line of a paragraph where interpreted text may run onto the next line
    (```Cross-Site Scripting`` then ``<https://...>`_`` below it).

    Args:
        line: One line of paragraph text.
        open_span: Whether interpreted text opened on an earlier line is still open.

    Returns:
        The visible text, and whether interpreted text is still open at the line's end. The
        opening backtick and role, the closing backtick and reference suffix, and a link
        target ``<...>`` are dropped; the words between stay on their own lines.
    """
    head = ""
    if open_span:
        close = line.find("`")
        if close < 0:
            return _without_target(line).rstrip(), True
        inner, line = line[:close], _CLOSE_SUFFIX.sub("", line[close + 1:], count=1)
        head = _without_target(inner)
    bare = _LITERAL.sub("", line)
    if bare.count("`") % 2 == 1:
        opening = line.rfind("`")
        before, after = line[:opening], line[opening + 1:]
        role = _OPEN_ROLE.search(before)
        if role is not None:
            before = before[:role.start()]
        spaced = clean_rst_inline(before) + (" " if before[-1:].isspace() else "")
        return (head + spaced + _without_target(after)).rstrip(), True
    return (head + clean_rst_inline(line)).rstrip(), False
