"""Whether an ``ask`` actually used its language model, for the ``model`` key of the payload.

LLM-backed components fall back to the deterministic ones when the model cannot be reached or
answers badly, so an answer can come back with no model in it at all. :class:`ObservedLLM`
stands between the components and the model for one request and counts the calls that the
model answered and the ones that failed; :meth:`ObservedLLM.report` says so as JSON::

    {"used": true, "name": "gpt-4o-mini", "calls": 4, "failed_calls": 0}
    {"used": false, "name": "gpt-4o-mini", "calls": 0, "failed_calls": 4,
     "reason": "ProviderError: cannot reach http://127.0.0.1:9/v1/chat/completions: ..."}
"""

from __future__ import annotations

import threading
from typing import Any

from agentic_rag._errors import BudgetExhaustedError

__all__ = ["ObservedLLM", "model_warning"]


class ObservedLLM:
    """An ``LLM`` that passes every call to ``llm`` and records how it went.

    Args:
        llm: The model (anything with the ``LLM`` port's ``complete``); other attributes are
            read through from it.
    """

    def __init__(self, llm: Any) -> None:
        self._llm = llm
        self._lock = threading.Lock()
        self._calls = 0
        self._failures: list[str] = []

    def complete(self, *args: Any, **kwargs: Any) -> Any:
        """Call the model; see the ``LLM`` port. Errors are recorded and raised unchanged."""
        try:
            completion = self._llm.complete(*args, **kwargs)
        except BudgetExhaustedError:
            raise  # the run's budget, not the model, stopped this call
        except Exception as exc:
            with self._lock:
                self._failures.append(f"{type(exc).__name__}: {exc}")
            raise
        with self._lock:
            self._calls += 1
        return completion

    def __getattr__(self, name: str) -> Any:
        return getattr(self._llm, name)

    def report(self) -> dict[str, Any]:
        """``{used, name, calls, failed_calls}``, plus ``reason`` (the last failure) when a
        call failed; ``used`` is true when the model answered at least one call."""
        with self._lock:
            out: dict[str, Any] = {"used": self._calls > 0, "name": str(getattr(self._llm, "model", "") or type(self._llm).__name__),
                                   "calls": self._calls, "failed_calls": len(self._failures)}
            if self._failures:
                out["reason"] = self._failures[-1]
            elif not self._calls:
                out["reason"] = "no step of this run asked the model"
            return out


def model_warning(report: dict[str, Any] | None) -> str:
    """A one-line warning for stderr when the model was not used or some calls failed, else
    ``""``."""
    if not report:
        return ""
    if not report["used"]:
        return f"warning: the model {report['name']!r} was not used ({report['reason']}); the answer comes from the deterministic components"
    if report["failed_calls"]:
        return (f"warning: {report['failed_calls']} of {report['calls'] + report['failed_calls']} calls to the model {report['name']!r} failed "
                f"({report['reason']}); those steps fell back to the deterministic components")
    return ""
