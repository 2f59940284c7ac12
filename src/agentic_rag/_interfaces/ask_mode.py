"""Which workflow answers ``ask``: the one list the CLI, the MCP tools and the store service use.

Kept in a module of its own, with no imports, so the command line can build its ``--mode``
choices without loading the workflows.
"""

from __future__ import annotations

import enum

__all__ = ["DEFAULT_EVIDENCE", "AskMode"]

DEFAULT_EVIDENCE = 3
"""Passages in an ``ask`` payload's ``evidence`` unless asked otherwise (each shows its focus
lines; three keep ``ask --json`` near 2.5 KB, see ``bench/bench_agent_cost.py``)."""


class AskMode(str, enum.Enum):
    """Which workflow ``ask`` runs.

    ``agentic``: plan, retrieve, judge and iterate until the evidence is enough (the default);
    ``parallel``: one pass over BM25 and vector branches fused by RRF.
    """

    AGENTIC = "agentic"
    PARALLEL = "parallel"
