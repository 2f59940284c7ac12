"""A Model Context Protocol server over stdio, on the standard library only.

JSON-RPC 2.0, one UTF-8 message per line, nothing but protocol messages on stdout, logs on
stderr, exit on end of input. Two eras are served from one loop, decided per message:

- Handshake revisions (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25): ``initialize``
  negotiates the version (the client's when supported, else the latest handshake revision),
  then ``notifications/initialized``. Tool titles, ``outputSchema`` and ``structuredContent``
  are sent from 2025-06-18 on, the revision that introduced them.
- Stateless revision 2026-07-28: a request whose ``params._meta`` carries
  ``io.modelcontextprotocol/protocolVersion`` is answered on its own, with no handshake;
  every result carries ``resultType: "complete"``, and ``server/discover`` and ``tools/list``
  carry cache hints (``ttlMs``, ``cacheScope``). A version this server does not speak gets
  error -32022 with ``data: {supported, requested}``. ``server/discover`` is answered even
  without ``_meta``: on stdio it is how a dual-era client tells a modern server from a legacy
  one. Its result holds ``supportedVersions`` (the per-request versions), ``capabilities``,
  ``instructions`` and ``serverInfo``, the latter both as a field (the specification page's
  example) and under ``_meta["io.modelcontextprotocol/serverInfo"]`` (the published schema).

The era is decided per request, never locked for the connection: a request without ``_meta``
before ``initialize`` is answered as the latest handshake revision (and logged), and ``ping``
is answered in both eras although 2026-07-28 dropped it. ``_meta`` client capabilities are
not required.

The server may send requests of its own while a tool call is in progress (``sampling/createMessage``
for ``agentic-rag mcp --llm sampling``): input is read by a reader thread that routes the
client's responses to the waiting request and queues everything else, answered in order after
the tool call (see :mod:`agentic_rag._interfaces.mcp_channel`). The client's ``capabilities``
from ``initialize`` are kept for that; a stateless request has no session to send one over.

Errors: -32700 unparsable JSON, nesting too deep to parse included (id null); -32600 anything
that is not one request object: batch arrays, an id that is not a string or a finite number
(``1e400``; id null), nesting deeper than :data:`MAX_NESTING` levels, a line longer than
:data:`~agentic_rag._interfaces.mcp_channel.MAX_MESSAGE_BYTES` (id null, ``data: {size, limit}``;
the line is never held whole); -32601 unknown method; -32602 bad params, an unknown tool included.
Arguments that fail a tool's ``inputSchema`` and tools that raise give a tool result with
``isError: true`` (SEP-1303: the model can read the message and correct itself).
Notifications are never answered and the loop keeps serving after every error.
"""

from __future__ import annotations

import enum
import io
import json
import queue
import threading
from collections.abc import Sequence
from typing import IO, Any

from agentic_rag._contracts.validation import is_number
from agentic_rag._errors import InvalidInputError
from agentic_rag._interfaces.mcp_channel import McpClientChannel, OversizedMessage
from agentic_rag._interfaces.mcp_tools import McpTool

__all__ = [
    "ErrorCode",
    "HANDSHAKE_PROTOCOL_VERSIONS",
    "McpServer",
    "PROTOCOL_VERSION_META_KEY",
    "SERVER_INFO_META_KEY",
    "STATELESS_PROTOCOL_VERSIONS",
]

HANDSHAKE_PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
STATELESS_PROTOCOL_VERSIONS = ("2026-07-28",)
PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion"
SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo"
_STRUCTURED_SINCE = "2025-06-18"  # tool titles, outputSchema and structuredContent
_CACHE_TTL_MS = 3_600_000  # the tool list and server description never change while a process runs
_STAGE = "mcp"
MAX_NESTING = 64
"""Deepest nesting of arrays and objects a message may have (a request is answered -32600
beyond it; JSON nested too deeply to parse at all is a -32700 parse error)."""


class ErrorCode(int, enum.Enum):
    """The JSON-RPC error codes this server answers with."""

    PARSE_ERROR = -32700
    INVALID_REQUEST = -32600
    METHOD_NOT_FOUND = -32601
    INVALID_PARAMS = -32602
    INTERNAL_ERROR = -32603
    UNSUPPORTED_PROTOCOL_VERSION = -32022


class _RpcError(Exception):
    """A JSON-RPC error answer, raised inside dispatch and turned into a response."""

    def __init__(self, code: ErrorCode, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


class McpServer:
    """A tools-only MCP server speaking the handshake revisions and the stateless one.

    One instance serves one connection at a time (:meth:`serve` resets the handshake state).

    Args:
        tools: The tools offered, with distinct names; listed in this order.
        name: ``serverInfo.name``.
        version: ``serverInfo.version`` (default: the package version).
        instructions: Guidance for the model on how to use the server.
        channel: Carries the server's own requests to the client (a new one by default;
            pass one to give an :class:`~agentic_rag.llm.sampling.McpSamplingLLM` the same).

    Raises:
        InvalidInputError: A tool that is not an :class:`McpTool`, duplicate tool names, or a
            bad name, version or instructions.
    """

    def __init__(self, tools: Sequence[McpTool], *, name: str = "agentic-rag", version: str | None = None, instructions: str = "",
                 channel: McpClientChannel | None = None) -> None:
        tools = tuple(tools)
        for tool in tools:
            if not isinstance(tool, McpTool):
                raise InvalidInputError(f"tools must be McpTool instances, got {type(tool).__name__}", stage=_STAGE)
        names = [tool.name for tool in tools]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise InvalidInputError(f"tool names must be unique, got duplicates {duplicates}", stage=_STAGE)
        if version is None:
            from agentic_rag import __version__

            version = __version__
        for label, value in (("name", name), ("version", version), ("instructions", instructions)):
            if not isinstance(value, str) or (label != "instructions" and not value.strip()):
                raise InvalidInputError(f"server {label} must be a {'' if label == 'instructions' else 'non-empty '}string, got {value!r}", stage=_STAGE)
        self.tools = {tool.name: tool for tool in tools}
        self.name, self.version, self.instructions = name, version, instructions
        self.negotiated_version: str | None = None
        self.initialized = False
        self._stderr: IO[str] | None = None
        self.channel = channel if channel is not None else McpClientChannel()

    # -- the loop ---------------------------------------------------------------------------

    def serve(self, stdin: IO[Any], stdout: IO[Any], stderr: IO[str] | None = None) -> int:
        """Answer messages from ``stdin`` on ``stdout`` until end of input.

        Args:
            stdin: One JSON-RPC message per line; a text or a binary stream (bytes are
                decoded as UTF-8).
            stdout: Receives only protocol messages, one per line, flushed after each.
            stderr: Receives log lines (``None``: no logging).

        Returns:
            0 at end of input, or when the client closed ``stdout``.
        """
        self.negotiated_version, self.initialized, self._stderr = None, False, stderr
        write_lock = threading.Lock()

        def send(text: str) -> bool:
            data = text + "\n"
            with write_lock:  # the server's own requests come from the tool's thread
                try:
                    stdout.write(data if _is_text(stdout) else data.encode("utf-8"))
                    stdout.flush()
                except (BrokenPipeError, ValueError):
                    return False
            return True

        inbox: queue.Queue = queue.Queue()
        self.channel.serving(lambda message: send(_encode(message)), self._log)
        reader = threading.Thread(target=self.channel.read_lines, args=(stdin, inbox), name="agentic-rag-mcp-input", daemon=True)
        reader.start()
        try:
            while True:
                line = inbox.get()
                if line is None:
                    return 0
                try:
                    answer = self._oversized(line) if isinstance(line, OversizedMessage) else self.handle_line(line)
                except Exception as exc:  # last resort: a bug of ours must not end the session
                    self._log(f"internal error: {type(exc).__name__}: {exc}")
                    answer = _encode(_error(None, ErrorCode.INTERNAL_ERROR, f"internal error: {type(exc).__name__}"))
                if answer is not None and not send(answer):
                    self._log("stdout closed by the client; stopping")
                    return 0
        finally:
            self.channel.stopped("the MCP server stopped serving")

    def _oversized(self, message: OversizedMessage) -> str:
        self._log(f"refused a message of {message.size} bytes (limit {message.limit})")
        return _encode(_error(None, ErrorCode.INVALID_REQUEST,
                              f"invalid request: the message is {message.size} bytes; this server reads at most {message.limit} bytes per message",
                              {"size": message.size, "limit": message.limit}))

    def handle_line(self, line: str | bytes) -> str | None:
        """Answer one line of input.

        Args:
            line: One message (a trailing newline is ignored).

        Returns:
            The response as one line of JSON without its newline, or ``None`` when nothing is
            answered (a notification, a blank line, or a response sent to us).
        """
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as exc:
                return _encode(_error(None, ErrorCode.PARSE_ERROR, f"parse error: the line is not UTF-8 ({exc.reason} at byte {exc.start})"))
        text = line.strip().lstrip("\ufeff")
        if not text:
            return None
        try:
            message = json.loads(text, parse_constant=_refuse_constant)
        except ValueError as exc:
            self._log(f"parse error: {exc}")
            return _encode(_error(None, ErrorCode.PARSE_ERROR, f"parse error: {exc}"))
        except RecursionError:
            self._log("parse error: nesting too deep")
            return _encode(_error(None, ErrorCode.PARSE_ERROR, "parse error: the message is nested too deeply to parse"))
        response = self.handle_message(message)
        return None if response is None else _encode(response)

    def handle_message(self, message: Any) -> dict[str, Any] | None:
        """Answer one parsed JSON-RPC message.

        Args:
            message: The parsed JSON value.

        Returns:
            The response object, or ``None`` when nothing is answered.
        """
        if isinstance(message, list):
            return _error(None, ErrorCode.INVALID_REQUEST, "invalid request: batch arrays are not supported; send one JSON-RPC object per line")
        if not isinstance(message, dict):
            return _error(None, ErrorCode.INVALID_REQUEST, f"invalid request: expected a JSON-RPC object, got {_kind(message)}")
        if "method" not in message and ("result" in message or "error" in message):
            self._log(f"ignored a response to no pending request of this server (id {message.get('id')!r})")
            return None
        has_id = "id" in message
        request_id = message.get("id")
        # 1e400 parses as infinity, which no JSON answer can echo.
        id_ok = isinstance(request_id, str) or is_number(request_id)
        echo = request_id if id_ok else None
        if message.get("jsonrpc") != "2.0":
            return _error(echo, ErrorCode.INVALID_REQUEST, f"invalid request: 'jsonrpc' must be \"2.0\", got {message.get('jsonrpc')!r}")
        method = message.get("method")
        if not isinstance(method, str):
            return _error(echo, ErrorCode.INVALID_REQUEST, f"invalid request: 'method' must be a string, got {_kind(method)}")
        if has_id and not id_ok:
            return _error(None, ErrorCode.INVALID_REQUEST, f"invalid request: 'id' must be a string or a finite number, got {_kind(request_id)}")
        if _depth(message) > MAX_NESTING:
            return _error(echo, ErrorCode.INVALID_REQUEST, f"invalid request: the message is nested deeper than {MAX_NESTING} levels")
        params = message.get("params", {})
        if not has_id:
            self._notification(method, params)
            return None
        try:
            if not isinstance(params, dict):
                raise _RpcError(ErrorCode.INVALID_PARAMS, f"invalid params: 'params' must be an object, got {_kind(params)}")
            return {"jsonrpc": "2.0", "id": request_id, "result": self._dispatch(method, params)}
        except _RpcError as exc:
            self._log(f"{method}: error {int(exc.code)}: {exc.message}")
            return _error(request_id, exc.code, exc.message, exc.data)
        except Exception as exc:  # a bug of ours must not end the session
            self._log(f"{method}: internal error: {type(exc).__name__}: {exc}")
            return _error(request_id, ErrorCode.INTERNAL_ERROR, f"internal error: {type(exc).__name__}: {exc}")

    # -- dispatch ---------------------------------------------------------------------------

    def _notification(self, method: str, params: object) -> None:
        if method == "notifications/initialized":
            self.initialized = True
        elif not method.startswith("notifications/"):
            self._log(f"ignored notification {method!r}")

    def _dispatch(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if method == "initialize":
            return self._initialize(params)
        version, stateless = self._request_version(method, params)
        if method == "ping":
            result: dict[str, Any] = {}
        elif method == "server/discover":
            result = self._discover()
        elif method == "tools/list":
            result = self._tools_list(params, version, stateless)
        elif method == "tools/call":
            self.channel.stateless = stateless  # a stateless request has no session to sample over
            try:
                result = self._tools_call(params, version)
            finally:
                self.channel.stateless = False
        else:
            known = sorted(("initialize", "ping", "server/discover", "tools/call", "tools/list"))
            raise _RpcError(ErrorCode.METHOD_NOT_FOUND, f"method not found: {method!r}; this server answers {known}")
        if stateless:
            result = {"resultType": "complete", **result}
        return result

    def _request_version(self, method: str, params: dict[str, Any]) -> tuple[str, bool]:
        """The revision a request is answered under, and whether it is the stateless era."""
        meta = params.get("_meta")
        requested = meta.get(PROTOCOL_VERSION_META_KEY) if isinstance(meta, dict) else None
        if requested is not None:
            if not isinstance(requested, str):
                raise _RpcError(ErrorCode.INVALID_PARAMS, f"invalid params: _meta[{PROTOCOL_VERSION_META_KEY!r}] must be a string, got {_kind(requested)}")
            if requested not in STATELESS_PROTOCOL_VERSIONS:
                supported = list(STATELESS_PROTOCOL_VERSIONS)
                hint = " (handshake revisions are negotiated with initialize)" if requested in HANDSHAKE_PROTOCOL_VERSIONS else ""
                raise _RpcError(
                    ErrorCode.UNSUPPORTED_PROTOCOL_VERSION,
                    f"unsupported protocol version {requested!r} in _meta; per-request versions supported: {supported}{hint}",
                    {"supported": supported, "requested": requested},
                )
            return requested, True
        if method == "server/discover":
            return STATELESS_PROTOCOL_VERSIONS[-1], True
        if self.negotiated_version is None and method != "ping":
            self._log(f"{method} before initialize: answering as {HANDSHAKE_PROTOCOL_VERSIONS[-1]}")
        return self.negotiated_version or HANDSHAKE_PROTOCOL_VERSIONS[-1], False

    def _initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        requested = params.get("protocolVersion")
        if not isinstance(requested, str):
            raise _RpcError(ErrorCode.INVALID_PARAMS, f"invalid params: initialize needs 'protocolVersion' as a string, got {_kind(requested)}")
        version = requested if requested in HANDSHAKE_PROTOCOL_VERSIONS else HANDSHAKE_PROTOCOL_VERSIONS[-1]
        if version != requested:
            self._log(f"initialize asked for {requested!r}; answering with {version!r}")
        self.negotiated_version, self.initialized = version, False
        capabilities = params.get("capabilities")
        self.channel.client_capabilities = capabilities if isinstance(capabilities, dict) else {}
        return {
            "protocolVersion": version,
            "capabilities": {"tools": {}},
            "serverInfo": self._server_info(),
            "instructions": self.instructions,
        }

    def _discover(self) -> dict[str, Any]:
        return {
            "supportedVersions": list(STATELESS_PROTOCOL_VERSIONS),
            "capabilities": {"tools": {}},
            "serverInfo": self._server_info(),
            "instructions": self.instructions,
            "ttlMs": _CACHE_TTL_MS,
            "cacheScope": "public",
            "_meta": {SERVER_INFO_META_KEY: self._server_info()},
        }

    def _server_info(self) -> dict[str, str]:
        return {"name": self.name, "version": self.version}

    def _tools_list(self, params: dict[str, Any], version: str, stateless: bool) -> dict[str, Any]:
        if params.get("cursor") is not None:
            raise _RpcError(ErrorCode.INVALID_PARAMS, f"invalid params: unknown cursor {params['cursor']!r}; this server lists every tool in one page")
        result: dict[str, Any] = {"tools": [tool.describe(structured=version >= _STRUCTURED_SINCE) for tool in self.tools.values()]}
        if stateless:
            result.update(ttlMs=_CACHE_TTL_MS, cacheScope="public")
        return result

    def _tools_call(self, params: dict[str, Any], version: str) -> dict[str, Any]:
        name = params.get("name")
        if not isinstance(name, str):
            raise _RpcError(ErrorCode.INVALID_PARAMS, f"invalid params: tools/call needs 'name' as a string, got {_kind(name)}")
        tool = self.tools.get(name)
        if tool is None:
            raise _RpcError(ErrorCode.INVALID_PARAMS, f"unknown tool {name!r}; available tools: {sorted(self.tools)}")
        arguments = params.get("arguments")
        arguments = {} if arguments is None else arguments
        if not isinstance(arguments, dict):
            raise _RpcError(ErrorCode.INVALID_PARAMS, f"invalid params: 'arguments' must be an object, got {_kind(arguments)}")
        return tool.call(arguments, structured=version >= _STRUCTURED_SINCE, log=self._log)

    def _log(self, text: str) -> None:
        if self._stderr is not None:
            try:
                self._stderr.write(f"agentic-rag mcp: {text}\n")
                self._stderr.flush()
            except (OSError, ValueError):
                pass


def _is_text(stream: object) -> bool:
    """True for text streams (``io.StringIO``, ``sys.stdout``), False for binary ones."""
    return isinstance(stream, io.TextIOBase) or (not isinstance(stream, (io.RawIOBase, io.BufferedIOBase)) and hasattr(stream, "encoding"))


def _error(request_id: Any, code: ErrorCode, message: str, data: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": int(code), "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def _encode(message: dict[str, Any]) -> str:
    # U+2028/2029 are legal in JSON strings but break line-oriented JavaScript readers.
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _depth(value: Any) -> int:
    """How deeply ``value`` nests arrays and objects (a scalar is 0), counted without recursion
    and stopping once past :data:`MAX_NESTING`."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            if deepest > MAX_NESTING:
                break
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _kind(value: object) -> str:
    if value is None:
        return "null"
    names = {bool: "boolean", int: "number", float: "number", str: "string", list: "array", dict: "object"}
    return f"{names.get(type(value), type(value).__name__)} {json.dumps(value)[:40] if isinstance(value, (str, int, float, bool)) else ''}".strip()
