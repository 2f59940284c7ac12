"""The model layer: the ``LLM`` port, chat and embedding clients, structured output,
role schemas and prompts, record/replay, an in-process scripted model, and the MCP client's
own model over ``sampling/createMessage`` (:class:`McpSamplingLLM`).

Everything here speaks HTTP with ``urllib`` only, through one private HTTP layer shared with
:mod:`agentic_rag.providers`; every HTTP client takes its transport, retry policy and test
hooks as one ``http=`` argument, an :class:`HttpOptions`. See
:mod:`agentic_rag.llm.environment` for the environment variables the clients read.
"""

from __future__ import annotations

from agentic_rag._http import (
    HttpAttempt,
    HttpOptions,
    HttpRequest,
    HttpResponse,
    HttpResult,
    JsonHttpClient,
    RetryPolicy,
    Secret,
    Transport,
    UrllibTransport,
)
from agentic_rag.llm.anthropic import AnthropicLLM
from agentic_rag.llm.embeddings import OllamaEmbedder, OpenAIEmbedder
from agentic_rag.llm.json_schema import check_schema, validate_json
from agentic_rag.llm.metering import estimate_tokens
from agentic_rag.llm.openai import OpenAICompatibleLLM
from agentic_rag.llm.port import LLM, Completion, Message, MessageLike, MessageRole, ResponseFormat, ResponseFormatType, TokenUsage
from agentic_rag.llm.recording import RecordingTransport, RecordMode
from agentic_rag.llm.schemas import ROLE_SPECS, UNTRUSTED_RULE, LLMRole, RewriteStrategy, RoleSpec, role_spec
from agentic_rag.llm.sampling import McpSamplingLLM, SamplingChannel
from agentic_rag.llm.scripted import ScriptedCall, ScriptedLLM
from agentic_rag.llm.structured import complete_json, extract_json
from agentic_rag.llm.untrusted import UNTRUSTED_TAG, escape_untrusted, render_untrusted

__all__ = [
    "AnthropicLLM",
    "Completion",
    "HttpAttempt",
    "HttpOptions",
    "HttpRequest",
    "HttpResponse",
    "HttpResult",
    "JsonHttpClient",
    "LLM",
    "LLMRole",
    "McpSamplingLLM",
    "Message",
    "MessageLike",
    "MessageRole",
    "OllamaEmbedder",
    "OpenAICompatibleLLM",
    "OpenAIEmbedder",
    "ROLE_SPECS",
    "RecordMode",
    "RecordingTransport",
    "ResponseFormat",
    "ResponseFormatType",
    "RetryPolicy",
    "RewriteStrategy",
    "RoleSpec",
    "SamplingChannel",
    "ScriptedCall",
    "ScriptedLLM",
    "Secret",
    "TokenUsage",
    "Transport",
    "UNTRUSTED_RULE",
    "UNTRUSTED_TAG",
    "UrllibTransport",
    "check_schema",
    "complete_json",
    "escape_untrusted",
    "estimate_tokens",
    "extract_json",
    "render_untrusted",
    "role_spec",
    "validate_json",
]
