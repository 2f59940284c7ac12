"""Which snippets cover which required fact: the evidence model the judge and drafter share.

A fact's terms are its ``required_terms`` (every term of every phrase must appear) or, when
none are given, the analysed content terms of its description. A snippet covers the fraction
of those terms its title and text contain. Two kinds of multi-hop support count as well:

* a fact that ``depends_on`` another is only supported by snippets that mention a bridge
  entity found in the other fact's evidence (so "born in Lyon" counts for "where was the
  founder born" only in the passage about the founder the first hop found);
* a fact with no dependency may be covered by a *chain* of two snippets: one that covers part
  of its terms and names an entity the question does not, and one that mentions that entity
  and covers the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from agentic_rag.contracts import RequiredFact, RetrievalPlan, Snippet
from agentic_rag.text import Analyzer
from agentic_rag.text.entities import extract_entities

__all__ = ["FactEvidence", "FactEvidenceModel"]


@dataclass(frozen=True, slots=True)
class FactEvidence:
    """How well the snippets cover one fact.

    Args:
        fact_id: The fact.
        terms: The analysed terms it needs.
        coverage: Best fraction of ``terms`` found (single snippet or a bridged chain).
        covered: Whether ``coverage`` reaches the threshold (and dependencies hold).
        snippet_ids: The snippets giving that coverage, in chain order.
        missing_terms: Terms still not found.
        bridges: Entities in the evidence that the question does not name, in text order.
        blocked_by: A dependency that is not covered yet (then nothing else counts).
    """

    fact_id: str
    terms: tuple[str, ...]
    coverage: float
    covered: bool
    snippet_ids: tuple[str, ...]
    missing_terms: tuple[str, ...]
    bridges: tuple[str, ...]
    blocked_by: str = ""


class FactEvidenceModel:
    """Computes :class:`FactEvidence` for every fact of a plan.

    Args:
        analyzer: Analyzer for facts and snippets (default English + Snowball).
        term_threshold: Fraction of description terms that counts as covered when a fact has
            no ``required_terms`` (with ``required_terms`` every term is needed).
        max_chain_heads: How many partially covering snippets to try as chain heads.
    """

    def __init__(self, analyzer: Analyzer | None = None, *, term_threshold: float = 0.8, max_chain_heads: int = 5) -> None:
        self.analyzer = analyzer or Analyzer()
        self.term_threshold = term_threshold
        self.max_chain_heads = max_chain_heads
        self._terms = lru_cache(maxsize=8192)(self._terms_uncached)
        self._entities = lru_cache(maxsize=4096)(lambda text: tuple((m.text, m.kind) for m in extract_entities(text)))

    def fact_terms(self, fact: RequiredFact) -> tuple[str, ...]:
        """Return the analysed terms ``fact`` needs, deduplicated in first-seen order."""
        sources = fact.required_terms or (fact.description,)
        return tuple(dict.fromkeys(t for source in sources for t in self.analyzer.analyze(source)))

    def snippet_terms(self, snippet: Snippet) -> frozenset[str]:
        """Return the analysed terms of a snippet's title and text."""
        return self._terms(f"{snippet.title}\n{snippet.text}")

    def bridges(self, snippet: Snippet, question: str) -> tuple[str, ...]:
        """Entities in ``snippet`` (title first) that ``question`` does not already name."""
        asked = set(self.analyzer.analyze(question))
        out: list[tuple[int, str]] = []
        for text in (snippet.title, snippet.text):
            for entity, kind in self._entities(text):
                terms = self._terms(entity)
                if terms and not terms <= asked and entity not in [e for _, e in out]:
                    # Names lead a follow-up query better than bare numbers do.
                    out.append((1 if kind == "number" else 0, entity))
        return tuple(e for _, e in sorted(out, key=lambda item: item[0]))

    def mentions(self, snippet: Snippet, entity: str) -> bool:
        """True when every analysed term of ``entity`` occurs in the snippet."""
        terms = self._terms(entity)
        return bool(terms) and terms <= self.snippet_terms(snippet)

    def assess(self, plan: RetrievalPlan, snippets: Sequence[Snippet]) -> tuple[FactEvidence, ...]:
        """Return the evidence for every fact of ``plan``, in plan order.

        Dependencies are resolved in plan order, so a fact must come after the facts it
        depends on to see their bridges (the planners order them so).
        """
        ordered = sorted(snippets, key=lambda s: (-s.score, s.id))
        results: dict[str, FactEvidence] = {}
        for fact in plan.facts:
            results[fact.id] = self._fact(fact, plan, ordered, results)
        return tuple(results[f.id] for f in plan.facts)

    def _fact(self, fact: RequiredFact, plan: RetrievalPlan, snippets: list[Snippet], done: dict[str, FactEvidence]) -> FactEvidence:
        terms = self.fact_terms(fact)
        threshold = 1.0 if fact.required_terms else self.term_threshold
        blocked = next((d for d in fact.depends_on if d in done and not done[d].covered), "")
        if blocked or not terms:
            return FactEvidence(fact.id, terms, 0.0, False, (), terms, (), blocked)
        needed = set(terms)
        bridge_entities: tuple[str, ...] = ()
        pool = snippets
        if fact.depends_on:
            bridge_entities = tuple(dict.fromkeys(b for d in fact.depends_on if d in done for b in done[d].bridges))
            pool = [s for s in snippets if any(self.mentions(s, b) for b in bridge_entities)]
        best: tuple[float, tuple[Snippet, ...]] = (0.0, ())
        for snippet in pool:
            share = len(needed & self.snippet_terms(snippet)) / len(needed)
            if share > best[0]:
                best = (share, (snippet,))
        if best[0] < threshold and not fact.depends_on:
            best = max(best, self._chain(needed, plan.question, snippets, best[0]), key=lambda b: b[0])
        share, chain = best
        found = set().union(*(self.snippet_terms(s) for s in chain)) if chain else set()
        missing = tuple(t for t in terms if t not in found)
        bridges = tuple(dict.fromkeys(b for s in chain for b in self.bridges(s, plan.question)))
        return FactEvidence(fact.id, terms, round(share, 6), share >= threshold, tuple(s.id for s in chain), missing, bridges)

    def _chain(self, needed: set[str], question: str, snippets: list[Snippet], floor: float) -> tuple[float, tuple[Snippet, ...]]:
        heads = [s for s in snippets if needed & self.snippet_terms(s)][: self.max_chain_heads]
        best: tuple[float, tuple[Snippet, ...]] = (floor, ())
        for head in heads:
            head_terms = needed & self.snippet_terms(head)
            entities = self.bridges(head, question)
            for tail in snippets:
                if tail.id == head.id:
                    continue
                gained = (needed & self.snippet_terms(tail)) - head_terms
                if not gained or not any(self.mentions(tail, e) for e in entities):
                    continue
                share = (len(head_terms) + len(gained)) / len(needed)
                if share > best[0]:
                    best = (share, (head, tail))
        return best

    def _terms_uncached(self, text: str) -> frozenset[str]:
        return frozenset(self.analyzer.analyze(text))
