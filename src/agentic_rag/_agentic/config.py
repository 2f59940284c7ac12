"""Budgets of the iterative loop, in one validated place."""

from __future__ import annotations

from dataclasses import dataclass

from agentic_rag._contracts.serialization import JsonContract
from agentic_rag._contracts.validation import require_bool, require_int, require_number

__all__ = ["OrchestratorConfig"]


@dataclass(frozen=True, slots=True)
class OrchestratorConfig(JsonContract):
    """Limits of one agentic run. Hitting any of them ends the run gracefully.

    Args:
        max_iterations: Retrieval rounds at most.
        max_subqueries_per_iteration: Subqueries per round at most.
        top_k: Snippets asked of the retriever per subquery.
        max_snippets: Distinct snippets kept over the whole run.
        deadline_s: Wall-clock seconds for the run (``None``: no deadline). Computed once
            at the start with ``time.monotonic()``.
        max_llm_calls: Cap on model calls charged by LLM-backed components (``None``: none).
        max_tokens: Cap on prompt + completion tokens charged (``None``: none).
        replan: Ask the planner for a new plan after each insufficient round.
        progress_after: From this round on, a round continues the run only when its new
            snippets carry a term a missing fact still lacks (otherwise the run stops with
            ``no_progress``); ``None``: any new snippet is progress. With a high
            ``max_iterations`` as the hard cap, the loop goes on while it still finds what the
            question misses, and no longer.
        stall_rounds: This many rounds in a row that cover no fact not covered before end the
            run (``no_progress``; the last round excepted, which ends it anyway); ``None``: never.
        rank_chains: Rank the final evidence of a bridge question as chains (a passage and
            the passage its bridge entity leads to, see
            :class:`~agentic_rag._agentic.chains.ChainRanker`), fused with the loop's order.
            Off by default: the final evidence then starts with the snippets the answer cites;
            on, both hops of the best chains lead instead (what a multi-hop evaluation of the
            top passages measures).

    Raises:
        InvalidInputError: Any budget below 1.
    """

    max_iterations: int = 3
    max_subqueries_per_iteration: int = 4
    top_k: int = 5
    max_snippets: int = 60
    deadline_s: float | None = 60.0
    max_llm_calls: int | None = None
    max_tokens: int | None = None
    replan: bool = False
    progress_after: int | None = None
    rank_chains: bool = False
    stall_rounds: int | None = None

    def __post_init__(self) -> None:
        for name in ("max_iterations", "max_subqueries_per_iteration", "top_k", "max_snippets"):
            require_int(getattr(self, name), name, minimum=1, stage="config")
        for name in ("max_llm_calls", "max_tokens", "progress_after", "stall_rounds"):
            require_int(getattr(self, name), name, minimum=1, optional=True, stage="config")
        require_number(self.deadline_s, "deadline_s (seconds)", above=0, optional=True, stage="config")
        require_bool(self.rank_chains, "rank_chains", stage="config")
