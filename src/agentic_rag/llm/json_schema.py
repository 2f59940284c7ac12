"""A standard-library validator for the JSON-schema subset the role schemas use.

Supported keywords: ``type`` (one name or a list), ``properties``, ``required``,
``additionalProperties`` (``false`` or a schema), ``items``, ``enum``, ``minimum``,
``maximum``, ``minLength``, ``maxLength``, ``minItems``, ``maxItems``, plus the annotations
``title``, ``description`` and ``default``. :func:`check_schema` refuses any other keyword, so
a schema can never silently ask for a check that is not made.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from agentic_rag._contracts.validation import is_int
from agentic_rag._errors import InvalidInputError

__all__ = ["SUPPORTED_KEYWORDS", "check_schema", "validate_json"]

SUPPORTED_KEYWORDS = frozenset({
    "additionalProperties",
    "default",
    "description",
    "enum",
    "items",
    "maxItems",
    "maxLength",
    "maximum",
    "minItems",
    "minLength",
    "minimum",
    "properties",
    "required",
    "title",
    "type",
})
_TYPES = ("array", "boolean", "integer", "null", "number", "object", "string")
_MAX_DEPTH = 64


def check_schema(schema: Mapping[str, Any], path: str = "#") -> None:
    """Refuse a schema that uses keywords, types or keyword values this validator does not implement.

    Every keyword value is checked here, so :func:`validate_json` never meets a malformed one:
    ``type`` is a name or a non-empty list of names, ``properties`` maps names to schemas,
    ``required`` is a list of names, ``enum`` a non-empty list, the length and item counts are
    non-negative integers, ``minimum``/``maximum`` finite numbers, ``items`` a schema,
    ``additionalProperties`` a bool or a schema, ``title``/``description`` strings.

    Args:
        schema: The schema.
        path: Where in the schema we are (for the message).

    Raises:
        InvalidInputError: An unsupported keyword, an unknown type name, a malformed value, or
            schemas nested deeper than 64 levels (a cyclic schema among them).
    """
    _check(schema, path, 0)


def _refuse(path: str, message: str) -> InvalidInputError:
    return InvalidInputError(f"schema at {path} {message}", stage="structured")


def _is_list(value: Any) -> bool:
    return isinstance(value, (list, tuple))


def _check(schema: Any, path: str, depth: int) -> None:
    if depth > _MAX_DEPTH:
        raise _refuse(path, f"is nested more than {_MAX_DEPTH} schemas deep (or refers to itself)")
    if not isinstance(schema, Mapping):
        raise _refuse(path, f"must be an object, got {type(schema).__name__} {_short(schema)}")
    unknown = [key for key in schema if key not in SUPPORTED_KEYWORDS]
    if unknown:
        raise _refuse(path, f"uses unsupported keywords {sorted(unknown, key=repr)}; supported: {sorted(SUPPORTED_KEYWORDS)}")
    if "type" in schema:
        types = schema["type"]
        names = [types] if isinstance(types, str) else list(types) if _is_list(types) else None
        if not names or not all(isinstance(n, str) and n in _TYPES for n in names):
            raise _refuse(path, f"has 'type' {_short(types)}; expected one of {list(_TYPES)} or a non-empty list of them")
    for key in ("title", "description"):
        if key in schema and not isinstance(schema[key], str):
            raise _refuse(path, f"has {key!r} {_short(schema[key])}; expected a string")
    if "enum" in schema and not (_is_list(schema["enum"]) and schema["enum"]):
        raise _refuse(path, f"has 'enum' {_short(schema['enum'])}; expected a non-empty list of values")
    if "required" in schema:
        required = schema["required"]
        if not (_is_list(required) and all(isinstance(r, str) for r in required)):
            raise _refuse(path, f"has 'required' {_short(required)}; expected a list of names")
    for key in ("minLength", "maxLength", "minItems", "maxItems"):
        if key in schema:
            value = schema[key]
            if not is_int(value) or value < 0:
                raise _refuse(path, f"has {key!r} {_short(value)}; expected a non-negative integer")
    for key in ("minimum", "maximum"):
        if key in schema and not _is_number(schema[key]):
            raise _refuse(path, f"has {key!r} {_short(schema[key])}; expected a finite number")
    if "properties" in schema:
        properties = schema["properties"]
        if not isinstance(properties, Mapping):
            raise _refuse(path, f"has 'properties' {_short(properties)}; expected an object mapping names to schemas")
        for name, sub in properties.items():
            if not isinstance(name, str):
                raise _refuse(path, f"has a property named {_short(name)}; expected string names")
            _check(sub, f"{path}/properties/{name}", depth + 1)
    extra = schema.get("additionalProperties", True)
    if isinstance(extra, Mapping):
        _check(extra, f"{path}/additionalProperties", depth + 1)
    elif not isinstance(extra, bool):
        raise _refuse(path, f"has 'additionalProperties' {_short(extra)}; expected a bool or a schema")
    if "items" in schema:
        _check(schema["items"], f"{path}/items", depth + 1)


def _is_number(value: Any) -> bool:
    """A finite JSON number (an int of any size is finite; ``math.isfinite`` would overflow)."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


def _type_ok(value: Any, name: str) -> bool:
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return is_int(value) or (isinstance(value, float) and value.is_integer())
    if name == "number":
        return _is_number(value)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    return isinstance(value, dict)  # object


def validate_json(instance: Any, schema: Mapping[str, Any], path: str = "$") -> list[str]:
    """Return every violation of ``schema`` by ``instance``, each naming its JSON path.

    Args:
        instance: Parsed JSON.
        schema: A schema in the supported subset (checked first with :func:`check_schema`).
        path: The path of ``instance`` used in messages.

    Returns:
        Messages such as ``"$.facts[0].priority: 'high' is not one of ['must', 'should',
        'may']"``; an empty list when the instance is valid.

    Raises:
        InvalidInputError: ``schema`` is outside the supported subset.
    """
    check_schema(schema)
    return _validate(instance, schema, path)


def _validate(instance: Any, schema: Mapping[str, Any], path: str) -> list[str]:
    errors: list[str] = []
    types = schema.get("type")
    if types is not None:
        names = (types,) if isinstance(types, str) else tuple(types)
        if not any(_type_ok(instance, n) for n in names):
            shown = names[0] if len(names) == 1 else " or ".join(names)
            return [f"{path}: expected {shown}, got {_kind(instance)} {_short(instance)}"]
    if "enum" in schema and not _one_of(instance, schema["enum"]):
        errors.append(f"{path}: {_short(instance)} is not one of {_show(list(schema['enum']))}")
    if isinstance(instance, (int, float)) and not isinstance(instance, bool):
        if "minimum" in schema and instance < schema["minimum"]:
            errors.append(f"{path}: {instance!r} is below the minimum {schema['minimum']!r}")
        if "maximum" in schema and instance > schema["maximum"]:
            errors.append(f"{path}: {instance!r} is above the maximum {schema['maximum']!r}")
    if isinstance(instance, str):
        if "minLength" in schema and len(instance) < schema["minLength"]:
            errors.append(f"{path}: string of length {len(instance)} is shorter than minLength {schema['minLength']}")
        if "maxLength" in schema and len(instance) > schema["maxLength"]:
            errors.append(f"{path}: string of length {len(instance)} is longer than maxLength {schema['maxLength']}")
    if isinstance(instance, list):
        if "minItems" in schema and len(instance) < schema["minItems"]:
            errors.append(f"{path}: {len(instance)} items, fewer than minItems {schema['minItems']}")
        if "maxItems" in schema and len(instance) > schema["maxItems"]:
            errors.append(f"{path}: {len(instance)} items, more than maxItems {schema['maxItems']}")
        if "items" in schema:
            for i, item in enumerate(instance):
                errors.extend(_validate(item, schema["items"], f"{path}[{i}]"))
    if isinstance(instance, dict):
        properties = schema.get("properties") or {}
        for name in schema.get("required", ()):
            if name not in instance:
                errors.append(f"{path}: missing required property {name!r}")
        extra = schema.get("additionalProperties", True)
        for name in sorted(instance, key=_key_order):
            sub = f"{path}.{name}"
            if name in properties:
                errors.extend(_validate(instance[name], properties[name], sub))
            elif extra is False:
                errors.append(f"{path}: unexpected property {name!r}; allowed: {sorted(properties)}")
            elif isinstance(extra, Mapping):
                errors.extend(_validate(instance[name], extra, sub))
    return errors


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}.get(type(value), type(value).__name__)


def _one_of(value: Any, allowed: Any) -> bool:
    try:
        return value in list(allowed)
    except RecursionError:  # nested deeper than Python compares: equal to nothing a schema lists
        return False


def _key_order(key: Any) -> tuple[int, str]:
    # JSON keys are strings; a Python caller's other keys sort after them instead of raising.
    return (0, key) if isinstance(key, str) else (1, _show(key))


def _show(value: Any) -> str:
    try:
        return repr(value)
    except RecursionError:
        return f"<{_kind(value)} nested too deeply to show>"


def _short(value: Any) -> str:
    text = _show(value)
    return text if len(text) <= 60 else text[:57] + "..."
