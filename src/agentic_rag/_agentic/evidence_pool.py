"""The evidence one agentic run has gathered: each snippet once, with the ranks every subquery
gave it, best first.

A snippet found again keeps its first copy, its best score and the union of its lineage; the
pool holds at most ``max_snippets`` (a hit beyond that is dropped and the pool reports it
truncated). The order is by best reciprocal rank in any subquery, then by the sum over
subqueries, then by first-seen order (see :meth:`EvidencePool.ranked`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from agentic_rag._contracts import Snippet, Subquery

__all__ = ["EvidencePool"]

# Reciprocal-rank constant (ranks from 1), as in reciprocal rank fusion.
_RRF_K = 60


class EvidencePool:
    """The snippets of one run, deduplicated, with their rank credit.

    Args:
        max_snippets: The most snippets the pool keeps.
    """

    def __init__(self, max_snippets: int) -> None:
        self.max_snippets = max_snippets
        self.snippets: dict[tuple[str, str, int, int], Snippet] = {}
        # Reciprocal ranks of each snippet in every subquery that found it.
        self.rank_credit: dict[tuple[str, str, int, int], list[float]] = {}

    def add(self, subquery: Subquery, found: Sequence[Snippet]) -> tuple[list[Snippet], bool]:
        """Add the hits ``found`` for ``subquery``, best first.

        Returns:
            The snippets new to the pool (stamped with the subquery and its fact), and whether
            a hit was dropped because the pool was full.
        """
        new: list[Snippet] = []
        truncated = False
        for rank, hit in enumerate(found, start=1):
            stamped = dataclasses.replace(hit, query_id=subquery.id, fact_id=subquery.fact_id, lineage=())
            key = stamped.key
            if key in self.snippets or len(self.snippets) < self.max_snippets:
                self.rank_credit.setdefault(key, []).append(1.0 / (_RRF_K + rank))
            if key in self.snippets:
                old = self.snippets[key]
                lineage = tuple(dict.fromkeys(old.lineage + stamped.lineage))
                self.snippets[key] = dataclasses.replace(old, score=max(old.score, stamped.score), lineage=lineage)
            elif len(self.snippets) >= self.max_snippets:
                truncated = True
            else:
                self.snippets[key] = stamped
                new.append(stamped)
        return new, truncated

    def ranked(self) -> list[Snippet]:
        """The evidence best first: by best reciprocal rank in any subquery, then by the sum
        over subqueries, then by first-seen order.

        The best rank, not the sum, leads: follow-up queries share words, so a sum would
        reward generic passages every query brushes against over the one passage a single
        targeted query found first. Drafters and judges get the evidence in this order.
        """
        seen = list(self.snippets)
        credit = {key: (max(values), sum(values)) for key, values in self.rank_credit.items()}
        order = sorted(range(len(seen)), key=lambda i: (-credit.get(seen[i], (0.0, 0.0))[0], -credit.get(seen[i], (0.0, 0.0))[1], i))
        return [self.snippets[seen[i]] for i in order]
