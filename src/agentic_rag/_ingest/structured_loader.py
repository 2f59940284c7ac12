"""JSON, JSONL and CSV records to sections: one section per record, cited by its lines.

A :class:`FieldMapping` says which fields hold the text, the title and the id. Each record
becomes a section titled by its title (or id) whose text cites the record's own line range:
the line of a JSONL record or CSV row, the lines an object spans inside a JSON array. Records
without text are passed over; a file with no usable record at all is reported as a problem.
"""

from __future__ import annotations

import csv
import io
import json
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from agentic_rag._errors import InvalidInputError
from agentic_rag._ingest.blocks import ParsedSource, TextBlock, TextSection
from agentic_rag._ingest.work_budget import current_work_budget
from agentic_rag._text.lines import split_lines

__all__ = ["FieldMapping", "parse_csv", "parse_json", "parse_jsonl"]

_STAGE = "ingest"
_DEFAULT_ID_FIELDS = ("id", "_id")
#: The problem reported for JSON nested deeper than the parser's recursion limit.
TOO_DEEP = "nested too deeply to parse (over the interpreter's recursion limit)"


@dataclass(frozen=True, slots=True)
class FieldMapping:
    """Where a record's text, title and id are.

    Args:
        text_fields: Fields (JSON keys, CSV columns) whose values make the text, joined by
            newlines. Empty: a JSON record's ``"text"`` field when it has one, else every
            field but the title and id as ``name: value`` lines; a CSV row's every column as
            ``name: value`` lines.
        title_field: Field holding the record's title.
        id_field: Field holding the record's id; ``""`` tries ``"id"`` then ``"_id"``.

    Raises:
        InvalidInputError: A field name that is not a non-empty string.
    """

    text_fields: tuple[str, ...] = ()
    title_field: str = "title"
    id_field: str = ""

    def __post_init__(self) -> None:
        fields = (self.text_fields,) if isinstance(self.text_fields, str) else tuple(self.text_fields)
        for name in fields:
            if not isinstance(name, str) or not name:
                raise InvalidInputError(f"text_fields must hold non-empty field names, got {name!r}", stage=_STAGE)
        object.__setattr__(self, "text_fields", fields)
        if not isinstance(self.title_field, str) or not self.title_field:
            raise InvalidInputError(f"title_field must be a non-empty string, got {self.title_field!r}", stage=_STAGE)
        if not isinstance(self.id_field, str):
            raise InvalidInputError(f"id_field must be a string, got {self.id_field!r}", stage=_STAGE)

    def record_id(self, record: Mapping[str, Any]) -> str:
        """The record's id as text (``""`` when it has none)."""
        for name in (self.id_field,) if self.id_field else _DEFAULT_ID_FIELDS:
            value = _scalar_text(record.get(name))
            if value:
                return value
        return ""

    def text(self, record: Mapping[str, Any], *, all_columns: bool = False) -> str:
        """The record's text under this mapping (``""`` when it has none)."""
        if self.text_fields:
            return "\n".join(v for v in (_scalar_text(record.get(f)) for f in self.text_fields) if v)
        if not all_columns:
            value = _scalar_text(record.get("text"))
            if value:
                return value
        skipped = set() if all_columns else {self.title_field, self.id_field, *_DEFAULT_ID_FIELDS}
        budget = current_work_budget()
        lines = []
        for key, raw in record.items():
            value = _scalar_text(raw)
            if key not in skipped and value:
                # Charged as made: a CSV of long header names repeats every name in every row.
                budget.text(len(key) + len(value) + 2)
                lines.append(f"{key}: {value}" if key else value)
        return "\n".join(lines)


def _scalar_text(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return "" if value is None else str(value).lower()
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value):
        return ", ".join(str(v).strip() for v in value if str(v).strip())
    return ""


def _record_section(record: Mapping[str, Any], fields: FieldMapping, start: int, end: int, *, all_columns: bool = False) -> TextSection | None:
    current_work_budget().unit()  # each record as it is read, before its text is made
    text = fields.text(record, all_columns=all_columns)
    if not text.strip():
        return None
    record_id = fields.record_id(record)
    title = _scalar_text(record.get(fields.title_field)) or record_id
    return TextSection((TextBlock(text, ((0, start),), fixed_lines=(start, end)),), title, record_id)


def _no_records(kind: str, fields: FieldMapping) -> ParsedSource:
    wanted = f"fields {list(fields.text_fields)}" if fields.text_fields else "text"
    return ParsedSource(problem=f"no {kind} record has {wanted}")


def parse_jsonl(text: str, fields: FieldMapping) -> ParsedSource:
    """One record per non-blank line; malformed lines are passed over.

    Args:
        text: Decoded JSON Lines.
        fields: Where each record's text, title and id are.

    Returns:
        One section per record with text, or a problem when none parses or has text.
    """
    sections: list[TextSection] = []
    first_error = ""
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as exc:
            first_error = first_error or f"line {number}: {exc}"
            continue
        except RecursionError:
            first_error = first_error or f"line {number}: {TOO_DEEP}"
            continue
        if isinstance(record, str):
            record = {"text": record}
        if isinstance(record, dict):
            section = _record_section(record, fields, number, number)
            if section is not None:
                sections.append(section)
    if sections:
        return ParsedSource(tuple(sections))
    if first_error:
        return ParsedSource(problem=f"no valid JSON line with text (first error at {first_error})")
    return _no_records("JSONL", fields)


def _array_items(text: str, start: int) -> Iterator[tuple[Any, int, int]]:
    """Yield each item of the JSON array opening at ``start`` with its character span, as it
    is decoded (a file of millions of records is stopped at its budget, not parsed whole
    first); the array must close and be all the document holds, as ``json.loads`` requires."""
    decoder = json.JSONDecoder()
    position = start + 1
    length = len(text)
    expect_item = True
    after_comma = False
    while position < length:
        char = text[position]
        if char.isspace():
            position += 1
        elif char == "]" and not after_comma:
            if text[position + 1:].strip():
                raise ValueError(f"extra data after the array at character {position + 1}")
            return
        elif char == "," and not expect_item:
            expect_item = after_comma = True
            position += 1
        elif expect_item:
            value, end = decoder.raw_decode(text, position)
            yield value, position, end
            position, expect_item, after_comma = end, False, False
        else:
            raise ValueError(f"expected ',' or ']' at character {position}")
    raise ValueError("unterminated array")


def parse_json(text: str, fields: FieldMapping) -> ParsedSource:
    """A JSON object (one record) or an array of objects (one record each).

    Args:
        text: Decoded JSON.
        fields: Where each record's text, title and id are.

    Returns:
        One section per record with text; a problem for malformed JSON, another top-level
        type, or no record with text.
    """
    newlines = [m.start() for m in re.finditer("\n", text)]

    def line_of(offset: int) -> int:
        return bisect_right(newlines, offset - 1) + 1

    body_start = len(text) - len(text.lstrip())
    body_end = len(text.rstrip())
    if text.startswith("[", body_start):
        try:
            return _json_array(text, fields, body_start, line_of)
        except ValueError as exc:
            return ParsedSource(problem=f"invalid JSON: {exc}")
        except RecursionError:
            return ParsedSource(problem=f"JSON {TOO_DEEP}")
    try:
        document = json.loads(text)
    except ValueError as exc:
        return ParsedSource(problem=f"invalid JSON: {exc}")
    except RecursionError:
        return ParsedSource(problem=f"JSON {TOO_DEEP}")
    if isinstance(document, dict):
        section = _record_section(document, fields, line_of(body_start), line_of(max(body_start, body_end - 1)))
        return ParsedSource((section,)) if section is not None else _no_records("JSON", fields)
    return ParsedSource(problem=f"JSON must be an object or a list of objects, got {type(document).__name__}")


def _json_array(text: str, fields: FieldMapping, start: int, line_of: Callable[[int], int]) -> ParsedSource:
    """The records of the JSON array opening at ``start``, each decoded and charged in turn."""
    sections = []
    for value, first, end in _array_items(text, start):
        if isinstance(value, str):
            value = {"text": value}
        if isinstance(value, dict):
            section = _record_section(value, fields, line_of(first), line_of(end - 1))
            if section is not None:
                sections.append(section)
    return ParsedSource(tuple(sections)) if sections else _no_records("JSON", fields)


def parse_csv(text: str, fields: FieldMapping) -> ParsedSource:
    """A header row, then one record per row.

    Args:
        text: Decoded CSV (comma-separated, double-quoted; quoted fields may span lines).
        fields: Which columns make the text (default: all), the title and the id.

    Returns:
        One section per row with text, citing the row's lines; a problem when the header
        lacks a requested column, the CSV is malformed, or no row has text.
    """
    # A field may be as long as the file (the module's default limit, 128 KB, refused a
    # well-formed file holding one long cell); the limit is only ever raised, never lowered,
    # so files read at the same time in other threads keep theirs. The file's work budget
    # bounds what its rows make.
    if csv.field_size_limit() < len(text) + 1:
        csv.field_size_limit(len(text) + 1)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
        if header is None:
            return ParsedSource(problem="empty CSV file")
        header = [h.strip() for h in header]
        missing = [f for f in fields.text_fields if f not in header]
        if missing:
            return ParsedSource(problem=f"CSV header has no column {missing[0]!r}; columns are {header}")
        sections = []
        previous = reader.line_num
        for row in reader:
            start, previous = previous + 1, reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            record = dict(zip(header, row))
            section = _record_section(record, fields, start, max(start, reader.line_num), all_columns=True)
            if section is not None:
                sections.append(section)
    except csv.Error as exc:
        return ParsedSource(problem=f"malformed CSV at line {reader.line_num}: {exc}")
    return ParsedSource(tuple(sections)) if sections else _no_records("CSV", fields)
