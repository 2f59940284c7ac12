"""The options every LLM role component shares, in one settings object.

One :class:`RoleSettings` can configure every component of a pipeline (a role that shows no
documents ignores the document limits), and each component still takes the options as
keyword arguments, which override the settings for that component only::

    settings = RoleSettings(repair_rounds=2, max_snippet_chars=800)
    judge = LLMSufficiencyJudge(llm, settings=settings)
    drafter = LLMDrafter(llm, settings=settings, max_snippets=6)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import InvalidInputError
from agentic_rag.llm.components.fallback import ROLE_MAX_TOKENS
from agentic_rag.llm.port import check_sampling
from agentic_rag.llm.schemas import LLMRole

__all__ = ["EVIDENCE_OPTIONS", "MODEL_OPTIONS", "RoleSettings", "resolve_settings"]

_STAGE = "llm-components"


@dataclass(frozen=True, slots=True)
class RoleSettings:
    """How an LLM role component calls its model and how much evidence it shows.

    Args:
        repair_rounds: Repair rounds when the answer is invalid for the role's schema.
        temperature: Sampling temperature, in [0, 2].
        max_tokens: Cap on generated tokens per call; ``None``: the role's own cap
            (:data:`~agentic_rag.llm.components.fallback.ROLE_MAX_TOKENS`).
        max_snippets: Documents shown to a role that reads evidence (the first ones given);
            ``None``: the component's default (12; the parallel generator's 10).
        max_snippet_chars: Characters shown per document; ``None``: whole documents.

    Raises:
        InvalidInputError: A negative ``repair_rounds``, a temperature outside [0, 2], or a
            limit below 1.
    """

    repair_rounds: int = 1
    temperature: float = 0.0
    max_tokens: int | None = None
    max_snippets: int | None = None
    max_snippet_chars: int | None = 1500

    def __post_init__(self) -> None:
        require_int(self.repair_rounds, "repair_rounds", minimum=0, stage=_STAGE)
        # A None max_tokens is the role's own cap, which is valid by construction.
        check_sampling(self.temperature, 1 if self.max_tokens is None else self.max_tokens, stage=_STAGE)
        object.__setattr__(self, "temperature", float(self.temperature))
        for name in ("max_snippets", "max_snippet_chars"):
            require_int(getattr(self, name), name, minimum=1, optional=True, stage=_STAGE)

    def model_options(self, role: LLMRole) -> dict[str, Any]:
        """The options of :class:`~agentic_rag.llm.components.fallback.LLMComponent` for ``role``:
        ``repair_rounds``, ``temperature`` and ``max_tokens`` (the role's cap when unset)."""
        max_tokens = ROLE_MAX_TOKENS[LLMRole(role)] if self.max_tokens is None else self.max_tokens
        return {"repair_rounds": self.repair_rounds, "temperature": self.temperature, "max_tokens": max_tokens}


#: The options every role takes.
MODEL_OPTIONS = ("repair_rounds", "temperature", "max_tokens")
#: The options of a role that shows documents to its model.
EVIDENCE_OPTIONS = (*MODEL_OPTIONS, "max_snippets", "max_snippet_chars")


def resolve_settings(
    settings: RoleSettings | None,
    overrides: Mapping[str, Any],
    *,
    component: str,
    options: Collection[str] = MODEL_OPTIONS,
    aliases: Mapping[str, str] | None = None,
) -> RoleSettings:
    """Return ``settings`` (default :class:`RoleSettings`) with a component's keyword options applied.

    Args:
        settings: The shared settings, or ``None``.
        overrides: The keyword options the component was given.
        component: The component's class name, for errors.
        options: The settings fields the component takes as keywords.
        aliases: Keyword names the component takes for a field (``max_documents`` for
            ``max_snippets``).

    Returns:
        The settings the component runs with.

    Raises:
        InvalidInputError: ``settings`` is not a RoleSettings, a keyword the component does not
            take, or a bad value.
    """
    if settings is None:
        settings = RoleSettings()
    elif not isinstance(settings, RoleSettings):
        raise InvalidInputError(f"{component} settings must be a RoleSettings, got {type(settings).__name__}", stage=_STAGE)
    aliases = aliases or {}
    # A field a component names by an alias is taken by that name only.
    accepted = {*options, *aliases} - set(aliases.values())
    changes: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in accepted:
            raise InvalidInputError(f"{component} got an unexpected option {key!r}; it takes settings=RoleSettings(...) or {sorted(accepted)}", stage=_STAGE)
        changes[aliases.get(key, key)] = value
    return dataclasses.replace(settings, **changes) if changes else settings
