"""Test doubles for your own pipelines: loopback servers that speak each provider's wire
format, with scripted faults.

Example::

    from agentic_rag.llm import OpenAICompatibleLLM, Message
    from agentic_rag.testing import Fault, OpenAICompatibleServer

    with OpenAICompatibleServer(['{"ok": true}'], faults=[Fault.http(429, retry_after=0)]) as server:
        llm = OpenAICompatibleLLM(server.url, "test-model")
        print(llm.complete([Message.user("hi")]).text)

For an in-process model without HTTP, use :class:`agentic_rag.llm.ScriptedLLM`.
"""

from __future__ import annotations

from agentic_rag.testing.loopback import Fault, LoopbackServer, RecordedRequest, Reply, hashed_embedding, json_reply
from agentic_rag.testing.search_servers import ElasticsearchServer, VertexRagServer
from agentic_rag.testing.servers import AnthropicServer, OllamaServer, OpenAICompatibleServer

__all__ = [
    "AnthropicServer",
    "ElasticsearchServer",
    "Fault",
    "LoopbackServer",
    "OllamaServer",
    "OpenAICompatibleServer",
    "RecordedRequest",
    "Reply",
    "VertexRagServer",
    "hashed_embedding",
    "json_reply",
]
