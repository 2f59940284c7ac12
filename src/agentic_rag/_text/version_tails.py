"""Whether the rest of an indexed term after a name is a version run: ``gplv2`` is GPL in a
versioned form, ``http2`` HTTP, ``python3`` Python; ``gplot`` is another word.

The CLI says a name the query writes is in no document "in any form" only when neither the
name nor a versioned form of it is indexed: a folder that says "GPLv2" uses the name GPL.
"""

from __future__ import annotations

import re

__all__ = ["is_version_tail"]

# An optional "v" and digits, then anything a version goes on with (dots and digits are
# split into terms of their own by the analyzer; letters after the digits: "2a", "2rc1").
_TAIL = re.compile(r"v?\d[\w]*")


def is_version_tail(rest: str) -> bool:
    """True when ``rest`` (what follows a name in one indexed term) is a version run."""
    return bool(_TAIL.fullmatch(rest))
