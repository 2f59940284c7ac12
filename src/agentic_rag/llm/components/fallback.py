"""What every LLM-backed component shares: the model call, the fallback rule and its record.

A component asks its model for one JSON object (:func:`~agentic_rag.llm.structured.complete_json`
with the role's schema and one repair round). When that fails it hands the same call to its
fallback, by default the deterministic component of the same port, and records why. Which
failures fall back:

* :class:`~agentic_rag._errors.StructuredOutputError`: the answer is still invalid after the
  repair round, or valid for the schema but unusable (every citation hallucinated, no known
  fact...);
* a flaky endpoint: :class:`~agentic_rag._errors.ProviderTimeoutError`, a plain
  :class:`~agentic_rag._errors.ProviderError` (connection failure, malformed response) and
  :class:`~agentic_rag._errors.ProviderHTTPError` 408/409/425/429/5xx once the client's own
  retries are spent.

Other 4xx statuses (a wrong key, model or URL) are configuration errors and always raise, and
:class:`~agentic_rag._errors.BudgetExhaustedError` always propagates so the workflow can stop
gracefully. With ``fallback=None`` every failure raises: a structured-output failure as a
``StructuredOutputError`` naming the component.
"""

from __future__ import annotations

import enum
import re
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from agentic_rag._contracts.validation import require_enum, require_int, require_text
from agentic_rag._errors import InvalidInputError, ProviderError, ProviderHTTPError, StructuredOutputError
from agentic_rag._http import is_retryable_status
from agentic_rag.llm.port import Message, check_sampling
from agentic_rag.llm.schemas import LLMRole, role_spec
from agentic_rag.llm.structured import complete_json

__all__ = [
    "ROLE_MAX_TOKENS",
    "ComponentEvent",
    "ComponentEventKind",
    "FallbackChoice",
    "LLMComponent",
    "falls_back",
    "mapping_items",
    "resolve_fallback",
    "unusable_answer",
]

#: Each role's default cap on generated tokens: room for a full answer to its schema at the
#: sizes the prompts ask for (a judge's step-by-step rationale over twelve documents, a
#: synthesizer's claims each with its quotes), so a capable model never has to cut its reply
#: short, and no more: a model that runs on (plain JSON mode, a small model repeating
#: itself) is still cut off and repaired or replaced. Every component's ``max_tokens``
#: overrides it.
ROLE_MAX_TOKENS: Mapping[LLMRole, int] = MappingProxyType({
    LLMRole.PLANNER: 1024,           # a few facts, each an id, a statement, a priority, terms, corpora
    LLMRole.QUERY_REWRITER: 768,     # up to twelve one-line queries with their reasons
    LLMRole.HYDE: 512,               # one short passage
    LLMRole.SUFFICIENCY_JUDGE: 2048, # a rationale, a label, documents per fact, follow-up queries
    LLMRole.DRAFTER: 2048,           # a draft and its cited claims
    LLMRole.SYNTHESIZER: 3072,       # the final answer and its cited claims, each with its quotes
    LLMRole.CLAIM_VERIFIER: 1536,    # a verdict and a short reason per doubted claim
})


class FallbackChoice(str, enum.Enum):
    """The default of every component's ``fallback``: the deterministic component of its port."""

    DETERMINISTIC = "deterministic"


class ComponentEventKind(str, enum.Enum):
    """What a component recorded about one call."""

    FALLBACK = "fallback"
    DROPPED_CLAIMS = "dropped_claims"
    ADJUSTED = "adjusted"
    DOWNGRADED = "downgraded"


@dataclass(frozen=True, slots=True)
class ComponentEvent:
    """One thing a component noticed: a fallback, claims dropped, an answer repaired.

    Args:
        component: The component's name.
        kind: What happened.
        message: A human-readable account.
        errors: The validation errors or problems behind it.
    """

    component: str
    kind: ComponentEventKind
    message: str
    errors: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        require_text(self.component, "ComponentEvent.component", stage="llm-components")
        object.__setattr__(self, "kind", require_enum(ComponentEventKind, self.kind, "ComponentEvent.kind", stage="llm-components"))
        require_text(self.message, "ComponentEvent.message", stage="llm-components")
        object.__setattr__(self, "errors", tuple(str(e) for e in self.errors))


def unusable_answer(component: str, message: str, errors: Sequence[str] = ()) -> StructuredOutputError:
    """Return the error for an answer valid for its schema that still cannot be used.

    Args:
        component: The component's name.
        message: What is wrong with the answer.
        errors: The individual problems.

    Returns:
        A :class:`StructuredOutputError` carrying ``errors`` (raise it).
    """
    error = StructuredOutputError(f"{component}: {message}", stage="llm-components")
    error.errors = tuple(errors) or (message,)  # type: ignore[attr-defined]
    return error


# A request refused for its size (the prompt does not fit the model's context): a limit of this
# request, not a wrong setting, so the deterministic component answers this call instead.
_TOO_LONG = re.compile(r"context[ _-]?length|maximum context|context window|too many tokens|prompt is too long|too long|exceeds? the (?:model'?s? )?(?:maximum|limit)", re.IGNORECASE)


def falls_back(error: ProviderError) -> bool:
    """True when ``error`` is a malformed answer, a flaky endpoint, or a request too long for
    the model's context; not a configuration error (a bad key, model or URL)."""
    if isinstance(error, ProviderHTTPError):
        if error.status in (400, 413) and _TOO_LONG.search(error.message):
            return True
        return is_retryable_status(error.status)
    return True


class LLMComponent:
    """Base of the LLM-backed components: one role, one model, one fallback, an event log.

    Args:
        llm: Any object with the :class:`~agentic_rag.llm.port.LLM` ``complete`` method.
        role: The role whose schema and system prompt the component uses.
        fallback: The component taking over after a failure (``None``: raise instead).
        method: The port method a fallback must have.
        repair_rounds: Repair rounds of :func:`complete_json`.
        temperature: Sampling temperature.
        max_tokens: Cap on generated tokens per call.
        name: Label for traces and events.
        history: How many events are kept (oldest dropped first).

    Raises:
        InvalidInputError: A model without ``complete``, a fallback without ``method``, or a
            bad number.
    """

    def __init__(
        self,
        llm: Any,
        *,
        role: LLMRole,
        fallback: Any,
        method: str,
        repair_rounds: int,
        temperature: float,
        max_tokens: int,
        name: str,
        history: int = 100,
    ) -> None:
        if not callable(getattr(llm, "complete", None)):
            raise InvalidInputError(f"llm must have complete(messages, *, temperature, max_tokens, response_format), got {type(llm).__name__}", stage="llm-components")
        if fallback is not None and not callable(getattr(fallback, method, None)):
            raise InvalidInputError(f"fallback must be None or have a callable {method}() method, got {type(fallback).__name__}", stage="llm-components")
        self.llm = llm
        self.role = LLMRole(role)
        self.fallback = fallback
        self.repair_rounds = require_int(repair_rounds, "repair_rounds", minimum=0, stage="llm-components")
        check_sampling(temperature, max_tokens, stage="llm-components")
        self.temperature = float(temperature)
        self.max_tokens = max_tokens
        self.name = require_text(name, "name", stage="llm-components")
        self._events: deque[ComponentEvent] = deque(maxlen=require_int(history, "history", minimum=1, stage="llm-components"))
        self._lock = threading.Lock()
        self.last_fallback_reason: str | None = None

    @property
    def events(self) -> tuple[ComponentEvent, ...]:
        """The recorded events, oldest first."""
        with self._lock:
            return tuple(self._events)

    @property
    def fallback_count(self) -> int:
        """How many of the recorded events are fallbacks."""
        return sum(1 for e in self.events if e.kind is ComponentEventKind.FALLBACK)

    def record(self, kind: ComponentEventKind, message: str, errors: Sequence[str] = ()) -> None:
        """Record one event."""
        with self._lock:
            self._events.append(ComponentEvent(self.name, kind, message, tuple(errors)))

    def ask(self, messages: Sequence[Message], *, temperature: float | None = None, max_tokens: int | None = None) -> dict[str, Any]:
        """Ask the model for the role's JSON object (schema-validated, one repair round).

        Usage is charged to the run's budget by the model client, never here.

        Raises:
            StructuredOutputError: Still invalid after the repair rounds.
            BudgetExhaustedError: The run's budget stopped the call.
            ProviderError: The call failed.
        """
        self.last_fallback_reason = None
        spec = role_spec(self.role)
        return complete_json(
            self.llm,
            messages,
            spec.schema,
            repair_rounds=self.repair_rounds,
            name=spec.schema_name,
            temperature=self.temperature if temperature is None else temperature,
            max_tokens=self.max_tokens if max_tokens is None else max_tokens,
        )

    def take_over(self, error: ProviderError) -> Any:
        """Return the fallback for a failed call, after recording why.

        Args:
            error: What failed.

        Returns:
            The fallback component.

        Raises:
            StructuredOutputError: No fallback is configured and the answer was malformed.
            ProviderError: No fallback is configured, or the error is a configuration error
                (a non-retryable 4xx), which a fallback would only hide.
        """
        errors = tuple(getattr(error, "errors", ()) or (error.message,))
        if self.fallback is None or not falls_back(error):
            if isinstance(error, StructuredOutputError) and self.fallback is None:
                failure = StructuredOutputError(f"{self.name} got no usable answer and has no fallback (fallback=None): {error.message}", stage="llm-components")
                failure.errors = errors  # type: ignore[attr-defined]
                failure.text = getattr(error, "text", "")  # type: ignore[attr-defined]
                raise failure from error
            raise error
        reason = f"{type(error).__name__}: {error.message}"
        self.last_fallback_reason = reason
        self.record(ComponentEventKind.FALLBACK, f"fell back to {type(self.fallback).__name__} after {reason}", errors)
        return self.fallback

    def __repr__(self) -> str:
        fallback = "None" if self.fallback is None else type(self.fallback).__name__
        return f"{type(self).__name__}(name={self.name!r}, llm={self.llm!r}, fallback={fallback})"


def resolve_fallback(fallback: Any, default: type) -> Any:
    """Return a fresh ``default()`` for :attr:`FallbackChoice.DETERMINISTIC`, else ``fallback``."""
    if isinstance(fallback, FallbackChoice) or (isinstance(fallback, str) and fallback == FallbackChoice.DETERMINISTIC.value):
        return default()
    return fallback


def mapping_items(value: Any) -> list[Mapping[str, Any]]:
    """Return the mappings of a schema-validated JSON list (anything else is skipped)."""
    return [item for item in value if isinstance(item, Mapping)] if isinstance(value, list) else []
