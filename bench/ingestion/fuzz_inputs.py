"""Inputs for the fuzz harness (``bench/ingestion/fuzz.py``): random text built from each format's
syntax, byte-level mutation, random and mutated JSON values, and the shrinker that cuts a
failing input down.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["NASTY", "SYNTAX", "WORDS", "deep", "deep_text", "mutate_bytes", "mutate_json", "rand_json", "rand_text", "shrink"]

# -- inputs -------------------------------------------------------------------------------------

WORDS = ("alpha", "Jane", "Doe", "born", "1968", "Lyon", "acme", "robotics", "the", "of", "é", "ß", "İ", "中文字符",
         "🙂", "\u0301", "x" * 40, "3.14", "-1", "NaN", "null", "true", "\\", "'", '"', "&amp;", "&#0;", "&#x110000;")
NASTY = ("\n", "\n\n", "\r", "\r\n", "\t", "\f", "\v", "\x85", "\u2028", "\u2029", "\ufeff", "\u200b", "\x00", "\x1b[0m",
         " ", "  ", "\u3000", "\U0010ffff", "\ud7ff", "\ue000")
SYNTAX = {
    "txt": ("\n", "\n\n", ". ", "? ", "- ", "1. ", "* "),
    "md": ("#", "# ", "## ", "###### ", "*", "**", "_", "__", "`", "``", "```", "```python\n", "~~~", "~~", "[", "]", "](",
           "![", ")", "<", ">", "|", "| --- |", "---\n", "- ", "+ ", "1. ", "> ", "    ", "<!--", "-->", "\\", "&", "[^1]",
           "[x]: http://a\n", "---\ntitle: a\n---\n", "<div>", "</div>", "$$", "<http://a>"),
    "rst": ("=====\n", "-----\n", "~~~~\n", ".. ", ".. note::\n", ".. code-block:: python\n", ".. include:: x.rst\n", "::\n",
            "   ", "* ", "#. ", ":role:`x`", "`", "``", "`a <http://b>`_", "_", "__", "|sub|", ".. |sub| replace:: y\n",
            "*", "**", ":field: v\n", "+---+---+\n", "| a | b |\n", "===== =====\n", "\\", "[#]_", ".. [1] ", ">>> "),
    "html": ("<", ">", "</", "<a ", "<a href='x'>", "</a>", "<p>", "</p>", "<h1>", "</h1>", "<h7>", "<script>", "</script>",
             "<style>", "</style>", "<pre>", "</pre>", "<!--", "-->", "<!DOCTYPE html>", "<![CDATA[", "]]>", "&", "&amp;",
             "&#", "&#x", ";", "<table>", "<tr>", "<td>", "</td>", "<br/>", "<li>", "<ul>", "<ol>", "<title>", "<?x ?>",
             "<template>", "<code>", "'", '"', "=", "<img alt=", "<textarea>", "<noscript>", "<svg>", "<math>"),
    "json": ("{", "}", "[", "]", ",", ":", '"', '"text"', '"title"', '"id"', '"_id"', "0", "-0", "1e400", "-1e400", "1.5",
             "null", "true", "false", "NaN", "Infinity", '"\\u0000"', '"\\ud800"', "\\", "\n", " ", '{"text": "a"}'),
    "csv": (",", '"', '""', "\n", "\r\n", ";", "\t", "text", "title", "id", "a,b\n", '"a\nb"', "\x00", ",,,\n"),
}
SYNTAX["jsonl"] = SYNTAX["json"] + ("\n", "\n\n")


def rand_text(rng: random.Random, syntax: tuple[str, ...], max_size: int) -> str:
    """A random run of words, markup tokens and awkward characters, sometimes one token repeated."""
    parts: list[str] = []
    size = 0
    for _ in range(rng.randint(0, 40)):
        roll = rng.random()
        if roll < 0.4:
            piece = rng.choice(syntax)
        elif roll < 0.75:
            piece = rng.choice(WORDS) + rng.choice((" ", "", "\n"))
        elif roll < 0.9:
            piece = rng.choice(NASTY)
        elif roll < 0.97:
            piece = "".join(chr(rng.randint(1, 0x2FFF)) for _ in range(rng.randint(1, 8)))
        else:  # the shape that makes a parser quadratic: one construct many times
            piece = (rng.choice(syntax) + rng.choice(("a ", "a", " ", ""))) * rng.randint(2, max(2, max_size // 8))
        parts.append(piece)
        size += len(piece)
        if size > max_size:
            break
    return "".join(parts)[:max_size]


def mutate_bytes(rng: random.Random, data: bytes, dictionary: tuple[bytes, ...], max_size: int) -> bytes:
    """One to four byte-level edits: flips, inserts, deletes, duplication, splices, truncation."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(7)
        pos = rng.randint(0, len(buf))
        if op == 0 and buf:
            i = rng.randrange(len(buf))
            buf[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            buf[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        elif op == 2 and buf:
            del buf[pos:pos + rng.randint(1, 16)]
        elif op == 3 and buf:
            start = rng.randrange(len(buf))
            piece = buf[start:start + rng.randint(1, 64)]
            buf[pos:pos] = piece * rng.randint(1, 8)
        elif op == 4:
            token = rng.choice(dictionary)
            buf[pos:pos] = token * (rng.randint(1, max(1, max_size // (8 * len(token) or 1))) if rng.random() < 0.05 else 1)
        elif op == 5:
            del buf[rng.randint(0, len(buf)):]
        else:
            i = rng.randint(0, len(buf))
            buf[i:i] = rng.choice((b"\xff", b"\xc3", b"\xe2\x80", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\r", b"\x0c", b"\xe2\x80\xa8"))
    return bytes(buf[:max_size])


def rand_json(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON-compatible value, with the awkward numbers Python's json accepts."""
    roll = rng.random()
    if depth > 4 or roll < 0.5:
        return rng.choice((None, True, False, 0, -1, 1, 2**63, 10**30, -(2**31), 0.5, -0.0, 1e308, float("nan"), float("inf"),
                           "", "a", "Jane Doe", "x" * 300, "\u2028", "\ud800", "1", "answered", "must", "bm25", "2020-01-01"))
    if roll < 0.75:
        return [rand_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(("id", "text", "title", "name", "a", "", "score", "type", "0")): rand_json(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def deep(rng: random.Random, max_size: int) -> Any:
    """A nested list or object, up to 400 levels (deeper ones are fed as text, see :func:`deep_text`)."""
    value: Any = rng.choice((1, "a", None))
    for _ in range(rng.randint(20, 400)):
        value = [value] if rng.random() < 0.5 else {"a": value}
    return value


def deep_text(rng: random.Random, max_size: int) -> str:
    """JSON text nested deeper than Python's recursion limit allows (up to ``max_size`` levels)."""
    depth = rng.randint(10, max(11, max_size // 5))
    opener, closer = ('[', ']') if rng.random() < 0.5 else ('{"a":', '}')
    return opener * depth + "1" + closer * depth


def mutate_json(rng: random.Random, value: Any, max_size: int, leaf: Callable[[random.Random], Any] | None = None) -> Any:
    """Replace, drop or add one node anywhere in a JSON value."""
    leaf = leaf or (lambda r: rand_json(r, 3))
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(sorted(value, key=str))
        out = dict(value)
        roll = rng.random()
        if roll < 0.15:
            del out[key]
        elif roll < 0.25:
            out[rng.choice(("extra", "", "id", "__class__"))] = leaf(rng)
        else:
            out[key] = mutate_json(rng, value[key], max_size, leaf)
        return out
    if isinstance(value, list) and value and rng.random() < 0.7:
        out = list(value)
        i = rng.randrange(len(out))
        roll = rng.random()
        if roll < 0.15:
            del out[i]
        elif roll < 0.25:
            out.insert(i, out[i])
        else:
            out[i] = mutate_json(rng, out[i], max_size, leaf)
        return out
    if rng.random() < 0.02:
        return deep(rng, max_size)
    return leaf(rng)


# -- shrinking ----------------------------------------------------------------------------------


def shrink(value: Any) -> Iterator[Any]:
    """Smaller candidates of ``value``: chunks cut from strings and bytes, nodes cut from JSON."""
    if isinstance(value, (str, bytes)):
        n = len(value)
        size = n // 2
        while size >= 1:
            for start in range(0, n - size + 1, size):
                yield value[:start] + value[start + size:]
            size //= 2
        return
    if isinstance(value, tuple):
        for i, item in enumerate(value):
            for smaller in shrink(item):
                yield value[:i] + (smaller,) + value[i + 1:]
        return
    if isinstance(value, dict):
        for key in list(value):
            yield {k: v for k, v in value.items() if k != key}
        for key in list(value):
            for smaller in shrink(value[key]):
                yield {**value, key: smaller}
        return
    if isinstance(value, list):
        for i in range(len(value)):
            yield value[:i] + value[i + 1:]
        for i, item in enumerate(value):
            if isinstance(item, (list, dict)) and len(value) == 1:
                yield item
            for smaller in shrink(item):
                yield value[:i] + [smaller] + value[i + 1:]
