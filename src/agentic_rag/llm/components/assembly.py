"""One call to put a model in every slot of the agentic workflow."""

from __future__ import annotations

from typing import Any

from agentic_rag._agentic.config import OrchestratorConfig
from agentic_rag._agentic.orchestrator import AgenticRAGOrchestrator
from agentic_rag._agentic.routing import CorpusRouter
from agentic_rag._errors import InvalidInputError
from agentic_rag.llm.components.drafting import LLMDrafter, LLMSynthesizer
from agentic_rag.llm.components.fallback import FallbackChoice
from agentic_rag.llm.components.judge import LLMSufficiencyJudge
from agentic_rag.llm.components.planner import LLMPlanner
from agentic_rag.llm.components.rewriters import LLMQueryRewriter
from agentic_rag.llm.components.settings import RoleSettings
from agentic_rag._ports import Retriever

__all__ = ["llm_orchestrator"]


def llm_orchestrator(
    llm: Any,
    *,
    retriever: Retriever,
    config: OrchestratorConfig | None = None,
    fallback: FallbackChoice | None = FallbackChoice.DETERMINISTIC,
    settings: RoleSettings | None = None,
    router: CorpusRouter | None = None,
) -> AgenticRAGOrchestrator:
    """Return an orchestrator whose planner, rewriter, drafter, judge and synthesizer all use ``llm``.

    Args:
        llm: The model (any :class:`~agentic_rag.llm.port.LLM`).
        retriever: The retriever.
        config: Budgets; set ``max_llm_calls`` / ``max_tokens`` to cap the model's spend.
        fallback: ``FallbackChoice.DETERMINISTIC`` (each component falls back to the
            deterministic one of its port) or ``None`` (a malformed answer raises).
        settings: Model call and evidence options for every component (default
            :class:`RoleSettings`).
        router: Routes the planner's and the query writer's facts and queries (default: by
            corpus description only); a :class:`~agentic_rag._agentic.routing.CorpusRouter`
            with ``locate`` adds the corpora where the best passages stand to the model's
            choice.

    Returns:
        The orchestrator; its components' ``events`` record every fallback.

    Raises:
        InvalidInputError: Another ``fallback`` value, settings that are not a RoleSettings,
            or a model without ``complete``.
    """
    if fallback is not None and not isinstance(fallback, FallbackChoice):
        raise InvalidInputError(f"fallback must be FallbackChoice.DETERMINISTIC or None, got {fallback!r}", stage="llm-components")
    if router is not None and not isinstance(router, CorpusRouter):
        raise InvalidInputError(f"router must be a CorpusRouter or None, got {type(router).__name__}", stage="llm-components")
    return AgenticRAGOrchestrator(
        retriever=retriever,
        planner=LLMPlanner(llm, fallback=fallback, router=router, settings=settings),
        rewriter=LLMQueryRewriter(llm, fallback=fallback, router=router, settings=settings),
        drafter=LLMDrafter(llm, fallback=fallback, settings=settings),
        judge=LLMSufficiencyJudge(llm, fallback=fallback, settings=settings),
        synthesizer=LLMSynthesizer(llm, fallback=fallback, settings=settings),
        config=config,
    )
