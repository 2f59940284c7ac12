"""Which workflow answers ``ask``, and the longest query or question: the one list and the one
limit the CLI, the MCP tools and the store service use.

Kept in a module of its own, with no imports, so the command line can build its ``--mode``
choices without loading the workflows.
"""

from __future__ import annotations

import enum

__all__ = ["DEFAULT_EVIDENCE", "DEFAULT_HITS", "MAX_QUERY_CHARS", "AskMode"]

DEFAULT_EVIDENCE = 3
"""Passages in an ``ask`` payload's ``evidence`` unless asked otherwise (each shows its focus
lines; three keep ``ask --json`` near 2.5 KB, see ``bench/agents/bench_agent_cost.py``)."""
DEFAULT_HITS = 5
"""How many hits ``search`` prints at most unless asked (CLI ``-k``, MCP ``k``): the number
SKILL.md recommends; fewer are printed when the first hits are clearly better than the rest, but a weak best hit is never printed alone."""
MAX_QUERY_CHARS = 4096
"""Longest ``search`` query or ``ask`` question, in characters. A question is a sentence or a
paragraph; a megabyte of it is a mistake or an attack, and would hold the server for seconds."""


class AskMode(str, enum.Enum):
    """Which workflow ``ask`` runs.

    ``agentic``: plan, retrieve, judge and iterate until the evidence is enough (the default);
    ``parallel``: one pass over BM25 and vector branches fused by RRF.
    """

    AGENTIC = "agentic"
    PARALLEL = "parallel"
