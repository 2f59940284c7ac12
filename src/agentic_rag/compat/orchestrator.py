"""The scaffold's orchestrator (``agentic_rag.orchestrator``), run by the modern one.

:class:`AgenticRAGOrchestrator` takes components in the scaffold's shapes (plans with
``required_facts``, subqueries with ``target_corpus_ids``, retrievers called with a subquery,
answers with ``answer`` and ``citations``) and runs the modern
:class:`~agentic_rag.AgenticRAGOrchestrator` over them through one adapter per run, so the
loop, the budgets, the deduplication and the citation guard are the modern ones. The result
comes back in the scaffold's :class:`~agentic_rag.compat.contracts.RunResult` shape.

Two scaffold rules are kept on top of the modern guard: an answer whose citations name
unknown snippets loses them and is at most PARTIAL (the modern guard would call an answer
with no citation left UNANSWERABLE), and the final status goes through
:func:`~agentic_rag.compat.sufficiency.apply_selective_abstention_policy`.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agentic_rag import _contracts as core
from agentic_rag._agentic.config import OrchestratorConfig
from agentic_rag._agentic.orchestrator import AgenticRAGOrchestrator as _CoreOrchestrator
from agentic_rag._errors import InvalidInputError
from agentic_rag.compat import contracts as old
from agentic_rag.compat._convert import (
    answer_from_core,
    answer_to_core,
    as_old_plan,
    assessment_to_core,
    draft_from_core,
    draft_to_core,
    plan_to_core,
)
from agentic_rag.compat.adapters.in_memory import RuleBasedSynthesizer, SnippetDrafter
from agentic_rag.compat.adapters.retriever import LexicalRetriever
from agentic_rag.compat.sufficiency import AutoraterStyleSufficiencyJudge, apply_selective_abstention_policy, read_verdict

__all__ = ["AgenticRAGOrchestrator", "OrchestratorConfig"]


class AgenticRAGOrchestrator:
    """Runs scaffold-shaped components on the modern loop.

    Args:
        planner: ``plan(question, corpora)`` (or ``create_plan``) returning a plan.
        rewriter: ``rewrite(plan, feedback_queries, iteration=n)`` returning subqueries
            (a sequence or a ``QueryRewriteResult``).
        retriever: ``retrieve(subquery)`` returning snippets, or a modern retriever.
        drafter: ``draft(question, plan, snippets)`` (default :class:`SnippetDrafter`).
        judge: ``assess(question, plan, snippets, draft)`` (default the compat
            :class:`~agentic_rag.compat.sufficiency.AutoraterStyleSufficiencyJudge`).
        synthesizer: ``synthesize(question, plan, snippets, assessment)`` (default
            :class:`RuleBasedSynthesizer`).
        config: The modern :class:`OrchestratorConfig` (budgets).

    Raises:
        InvalidInputError: A component without its method, or a config of another type.
    """

    def __init__(self, *, planner: object, rewriter: object, retriever: object, drafter: object = None, judge: object = None,
                 synthesizer: object = None, config: OrchestratorConfig | None = None) -> None:
        self.planner = _check(planner, ("plan", "create_plan"), "planner")
        self.rewriter = _check(rewriter, ("rewrite",), "rewriter")
        self.retriever = _check(retriever, ("retrieve",), "retriever")
        self.drafter = _check(drafter or SnippetDrafter(), ("draft",), "drafter")
        self.judge = _check(judge or AutoraterStyleSufficiencyJudge(), ("assess",), "judge")
        self.synthesizer = _check(synthesizer or RuleBasedSynthesizer(), ("synthesize", "finalize"), "synthesizer")
        self.config = config or OrchestratorConfig()
        if not isinstance(self.config, OrchestratorConfig):
            raise InvalidInputError(f"config must be an OrchestratorConfig, got {type(self.config).__name__}", stage="orchestrator")

    def run(self, question: str, corpora: Sequence[core.Corpus]) -> old.RunResult:
        """Answer ``question`` over ``corpora``.

        Returns:
            The scaffold-shaped run result (``stop_reason`` holds the modern reason's value).

        Raises:
            InvalidInputError: Bad question, corpora, plan or component output.
            RetrievalError: The retriever failed.
        """
        parts = _Parts(self.planner, self.rewriter, self.retriever, self.drafter, self.judge, self.synthesizer)
        run = _Run(parts, tuple(corpora) if not isinstance(corpora, (str, bytes)) else corpora)
        engine = _CoreOrchestrator(retriever=run, planner=run, rewriter=run, drafter=run, judge=run, synthesizer=run, config=self.config)
        return run.result(engine.run(question, corpora))


def _check(component: object, methods: tuple[str, ...], slot: str) -> object:
    if component is None or not any(callable(getattr(component, m, None)) for m in methods):
        raise InvalidInputError(f"{slot} must have a callable {' or '.join(m + '()' for m in methods)} method, got {type(component).__name__}", stage="orchestrator")
    return component


def _takes_text(retriever: object) -> bool:
    """True when ``retriever.retrieve`` is the modern ``(query, k, ...)`` call."""
    if isinstance(retriever, LexicalRetriever):
        return False
    try:
        params = [p for p in inspect.signature(retriever.retrieve).parameters.values()  # type: ignore[attr-defined]
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return False
    return len(params) >= 2


@dataclass(frozen=True, slots=True)
class _Parts:
    """The scaffold-shaped components one run translates to."""

    planner: Any
    rewriter: Any
    retriever: Any
    drafter: Any
    judge: Any
    synthesizer: Any


class _Run:
    """One run's adapter: every modern port, translating to the scaffold's components."""

    def __init__(self, parts: _Parts, corpora: object) -> None:
        self.parts = parts
        self.corpus_ids = tuple(c.id for c in corpora if isinstance(c, core.Corpus)) if isinstance(corpora, tuple) else ()
        self.plan_old: old.RetrievalPlan | None = None
        self.by_text: dict[tuple[str, tuple[str, ...]], old.Subquery] = {}
        self.by_key: dict[tuple[int, str], old.Subquery] = {}
        self.drafts: list[old.DraftAnswer] = []
        self.assessments: list[old.ContextAssessment] = []
        self.answer_old: old.GroundedAnswer | None = None
        self.modern_retriever = _takes_text(parts.retriever)

    # --- the modern ports -------------------------------------------------------------
    def plan(self, question: str, corpora: Sequence[core.Corpus], prior: object = None) -> core.RetrievalPlan:
        planner = self.parts.planner
        make = getattr(planner, "create_plan", None) or planner.plan  # type: ignore[attr-defined]
        self.plan_old = as_old_plan(make(question, tuple(corpora)))
        if not isinstance(self.plan_old, old.RetrievalPlan):
            raise InvalidInputError(f"planner returned {type(self.plan_old).__name__}, expected a RetrievalPlan", stage="planner")
        return plan_to_core(self.plan_old, self.corpus_ids)

    def rewrite(self, plan: core.RetrievalPlan, feedback: Sequence[core.FeedbackQuery], *, iteration: int) -> tuple[core.Subquery, ...]:
        assert self.plan_old is not None
        asked = self.assessments[-1].feedback_queries if iteration > 1 and self.assessments else ()
        made = self.parts.rewriter.rewrite(self.plan_old, asked, iteration=iteration)  # type: ignore[attr-defined]
        subqueries = made.subqueries if isinstance(made, old.QueryRewriteResult) else tuple(made)
        out = []
        for sq in subqueries:
            if not isinstance(sq, old.Subquery):
                raise InvalidInputError(f"rewriter returned {type(sq).__name__}, expected a compat Subquery", stage="rewriter")
            self.by_text[(sq.query, sq.target_corpus_ids)] = sq
            self.by_key[(iteration, sq.id)] = sq
            origin = core.SubqueryOrigin.PLAN if iteration == 1 else core.SubqueryOrigin.FEEDBACK
            out.append(core.Subquery(sq.id, sq.fact_id, sq.query, sq.target_corpus_ids, sq.reason, iteration=iteration, origin=origin))
        return tuple(out)

    def retrieve(self, query: str, k: int, *, corpus_ids: Sequence[str] | None = None) -> tuple[core.Snippet, ...]:
        retriever = self.parts.retriever
        sq = self.by_text.get((query, tuple(corpus_ids or ())))
        if self.modern_retriever or sq is None:
            found = retriever.retrieve(query, k, corpus_ids=corpus_ids)  # type: ignore[attr-defined]
        else:
            found = retriever.retrieve(sq)  # type: ignore[attr-defined]
        return tuple(found)[:k]

    def draft(self, question: str, plan: core.RetrievalPlan, snippets: Sequence[core.Snippet]) -> core.DraftAnswer:
        assert self.plan_old is not None
        made = draft_from_core(self.parts.drafter.draft(question, self.plan_old, tuple(snippets)))  # type: ignore[attr-defined]
        self.drafts.append(made)
        return draft_to_core(made, snippets)

    def assess(self, question: str, plan: core.RetrievalPlan, snippets: Sequence[core.Snippet], draft: core.DraftAnswer) -> core.ContextAssessment:
        assert self.plan_old is not None
        made = self.parts.judge.assess(question, self.plan_old, tuple(snippets), draft_from_core(draft))  # type: ignore[attr-defined]
        if isinstance(made, core.ContextAssessment):
            made = read_verdict(made, self.plan_old)
        self.assessments.append(made)
        return assessment_to_core(made, plan)

    def synthesize(self, question: str, plan: core.RetrievalPlan, snippets: Sequence[core.Snippet], assessment: core.ContextAssessment) -> core.GroundedAnswer:
        assert self.plan_old is not None
        synthesizer = self.parts.synthesizer
        write = getattr(synthesizer, "synthesize", None) or synthesizer.finalize  # type: ignore[attr-defined]
        self.answer_old = answer_from_core(write(question, self.plan_old, tuple(snippets), self.assessments[-1]))
        return answer_to_core(self.answer_old, plan, snippets)

    # --- the scaffold's result ---------------------------------------------------------
    def result(self, modern: core.RunResult) -> old.RunResult:
        plan = self.plan_old or as_old_plan(modern.plan)
        traces = [
            old.IterationTrace(
                t.iteration,
                tuple(self.by_key.get((t.iteration, sq.id)) or old.Subquery(sq.id, sq.fact_id, sq.text, sq.corpus_ids, sq.reason, iteration=t.iteration) for sq in t.subqueries),
                t.new_snippets,
                self.drafts[n] if n < len(self.drafts) else draft_from_core(t.draft),
                self.assessments[n] if n < len(self.assessments) else read_verdict(t.assessment, plan),
            )
            for n, t in enumerate(modern.iterations)
        ]
        last = self.assessments[-1] if self.assessments else None
        if modern.stop_reason is core.StopReason.NO_QUERIES and last is not None:
            # The scaffold recorded the round that had nothing left to ask.
            traces.append(old.IterationTrace(len(traces) + 1, (), (), old.DraftAnswer(), last))
        answer = self._answer(modern, last)
        answer = dataclasses.replace(answer, iterations=len(traces))
        return old.RunResult(modern.question, plan, answer, tuple(traces), modern.snippets, modern.stop_reason.value)

    def _answer(self, modern: core.RunResult, last: old.ContextAssessment | None) -> old.GroundedAnswer:
        if self.answer_old is None or last is None:  # a budget ran out: the modern fallback answered
            return answer_from_core(modern.answer)
        kept = {(c.fact_id, tuple(dict.fromkeys(x.snippet_id for x in c.citations))) for c in modern.answer.claims}
        citations = tuple(c for c in self.answer_old.citations if (c.claim, c.snippet_ids) in kept)
        status = self.answer_old.status
        if len(citations) < len(self.answer_old.citations) and status is core.AnswerStatus.ANSWERED:
            status = core.AnswerStatus.PARTIAL
        answer = dataclasses.replace(self.answer_old, citations=citations, status=status)
        return apply_selective_abstention_policy(answer, last)
