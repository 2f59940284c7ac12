"""The fuzz targets behind ``bench/ingestion/fuzz.py``: what each one feeds the library and what it checks.

A target is a name, a generator (``rng -> input``: a fresh random input or a mutation of a seed)
and a check (``input -> None``). The check calls the library; an exception from the library's
tree (:class:`~agentic_rag._errors.AgenticRAGError`) is the expected refusal and passes, anything
else propagates and is a finding. :class:`Violation` reports a broken promise that is not an
exception (an MCP answer that is not a JSON-RPC response, a contract that does not round-trip).
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import json
import os
import pkgutil
import random
import re
import tempfile
import types
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import agentic_rag
from agentic_rag._errors import AgenticRAGError
from bench.ingestion.fuzz_base import Target, Violation
from bench.ingestion.fuzz_inputs import SYNTAX, deep_text, mutate_bytes, mutate_json, rand_json, rand_text
from bench.ingestion.fuzz_structured import structured_targets

__all__ = ["Target", "Violation", "build_targets", "json_contracts"]


# -- targets ------------------------------------------------------------------------------------


def _call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call ``fn``; a refusal from the library's error tree is a pass (returns ``None``)."""
    try:
        return fn(*args, **kwargs)
    except AgenticRAGError:
        return None


def _seed_files(kind: str) -> list[bytes]:
    from agentic_rag._samples import sample_folder

    seeds = {
        "txt": [b"First paragraph line one.\nline two.\n\nSecond paragraph.\f\nAfter a form feed.\n"],
        "md": [b"---\ntitle: T\n---\n# Title\n\nSome *emphasis* and `code` and [a link](http://x).\n\n- item\n  - nested\n\n```py\nx = 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"],
        "rst": [b"Title\n=====\n\nA paragraph with ``code`` and :ref:`x`.\n\n.. note::\n\n   Indented.\n\n* a\n* b\n\n::\n\n   literal\n\nSub\n---\n\n.. include:: other.rst\n"],
        "html": [b"<!DOCTYPE html><html><head><title>T</title><style>p{}</style></head><body><h1>H</h1><p>Para &amp; <a href='x'>link</a></p><ul><li>a</li></ul><table><tr><td>1</td></tr></table><script>x<1</script><!-- c --></body></html>"],
        "json": [b'[{"id": "a", "title": "T", "text": "Hello world."}, {"id": 2, "text": ["x", 1]}]', b'{"id": "x", "body": {"deep": [1, 2]}, "title": null}'],
        "jsonl": [b'{"id": "a", "text": "one"}\n{"_id": "b", "title": "T", "text": "two"}\n\n[1, 2]\n'],
        "csv": [b'id,title,text\n1,T,"Hello, ""world""."\n2,,"multi\nline"\n', b"a;b\n1;2\n"],
    }[kind]
    if kind == "md":
        seeds += [p.read_bytes() for p in sorted(sample_folder().rglob("*.md"))[:4]]
    return seeds


def _loader_target(kind: str) -> Target:
    from agentic_rag._ingest import parse_source

    seeds = _seed_files(kind)
    syntax = SYNTAX[kind]
    dictionary = tuple(s.encode("utf-8") for s in syntax)

    def generate(rng: random.Random, max_size: int) -> bytes:
        roll = rng.random()
        if roll < 0.35:
            return rand_text(rng, syntax, max_size).encode("utf-8", "surrogatepass")
        if roll < 0.4 and kind in ("json", "jsonl"):
            return deep_text(rng, max_size).encode()
        return mutate_bytes(rng, rng.choice(seeds), dictionary, max_size)

    def check(data: bytes) -> None:
        _call(parse_source, data, "." + kind)

    return Target(f"load .{kind}", generate, check)


_DOCX_SEED = ('<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Title</w:t></w:r></w:p>'
              '<w:p><w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>item</w:t><w:tab/>'
              '<w:t>x</w:t><w:br/></w:r><w:hyperlink><w:r><w:t>link</w:t></w:r></w:hyperlink>'
              '<w:r><w:footnoteReference w:id="1"/></w:r></w:p>'
              '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc><w:tc><w:tbl><w:tr><w:tc><w:p/></w:tc></w:tr></w:tbl></w:tc></w:tr></w:tbl>')
_DOCX_SYNTAX = ("<w:p>", "</w:p>", "<w:r>", "</w:r>", "<w:t>", "</w:t>", "<w:tab/>", "<w:br/>", "<w:tbl>", "</w:tbl>", "<w:tr>",
                "</w:tr>", "<w:tc>", "</w:tc>", '<w:pPr><w:pStyle w:val="Heading2"/></w:pPr>', '<w:pPr><w:outlineLvl w:val="0"/></w:pPr>',
                '<w:numPr><w:ilvl w:val="9"/><w:numId w:val="0"/></w:numPr>', '<w:footnoteReference w:id="1"/>', "<w:del>", "</w:del>",
                "<w:sdt><w:sdtContent>", "</w:sdtContent></w:sdt>", "&amp;", "<!DOCTYPE x>", "<", ">")


def _docx_archive(body: bytes, rng: random.Random) -> bytes:
    """``body`` as the body of a .docx archive with styles, numbering and footnotes parts."""
    import io
    import zipfile

    w = b'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", rng.choice((zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED))) as archive:
        archive.writestr("word/document.xml", b"<w:document " + w + b"><w:body>" + body + b"</w:body></w:document>")
        archive.writestr("word/styles.xml", b"<w:styles " + w + b'><w:style w:styleId="Heading1"><w:name w:val="heading 1"/>'
                         b'<w:basedOn w:val="Heading1"/></w:style></w:styles>')
        archive.writestr("word/numbering.xml", b"<w:numbering " + w + b'><w:num w:numId="1"><w:abstractNumId w:val="7"/></w:num></w:numbering>')
        archive.writestr("word/footnotes.xml", b"<w:footnotes " + w + b'><w:footnote w:id="1"><w:p><w:r><w:t>note</w:t></w:r></w:p></w:footnote></w:footnotes>')
    return out.getvalue()


def _docx_target() -> Target:
    from agentic_rag._ingest import parse_source

    seed = _DOCX_SEED.encode()
    dictionary = tuple(s.encode() for s in _DOCX_SYNTAX)

    def generate(rng: random.Random, max_size: int) -> bytes:
        roll = rng.random()
        if roll < 0.4:  # markup soup inside a valid archive: exercises the reader, not the zip
            return _docx_archive(rand_text(rng, _DOCX_SYNTAX, max_size).encode("utf-8", "surrogatepass"), rng)
        if roll < 0.8:
            return _docx_archive(mutate_bytes(rng, seed, dictionary, max_size), rng)
        return mutate_bytes(rng, _docx_archive(seed, rng), (b"PK\x03\x04", b"PK\x01\x02", b"\xff" * 4), max_size * 2)

    def check(data: bytes) -> None:
        _call(parse_source, data, ".docx")

    return Target("load .docx", generate, check)


def _ipynb_target() -> Target:
    from agentic_rag._ingest import parse_source

    seed = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"language": "python"}}, "cells": [
        {"cell_type": "markdown", "source": ["# Title\n", "Some *text* and `code`.\n", "- item\n"]},
        {"cell_type": "code", "source": "x = 1\nprint(x)\n", "outputs": [
            {"output_type": "stream", "text": ["1\n"]}, {"output_type": "execute_result", "data": {"text/plain": "1", "image/png": "AA"}},
            {"output_type": "error", "ename": "E", "evalue": "v", "traceback": []}]},
        {"cell_type": "raw", "source": "raw"},
    ]}
    old = {"nbformat": 3, "worksheets": [{"cells": [{"cell_type": "heading", "level": 2, "source": "H"},
                                                    {"cell_type": "code", "input": "y", "outputs": [{"output_type": "pyout", "text": "2"}]}]}]}

    def generate(rng: random.Random, max_size: int) -> bytes:
        roll = rng.random()
        if roll < 0.6:
            value = rng.choice((seed, old))
            for _ in range(rng.randint(1, 4)):
                value = mutate_json(rng, value, max_size)
            return json.dumps(value).encode("utf-8", "surrogatepass")
        if roll < 0.7:
            return deep_text(rng, max_size).encode()
        return mutate_bytes(rng, json.dumps(seed).encode(), tuple(s.encode() for s in SYNTAX["json"]), max_size)

    def check(data: bytes) -> None:
        _call(parse_source, data, ".ipynb")

    return Target("load .ipynb", generate, check)


def _chunker_target() -> Target:
    from agentic_rag._ingest import ChunkOptions, chunk_sections, parse_source

    kinds = ("txt", "md", "rst", "html")
    seeds = {k: _seed_files(k) for k in kinds}

    def generate(rng: random.Random, max_size: int) -> tuple[bytes, str, int, int]:
        kind = rng.choice(kinds)
        if rng.random() < 0.5:
            data = rand_text(rng, SYNTAX[kind] + (". ", "! ", "\n\n"), max_size).encode("utf-8", "surrogatepass")
        else:
            data = mutate_bytes(rng, rng.choice(seeds[kind]), tuple(s.encode() for s in SYNTAX[kind]), max_size)
        max_words = rng.choice((1, 2, 3, 5, 8, 40, 180))
        return data, kind, max_words, rng.randint(0, max_words - 1)

    def check(case: tuple[bytes, str, int, int]) -> None:
        data, kind, max_words, overlap = case
        parsed = parse_source(data, "." + kind)
        chunks = _call(chunk_sections, parsed.sections, f"docs/file.{kind}", ChunkOptions(max_words, overlap))
        for chunk in chunks or ():
            if not 1 <= chunk.start_line <= chunk.end_line:
                raise Violation(f"chunk line range not 1 <= start <= end: {chunk.id} has lines {chunk.start_line}-{chunk.end_line}")

    return Target("chunker", generate, check)


def json_contracts() -> list[type]:
    """Every :class:`JsonContract` subclass in the package (every module imported first)."""
    from agentic_rag._contracts.serialization import JsonContract

    for info in pkgutil.walk_packages(agentic_rag.__path__, "agentic_rag."):
        importlib.import_module(info.name)
    found: dict[str, type] = {}
    stack = list(JsonContract.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if dataclasses.is_dataclass(cls):
            found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return [found[k] for k in sorted(found)]


def _value_for(hint: Any, rng: random.Random, depth: int) -> Any:
    """A plausible JSON value for a type hint (the shape ``from_dict`` expects)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return _value_for(rng.choice(args), rng, depth)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return [] if depth > 3 else [_value_for(args[0], rng, depth + 1) for _ in range(rng.randint(0, 2))]
        return [_value_for(a, rng, depth + 1) for a in args]
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return rng.choice(list(hint)).value
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _contract_dict(hint, rng, depth + 1)
    if hint is bool:
        return rng.random() < 0.5
    if hint is int:
        return rng.choice((0, 1, 2, 3, 5, 10, 100))
    if hint is float:
        return rng.choice((0.0, 0.25, 0.5, 1.0, 2.0, 10.0))
    if hint is str:
        return rng.choice(("a", "doc-1", "Jane Doe was born in Lyon.", "bm25", "c1", "What is X?"))
    if origin in (dict, Mapping) or hint in (dict, Mapping) or origin is typing.Mapping:
        return {"path": "a.md", "n": 1}
    return rand_json(rng, 3)


def _contract_dict(cls: type, rng: random.Random, depth: int = 0) -> dict[str, Any]:
    from agentic_rag._contracts.serialization import _hints

    hints = _hints(cls)
    out = {}
    for field in dataclasses.fields(cls):
        if not field.init:
            continue
        has_default = field.default is not dataclasses.MISSING or field.default_factory is not dataclasses.MISSING
        if has_default and rng.random() < 0.5:
            continue
        out[field.name] = _value_for(hints[field.name], rng, depth)
    return out


def _contracts_target() -> Target:
    contracts = json_contracts()

    def generate(rng: random.Random, max_size: int) -> tuple[str, Any]:
        cls = rng.choice(contracts)
        data: Any = _contract_dict(cls, rng)
        for _ in range(rng.choice((0, 1, 1, 2, 3))):
            data = mutate_json(rng, data, max_size)
        return f"{cls.__module__}.{cls.__qualname__}", data

    by_name = {f"{c.__module__}.{c.__qualname__}": c for c in contracts}

    def check(case: tuple[str, Any]) -> None:
        name, data = case
        cls = by_name[name]
        obj = _call(cls.from_dict, data)
        if obj is None:
            return
        try:
            text = json.dumps(obj.to_dict(), allow_nan=False, sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise Violation(f"from_dict accepts a value to_dict cannot write as strict JSON: {cls.__name__}: {exc}", variant=cls.__name__) from None
        again = _call(cls.from_dict, json.loads(text))
        if again is None or again != obj:
            raise Violation(f"from_dict(to_dict(x)) {'refuses' if again is None else 'differs from'} x: {cls.__name__}", variant=cls.__name__)

    return Target("contracts from_dict", generate, check)


def _saved_index_target(kind: str, workdir: Path) -> Target:
    import hashlib
    import struct

    from agentic_rag._retrieval import BM25Index, HashingEmbedder, VectorIndex
    from agentic_rag._samples import sample_documents

    documents = sample_documents()
    path = workdir / f"seed.{kind}"
    if kind == "bm25":
        BM25Index.from_documents(documents).save(path)
        load: Callable[[Path], Any] = BM25Index.load
    else:
        VectorIndex.from_documents(documents, HashingEmbedder(dimensions=256)).save(path)
        load = VectorIndex.load
    seed = path.read_bytes()
    prefix = struct.Struct("<8sIQ")
    magic, version, header_len = prefix.unpack_from(seed)
    header = json.loads(seed[prefix.size:prefix.size + header_len])
    # Format 2 ends with a SHA-256 of every byte before it; format 1 keeps a payload checksum
    # in the header. Either way the cases below are sealed again, so they get past it.
    trailer = hashlib.sha256(seed[:-32]).digest() == seed[-32:]
    payload = seed[prefix.size + header_len:len(seed) - 32 if trailer else len(seed)]
    target_path = workdir / f"case.{kind}"

    def seal(data: bytes) -> bytes:
        return data + hashlib.sha256(data).digest() if trailer else data

    def assemble(head: Any, body: bytes) -> bytes:
        raw = json.dumps(head, sort_keys=True).encode("utf-8", "surrogatepass")
        return seal(prefix.pack(magic, version, len(raw)) + raw + body)

    # A case is ("raw", bytes), ("sealed", bytes: raw edits, checksum trailer recomputed),
    # ("header", edited header), or ("payload", [(offset, bytes)]):
    # the last two are assembled with consistent lengths (and, for the payload, a recomputed
    # checksum), so they reach the code behind the checksum; they shrink as JSON, not as bytes.
    def generate(rng: random.Random, max_size: int) -> tuple[str, Any]:
        roll = rng.random()
        if roll < 0.3:  # raw bytes: mostly stopped by the checksum, unless sealed again
            body = seed[:-32] if trailer else seed
            edited = mutate_bytes(rng, body, (b"\x00", b"\xff" * 8, b"{", b'"', b"1e400", b"-1"), len(seed) + 1024)
            return ("sealed", edited) if trailer and rng.random() < 0.5 else ("raw", edited)
        if roll < 0.65:
            return "header", mutate_json(rng, header, max_size)
        edits = []
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(payload))
            if rng.random() < 0.7:
                edits.append((i, bytes([payload[i] ^ (1 << rng.randrange(8))])))
            else:
                edits.append((i, rng.choice((b"\xff\xff\xff\x7f", b"\x00\x00\x00\x80", b"\x00\x00\xc0\x7f", b"\x01\x00\x00\x00"))))
        return "payload", edits

    def file_bytes(case: tuple[str, Any]) -> bytes:
        mode, value = case
        if mode == "raw":
            return value
        if mode == "sealed":
            return seal(value)
        if mode == "header":
            return assemble(value, payload)
        body = bytearray(payload)
        for offset, blob in value:
            body[offset:offset + len(blob)] = blob
        head = dict(header, payload_length=len(body))
        if "payload_sha256" in header:
            head["payload_sha256"] = hashlib.sha256(body).hexdigest()
        return assemble(head, bytes(body))

    def check(case: tuple[str, Any]) -> None:
        target_path.write_bytes(file_bytes(case))
        index = _call(load, target_path)
        if index is not None:  # a file that loads must also answer
            _call(index.search, "Jane Doe born Lyon acme robotics", 5)

    return Target(f"{'BM25Index' if kind == 'bm25' else 'VectorIndex'}.load", generate, check)


def _mcp_target() -> Target:
    from agentic_rag._interfaces.mcp_demo import demo_tools
    from agentic_rag._interfaces.mcp_protocol import ErrorCode, McpServer

    escaped: list[BaseException] = []

    def guarded(handler: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], Any]:
        def run(arguments: dict[str, Any]) -> Any:
            try:
                return handler(arguments)
            except AgenticRAGError:
                raise
            except Exception as exc:  # the server turns it into a tool error; we want to see it
                escaped.append(exc)
                raise
        return run

    server = McpServer([dataclasses.replace(t, handler=guarded(t.handler)) for t in demo_tools()])
    codes = {int(c) for c in ErrorCode} - {int(ErrorCode.INTERNAL_ERROR)}
    meta = {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}
    seeds: list[dict[str, Any]] = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "f", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": "s", "method": "tools/list", "params": meta},
        {"jsonrpc": "2.0", "id": 3, "method": "ping"},
        {"jsonrpc": "2.0", "id": 4, "method": "server/discover", "params": {}},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "search", "arguments": {"query": "Jane Doe birth", "k": 3}}},
        {"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "search", "arguments": {"query": "acme", "k": 2, "corpus": "company-records"}}},
        {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "ask", "arguments": {"question": "Where was Jane Doe born?", "mode": "parallel"}}},
        {"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "list_corpora", "arguments": {}, **meta}},
        {"jsonrpc": "2.0", "id": 9, "result": {}},
    ]
    dictionary = (b"{", b"}", b"[", b"]", b'"', b"1e400", b"NaN", b"-", b"\\u0000", b"\\ud800", b"null", b",", b":")

    def leaf(rng: random.Random) -> Any:
        if rng.random() < 0.3:
            return rng.choice(("tools/call", "tools/list", "search", "ask", "list_corpora", "agentic", "parallel", "2.0", 2.0,
                               "2026-07-28", "x" * rng.choice((10, 5000)), 10**400, -1, 0, 10**6, 1e400))
        return rand_json(rng, 3)

    def generate(rng: random.Random, max_size: int) -> str | bytes:
        roll = rng.random()
        if roll < 0.5:
            message = mutate_json(rng, rng.choice(seeds), max_size, leaf)
            try:
                return json.dumps(message, ensure_ascii=rng.random() < 0.5)
            except (ValueError, RecursionError):
                return "{}"
        if roll < 0.55:
            return deep_text(rng, max_size)
        if roll < 0.65:  # a number literal JSON allows but Python reads as inf, -0 or a huge int
            text = json.dumps(rng.choice(seeds))
            numbers = list(re.finditer(r"-?\d+(\.\d+)?", text))
            literal = rng.choice(("1e400", "-1e400", "1E999", "-0", "0.0", "1.5", "9" * 5000, "1e-400", "2.0"))
            if numbers:
                match = rng.choice(numbers)
                return text[:match.start()] + literal + text[match.end():]
            return text
        seed = json.dumps(rng.choice(seeds)).encode()
        data = mutate_bytes(rng, seed, dictionary, max_size).replace(b"\n", b" ")
        return data if rng.random() < 0.5 else data.decode("utf-8", "replace")

    def check(line: str | bytes) -> None:
        escaped.clear()
        answer = server.handle_line(line)
        if escaped:
            exc = escaped[0]
            raise Violation(f"tool handler raised {type(exc).__name__}: {exc}") from exc
        if answer is None:
            return
        message = json.loads(answer)
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" or "id" not in message or ("result" in message) == ("error" in message):
            raise Violation(f"not a JSON-RPC response: {answer[:200]}")
        if "error" in message and message["error"].get("code") not in codes:
            raise Violation(f"error response {message['error'].get('code')}: {str(message['error'].get('message'))[:200]}")

    return Target("MCP handle_line", generate, check)


def _extract_json_target() -> Target:
    from agentic_rag.llm.structured import extract_json

    syntax = ("```json\n", "```", "```\n", "<think>", "</think>", "{", "}", "[", "]", '"a": 1', ",", "Here is the JSON:",
              '{"status": "answered"}', "[1, 2", '{"a": {"b": [', "\\", '"', "NaN", "1e400", "//", "/*", "*/")

    def generate(rng: random.Random, max_size: int) -> str:
        if rng.random() < 0.03:
            return "```json\n" + deep_text(rng, max_size) + "\n```"
        return rand_text(rng, syntax, max_size)

    return Target("llm extract_json", generate, lambda text: _call(extract_json, text))


def _schema_target() -> Target:
    from agentic_rag.llm.json_schema import check_schema, validate_json
    from agentic_rag.llm.schemas import ROLE_SPECS

    schemas = [spec.schema for spec in ROLE_SPECS]

    def schema_leaf(rng: random.Random) -> Any:
        return rng.choice(("string", "integer", "number", "object", "array", "boolean", "null", ["string", "null"], "date",
                           0, -1, 1.5, 10**400, "1", None, True, False, [], {}, {"type": "string"}, ["a", 1], "x"))

    def generate(rng: random.Random, max_size: int) -> tuple[Any, Any]:
        schema: Any = rng.choice(schemas)
        if rng.random() < 0.6:
            for _ in range(rng.randint(1, 3)):
                schema = mutate_json(rng, schema, max_size, schema_leaf)
        instance = rand_json(rng) if rng.random() < 0.5 else mutate_json(rng, _instance_for(schema, rng, 0), max_size)
        return schema, instance

    def check(case: tuple[Any, Any]) -> None:
        schema, instance = case
        if _accepts(check_schema, schema):
            errors = validate_json(instance, schema)
            if not isinstance(errors, list):
                raise Violation(f"validate_json returned {type(errors).__name__}")

    return Target("llm json_schema", generate, check)


def _accepts(check_schema: Callable[[Any], None], schema: Any) -> bool:
    try:
        check_schema(schema)
    except AgenticRAGError:
        return False
    return True


def _instance_for(schema: Any, rng: random.Random, depth: int) -> Any:
    """A value roughly shaped like ``schema`` (so mutations reach nested checks)."""
    if not isinstance(schema, Mapping) or depth > 5:
        return rand_json(rng, 3)
    if "enum" in schema and isinstance(schema["enum"], list) and schema["enum"]:
        return rng.choice(schema["enum"])
    kind = schema.get("type")
    kind = rng.choice(kind) if isinstance(kind, list) and kind else kind
    if kind == "object":
        props = schema.get("properties") if isinstance(schema.get("properties"), Mapping) else {}
        return {k: _instance_for(v, rng, depth + 1) for k, v in props.items()}
    if kind == "array":
        return [_instance_for(schema.get("items"), rng, depth + 1) for _ in range(rng.randint(0, 3))]
    plain = {"string": "text", "integer": 3, "number": 0.5, "boolean": True, "null": None}
    return plain[kind] if isinstance(kind, str) and kind in plain else rand_json(rng, 3)


def build_targets(workdir: str | os.PathLike[str] | None = None) -> list[Target]:
    """Every fuzz target, in report order; saved-index cases are written under ``workdir``."""
    folder = Path(workdir) if workdir is not None else Path(tempfile.mkdtemp(prefix="agentic-rag-fuzz-"))
    targets = [_loader_target(kind) for kind in ("txt", "md", "rst", "html", "json", "jsonl", "csv")]
    targets += [_docx_target(), _ipynb_target()]
    targets += structured_targets()
    targets += [_chunker_target(), _contracts_target(), _saved_index_target("bm25", folder), _saved_index_target("vector", folder),
                _mcp_target(), _extract_json_target(), _schema_target()]
    return targets
