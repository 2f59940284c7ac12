"""What every answer goes through, in both workflows and the LLM layer: the status guard
and the answer-text composer."""

from __future__ import annotations

from agentic_rag.answering.compose import compose_text, outcome_notes
from agentic_rag.answering.guard import guard_answer, guard_status, least_status, unsupported_claims

__all__ = ["compose_text", "guard_answer", "guard_status", "least_status", "outcome_notes", "unsupported_claims"]
