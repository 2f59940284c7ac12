"""The LLM drafter and synthesizer: answers written by a model, kept only where cited.

Both ask for claims citing documents by index with a verbatim quote, verify every citation
(:mod:`agentic_rag.llm.components.citations`) and drop any claim that does not hold. The
answer text is made of the kept claims, so nothing uncited reaches the reader, plus what is
missing or disputed.

The synthesizer always writes the final answer when there is evidence, whatever the judge
said: a judge that found the question unanswerable (a false premise) gets a final answer
that says so, citing what the documents state instead. Its status is the least of the
abstention policy's status for the judge's label and the model's own, read with "required"
meaning MUST: a PARTIAL that names no missing MUST fact (only SHOULD or MAY facts) is
ANSWERED. A dropped claim lowers the status only when it leaves a MUST fact without a kept
claim, and that fact is then named missing. Claims the lexical grounding check doubts are
read by the model verifier (:class:`~agentic_rag.llm.components.verifier.LLMClaimVerifier`);
only a "no" drops them. The same guard is applied to the fallback's answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Literal

from agentic_rag._agentic.extractive import ExtractiveDrafter, ExtractiveGroundedSynthesizer
from agentic_rag._answering.compose import compose_answer, compose_text, removed_note
from agentic_rag._answering.guard import guard_answer, least_status, unanswered_facts
from agentic_rag._agentic.policy import AbstentionPolicy
from agentic_rag._contracts import (
    AnswerStatus,
    Claim,
    ClaimReview,
    ContextAssessment,
    DraftAnswer,
    FactPriority,
    GroundedAnswer,
    RequiredFact,
    RetrievalPlan,
    ReviewOutcome,
    Snippet,
)
from agentic_rag._errors import InvalidInputError, ProviderError
from agentic_rag.llm.components.citations import ClaimVerification, parse_model_claims, verify_model_claims
from agentic_rag.llm.components.evidence_window import EvidenceWindow, check_evidence_inputs
from agentic_rag.llm.components.fallback import ComponentEventKind, FallbackChoice, LLMComponent, resolve_fallback
from agentic_rag.llm.components.prompts import assessment_section, build_messages, facts_section, question_section
from agentic_rag.llm.components.settings import EVIDENCE_OPTIONS, RoleSettings, resolve_settings
from agentic_rag.llm.components.verifier import LLMClaimVerifier
from agentic_rag.llm.schemas import LLMRole
from agentic_rag._ports import ClaimVerifier, Drafter, Synthesizer

__all__ = ["LLMDrafter", "LLMSynthesizer"]


class _Writer(LLMComponent):
    """What the drafter and synthesizer share: their settings, the documents shown, verifying."""

    def __init__(self, llm: Any, *, role: LLMRole, fallback: Any, method: str, settings: RoleSettings | None, name: str, overrides: dict[str, Any]) -> None:
        self.settings = resolve_settings(settings, overrides, component=type(self).__name__, options=EVIDENCE_OPTIONS)
        super().__init__(llm, role=role, fallback=fallback, method=method, name=name, **self.settings.model_options(role))
        self.window = EvidenceWindow.from_settings(self.settings, default_snippets=12)

    def _verify(self, answer: Any, shown: Sequence[Snippet], plan: RetrievalPlan) -> ClaimVerification:
        checked = verify_model_claims(parse_model_claims(answer.get("claims")), shown, fact_ids={f.id for f in plan.facts})
        if checked.dropped:
            self.record(ComponentEventKind.DROPPED_CLAIMS, f"dropped {len(checked.dropped)} claim(s) whose citations did not hold", checked.problems)
        return checked


class LLMDrafter(_Writer):
    """A :class:`~agentic_rag._ports.Drafter` backed by a language model.

    Args:
        llm: The model.
        fallback: Drafter used when the model fails (default: a new
            :class:`~agentic_rag._agentic.extractive.ExtractiveDrafter`; ``None``: raise).
        settings: Model call and evidence options (default :class:`RoleSettings`: one repair
            round, temperature 0, the role's token cap, 12 documents of 1,500 characters,
            the first ones given, best first).
        name: Label for events.
        **overrides: Any of ``repair_rounds``, ``temperature``, ``max_tokens``,
            ``max_snippets`` and ``max_snippet_chars``, overriding ``settings`` for this
            component.

    Raises:
        InvalidInputError: Bad arguments.
    """

    def __init__(
        self,
        llm: Any,
        *,
        fallback: Drafter | FallbackChoice | None = FallbackChoice.DETERMINISTIC,
        settings: RoleSettings | None = None,
        name: str = "llm_drafter",
        **overrides: Any,
    ) -> None:
        super().__init__(
            llm, role=LLMRole.DRAFTER, fallback=resolve_fallback(fallback, ExtractiveDrafter), method="draft",
            settings=settings, name=name, overrides=overrides,
        )

    def draft(self, question: str, plan: RetrievalPlan, snippets: Sequence[Snippet]) -> DraftAnswer:
        """Draft an answer from the evidence so far.

        Args:
            question: The question.
            plan: The plan.
            snippets: The evidence, best first.

        Returns:
            A draft whose every claim's citations hold; with no snippets, an empty draft
            without a model call.

        Raises:
            InvalidInputError: Bad arguments.
            StructuredOutputError: The model failed and ``fallback`` is ``None``.
            BudgetExhaustedError: The run's budget stopped the call.
        """
        snippets = check_evidence_inputs(question, plan, snippets, stage="drafter")
        if not snippets:
            self.last_fallback_reason = None
            return DraftAnswer(text="")
        shown = self.window.shown(snippets)
        sections = [question_section(question), facts_section(plan), self.window.section(shown)]
        try:
            answer = self.ask(build_messages(LLMRole.DRAFTER, sections))
            checked = self._verify(answer, shown, plan)
            text = compose_text(checked.claims, [removed_note(len(checked.dropped))])
            return DraftAnswer(text=text, claims=checked.claims)
        except ProviderError as error:
            fallback = self.take_over(error)
        return fallback.draft(question, plan, snippets)


class LLMSynthesizer(_Writer):
    """A :class:`~agentic_rag._ports.Synthesizer` backed by a language model.

    Args:
        llm: The model.
        fallback: Synthesizer used when the model fails (default: a new
            :class:`~agentic_rag._agentic.extractive.ExtractiveGroundedSynthesizer`;
            ``None``: raise). Its answer passes the same guard.
        policy: Maps the judge's label to the highest status allowed.
        verifier: Settles the claims the lexical grounding check doubts (default: a new
            :class:`~agentic_rag.llm.components.verifier.LLMClaimVerifier` on ``llm``;
            ``False``: none, every doubt drops its claim).
        settings: Model call and evidence options (default :class:`RoleSettings`: one repair
            round, temperature 0, the role's token cap, 12 documents of 1,500 characters,
            the first ones given, best first).
        name: Label for events.
        **overrides: Any of ``repair_rounds``, ``temperature``, ``max_tokens``,
            ``max_snippets`` and ``max_snippet_chars``, overriding ``settings`` for this
            component.

    Raises:
        InvalidInputError: Bad arguments.
    """

    def __init__(
        self,
        llm: Any,
        *,
        fallback: Synthesizer | FallbackChoice | None = FallbackChoice.DETERMINISTIC,
        policy: AbstentionPolicy | None = None,
        verifier: ClaimVerifier | Literal[False] | None = None,
        settings: RoleSettings | None = None,
        name: str = "llm_synthesizer",
        **overrides: Any,
    ) -> None:
        super().__init__(
            llm, role=LLMRole.SYNTHESIZER, fallback=resolve_fallback(fallback, ExtractiveGroundedSynthesizer), method="synthesize",
            settings=settings, name=name, overrides=overrides,
        )
        self.policy = policy or AbstentionPolicy()
        if not isinstance(self.policy, AbstentionPolicy):
            raise InvalidInputError(f"policy must be an AbstentionPolicy, got {type(self.policy).__name__}", stage="synthesizer")
        if verifier is not None and verifier is not False and not callable(getattr(verifier, "verify", None)):
            raise InvalidInputError(f"verifier must be a ClaimVerifier (with verify(checks)), False or None, got {type(verifier).__name__}", stage="synthesizer")
        self.verifier: ClaimVerifier | None = None if verifier is False else verifier or LLMClaimVerifier(llm, settings=dataclasses.replace(self.settings, max_tokens=None))

    def synthesize(self, question: str, plan: RetrievalPlan, snippets: Sequence[Snippet], assessment: ContextAssessment) -> GroundedAnswer:
        """Write the final answer.

        Args:
            question: The question.
            plan: The plan.
            snippets: All evidence, best first.
            assessment: The judge's final verdict.

        Returns:
            The answer (``iterations`` left 0 for the orchestrator). No model call is made
            when there is no evidence.

        Raises:
            InvalidInputError: Bad arguments.
            StructuredOutputError: The model failed and ``fallback`` is ``None``.
            BudgetExhaustedError: The run's budget stopped the call.
        """
        snippets = check_evidence_inputs(question, plan, snippets, stage="synthesizer")
        if not isinstance(assessment, ContextAssessment):
            raise InvalidInputError(f"assessment must be a ContextAssessment, got {type(assessment).__name__}", stage="synthesizer")
        verdict = self.policy.verdict(assessment)
        if not snippets:
            self.last_fallback_reason = None
            return self._answer(plan, assessment, (), AnswerStatus.UNANSWERABLE, (), ())
        shown = self.window.shown(snippets)
        sections = [
            question_section(question),
            facts_section(plan),
            assessment_section(plan, assessment, shown),
            self.window.section(shown),
        ]
        try:
            answer = self.ask(build_messages(LLMRole.SYNTHESIZER, sections))
            checked = self._verify(answer, shown, plan)
            said = AnswerStatus(answer.get("status", AnswerStatus.PARTIAL.value))
            must = {f.id for f in plan.facts if f.priority is FactPriority.MUST}
            said_missing = [f for f in plan.facts if f.id in must and f.id in {str(x).strip() for x in answer.get("missing_fact_ids") or ()}]
            if said is AnswerStatus.PARTIAL and not said_missing:
                # "Required" means MUST: a SHOULD or MAY fact missing never makes an answer partial.
                said = AnswerStatus.ANSWERED
            elif said_missing:
                said = least_status(said, AnswerStatus.PARTIAL)
            written = tuple(c for c in parse_model_claims(answer.get("claims")) if c.text)
            lost = unanswered_facts(plan, checked.claims) if checked.dropped else ()
            lost = tuple(f for f in lost if f not in unanswered_facts(plan, [Claim(c.text, (), c.fact_id if c.fact_id in must else "") for c in written]))
            status = least_status(verdict, said, AnswerStatus.PARTIAL if lost else AnswerStatus.ANSWERED)
            if status is not least_status(verdict, said):
                self.record(ComponentEventKind.DOWNGRADED, f"status lowered to {status.value}: dropped claims left {[f.id for f in lost]} unanswered")
            missing = tuple({f.id: f for f in [*said_missing, *lost]}.values())
            reviews = tuple(ClaimReview(d.text, ReviewOutcome.DROPPED, d.reason) for d in checked.dropped)
            result = self._answer(plan, assessment, checked.claims, status, missing, reviews)
        except ProviderError as error:
            fallback = self.take_over(error)
            result = fallback.synthesize(question, plan, snippets, assessment)
            if not isinstance(result, GroundedAnswer):
                raise InvalidInputError(f"fallback synthesizer returned {type(result).__name__}; expected a GroundedAnswer", stage="synthesizer") from error
        return guard_answer(result, snippets, verdict, verifier=self.verifier, plan=plan, assessment=assessment)

    @staticmethod
    def _answer(plan: RetrievalPlan, assessment: ContextAssessment, claims: tuple[Claim, ...], status: AnswerStatus,
                missing: tuple[RequiredFact, ...], reviews: tuple[ClaimReview, ...]) -> GroundedAnswer:
        if not claims:
            status = AnswerStatus.UNANSWERABLE
        # The facts the judge found missing (any priority, as every synthesizer names them),
        # then the MUST facts the model found missing or dropped claims left unanswered.
        known = {f.id: f for f in plan.facts}
        judged = tuple(known[f] for f in assessment.missing_fact_ids if f in known)
        missing = tuple({f.id: f for f in [*judged, *missing]}.values())
        dropped = sum(1 for r in reviews if r.outcome is ReviewOutcome.DROPPED)
        answer = compose_answer(plan, assessment, claims, status, missing, [removed_note(dropped)])
        return dataclasses.replace(answer, reviews=reviews)
