"""Field checks shared by every contract's ``__post_init__``.

Each check raises :class:`~agentic_rag._errors.InvalidInputError` naming the field, the bad
value and what was expected, so a contract refuses bad input where it is built.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, TypeVar

from agentic_rag._errors import InvalidInputError

__all__ = [
    "freeze_metadata",
    "instance_tuple",
    "require_enum",
    "require_fraction",
    "require_int",
    "require_text",
    "require_unique",
    "text_tuple",
]

_JSON_SCALARS = (str, int, float, bool, type(None))

E = TypeVar("E", bound=enum.Enum)
T = TypeVar("T")


def require_text(value: object, field: str, *, stage: str = "contracts", allow_empty: bool = False) -> str:
    """Return ``value`` if it is a string with non-whitespace content.

    Args:
        value: The candidate value.
        field: Field name used in the error message.
        stage: Where the check runs, for the error.
        allow_empty: Accept ``""`` (still refuses non-strings).

    Returns:
        The string unchanged.

    Raises:
        InvalidInputError: Not a string, or empty/whitespace when not allowed.
    """
    if not isinstance(value, str):
        raise InvalidInputError(f"{field} must be a string, got {type(value).__name__} {value!r}", stage=stage)
    if not allow_empty and not value.strip():
        raise InvalidInputError(f"{field} must be a non-empty string, got {value!r}", stage=stage)
    return value


def require_int(value: object, field: str, *, minimum: int | None = None, stage: str = "contracts") -> int:
    """Return ``value`` if it is an int (not a bool) of at least ``minimum``.

    Raises:
        InvalidInputError: Wrong type or below the minimum.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"{field} must be an int, got {type(value).__name__} {value!r}", stage=stage)
    if minimum is not None and value < minimum:
        raise InvalidInputError(f"{field} must be >= {minimum}, got {value!r}", stage=stage)
    return value


def require_fraction(value: object, field: str, *, stage: str = "contracts") -> float:
    """Return ``value`` as a float if it is a finite number in [0, 1].

    Raises:
        InvalidInputError: Not a number, NaN, or outside [0, 1].
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise InvalidInputError(f"{field} must be a number in [0, 1], got {value!r}", stage=stage)
    if not 0.0 <= value <= 1.0:
        raise InvalidInputError(f"{field} must be in [0, 1], got {value!r}", stage=stage)
    return float(value)


def text_tuple(values: Iterable[object] | str, field: str, *, stage: str = "contracts") -> tuple[str, ...]:
    """Return ``values`` as a tuple of non-empty strings.

    A bare string is refused because iterating it would silently split it into characters.

    Raises:
        InvalidInputError: ``values`` is a string or holds a non-string / empty string.
    """
    if isinstance(values, str):
        raise InvalidInputError(f"{field} must be a sequence of strings, not the string {values!r}", stage=stage)
    try:
        out = tuple(values)
    except TypeError:
        raise InvalidInputError(f"{field} must be a sequence of strings, got {type(values).__name__} {values!r}", stage=stage) from None
    for item in out:
        require_text(item, f"{field} item", stage=stage)
    return out


def instance_tuple(values: Iterable[object], cls: type[T], field: str, *, stage: str = "contracts") -> tuple[T, ...]:
    """Return ``values`` as a tuple whose items are all ``cls`` instances.

    Raises:
        InvalidInputError: ``values`` is not iterable, is a string, or holds another type.
    """
    if isinstance(values, (str, bytes, Mapping)):
        raise InvalidInputError(f"{field} must be a sequence of {cls.__name__}, got {type(values).__name__} {values!r}", stage=stage)
    try:
        out = tuple(values)
    except TypeError:
        raise InvalidInputError(f"{field} must be a sequence of {cls.__name__}, got {type(values).__name__} {values!r}", stage=stage) from None
    for item in out:
        if not isinstance(item, cls):
            raise InvalidInputError(f"{field} items must be {cls.__name__}, got {type(item).__name__} {item!r}", stage=stage)
    return out


def require_enum(enum_type: type[E], value: object, field: str, *, stage: str = "contracts") -> E:
    """Return ``value`` as a member of ``enum_type`` (members and their values are accepted).

    Raises:
        InvalidInputError: Not a member nor the value of one.
    """
    try:
        return enum_type(value)
    except (ValueError, TypeError):
        allowed = [m.value for m in enum_type]
        raise InvalidInputError(f"{field} must be one of {allowed}, got {value!r}", stage=stage) from None


def require_unique(ids: Iterable[str], field: str, *, stage: str = "contracts") -> None:
    """Refuse duplicate ids, naming the first duplicate found.

    Raises:
        InvalidInputError: An id occurs more than once.
    """
    seen: set[str] = set()
    for item in ids:
        if item in seen:
            raise InvalidInputError(f"duplicate {field} {item!r}; ids must be unique", stage=stage)
        seen.add(item)


def freeze_metadata(value: Mapping[str, Any] | None, field: str = "metadata", *, stage: str = "contracts") -> Mapping[str, Any]:
    """Return a read-only copy of a JSON-compatible mapping with string keys.

    Nested lists become tuples and nested mappings become read-only, so a frozen contract
    cannot be changed through its metadata.

    Raises:
        InvalidInputError: Not a mapping, a non-string key, or a value JSON cannot hold.
    """
    if value is None:
        return MappingProxyType({})
    if not isinstance(value, Mapping):
        raise InvalidInputError(f"{field} must be a mapping, got {type(value).__name__}", stage=stage)
    return MappingProxyType({_key(k, field, stage): _freeze(v, field, stage) for k, v in value.items()})


def _key(key: object, field: str, stage: str) -> str:
    if not isinstance(key, str):
        raise InvalidInputError(f"{field} keys must be strings, got {key!r}", stage=stage)
    return key


def _freeze(value: object, field: str, stage: str) -> Any:
    if isinstance(value, _JSON_SCALARS):
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidInputError(f"{field} values must be finite, got {value!r}", stage=stage)
        return value
    if isinstance(value, Mapping):
        return MappingProxyType({_key(k, field, stage): _freeze(v, field, stage) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v, field, stage) for v in value)
    raise InvalidInputError(f"{field} values must be JSON-compatible, got {type(value).__name__} {value!r}", stage=stage)
