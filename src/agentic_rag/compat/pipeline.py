"""The scaffold's top-level names (``from agentic_rag import ...`` in the scaffold).

Each is a modern component that also takes the scaffold's calls:

==========================  ===============================================================
scaffold name               what it is now
==========================  ===============================================================
AgenticRAGPipeline          the compat :class:`AgenticRAGOrchestrator` with the scaffold's
                            keywords; ``answer()`` returns the scaffold ``GroundedAnswer``
KeywordPlanner              :class:`HeuristicPlanner`; ``create_plan`` gives a scaffold plan
TemplateQueryRewriter       :class:`PlanFeedbackRewriter` for scaffold plans and feedback too
InMemoryKeywordRetriever    :class:`IndexRetriever` over BM25; also ``retrieve(subquery)``
CoverageSufficiencyJudge    the modern judge, read the scaffold's way for a scaffold plan
ExtractiveSynthesizer       the extractive synthesizer, with ``draft`` and ``finalize``
InMemoryDocument            ``(id, corpus_id, text, metadata)``, indexed as a ``Document``
CorpusDescriptor            :class:`~agentic_rag.Corpus`
==========================  ===============================================================
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentic_rag import _contracts as core
from agentic_rag._agentic.config import OrchestratorConfig
from agentic_rag._agentic.planner import HeuristicPlanner
from agentic_rag._agentic.rewriter import PlanFeedbackRewriter
from agentic_rag._contracts.corpus import require_corpora
from agentic_rag._contracts.validation import freeze_metadata, require_int, require_text
from agentic_rag._errors import InvalidInputError
from agentic_rag._retrieval.bm25 import BM25Index
from agentic_rag._retrieval.index_retriever import IndexRetriever
from agentic_rag._text.stopwords import STOPWORD_LISTS
from agentic_rag.compat import contracts as old
from agentic_rag.compat._convert import plan_from_core, plan_to_core
from agentic_rag.compat.adapters.in_memory import RuleBasedSynthesizer, SnippetDrafter
from agentic_rag.compat.adapters.retriever import match_span
from agentic_rag.compat.orchestrator import AgenticRAGOrchestrator
from agentic_rag.compat.sufficiency import AutoraterStyleSufficiencyJudge

__all__ = [
    "AgenticRAGPipeline",
    "CorpusDescriptor",
    "CoverageSufficiencyJudge",
    "ExtractiveSynthesizer",
    "InMemoryDocument",
    "InMemoryKeywordRetriever",
    "KeywordPlanner",
    "TemplateQueryRewriter",
]

CorpusDescriptor = core.Corpus

_PARTS = re.compile(r"\s*(?:[,;]|\band\b)\s*", re.IGNORECASE)
_WORDS = re.compile(r"[\w'-]+")
# Head nouns that name the kind of material wanted, not a fact ("allergic reaction evidence").
_KIND_WORDS = frozenset({"evidence", "information", "details", "records", "record", "data", "documentation", "notes"})


@dataclass(frozen=True, slots=True)
class InMemoryDocument:
    """A document for :class:`InMemoryKeywordRetriever`, in the scaffold pipeline's order.

    Args:
        id: Document id.
        corpus_id: Its corpus.
        text: Its text.
        metadata: JSON-compatible extra data.
    """

    id: str
    corpus_id: str
    text: str
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        require_text(self.id, "InMemoryDocument.id", stage="compat")
        require_text(self.corpus_id, "InMemoryDocument.corpus_id", stage="compat")
        require_text(self.text, "InMemoryDocument.text", stage="compat")
        object.__setattr__(self, "metadata", freeze_metadata(self.metadata, "InMemoryDocument.metadata", stage="compat"))

    def to_document(self) -> core.Document:
        """The modern :class:`~agentic_rag.Document`."""
        return core.Document(id=self.id, text=self.text, corpus_id=self.corpus_id, metadata=self.metadata)


class KeywordPlanner(HeuristicPlanner):
    """:class:`HeuristicPlanner`; ``create_plan`` is the scaffold's keyword planner.

    ``create_plan`` splits a keyword request ("discharge medications and allergic reaction
    evidence") at ``and``, commas and semicolons into one fact per part, requires each part's
    content words (a trailing word that only says what kind of thing is wanted, such as
    "evidence" or "details", is not required), and routes every fact with the modern
    :class:`~agentic_rag.components.CorpusRouter`. ``plan`` is the modern planner unchanged.
    """

    def create_plan(self, question: str, corpora: Sequence[core.Corpus]) -> old.RetrievalPlan:
        """The scaffold-shaped plan for a keyword request.

        Raises:
            InvalidInputError: Empty question, or no corpora.
        """
        require_text(question, "question", stage="planner")
        corpora = require_corpora(corpora, stage="planner")
        facts, routes = [], []
        for part in _PARTS.split(question.strip().rstrip("?.!")):
            words = [w for w in _WORDS.findall(part) if w.casefold() not in STOPWORD_LISTS["english"]]
            while len(words) > 1 and words[-1].casefold() in _KIND_WORDS:
                words.pop()
            if not words:
                continue
            fact = core.RequiredFact(id=f"f{len(facts) + 1}", description=" ".join(part.split()), required_terms=tuple(words))
            decision = self.router.route(" ".join(words), corpora)
            facts.append(fact)
            routes.append(old.Route(fact.id, decision.corpus_ids, decision.reason))
        if not facts:
            return plan_from_core(self.plan(question, corpora))
        return old.RetrievalPlan(question, tuple(facts), tuple(routes))


class TemplateQueryRewriter(PlanFeedbackRewriter):
    """:class:`PlanFeedbackRewriter`; given a scaffold plan and feedback, it returns scaffold
    subqueries (the same queries)."""

    def rewrite(self, plan: Any, feedback: Sequence[Any] = (), *, iteration: int = 1) -> tuple[Any, ...]:  # type: ignore[override]
        """Return this round's subqueries, in the shape of ``plan``."""
        if isinstance(plan, core.RetrievalPlan):
            return PlanFeedbackRewriter.rewrite(self, plan, feedback, iteration=iteration)
        modern_plan = plan_to_core(plan)
        modern_feedback = tuple(
            core.FeedbackQuery(q.fact_id, q.query, q.reason, q.target_corpus_ids) if isinstance(q, old.FeedbackQuery) else q
            for q in feedback if not isinstance(q, old.FeedbackQuery) or q.fact_id
        )
        routed = {r.fact_id for r in plan.routes}
        return tuple(
            old.Subquery(sq.id, sq.fact_id, sq.text, sq.corpus_ids, sq.reason, parent_query=plan.question, iteration=sq.iteration)
            for sq in PlanFeedbackRewriter.rewrite(self, modern_plan, modern_feedback, iteration=iteration)
            if sq.fact_id in routed
        )


class InMemoryKeywordRetriever(IndexRetriever):
    """A BM25 index over in-memory documents behind :class:`IndexRetriever`.

    Also takes the scaffold's calls: ``InMemoryDocument`` objects, ``top_k``, and
    ``retrieve(subquery)`` (which records the subquery in ``calls`` and stamps the snippets).

    Args:
        documents: Modern ``Document`` or scaffold ``InMemoryDocument`` objects.
        top_k: Snippets per scaffold subquery.
    """

    def __init__(self, documents: Iterable[core.Document | InMemoryDocument] = (), *, top_k: int = 5) -> None:
        docs = []
        for doc in documents:
            if isinstance(doc, InMemoryDocument):
                doc = doc.to_document()
            if not isinstance(doc, core.Document):
                raise InvalidInputError(f"documents must be Document or InMemoryDocument objects, got {type(doc).__name__}", stage="compat")
            docs.append(doc)
        index = BM25Index()
        index.add(docs)
        super().__init__(index, name="InMemoryKeywordRetriever")
        self.top_k = require_int(top_k, "top_k", minimum=1, stage="compat")
        self.calls: list[old.Subquery] = []

    def retrieve(self, query: Any, k: int | None = None, *, corpus_ids: Sequence[str] | None = None) -> tuple[core.Snippet, ...]:  # type: ignore[override]
        """Modern call: ``retrieve(text, k, corpus_ids=...)``. Scaffold call:
        ``retrieve(subquery)``, searching its target corpora for ``top_k`` snippets."""
        if not isinstance(query, old.Subquery):
            if k is None:
                raise InvalidInputError("retrieve(query, k) needs k for a query text", stage="retriever")
            return super().retrieve(query, k, corpus_ids=corpus_ids)
        self.calls.append(query)
        found = super().retrieve(query.query, self.top_k, corpus_ids=query.target_corpus_ids or None)
        return tuple(
            old.Snippet(**{f.name: getattr(s, f.name) for f in dataclasses.fields(s) if f.name not in ("query_id", "fact_id", "lineage")},
                        query_id=query.id, fact_id=query.fact_id, span=match_span(s.text, query.query))
            for s in found
        )


class CoverageSufficiencyJudge(AutoraterStyleSufficiencyJudge):
    """The scaffold's judge name: the modern judge, read the scaffold's way for a scaffold plan."""


class ExtractiveSynthesizer(RuleBasedSynthesizer):
    """The extractive synthesizer with the scaffold's ``draft`` and ``finalize`` methods."""

    def __init__(self) -> None:
        super().__init__()
        self._drafter = SnippetDrafter(self.synthesizer.drafter)

    def draft(self, question: str, plan: Any, snippets: Sequence[core.Snippet]) -> Any:
        """Draft from the evidence (see :class:`SnippetDrafter`)."""
        return self._drafter.draft(question, plan, snippets)

    def finalize(self, question: str, plan: Any, snippets: Sequence[core.Snippet], assessment: Any) -> Any:
        """The scaffold's name for :meth:`synthesize`."""
        return self.synthesize(question, plan, snippets, assessment)


class AgenticRAGPipeline(AgenticRAGOrchestrator):
    """The scaffold's pipeline: the compat orchestrator with the scaffold's keywords and defaults.

    Args:
        retriever: The retriever (scaffold or modern call shape).
        planner: Default :class:`KeywordPlanner`.
        query_rewriter: Default :class:`TemplateQueryRewriter`.
        sufficiency_judge: Default :class:`CoverageSufficiencyJudge`.
        synthesizer: Default :class:`ExtractiveSynthesizer` (also the drafter when it can draft).
        drafter: A separate drafter.
        max_iterations: Retrieval rounds at most (ignored when ``config`` is given).
        config: The modern budgets.
    """

    def __init__(self, *, retriever: object, planner: object = None, query_rewriter: object = None, sufficiency_judge: object = None,
                 synthesizer: object = None, drafter: object = None, max_iterations: int = 3, config: OrchestratorConfig | None = None) -> None:
        synthesizer = synthesizer or ExtractiveSynthesizer()
        if drafter is None and callable(getattr(synthesizer, "draft", None)):
            drafter = synthesizer
        super().__init__(
            planner=planner or KeywordPlanner(),
            rewriter=query_rewriter or TemplateQueryRewriter(),
            retriever=retriever,
            drafter=drafter,
            judge=sufficiency_judge or CoverageSufficiencyJudge(),
            synthesizer=synthesizer,
            config=config or OrchestratorConfig(max_iterations=max_iterations),
        )

    def answer(self, question: str, corpora: Sequence[core.Corpus]) -> old.GroundedAnswer:
        """Run and return the scaffold :class:`~agentic_rag.compat.contracts.GroundedAnswer`
        (``iterations`` set); :meth:`run` returns the whole scaffold ``RunResult``."""
        return self.run(question, corpora).answer
