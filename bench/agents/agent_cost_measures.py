"""The pure measures of the agent-cost benchmark (``bench/agents/bench_agent_cost.py``).

- :func:`bytes_to_key`: how many UTF-8 bytes of a stream of tool output an agent reads before
  every part of the answer key has appeared (case-insensitive, white space folded);
- :func:`content_words` and :func:`rarest_first`: the grep policy's words and their order;
- :func:`roc_auc`: how well a score separates positives from negatives (ties count half);
- :func:`median_bytes` and :func:`recall_within`: the summaries of the tables.
"""

from __future__ import annotations

import bisect
import math
import re
import statistics
from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "BUDGETS",
    "CAP",
    "STOP_WORDS",
    "WORD",
    "bytes_to_key",
    "content_words",
    "fold",
    "holds_key",
    "median_bytes",
    "rarest_first",
    "recall_within",
    "roc_auc",
    "show_bytes",
]

KB = 1024
CAP = 32 * KB
"""Reading stops here: a key not seen within 32 KB counts as never found ("32 KB+")."""
BUDGETS = (1 * KB, 2 * KB, 4 * KB, 8 * KB, 16 * KB)

WORD = re.compile(r"[A-Za-z0-9_]+(?:[./-][A-Za-z0-9_]+)*")
"""A content-word candidate: letters, digits and ``_``, joined by ``.``, ``/`` or ``-``
(``attr.ib``, ``HTTP/3``, ``read-only`` stay one word)."""

STOP_WORDS = frozenset(
    """
    about above after again against all also and any are aren because been before being below
    between both but can cannot could did didn does doesn doing don down during each else ever
    few for from further get gets getting got had has have having her here hers him his how
    into isn its itself just let like make makes many may might more most much must need needs
    not now off once one only other our ours out over own same say says see shall she should
    since some still such than that the their theirs them then there these they thing things
    this those through too under until use used uses using very want wants was way wasn were
    what when where whether which while who whom whose why will with without won would yes yet
    you your yours yourself
    """.split()
)
"""Words too common to grep for (compared case-insensitively); kept explicit so the policy
is reproducible from the page that describes it."""


def fold(text: str) -> str:
    """Case-folded, white space runs as one space, trimmed (how keys are compared)."""
    return " ".join(text.casefold().split())


def _folded_with_offsets(stream: str) -> tuple[str, list[int]]:
    """The folded stream and, for each of its characters, the UTF-8 byte offset in ``stream``
    just past the raw character it came from."""
    chars: list[str] = []
    ends: list[int] = []
    offset = 0
    pending_space = False
    for ch in stream:
        offset += len(ch.encode("utf-8", "surrogateescape"))
        if ch.isspace():
            pending_space = bool(chars)
            continue
        if pending_space:
            chars.append(" ")
            ends.append(ends[-1])
            pending_space = False
        for folded in ch.casefold():  # "ß" folds to "ss": both end at the same raw byte
            chars.append(folded)
            ends.append(offset)
    return "".join(chars), ends


def bytes_to_key(stream: str, parts: Sequence[Sequence[str]]) -> int | None:
    """UTF-8 bytes of ``stream`` read up to the end of the point where every part's key has
    appeared (the earliest-ending alternative of each part; the latest of those over parts).

    Args:
        stream: The tool output, calls concatenated in order.
        parts: One list of alternative key strings per part of the question.

    Returns:
        The byte count, or ``None`` when some part never appears (or there are no parts).
    """
    if not parts:
        return None
    folded, ends = _folded_with_offsets(stream)
    worst = 0
    for alternatives in parts:
        best = None
        for key in alternatives:
            needle = fold(key)
            at = folded.find(needle) if needle else -1
            if at >= 0:
                end = ends[at + len(needle) - 1]
                best = end if best is None else min(best, end)
        if best is None:
            return None
        worst = max(worst, best)
    return worst


def holds_key(text: str, parts: Sequence[Sequence[str]], *, every: bool) -> bool:
    """Whether ``text`` holds the key of every part (``every``) or of any part."""
    folded = fold(text)
    found = [any(fold(key) and fold(key) in folded for key in alternatives) for alternatives in parts]
    return bool(found) and (all(found) if every else any(found))


def content_words(question: str) -> list[str]:
    """The grep policy's words: :data:`WORD` tokens of length >= 3 not in :data:`STOP_WORDS`,
    de-duplicated case-insensitively (the first spelling kept), in question order."""
    seen: set[str] = set()
    words = []
    for token in WORD.findall(question):
        key = token.casefold()
        if len(token) < 3 or key in STOP_WORDS or key in seen:
            continue
        seen.add(key)
        words.append(token)
    return words


def rarest_first(words: Iterable[str], files_with: Mapping[str, int]) -> list[str]:
    """``words`` ordered by how many files hold them (fewest first), ties by the case-folded
    word then the word; words in no file are dropped."""
    kept = [w for w in words if files_with.get(w, 0) > 0]
    return sorted(kept, key=lambda w: (files_with[w], w.casefold(), w))


def roc_auc(positives: Sequence[float], negatives: Sequence[float]) -> float | None:
    """The probability that a random positive scores above a random negative, ties counting
    half (the Mann-Whitney statistic over all pairs); ``None`` without both kinds."""
    if not positives or not negatives:
        return None
    ordered = sorted(negatives)
    total = 0.0
    for score in positives:
        below = bisect.bisect_left(ordered, score)
        tied = bisect.bisect_right(ordered, score) - below
        total += below + 0.5 * tied
    return total / (len(positives) * len(negatives))


def median_bytes(values: Sequence[int | None]) -> float | None:
    """The median, a key never seen within :data:`CAP` counting as larger than any figure
    (so the median is itself "32 KB+" when half or more were never seen); ``None`` if empty."""
    if not values:
        return None
    return statistics.median([math.inf if v is None or v > CAP else float(v) for v in values])


def recall_within(values: Sequence[int | None], budget: int) -> float | None:
    """The share of questions whose key appeared within ``budget`` bytes."""
    if not values:
        return None
    return sum(1 for v in values if v is not None and v <= budget) / len(values)


def show_bytes(value: float | None, *, capped: bool = True) -> str:
    """``812 B``, ``3.4 KB``, ``32 KB+`` (never reached, or beyond :data:`CAP` when
    ``capped``) or ``-``."""
    if value is None:
        return "-"
    if math.isinf(value) or (capped and value > CAP):
        return "32 KB+"
    return f"{value:.0f} B" if value < KB else f"{value / KB:.1f} KB"
