"""One run of the iterative workflow: the loop, the rules that end it and the final answer.

Kept apart from :class:`~agentic_rag._agentic.orchestrator.AgenticRAGOrchestrator` (which
checks and holds the components) so each run's state lives in its own object and runs can be
concurrent. See the orchestrator's module docstring for the rounds, the stop rules and the
budgets.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from agentic_rag._agentic.chains import ChainRanker
from agentic_rag._agentic.config import OrchestratorConfig
from agentic_rag._agentic.evidence_pool import EvidencePool
from agentic_rag._agentic.extractive import ExtractiveGroundedSynthesizer
from agentic_rag._agentic.fact_evidence import FactEvidenceModel
from agentic_rag._agentic.judge import AutoraterStyleSufficiencyJudge
from agentic_rag._agentic.planner import HeuristicPlanner
from agentic_rag._answering.guard import guard_answer
from agentic_rag._budget import RunBudget
from agentic_rag._contracts import (
    AnswerabilityLabel,
    AnswerStatus,
    ContextAssessment,
    Corpus,
    DraftAnswer,
    GroundedAnswer,
    IterationTrace,
    RetrievalPlan,
    RunResult,
    Snippet,
    StopReason,
    Subquery,
    Usage,
)
from agentic_rag._daemon_threads import submit_daemon
from agentic_rag._errors import AgenticRAGError, BudgetExhaustedError, InvalidInputError, RetrievalError
from agentic_rag._ports import ClaimVerifier, Drafter, Planner, QueryRewriter, Retriever, SufficiencyJudge, Synthesizer
from agentic_rag._text.questions import fold_query

__all__ = ["Components", "RunState"]

# Model calls the end of a run needs: the synthesizer's final answer and its claim check.
_FINAL_CALLS = 2


@dataclass(frozen=True, slots=True)
class Components:
    """The components one run uses, read from the orchestrator when the run starts."""

    retriever: Retriever
    planner: Planner
    rewriter: QueryRewriter
    drafter: Drafter
    judge: SufficiencyJudge
    synthesizer: Synthesizer
    verifier: ClaimVerifier | None
    # Stand-ins once a budget is spent: they charge nothing, so the run can still finish.
    fallback_judge: AutoraterStyleSufficiencyJudge
    fallback_synthesizer: ExtractiveGroundedSynthesizer
    # Reads terms for the progress test and orders the final evidence as chains.
    evidence: FactEvidenceModel
    chains: ChainRanker


class RunState:
    """The state of one run (kept off the orchestrator so runs can be concurrent).

    Args:
        components: The components to call.
        config: The run's limits.
        question: The question.
        corpora: The checked corpora.
        budget: The run's budget (also the context's current budget).
    """

    def __init__(self, components: Components, config: OrchestratorConfig, question: str, corpora: tuple[Corpus, ...], budget: RunBudget) -> None:
        self.components, self.config = components, config
        self.question, self.corpora, self.budget = question, corpora, budget
        self.pool = EvidencePool(config.max_snippets)
        self.issued: set[tuple[str, tuple[str, ...]]] = set()
        self.traces: list[IterationTrace] = []
        self.subquery_count = 0
        self.assessment: ContextAssessment | None = None
        self.spent = False
        self.deadline_hit = False  # a retriever call was abandoned at the deadline
        self.covered: set[str] = set()  # facts any round's judge found covered
        self.stalled = 0  # rounds in a row that covered no new fact

    def execute(self) -> RunResult:
        cfg = self.config
        # The final answer and its claim check keep their calls: the loop may not spend them.
        self.budget.hold_llm_calls(_FINAL_CALLS)
        try:
            plan = self._plan(None)
        except BudgetExhaustedError as exc:
            self.spent = self._spent(exc)
            plan = HeuristicPlanner().plan(self.question, self.corpora)
            return self._finish(plan, StopReason(exc.reason))
        stop = StopReason.MAX_ITERATIONS
        try:
            pending = self.components.rewriter.rewrite(plan, (), iteration=1)
            for iteration in range(1, cfg.max_iterations + 1):
                subqueries = self._fresh(pending)
                if not subqueries:
                    stop = StopReason.NO_QUERIES
                    break
                new, truncated = self._retrieve(subqueries)
                evidence = self._ranked()
                lacking = self._lacking(plan, evidence)
                draft = self.components.drafter.draft(self.question, plan, evidence)
                self.assessment = self.components.judge.assess(self.question, plan, evidence, draft)
                self.traces.append(IterationTrace(iteration, subqueries, tuple(new), draft, self.assessment))
                reason = self._stop_reason(plan, new, truncated, iteration, lacking)
                if reason is not None:
                    stop = reason
                    break
                if cfg.replan:
                    plan = self._plan(self.assessment)
                pending = self.components.rewriter.rewrite(plan, self.assessment.feedback_queries, iteration=iteration + 1)
        except BudgetExhaustedError as exc:
            self.spent = self._spent(exc)
            stop = StopReason(exc.reason)
        return self._finish(plan, stop)

    def _spent(self, exc: BudgetExhaustedError) -> bool:
        """Whether the budget that stopped the loop is spent for the final answer too (calls
        held back for it are released: then it is not)."""
        return not (exc.reason == StopReason.CALL_BUDGET.value and self.budget.release_llm_calls())

    def _plan(self, prior: ContextAssessment | None) -> RetrievalPlan:
        plan = self.components.planner.plan(self.question, self.corpora, prior)
        known = {c.id for c in self.corpora}
        for route in plan.routes:
            unknown = [c for c in route.corpus_ids if c not in known]
            if unknown:
                raise InvalidInputError(f"plan routes fact {route.fact_id!r} to unknown corpora {unknown}; known: {sorted(known)}", stage="planner")
        return plan

    def _fresh(self, subqueries: Sequence[Subquery]) -> tuple[Subquery, ...]:
        """Drop subqueries already issued (same text and corpora) and cap the count."""
        out = []
        for sq in subqueries:
            key = (fold_query(sq.text), tuple(sorted(sq.corpus_ids)))
            if key in self.issued:
                continue
            self.issued.add(key)
            out.append(sq)
            if len(out) == self.config.max_subqueries_per_iteration:
                break
        return tuple(out)

    def _retrieve(self, subqueries: Sequence[Subquery]) -> tuple[list[Snippet], bool]:
        new: list[Snippet] = []
        truncated = False
        for sq in subqueries:
            if self.budget.expired():
                break
            self.subquery_count += 1
            self.budget.charge_retrieval()
            try:
                found = self._call_retriever(sq)
            except AgenticRAGError:
                raise
            except Exception as exc:  # a third-party retriever's own error, named for the caller
                raise RetrievalError(f"retriever failed on subquery {sq.id} {sq.text!r}: {type(exc).__name__}: {exc}", stage="retriever") from exc
            if found is None:  # still running at the deadline: abandoned
                self.deadline_hit = True
                break
            added, full = self.pool.add(sq, found)
            new.extend(added)
            truncated = truncated or full
        return new, truncated

    def _call_retriever(self, sq: Subquery) -> Sequence[Snippet] | None:
        """The retriever's hits for ``sq``, or ``None`` when the deadline passed first.

        With a deadline the call runs on a daemon thread and is waited for only the time
        remaining; a call still running then is abandoned (it finishes, or dies with the
        process, unobserved). Without one it runs in the caller's thread.
        """
        remaining = self.budget.remaining_s()
        if remaining is None:
            return self.components.retriever.retrieve(sq.text, self.config.top_k, corpus_ids=sq.corpus_ids)
        future = submit_daemon(self.components.retriever.retrieve, sq.text, self.config.top_k, corpus_ids=sq.corpus_ids, name="agentic-rag-retrieve")
        try:
            return future.result(timeout=remaining)
        except concurrent.futures.TimeoutError:
            return None

    def _stop_reason(self, plan: RetrievalPlan, new: list[Snippet], truncated: bool, iteration: int, lacking: frozenset[str] | None) -> StopReason | None:
        assert self.assessment is not None
        newly = set(self.assessment.covered_fact_ids) - self.covered
        self.covered |= newly
        self.stalled = 0 if newly else self.stalled + 1
        if self.assessment.is_sufficient:
            return StopReason.SUFFICIENT
        if self.deadline_hit or self.budget.expired():
            return StopReason.DEADLINE
        if self.assessment.label is AnswerabilityLabel.UNANSWERABLE:
            return StopReason.UNANSWERABLE
        if self.assessment.conflicts and plan.stop_conditions.stop_on_conflict:
            return StopReason.CONFLICT
        if truncated:
            return StopReason.MAX_SNIPPETS
        if not new:
            return StopReason.NO_PROGRESS
        if lacking is not None:
            terms = self.components.evidence.snippet_terms
            if not any(lacking & terms(s) for s in new):
                return StopReason.NO_PROGRESS
        stall = self.config.stall_rounds
        if stall is not None and self.stalled >= stall and iteration < self.config.max_iterations:
            return StopReason.NO_PROGRESS
        return None

    def _lacking(self, plan: RetrievalPlan, evidence: Sequence[Snippet]) -> frozenset[str] | None:
        """The terms the missing facts still lacked when this round began (the previous
        assessment's view), or ``None`` when this round needs no progress test.

        A missing fact lacks the terms of its description (or required terms) that none of
        the snippets the judge found best for it contain. New snippets carrying none of them
        found nothing the question still misses.
        """
        after = self.config.progress_after
        if after is None or self.assessment is None or len(self.traces) + 1 < after:
            return None
        model = self.components.evidence
        by_id = {s.id: s for s in evidence}
        support = {item.fact_id: item.snippet_ids for item in self.assessment.support}
        lacking: set[str] = set()
        for fact in plan.facts:
            if fact.id not in self.assessment.missing_fact_ids:
                continue
            found = frozenset().union(*(model.snippet_terms(by_id[i]) for i in support.get(fact.id, ()) if i in by_id))
            lacking |= set(model.fact_terms(fact)) - found
        return frozenset(lacking)

    def _ranked(self) -> list[Snippet]:
        """The evidence best first (:meth:`EvidencePool.ranked`); for a judge that reads only
        a window of it (an LLM-backed one shows its model the first few), led by the snippets
        the last assessment found supporting a fact: what established a fact in one round
        stays in front of later rounds' prompts. A judge that reads all of it keeps the
        pool's order."""
        ranked = self.pool.ranked()
        if self.assessment is None or not self.assessment.support or getattr(self.components.judge, "window", None) is None:
            return ranked
        pinned = list(dict.fromkeys(sid for item in self.assessment.support for sid in item.snippet_ids))
        position = {sid: n for n, sid in enumerate(pinned)}
        return sorted(ranked, key=lambda s: position.get(s.id, len(position)))

    def _final_order(self, answer: GroundedAnswer, plan: RetrievalPlan) -> tuple[Snippet, ...]:
        """The final evidence: snippets the answer cites (in claim order), then those the last
        assessment found best for each fact (covered or not), then the rest best first (see
        :meth:`_ranked`). With ``rank_chains`` and a bridge question, that order fused with the
        chain order (see :class:`ChainRanker`), so both hops of the best chains reach the top;
        the cited snippets then need not lead."""
        cited = list(dict.fromkeys(c.snippet_id for claim in answer.claims for c in claim.citations))
        if self.assessment is not None:
            cited = list(dict.fromkeys(cited + [sid for support in self.assessment.support for sid in support.snippet_ids]))
        position = {sid: n for n, sid in enumerate(cited)}
        ranked = self._ranked()
        order = sorted(range(len(ranked)), key=lambda i: (position.get(ranked[i].id, len(position)), i))
        final = [ranked[i] for i in order]
        if self.config.rank_chains:
            final = self.components.chains.rank(self.question, plan, final)
        return tuple(final)

    def _finish(self, plan: RetrievalPlan, stop: StopReason) -> RunResult:
        self.budget.release_llm_calls()
        evidence = tuple(self._ranked())
        parts = self.components
        # A budget stopped the loop before any round was judged: the deterministic judge reads
        # the evidence, so the calls kept for the final answer go to it.
        budget_stop = stop in (StopReason.CALL_BUDGET, StopReason.TOKEN_BUDGET, StopReason.DEADLINE)
        judge = parts.fallback_judge if self.spent or budget_stop else parts.judge
        synthesizer = parts.fallback_synthesizer if self.spent else parts.synthesizer
        try:
            if self.assessment is None:
                self.assessment = judge.assess(self.question, plan, evidence, DraftAnswer(text=""))
            answer = synthesizer.synthesize(self.question, plan, evidence, self.assessment)
        except BudgetExhaustedError as exc:
            if not self.spent:
                stop = StopReason(exc.reason)
            self.spent = True
            if self.assessment is None:
                self.assessment = parts.fallback_judge.assess(self.question, plan, evidence, DraftAnswer(text=""))
            answer = parts.fallback_synthesizer.synthesize(self.question, plan, evidence, self.assessment)
        answer = _enforce_invariants(answer, evidence, self.assessment, parts.fallback_synthesizer, earned=type(synthesizer) is ExtractiveGroundedSynthesizer,
                                     verifier=parts.verifier, plan=plan)
        answer = dataclasses.replace(answer, iterations=len(self.traces))
        if stop is StopReason.SUFFICIENT and answer.status is not AnswerStatus.ANSWERED:
            stop = StopReason.UNEARNED  # "sufficient" beside a lowered status would contradict it
        evidence = self._final_order(answer, plan)
        snap = self.budget.snapshot()
        usage = Usage(
            retriever_calls=snap.retriever_calls,
            subqueries=self.subquery_count,
            llm_calls=snap.llm_calls,
            prompt_tokens=snap.prompt_tokens,
            completion_tokens=snap.completion_tokens,
            elapsed_s=round(snap.elapsed_s, 6),
        )
        return RunResult(self.question, plan, answer, tuple(self.traces), evidence, stop, usage)


def _enforce_invariants(answer: GroundedAnswer, evidence: Sequence[Snippet], assessment: ContextAssessment, synthesizer: ExtractiveGroundedSynthesizer,
                        *, earned: bool = False, verifier: ClaimVerifier | None = None, plan: RetrievalPlan | None = None) -> GroundedAnswer:
    """Drop claims that do not hold and never claim more than the evidence (the shared
    answer-status guard, with the judge's verdict through the abstention policy).

    ``earned``: the answer comes from the deterministic synthesizer, whose ANSWERED without
    a missing fact and beside no conflict means its claims earned every fact
    (:func:`~agentic_rag._answering.earned.earned_verdict`); a judge that counted less is
    then no cap (a fact a claim answers is never left missing)."""
    verdict = synthesizer.policy.verdict(assessment)
    if earned and verdict is AnswerStatus.PARTIAL and answer.status is AnswerStatus.ANSWERED and not answer.missing_facts and not assessment.conflicts:
        verdict = AnswerStatus.ANSWERED
    return guard_answer(answer, evidence, verdict, verifier=verifier, plan=plan, assessment=assessment)


