"""The LLM sufficiency judge: a Sufficient Context autorater with a conservative referee.

The model labels the context (sufficient, useful but incomplete, insufficient, conflicting,
unanswerable), lists covered and missing facts, the documents that establish each covered
fact, conflicts with the documents on each side and a follow-up query per missing fact. Its
verdict is then made consistent, always toward *less* sufficient:

* facts the model does not mention, or calls both covered and missing, are missing (a verdict
  that names none of the plan's facts is unusable and goes to the fallback);
* conflicts on unknown facts, groups citing no document in range, and conflicts left with
  fewer than two sides are dropped;
* SUFFICIENT needs the sufficient label, the sufficient status, no must fact missing, no
  conflict on a must fact and the plan's ``min_sufficiency``; anything less is INSUFFICIENT
  with the label lowered to ``conflicting``, ``useful_but_incomplete`` or ``insufficient``. A
  conflict on a should or may fact (an earlier value beside the asked current one) is kept,
  with its sides, for the answer to say, and decides nothing: the question still has one
  answer.

The score is computed, not asked for: covered facts' priority weights over all weights. The
documents the model names for each covered fact become the assessment's ``support``, which
the orchestrator keeps in front of later rounds' prompts. Unsupported draft claims are
computed deterministically (:func:`~agentic_rag._agentic.judge.unsupported_claims`). The
follow-up queries are the model's own, written for its missing facts: no joined keywords
or word stems are added, and a missing fact the model leaves without a query (no search
can find it) gets none, so a judge can end a loop that has nowhere to go.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agentic_rag._agentic.judge import AutoraterStyleSufficiencyJudge, unsupported_claims
from agentic_rag._contracts import (
    AnswerabilityLabel,
    ConflictEvidence,
    ConflictGroup,
    ContextAssessment,
    DraftAnswer,
    FactPriority,
    FactSupport,
    FeedbackQuery,
    RetrievalPlan,
    Snippet,
    SufficiencyStatus,
)
from agentic_rag._errors import InvalidInputError, ProviderError
from agentic_rag._ports import SufficiencyJudge
from agentic_rag._text.questions import fold_query
from agentic_rag.llm.components.evidence_window import EvidenceWindow, check_evidence_inputs
from agentic_rag.llm.components.fallback import ComponentEventKind, FallbackChoice, LLMComponent, mapping_items, resolve_fallback, unusable_answer
from agentic_rag.llm.components.prompts import build_messages, facts_section, question_section
from agentic_rag.llm.components.settings import EVIDENCE_OPTIONS, RoleSettings, resolve_settings
from agentic_rag.llm.schemas import LLMRole

__all__ = ["LLMSufficiencyJudge"]


class LLMSufficiencyJudge(LLMComponent):
    """A :class:`~agentic_rag._ports.SufficiencyJudge` backed by a language model.

    Args:
        llm: The model.
        fallback: Judge used when the model fails (default: a new
            :class:`~agentic_rag._agentic.judge.AutoraterStyleSufficiencyJudge`; ``None``: raise).
        settings: Model call and evidence options (default :class:`RoleSettings`: one repair
            round, temperature 0, the role's token cap, 12 documents of 1,500 characters,
            the first ones given).
        name: Label for events.
        **overrides: Any of ``repair_rounds``, ``temperature``, ``max_tokens``,
            ``max_snippets`` and ``max_snippet_chars``, overriding ``settings`` for this
            judge.

    Raises:
        InvalidInputError: Bad arguments.
    """

    def __init__(
        self,
        llm: Any,
        *,
        fallback: SufficiencyJudge | FallbackChoice | None = FallbackChoice.DETERMINISTIC,
        settings: RoleSettings | None = None,
        name: str = "llm_judge",
        **overrides: Any,
    ) -> None:
        self.settings = resolve_settings(settings, overrides, component=type(self).__name__, options=EVIDENCE_OPTIONS)
        super().__init__(
            llm, role=LLMRole.SUFFICIENCY_JUDGE, fallback=resolve_fallback(fallback, AutoraterStyleSufficiencyJudge), method="assess",
            name=name, **self.settings.model_options(LLMRole.SUFFICIENCY_JUDGE),
        )
        self.window = EvidenceWindow.from_settings(self.settings, default_snippets=12)

    def assess(self, question: str, plan: RetrievalPlan, snippets: Sequence[Snippet], draft: DraftAnswer) -> ContextAssessment:
        """Assess whether ``snippets`` suffice to answer ``question``.

        Args:
            question: The question.
            plan: The plan whose facts define sufficiency.
            snippets: All evidence so far (the first ``max_snippets`` are shown).
            draft: The current draft; its claims are checked against the snippets.

        Returns:
            A consistent assessment; with no snippets, INSUFFICIENT without a model call.

        Raises:
            InvalidInputError: Bad arguments.
            StructuredOutputError: The model failed and ``fallback`` is ``None``.
            BudgetExhaustedError: The run's budget stopped the call.
        """
        snippets = check_evidence_inputs(question, plan, snippets, stage="judge")
        if not isinstance(draft, DraftAnswer):
            raise InvalidInputError(f"draft must be a DraftAnswer, got {type(draft).__name__}", stage="judge")
        if not snippets:
            self.last_fallback_reason = None
            return self._verdict(question, plan, snippets, draft, {}, "no evidence was retrieved")
        shown = self.window.shown(snippets, canonical=True)
        sections = [question_section(question), facts_section(plan), self.window.section(shown)]
        try:
            answer = self.ask(build_messages(LLMRole.SUFFICIENCY_JUDGE, sections))
            return self._verdict(question, plan, snippets, draft, answer, "", shown)
        except ProviderError as error:
            fallback = self.take_over(error)
        return fallback.assess(question, plan, snippets, draft)

    def _verdict(
        self,
        question: str,
        plan: RetrievalPlan,
        snippets: tuple[Snippet, ...],
        draft: DraftAnswer,
        answer: Any,
        note: str,
        shown: tuple[Snippet, ...] = (),
    ) -> ContextAssessment:
        facts = {f.id: f for f in plan.facts}
        notes: list[str] = []
        said_covered = {str(f).strip() for f in answer.get("covered_fact_ids") or ()}
        missing_items = [m for m in mapping_items(answer.get("missing_facts")) if str(m.get("fact_id", "")).strip() in facts]
        said_missing = {str(m["fact_id"]).strip() for m in missing_items}
        if said_covered & said_missing:
            notes.append(f"facts both covered and missing count as missing: {sorted(said_covered & said_missing)}")
        if answer and not (said_covered & set(facts)) and not said_missing:
            raise unusable_answer(self.name, f"the verdict names none of the plan's facts {sorted(facts)}")
        unknown = sorted(said_covered - set(facts))
        if unknown:
            notes.append(f"ignored unknown covered facts {unknown}")
        covered = tuple(f.id for f in plan.facts if f.id in said_covered and f.id not in said_missing)
        missing = tuple(f.id for f in plan.facts if f.id not in covered)
        conflicts = self._conflicts(answer, facts, shown, notes)
        total = sum(f.priority.weight for f in plan.facts)
        score = round(min(1.0, max(0.0, sum(facts[f].priority.weight for f in covered) / total)), 6)
        label, status = self._consistent(answer, plan, covered, missing, conflicts, score, notes)
        feedback = self._feedback(snippets, missing_items, missing)
        support = self._support(answer, covered, shown, notes)
        rationale = note or " ".join(str(answer.get("rationale", "")).split())
        if notes:
            self.record(ComponentEventKind.ADJUSTED, f"adjusted the model's verdict: {'; '.join(notes)}", notes)
            rationale = f"{rationale} [adjusted: {'; '.join(notes)}]".strip()
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
            support=support,
        )

    @staticmethod
    def _conflicts(answer: Any, facts: dict[str, Any], shown: tuple[Snippet, ...], notes: list[str]) -> tuple[ConflictEvidence, ...]:
        out: list[ConflictEvidence] = []
        for item in mapping_items(answer.get("conflicts")):
            fact_id = str(item.get("fact_id", "")).strip()
            if fact_id not in facts or any(c.fact_id == fact_id for c in out):
                notes.append(f"dropped a conflict on unknown or repeated fact {fact_id!r}")
                continue
            sides: dict[str, tuple[str, list[str]]] = {}
            for group in mapping_items(item.get("groups")):
                value = " ".join(str(group.get("value", "")).split())
                indices = [i for i in group.get("snippet_indices") or () if isinstance(i, (int, float)) and not isinstance(i, bool)]
                ids = [shown[int(i) - 1].id for i in indices if float(i).is_integer() and 1 <= i <= len(shown)]
                if len(ids) < len(indices):
                    notes.append(f"conflict on {fact_id}: dropped document indices out of range")
                if value and ids:
                    entry = sides.setdefault(value.casefold(), (value, []))
                    entry[1].extend(i for i in ids if i not in entry[1])
            if len(sides) < 2:
                notes.append(f"dropped the conflict on {fact_id}: fewer than two sides cite a shown document")
                continue
            groups = tuple(ConflictGroup(value, tuple(sorted(ids))) for value, ids in sides.values())
            out.append(ConflictEvidence(fact_id, groups))
        return tuple(out)

    @staticmethod
    def _consistent(
        answer: Any,
        plan: RetrievalPlan,
        covered: tuple[str, ...],
        missing: tuple[str, ...],
        conflicts: tuple[ConflictEvidence, ...],
        score: float,
        notes: list[str],
    ) -> tuple[AnswerabilityLabel, SufficiencyStatus]:
        label = AnswerabilityLabel(answer.get("label", AnswerabilityLabel.INSUFFICIENT.value))
        said_sufficient = answer.get("status") == SufficiencyStatus.SUFFICIENT.value
        must_missing = [f.id for f in plan.facts if f.priority is FactPriority.MUST and f.id in missing]
        lowered = AnswerabilityLabel.USEFUL_BUT_INCOMPLETE if covered else AnswerabilityLabel.INSUFFICIENT
        # Only a conflict on a must fact leaves the question without one answer: documents that
        # disagree on a should or may fact (an earlier default beside the asked current one)
        # are listed with both sides, as should and may facts never make the context
        # insufficient either.
        must = {f.id for f in plan.facts if f.priority is FactPriority.MUST}
        deciding = [c.fact_id for c in conflicts if c.fact_id in must]
        if deciding and label is not AnswerabilityLabel.CONFLICTING and label is not AnswerabilityLabel.UNANSWERABLE:
            notes.append(f"label {label.value} with conflicts on {deciding} became conflicting")
            label = AnswerabilityLabel.CONFLICTING
        elif label is AnswerabilityLabel.CONFLICTING and not deciding:
            kept = AnswerabilityLabel.SUFFICIENT if conflicts and said_sufficient else lowered
            why = "on no must fact" if conflicts else "without a valid conflict"
            notes.append(f"label conflicting {why} became {kept.value}")
            label = kept
        if label is AnswerabilityLabel.SUFFICIENT:
            why = []
            if not said_sufficient:
                why.append("the model's status was insufficient")
            if must_missing:
                why.append(f"must facts {must_missing} are missing")
            if score < plan.stop_conditions.min_sufficiency:
                why.append(f"score {score} is below min_sufficiency {plan.stop_conditions.min_sufficiency}")
            if why:
                notes.append(f"label sufficient became {lowered.value}: {', '.join(why)}")
                label = lowered
        elif said_sufficient:
            notes.append(f"status sufficient with label {label.value} became insufficient")
        status = SufficiencyStatus.SUFFICIENT if label is AnswerabilityLabel.SUFFICIENT else SufficiencyStatus.INSUFFICIENT
        return label, status

    @staticmethod
    def _support(answer: Any, covered: tuple[str, ...], shown: tuple[Snippet, ...], notes: list[str]) -> tuple[FactSupport, ...]:
        """The documents the model names for each covered fact, as the assessment's support."""
        by_fact: dict[str, list[str]] = {}
        for item in mapping_items(answer.get("fact_documents")):
            fact_id = str(item.get("fact_id", "")).strip()
            if fact_id not in covered:
                continue
            for index in item.get("snippet_indices") or ():
                if isinstance(index, (int, float)) and not isinstance(index, bool) and float(index).is_integer() and 1 <= index <= len(shown):
                    ids = by_fact.setdefault(fact_id, [])
                    if shown[int(index) - 1].id not in ids:
                        ids.append(shown[int(index) - 1].id)
                else:
                    notes.append(f"fact_documents of {fact_id}: dropped document index {index!r} out of range")
        return tuple(FactSupport(f, tuple(by_fact[f]), 1.0) for f in covered if by_fact.get(f))

    @staticmethod
    def _feedback(snippets: tuple[Snippet, ...], items: list[Any], missing: tuple[str, ...]) -> tuple[FeedbackQuery, ...]:
        """The model's follow-up queries for its missing facts, each once, with the lineage of
        the subquery that first found evidence for the fact."""
        wanted = set(missing)
        parents = {}
        for snippet in sorted(snippets, key=lambda s: s.id):
            for query_id, fact_id in sorted(snippet.lineage):
                parents.setdefault(fact_id, query_id or None)
        out: list[FeedbackQuery] = []
        seen: set[tuple[str, str]] = set()
        for item in items:
            fact_id = str(item["fact_id"]).strip()
            text = " ".join(str(item.get("follow_up_query", "")).split())
            key = (fact_id, fold_query(text))
            if fact_id in wanted and text and key not in seen:
                seen.add(key)
                reason = " ".join(str(item.get("what_is_missing", "")).split())
                out.append(FeedbackQuery(fact_id, text, reason=f"judge: {reason}" if reason else "judge's follow-up", parent_id=parents.get(fact_id)))
        return tuple(out)
