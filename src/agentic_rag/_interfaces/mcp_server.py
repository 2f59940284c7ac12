"""The MCP server's public face and its stdio entry point.

::

    from agentic_rag._interfaces.mcp_server import McpServer, build_store_tools, serve_stdio

    tools = build_store_tools(search_fn, ask_fn, list_corpora_fn)
    serve_stdio(McpServer(tools, instructions=STORE_INSTRUCTIONS))

``python -m agentic_rag._interfaces.mcp_server --demo-tools`` serves the tools over the bundled
sample corpus in memory (no store needed); the store-backed server is ``agentic-rag mcp``.
The protocol is described in :mod:`agentic_rag._interfaces.mcp_protocol`, the tools in
:mod:`agentic_rag._interfaces.mcp_tools`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from agentic_rag._interfaces.mcp_protocol import (
    HANDSHAKE_PROTOCOL_VERSIONS,
    PROTOCOL_VERSION_META_KEY,
    SERVER_INFO_META_KEY,
    STATELESS_PROTOCOL_VERSIONS,
    ErrorCode,
    McpServer,
)
from agentic_rag._interfaces.mcp_tools import AskMode, McpTool, build_store_tools

__all__ = [
    "AskMode",
    "ErrorCode",
    "HANDSHAKE_PROTOCOL_VERSIONS",
    "McpServer",
    "McpTool",
    "PROTOCOL_VERSION_META_KEY",
    "SERVER_INFO_META_KEY",
    "STATELESS_PROTOCOL_VERSIONS",
    "STORE_INSTRUCTIONS",
    "build_store_tools",
    "main",
    "serve_stdio",
]

STORE_INSTRUCTIONS = (
    "Search and ask the documents indexed by agentic-rag. Call list_corpora to see what each corpus holds, search to find "
    "passages with file:lines, and ask for an answer whose claims cite file:lines with exact quotes. Read status (a deterministic "
    "judge's verdict): answered, partial (missing_facts says what the evidence did not cover) or unanswerable; do not present a "
    "partial answer as complete. Read evidence (the passages the verdict rests on, with focus lines and relevance) and decide "
    "yourself before reporting that the documents do not answer; search again in your own words when relevance is below 0.5."
)


def serve_stdio(server: McpServer) -> int:
    """Serve ``server`` on this process's standard streams until end of input.

    While serving, ``sys.stdout`` points at stderr, so a stray ``print`` in a tool cannot
    corrupt the protocol stream.

    Args:
        server: The server.

    Returns:
        The exit code: 0 at end of input, 130 when interrupted.
    """
    protocol_out = sys.stdout.buffer
    saved, sys.stdout = sys.stdout, sys.stderr
    try:
        return server.serve(sys.stdin.buffer, protocol_out, sys.stderr)
    except KeyboardInterrupt:
        return 130
    finally:
        sys.stdout = saved


def main(argv: Sequence[str] | None = None) -> int:
    """Run the stdio server.

    Args:
        argv: Arguments (default ``sys.argv[1:]``).

    Returns:
        The exit code: 0 at end of input, 1 on a usage error.
    """
    parser = argparse.ArgumentParser(
        prog="python -m agentic_rag._interfaces.mcp_server",
        description="Serve agentic-rag's MCP tools (search, ask, list_corpora) over stdio.",
    )
    parser.add_argument("--demo-tools", action="store_true", help="serve the tools over the bundled sample corpus, in memory")
    args = parser.parse_args(argv)
    if not args.demo_tools:
        print("error: pass --demo-tools to serve the sample corpus; `agentic-rag mcp` serves a store", file=sys.stderr)
        return 1
    from agentic_rag._interfaces.mcp_demo import DEMO_INSTRUCTIONS, demo_tools

    return serve_stdio(McpServer(demo_tools(), instructions=DEMO_INSTRUCTIONS))


if __name__ == "__main__":
    sys.exit(main())
