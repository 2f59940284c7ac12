"""One ``to_dict`` / ``from_dict`` pair for every contract, driven by the type hints.

Every contract inherits :class:`JsonContract`, so ``RunResult.from_dict(run.to_dict())``
rebuilds an equal object and ``json.dumps(run.to_dict(), sort_keys=True)`` is stable byte
for byte. Enums are written as their values, tuples as lists, metadata as plain dicts.

``from_dict`` is strict about types, by the type hints: a bool field takes only ``true`` or
``false``, a string field only a string, an int field an integer, a float field a finite
number (an integer too), and ``null`` only where the field is optional. Nothing is coerced or
filled in, so data that ``to_dict`` could not have written is refused with an
:class:`~agentic_rag._errors.InvalidInputError` naming the field and the value.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import types
import typing
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, TypeVar

from agentic_rag._contracts.validation import is_int, is_number
from agentic_rag._errors import InvalidInputError

__all__ = ["JsonContract", "contract_from_dict", "contract_to_dict"]

T = TypeVar("T", bound="JsonContract")


class JsonContract:
    """Mixin giving a frozen dataclass a JSON-compatible ``to_dict`` / ``from_dict`` pair."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        """Return the contract as plain JSON-compatible data (dicts, lists, scalars)."""
        return contract_to_dict(self)

    @classmethod
    def from_dict(cls: type[T], data: Mapping[str, Any]) -> T:
        """Rebuild a contract from :meth:`to_dict` output.

        Args:
            data: A mapping as produced by ``to_dict`` (or parsed back from JSON).

        Returns:
            An equal contract instance; ``__post_init__`` validation runs again.

        Raises:
            InvalidInputError: ``data`` misses a required field or holds a wrong type.
        """
        return contract_from_dict(cls, data)


def contract_to_dict(obj: Any) -> Any:
    """Convert a contract (or any value inside one) to JSON-compatible data."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: contract_to_dict(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.init}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, Mapping):
        return {str(k): contract_to_dict(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [contract_to_dict(v) for v in obj]
    return obj


@lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    module = sys.modules[cls.__module__]
    return typing.get_type_hints(cls, vars(module))


def contract_from_dict(cls: type[T], data: Mapping[str, Any]) -> T:
    """Build ``cls`` from JSON-compatible data, converting nested fields by their type hints.

    Raises:
        InvalidInputError: Missing fields, unknown fields or values of the wrong shape.
    """
    if not isinstance(data, Mapping):
        raise InvalidInputError(f"{cls.__name__}.from_dict expects a mapping, got {type(data).__name__}", stage="serialization")
    hints = _hints(cls)
    names = {f.name for f in dataclasses.fields(cls) if f.init}
    unknown = sorted(set(data) - names)
    if unknown:
        raise InvalidInputError(f"{cls.__name__}.from_dict got unknown fields {unknown}; expected some of {sorted(names)}", stage="serialization")
    kwargs = {name: _convert(hints[name], value, f"{cls.__name__}.{name}") for name, value in data.items()}
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise InvalidInputError(f"{cls.__name__}.from_dict: {exc}", stage="serialization") from exc


def _type_name(hint: Any) -> str:
    if hint is type(None):
        return "null"
    return _EXPECTED.get(hint, getattr(hint, "__name__", str(hint)))


_EXPECTED = {bool: "a bool", str: "a string", int: "an int", float: "a finite number"}


def _scalar(hint: Any, value: Any, where: str) -> Any:
    """Check a JSON scalar against its field's type: no bool for a number, no number for a
    bool or a string, no NaN or infinity (``to_dict`` output must stay strict JSON)."""
    if hint is bool:
        ok = isinstance(value, bool)
    elif hint is str:
        ok = isinstance(value, str)
    elif hint is int:
        ok = is_int(value)
    else:
        ok = is_number(value)
    if not ok:
        raise InvalidInputError(f"{where} must be {_EXPECTED[hint]}, got {type(value).__name__} {value!r}", stage="serialization")
    return value


def _convert(hint: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        options = [arg for arg in args if arg is not type(None)]
        if len(options) == 1:  # an optional field: the one type's own error says most
            if value is None:
                raise InvalidInputError(f"{where} must be {_type_name(options[0])} or null, got None", stage="serialization")
            return _convert(options[0], value, where)
        for arg in options:
            try:
                return _convert(arg, value, where)
            except (InvalidInputError, ValueError, TypeError):
                continue
        raise InvalidInputError(f"{where} must be one of {[_type_name(a) for a in args]}, got {type(value).__name__} {value!r}", stage="serialization")
    if hint in _EXPECTED:
        return _scalar(hint, value, where)
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise InvalidInputError(f"{where}: expected a list, got {type(value).__name__}", stage="serialization")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(args[0], v, where) for v in value)
        if len(value) != len(args):
            raise InvalidInputError(f"{where}: expected {len(args)} items, got {value!r}", stage="serialization")
        return tuple(_convert(a, v, where) for a, v in zip(args, value))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except (ValueError, TypeError):
            raise InvalidInputError(f"{where}: expected one of {[m.value for m in hint]}, got {value!r}", stage="serialization") from None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if isinstance(value, hint):
            return value
        if issubclass(hint, JsonContract):
            return hint.from_dict(value)  # a contract's own from_dict checks run when nested too
        return contract_from_dict(hint, value)
    return value
