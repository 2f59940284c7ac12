"""MCP tools: the tool contract, how one call runs, and the three tools over a store.

A call validates its arguments against the tool's ``inputSchema`` (with the project's JSON-
schema checker, :mod:`agentic_rag.llm.json_schema`), fills in defaults, runs the handler and
checks the result against the ``outputSchema``. Bad arguments, a handler that raises and a
result that breaks its schema all come back as a tool result with ``isError: true`` and a
message naming the problem, never as a protocol error.

:func:`build_store_tools` defines ``search``, ``ask`` and ``list_corpora`` over three injected
functions; :func:`~agentic_rag._interfaces.mcp_server.store_tools` passes those of a
:class:`~agentic_rag._interfaces.store_service.StoreService`, for a store of yours and the demo alike.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agentic_rag._contracts import Corpus
from agentic_rag._errors import InvalidInputError
from agentic_rag._interfaces.ask_mode import AskMode
from agentic_rag._interfaces.corpora_payload import corpora_payload
from agentic_rag._interfaces.mcp_schemas import (
    ASK_INPUT_SCHEMA,
    ASK_OUTPUT_SCHEMA,
    LIST_CORPORA_OUTPUT_SCHEMA,
    SEARCH_INPUT_SCHEMA,
    SEARCH_OUTPUT_SCHEMA,
)
from agentic_rag.llm.json_schema import check_schema, validate_json

__all__ = [
    "ASK_INPUT_SCHEMA",
    "ASK_OUTPUT_SCHEMA",
    "AskMode",
    "LIST_CORPORA_OUTPUT_SCHEMA",
    "McpTool",
    "SEARCH_INPUT_SCHEMA",
    "SEARCH_OUTPUT_SCHEMA",
    "build_store_tools",
]

_TOOL_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")
_STAGE = "mcp"


@dataclass(frozen=True, slots=True)
class McpTool:
    """One tool the server offers: its description, schemas and the function that runs it.

    Args:
        name: 1-128 characters of ``A-Z a-z 0-9 _ - .`` (the MCP tool-name rule).
        title: A short human-readable name.
        description: What the tool does and when to use it (read by the model).
        input_schema: JSON schema of the arguments, an object schema in the subset
            :func:`agentic_rag.llm.json_schema.check_schema` accepts.
        output_schema: JSON schema of the structured result (``None``: unstructured).
        handler: Called with the validated arguments (defaults filled in); returns the
            structured result, a JSON object.

    Raises:
        InvalidInputError: A bad name, a schema outside the supported subset or not of type
            ``object``, or a handler that is not callable.
    """

    name: str
    title: str
    description: str
    input_schema: Mapping[str, Any]
    output_schema: Mapping[str, Any] | None
    handler: Callable[[dict[str, Any]], Mapping[str, Any]]

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _TOOL_NAME.fullmatch(self.name):
            raise InvalidInputError(f"tool name must be 1-128 characters of A-Z a-z 0-9 _ - ., got {self.name!r}", stage=_STAGE)
        for field in ("title", "description"):
            if not isinstance(getattr(self, field), str):
                raise InvalidInputError(f"tool {self.name!r}: {field} must be a string, got {getattr(self, field)!r}", stage=_STAGE)
        object.__setattr__(self, "input_schema", _object_schema(self.input_schema, f"tool {self.name!r} input_schema"))
        if self.output_schema is not None:
            object.__setattr__(self, "output_schema", _object_schema(self.output_schema, f"tool {self.name!r} output_schema"))
        if not callable(self.handler):
            raise InvalidInputError(f"tool {self.name!r}: handler must be callable, got {self.handler!r}", stage=_STAGE)

    def describe(self, *, structured: bool = True) -> dict[str, Any]:
        """Return the tool as ``tools/list`` shows it.

        Args:
            structured: Include ``title`` and ``outputSchema`` (revisions from 2025-06-18).

        Returns:
            ``{name, title?, description, inputSchema, outputSchema?}``.
        """
        entry: dict[str, Any] = {"name": self.name}
        if structured and self.title:
            entry["title"] = self.title
        entry["description"] = self.description
        entry["inputSchema"] = json_copy(self.input_schema)
        if structured and self.output_schema is not None:
            entry["outputSchema"] = json_copy(self.output_schema)
        return entry

    def call(self, arguments: Mapping[str, Any], *, structured: bool = True, log: Callable[[str], None] | None = None) -> dict[str, Any]:
        """Run the tool and return the ``tools/call`` result.

        Args:
            arguments: The call's arguments (validated here against ``input_schema``).
            structured: Include ``structuredContent`` (revisions from 2025-06-18); the JSON
                text of the result is always in ``content``.
            log: Receives one line when the call fails.

        Returns:
            ``{content: [{type: "text", text}], structuredContent?, isError}``.
        """
        problems = validate_json(arguments, self.input_schema, "$")
        if problems:
            return _tool_error(f"invalid arguments for tool {self.name!r}: " + "; ".join(problems))
        filled = json_copy(dict(arguments))
        for key, schema in (self.input_schema.get("properties") or {}).items():
            if key not in filled and "default" in schema:
                filled[key] = json_copy(schema["default"])
        try:
            output = self.handler(filled)
        except Exception as exc:  # a failing tool is a tool result, not a protocol error
            if log is not None:
                log(f"tool {self.name!r} failed: {type(exc).__name__}: {exc}")
            return _tool_error(f"tool {self.name!r} failed: {type(exc).__name__}: {exc}")
        if not isinstance(output, Mapping):
            return _tool_error(f"tool {self.name!r} returned {type(output).__name__}; expected a JSON object")
        try:
            result = json_copy(output)
        except (TypeError, ValueError) as exc:
            return _tool_error(f"tool {self.name!r} returned a value that is not JSON: {exc}")
        if self.output_schema is not None:
            problems = validate_json(result, self.output_schema, "$")
            if problems:
                if log is not None:
                    log(f"tool {self.name!r} broke its outputSchema: {problems[0]}")
                return _tool_error(f"tool {self.name!r} returned output that does not match its outputSchema: " + "; ".join(problems))
        answer: dict[str, Any] = {"content": [{"type": "text", "text": json.dumps(result, ensure_ascii=False, sort_keys=True)}]}
        if structured:
            answer["structuredContent"] = result
        answer["isError"] = False
        return answer


def json_copy(value: Any) -> Any:
    """Return a deep, JSON-only copy of ``value`` (so no caller can mutate what is sent).

    Raises:
        TypeError: A value JSON cannot hold.
        ValueError: A non-finite number.
    """
    return json.loads(json.dumps(value, allow_nan=False))


def _object_schema(schema: object, what: str) -> dict[str, Any]:
    if not isinstance(schema, Mapping):
        raise InvalidInputError(f"{what} must be a JSON-schema object, got {type(schema).__name__}", stage=_STAGE)
    try:
        copied = json_copy(schema)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{what} must be JSON-serialisable: {exc}", stage=_STAGE) from None
    check_schema(copied)
    if copied.get("type") != "object":
        raise InvalidInputError(f"{what} must have type 'object', got {copied.get('type')!r}", stage=_STAGE)
    return copied


def _tool_error(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": True}


# -- the store tools -------------------------------------------------------------------------


SearchFunction = Callable[[str, int, str | None, int], Sequence[Any]]
AskFunction = Callable[[str, AskMode, int, bool], Mapping[str, Any]]
ListCorporaFunction = Callable[[], Sequence[Any]]
UnusedNamesFunction = Callable[[str, str | None], Sequence[str]]


def build_store_tools(search_fn: SearchFunction, ask_fn: AskFunction, list_corpora_fn: ListCorporaFunction, *,
                      unused_fn: UnusedNamesFunction | None = None) -> tuple[McpTool, ...]:
    """Define the ``search``, ``ask`` and ``list_corpora`` tools over injected functions.

    Args:
        search_fn: ``(query, k, corpus or None, context) -> hits``, each hit a
            mapping (or an object with ``to_dict()``) in the ``search --json`` shape.
        ask_fn: ``(question, AskMode, evidence, full_text) -> answer``, a mapping with ``status``,
            ``answer``, ``claims``, ``missing_facts``, ``iterations``, ``stop_reason`` and at
            most ``evidence`` passages in ``evidence`` (the ``ask --json`` shape).
        list_corpora_fn: ``() -> corpora``, each a :class:`~agentic_rag._contracts.Corpus` or a
            mapping with ``id`` and ``description`` (see
            :func:`~agentic_rag._interfaces.corpora_payload.corpora_payload`).
        unused_fn: ``(query, corpus or None) -> names`` the query writes that no indexed
            document (of the corpus) uses; when given and not empty, the search result's
            ``unused_names``.

    Returns:
        The three tools, in the order ``search``, ``ask``, ``list_corpora``. Each result is
        checked against its output schema when called.

    Raises:
        InvalidInputError: An argument that is not callable.
    """
    for label, fn in (("search_fn", search_fn), ("ask_fn", ask_fn), ("list_corpora_fn", list_corpora_fn)):
        if not callable(fn):
            raise InvalidInputError(f"{label} must be callable, got {fn!r}", stage=_STAGE)
    if unused_fn is not None and not callable(unused_fn):
        raise InvalidInputError(f"unused_fn must be callable or None, got {unused_fn!r}", stage=_STAGE)

    def search(arguments: dict[str, Any]) -> dict[str, Any]:
        hits = search_fn(arguments["query"], int(arguments["k"]), arguments.get("corpus"), int(arguments["context"]))
        out: dict[str, Any] = {"hits": [_plain(hit) for hit in hits]}
        unused = list(unused_fn(arguments["query"], arguments.get("corpus"))) if unused_fn is not None else []
        if unused:
            out["unused_names"] = unused
        return out

    def ask(arguments: dict[str, Any]) -> dict[str, Any]:
        return _plain(ask_fn(arguments["question"], AskMode(arguments["mode"]), int(arguments["evidence"]), bool(arguments["full_text"])))

    def list_corpora(arguments: dict[str, Any]) -> dict[str, Any]:
        return {"corpora": corpora_payload(c if isinstance(c, Corpus) else _plain(c) for c in list_corpora_fn())}

    return (
        McpTool(
            "search",
            "Search the indexed documents",
            "Rank indexed chunks by relevance to a query. Returns, best first, each hit's file path, section heading path, "
            "relevance, focus lines (focus_text: the few lines that answer best, numbered; context widens them) and the whole "
            "chunk (text); also_at lists where later hits repeating the same statements stand. relevance (0-1) is the estimated chance that the hit's focus lines answer; when the best "
            "hit is below 0.5, search again in other words. unused_names lists names of the query no indexed document (of the corpus "
            "searched) uses: the documents do not mention them under those names.",
            SEARCH_INPUT_SCHEMA,
            SEARCH_OUTPUT_SCHEMA,
            search,
        ),
        McpTool(
            "ask",
            "Answer a question with citations",
            "Answer a question from the indexed documents. Every claim cites file:lines with the exact quote (empty when it is "
            "the claim's own text). status is a "
            "deterministic judge's verdict: answered, partial (missing_facts says what is missing) or unanswerable; never present "
            "a partial answer as complete. evidence lists the passages the verdict was reached on, best first, with their focus "
            "lines and relevance: read them before reporting that the documents do not answer.",
            ASK_INPUT_SCHEMA,
            ASK_OUTPUT_SCHEMA,
            ask,
        ),
        McpTool(
            "list_corpora",
            "List the corpora",
            "List the corpora in the store with their descriptions (what each holds), the folder each stands for and its file and "
            "chunk counts. Pass an id as search's corpus to search only it.",
            {"type": "object", "properties": {}, "additionalProperties": False},
            LIST_CORPORA_OUTPUT_SCHEMA,
            list_corpora,
        ),
    )


def _plain(value: Any) -> Any:
    """A JSON value from a mapping or a contract with ``to_dict()``."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    return dict(value) if isinstance(value, Mapping) else value
