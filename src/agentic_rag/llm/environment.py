"""The environment variables that configure model and provider clients (see
:mod:`agentic_rag._http.environment` for the table); re-exported here for users who set them
from code."""

from __future__ import annotations

from agentic_rag._http.environment import (
    ENV_ANTHROPIC_API_KEY,
    ENV_ANTHROPIC_BASE_URL,
    ENV_ANTHROPIC_MODEL,
    ENV_EMBED_API_KEY,
    ENV_EMBED_BASE_URL,
    ENV_EMBED_MODEL,
    ENV_LLM_API_KEY,
    ENV_LLM_BASE_URL,
    ENV_LLM_JSON_MODE,
    ENV_LLM_MODEL,
    ENV_OLLAMA_HOST,
    ENV_VERTEX_TOKEN,
    from_env,
)

__all__ = [
    "ENV_ANTHROPIC_API_KEY",
    "ENV_ANTHROPIC_BASE_URL",
    "ENV_ANTHROPIC_MODEL",
    "ENV_EMBED_API_KEY",
    "ENV_EMBED_BASE_URL",
    "ENV_EMBED_MODEL",
    "ENV_LLM_API_KEY",
    "ENV_LLM_BASE_URL",
    "ENV_LLM_JSON_MODE",
    "ENV_LLM_MODEL",
    "ENV_OLLAMA_HOST",
    "ENV_VERTEX_TOKEN",
    "from_env",
]
