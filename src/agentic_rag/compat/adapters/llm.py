"""The scaffold's structured-output helpers (``agentic_rag.adapters.llm``).

A registry of JSON schemas for the scaffold's four model-facing contracts; mappings are
checked with the library's JSON-schema validator (:func:`agentic_rag.llm.json_schema.validate_json`)
and built with the contracts' own ``from_dict``. ``SchemaValidationError`` is the library's
:class:`~agentic_rag.StructuredOutputError`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from agentic_rag._contracts.serialization import contract_from_dict, contract_to_dict
from agentic_rag._errors import InvalidInputError, StructuredOutputError
from agentic_rag.compat import contracts as old
from agentic_rag.llm.json_schema import validate_json

__all__ = [
    "SchemaValidationError",
    "StructuredOutputRepairRequest",
    "StructuredSchema",
    "get_schema",
    "parse_structured_output",
    "parse_structured_output_with_repair",
    "to_dataclass",
    "to_mapping",
]

#: Raised when a model's output is not valid for its schema (the library's error).
SchemaValidationError = StructuredOutputError

_STR = {"type": "string"}
_IDS = {"type": "array", "items": _STR}


def _obj(required: tuple[str, ...], **properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False}


def _enum(enum_type: Any) -> dict[str, Any]:
    return {"type": "string", "enum": [m.value for m in enum_type]}


_FACT = _obj(("id", "description"), id=_STR, description=_STR, priority={"type": "string", "enum": ["must", "should", "may"]})
_ROUTE = _obj(("fact_id", "candidate_corpus_ids"), fact_id=_STR, candidate_corpus_ids=_IDS, reason=_STR)
_SUBQUERY = _obj(("id", "fact_id", "query", "target_corpus_ids"), id=_STR, fact_id=_STR, query=_STR, target_corpus_ids=_IDS,
                 reason=_STR, parent_query={"type": ["string", "null"]}, iteration={"type": "integer", "minimum": 0})
_GROUP = _obj(("label", "snippet_ids"), label=_STR, snippet_ids=_IDS, value=_STR)
_CONFLICT = _obj(("fact_id", "groups"), fact_id=_STR, groups={"type": "array", "items": _GROUP}, reason=_STR)
_CONFLICTS = {"type": "array", "items": _CONFLICT}
_SCORE = {"type": "number", "minimum": 0, "maximum": 1}


@dataclass(frozen=True, slots=True)
class StructuredSchema:
    """A registered schema: its name, the contract it builds and its JSON schema."""

    name: str
    target_type: type
    json_schema: Mapping[str, Any]


_SCHEMAS = {
    schema.name: schema
    for schema in (
        StructuredSchema("RetrievalPlan", old.RetrievalPlan, _obj(
            ("question", "required_facts", "routes"), question=_STR, required_facts={"type": "array", "items": _FACT},
            routes={"type": "array", "items": _ROUTE}, stop_conditions=_IDS)),
        StructuredSchema("QueryRewriteResult", old.QueryRewriteResult, _obj(("subqueries",), subqueries={"type": "array", "items": _SUBQUERY})),
        StructuredSchema("ContextAssessment", old.ContextAssessment, _obj(
            ("status", "sufficiency_score"), status=_enum(old.ContextStatus), sufficiency_score=_SCORE,
            covered_facts={"type": "array", "items": _obj(("fact_id",), fact_id=_STR, snippet_ids=_IDS)},
            missing_facts=_IDS, unsupported_claims=_IDS, conflicts=_CONFLICTS,
            feedback_queries={"type": "array", "items": _obj(("query",), query=_STR, target_corpus_ids=_IDS, reason=_STR, fact_id=_STR)},
            reason=_STR, answerability={"type": ["string", "null"], "enum": [m.value for m in old.AnswerabilityLabel] + [None]})),
        StructuredSchema("GroundedAnswer", old.GroundedAnswer, _obj(
            ("answer", "citations", "status"), answer=_STR,
            citations={"type": "array", "items": _obj(("claim", "snippet_ids"), claim=_STR, snippet_ids=_IDS)},
            status=_enum(old.AnswerStatus), missing_facts=_IDS, sufficiency_score=_SCORE, conflicts=_CONFLICTS,
            iterations={"type": "integer", "minimum": 0})),
    )
}


def get_schema(name: str) -> StructuredSchema:
    """Return the registered schema called ``name``.

    Raises:
        InvalidInputError: No such schema.
    """
    if name not in _SCHEMAS:
        raise InvalidInputError(f"unknown schema {name!r}; expected one of {sorted(_SCHEMAS)}", stage="structured")
    return _SCHEMAS[name]


_MISSING = re.compile(r"^(?P<path>.*): missing required property '(?P<name>[^']*)'$")


def _errors(schema: StructuredSchema, data: Any) -> list[str]:
    """Validation messages, with missing fields of one object gathered on one line."""
    found = validate_json(data, schema.json_schema)
    missing: dict[str, list[str]] = {}
    out = []
    for message in found:
        match = _MISSING.match(message)
        if match:
            missing.setdefault(match["path"], []).append(match["name"])
        else:
            out.append(message)
    return [f"{path}: missing required field(s): {', '.join(names)}" for path, names in missing.items()] + out


def to_dataclass(name: str, data: Any) -> Any:
    """Build the contract registered as ``name`` from a JSON-compatible mapping.

    Raises:
        SchemaValidationError: The mapping does not fit the schema (each problem named).
    """
    schema = get_schema(name)
    errors = _errors(schema, data)
    if errors:
        raise SchemaValidationError(f"{name}: {'; '.join(errors)}", stage="structured")
    try:
        return contract_from_dict(schema.target_type, _shaped(data))
    except InvalidInputError as exc:
        raise SchemaValidationError(f"{name}: {exc.message}", stage="structured") from exc


def _shaped(data: Any) -> Any:
    """JSON lists as tuples, recursively (the contracts hold tuples)."""
    if isinstance(data, Mapping):
        return {k: _shaped(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_shaped(v) for v in data]
    return data


def to_mapping(name: str, value: Any) -> dict[str, Any]:
    """Return ``value`` as JSON-compatible data holding only the schema's fields.

    Raises:
        InvalidInputError: ``value`` is not the schema's contract.
    """
    schema = get_schema(name)
    if not isinstance(value, schema.target_type):
        raise InvalidInputError(f"{name} mapping needs a {schema.target_type.__name__}, got {type(value).__name__}", stage="structured")
    return _project(contract_to_dict(value), schema.json_schema)


def _project(data: Any, schema: Mapping[str, Any]) -> Any:
    if isinstance(data, dict) and "properties" in schema:
        return {k: _project(v, schema["properties"][k]) for k, v in data.items() if k in schema["properties"]}
    if isinstance(data, list) and "items" in schema:
        return [_project(v, schema["items"]) for v in data]
    return data


def parse_structured_output(name: str, text: str) -> Any:
    """Parse a model's JSON text into the contract registered as ``name``.

    Raises:
        SchemaValidationError: Malformed JSON, or JSON that does not fit the schema.
    """
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise SchemaValidationError(f"{name}: malformed JSON: {exc}", stage="structured") from None
    return to_dataclass(name, data)


@dataclass(frozen=True, slots=True)
class StructuredOutputRepairRequest:
    """What a repair callable receives: the schema, the errors, the bad output and a prompt."""

    schema_name: str
    errors: tuple[str, ...]
    malformed_output: str
    prompt: str


def parse_structured_output_with_repair(name: str, text: str, *, repair: Callable[[StructuredOutputRepairRequest], str]) -> Any:
    """Parse ``text``; when it is invalid, ask ``repair`` once for a corrected output.

    Raises:
        SchemaValidationError: The repaired output is still invalid.
    """
    try:
        return parse_structured_output(name, text)
    except SchemaValidationError as exc:
        errors = tuple(part.strip() for part in exc.message.split(f"{name}: ", 1)[-1].split("; "))
    prompt = "\n".join([
        "Return only JSON that matches the schema; fix every error listed.",
        f"Schema name: {name}",
        f"Schema: {json.dumps(get_schema(name).json_schema, sort_keys=True)}",
        "Validation errors:",
        *(f"- {e}" for e in errors),
        "Malformed output:",
        text,
    ])
    return parse_structured_output(name, repair(StructuredOutputRepairRequest(name, errors, text, prompt)))
