"""The deterministic sufficiency judge, modelled on the Sufficient Context autorater.

It answers the autorater's question ("is this context enough to answer?") from fact
coverage instead of a model: every MUST fact covered, no conflict, the weighted score above
the plan's bar. Beyond the binary verdict it labels answerability, lists unsupported draft
claims and conflicting evidence, and asks one targeted follow-up query per missing fact.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentic_rag._agentic.fact_evidence import FactEvidenceModel
from agentic_rag._agentic.feedback import BridgeFeedback
from agentic_rag._agentic.policy import AbstentionPolicy
from agentic_rag._answering.guard import unsupported_claims
from agentic_rag._contracts import (
    AnswerabilityLabel,
    ConflictEvidence,
    ConflictGroup,
    ContextAssessment,
    DraftAnswer,
    FactPriority,
    FactSupport,
    RequiredFact,
    RetrievalPlan,
    Snippet,
    SufficiencyStatus,
)
from agentic_rag._contracts.validation import require_int
from agentic_rag._text import Analyzer

__all__ = ["AutoraterStyleSufficiencyJudge", "unsupported_claims"]


class AutoraterStyleSufficiencyJudge:
    """Judges sufficiency by fact coverage, with conflicts, unsupported claims and feedback.

    Coverage uses ``required_terms`` when a fact has them, otherwise the analysed content
    terms of its description (see :class:`FactEvidenceModel`, which also handles bridged
    facts). The label is SUFFICIENT when every MUST fact is covered, nothing conflicts and
    the weighted score reaches the plan's ``min_sufficiency``; CONFLICTING when covered facts
    have snippets carrying different ``conflict_terms``; USEFUL_BUT_INCOMPLETE when some fact
    is covered; INSUFFICIENT when snippets touch the facts at all;
    UNANSWERABLE otherwise.

    Args:
        analyzer: The analyzer (default English stop words + Snowball).
        term_threshold: Share of description terms that covers a fact without required terms.
        policy: The selective-abstention policy mapping labels to answer statuses.
        evidence_model: A custom evidence model (overrides ``analyzer``/``term_threshold``).
        feedback_per_fact: Follow-up queries proposed per missing fact, best first (bridges
            tried in turn); the orchestrator issues the first ones not asked before, up to
            its per-round cap, so proposing more than one keeps the loop going when the best
            follow-up was already tried.
    """

    def __init__(
        self,
        analyzer: Analyzer | None = None,
        *,
        term_threshold: float = 0.8,
        policy: AbstentionPolicy | None = None,
        evidence_model: FactEvidenceModel | None = None,
        feedback_per_fact: int = 6,
    ) -> None:
        self.evidence = evidence_model or FactEvidenceModel(analyzer, term_threshold=term_threshold)
        self.policy = policy or AbstentionPolicy()
        self.feedback = BridgeFeedback(self.evidence, max_queries=require_int(feedback_per_fact, "feedback_per_fact", minimum=1, stage="judge"))

    def assess(self, question: str, plan: RetrievalPlan, snippets: Sequence[Snippet], draft: DraftAnswer) -> ContextAssessment:
        """Assess the evidence and the draft.

        Args:
            question: The question.
            plan: The plan whose facts define sufficiency.
            snippets: All evidence so far.
            draft: The current draft (its claims are checked against the snippets).

        Returns:
            The assessment, with ``feedback_per_fact`` follow-up queries per missing fact
            that is not waiting on another missing fact.
        """
        evidence = self.evidence.assess(plan, snippets)
        facts = {f.id: f for f in plan.facts}
        covered = tuple(e.fact_id for e in evidence if e.covered)
        missing = tuple(e.fact_id for e in evidence if not e.covered)
        total = sum(facts[e.fact_id].priority.weight for e in evidence)
        score = sum(facts[e.fact_id].priority.weight * (1.0 if e.covered else e.coverage) for e in evidence) / total
        score = round(min(1.0, max(0.0, score)), 6)
        conflicts = tuple(c for e in evidence if e.covered for c in self._conflicts(facts[e.fact_id], snippets))
        must_missing = [f for f in missing if facts[f].priority is FactPriority.MUST]
        if conflicts:
            label = AnswerabilityLabel.CONFLICTING
        elif not must_missing and score >= plan.stop_conditions.min_sufficiency:
            label = AnswerabilityLabel.SUFFICIENT
        elif covered:
            label = AnswerabilityLabel.USEFUL_BUT_INCOMPLETE
        elif any(e.coverage > 0 for e in evidence):
            label = AnswerabilityLabel.INSUFFICIENT
        else:
            label = AnswerabilityLabel.UNANSWERABLE
        status = SufficiencyStatus.SUFFICIENT if label is AnswerabilityLabel.SUFFICIENT else SufficiencyStatus.INSUFFICIENT
        per_fact = [self.feedback.queries(question, facts[e.fact_id], e, evidence, snippets) for e in evidence if not e.covered and not e.blocked_by]
        # Interleaved across facts, so a per-round cap on subqueries serves every fact.
        feedback = tuple(p[rank] for rank in range(max((len(p) for p in per_fact), default=0)) for p in per_fact if rank < len(p))
        rationale = "; ".join(
            f"{e.fact_id} covered by {', '.join(e.snippet_ids)}" if e.covered
            else f"{e.fact_id} waits for {e.blocked_by}" if e.blocked_by
            else f"{e.fact_id} missing {', '.join(e.missing_terms) or 'evidence'} ({e.coverage:.2f})"
            for e in evidence
        )
        return ContextAssessment(
            status=status,
            sufficiency_score=score,
            covered_fact_ids=covered,
            missing_fact_ids=missing,
            unsupported_claims=unsupported_claims(draft.claims, snippets),
            conflicts=conflicts,
            feedback_queries=feedback,
            label=label,
            rationale=rationale,
            support=tuple(FactSupport(e.fact_id, e.snippet_ids, e.coverage) for e in evidence if e.snippet_ids),
        )

    def _conflicts(self, fact: RequiredFact, snippets: Sequence[Snippet]) -> tuple[ConflictEvidence, ...]:
        if len(fact.conflict_terms) < 2:
            return ()
        needed = set(self.evidence.fact_terms(fact))
        threshold = 1.0 if fact.required_terms else self.evidence.term_threshold
        groups = []
        for value in fact.conflict_terms:
            ids = tuple(sorted(
                s.id for s in snippets
                if needed and len(needed & self.evidence.snippet_terms(s)) / len(needed) >= threshold and self.evidence.mentions(s, value)
            ))
            if ids:
                groups.append(ConflictGroup(value=value, snippet_ids=ids))
        return (ConflictEvidence(fact_id=fact.id, groups=tuple(groups)),) if len(groups) >= 2 else ()
