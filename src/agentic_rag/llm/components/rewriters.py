"""LLM query rewriting for both workflows, and the HyDE writer.

* :class:`LLMQueryRewriter` (agentic ``QueryRewriter``): first round, queries for the facts
  that depend on nothing, sent to each fact's route; later rounds, queries for the facts the
  judge's feedback names, routed by text over the plan's corpora. Queries are interleaved
  across facts so a per-round cap serves every fact, and every feedback item's lineage
  (fact, parent query) is carried, by the item itself when the model wrote nothing for it.
* :class:`LLMQueryViewRewriter` (parallel ``QueryViewRewriter``): multi-query or decomposition
  views of one question.
* :class:`LLMHyDEWriter`: the ``generate(query) -> str`` function of
  :class:`~agentic_rag._parallel.rewriters.HyDERewriter`, which keeps HyDE's binding rule
  (vector retrievers only, never evidence).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any

from agentic_rag._agentic.rewriter import PlanFeedbackRewriter
from agentic_rag._agentic.routing import CorpusRouter
from agentic_rag._contracts import FactPriority, FeedbackQuery, RetrievalPlan, Subquery, SubqueryOrigin
from agentic_rag._contracts.validation import require_bool, require_enum, require_int, require_text
from agentic_rag._errors import InvalidInputError, ProviderError
from agentic_rag.llm.components.fallback import FallbackChoice, LLMComponent, mapping_items, resolve_fallback, unusable_answer
from agentic_rag.llm.components.settings import RoleSettings, resolve_settings
from agentic_rag.llm.components.prompts import build_messages, corpora_section, facts_section, feedback_section, question_section
from agentic_rag.llm.schemas import LLMRole
from agentic_rag._parallel.contracts import RewriteRequest, RewriteResult
from agentic_rag._parallel.ports import QueryViewRewriter
from agentic_rag._parallel.rewriters import DecompositionRewriter, MultiQueryRewriter
from agentic_rag._ports import QueryRewriter
from agentic_rag._text.questions import fold_query

__all__ = ["LLMHyDEWriter", "LLMQueryRewriter", "LLMQueryViewRewriter", "QueryViewStrategy", "hyde_generate_fn", "statement_document"]


class LLMQueryRewriter(LLMComponent):
    """An agentic :class:`~agentic_rag._ports.QueryRewriter` backed by a language model.

    Args:
        llm: The model.
        fallback: Rewriter used when the model fails (default: a new
            :class:`~agentic_rag._agentic.rewriter.PlanFeedbackRewriter`; ``None``: raise).
        router: Routes follow-up queries that name no corpus, and, when it can locate
            passages, adds to the judge's choice the corpora a query's best passages stand in
            if the best one's is not chosen (:meth:`CorpusRouter.widened`).
        max_queries_per_fact: Model queries kept per fact (the request tells the model this
            cap, so a paraphrase, a keyword query and a part of a compound fact all fit).
        settings: Model call options (default :class:`RoleSettings`: one repair round,
            temperature 0, the role's token cap).
        name: Label for events.
        **overrides: Any of ``repair_rounds``, ``temperature`` and ``max_tokens``,
            overriding ``settings`` for this component.

    Raises:
        InvalidInputError: Bad arguments.
    """

    def __init__(
        self,
        llm: Any,
        *,
        fallback: QueryRewriter | FallbackChoice | None = FallbackChoice.DETERMINISTIC,
        router: CorpusRouter | None = None,
        max_queries_per_fact: int = 3,
        settings: RoleSettings | None = None,
        name: str = "llm_query_rewriter",
        **overrides: Any,
    ) -> None:
        self.settings = resolve_settings(settings, overrides, component=type(self).__name__)
        super().__init__(
            llm, role=LLMRole.QUERY_REWRITER, fallback=resolve_fallback(fallback, PlanFeedbackRewriter), method="rewrite",
            name=name, **self.settings.model_options(LLMRole.QUERY_REWRITER),
        )
        self.router = router or CorpusRouter()
        self.max_queries_per_fact = require_int(max_queries_per_fact, "max_queries_per_fact", minimum=1, stage="rewriter")

    def rewrite(self, plan: RetrievalPlan, feedback: Sequence[FeedbackQuery], *, iteration: int) -> tuple[Subquery, ...]:
        """Return this round's subqueries, ids ``q<iteration>.<n>``.

        Args:
            plan: The retrieval plan.
            feedback: The judge's feedback from the previous round (empty in round 1).
            iteration: The round number, from 1.

        Returns:
            Subqueries with lineage; empty for a later round without feedback (no call made).

        Raises:
            InvalidInputError: A bad plan, feedback item or iteration.
            StructuredOutputError: The model failed and ``fallback`` is ``None``.
            BudgetExhaustedError: The run's budget stopped the call.
        """
        require_int(iteration, "iteration", minimum=1, stage="rewriter")
        if not isinstance(plan, RetrievalPlan):
            raise InvalidInputError(f"plan must be a RetrievalPlan, got {type(plan).__name__}", stage="rewriter")
        feedback = tuple(feedback)
        if any(not isinstance(f, FeedbackQuery) for f in feedback):
            raise InvalidInputError(f"feedback must hold FeedbackQuery objects, got {[type(f).__name__ for f in feedback]}", stage="rewriter")
        first = iteration == 1 and not feedback
        known = {f.id for f in plan.facts}
        feedback = tuple(f for f in feedback if f.fact_id in known)
        # Round one searches every fact that needs no bridge, and every MUST fact even when it
        # depends on another: the question's own words often find it before the bridge entity
        # is known ("the wife of the actor who played ..."), and a must fact left for later
        # rounds is searched only if the judge asks for it.
        targets = ([f.id for f in plan.facts if not f.depends_on or f.priority is FactPriority.MUST] if first
                   else list(dict.fromkeys(f.fact_id for f in feedback)))
        if not targets:
            self.last_fallback_reason = None
            return ()
        bridged = [f.id for f in plan.facts if first and f.id in targets and f.depends_on]
        ask = f"Write queries only for these facts: {', '.join(targets)}; at most {self.max_queries_per_fact} a fact."
        if bridged:
            ask += (f" {', '.join(bridged)} depend{'s' if len(bridged) == 1 else ''} on facts not yet found: search "
                    "them now in the question's own words, never with a value guessed for the bridge.")
        sections = [question_section(plan.question), corpora_section(plan.corpora) if plan.corpora else "", facts_section(plan, targets),
                    feedback_section(feedback), ask]
        try:
            answer = self.ask(build_messages(LLMRole.QUERY_REWRITER, sections))
            return self._build(plan, feedback, targets, answer, iteration, first)
        except ProviderError as error:
            fallback = self.take_over(error)
        return fallback.rewrite(plan, feedback, iteration=iteration)

    def _build(self, plan: RetrievalPlan, feedback: tuple[FeedbackQuery, ...], targets: list[str], answer: Any, iteration: int, first: bool) -> tuple[Subquery, ...]:
        per_fact: dict[str, list[tuple[str, str]]] = {t: [] for t in targets}
        for item in mapping_items(answer.get("queries")):
            fact_id, text = str(item.get("fact_id", "")).strip(), " ".join(str(item.get("text", "")).split())
            if fact_id in per_fact and text and len(per_fact[fact_id]) < self.max_queries_per_fact:
                if all(fold_query(text) != fold_query(t) for t, _ in per_fact[fact_id]):
                    reason = " ".join(str(item.get("reason") or "").split())
                    per_fact[fact_id].append((text, f"{item.get('strategy', 'paraphrase')}: {reason}".rstrip(": ")))
        if not any(per_fact.values()):
            raise unusable_answer(self.name, f"no query names a requested fact ({', '.join(targets)})")
        rows: list[tuple[str, str, str, str | None, tuple[str, ...]]] = []  # fact, text, reason, parent, corpora
        for rank in range(self.max_queries_per_fact):
            for fact_id in targets:
                if rank < len(per_fact[fact_id]):
                    text, reason = per_fact[fact_id][rank]
                    item = next((f for f in feedback if f.fact_id == fact_id), None)
                    rows.append((fact_id, text, reason, item.parent_id if item else None, item.corpus_ids if item else ()))
        if first:
            for fact_id in targets:
                # A fact that waits for a bridge is searched in round one only in the model's
                # words: its own description leans on the bridge ("that co-star's nationality").
                if not per_fact[fact_id] and not plan.fact(fact_id).depends_on:
                    rows.append((fact_id, plan.fact(fact_id).description, "the model wrote no query for this fact", None, ()))
        carried = {(fact_id, parent) for fact_id, _, _, parent, _ in rows}
        texts = {(fact_id, fold_query(text)) for fact_id, text, _, _, _ in rows}
        for item in feedback:
            # The judge's own query stands in when the model wrote none for its fact, and
            # whenever it is the only way to carry the item's lineage.
            unwritten = not per_fact[item.fact_id] and (item.fact_id, fold_query(item.text)) not in texts
            if (item.fact_id, item.parent_id) not in carried or unwritten:
                rows.append((item.fact_id, item.text, item.reason or "the judge's follow-up", item.parent_id, item.corpus_ids))
                carried.add((item.fact_id, item.parent_id))
                texts.add((item.fact_id, fold_query(item.text)))
        corpus_ids = {c.id for c in plan.corpora}
        out = []
        for number, (fact_id, text, reason, parent, corpora) in enumerate(rows, start=1):
            route = plan.route(fact_id)
            chosen = tuple(c for c in corpora if not corpus_ids or c in corpus_ids)
            if first:
                chosen, reason = route.corpus_ids, f"{reason}; plan route: {route.reason}".strip("; ")
            elif not chosen and plan.corpora:
                decision = self.router.route(text, plan.corpora, fallback=route.corpus_ids)
                chosen, reason = decision.corpus_ids, f"{reason}; routed: {decision.reason}"
            elif chosen:  # the judge's choice, by description: the passages' corpora join it
                wider = self.router.widened(text, chosen, plan.corpora)
                chosen, reason = wider.corpus_ids, f"{reason}; {wider.reason}" if wider.reason else reason
            out.append(Subquery(
                id=f"q{iteration}.{number}", fact_id=fact_id, text=text, corpus_ids=chosen or route.corpus_ids, reason=reason,
                parent_id=parent, iteration=iteration, origin=SubqueryOrigin.PLAN if first else SubqueryOrigin.FEEDBACK,
            ))
        return tuple(out)


class QueryViewStrategy(str, enum.Enum):
    """What query views :class:`LLMQueryViewRewriter` asks for."""

    MULTI_QUERY = "multi_query"
    DECOMPOSITION = "decomposition"


_VIEW_INSTRUCTIONS = {
    QueryViewStrategy.MULTI_QUERY: (
        "There is no list of facts: the whole question is fact q. Write up to {n} alternative search "
        "queries for it, all with fact_id q. When the question asks several things, first give each "
        "its own query (strategy decomposition) rather than one query mixing them; then a "
        "paraphrase in the vocabulary the documents would use (strategy paraphrase) and one of bare "
        "keywords (strategy keywords), as many as fit."
    ),
    QueryViewStrategy.DECOMPOSITION: (
        "There is no list of facts. Split the question into the separate lookups it needs (one per "
        "compared item or clause), name them p1, p2, ... as fact_id, and write one self-contained "
        "query for each, up to {n}. A question with one part gets one query, fact_id p1."
    ),
}


class LLMQueryViewRewriter(LLMComponent):
    """A parallel :class:`~agentic_rag._parallel.ports.QueryViewRewriter` backed by a model.

    Args:
        llm: The model.
        strategy: ``multi_query`` (paraphrases and keywords) or ``decomposition`` (one query
            per part of the question).
        fallback: Rewriter used when the model fails (default: a new
            :class:`~agentic_rag._parallel.rewriters.MultiQueryRewriter` or
            :class:`~agentic_rag._parallel.rewriters.DecompositionRewriter`, by strategy;
            ``None``: raise).
        keep_original: Also search the original query.
        max_queries: Views kept from the model.
        corpus_description: What the searched documents are (their corpora's descriptions), so
            the queries use their vocabulary.
        settings: Model call options (default :class:`RoleSettings`: one repair round,
            temperature 0, the role's token cap); a request's own temperature and
            max_tokens win.
        name: Label for traces (default: ``llm_<strategy>``).
        **overrides: Any of ``repair_rounds``, ``temperature`` and ``max_tokens``,
            overriding ``settings`` for this component.

    Raises:
        InvalidInputError: Bad arguments.
    """

    def __init__(
        self,
        llm: Any,
        *,
        strategy: QueryViewStrategy | str = QueryViewStrategy.MULTI_QUERY,
        fallback: QueryViewRewriter | FallbackChoice | None = FallbackChoice.DETERMINISTIC,
        keep_original: bool = True,
        max_queries: int = 4,
        corpus_description: str = "",
        settings: RoleSettings | None = None,
        name: str = "",
        **overrides: Any,
    ) -> None:
        self.strategy = require_enum(QueryViewStrategy, strategy, "strategy", stage="rewriter")
        self.corpus_description = require_text(corpus_description, "corpus_description", stage="rewriter", allow_empty=True)
        default = MultiQueryRewriter if self.strategy is QueryViewStrategy.MULTI_QUERY else DecompositionRewriter
        self.settings = resolve_settings(settings, overrides, component=type(self).__name__)
        super().__init__(
            llm, role=LLMRole.QUERY_REWRITER, fallback=resolve_fallback(fallback, default), method="rewrite",
            name=name or f"llm_{self.strategy.value}", **self.settings.model_options(LLMRole.QUERY_REWRITER),
        )
        self.keep_original = require_bool(keep_original, "keep_original", stage="rewriter")
        self.max_queries = require_int(max_queries, "max_queries", minimum=1, stage="rewriter")

    def rewrite(self, request: RewriteRequest) -> RewriteResult:
        """Return the model's query views (repeats and the original dropped).

        Raises:
            InvalidInputError: ``request`` is not a :class:`RewriteRequest`.
            StructuredOutputError: The model failed and ``fallback`` is ``None``.
            BudgetExhaustedError: The run's budget stopped the call.
        """
        if not isinstance(request, RewriteRequest):
            raise InvalidInputError(f"rewrite takes a RewriteRequest, got {type(request).__name__}; wrap a string as RewriteRequest(query)", stage="rewriter")
        query = request.query.strip()
        corpus = f"The documents searched: {' '.join(self.corpus_description.split())}" if self.corpus_description.strip() else ""
        sections = [question_section(query), corpus, _VIEW_INSTRUCTIONS[self.strategy].format(n=self.max_queries)]
        try:
            answer = self.ask(build_messages(LLMRole.QUERY_REWRITER, sections), temperature=request.temperature, max_tokens=request.max_tokens)
            seen = {fold_query(query)} if self.keep_original else set()
            views: list[str] = []
            for item in mapping_items(answer.get("queries")):
                text = " ".join(str(item.get("text", "")).split())
                if text and fold_query(text) not in seen and len(views) < self.max_queries:
                    seen.add(fold_query(text))
                    views.append(text)
            return RewriteResult(queries=tuple(views) or (query,), keep_original=self.keep_original)
        except ProviderError as error:
            fallback = self.take_over(error)
        return fallback.rewrite(request)


def statement_document(query: str) -> str:
    """The deterministic stand-in for a hypothetical document: the question turned into a
    statement (``"What is X?"`` -> ``"X is"``), or the question itself."""
    return MultiQueryRewriter.statement(query) or query.strip()


class LLMHyDEWriter(LLMComponent):
    """Writes HyDE's hypothetical document with a model; call it as ``writer(query)``.

    Pass it to :class:`~agentic_rag._parallel.rewriters.HyDERewriter`, which enforces HyDE's
    rule (a vector retriever must be bound; the passage is searched by vector retrievers only
    and never used as evidence).

    Args:
        llm: The model.
        corpus_description: What the searched documents are like, so the passage matches
            their style.
        fallback: ``fallback(query) -> str`` used when the model fails (default:
            :func:`statement_document`; ``None``: raise).
        settings: Model call options (default :class:`RoleSettings`: one repair round,
            temperature 0, the role's token cap).
        name: Label for events.
        **overrides: Any of ``repair_rounds``, ``temperature`` and ``max_tokens``,
            overriding ``settings`` for this component.

    Raises:
        InvalidInputError: Bad arguments or a fallback that is not callable.
    """

    def __init__(
        self,
        llm: Any,
        *,
        corpus_description: str = "",
        fallback: Callable[[str], str] | FallbackChoice | None = FallbackChoice.DETERMINISTIC,
        settings: RoleSettings | None = None,
        name: str = "llm_hyde",
        **overrides: Any,
    ) -> None:
        chosen = statement_document if isinstance(fallback, FallbackChoice) else fallback
        if chosen is not None and not callable(chosen):
            raise InvalidInputError(f"fallback must be None or callable as fallback(query) -> str, got {chosen!r}", stage="rewriter")
        self.settings = resolve_settings(settings, overrides, component=type(self).__name__)
        super().__init__(
            llm, role=LLMRole.HYDE, fallback=None if chosen is None else _CallableFallback(chosen), method="__call__",
            name=name, **self.settings.model_options(LLMRole.HYDE),
        )
        self.corpus_description = require_text(corpus_description, "corpus_description", stage="rewriter", allow_empty=True)

    def __call__(self, query: str) -> str:
        """Return a passage that would answer ``query``.

        Raises:
            InvalidInputError: An empty query.
            StructuredOutputError: The model failed and ``fallback`` is ``None``.
            BudgetExhaustedError: The run's budget stopped the call.
        """
        require_text(query, "query", stage="rewriter")
        corpus = f"The documents searched: {' '.join(self.corpus_description.split())}" if self.corpus_description.strip() else ""
        try:
            answer = self.ask(build_messages(LLMRole.HYDE, [question_section(query), corpus]))
            document = " ".join(str(answer.get("hypothetical_document", "")).split())
            if not document:
                raise unusable_answer(self.name, "the hypothetical document is empty")
            return document
        except ProviderError as error:
            fallback = self.take_over(error)
        return fallback(query)


class _CallableFallback:
    """Gives a plain function the ``__call__`` a fallback check looks for, and a clear name."""

    def __init__(self, fn: Callable[[str], str]) -> None:
        self.fn = fn

    def __call__(self, query: str) -> str:
        return self.fn(query)


def hyde_generate_fn(llm: Any, **options: Any) -> LLMHyDEWriter:
    """Return the ``generate`` function for ``HyDERewriter(generate)``, backed by ``llm``.

    Args:
        llm: The model.
        **options: Passed to :class:`LLMHyDEWriter` (``corpus_description``, ``fallback``...).

    Returns:
        The writer (callable as ``generate(query) -> str``; its ``events`` record fallbacks).
    """
    return LLMHyDEWriter(llm, **options)
