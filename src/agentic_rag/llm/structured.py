"""Structured output: tolerant JSON extraction and ``complete_json`` with one repair round.

Models wrap JSON in code fences, open with "Here is the JSON:", add a closing remark, or
think aloud in ``<think>`` blocks first; :func:`extract_json` finds the JSON value anyway.
:func:`complete_json` asks for the schema (natively where the server can enforce it, and in
the prompt for every server), validates the answer, and when it is invalid sends one repair
round that shows the model its validation errors. If that fails too it raises
:class:`~agentic_rag._errors.StructuredOutputError` carrying the errors; the caller decides
the fallback (a deterministic component, or a clear error). A malformed answer is never
returned as if it were valid.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from agentic_rag._contracts.validation import require_int, thaw_json
from agentic_rag._errors import InvalidInputError, StructuredOutputError
from agentic_rag.llm.json_schema import check_schema, validate_json
from agentic_rag.llm.port import LLM, Message, MessageRole, ResponseFormat, check_messages

__all__ = ["complete_json", "extract_json", "schema_instruction"]

_FENCE_RE = re.compile(r"```[ \t]*(?:json|JSON|jsonc)?[ \t]*\n?(.*?)```", re.DOTALL)
_THINK_OPEN_RE = re.compile(r"<think>", re.IGNORECASE)
_THINK_CLOSE_RE = re.compile(r"</think>", re.IGNORECASE)
_MAX_START_POSITIONS = 200
_MAX_ERRORS_SHOWN = 8
_DEFAULT = object()


def extract_json(text: str) -> Any:
    """Return the first JSON object or array in ``text``.

    Tolerates ``<think>`` blocks, Markdown code fences, prose before the value and text after
    it (the value is decoded with ``raw_decode`` from its first character). An answer that
    opens with a JSON value is that value, even when its strings hold code fences. A ``<think>`` block
    left open before the answer has started (the length limit cut the reasoning off) leaves no
    answer: JSON inside the reasoning is never taken for it.

    Args:
        text: The model's answer.

    Returns:
        The decoded value (a dict or a list).

    Raises:
        StructuredOutputError: No JSON object or array could be decoded.
    """
    if not isinstance(text, str):
        raise StructuredOutputError(f"expected the answer as text, got {type(text).__name__}", stage="structured")
    cleaned = _without_thinking(text)
    decoder = json.JSONDecoder()
    # An answer that is a JSON value from its first character is that value, whatever its
    # strings hold: a quote of a Markdown example holds code fences, and the fenced text inside
    # it ("[1]") is no answer.
    start = len(cleaned) - len(cleaned.lstrip())
    if cleaned[start:start + 1] in ("{", "["):
        try:
            value, _ = decoder.raw_decode(cleaned, start)
        except (ValueError, RecursionError):
            pass
        else:
            if isinstance(value, (dict, list)):
                return value
    sources = [m.group(1) for m in _FENCE_RE.finditer(cleaned)] + [cleaned]
    for source in sources:
        tried = 0
        for match in re.finditer(r"[{\[]", source):
            if tried >= _MAX_START_POSITIONS:
                break
            tried += 1
            try:
                value, _ = decoder.raw_decode(source, match.start())
            except (ValueError, RecursionError):  # RecursionError: nested deeper than the decoder goes
                continue
            if isinstance(value, (dict, list)):
                return value
    shown = " ".join(text.split())[:80]
    raise StructuredOutputError(f"no JSON object found in the answer {shown!r}", stage="structured")


def _without_thinking(text: str) -> str:
    """Drop every closed ``<think>`` block, and everything after one left open at the start.

    One forward pass: each search starts where the last one ended, so unclosed tags cost no
    rescans. A tag inside or after the answer (once non-space text is kept) is kept as text.
    """
    kept: list[str] = []
    pos = 0
    while (opening := _THINK_OPEN_RE.search(text, pos)) is not None:
        closing = _THINK_CLOSE_RE.search(text, opening.end())
        if closing is None:
            before = text[pos:opening.start()]
            if any(part.strip() for part in kept) or before.strip():
                break  # the answer has started: the unclosed tag is part of it
            return ""  # reasoning cut off before any answer
        kept.append(text[pos:opening.start()])
        pos = closing.end()
    kept.append(text[pos:])
    return "".join(kept)


def schema_instruction(schema: Mapping[str, Any]) -> str:
    """Return the prompt text that asks for one JSON object matching ``schema``."""
    body = json.dumps(thaw_json(schema), indent=2, ensure_ascii=False)
    return (
        "Answer with exactly one JSON object that matches this JSON schema, and nothing else "
        f"(no prose, no code fences):\n{body}"
    )


def _with_schema(messages: tuple[Message, ...], schema: Mapping[str, Any]) -> list[Message]:
    instruction = schema_instruction(schema)
    out = list(messages)
    for i, message in enumerate(out):
        if message.role is MessageRole.SYSTEM:
            out[i] = Message.system(f"{message.content}\n\n{instruction}")
            return out
    return [Message.system(instruction), *out]


def _repair_prompt(errors: Sequence[str], truncated: bool) -> str:
    shown = "\n".join(f"- {e}" for e in errors[:_MAX_ERRORS_SHOWN])
    more = f"\n- ... and {len(errors) - _MAX_ERRORS_SHOWN} more" if len(errors) > _MAX_ERRORS_SHOWN else ""
    cut = "\nYour answer was cut off by the length limit: answer more briefly." if truncated else ""
    return (
        "Your previous answer is not valid for the required JSON schema. Problems:\n"
        f"{shown}{more}{cut}\n"
        "Answer again with only the corrected JSON object."
    )


def complete_json(
    llm: LLM,
    messages: Sequence[Message],
    schema: Mapping[str, Any],
    *,
    repair_rounds: int = 1,
    name: str = "response",
    temperature: float = 0.0,
    max_tokens: int = 1024,
    response_format: ResponseFormat | object | None = _DEFAULT,
    schema_in_prompt: bool = True,
) -> dict[str, Any]:
    """Ask ``llm`` for a JSON object valid for ``schema``, repairing once if needed.

    Args:
        llm: Any :class:`~agentic_rag.llm.port.LLM`.
        messages: The role's prompt.
        schema: A JSON schema in the supported subset with a top-level object type.
        repair_rounds: How many times an invalid answer is sent back with its errors.
        name: Schema name for the server's ``json_schema`` format and for messages.
        temperature: Sampling temperature.
        max_tokens: Cap on generated tokens per call.
        response_format: Override the native format (default: this schema as
            ``json_schema``; ``None`` sends no format).
        schema_in_prompt: Also state the schema in the system prompt, for servers that
            ignore native formats.

    Returns:
        The validated object.

    Raises:
        InvalidInputError: A schema outside the supported subset, or bad arguments.
        StructuredOutputError: Still invalid after the repair rounds; ``.errors`` lists the
            validation errors and ``.text`` holds the last answer.
        BudgetExhaustedError: The run's budget stopped a call (nothing is retried then).
        ProviderError: The model call itself failed.
    """
    check_schema(schema)
    if schema.get("type") != "object":
        raise InvalidInputError(f"complete_json needs a schema whose type is 'object', got {schema.get('type')!r}", stage="structured")
    require_int(repair_rounds, "repair_rounds", minimum=0, stage="structured")
    msgs = check_messages(messages, stage="structured")
    fmt = ResponseFormat.json_schema(name, schema) if response_format is _DEFAULT else ResponseFormat.coerce(response_format)  # type: ignore[arg-type]
    conversation = _with_schema(msgs, schema) if schema_in_prompt else list(msgs)
    errors: list[str] = []
    text = ""
    for round_index in range(repair_rounds + 1):
        completion = llm.complete(conversation, temperature=temperature, max_tokens=max_tokens, response_format=fmt)
        text = completion.text
        try:
            value = extract_json(text)
        except StructuredOutputError as exc:
            errors = [exc.message]
        else:
            errors = validate_json(value, schema)
            if not errors:
                return value
        if round_index < repair_rounds:
            truncated = completion.finish_reason in {"length", "max_tokens"}
            conversation = [*conversation, Message.assistant(text), Message.user(_repair_prompt(errors, truncated))]
    rounds = f"{repair_rounds} repair round" + ("" if repair_rounds == 1 else "s")
    shown = "; ".join(errors[:_MAX_ERRORS_SHOWN])
    failure = StructuredOutputError(f"{name}: the model's answer is still invalid after {rounds}: {shown}", stage="structured")
    failure.errors = tuple(errors)  # type: ignore[attr-defined]
    failure.text = text  # type: ignore[attr-defined]
    raise failure
