"""The scaffold's adapters (``agentic_rag.adapters``): in-memory components, the lexical
retriever and the structured-output helpers."""

from __future__ import annotations

__all__: list[str] = []
