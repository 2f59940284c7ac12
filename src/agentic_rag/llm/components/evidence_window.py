"""What the evidence-reading roles share: checking their inputs and choosing the documents
their prompt shows.

The judge, drafter, synthesizer and parallel generator show their model the first documents
given (best first), each cut to a number of characters; the judge re-orders them by id so its
prompt does not depend on retrieval order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agentic_rag._contracts import RetrievalPlan, Snippet
from agentic_rag._contracts.validation import require_int, require_text
from agentic_rag._errors import InvalidInputError
from agentic_rag.llm.components.prompts import documents_section
from agentic_rag.llm.components.settings import RoleSettings

__all__ = ["EvidenceWindow", "check_evidence_inputs"]

_STAGE = "llm-components"


def check_evidence_inputs(question: object, plan: object, snippets: Sequence[object], *, stage: str) -> tuple[Snippet, ...]:
    """Check the arguments every evidence-reading port method shares.

    Args:
        question: The question.
        plan: The retrieval plan.
        snippets: The evidence.
        stage: The stage named in errors.

    Returns:
        The snippets, as a tuple.

    Raises:
        InvalidInputError: An empty question, a plan that is not a RetrievalPlan, or an item
            that is not a Snippet.
    """
    require_text(question, "question", stage=stage)
    if not isinstance(plan, RetrievalPlan):
        raise InvalidInputError(f"plan must be a RetrievalPlan, got {type(plan).__name__}", stage=stage)
    out = tuple(snippets)
    for position, snippet in enumerate(out):
        if not isinstance(snippet, Snippet):
            raise InvalidInputError(f"snippets[{position}] must be a Snippet, got {type(snippet).__name__}", stage=stage)
    return out


@dataclass(frozen=True, slots=True)
class EvidenceWindow:
    """The documents a prompt shows: the first ``max_snippets``, each cut to ``max_chars``.

    Args:
        max_snippets: Documents shown.
        max_chars: Characters shown per document (``None``: all).

    Raises:
        InvalidInputError: A limit below 1.
    """

    max_snippets: int
    max_chars: int | None

    def __post_init__(self) -> None:
        require_int(self.max_snippets, "max_snippets", minimum=1, stage=_STAGE)
        require_int(self.max_chars, "max_snippet_chars", minimum=1, optional=True, stage=_STAGE)

    @classmethod
    def from_settings(cls, settings: RoleSettings, *, default_snippets: int) -> EvidenceWindow:
        """The window of ``settings``, ``default_snippets`` documents when it sets none."""
        count = default_snippets if settings.max_snippets is None else settings.max_snippets
        return cls(count, settings.max_snippet_chars)

    def shown(self, snippets: Sequence[Snippet], *, canonical: bool = False) -> tuple[Snippet, ...]:
        """The snippets the prompt shows: the first ``max_snippets``, re-ordered by id when
        ``canonical`` so the prompt does not depend on retrieval order."""
        chosen = tuple(snippets[: self.max_snippets])
        return tuple(sorted(chosen, key=lambda s: s.id)) if canonical else chosen

    def section(self, shown: Sequence[Snippet]) -> str:
        """The prompt's documents section for ``shown``, each document cut to ``max_chars``."""
        return documents_section(shown, max_chars=self.max_chars)
