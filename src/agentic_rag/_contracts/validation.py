"""Field checks shared by every contract's ``__post_init__``.

Each check raises :class:`~agentic_rag._errors.InvalidInputError` naming the field, the bad
value and what was expected, so a contract refuses bad input where it is built.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, Literal, TypeGuard, TypeVar, overload

from agentic_rag._errors import BindingError, InvalidInputError

__all__ = [
    "freeze_metadata",
    "instance_tuple",
    "is_int",
    "is_number",
    "require_bool",
    "require_component",
    "require_enum",
    "require_fraction",
    "require_int",
    "require_number",
    "require_text",
    "require_unique",
    "text_tuple",
    "thaw_json",
]

_JSON_SCALARS = (str, int, float, bool, type(None))
_INT_TYPE = frozenset({int})

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


def is_int(value: object) -> TypeGuard[int]:
    """Whether ``value`` is an int and not a bool (``True`` is an int to Python, not to us)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> TypeGuard[int | float]:
    """Whether ``value`` is a finite int or float and not a bool (every int is finite, however
    large; ``math.isfinite`` would overflow on one beyond the float range)."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


def _bounds(minimum: float | None, maximum: float | None, above: float | None) -> str:
    """`` > a``, `` >= m``, `` and <= M``: the range a value must lie in, for an error message."""
    bound = (f" > {above}" if above is not None else "") + (f" >= {minimum}" if minimum is not None else "")
    if maximum is not None:
        bound += f" and <= {maximum}" if bound else f" <= {maximum}"
    return bound


@overload
def require_int(value: object, field: str, *, minimum: int | None = ..., maximum: int | None = ...,
                optional: Literal[False] = ..., stage: str = ...) -> int: ...
@overload
def require_int(value: object, field: str, *, minimum: int | None = ..., maximum: int | None = ...,
                optional: bool, stage: str = ...) -> int | None: ...
def require_int(value: object, field: str, *, minimum: int | None = None, maximum: int | None = None,
                optional: bool = False, stage: str = "contracts") -> int | None:
    """Return ``value`` if it is an int (not a bool) in ``[minimum, maximum]``.

    Args:
        value: The candidate value.
        field: Field name used in the error message.
        minimum: The smallest value accepted (``None``: no bound).
        maximum: The largest value accepted (``None``: no bound).
        optional: Accept ``None`` (returned as is).
        stage: Where the check runs, for the error.

    Returns:
        The int unchanged (or ``None`` when optional).

    Raises:
        InvalidInputError: Wrong type or out of range, naming the value and the range.
    """
    if value is None and optional:
        return None
    expected = f"an int{_bounds(minimum, maximum, None)}" + (" or None" if optional else "")
    if not is_int(value):
        raise InvalidInputError(f"{field} must be {expected}, got {type(value).__name__} {value!r}", stage=stage)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):  # type: ignore[operator]
        raise InvalidInputError(f"{field} must be {expected}, got {value!r}", stage=stage)
    return value  # type: ignore[return-value]


@overload
def require_number(value: object, field: str, *, minimum: float | None = ..., maximum: float | None = ...,
                   above: float | None = ..., optional: Literal[False] = ..., stage: str = ...) -> float: ...
@overload
def require_number(value: object, field: str, *, minimum: float | None = ..., maximum: float | None = ...,
                   above: float | None = ..., optional: bool, stage: str = ...) -> float | None: ...
def require_number(value: object, field: str, *, minimum: float | None = None, maximum: float | None = None,
                   above: float | None = None, optional: bool = False, stage: str = "contracts") -> float | None:
    """Return ``value`` as a float if it is a finite number (not a bool) within the bounds.

    Args:
        value: The candidate value.
        field: Field name used in the error message.
        minimum: The smallest value accepted (inclusive).
        maximum: The largest value accepted (inclusive).
        above: A value the number must exceed (an exclusive lower bound).
        optional: Accept ``None`` (returned as is).
        stage: Where the check runs, for the error.

    Returns:
        The number as a float (or ``None`` when optional).

    Raises:
        InvalidInputError: Not a number, NaN or infinite, or out of range, naming the value
            and the range.
    """
    if value is None and optional:
        return None
    expected = f"a finite number{_bounds(minimum, maximum, above)}" + (" or None" if optional else "")
    if not is_number(value):
        raise InvalidInputError(f"{field} must be {expected}, got {type(value).__name__} {value!r}", stage=stage)
    try:
        number = float(value)  # type: ignore[arg-type]
    except OverflowError:  # an int beyond the float range
        raise InvalidInputError(f"{field} must be {expected}, got an int of {len(str(value))} digits", stage=stage) from None
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum) or (above is not None and number <= above):
        raise InvalidInputError(f"{field} must be {expected}, got {value!r}", stage=stage)
    return number


def require_bool(value: object, field: str, *, optional: bool = False, stage: str = "contracts") -> bool | None:
    """Return ``value`` if it is a bool (``1`` and ``"yes"`` are not).

    Raises:
        InvalidInputError: Not a bool (nor ``None`` when optional).
    """
    if (value is None and optional) or isinstance(value, bool):
        return value  # type: ignore[return-value]
    raise InvalidInputError(f"{field} must be a bool{' or None' if optional else ''}, got {value!r}", stage=stage)


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


def require_component(component: object, slot: str, method: str, *, signature: str = "", required: bool = True,
                      hint: str = "", stage: str = "contracts") -> Any:
    """Return ``component`` if it fits ``slot``: one object with a callable ``method``.

    The one slot check of both workflows' constructors. A misfit raises
    :class:`~agentic_rag._errors.BindingError` (an ``InvalidInputError``: the component is
    bad input, and the more specific class says it is in the wrong slot or count).

    Args:
        component: The candidate component.
        slot: The slot's name (``retriever``, ``judge``, ``generator``...).
        method: The port method the slot calls.
        signature: How the method is called, for the message (default ``method()``).
        required: Refuse ``None`` (otherwise ``None`` leaves the slot empty).
        hint: Appended to the message when the method is missing (how to adapt a function).
        stage: Where the check runs, for the error.

    Returns:
        The component unchanged (``None`` for an empty optional slot).

    Raises:
        BindingError: ``None`` in a required slot, a list or tuple of components, or an
            object without the method.
    """
    takes = f"slot {slot!r} takes {'exactly one' if required else 'at most one'} object with {signature or method + '()'}"
    if component is None:
        if required:
            raise BindingError(f"{takes}; got None", stage=stage)
        return None
    if isinstance(component, (list, tuple)):
        raise BindingError(f"{takes}; got a {type(component).__name__} of {len(component)}", stage=stage)
    if not callable(getattr(component, method, None)):
        raise BindingError(f"{takes}; {type(component).__name__} has no {method} method{hint}", stage=stage)
    return component


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


def thaw_json(value: Any) -> Any:
    """Return a plain, mutable copy of JSON data frozen by ``freeze_metadata`` (mappings
    become dicts, tuples become lists)."""
    if isinstance(value, Mapping):
        return {k: thaw_json(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [thaw_json(v) for v in value]
    return value


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
        # A chunk's line map is a list of a few hundred ints, frozen for every hit a search
        # makes: their types are read in one pass without a call per element (a bool, an int
        # subclass, or anything else takes the long way).
        if set(map(type, value)) <= _INT_TYPE:
            return tuple(value)
        return tuple(_freeze(v, field, stage) for v in value)
    raise InvalidInputError(f"{field} values must be JSON-compatible, got {type(value).__name__} {value!r}", stage=stage)
