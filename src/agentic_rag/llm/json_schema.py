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

from agentic_rag.errors import InvalidInputError

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


def check_schema(schema: Mapping[str, Any], path: str = "#") -> None:
    """Refuse a schema that uses keywords or types this validator does not implement.

    Args:
        schema: The schema.
        path: Where in the schema we are (for the message).

    Raises:
        InvalidInputError: An unsupported keyword, an unknown type name, or a malformed value.
    """
    if not isinstance(schema, Mapping):
        raise InvalidInputError(f"schema at {path} must be an object, got {type(schema).__name__}", stage="structured")
    unknown = sorted(set(schema) - SUPPORTED_KEYWORDS)
    if unknown:
        raise InvalidInputError(f"schema at {path} uses unsupported keywords {unknown}; supported: {sorted(SUPPORTED_KEYWORDS)}", stage="structured")
    types = schema.get("type")
    for name in (types,) if isinstance(types, str) else (types or ()):
        if name not in _TYPES:
            raise InvalidInputError(f"schema at {path} has unknown type {name!r}; expected one of {list(_TYPES)}", stage="structured")
    for name, sub in (schema.get("properties") or {}).items():
        check_schema(sub, f"{path}/properties/{name}")
    required = schema.get("required", ())
    if isinstance(required, str) or not all(isinstance(r, str) for r in required):
        raise InvalidInputError(f"schema at {path} has 'required' {required!r}; expected a list of names", stage="structured")
    extra = schema.get("additionalProperties", True)
    if isinstance(extra, Mapping):
        check_schema(extra, f"{path}/additionalProperties")
    elif not isinstance(extra, bool):
        raise InvalidInputError(f"schema at {path} has additionalProperties {extra!r}; expected a bool or a schema", stage="structured")
    if "items" in schema:
        check_schema(schema["items"], f"{path}/items")


def _type_ok(value: Any, name: str) -> bool:
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, float) and value.is_integer())
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    return isinstance(value, dict)  # object


def validate_json(instance: Any, schema: Mapping[str, Any], path: str = "$") -> list[str]:
    """Return every violation of ``schema`` by ``instance``, each naming its JSON path.

    Args:
        instance: Parsed JSON.
        schema: A schema in the supported subset (see :func:`check_schema`).
        path: The path of ``instance`` used in messages.

    Returns:
        Messages such as ``"$.facts[0].priority: 'high' is not one of ['must', 'should',
        'may']"``; an empty list when the instance is valid.
    """
    errors: list[str] = []
    types = schema.get("type")
    if types is not None:
        names = (types,) if isinstance(types, str) else tuple(types)
        if not any(_type_ok(instance, n) for n in names):
            shown = names[0] if len(names) == 1 else " or ".join(names)
            return [f"{path}: expected {shown}, got {_kind(instance)} {_short(instance)}"]
    if "enum" in schema and instance not in list(schema["enum"]):
        errors.append(f"{path}: {_short(instance)} is not one of {list(schema['enum'])}")
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
                errors.extend(validate_json(item, schema["items"], f"{path}[{i}]"))
    if isinstance(instance, dict):
        properties = schema.get("properties") or {}
        for name in schema.get("required", ()):
            if name not in instance:
                errors.append(f"{path}: missing required property {name!r}")
        extra = schema.get("additionalProperties", True)
        for name in sorted(instance):
            sub = f"{path}.{name}"
            if name in properties:
                errors.extend(validate_json(instance[name], properties[name], sub))
            elif extra is False:
                errors.append(f"{path}: unexpected property {name!r}; allowed: {sorted(properties)}")
            elif isinstance(extra, Mapping):
                errors.extend(validate_json(instance[name], extra, sub))
    return errors


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
