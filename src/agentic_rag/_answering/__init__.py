"""What every answer goes through, in both workflows and the LLM layer: the status guard
and the answer-text composer."""

from __future__ import annotations

from agentic_rag._answering.compose import CITATION_MARKER, compose_text, marked_segments, outcome_notes
from agentic_rag._answering.grounding import grounding_problem
from agentic_rag._answering.guard import guard_answer, guard_status, least_status, unsupported_claims

__all__ = ["CITATION_MARKER", "compose_text", "grounding_problem", "guard_answer", "guard_status", "least_status", "marked_segments", "outcome_notes", "unsupported_claims"]
