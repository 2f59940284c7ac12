"""The iterative (agentic) workflow: plan, route, rewrite, retrieve, draft, judge, iterate,
synthesize.

::

    question -> planner -> plan (facts, routes)
    loop: rewriter -> subqueries -> retriever -> snippets (dedup, lineage)
          -> drafter -> draft -> judge -> assessment (missing facts, feedback)
          stop when sufficient, or on a budget / progress guard
    synthesizer -> grounded answer -> citation check
    final evidence order (cited, the judge's best, the rest; with ``rank_chains``, a bridge
    question's order fused with the chain order of :class:`ChainRanker`) -> RunResult

Rounds: ``max_iterations`` is the hard cap. With ``progress_after``, a round from that one on
must find new snippets that carry a term a missing fact still lacks, or the run stops
(``no_progress``), so a high cap lets multi-hop questions follow their chain further without
spending rounds on questions that found nothing new. ``stall_rounds`` rounds in a row that
cover no fact not covered before also end the run (``no_progress``), and a judge that labels
the question unanswerable (a false premise, information that cannot exist) ends it at once
(``unanswerable``): more searching would not change either. Every way out ends with the
synthesizer's final answer.

Evidence a judge found establishing a fact (its ``support``) leads the evidence every later
round's drafter and judge are shown, so a fact found once is not lost to newer hits. With a
cap on model calls, the loop may not spend the calls the final answer and its claim check
need (the budget holds them back until the loop ends), so a run on a model ends with the
model's own final answer.

Budgets never raise: hitting one ends the run with the best grounded answer so far and a
``stop_reason``. With a deadline, each retriever call is waited for only the time remaining
(on a daemon thread, abandoned when the time is up), so a stuck retriever cannot hold the run
past its deadline. Components that charge the budget (LLM-backed ones) are replaced by the
deterministic judge and synthesizer once it is spent, so the run still ends with an answer.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentic_rag._agentic.chains import ChainRanker
from agentic_rag._agentic.config import OrchestratorConfig
from agentic_rag._agentic.extractive import ExtractiveDrafter, ExtractiveGroundedSynthesizer
from agentic_rag._agentic.fact_evidence import FactEvidenceModel
from agentic_rag._agentic.judge import AutoraterStyleSufficiencyJudge
from agentic_rag._agentic.planner import HeuristicPlanner
from agentic_rag._agentic.rewriter import PlanFeedbackRewriter
from agentic_rag._agentic.run import Components, RunState
from agentic_rag._budget import RunBudget, use_budget
from agentic_rag._contracts import Corpus, RunResult
from agentic_rag._contracts.corpus import require_corpora
from agentic_rag._contracts.validation import require_component, require_text
from agentic_rag._errors import InvalidInputError
from agentic_rag._ports import ClaimVerifier, Drafter, Planner, QueryRewriter, Retriever, SufficiencyJudge, Synthesizer

__all__ = ["AgenticRAGOrchestrator"]


class AgenticRAGOrchestrator:
    """Runs the iterative workflow over any components that fit the ports.

    Args:
        retriever: The retriever (required).
        planner: Default :class:`HeuristicPlanner`.
        rewriter: Default :class:`PlanFeedbackRewriter`.
        drafter: Default :class:`ExtractiveDrafter`.
        judge: Default :class:`AutoraterStyleSufficiencyJudge`.
        synthesizer: Default :class:`ExtractiveGroundedSynthesizer`.
        verifier: Settles the claims the final answer's lexical grounding check doubts
            (:class:`~agentic_rag._ports.ClaimVerifier`; default: the synthesizer's own
            ``verifier`` when it has one, else none: every doubt drops its claim).
        config: Budgets (default :class:`OrchestratorConfig`).

    Raises:
        BindingError: A component missing its port method (an ``InvalidInputError``).
        InvalidInputError: A config that is not an :class:`OrchestratorConfig`.
    """

    def __init__(
        self,
        *,
        retriever: Retriever,
        planner: Planner | None = None,
        rewriter: QueryRewriter | None = None,
        drafter: Drafter | None = None,
        judge: SufficiencyJudge | None = None,
        synthesizer: Synthesizer | None = None,
        verifier: ClaimVerifier | None = None,
        config: OrchestratorConfig | None = None,
    ) -> None:
        self.retriever = _check(retriever, "retrieve", "retriever")
        self.planner = _check(planner or HeuristicPlanner(), "plan", "planner")
        self.rewriter = _check(rewriter or PlanFeedbackRewriter(), "rewrite", "rewriter")
        self.drafter = _check(drafter or ExtractiveDrafter(), "draft", "drafter")
        self.judge = _check(judge or AutoraterStyleSufficiencyJudge(), "assess", "judge")
        self.synthesizer = _check(synthesizer or ExtractiveGroundedSynthesizer(), "synthesize", "synthesizer")
        chosen = verifier if verifier is not None else getattr(self.synthesizer, "verifier", None)
        self.verifier = None if chosen is None else _check(chosen, "verify", "verifier")
        self.config = config or OrchestratorConfig()
        if not isinstance(self.config, OrchestratorConfig):
            raise InvalidInputError(f"config must be an OrchestratorConfig, got {type(self.config).__name__}", stage="orchestrator")
        # Used once a budget is spent: they charge nothing, so the run can still finish.
        self._fallback_judge = AutoraterStyleSufficiencyJudge()
        self._fallback_synthesizer = ExtractiveGroundedSynthesizer()
        # The deterministic judge's evidence model, when there is one, so terms and bridges
        # are read (and cached) once for judging and for ranking chains.
        evidence = getattr(self.judge, "evidence", None)
        self._evidence = evidence if isinstance(evidence, FactEvidenceModel) else self._fallback_judge.evidence
        self._chains = ChainRanker(self._evidence)

    def run(self, question: str, corpora: Sequence[Corpus]) -> RunResult:
        """Answer ``question`` from ``corpora``.

        Args:
            question: The question (a non-empty string).
            corpora: The corpora to route over (at least one, unique ids).

        Returns:
            The run result with the grounded answer, the trace and the stop reason.

        Raises:
            InvalidInputError: Bad question, corpora or plan (a route to an unknown corpus).
            RetrievalError: The retriever failed with an error of its own.
        """
        require_text(question, "question", stage="orchestrator")
        corpora = require_corpora(corpora, stage="orchestrator")
        budget = RunBudget(deadline_s=self.config.deadline_s, max_llm_calls=self.config.max_llm_calls, max_tokens=self.config.max_tokens)
        components = Components(
            retriever=self.retriever,
            planner=self.planner,
            rewriter=self.rewriter,
            drafter=self.drafter,
            judge=self.judge,
            synthesizer=self.synthesizer,
            verifier=self.verifier,
            fallback_judge=self._fallback_judge,
            fallback_synthesizer=self._fallback_synthesizer,
            evidence=self._evidence,
            chains=self._chains,
        )
        with use_budget(budget):
            return RunState(components, self.config, question, corpora, budget).execute()


def _check(component: object, method: str, slot: str):
    return require_component(component, slot, method, stage="orchestrator")
