"""Charging model calls to the run's budget, and estimating tokens a server did not report.

Every chat client (and :class:`~agentic_rag.llm.scripted.ScriptedLLM`) runs its call through
:func:`metered_call`: the budget is checked first, so a spent call or token cap stops the run
with :class:`~agentic_rag._errors.BudgetExhaustedError` before anything is sent, and the usage
is charged afterwards. A call that reached the provider and failed still counts as a call
(it cost a request), with no tokens.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from agentic_rag._budget import current_budget
from agentic_rag._contracts.validation import is_int
from agentic_rag._errors import ProviderError
from agentic_rag.llm.port import Completion, Message, TokenUsage

__all__ = ["estimate_tokens", "metered_call", "usage_from_counts"]

# English text averages about four characters a token for the tokenizers in common use.
_CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    """Return a rough token count for ``text`` (about four characters a token)."""
    return math.ceil(len(text) / _CHARS_PER_TOKEN) if text else 0


def usage_from_counts(prompt: Any, completion: Any, *, messages: Sequence[Message], text: str) -> TokenUsage:
    """Build usage from a server's counts, estimating whichever count is missing or invalid.

    Args:
        prompt: The server's prompt-token count (``None`` when absent).
        completion: The server's completion-token count.
        messages: The messages sent, to estimate the prompt.
        text: The generated text, to estimate the completion.

    Returns:
        The usage, flagged ``estimated`` when either count was estimated.
    """
    estimated = False

    def valid(value: Any) -> bool:
        return is_int(value) and value >= 0

    if not valid(prompt):
        prompt = sum(estimate_tokens(m.content) for m in messages)
        estimated = True
    if not valid(completion):
        completion = estimate_tokens(text)
        estimated = True
    return TokenUsage(prompt_tokens=prompt, completion_tokens=completion, estimated=estimated)


def metered_call(call: Callable[[], Completion]) -> Completion:
    """Run one model call under the current run's budget.

    Args:
        call: Performs the call and returns its completion.

    Returns:
        The completion.

    Raises:
        BudgetExhaustedError: The budget allows no further call (raised before ``call``).
        ProviderError: Whatever ``call`` raised (the call is still charged).
    """
    budget = current_budget()
    if budget is not None:
        budget.check_llm()
    try:
        completion = call()
    except ProviderError:
        if budget is not None:
            budget.charge_llm(calls=1)
        raise
    if budget is not None:
        budget.charge_llm(
            calls=1,
            prompt_tokens=completion.usage.prompt_tokens,
            completion_tokens=completion.usage.completion_tokens,
        )
    return completion
