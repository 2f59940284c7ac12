"""Follow-up queries for missing facts, built from the bridge entities the evidence names.

Multi-hop questions name the first entity and describe the second; the passage about the
first names the second (and the passage about the second names the third). So a follow-up
query pairs a *bridge entity* (a retrieved passage's title, a name, a quoted span or a number
near the question's terms, that the question does not already name) with the fact's words
the evidence still misses.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentic_rag._agentic.fact_evidence import FactEvidence, FactEvidenceModel
from agentic_rag._contracts import FeedbackQuery, RequiredFact, Snippet
from agentic_rag._text.questions import fold_query

__all__ = ["BridgeFeedback"]


class BridgeFeedback:
    """Builds ranked follow-up queries for one missing fact.

    A fact that depends on a covered fact follows that fact's bridges. Any other fact
    follows the bridges of its best partially covering snippets ("heads"), interleaved so the
    first queries try different heads. Without any bridge the query is the missing words.

    Args:
        evidence: The evidence model (for terms and bridges).
        max_queries: Follow-up queries per missing fact.
        heads: How many partially covering snippets to take bridges from.
        bridges_per_head: Bridges tried per head.
    """

    def __init__(self, evidence: FactEvidenceModel, *, max_queries: int = 1, heads: int = 4, bridges_per_head: int = 4) -> None:
        self.evidence = evidence
        self.max_queries = max_queries
        self.heads = heads
        self.bridges_per_head = bridges_per_head

    def queries(self, question: str, fact: RequiredFact, item: FactEvidence, all_evidence: Sequence[FactEvidence], snippets: Sequence[Snippet]) -> tuple[FeedbackQuery, ...]:
        """Return up to ``max_queries`` follow-up queries for a missing fact, best first."""
        by_id = {s.id: s for s in snippets}
        candidates: list[tuple[str, frozenset[str], Snippet | None]] = []  # (bridge, terms found, parent snippet)
        if fact.depends_on:
            limit = self.bridges_per_head * self.heads
            for dep in (e for e in all_evidence if e.fact_id in fact.depends_on):
                parent = by_id.get(dep.snippet_ids[0]) if dep.snippet_ids else None
                candidates.extend((b, frozenset(), parent) for b in dep.bridges[:limit])
            tail = by_id.get(item.snippet_ids[-1]) if item.snippet_ids else None
            if tail is not None:
                # The next hop's best passage names the hop after it (a question with three
                # or four hops): its bridges come after the first hop's.
                candidates.extend((b, frozenset(), tail) for b in item.bridges[:limit])
        else:
            needed = set(item.terms)
            # Anchors (passages about what the question names) lead: the next hop is named in
            # them. Then the passages covering most of the fact.
            ranked = sorted(
                (s for s in snippets if needed & self.evidence.snippet_terms(s)),
                key=lambda s: (not self.evidence.is_anchor(s, question), -len(needed & self.evidence.snippet_terms(s)), -s.score, s.id),
            )[: self.heads]
            per_head = [[(b, self.evidence.snippet_terms(h), h) for b in self.evidence.bridges(h, question)[: self.bridges_per_head]] for h in ranked]
            for rank in range(self.bridges_per_head):
                candidates.extend(row[rank] for row in per_head if rank < len(row))
        out: list[FeedbackQuery] = []
        seen: set[str] = set()
        # The missing terms as the fact writes them (a reader sees "father", not the stem "fathe").
        lacking = ", ".join(self._missing_words(fact, set(item.missing_terms))) or "evidence"
        for bridge, found, parent in candidates:
            words = self._missing_words(fact, set(item.terms) - found if found else set(item.missing_terms))
            text = " ".join((bridge, *words))
            key = fold_query(text)
            if key in seen:
                continue
            seen.add(key)
            out.append(FeedbackQuery(
                fact_id=fact.id,
                text=text,
                reason=f"fact {fact.id} missing {lacking}; following bridge {bridge!r}",
                parent_id=(parent.query_id or None) if parent is not None else None,
            ))
            if len(out) == self.max_queries:
                return tuple(out)
        if not out:
            words = self._missing_words(fact, set(item.missing_terms))
            out.append(FeedbackQuery(fact_id=fact.id, text=" ".join(words) or fact.description, reason=f"fact {fact.id} missing {lacking}"))
        return tuple(out)

    def _missing_words(self, fact: RequiredFact, missing: set[str]) -> list[str]:
        analyzer = self.evidence.analyzer
        words = [w for w in analyzer.tokenize(" ".join((fact.description, *fact.required_terms)))
                 if not analyzer.is_stopword(w) and self.evidence.terms_of(w) & missing]
        return list(dict.fromkeys(words))

