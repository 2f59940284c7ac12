"""Search and ask over a knowledge store: the one implementation behind the CLI and MCP.

``search`` returns hits with ``path``, ``start_line``, ``end_line``, ``score``, ``text``,
``corpus`` and, for agents, ``focus_start_line`` / ``focus_end_line`` and ``relevance``;
``ask`` runs the agentic or the parallel workflow over the store and returns the run together
with its JSON payload (``status``, ``answer``, ``claims`` with file:line citations,
``missing_facts``, ``iterations``, ``stop_reason`` and the ranked ``evidence``; with a model,
also ``model``: whether it was used, see :mod:`~agentic_rag._interfaces.model_report`).
A model that can say it is unavailable for this request (``unavailable()`` returning a reason,
as :class:`~agentic_rag.llm.sampling.McpSamplingLLM` does for an MCP client without the
``sampling`` capability) is not asked at all: the deterministic components answer and
``model`` says why (``used: false`` and the ``reason``).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agentic_rag._contracts import Corpus
from agentic_rag._contracts.validation import require_bool, require_enum, require_int
from agentic_rag._errors import InvalidInputError, StoreError
from agentic_rag._interfaces.ask_mode import DEFAULT_HITS, MAX_QUERY_CHARS, AskMode
from agentic_rag._interfaces.evidence_payload import DEFAULT_EVIDENCE, require_evidence_count, store_hits_payload
from agentic_rag._interfaces.locations import forget_lines
from agentic_rag._interfaces.model_report import ObservedLLM
from agentic_rag._store import KnowledgeStore
from agentic_rag._text.relevance import RelevanceModel

if TYPE_CHECKING:  # the workflows are imported by ask only: a search process never loads them
    from agentic_rag._agentic import AgenticRAGOrchestrator, OrchestratorConfig
    from agentic_rag._contracts import RunResult
    from agentic_rag._parallel.contracts import RAGResult

__all__ = ["AskMode", "AskOutcome", "StoreService"]

# Fused documents a model generator is given (the deterministic generator's five quote best).
_MODEL_TOP_K = 8
# Best passages whose corpora a fact is routed to, in a store of several corpora.
_LOCATE_HITS = 10


@dataclass(frozen=True, slots=True)
class AskOutcome:
    """A run and its ``ask --json`` payload."""

    result: RunResult | RAGResult
    payload: dict[str, Any]


class StoreService:
    """Search and ask one store, optionally with a language model.

    Args:
        store: The knowledge store (must hold documents).
        llm: An object with the ``LLM`` port; when given, the agentic workflow uses the
            LLM-backed components and the parallel one the LLM generator. When it also has
            ``unavailable() -> str | None`` and that gives a reason, a request runs the
            deterministic components and reports the reason in ``model``.
        config: Budgets of agentic runs.
    """

    def __init__(self, store: KnowledgeStore, *, llm: Any = None, config: OrchestratorConfig | None = None) -> None:
        self.store = store
        self.llm = llm
        self._config = config
        self._lock = threading.Lock()
        self._vectors: Any = None
        self._generation: int | None = None

    @property
    def config(self) -> OrchestratorConfig:
        """Budgets of agentic runs (default: ``OrchestratorConfig(top_k=5)``)."""
        if self._config is None:
            from agentic_rag._agentic import OrchestratorConfig

            self._config = OrchestratorConfig(top_k=5)
        return self._config

    def corpora(self) -> tuple[Corpus, ...]:
        """The store's corpora with their routing descriptions.

        Raises:
            StoreError: The store is missing or empty.
        """
        corpora = self.store.corpora()
        if not corpora:
            raise StoreError(f"the store at {str(self.store.directory)!r} is empty: run `agentic-rag index PATH` first", stage="store")
        return corpora

    def relevance_model(self) -> RelevanceModel:
        """The relevance model of the store's current generation (built once per generation:
        IDF weights from its BM25 index, with its analyzer)."""
        return self.store.relevance_model()

    def _follow_generation(self) -> None:
        """Forget the cached file lines when the store has switched generations since the last
        request (another process re-indexed it): citations then read the files afresh."""
        generation = self.store.generation
        with self._lock:
            if generation != self._generation:
                forget_lines()
                self._generation = generation

    def search(self, query: str, k: int = DEFAULT_HITS, corpus: str | None = None, *, context: int = 0) -> list[dict[str, Any]]:
        """The ``k`` best chunks for ``query`` as ``search --json`` hits.

        Args:
            query: The query.
            k: Most hits: up to :data:`~agentic_rag._interfaces.ask_mode.DEFAULT_HITS`, fewer when
                the first are clearly better than the rest; above it, every hit up to ``k``.
            corpus: Restrict to one corpus.
            context: Lines of context around each hit's focus lines (>= 0).

        Returns:
            Best first, each ``{path, start_line, end_line, section, score, text, corpus,
            focus_start_line, focus_end_line, focus_text, relevance}``.

        Raises:
            InvalidInputError: Unknown corpus, bad ``k`` or ``context``, or a query longer than
                :data:`~agentic_rag._interfaces.ask_mode.MAX_QUERY_CHARS`.
            StoreError: The store is missing or empty.
        """
        _require_short(query, "query")
        context = require_int(context, "context", minimum=0, stage="search")
        # A missing or empty store is said by the store's own search (its BM25 index): listing
        # the corpora here first cost a join over every file row per call.
        self._follow_generation()
        # The default k is cut to the evidence; asking for more than it is asking to see them.
        hits = self.store.search(query, k, corpus_ids=None if corpus is None else [corpus], context=context, cut=k <= DEFAULT_HITS)
        return store_hits_payload(query, hits, self.relevance_model(), self.store.base, context=context)

    def unused_names(self, query: str, corpus: str | None = None) -> tuple[str, ...]:
        """The names ``query`` writes that no document of the store (of ``corpus``, when given)
        uses in any form (:func:`~agentic_rag._text.stated_names.unused_names`): a search's
        hits are then about something else.

        Raises:
            InvalidInputError: A query longer than
                :data:`~agentic_rag._interfaces.ask_mode.MAX_QUERY_CHARS`.
        """
        from agentic_rag._text.stated_names import name_words, unused_names

        _require_short(query, "query")
        unused = unused_names(query, self.relevance_model())
        if corpus is None:
            return unused
        # A name used only in other corpora is unused in this one: a search of the name alone,
        # restricted to it, finds nothing.
        index = self.store.bm25()
        return tuple(w for w in name_words(query)
                     if w in unused or (index.analyzer.analyze(w) and not index.search(w, 1, corpus_ids=[corpus])))

    def show(self, location: str, *, context: int = 0, max_bytes: int | None = None) -> dict[str, Any]:
        """The rendered lines ``location`` names (``path:lines`` as search cites it), as
        ``show --json`` gives them; only files the store holds (a client never reads other
        files through the server).

        Args:
            location: ``PATH``, ``PATH:N-M``, ``PATH:pPAGE:N-M`` or ``PATH:cCELL:N-M``.
            context: Rendered lines to add before and after the span (>= 0).
            max_bytes: Most bytes of the text rendering (0: no cap; default
                :data:`~agentic_rag._interfaces.show_span.DEFAULT_MAX_BYTES`).

        Raises:
            InvalidInputError: A malformed location or argument.
            StoreError: The store is missing, or holds no text there.
        """
        from agentic_rag._interfaces.show_span import DEFAULT_MAX_BYTES, show_location

        if not self.store.exists:
            raise StoreError(f"no knowledge store at {str(self.store.directory)!r}: run `agentic-rag index PATH` first", stage="store")
        cap = DEFAULT_MAX_BYTES if max_bytes is None else max_bytes
        return show_location(self.store.directory, location, root=self.store.base, context=context, max_bytes=cap, read_files=False)

    def ask(self, question: str, mode: AskMode | str = AskMode.AGENTIC, *, corpus: str | None = None, evidence: int = DEFAULT_EVIDENCE,
            full_text: bool = False) -> AskOutcome:
        """Answer ``question`` from the store.

        Args:
            question: The question.
            mode: ``agentic`` (iterative, with sufficiency judging) or ``parallel`` (BM25 and
                vector branches fused by RRF).
            corpus: Restrict to one corpus.
            evidence: At most this many ranked passages in the payload's ``evidence``.
            full_text: Give each evidence passage's whole text (default: its focus lines).

        Returns:
            The run and its payload.

        Raises:
            InvalidInputError: Unknown mode or corpus, ``evidence`` not an int >= 0, or a
                question longer than :data:`~agentic_rag._interfaces.ask_mode.MAX_QUERY_CHARS`.
            StoreError: The store is missing or empty.
        """
        _require_short(question, "question")
        evidence = require_evidence_count(evidence)
        mode = require_enum(AskMode, mode, "mode", stage="ask")
        corpora = self.corpora()
        self._follow_generation()
        if corpus is not None:
            chosen = [c for c in corpora if c.id == corpus]
            if not chosen:
                raise InvalidInputError(f"unknown corpus {corpus!r}; the store has {[c.id for c in corpora]}", stage="ask")
            corpora = tuple(chosen)
        unavailable = self._unavailable()
        llm = None if self.llm is None or unavailable else ObservedLLM(self.llm)  # counts this request's calls
        if mode is AskMode.PARALLEL:
            result: RunResult | RAGResult = self._parallel(question, corpora, llm)
        else:
            result = self._orchestrator(llm).run(question, corpora)
        # The answer's payload (and the parallel workflow's contracts it reads) is imported
        # here: a search never needs it.
        from agentic_rag._interfaces.payloads import ask_payload

        payload = ask_payload(result, self.store.base, evidence=evidence, model=self.relevance_model(), full_text=require_bool(full_text, "full_text", stage="ask"))
        if llm is not None:
            payload["model"] = llm.report()
        elif unavailable:
            name = str(getattr(self.llm, "model", "") or type(self.llm).__name__)
            payload["model"] = {"used": False, "name": name, "calls": 0, "failed_calls": 0, "reason": unavailable}
        return AskOutcome(result, payload)

    def _unavailable(self) -> str:
        """Why the model cannot be asked for this request ("" when it can, or there is none)."""
        check = getattr(self.llm, "unavailable", None)
        reason = check() if callable(check) else None
        return str(reason) if reason else ""

    def _orchestrator(self, llm: Any) -> AgenticRAGOrchestrator:
        from agentic_rag._agentic.routing import CorpusRouter

        retriever = self.store.retriever()
        # A fact goes to the corpora its best passages stand in (the store can search them all
        # at once), not only to those whose generated descriptions share a word with it or
        # that a model picked from those descriptions.
        router = CorpusRouter(locate=self._locate)
        if llm is None:
            from agentic_rag._agentic.collection import collection_orchestrator

            return collection_orchestrator(retriever, self.relevance_model(), config=self.config, router=router)
        from agentic_rag.llm.components import llm_orchestrator

        return llm_orchestrator(llm, retriever=retriever, config=self.config, router=router)

    def _locate(self, text: str) -> list[str]:
        """The corpus ids of ``text``'s best BM25 passages in the whole store, best first."""
        return [hit.corpus_id for hit in self.store.bm25().search(text, _LOCATE_HITS)]

    def _parallel(self, question: str, corpora: Sequence[Corpus], llm: Any) -> RAGResult:
        from agentic_rag._parallel import ExtractiveGenerator, MultiQueryRewriter, ParallelRAGWorkflow, RAGRequest, RelevanceAnswerability

        model = self.relevance_model()
        generator: Any = ExtractiveGenerator(relevance=model)
        rewriter: Any = MultiQueryRewriter()
        top_k = 5
        if llm is not None:
            from agentic_rag.llm.components import LLMGenerator, LLMQueryViewRewriter

            # A model reads more documents than a person would, and writes queries in the
            # documents' own words (its fallback is the same deterministic rewriter).
            described = "; ".join(f"{c.id}: {c.description}" if c.description else c.id for c in corpora)
            generator, rewriter, top_k = LLMGenerator(llm), LLMQueryViewRewriter(llm, max_queries=4, corpus_description=described), _MODEL_TOP_K
        workflow = ParallelRAGWorkflow(
            [self.store.retriever(), self._vector_retriever()],
            rewriter=rewriter,
            generator=generator,
            answerability=RelevanceAnswerability(model),
        )
        return workflow.run(RAGRequest(question, top_k=top_k, corpus_ids=tuple(c.id for c in corpora)))

    def _vector_retriever(self) -> Any:
        if self.store.stats().vector:
            return self.store.retriever(vector=True)
        # No vector index kept: rank BM25's candidates by vector similarity, so a call costs
        # what its query costs, never an embedding of the whole store.
        with self._lock:
            if self._vectors is None:
                from agentic_rag._store.candidate_vectors import CandidateVectorRetriever

                self._vectors = CandidateVectorRetriever(self.store.bm25)
            return self._vectors


def _require_short(text: object, field: str) -> None:
    """Refuse a query or question over :data:`MAX_QUERY_CHARS` before any work is done."""
    if isinstance(text, str) and len(text) > MAX_QUERY_CHARS:
        raise InvalidInputError(f"the {field} is {len(text)} characters long; at most {MAX_QUERY_CHARS} are accepted", stage="ask" if field == "question" else "search")
