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

import dataclasses
from collections.abc import Sequence
from typing import Any

from agentic_rag._agentic.extractive import ExtractiveDrafter, ExtractiveGroundedSynthesizer
from agentic_rag._answering.compose import compose_text, outcome_notes
from agentic_rag._answering.guard import guard_answer, least_status
from agentic_rag._agentic.policy import AbstentionPolicy
from agentic_rag._contracts import AnswerStatus, Claim, ContextAssessment, DraftAnswer, FactPriority, GroundedAnswer, RetrievalPlan, Snippet
from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import InvalidInputError, ProviderError
from agentic_rag.llm.components.citations import ClaimVerification, parse_model_claims, verify_model_claims
from agentic_rag.llm.components.fallback import ROLE_MAX_TOKENS, ComponentEventKind, FallbackChoice, LLMComponent, resolve_fallback
from agentic_rag.llm.components.judge import check_evidence_inputs, shown_snippets
from agentic_rag.llm.components.prompts import assessment_section, build_messages, documents_section, facts_section, question_section
from agentic_rag.llm.schemas import LLMRole
from agentic_rag._ports import Drafter, Synthesizer

__all__ = ["LLMDrafter", "LLMSynthesizer"]

def _removed_note(count: int) -> str:
    return f"({count} claim(s) removed: their citations did not hold.)" if count else ""


class _Writer(LLMComponent):
    """What the drafter and synthesizer share: limits on the documents shown, and verifying."""

    def _limits(self, max_snippets: int, max_snippet_chars: int | None) -> None:
        self.max_snippets = require_int(max_snippets, "max_snippets", minimum=1, stage="llm-components")
        self.max_snippet_chars = None if max_snippet_chars is None else require_int(max_snippet_chars, "max_snippet_chars", minimum=1, stage="llm-components")

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
        max_snippets: Documents shown to the model (the first ones given, best first).
        max_snippet_chars: Characters shown per document (``None``: all).
        repair_rounds: Repair rounds when the answer is invalid for the schema.
        temperature: Sampling temperature.
        max_tokens: Cap on generated tokens per call.
        name: Label for events.

    Raises:
        InvalidInputError: Bad arguments.
    """

    def __init__(
        self,
        llm: Any,
        *,
        fallback: Drafter | FallbackChoice | None = FallbackChoice.DETERMINISTIC,
        max_snippets: int = 12,
        max_snippet_chars: int | None = 1500,
        repair_rounds: int = 1,
        temperature: float = 0.0,
        max_tokens: int = ROLE_MAX_TOKENS[LLMRole.DRAFTER],
        name: str = "llm_drafter",
    ) -> None:
        super().__init__(
            llm, role=LLMRole.DRAFTER, fallback=resolve_fallback(fallback, ExtractiveDrafter), method="draft",
            repair_rounds=repair_rounds, temperature=temperature, max_tokens=max_tokens, name=name,
        )
        self._limits(max_snippets, max_snippet_chars)

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
        shown = shown_snippets(snippets, self.max_snippets, canonical=False)
        sections = [question_section(question), facts_section(plan), documents_section(shown, max_chars=self.max_snippet_chars)]
        try:
            answer = self.ask(build_messages(LLMRole.DRAFTER, sections))
            checked = self._verify(answer, shown, plan)
            text = compose_text(checked.claims, [_removed_note(len(checked.dropped))])
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
        max_snippets: Documents shown to the model (the first ones given, best first).
        max_snippet_chars: Characters shown per document (``None``: all).
        repair_rounds: Repair rounds when the answer is invalid for the schema.
        temperature: Sampling temperature.
        max_tokens: Cap on generated tokens per call.
        name: Label for events.

    Raises:
        InvalidInputError: Bad arguments.
    """

    def __init__(
        self,
        llm: Any,
        *,
        fallback: Synthesizer | FallbackChoice | None = FallbackChoice.DETERMINISTIC,
        policy: AbstentionPolicy | None = None,
        max_snippets: int = 12,
        max_snippet_chars: int | None = 1500,
        repair_rounds: int = 1,
        temperature: float = 0.0,
        max_tokens: int = ROLE_MAX_TOKENS[LLMRole.SYNTHESIZER],
        name: str = "llm_synthesizer",
    ) -> None:
        super().__init__(
            llm, role=LLMRole.SYNTHESIZER, fallback=resolve_fallback(fallback, ExtractiveGroundedSynthesizer), method="synthesize",
            repair_rounds=repair_rounds, temperature=temperature, max_tokens=max_tokens, name=name,
        )
        self.policy = policy or AbstentionPolicy()
        if not isinstance(self.policy, AbstentionPolicy):
            raise InvalidInputError(f"policy must be an AbstentionPolicy, got {type(self.policy).__name__}", stage="synthesizer")
        self._limits(max_snippets, max_snippet_chars)

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
        shown = shown_snippets(snippets, self.max_snippets, canonical=False)
        sections = [
            question_section(question),
            facts_section(plan),
            assessment_section(plan, assessment, shown),
            documents_section(shown, max_chars=self.max_snippet_chars),
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
        notes = outcome_notes(plan, assessment.conflicts, missing, has_claims=bool(claims), status=status) + [_removed_note(dropped)]
        return GroundedAnswer(
            text=compose_text(claims, notes),
            claims=claims,
            status=status,
            missing_facts=missing,
            final_score=assessment.sufficiency_score,
            conflicts=assessment.conflicts,
        )
