"""Whether a duration in a sentence is the length of the thing a question asks about.

"How long is each session of the Learn to Row course?" is not answered by "£160 for 6 Saturday
sessions, including 3 months' free membership": the one duration there qualifies another noun
(the membership), so it says how long that lasts. :func:`qualified_duration` reads one clause.
"""

from __future__ import annotations

import re

from agentic_rag._answering.word_roots import same_root as _same, stem_word as _stem
from agentic_rag._regex import lazy_regex

__all__ = ["ANY_DURATION", "qualified_duration"]

# "How long is each session of ...?": the thing a duration is asked of.
_DURATION_OF = lazy_regex(
    r"^\W*(?:(?:so|and|but)\s+)?how\s+long\s+(?:is|are|was|were|does|do|did|will)\s+(?:the|a|an|each|every|its|their|one|your)\s+"
    r"((?-i:[a-z][\w-]*)(?:\s+(?-i:[a-z][\w-]*)){0,2}?)(?=\s+(?:of|at|in|on|for|take|takes|last|lasts|run|runs)\b|\s*[?.!]?\s*$)",
    re.IGNORECASE)
# A duration that qualifies the noun after it: "3 months' free membership", "a 30-day trial",
# "two weeks' notice"; with the words it qualifies, up to a mark.
_QUALIFYING = lazy_regex(
    r"(?<![\w.])(?:\d[\d.,]*|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\s*"
    r"(?:(?:minute|hour|day|week|month|year)s?['’]s?|-\s*(?:minute|hour|day|week|month|year)(?:-long)?)"
    r"((?:\s+[A-Za-z][\w-]*){1,3})", re.IGNORECASE)
#: A duration in words or figures ("3 months", "two weeks", "a 30-day").
ANY_DURATION = lazy_regex(r"(?<![\w.])(?:\d[\d.,]*|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\s*-?\s*(?:minute|hour|day|week|month|year)s?\b", re.IGNORECASE)


def qualified_duration(question: str, clause: str) -> str:
    """``"another attribute"`` when ``question`` asks how long a thing is ("each session") and
    every duration in ``clause`` qualifies another noun ("including 3 months' free
    membership", "a 14-day trial"): that is how long the membership or trial lasts."""
    asked = _DURATION_OF.match(question)
    if not asked:
        return ""
    thing = {_stem(w) for w in asked.group(1).split()}
    durations = ANY_DURATION.findall(clause)
    qualified = [m.group(1) for m in _QUALIFYING.finditer(clause)]
    if not durations or len(qualified) < len(durations):
        return ""
    named = any(_same(_stem(w), t) for words in qualified for w in re.findall(r"[A-Za-z]+", words) for t in thing)
    return "" if named else "another attribute"
