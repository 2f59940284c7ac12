"""The MCP ``show`` tool: a cited span read back as rendered text, the ``show --json`` shape.

Defined apart from the other store tools (:mod:`~agentic_rag._interfaces.mcp_tools`) over one
injected function, so any server can offer it; :func:`~agentic_rag._interfaces.mcp_server.store_tools`
passes :meth:`~agentic_rag._interfaces.store_service.StoreService.show`, which reads only what the
store holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from agentic_rag._errors import InvalidInputError
from agentic_rag._interfaces.mcp_tools import McpTool
from agentic_rag._interfaces.show_span import DEFAULT_MAX_BYTES, EXPECTED_FORMS

__all__ = ["SHOW_INPUT_SCHEMA", "SHOW_OUTPUT_SCHEMA", "ShowFunction", "build_show_tool"]

SHOW_INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "location": {"type": "string", "minLength": 1, "maxLength": 4096,
                     "description": f"What to read, as search and ask cite it: {EXPECTED_FORMS}."},
        "context": {"type": "integer", "minimum": 0, "maximum": 200, "default": 0,
                    "description": "Rendered lines to add before and after the span."},
        "max_bytes": {"type": "integer", "minimum": 0, "default": DEFAULT_MAX_BYTES,
                      "description": "Most bytes of the lines as text (0: no cap); when cut, next says where to read on."},
    },
    "required": ["location"],
    "additionalProperties": False,
}
_LINE = {"type": "object", "properties": {"line": {"type": "integer", "minimum": 1}, "text": {"type": "string"}}, "required": ["line", "text"]}
SHOW_OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "The file, relative to the indexed root."},
        "source": {"type": "string", "enum": ["store", "file"], "description": "Where the lines were read."},
        "blocks": {
            "type": "array",
            "description": "Runs of lines in one section and place, in file order.",
            "items": {
                "type": "object",
                "properties": {
                    "start_line": {"type": "integer", "minimum": 1},
                    "end_line": {"type": "integer", "minimum": 1},
                    "section": {"type": "string", "description": "The heading path (empty before any heading)."},
                    "page": {"type": "integer", "minimum": 1, "description": "PDF only: the page the lines count in."},
                    "cell": {"type": "integer", "minimum": 1, "description": "Notebook only: the cell the lines count in."},
                    "lines": {"type": "array", "items": _LINE, "description": "Each rendered line after the source line it starts on."},
                },
                "required": ["start_line", "end_line", "section", "lines"],
            },
        },
        "truncated": {"type": "boolean", "description": "True when max_bytes cut the lines."},
        "next": {"type": ["string", "null"], "description": "When cut: the location to read on with."},
        "ends_at": {
            "type": "object",
            "description": "Present when the location asked for lines past the end of the text: its last line, and whether of the file, page or cell.",
            "properties": {"line": {"type": "integer", "minimum": 1}, "of": {"type": "string", "enum": ["file", "page", "cell"]},
                           "next_page": {"type": "integer", "minimum": 1,
                                         "description": "PDF only: the page whose first lines follow, as many as were asked past the page's end."}},
            "required": ["line", "of"],
        },
    },
    "required": ["path", "source", "blocks", "truncated", "next"],
}

ShowFunction = Callable[[str, int, int], Mapping[str, Any]]


def build_show_tool(show_fn: ShowFunction) -> McpTool:
    """The ``show`` tool over ``show_fn``.

    Args:
        show_fn: ``(location, context, max_bytes) -> payload`` in the ``show --json`` shape.

    Returns:
        The tool (its result is checked against :data:`SHOW_OUTPUT_SCHEMA` when called).

    Raises:
        InvalidInputError: ``show_fn`` is not callable.
    """
    if not callable(show_fn):
        raise InvalidInputError(f"show_fn must be callable, got {show_fn!r}", stage="mcp")

    def show(arguments: dict[str, Any]) -> dict[str, Any]:
        return dict(show_fn(arguments["location"], int(arguments["context"]), int(arguments["max_bytes"])))

    return McpTool(
        "show",
        "Read a cited span",
        "Read the lines a location names (path:lines as search and ask cite it, path:pPAGE:lines for a PDF page, "
        "path:cCELL:lines for a notebook cell) as the indexer read them: rendered text, not HTML or markup, each line after its "
        "source line number, grouped under its section's heading path. Use it to read past a hit's focus lines (context adds "
        "lines around the span) instead of opening the file.",
        SHOW_INPUT_SCHEMA,
        SHOW_OUTPUT_SCHEMA,
        show,
    )
