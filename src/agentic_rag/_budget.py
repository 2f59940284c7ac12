"""A run's budget: wall-clock deadline plus counters that components charge.

The deadline is computed once (``time.monotonic()`` at the start plus the allowance) and every
step asks for the time remaining, instead of each step having its own timeout. Counters are
charged through :func:`current_budget`, a context variable set for the duration of a run, so
LLM-backed components and provider clients charge the run that called them without every
port growing a budget parameter. Charging past a cap raises
:class:`~agentic_rag._errors.BudgetExhaustedError`, which the workflows turn into a graceful
stop.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from agentic_rag._contracts.validation import require_int, require_number
from agentic_rag._errors import BudgetExhaustedError

__all__ = ["BudgetSnapshot", "RunBudget", "current_budget", "use_budget"]


@dataclass(frozen=True, slots=True)
class BudgetSnapshot:
    """The counters at one moment."""

    retriever_calls: int
    llm_calls: int
    prompt_tokens: int
    completion_tokens: int
    elapsed_s: float


class RunBudget:
    """Deadline and spend counters of one run; safe to charge from several threads.

    Args:
        deadline_s: Seconds the run may take from construction (``None``: no deadline).
        max_llm_calls: Cap on model calls (``None``: unlimited).
        max_tokens: Cap on prompt plus completion tokens (``None``: unlimited).
        clock: Monotonic clock, injectable for tests.

    Raises:
        InvalidInputError: A cap or deadline below 1 (deadline must be > 0).
    """

    def __init__(
        self,
        *,
        deadline_s: float | None = None,
        max_llm_calls: int | None = None,
        max_tokens: int | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        require_number(deadline_s, "deadline_s (seconds)", above=0, optional=True, stage="budget")
        for name, cap in (("max_llm_calls", max_llm_calls), ("max_tokens", max_tokens)):
            require_int(cap, name, minimum=1, optional=True, stage="budget")
        self._clock = clock or time.monotonic
        self._start = self._clock()
        self.deadline = None if deadline_s is None else self._start + float(deadline_s)
        self.max_llm_calls = max_llm_calls
        self.max_tokens = max_tokens
        self._lock = threading.Lock()
        self._retriever_calls = 0
        self._llm_calls = 0
        self._prompt_tokens = 0
        self._completion_tokens = 0
        self._held = 0

    def hold_llm_calls(self, calls: int) -> None:
        """Keep ``calls`` model calls of the cap back: :meth:`check_llm` refuses a call that
        would leave fewer, until :meth:`release_llm_calls` (the calls a run's final answer
        needs, kept from the loop). A cap smaller than ``calls`` keeps one call for the loop."""
        with self._lock:
            cap = self.max_llm_calls
            self._held = 0 if cap is None else max(0, min(require_int(calls, "calls", minimum=0, stage="budget"), cap - 1))

    def release_llm_calls(self) -> bool:
        """Give the held calls back; True when some were held."""
        with self._lock:
            held, self._held = self._held, 0
            return held > 0

    def remaining_s(self) -> float | None:
        """Seconds left before the deadline (never negative), or ``None`` without one."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - self._clock())

    def expired(self) -> bool:
        """True once the deadline has passed."""
        return self.deadline is not None and self._clock() >= self.deadline

    def charge_retrieval(self, calls: int = 1) -> None:
        """Count retriever calls (uncapped: retrieval is bounded by iterations and subqueries)."""
        with self._lock:
            self._retriever_calls += calls

    def check_llm(self) -> None:
        """Raise before a model call that the budget no longer allows.

        Raises:
            BudgetExhaustedError: The call cap is reached, the token cap is spent, or the
                deadline has passed.
        """
        with self._lock:
            if self.max_llm_calls is not None and self._llm_calls >= self.max_llm_calls - self._held:
                held = f" ({self._held} held back for the final answer)" if self._held else ""
                raise BudgetExhaustedError(f"LLM call budget of {self.max_llm_calls} is spent{held}", reason="call_budget")
            if self.max_tokens is not None and self._prompt_tokens + self._completion_tokens >= self.max_tokens:
                raise BudgetExhaustedError(f"token budget of {self.max_tokens} is spent", reason="token_budget")
        if self.expired():
            raise BudgetExhaustedError("the run's deadline has passed", reason="deadline")

    def charge_llm(self, *, calls: int = 1, prompt_tokens: int = 0, completion_tokens: int = 0) -> None:
        """Record a model call's usage (after it happened; caps are checked by ``check_llm``)."""
        with self._lock:
            self._llm_calls += calls
            self._prompt_tokens += prompt_tokens
            self._completion_tokens += completion_tokens

    def snapshot(self) -> BudgetSnapshot:
        """Return the counters now."""
        with self._lock:
            return BudgetSnapshot(
                retriever_calls=self._retriever_calls,
                llm_calls=self._llm_calls,
                prompt_tokens=self._prompt_tokens,
                completion_tokens=self._completion_tokens,
                elapsed_s=self._clock() - self._start,
            )


_CURRENT: contextvars.ContextVar[RunBudget | None] = contextvars.ContextVar("agentic_rag_budget", default=None)


def current_budget() -> RunBudget | None:
    """Return the budget of the run in progress in this context, or ``None`` outside a run."""
    return _CURRENT.get()


@contextlib.contextmanager
def use_budget(budget: RunBudget) -> Iterator[RunBudget]:
    """Make ``budget`` the current one inside the ``with`` block (threads started with
    ``contextvars.copy_context().run`` inherit it)."""
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)
