"""The LLM planner: required facts with priorities and dependencies, routed by corpus
description, repaired into a valid plan.

The model proposes; the planner makes the proposal safe to run: fact ids sanitised and unique,
dependencies on unknown facts dropped, facts ordered after what they depend on (an edge that
closes a cycle is dropped), routes kept only to corpora that exist, a fact left without a
route routed by the deterministic :class:`~agentic_rag._agentic.routing.CorpusRouter`, and, when
the model marks nothing ``must``, the first fact made ``must`` (a plan without a must fact
would be "sufficient" before anything is found). Every repair is recorded as an event.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from agentic_rag._agentic.planner import HeuristicPlanner
from agentic_rag._agentic.routing import CorpusRouter
from agentic_rag._contracts import ContextAssessment, Corpus, FactPriority, RequiredFact, RetrievalPlan, Route, StopConditions
from agentic_rag._contracts.corpus import require_corpora
from agentic_rag._contracts.validation import require_text
from agentic_rag._errors import InvalidInputError, ProviderError
from agentic_rag.llm.components.fallback import ComponentEventKind, FallbackChoice, LLMComponent, mapping_items, resolve_fallback, unusable_answer
from agentic_rag.llm.components.settings import RoleSettings, resolve_settings
from agentic_rag.llm.components.prompts import build_messages, corpora_section, question_section
from agentic_rag.llm.schemas import LLMRole
from agentic_rag.llm.untrusted import escape_untrusted
from agentic_rag._ports import Planner

__all__ = ["LLMPlanner", "order_by_dependencies", "sanitise_fact_ids"]

_ID_JUNK = re.compile(r"[^A-Za-z0-9_.-]+")
_MAX_ID = 40


def sanitise_fact_ids(raw_ids: Sequence[str]) -> list[str]:
    """Return ids made of letters, digits, ``_``, ``.`` and ``-``, unique in order.

    An id with nothing left becomes ``f<position>``; a repeated id gets ``_2``, ``_3``...

    Args:
        raw_ids: The ids as the model wrote them.

    Returns:
        One sanitised id per raw id.
    """
    out: list[str] = []
    used: set[str] = set()
    for position, raw in enumerate(raw_ids, start=1):
        base = _ID_JUNK.sub("_", str(raw).strip()).strip("_.-")[:_MAX_ID] or f"f{position}"
        candidate, suffix = base, 2
        while candidate in used:
            candidate, suffix = f"{base}_{suffix}", suffix + 1
        used.add(candidate)
        out.append(candidate)
    return out


def order_by_dependencies(ids: Sequence[str], depends_on: Mapping[str, Sequence[str]]) -> tuple[list[str], dict[str, tuple[str, ...]], list[str]]:
    """Order facts so each comes after its dependencies, breaking cycles.

    A stable topological sort: the next fact is the earliest (in ``ids`` order) whose
    dependencies are all placed. When none is (a cycle), the earliest remaining fact is placed
    and its unplaced dependencies dropped.

    Args:
        ids: Fact ids in the model's order.
        depends_on: Each fact's dependencies (ids in ``ids``).

    Returns:
        The order, the dependencies kept per fact, and a description of each dropped edge.
    """
    remaining = list(ids)
    placed: list[str] = []
    kept: dict[str, tuple[str, ...]] = {}
    dropped: list[str] = []
    while remaining:
        pick = next((f for f in remaining if all(d in kept for d in depends_on.get(f, ()))), None)
        if pick is None:
            pick = remaining[0]
            dropped.extend(f"{pick} -> {d}" for d in depends_on.get(pick, ()) if d not in kept)
        kept[pick] = tuple(d for d in depends_on.get(pick, ()) if d in kept)
        placed.append(pick)
        remaining.remove(pick)
    return placed, kept, dropped


class LLMPlanner(LLMComponent):
    """A :class:`~agentic_rag._ports.Planner` backed by a language model.

    Args:
        llm: The model (any :class:`~agentic_rag.llm.port.LLM`).
        fallback: Planner used when the model fails (default: a new
            :class:`~agentic_rag._agentic.planner.HeuristicPlanner`; ``None``: raise).
        router: Routes facts the model left without a known corpus, and, when it can locate
            passages, adds to the model's choice the corpora a fact's best passages stand in
            if the best one's is not chosen (:meth:`CorpusRouter.widened`; the default
            :class:`CorpusRouter` cannot locate).
        stop_conditions: Put in every plan (default :class:`StopConditions`).
        settings: Model call options (default :class:`RoleSettings`: one repair round,
            temperature 0, the role's token cap).
        name: Label for events.
        **overrides: Any of ``repair_rounds``, ``temperature`` and ``max_tokens``,
            overriding ``settings`` for this component.

    Raises:
        InvalidInputError: A model without ``complete``, a fallback without ``plan``, or bad
            numbers.
    """

    def __init__(
        self,
        llm: Any,
        *,
        fallback: Planner | FallbackChoice | None = FallbackChoice.DETERMINISTIC,
        router: CorpusRouter | None = None,
        stop_conditions: StopConditions | None = None,
        settings: RoleSettings | None = None,
        name: str = "llm_planner",
        **overrides: Any,
    ) -> None:
        self.settings = resolve_settings(settings, overrides, component=type(self).__name__)
        super().__init__(
            llm, role=LLMRole.PLANNER, fallback=resolve_fallback(fallback, HeuristicPlanner), method="plan",
            name=name, **self.settings.model_options(LLMRole.PLANNER),
        )
        self.router = router or CorpusRouter()
        self.stop_conditions = stop_conditions or StopConditions()
        if not isinstance(self.stop_conditions, StopConditions):
            raise InvalidInputError(f"stop_conditions must be StopConditions, got {type(self.stop_conditions).__name__}", stage="planner")

    def plan(self, question: str, corpora: Sequence[Corpus], prior: ContextAssessment | None = None) -> RetrievalPlan:
        """Plan ``question`` over ``corpora``.

        Args:
            question: The question.
            corpora: Candidate corpora (at least one, unique ids).
            prior: The last assessment when re-planning: the model is told what is covered,
                what is missing and what the judge suggested.

        Returns:
            A valid plan; every route names known corpora.

        Raises:
            InvalidInputError: Empty question, no corpora, or duplicate corpus ids.
            StructuredOutputError: The model failed and ``fallback`` is ``None``.
            BudgetExhaustedError: The run's budget stopped the call.
        """
        require_text(question, "question", stage="planner")
        corpora = require_corpora(corpora, stage="planner")
        if prior is not None and not isinstance(prior, ContextAssessment):
            raise InvalidInputError(f"prior must be a ContextAssessment or None, got {type(prior).__name__}", stage="planner")
        sections = [question_section(question), corpora_section(corpora), _prior_section(prior)]
        try:
            answer = self.ask(build_messages(LLMRole.PLANNER, sections))
            return self._build(question, corpora, answer)
        except ProviderError as error:
            fallback = self.take_over(error)
        return fallback.plan(question, corpora, prior)

    def _build(self, question: str, corpora: tuple[Corpus, ...], answer: Mapping[str, Any]) -> RetrievalPlan:
        items = [i for i in mapping_items(answer.get("facts")) if isinstance(i.get("description"), str) and i["description"].strip()]
        if not items:
            raise unusable_answer(self.name, "the plan has no fact with a description")
        notes: list[str] = []
        raw_ids = [str(i.get("id", "")) for i in items]
        ids = sanitise_fact_ids(raw_ids)
        if ids != [r.strip() for r in raw_ids]:
            notes.append(f"fact ids {raw_ids} became {ids}")
        alias: dict[str, str] = {}
        for raw, new in zip(raw_ids, ids):
            alias.setdefault(raw.strip(), new)
            alias.setdefault(new, new)
        deps: dict[str, tuple[str, ...]] = {}
        for fact_id, item in zip(ids, items):
            wanted = [str(d).strip() for d in item.get("depends_on") or ()]
            known = tuple(dict.fromkeys(alias[d] for d in wanted if d in alias and alias[d] != fact_id))
            if len(known) < len(wanted):
                notes.append(f"{fact_id}: dropped dependencies on unknown facts or itself ({wanted})")
            deps[fact_id] = known
        order, kept, cycles = order_by_dependencies(ids, deps)
        if cycles:
            notes.append(f"dropped dependencies that closed a cycle: {', '.join(cycles)}")
        by_id = dict(zip(ids, items))
        must_seen = any(by_id[f].get("priority") == FactPriority.MUST.value for f in order)
        facts, routes = [], []
        for position, fact_id in enumerate(order):
            item = by_id[fact_id]
            priority = FactPriority(item.get("priority", FactPriority.MUST.value))
            if not must_seen and position == 0:
                priority = FactPriority.MUST
                notes.append(f"no fact was marked must; made {fact_id} must")
            terms = tuple(dict.fromkeys(" ".join(str(t).split()) for t in item.get("required_terms") or () if str(t).strip()))
            description = " ".join(item["description"].split())
            facts.append(RequiredFact(fact_id, description, priority, required_terms=terms, depends_on=kept[fact_id], metadata={"planner": "llm"}))
            routes.append(self._route(fact_id, description, terms, item, corpora, notes))
        if notes:
            self.record(ComponentEventKind.ADJUSTED, f"repaired the model's plan: {'; '.join(notes)}", notes)
        try:
            return RetrievalPlan(question=question, facts=tuple(facts), routes=tuple(routes), stop_conditions=self.stop_conditions, corpora=corpora)
        except InvalidInputError as error:  # pragma: no cover - the repairs above rule this out
            raise unusable_answer(self.name, f"the repaired plan is still invalid: {error.message}") from error

    def _route(self, fact_id: str, description: str, terms: tuple[str, ...], item: Mapping[str, Any], corpora: tuple[Corpus, ...], notes: list[str]) -> Route:
        by_fold = {c.id.casefold(): c.id for c in corpora}
        wanted = [str(c).strip() for c in item.get("corpus_ids") or ()]
        chosen = tuple(dict.fromkeys(by_fold[c.casefold()] for c in wanted if c.casefold() in by_fold))
        unknown = [c for c in wanted if c.casefold() not in by_fold]
        if unknown:
            notes.append(f"{fact_id}: dropped unknown corpora {unknown}")
        if chosen:
            reason = escape_untrusted(" ".join(str(item.get("route_reason") or "").split()) or "chosen by the model from the corpus descriptions")
            wider = self.router.widened(f"{description} {' '.join(terms)}", chosen, corpora)
            return Route(fact_id, wider.corpus_ids, f"{reason}; {wider.reason}" if wider.reason else reason)
        decision = self.router.route(f"{description} {' '.join(terms)}", corpora)
        notes.append(f"{fact_id}: no known corpus named; routed by description to {list(decision.corpus_ids)}")
        return Route(fact_id, decision.corpus_ids, f"routed by description: {decision.reason}")


def _prior_section(prior: ContextAssessment | None) -> str:
    if prior is None:
        return ""
    lines = [
        "Previous assessment:",
        f"- label: {prior.label.value}",
        f"- covered facts: {', '.join(prior.covered_fact_ids) or 'none'}",
        f"- missing facts: {', '.join(prior.missing_fact_ids) or 'none'}",
    ]
    lines += [f"- suggested search for {q.fact_id}: {escape_untrusted(' '.join(q.text.split()))}" for q in prior.feedback_queries[:8]]
    return "\n".join(lines)
