"""What every answer goes through, in both workflows and the LLM layer: the status guard
and the answer-text composer."""

from __future__ import annotations

from agentic_rag._lazy import lazy_exports

# Where each name lives; a module is imported when one of its names is first used.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "agentic_rag._answering.compose": (
        "CITATION_MARKER",
        "compose_answer",
        "compose_text",
        "marked_segments",
        "missing_note",
        "outcome_notes",
        "removed_note",
    ),
    "agentic_rag._answering.grounding": ("grounding_problem",),
    "agentic_rag._answering.guard": ("guard_answer", "guard_status", "least_status", "unsupported_claims"),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)
