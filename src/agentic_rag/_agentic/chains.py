"""Final evidence ranked as chains: a passage and the passage its bridge entity leads to.

A multi-hop question ("Who is the employer of the physicist the Mach number is named
after?") is answered by two passages: the one about what the question names (the Mach
number) and the one about the entity that passage names (Ernst Mach). Ranked one by one, the
second hop rarely looks like the question, so ten first-hop look-alikes fill the top ten.
Ranked as chains, the pair that answers together comes up together.

A chain's score is the first-hop passage's relevance to the question (its share of the
question's weighted terms, plus a bonus when it is about something the question names) and
the second-hop passage's relevance to the question with the bridge entity substituted: the
question terms it adds to the first hop's, how well it links to the bridge (about it, by its
title, counts more than naming it), and how specific the bridge is (one only a few passages
name links them; "American" links everything). Terms are weighted by their inverse frequency
in the evidence pool, so the words every retrieved passage shares weigh little.

Each passage's chain order is the best chain it takes part in; the final order fuses that
order with the loop's own (reciprocal rank fusion), so passages the loop already trusts keep
their place and the second hops of the best chains move up beside them. Only bridge questions
(a plan fact that depends on another) are reordered.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from agentic_rag._agentic.fact_evidence import FactEvidenceModel
from agentic_rag._agentic.passage_terms import without_qualifier
from agentic_rag._contracts import RetrievalPlan, Snippet
from agentic_rag._contracts.validation import require_int, require_number

__all__ = ["Chain", "ChainRanker"]


@dataclass(frozen=True, slots=True)
class Chain:
    """Two passages linked by a bridge entity.

    Args:
        head_id: The first-hop snippet's id.
        tail_id: The second-hop snippet's id (it names ``bridge``).
        bridge: The entity the head names and the question does not.
        score: The chain's score (higher is better).
    """

    head_id: str
    tail_id: str
    bridge: str
    score: float


class ChainRanker:
    """Orders evidence so the best chains' passages lead.

    Args:
        evidence: The evidence model whose terms and bridges are used (share the judge's, so
            their caches are shared too).
        bridges_per_passage: Bridge entities followed from each passage, best first.
        weight: Weight of the chain order against the loop's order in the fusion.
        fusion_k: The reciprocal rank fusion constant (``1 / (k + rank)``); 30 rather than
            the usual 60 on the HotpotQA and MuSiQue tuning halves (both +1 question or more).
        anchor_bonus: Added to a first hop that is about what the question names.
        about_bonus: Added to a second hop whose title is the bridge entity.
        specificity_weight: Weight of ``1 / sqrt(passages naming the bridge)``.

    Defaults were chosen on the tuning halves of HotpotQA and MuSiQue (``bench/retrieval/bench_multihop.py
    --half tune``).

    Raises:
        InvalidInputError: A count below 1 or a negative weight.
    """

    def __init__(
        self,
        evidence: FactEvidenceModel | None = None,
        *,
        bridges_per_passage: int = 8,
        weight: float = 1.0,
        fusion_k: int = 30,
        anchor_bonus: float = 0.3,
        about_bonus: float = 0.5,
        specificity_weight: float = 0.5,
    ) -> None:
        self.evidence = evidence or FactEvidenceModel()
        self.bridges_per_passage = require_int(bridges_per_passage, "bridges_per_passage", minimum=1, stage="chains")
        self.fusion_k = require_int(fusion_k, "fusion_k", minimum=1, stage="chains")
        for name, value in (("weight", weight), ("anchor_bonus", anchor_bonus), ("about_bonus", about_bonus), ("specificity_weight", specificity_weight)):
            require_number(value, name, minimum=0, stage="chains")
        self.weight = float(weight)
        self.anchor_bonus = float(anchor_bonus)
        self.about_bonus = float(about_bonus)
        self.specificity_weight = float(specificity_weight)

    @staticmethod
    def applies(plan: RetrievalPlan) -> bool:
        """True when the plan has a hop that waits for another (a bridge question): only then
        is the answer spread over a chain; comparison and plain questions keep their order."""
        return any(fact.depends_on for fact in plan.facts)

    def chains(self, question: str, snippets: Sequence[Snippet]) -> tuple[Chain, ...]:
        """Every chain among ``snippets``, best first.

        Args:
            question: The question.
            snippets: The evidence pool, in the loop's order.

        Returns:
            The chains, ordered by score (descending), then head id, tail id and bridge, so
            equal scores always come out in the same order.
        """
        found = self._score(question, list(snippets))
        return tuple(sorted(found.values(), key=lambda c: (-c.score, c.head_id, c.tail_id, c.bridge)))

    def rank(self, question: str, plan: RetrievalPlan, snippets: Sequence[Snippet]) -> list[Snippet]:
        """Return ``snippets`` in final order: the given order fused with the chain order.

        Args:
            question: The question.
            plan: The run's plan (see :meth:`applies`: without a dependent fact the order is
                returned unchanged).
            snippets: The evidence, best first by the loop's own order.

        Returns:
            The same snippets, reordered. Ties keep the given order.
        """
        pool = list(snippets)
        if len(pool) < 2 or not self.applies(plan):
            return pool
        best = [0.0] * len(pool)
        position = {s.id: n for n, s in enumerate(pool)}
        for chain in self._score(question, pool).values():
            for sid in (chain.head_id, chain.tail_id):
                best[position[sid]] = max(best[position[sid]], chain.score)
        # Chain order: best chain first, then id (a total order whatever the scores). A passage
        # in no chain gains nothing from it: ranking those by id would be an arbitrary bonus.
        chain_rank = {n: r for r, n in enumerate(sorted(range(len(pool)), key=lambda n: (-best[n], pool[n].id)))}
        k = self.fusion_k
        fused = [1.0 / (k + n + 1) + (self.weight / (k + chain_rank[n] + 1) if best[n] > 0 else 0.0) for n in range(len(pool))]
        return [pool[n] for n in sorted(range(len(pool)), key=lambda n: (-fused[n], n))]

    def _score(self, question: str, pool: list[Snippet]) -> dict[tuple[str, str], Chain]:
        """The best chain for every (head, tail) pair that a bridge links."""
        ev = self.evidence
        asked = ev.terms_of(question)
        terms = [ev.snippet_terms(s) for s in pool]
        weights = _pool_weights(asked, terms)
        total = sum(weights.values()) or 1.0
        postings: dict[str, set[int]] = {}
        for n, found in enumerate(terms):
            for term in found:
                postings.setdefault(term, set()).add(n)
        titles = [ev.terms_of(without_qualifier(s.title)) if s.title else frozenset() for s in pool]
        out: dict[tuple[str, str], Chain] = {}
        for h, head in enumerate(pool):
            head_score = sum(weights[t] for t in terms[h] & asked) / total
            if ev.is_anchor(head, question):
                head_score += self.anchor_bonus
            for bridge in ev.bridges(head, question)[: self.bridges_per_passage]:
                named = ev.terms_of(bridge)
                if not named:
                    continue
                # Passages naming the bridge: the intersection of its terms' postings.
                tails = set.intersection(*(postings.get(t, set()) for t in sorted(named)))
                if not tails:
                    continue
                specificity = self.specificity_weight / math.sqrt(len(tails))
                for t in sorted(tails):
                    tail = pool[t]
                    if t == h or tail.document_id == head.document_id:
                        continue
                    gain = sum(weights[x] for x in (terms[t] & asked) - terms[h]) / total
                    about = self.about_bonus if titles[t] and (titles[t] <= named or named <= titles[t]) else 0.0
                    score = round(head_score + gain + about + specificity, 9)
                    key = (head.id, tail.id)
                    if key not in out or score > out[key].score:
                        out[key] = Chain(head.id, tail.id, bridge, score)
        return out


def _pool_weights(asked: frozenset[str], terms: list[frozenset[str]]) -> dict[str, float]:
    """BM25-style inverse frequencies of the question's terms within the evidence pool."""
    n = len(terms)
    frequency = {t: sum(1 for found in terms if t in found) for t in asked}
    return {t: math.log(1 + (n - df + 0.5) / (df + 0.5)) for t, df in frequency.items()}
