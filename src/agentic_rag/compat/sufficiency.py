"""The scaffold's sufficiency judge and selective-abstention policy (``agentic_rag.sufficiency``).

The judge is the modern :class:`~agentic_rag.AutoraterStyleSufficiencyJudge`: fact coverage,
conflicts and unsupported claims come from it. Only the verdict is read the scaffold's way:
unsupported draft claims make the context insufficient, the score is the share of facts
covered (partial coverage of a missing fact adds nothing), a fact with no route and no
evidence makes the question unanswerable, and each missing routed fact gets one follow-up
query, its description, sent to its route.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from agentic_rag import _contracts as core
from agentic_rag._agentic.judge import AutoraterStyleSufficiencyJudge as _CoreJudge
from agentic_rag._agentic.policy import AbstentionPolicy
from agentic_rag.compat import contracts as old
from agentic_rag.compat._convert import conflicts_from_core, draft_to_core, plan_to_core

__all__ = ["AutoraterStyleSufficiencyJudge", "apply_selective_abstention_policy"]

_PARTIAL_NOTE = "Partial evidence"
_CONFLICT_NOTE = "Conflicting evidence"
_NO_ANSWER_NOTE = "No grounded answer"


class AutoraterStyleSufficiencyJudge:
    """Judges a scaffold plan's evidence with the modern judge and reports in the scaffold's shape.

    Called with a modern plan it is the modern judge (modern assessment out).

    Args:
        judge: The modern judge to read (default :class:`~agentic_rag.AutoraterStyleSufficiencyJudge`).
    """

    def __init__(self, judge: _CoreJudge | None = None) -> None:
        self.judge = judge or _CoreJudge()

    def assess(self, question: str, plan: old.RetrievalPlan | core.RetrievalPlan, snippets: Sequence[core.Snippet], draft: old.DraftAnswer | core.DraftAnswer) -> old.ContextAssessment | core.ContextAssessment:
        """Assess the evidence and the draft.

        Args:
            question: The question.
            plan: The plan (scaffold or modern shape).
            snippets: The evidence so far.
            draft: The current draft.

        Returns:
            A scaffold :class:`~agentic_rag.compat.contracts.ContextAssessment` for a
            scaffold plan, a modern one for a modern plan.
        """
        snippets = tuple(snippets)
        if isinstance(plan, core.RetrievalPlan):
            return self.judge.assess(question, plan, snippets, draft_to_core(draft, snippets))
        verdict = self.judge.assess(question, plan_to_core(plan), snippets, draft_to_core(draft, snippets))
        return read_verdict(verdict, plan)


def read_verdict(verdict: core.ContextAssessment, plan: old.RetrievalPlan) -> old.ContextAssessment:
    """The scaffold reading of a modern assessment of ``plan`` (see the module docstring)."""
    facts = {f.id: f for f in plan.required_facts}
    covered = tuple(f for f in verdict.covered_fact_ids if f in facts)
    missing = tuple(f.id for f in plan.required_facts if f.id not in covered)
    routed = {r.fact_id for r in plan.routes if r.candidate_corpus_ids}
    unsupported = tuple(c.text for c in verdict.unsupported_claims)
    conflicts = conflicts_from_core(verdict.conflicts)
    must_missing = [f for f in missing if facts[f].priority is core.FactPriority.MUST]
    if conflicts:
        label = core.AnswerabilityLabel.CONFLICTING
        reason = f"Found conflicting evidence for required facts: {', '.join(c.fact_id for c in conflicts)}."
    elif unsupported:
        label = core.AnswerabilityLabel.INSUFFICIENT
        reason = f"{len(unsupported)} draft claim(s) are not supported by the retrieved snippets."
    elif not must_missing:
        label = core.AnswerabilityLabel.SUFFICIENT
        reason = "Every required fact is covered by retrieved snippets."
    elif covered:
        label = core.AnswerabilityLabel.USEFUL_BUT_INCOMPLETE
        reason = f"Missing evidence for required facts: {', '.join(missing)}."
    elif not any(f in routed for f in missing):
        label = core.AnswerabilityLabel.UNANSWERABLE
        reason = "No required fact has a route or any evidence."
    else:
        label = core.AnswerabilityLabel.INSUFFICIENT
        reason = f"Missing evidence for required facts: {', '.join(missing)}."
    status = {core.AnswerabilityLabel.SUFFICIENT: old.ContextStatus.SUFFICIENT, core.AnswerabilityLabel.UNANSWERABLE: old.ContextStatus.UNANSWERABLE}.get(label, old.ContextStatus.INSUFFICIENT)
    total = sum(f.priority.weight for f in plan.required_facts)
    score = round(sum(facts[f].priority.weight for f in covered) / total, 6)
    support = {s.fact_id: s.snippet_ids for s in verdict.support}
    feedback = []
    for fact_id in missing:
        route = plan.route_for(fact_id)
        if route is not None and route.candidate_corpus_ids:
            feedback.append(old.FeedbackQuery(facts[fact_id].description, route.candidate_corpus_ids, f"Evidence for required fact {fact_id!r} was not found.", fact_id))
    return old.ContextAssessment(
        status=status,
        sufficiency_score=score,
        covered_facts=tuple(old.CoveredFact(f, support.get(f, ())) for f in covered),
        missing_facts=tuple(facts[f].description for f in missing),
        unsupported_claims=unsupported,
        conflicts=conflicts,
        feedback_queries=tuple(feedback),
        reason=reason,
        answerability=label,
    )


def apply_selective_abstention_policy(answer: old.GroundedAnswer, assessment: old.ContextAssessment, policy: AbstentionPolicy | None = None) -> old.GroundedAnswer:
    """Never let an answer claim more than its assessment supports.

    The status is the weaker of the answer's and the one the modern
    :class:`~agentic_rag.components.AbstentionPolicy` gives the assessment's label. A PARTIAL
    answer is prefixed with what kind of evidence it rests on (partial, or conflicting with
    the conflicts attached) and keeps its citations; an UNANSWERABLE one drops its citations.

    Args:
        answer: The synthesizer's answer.
        assessment: The final assessment.
        policy: The label-to-status mapping (default :class:`AbstentionPolicy`).

    Returns:
        The guarded answer (the same object when nothing changes).
    """
    policy = policy or AbstentionPolicy()
    label = assessment.answerability_label
    allowed = policy.status_for(label)
    if assessment.status is not old.ContextStatus.SUFFICIENT and allowed is core.AnswerStatus.ANSWERED:
        allowed = core.AnswerStatus.PARTIAL
    rank = {core.AnswerStatus.UNANSWERABLE: 0, core.AnswerStatus.PARTIAL: 1, core.AnswerStatus.ANSWERED: 2}
    status = min(answer.status, allowed, key=rank.__getitem__)
    missing = answer.missing_facts or assessment.missing_facts
    if status is core.AnswerStatus.ANSWERED:
        return answer if status is answer.status else dataclasses.replace(answer, status=status)
    if status is core.AnswerStatus.UNANSWERABLE:
        text = answer.answer if _NO_ANSWER_NOTE in answer.answer else f"{_NO_ANSWER_NOTE}: the retrieved context is not sufficient." + (f" Missing: {'; '.join(missing)}." if missing else "")
        return dataclasses.replace(answer, answer=text, citations=(), status=status, missing_facts=missing)
    conflicts = answer.conflicts or assessment.conflicts
    note = _CONFLICT_NOTE if label is core.AnswerabilityLabel.CONFLICTING or conflicts else _PARTIAL_NOTE
    text = answer.answer if note in answer.answer else f"{note}: {answer.answer}".rstrip(": ")
    return dataclasses.replace(answer, answer=text, status=status, missing_facts=missing, conflicts=conflicts)
