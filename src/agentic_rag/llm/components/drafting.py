"""The LLM drafter and synthesizer: answers written by a model, kept only where cited.

Both ask for claims citing documents by index with a verbatim quote, verify every citation
(:mod:`agentic_rag.llm.components.citations`) and drop any claim that does not hold. The
answer text is made of the kept claims, so nothing uncited reaches the reader, plus what is
missing or disputed.

The synthesizer's status is the least of three: the abstention policy's status for the
judge's label, the model's own status, and what the claims allow. A dropped claim turns
ANSWERED into PARTIAL, no kept claim means UNANSWERABLE, and ANSWERED needs the judge's
SUFFICIENT verdict. The same guard is applied to the fallback's answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agentic_rag._agentic.extractive import ExtractiveDrafter, ExtractiveGroundedSynthesizer
from agentic_rag._answering.compose import compose_answer, compose_text, removed_note
from agentic_rag._answering.guard import guard_answer, least_status
from agentic_rag._agentic.policy import AbstentionPolicy
from agentic_rag._contracts import AnswerStatus, Claim, ContextAssessment, DraftAnswer, FactPriority, GroundedAnswer, RetrievalPlan, Snippet
from agentic_rag._errors import InvalidInputError, ProviderError
from agentic_rag.llm.components.citations import ClaimVerification, parse_model_claims, verify_model_claims
from agentic_rag.llm.components.evidence_window import EvidenceWindow, check_evidence_inputs
from agentic_rag.llm.components.fallback import ComponentEventKind, FallbackChoice, LLMComponent, resolve_fallback
from agentic_rag.llm.components.prompts import assessment_section, build_messages, facts_section, question_section
from agentic_rag.llm.components.settings import EVIDENCE_OPTIONS, RoleSettings, resolve_settings
from agentic_rag.llm.schemas import LLMRole
from agentic_rag._ports import Drafter, Synthesizer

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

    def synthesize(self, question: str, plan: RetrievalPlan, snippets: Sequence[Snippet], assessment: ContextAssessment) -> GroundedAnswer:
        """Write the final answer.

        Args:
            question: The question.
            plan: The plan.
            snippets: All evidence, best first.
            assessment: The judge's final verdict.

        Returns:
            The answer (``iterations`` left 0 for the orchestrator). No model call is made
            when the policy already says UNANSWERABLE or there is no evidence.

        Raises:
            InvalidInputError: Bad arguments.
            StructuredOutputError: The model failed and ``fallback`` is ``None``.
            BudgetExhaustedError: The run's budget stopped the call.
        """
        snippets = check_evidence_inputs(question, plan, snippets, stage="synthesizer")
        if not isinstance(assessment, ContextAssessment):
            raise InvalidInputError(f"assessment must be a ContextAssessment, got {type(assessment).__name__}", stage="synthesizer")
        allowed = self.policy.status_for(assessment.label)
        if allowed is AnswerStatus.UNANSWERABLE or not snippets:
            self.last_fallback_reason = None
            return self._answer(plan, assessment, (), AnswerStatus.UNANSWERABLE, 0)
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
            said_missing = sorted(must & {str(f).strip() for f in answer.get("missing_fact_ids") or ()})
            status = least_status(allowed, said, AnswerStatus.PARTIAL if checked.dropped or said_missing else AnswerStatus.ANSWERED)
            if status is not least_status(allowed, said):
                self.record(ComponentEventKind.DOWNGRADED, f"status lowered to {status.value}: claims dropped or must facts {said_missing} reported missing")
            result = self._answer(plan, assessment, checked.claims, status, len(checked.dropped))
        except ProviderError as error:
            fallback = self.take_over(error)
            result = fallback.synthesize(question, plan, snippets, assessment)
            if not isinstance(result, GroundedAnswer):
                raise InvalidInputError(f"fallback synthesizer returned {type(result).__name__}; expected a GroundedAnswer", stage="synthesizer") from error
        return guard_answer(result, snippets, self.policy.verdict(assessment))

    @staticmethod
    def _answer(plan: RetrievalPlan, assessment: ContextAssessment, claims: tuple[Claim, ...], status: AnswerStatus, dropped: int) -> GroundedAnswer:
        if status is AnswerStatus.UNANSWERABLE:
            claims = ()
        if not claims:
            status = AnswerStatus.UNANSWERABLE
        missing = tuple(plan.fact(f) for f in assessment.missing_fact_ids if f in {x.id for x in plan.facts})
        return compose_answer(plan, assessment, claims, status, missing, [removed_note(dropped)])
