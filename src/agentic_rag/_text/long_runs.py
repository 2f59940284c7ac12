"""How much of one unbroken run of characters the reading passes read.

A run of characters with no white space in it that is thousands of characters long is data,
not words: a data URI, a base64 image in a notebook's output, a minified line, a list of hashes
run together (the analyzer already drops a run of letters or digits longer than
:data:`~agentic_rag._text.analyzer.MAX_TOKEN_LENGTH`, a run of CJK included, from the index).
The passes that read a passage at question time to weigh it (which words it holds, whether it
speaks to a model, what its vector is) read the first :data:`READ_RUN_CHARS` characters of
such a run and skip the rest. They need no offsets into what they read; what is shown and
quoted is always the text itself. Every pass is linear without this; the bound keeps a 100 KB
token from costing tens of milliseconds in each of the hundreds of passes one question runs.
"""

from __future__ import annotations

import re

__all__ = ["READ_RUN_CHARS", "bounded_runs"]

#: Characters of one run without white space that the reading passes read: as many as the
#: longest base64 run the instruction detector decodes (:mod:`agentic_rag._text.encoded`).
READ_RUN_CHARS = 4096

# A run longer than the bound, matched from its first character only (``(?<!\S)``): tried
# from every character of a long run, ``\S{n,}`` would scan to the run's end each time.
_LONG_RUN = re.compile(r"(?<!\S)\S{%d,}" % (READ_RUN_CHARS + 1))


def _head(match: re.Match[str]) -> str:
    return match.group()[:READ_RUN_CHARS]


def bounded_runs(text: str) -> str:
    """``text`` with every run of non-space characters longer than :data:`READ_RUN_CHARS`
    cut to its first :data:`READ_RUN_CHARS` characters; ``text`` itself when it holds no
    such run.

    Args:
        text: A passage, a unit or any text a reading pass is given.

    Returns:
        The text the pass reads.
    """
    if len(text) <= READ_RUN_CHARS:
        return text
    return _LONG_RUN.sub(_head, text)
