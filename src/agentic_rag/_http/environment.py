"""The environment variables that configure model and provider clients, in one place.

Proxies come from the standard ``HTTP_PROXY`` / ``HTTPS_PROXY`` / ``NO_PROXY`` variables, which
urllib's transport reads itself.

Arguments always win; a variable is read only when its argument is ``None``.

============================== ===============================================================
``AGENTIC_RAG_LLM_BASE_URL``   OpenAI-compatible base URL, e.g. ``http://localhost:8080/v1``
``AGENTIC_RAG_LLM_MODEL``      Model name sent in chat requests
``AGENTIC_RAG_LLM_API_KEY``    Bearer key (optional: local servers need none)
``AGENTIC_RAG_LLM_JSON_MODE``  How JSON answers are asked for: ``json_schema`` (default),
                               ``json_object_schema``, ``json_object`` or ``none``
``AGENTIC_RAG_EMBED_BASE_URL`` Embeddings base URL (falls back to the LLM base URL and key)
``AGENTIC_RAG_EMBED_MODEL``    Embedding model name
``AGENTIC_RAG_EMBED_API_KEY``  Embeddings bearer key
``ANTHROPIC_API_KEY``          Anthropic key (``x-api-key``)
``ANTHROPIC_BASE_URL``         Anthropic base URL (default ``https://api.anthropic.com``)
``ANTHROPIC_MODEL``            Anthropic model name
``OLLAMA_HOST``                Ollama address (default ``http://localhost:11434``)
``AGENTIC_RAG_VERTEX_TOKEN``   OAuth bearer token for Vertex AI (``gcloud auth print-access-token``)
============================== ===============================================================
"""

from __future__ import annotations

import os

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

ENV_LLM_BASE_URL = "AGENTIC_RAG_LLM_BASE_URL"
ENV_LLM_MODEL = "AGENTIC_RAG_LLM_MODEL"
ENV_LLM_API_KEY = "AGENTIC_RAG_LLM_API_KEY"
#: ``json_schema`` (default), ``json_object_schema``, ``json_object`` or ``none``: how JSON
#: answers are asked for. ``json_object_schema`` sends the schema inside JSON mode, which
#: llama-cpp-python's server, llama.cpp and Ollama enforce; a server that refuses
#: ``json_schema`` gets that form automatically after its first refusal.
ENV_LLM_JSON_MODE = "AGENTIC_RAG_LLM_JSON_MODE"
ENV_EMBED_BASE_URL = "AGENTIC_RAG_EMBED_BASE_URL"
ENV_EMBED_MODEL = "AGENTIC_RAG_EMBED_MODEL"
ENV_EMBED_API_KEY = "AGENTIC_RAG_EMBED_API_KEY"
ENV_ANTHROPIC_API_KEY = "ANTHROPIC_API_KEY"
ENV_ANTHROPIC_BASE_URL = "ANTHROPIC_BASE_URL"
ENV_ANTHROPIC_MODEL = "ANTHROPIC_MODEL"
ENV_OLLAMA_HOST = "OLLAMA_HOST"
ENV_VERTEX_TOKEN = "AGENTIC_RAG_VERTEX_TOKEN"


def from_env(value: str | None, name: str) -> str | None:
    """Return ``value`` if given, else the stripped environment variable ``name`` (``None``
    when unset or blank)."""
    if value is not None:
        return value
    found = os.environ.get(name, "").strip()
    return found or None
