"""Checks on what goes into and comes out of an embedder: texts in, equal-length float vectors out.

Every embedder and index runs its input and an embedding function's output through these, so
a wrong count, a ragged dimension or a NaN is refused at the boundary with a message naming
the producer and the vector's position, instead of corrupting an index.
"""

from __future__ import annotations

import math

from agentic_rag._errors import InvalidInputError

__all__ = ["coerce_vectors", "require_texts"]

_STAGE = "embedder"


def require_texts(texts: object, *, stage: str = _STAGE) -> list[str]:
    """Return ``texts`` as a list of strings.

    Args:
        texts: A sequence of strings (a bare string is refused: it would be split into characters).
        stage: Where the check runs, for the error.

    Returns:
        The texts as a new list.

    Raises:
        InvalidInputError: ``texts`` is a string, not iterable, or holds a non-string.
    """
    if isinstance(texts, (str, bytes)):
        raise InvalidInputError(f"texts must be a sequence of strings, not the string {texts!r:.60}", stage=stage)
    try:
        out = list(texts)  # type: ignore[call-overload]
    except TypeError:
        raise InvalidInputError(f"texts must be a sequence of strings, got {type(texts).__name__}", stage=stage) from None
    for position, text in enumerate(out):
        if not isinstance(text, str):
            raise InvalidInputError(f"texts[{position}] must be a string, got {type(text).__name__} {text!r:.60}", stage=stage)
    return out


def coerce_vectors(
    raw: object,
    *,
    count: int,
    dimensions: int | None = None,
    source: str = "embedder",
    offset: int = 0,
    stage: str = _STAGE,
) -> list[list[float]]:
    """Convert an embedding function's output into validated lists of floats.

    Args:
        raw: The output: a sequence of vectors (lists, tuples, numpy rows, a 2-D array).
        count: How many vectors are expected (one per input text).
        dimensions: The dimension every vector must have; ``None`` takes the first vector's.
        source: Name of the producer, for error messages.
        offset: Position of the first vector in the caller's whole input, for error messages.
        stage: Where the check runs, for the error.

    Returns:
        ``count`` lists of finite floats, all of one dimension.

    Raises:
        InvalidInputError: Not a sequence of vectors, a wrong count, an empty, ragged, non-numeric
            or non-finite vector, or a dimension other than ``dimensions``.
    """
    if raw is None or isinstance(raw, (str, bytes)):
        raise InvalidInputError(f"{source} returned {type(raw).__name__}, expected a sequence of {count} vectors", stage=stage)
    try:
        rows = list(raw)  # type: ignore[call-overload]
    except TypeError:
        raise InvalidInputError(f"{source} returned {type(raw).__name__}, expected a sequence of {count} vectors", stage=stage) from None
    if len(rows) != count:
        raise InvalidInputError(f"{source} returned {len(rows)} vectors for {count} texts; expected one vector per text", stage=stage)
    out: list[list[float]] = []
    for position, row in enumerate(rows, start=offset):
        if isinstance(row, (str, bytes)):
            raise InvalidInputError(f"vector {position} from {source} is a string, expected a sequence of numbers", stage=stage)
        try:
            vector = list(map(float, row))
        except (TypeError, ValueError):
            raise InvalidInputError(f"vector {position} from {source} is not a sequence of numbers: {row!r:.80}", stage=stage) from None
        if not vector:
            raise InvalidInputError(f"vector {position} from {source} is empty; expected at least one dimension", stage=stage)
        if dimensions is None:
            dimensions = len(vector)
        elif len(vector) != dimensions:
            raise InvalidInputError(f"vector {position} from {source} has dimension {len(vector)}, expected {dimensions}", stage=stage)
        if not all(map(math.isfinite, vector)):
            raise InvalidInputError(f"vector {position} from {source} holds a NaN or infinite value", stage=stage)
        out.append(vector)
    return out
