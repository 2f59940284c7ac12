"""The earlier parallel skill's request, and what the workflow learns about its slots.

The request keys are the earlier skill's (``query``, ``top_k``, ``rank_constant``,
``documents``, ``rewrite_temperature``, ``rewrite_max_tokens``, ``max_tokens``), read with its
defaults and checked with its rules; a bad value raises ``InvalidInputError`` (a
``ValueError``, as the earlier skill raised) naming the key and what was expected.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agentic_rag._errors import InvalidInputError

__all__ = ["ComponentSlots", "ContractRequest", "ViewKind", "View", "is_slot_object", "retriever_kinds"]

_STAGE = "workflow"
SLOTS = ("rewriter", "retrievers", "reranker", "generator")
DEFAULT_TOP_K = 3
DEFAULT_RANK_CONSTANT = 60
DEFAULT_REWRITE_TEMPERATURE = 0.0
DEFAULT_REWRITE_MAX_TOKENS = 256
# The package the earlier HyDE component names as the retriever it requires. The earlier
# skill runner loads a component's script as a module named after its package, from the
# package's folder; either name marks a bound function as that component.
_VECTOR_PACKAGE_NAMES = ("component_vector_retriever", "component-vector-retriever")


def is_slot_object(components: object) -> bool:
    """Whether ``components`` is the earlier contract's object (``has``/``call``/``call_all``)."""
    return not isinstance(components, Mapping) and all(callable(getattr(components, m, None)) for m in ("has", "call", "call_all"))


def _whole(request: Mapping[str, Any], key: str, default: int) -> int:
    """``int(request[key])`` as the earlier skill read it, or an error naming the value."""
    value = request.get(key, default)
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise InvalidInputError(f"request {key!r} must be a whole number, got {value!r}", stage=_STAGE) from None
    if number <= 0:
        # The earlier skill's own wording first, so code matching its message still matches.
        raise InvalidInputError(f"{key} must be positive, got {value!r} (request {key!r}: a whole number >= 1)", stage=_STAGE)
    return number


@dataclass(frozen=True, slots=True)
class ContractRequest:
    """One request of the earlier contract, read with its defaults.

    Args:
        query: The question (``str(request["query"])``, not blank).
        top_k: Documents in the fused result (default 3); each branch asks for ``top_k * 2``.
        rank_constant: The RRF constant ``k`` in ``1 / (k + rank)`` (default 60).
        documents: Handed unchanged to every retriever (default: none).
        rewrite_temperature: Passed to the rewriter as ``temperature`` (default 0.0).
        rewrite_max_tokens: Passed to the rewriter as ``max_tokens`` (default 256).
        max_tokens: Passed to the generator (default ``None``).
        ignored: Request keys the contract does not read, sorted (noted in the trace).
    """

    query: str
    top_k: int
    rank_constant: int
    documents: Any
    rewrite_temperature: Any
    rewrite_max_tokens: Any
    max_tokens: Any
    ignored: tuple[str, ...]

    @property
    def branch_top_k(self) -> int:
        """How many documents each branch asks its retriever (and reranker) for."""
        return self.top_k * 2

    @classmethod
    def from_mapping(cls, request: object) -> ContractRequest:
        """Read a request mapping.

        Raises:
            InvalidInputError: Not a mapping, no or a blank ``query``, ``top_k`` or
                ``rank_constant`` not a whole number >= 1, ``documents`` not a list of objects.
        """
        if not isinstance(request, Mapping):
            raise InvalidInputError(f"request must be a mapping, got {type(request).__name__}", stage=_STAGE)
        if "query" not in request:
            raise InvalidInputError("request needs a 'query'", stage=_STAGE)
        query = str(request["query"])
        if not query.strip():
            raise InvalidInputError(f"request 'query' must not be blank, got {request['query']!r}", stage=_STAGE)
        top_k = _whole(request, "top_k", DEFAULT_TOP_K)
        rank_constant = _whole(request, "rank_constant", DEFAULT_RANK_CONSTANT)
        documents = request.get("documents", ())
        if isinstance(documents, (str, bytes)) or not isinstance(documents, Sequence):
            raise InvalidInputError(f"request 'documents' must be a list of objects, got {type(documents).__name__}", stage=_STAGE)
        for n, item in enumerate(documents):
            if not isinstance(item, Mapping):
                raise InvalidInputError(f"request documents[{n}] must be an object, got {item!r:.80}", stage=_STAGE)
        known = ("query", "top_k", "rank_constant", "documents", "rewrite_temperature", "rewrite_max_tokens", "max_tokens")
        return cls(
            query=query,
            top_k=top_k,
            rank_constant=rank_constant,
            documents=documents,
            rewrite_temperature=request.get("rewrite_temperature", DEFAULT_REWRITE_TEMPERATURE),
            rewrite_max_tokens=request.get("rewrite_max_tokens", DEFAULT_REWRITE_MAX_TOKENS),
            max_tokens=request.get("max_tokens"),
            ignored=tuple(sorted(str(k) for k in request if k not in known)),
        )


class ViewKind(str, enum.Enum):
    """Where a branch query came from."""

    ORIGINAL = "original"
    REWRITTEN = "rewritten"
    HYPOTHETICAL = "hypothetical"


@dataclass(frozen=True, slots=True)
class View:
    """One query the branches search, and which retrievers search it.

    Args:
        text: The query text.
        kind: ``original``, ``rewritten`` (a rewriter's ``queries``) or ``hypothetical``
            (a rewriter's ``rewritten_query``, a HyDE passage).
        retrievers: Slot positions of the retrievers that search it, or ``None`` for all of
            them through one ``call_all``.
    """

    text: str
    kind: ViewKind
    retrievers: tuple[int, ...] | None = None


def retriever_kinds(components: Any) -> tuple[str, ...] | None:
    """What each bound retriever is (``"vector"``...), when the components object can say.

    Read from ``components.kinds("retrievers")``; else from the callables in
    ``components.bindings["retrievers"]`` (the earlier skill runner's field): their ``kind``
    attribute, or ``"vector"`` for the earlier vector retriever component (its package name in
    the module or file the function came from). ``None`` when nothing says which retriever is
    a vector one.
    """
    kinds_of = getattr(components, "kinds", None)
    if callable(kinds_of):
        found = kinds_of("retrievers")
        if isinstance(found, (str, bytes)) or not isinstance(found, Sequence):
            raise InvalidInputError(f"components.kinds('retrievers') must return a list of strings, got {found!r:.80}", stage=_STAGE)
        kinds = tuple(str(k) for k in found)
    else:
        bindings = getattr(components, "bindings", None)
        bound = bindings.get("retrievers") if isinstance(bindings, Mapping) else None
        if isinstance(bound, (str, bytes)) or not isinstance(bound, Sequence):
            return None
        kinds = tuple(_kind_of(fn) for fn in bound)
    return kinds if "vector" in kinds else None


def _kind_of(fn: object) -> str:
    kind = getattr(fn, "kind", None)
    if isinstance(kind, str) and kind:
        return kind
    code = getattr(fn, "__code__", None)
    where = f"{getattr(fn, '__module__', '')} {getattr(code, 'co_filename', '')}".replace("\\", "/")
    return "vector" if any(name in where for name in _VECTOR_PACKAGE_NAMES) else "other"


class ComponentSlots:
    """The earlier contract's components object over your own component functions.

    Each function is called as the earlier components were, ``fn(payload, context)``, and
    returns a mapping. Give a retriever function a ``kind = "vector"`` attribute (or pass
    ``kinds``) so a HyDE passage reaches only the vector retrievers.

    Args:
        bindings: Slot name (``rewriter``, ``retrievers``, ``reranker``, ``generator``) to a
            function or a list of them, in slot order.
        context: Passed to every function (the earlier runtime's model and embedding context).
        kinds: Slot name to one kind per function (default: each function's ``kind``).

    Raises:
        InvalidInputError: An unknown slot, a function that is not callable, or ``kinds`` of
            the wrong length.
    """

    def __init__(self, bindings: Mapping[str, Callable[..., Any] | Sequence[Callable[..., Any]]], context: Any = None, kinds: Mapping[str, Sequence[str]] | None = None) -> None:
        if not isinstance(bindings, Mapping):
            raise InvalidInputError(f"bindings must be a mapping of slot to functions, got {type(bindings).__name__}", stage=_STAGE)
        unknown = sorted(set(bindings) - set(SLOTS))
        if unknown:
            raise InvalidInputError(f"unknown slots {unknown}; expected some of {list(SLOTS)}", stage=_STAGE)
        self.bindings: dict[str, tuple[Callable[..., Any], ...]] = {}
        for slot, bound in bindings.items():
            functions = tuple(bound) if isinstance(bound, (list, tuple)) else (bound,)
            for n, fn in enumerate(functions):
                if not callable(fn):
                    raise InvalidInputError(f"slot {slot!r} function {n} must be callable as fn(payload, context), got {fn!r:.80}", stage=_STAGE)
            self.bindings[slot] = functions
        self.context = context
        self._kinds = {slot: tuple(k) for slot, k in (kinds or {}).items()}
        for slot, listed in self._kinds.items():
            if len(listed) != len(self.bindings.get(slot, ())):
                raise InvalidInputError(f"kinds[{slot!r}] lists {len(listed)} kinds for {len(self.bindings.get(slot, ()))} functions", stage=_STAGE)

    def has(self, slot: str) -> bool:
        """Whether at least one function is bound to ``slot``."""
        return bool(self.bindings.get(slot))

    def call(self, slot: str, payload: Mapping[str, Any], index: int = 0) -> Any:
        """Call the ``index``-th function of ``slot`` with a copy of ``payload``.

        Raises:
            InvalidInputError: Nothing bound at ``slot``/``index``.
        """
        functions = self.bindings.get(slot, ())
        if not 0 <= index < len(functions):
            raise InvalidInputError(f"slot {slot!r} has no function at index {index} ({len(functions)} bound)", stage=_STAGE)
        return functions[index](dict(payload), self.context)

    def call_all(self, slot: str, payload: Mapping[str, Any]) -> list[Any]:
        """Call every function of ``slot`` in order; one result each."""
        return [self.call(slot, payload, n) for n in range(len(self.bindings.get(slot, ())))]

    def kinds(self, slot: str) -> tuple[str, ...]:
        """One kind per function of ``slot`` (``kinds`` given, else each function's ``kind``)."""
        if slot in self._kinds:
            return self._kinds[slot]
        return tuple(_kind_of(fn) for fn in self.bindings.get(slot, ()))
