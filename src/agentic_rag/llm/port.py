"""The ``LLM`` port and the small frozen types it speaks: messages, usage, completions.

One primitive, ``complete(messages, ...)``, is all a chat model has to offer; structured
output (:func:`agentic_rag.llm.structured.complete_json`) and every LLM-backed component are
written once on top of it, so an OpenAI-compatible server, Anthropic, a recording replay or a
:class:`~agentic_rag.llm.scripted.ScriptedLLM` can stand in the same slot.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, Union, runtime_checkable

from agentic_rag._contracts.validation import freeze_metadata, require_enum, require_int, require_number, require_text, thaw_json
from agentic_rag._errors import InvalidInputError
from agentic_rag._http.transport import HttpAttempt

__all__ = [
    "LLM",
    "Completion",
    "Message",
    "MessageLike",
    "MessageRole",
    "ResponseFormat",
    "ResponseFormatType",
    "TokenUsage",
    "check_messages",
    "check_sampling",
]


class MessageRole(str, enum.Enum):
    """Who speaks a chat message."""

    SYSTEM = "system"
    USER = "user"
    ASSISTANT = "assistant"


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message.

    Args:
        role: ``system``, ``user`` or ``assistant`` (a :class:`MessageRole` or its value).
        content: The message text.

    Raises:
        InvalidInputError: Unknown role or non-string content.
    """

    role: MessageRole
    content: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "role", require_enum(MessageRole, self.role, "Message.role", stage="llm"))
        require_text(self.content, "Message.content", stage="llm", allow_empty=True)

    @classmethod
    def system(cls, content: str) -> Message:
        """Return a system message."""
        return cls(MessageRole.SYSTEM, content)

    @classmethod
    def user(cls, content: str) -> Message:
        """Return a user message."""
        return cls(MessageRole.USER, content)

    @classmethod
    def assistant(cls, content: str) -> Message:
        """Return an assistant message."""
        return cls(MessageRole.ASSISTANT, content)

    def to_wire(self) -> dict[str, str]:
        """Return the ``{"role", "content"}`` object every chat API accepts."""
        return {"role": self.role.value, "content": self.content}


MessageLike = Union[Message, Mapping[str, Any]]
"""A :class:`Message` or the ``{"role": ..., "content": ...}`` dict every chat API takes."""

_MESSAGE_KEYS = ("role", "content")


def coerce_message(value: object, *, where: str = "message", stage: str = "llm") -> Message:
    """Return ``value`` as a :class:`Message`: a Message as it is, or a ``{"role", "content"}`` dict.

    A dict must hold exactly the keys ``role`` (``system``, ``user`` or ``assistant``) and
    ``content`` (a string, empty allowed). Other keys (``name``, ``tool_calls``...) are refused
    rather than dropped, since a message without them would not mean what its author meant; a
    list of content parts is refused too (join the text parts into one string first).

    Args:
        value: The message.
        where: How errors name it (``messages[2]``).
        stage: The stage errors name.

    Raises:
        InvalidInputError: Not a Message or a mapping, a missing or unknown key, an unknown
            role, or content that is not a string; the message names the key.
    """
    if isinstance(value, Message):
        return value
    if not isinstance(value, Mapping):
        raise InvalidInputError(f"{where} must be a Message or a {{'role': ..., 'content': ...}} dict, got {type(value).__name__} {value!r:.80}", stage=stage)
    missing = [key for key in _MESSAGE_KEYS if key not in value]
    if missing:
        raise InvalidInputError(f"{where} has no {missing[0]!r} key; a message dict needs 'role' and 'content', got keys {sorted(map(str, value))}", stage=stage)
    extra = sorted(str(key) for key in value if key not in _MESSAGE_KEYS)
    if extra:
        raise InvalidInputError(f"{where} has the unsupported key {extra[0]!r}; a message dict holds only 'role' and 'content', got keys {sorted(map(str, value))}", stage=stage)
    role, content = value["role"], value["content"]
    require_enum(MessageRole, role, f"{where}['role']", stage=stage)
    if not isinstance(content, str):
        hint = " (join the text parts into one string)" if isinstance(content, (list, tuple)) else ""
        raise InvalidInputError(f"{where}['content'] must be a string{hint}, got {type(content).__name__}", stage=stage)
    return Message(MessageRole(role), content)


def check_messages(messages: Sequence[MessageLike], *, stage: str) -> tuple[Message, ...]:
    """Return ``messages`` as a tuple of :class:`Message` after checking it.

    The one place every ``LLM`` implementation (and :func:`~agentic_rag.llm.structured.complete_json`)
    normalises its messages: items may be :class:`Message` objects or ``{"role", "content"}``
    dicts (see :func:`coerce_message`), mixed freely.

    Raises:
        InvalidInputError: Not a sequence, empty, or an item that is neither a Message nor a
            valid message dict (naming the item and the key).
    """
    if isinstance(messages, (str, bytes)) or isinstance(messages, Mapping) or not isinstance(messages, Sequence):
        raise InvalidInputError(f"messages must be a sequence of Message objects or {{'role', 'content'}} dicts, got {type(messages).__name__}", stage=stage)
    if not messages:
        raise InvalidInputError("messages must hold at least one message, got an empty sequence", stage=stage)
    return tuple(coerce_message(message, where=f"messages[{i}]", stage=stage) for i, message in enumerate(messages))


def check_sampling(temperature: object, max_tokens: object, *, stage: str) -> None:
    """Refuse a temperature outside [0, 2] or a ``max_tokens`` below 1.

    The one check every ``LLM`` implementation and every LLM-backed component applies to its
    sampling values (a provider with a narrower range, like Anthropic's [0, 1], adds its own).

    Raises:
        InvalidInputError: Either value is out of range or of the wrong type.
    """
    require_number(temperature, "temperature", minimum=0, maximum=2, stage=stage)
    require_int(max_tokens, "max_tokens", minimum=1, stage=stage)


@dataclass(frozen=True, slots=True)
class TokenUsage:
    """Tokens a call consumed.

    Args:
        prompt_tokens: Tokens in the request.
        completion_tokens: Tokens generated.
        estimated: True when the server reported no usage and the counts are estimates
            (about four characters a token), so token caps still hold.
    """

    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False

    def __post_init__(self) -> None:
        require_int(self.prompt_tokens, "TokenUsage.prompt_tokens", minimum=0, stage="llm")
        require_int(self.completion_tokens, "TokenUsage.completion_tokens", minimum=0, stage="llm")

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens


class ResponseFormatType(str, enum.Enum):
    """What shape the model is asked to answer in."""

    TEXT = "text"
    JSON_OBJECT = "json_object"
    JSON_SCHEMA = "json_schema"


@dataclass(frozen=True, slots=True)
class ResponseFormat:
    """A request for JSON output, optionally constrained by a JSON schema.

    Servers that support it enforce the format (OpenAI ``response_format``); the others get
    an instruction in the prompt. Either way the answer is validated afterwards.

    Args:
        type: ``text``, ``json_object`` or ``json_schema``.
        name: Schema name (``json_schema`` only; letters, digits, ``_`` and ``-``).
        schema: The JSON schema (``json_schema`` only).
        strict: Ask the server for strict schema adherence (OpenAI ``strict``).

    Raises:
        InvalidInputError: ``json_schema`` without a schema, or a schema on another type.
    """

    type: ResponseFormatType
    name: str = "response"
    schema: Mapping[str, Any] | None = None
    strict: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", ResponseFormatType(self.type))
        require_text(self.name, "ResponseFormat.name", stage="llm")
        if self.type is ResponseFormatType.JSON_SCHEMA:
            if not isinstance(self.schema, Mapping):
                raise InvalidInputError(f"a json_schema ResponseFormat needs a schema mapping, got {self.schema!r}", stage="llm")
            object.__setattr__(self, "schema", freeze_metadata(self.schema, "ResponseFormat.schema", stage="llm"))
        elif self.schema is not None:
            raise InvalidInputError(f"only a json_schema ResponseFormat takes a schema, got type {self.type.value!r}", stage="llm")

    @classmethod
    def json_object(cls) -> ResponseFormat:
        """Ask for any JSON object."""
        return cls(ResponseFormatType.JSON_OBJECT)

    @classmethod
    def json_schema(cls, name: str, schema: Mapping[str, Any], *, strict: bool = False) -> ResponseFormat:
        """Ask for JSON matching ``schema``."""
        return cls(ResponseFormatType.JSON_SCHEMA, name=name, schema=schema, strict=strict)

    @classmethod
    def coerce(cls, value: ResponseFormat | Mapping[str, Any] | None, *, stage: str = "llm") -> ResponseFormat | None:
        """Accept a :class:`ResponseFormat`, an OpenAI-shaped mapping or ``None``.

        The mappings ``{"type": "json_object"}`` and ``{"type": "json_schema", "json_schema":
        {"name", "schema", "strict"}}`` are what OpenAI's ``response_format`` takes.

        Raises:
            InvalidInputError: Any other value.
        """
        if value is None or isinstance(value, ResponseFormat):
            return value
        if not isinstance(value, Mapping) or value.get("type") not in {t.value for t in ResponseFormatType}:
            raise InvalidInputError(
                "response_format must be None, a ResponseFormat, {'type': 'json_object'} or "
                f"{{'type': 'json_schema', 'json_schema': {{...}}}}, got {value!r}",
                stage=stage,
            )
        kind = ResponseFormatType(value["type"])
        if kind is not ResponseFormatType.JSON_SCHEMA:
            return cls(kind)
        spec = value.get("json_schema")
        if not isinstance(spec, Mapping):
            raise InvalidInputError(f"a json_schema response_format needs a 'json_schema' object, got {spec!r}", stage=stage)
        return cls.json_schema(str(spec.get("name", "response")), spec.get("schema"), strict=bool(spec.get("strict", False)))

    def schema_dict(self) -> dict[str, Any] | None:
        """Return the schema as plain, mutable JSON data (or ``None``)."""
        return None if self.schema is None else thaw_json(self.schema)


@dataclass(frozen=True, slots=True)
class Completion:
    """A model's answer.

    Args:
        text: The generated text.
        usage: Tokens the call consumed.
        model: The model that answered (as the server names it).
        raw: The provider's response JSON, read-only.
        finish_reason: Why generation stopped (``stop``, ``length``, ``end_turn``...).
        attempts: Every HTTP attempt the call took (empty for in-process doubles).
    """

    text: str
    usage: TokenUsage = field(default_factory=TokenUsage)
    model: str = ""
    raw: Mapping[str, Any] = field(default_factory=dict)
    finish_reason: str = ""
    attempts: tuple[HttpAttempt, ...] = ()

    def __post_init__(self) -> None:
        require_text(self.text, "Completion.text", stage="llm", allow_empty=True)
        if not isinstance(self.usage, TokenUsage):
            raise InvalidInputError(f"Completion.usage must be a TokenUsage, got {self.usage!r}", stage="llm")
        object.__setattr__(self, "raw", freeze_metadata(self.raw, "Completion.raw", stage="llm"))
        object.__setattr__(self, "attempts", tuple(self.attempts))


@runtime_checkable
class LLM(Protocol):
    """A chat model: messages in, one completion out."""

    def complete(
        self,
        messages: Sequence[MessageLike],
        *,
        temperature: float = 0.0,
        max_tokens: int = 512,
        response_format: ResponseFormat | Mapping[str, Any] | None = None,
    ) -> Completion:
        """Return the model's answer to ``messages``.

        ``messages`` may mix :class:`Message` objects and ``{"role", "content"}`` dicts;
        implementations normalise them with :func:`check_messages` (a bad dict raises
        :class:`~agentic_rag._errors.InvalidInputError` naming the key). Implementations check the run's budget before the call and charge its usage after.
        """
        ...
