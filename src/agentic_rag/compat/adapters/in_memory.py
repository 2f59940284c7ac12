"""The scaffold's in-memory components (``agentic_rag.adapters.in_memory``).

Each one does its work with a modern component: the retriever is BM25
(:class:`~agentic_rag.compat.adapters.retriever.LexicalRetriever`), the drafter and the
synthesizer are the extractive ones, the judge is the modern judge read the scaffold's way
(:mod:`agentic_rag.compat.sufficiency`). Only the planner and the rewriter are the scaffold's
own simple rules: a scripted plan, and one subquery per fact or per feedback query.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from agentic_rag import _contracts as core
from agentic_rag._agentic.extractive import ExtractiveDrafter, ExtractiveGroundedSynthesizer
from agentic_rag.compat import contracts as old
from agentic_rag.compat._convert import (
    answer_from_core,
    assessment_to_core,
    draft_from_core,
    plan_to_core,
)
from agentic_rag.compat.adapters.retriever import LexicalDocument, LexicalRetriever
from agentic_rag.compat.sufficiency import AutoraterStyleSufficiencyJudge
from agentic_rag._errors import InvalidInputError

__all__ = [
    "EvidenceCoverageJudge",
    "FeedbackAwareQueryRewriter",
    "InMemoryDocument",
    "InMemoryRetriever",
    "RuleBasedSynthesizer",
    "ScriptedPlanner",
    "SnippetDrafter",
]

#: A document of one corpus: ``InMemoryDocument(corpus_id, document_id, text, metadata)``.
InMemoryDocument = LexicalDocument


class InMemoryRetriever(LexicalRetriever):
    """BM25 over in-memory documents; records every subquery in ``calls``."""


class ScriptedPlanner:
    """Returns the same plan for every question.

    Args:
        plan: The plan (scaffold or modern shape).
    """

    def __init__(self, plan: old.RetrievalPlan | core.RetrievalPlan) -> None:
        if not isinstance(plan, (old.RetrievalPlan, core.RetrievalPlan)):
            raise InvalidInputError(f"plan must be a RetrievalPlan, got {type(plan).__name__}", stage="planner")
        self.scripted = plan

    def plan(self, question: str, corpora: Sequence[core.Corpus] = (), prior: object = None) -> old.RetrievalPlan | core.RetrievalPlan:
        """Return the scripted plan."""
        return self.scripted

    create_plan = plan


class FeedbackAwareQueryRewriter:
    """First round: one subquery per routed fact (its description, to its route); later
    rounds: one subquery per feedback query.

    Args:
        initial_fact_ids: The facts asked in the first round (``None``: every routed fact).
    """

    def __init__(self, initial_fact_ids: Iterable[str] | None = None) -> None:
        self.initial_fact_ids = None if initial_fact_ids is None else tuple(initial_fact_ids)

    def rewrite(self, plan: old.RetrievalPlan, feedback: Sequence[old.FeedbackQuery] = (), *, iteration: int = 1) -> tuple[old.Subquery, ...]:
        """Return this round's subqueries.

        Args:
            plan: The scaffold plan.
            feedback: The last assessment's feedback queries (empty in the first round).
            iteration: The round, from 1.
        """
        out = []
        if iteration <= 1:
            for fact in plan.required_facts:
                route = plan.route_for(fact.id)
                if route is None or (self.initial_fact_ids is not None and fact.id not in self.initial_fact_ids):
                    continue
                out.append(old.Subquery(f"q{iteration}-{len(out)}", fact.id, fact.description, route.candidate_corpus_ids,
                                        route.reason, parent_query=plan.question, iteration=iteration))
            return tuple(out)
        for query in feedback:
            fact_id = query.fact_id or next((f.id for f in plan.required_facts if f.description == query.query), "")
            if not fact_id:
                continue
            targets = query.target_corpus_ids or (plan.route_for(fact_id).candidate_corpus_ids if plan.route_for(fact_id) else ())
            if targets:
                out.append(old.Subquery(f"q{iteration}-{len(out)}", fact_id, query.query, targets, query.reason,
                                        parent_query=plan.question, iteration=iteration))
        return tuple(out)


class SnippetDrafter:
    """Drafts with the modern :class:`~agentic_rag.components.ExtractiveDrafter` (one
    quoted sentence per fact the evidence touches)."""

    def __init__(self, drafter: ExtractiveDrafter | None = None) -> None:
        self.drafter = drafter or ExtractiveDrafter()

    def draft(self, question: str, plan: old.RetrievalPlan | core.RetrievalPlan, snippets: Sequence[core.Snippet]) -> old.DraftAnswer | core.DraftAnswer:
        """Draft from the evidence (a scaffold draft for a scaffold plan, a modern one for a modern plan)."""
        if isinstance(plan, core.RetrievalPlan):
            return self.drafter.draft(question, plan, snippets)
        return draft_from_core(self.drafter.draft(question, plan_to_core(plan), tuple(snippets)))


class EvidenceCoverageJudge(AutoraterStyleSufficiencyJudge):
    """The scaffold's coverage judge: the same reading of the modern judge."""


class RuleBasedSynthesizer:
    """Answers with the modern :class:`~agentic_rag.components.ExtractiveGroundedSynthesizer`;
    a conflict is cited side by side as ``"<fact>:<value>"`` citations.

    Args:
        synthesizer: The modern synthesizer to use.
    """

    def __init__(self, synthesizer: ExtractiveGroundedSynthesizer | None = None) -> None:
        self.synthesizer = synthesizer or ExtractiveGroundedSynthesizer()

    def synthesize(self, question: str, plan: old.RetrievalPlan | core.RetrievalPlan, snippets: Sequence[core.Snippet],
                   assessment: old.ContextAssessment | core.ContextAssessment) -> old.GroundedAnswer | core.GroundedAnswer:
        """Write the answer (scaffold shapes in and out, or modern ones in and out)."""
        snippets = tuple(snippets)
        if isinstance(plan, core.RetrievalPlan) and isinstance(assessment, core.ContextAssessment):
            return self.synthesizer.synthesize(question, plan, snippets, assessment)
        if isinstance(plan, core.RetrievalPlan):
            raise InvalidInputError("a modern plan needs a modern ContextAssessment", stage="synthesizer")
        core_plan = plan_to_core(plan)
        answer = answer_from_core(self.synthesizer.synthesize(question, core_plan, snippets, assessment_to_core(assessment, core_plan)))
        if not isinstance(assessment, old.ContextAssessment):
            return answer
        conflicted = {c.fact_id for c in assessment.conflicts}
        citations = tuple(c for c in answer.citations if c.claim not in conflicted)
        citations += tuple(old.GroundedCitation(f"{c.fact_id}:{g.label}", g.snippet_ids) for c in assessment.conflicts for g in c.groups)
        return old.GroundedAnswer(
            answer=answer.answer,
            citations=citations,
            status=answer.status,
            missing_facts=answer.missing_facts or assessment.missing_facts,
            sufficiency_score=assessment.sufficiency_score,
            conflicts=assessment.conflicts,
        )
