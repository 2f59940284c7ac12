"""The LLM claim verifier: a model reads whether a quote states a claim, where the lexical
grounding check can only count words.

The guard of both workflows (:func:`~agentic_rag._answering.guard.guard_answer`, the parallel
verdict) hands it the claims the lexical check doubts, all of one answer in one call; the
model answers yes, partly or no for each, and only a no drops a claim. Refusals the lexical
check makes outright (a quote not at its span, text addressed to a model) never reach it.

Verdicts are kept per (claim, quotes, passages), so the same answer guarded twice (by the
synthesizer and again by the orchestrator) asks the model once. When the model fails, or the
run's budget is spent, the doubts stand (the fallback, :class:`LexicalClaimVerifier`, answers
no), so the answer is never more than the lexical check allows.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from agentic_rag._answering.review import LexicalClaimVerifier
from agentic_rag._contracts import ClaimCheck, ClaimJudgement, Snippet, SupportVerdict
from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import BudgetExhaustedError, InvalidInputError, ProviderError
from agentic_rag._ports import ClaimVerifier
from agentic_rag.llm.components.fallback import ComponentEventKind, FallbackChoice, LLMComponent, mapping_items, resolve_fallback
from agentic_rag.llm.components.prompts import build_messages
from agentic_rag.llm.components.settings import RoleSettings, resolve_settings
from agentic_rag.llm.schemas import LLMRole
from agentic_rag.llm.untrusted import escape_untrusted, render_untrusted

__all__ = ["LLMClaimVerifier"]

_STAGE = "verifier"
_CACHE_SIZE = 1024
# A claim that a document leaves something out ("the manual lists no such option", "no
# document says which agency") is true or false of the whole passage, not of the text around
# its quote: its item shows the whole cited passage, up to this many times the usual window.
_ABSENCE = re.compile(
    r"\b(?:(?:does|do|did)\s+not|doesn't|don't|never)\s+(?:\w+\s+){0,2}?(?:list|lists|mention|mentions|say|says|state|states|"
    r"name|names|give|gives|document|documents|include|includes|describe|describes|specify|specifies|cover|covers)\b"
    r"|\b(?:no\s+such|not\s+(?:listed|mentioned|stated|documented|given|named|specified)|lists\s+no|names\s+no|"
    r"says\s+nothing|nothing\s+(?:about|on)|only\s+(?:lists|names|gives|mentions)|(?:described|listed|named|given)\s+only"
    r"|no\s+(?:document|page|section|entry|table|other)\w*\s+(?:\w+\s+)?(?:says|states|lists|names|mentions|gives))\b",
    re.IGNORECASE,
)
_ABSENCE_SPAN = 4


class LLMClaimVerifier(LLMComponent):
    """A :class:`~agentic_rag._ports.ClaimVerifier` backed by a language model.

    Args:
        llm: The model.
        fallback: Verifier used when the model fails (default:
            :class:`~agentic_rag._answering.review.LexicalClaimVerifier`, whose every verdict
            is no; ``None``: raise).
        max_items: Doubted claims per model call (more are sent in further calls).
        context_chars: Characters of the cited passage shown on each side of the first quote.
        settings: Model call options (default :class:`RoleSettings`: one repair round,
            temperature 0, the role's token cap).
        name: Label for events.
        **overrides: Any of ``repair_rounds``, ``temperature`` and ``max_tokens``.

    Raises:
        InvalidInputError: Bad arguments.
    """

    def __init__(
        self,
        llm: Any,
        *,
        fallback: ClaimVerifier | FallbackChoice | None = FallbackChoice.DETERMINISTIC,
        max_items: int = 12,
        context_chars: int = 500,
        settings: RoleSettings | None = None,
        name: str = "llm_claim_verifier",
        **overrides: Any,
    ) -> None:
        self.settings = resolve_settings(settings, overrides, component=type(self).__name__)
        super().__init__(
            llm, role=LLMRole.CLAIM_VERIFIER, fallback=resolve_fallback(fallback, LexicalClaimVerifier), method="verify",
            name=name, **self.settings.model_options(LLMRole.CLAIM_VERIFIER),
        )
        self.max_items = require_int(max_items, "max_items", minimum=1, stage=_STAGE)
        self.context_chars = require_int(context_chars, "context_chars", minimum=0, stage=_STAGE)
        self._verdicts: OrderedDict[tuple[str, tuple[str, ...], tuple[str, ...]], ClaimJudgement] = OrderedDict()
        self._cache_lock = threading.Lock()

    def verify(self, checks: Sequence[ClaimCheck]) -> tuple[ClaimJudgement, ...]:
        """Return one judgement per check, in order (verdicts already given are reused).

        Raises:
            InvalidInputError: An item that is not a :class:`ClaimCheck`.
            StructuredOutputError: The model failed and ``fallback`` is ``None``.
        """
        checks = tuple(checks)
        for position, check in enumerate(checks):
            if not isinstance(check, ClaimCheck):
                raise InvalidInputError(f"checks[{position}] must be a ClaimCheck, got {type(check).__name__}", stage=_STAGE)
        keys = [(c.claim, c.quotes, c.passages) for c in checks]
        with self._cache_lock:
            known = {k: self._verdicts[k] for k in keys if k in self._verdicts}
        pending = [c for c, k in zip(checks, keys) if k not in known]
        pending = list({(c.claim, c.quotes, c.passages): c for c in pending}.values())
        for start in range(0, len(pending), self.max_items):
            batch = pending[start:start + self.max_items]
            for check, judgement in zip(batch, self._judge(batch)):
                known[(check.claim, check.quotes, check.passages)] = judgement
        return tuple(known[k] for k in keys)

    def _judge(self, batch: Sequence[ClaimCheck]) -> tuple[ClaimJudgement, ...]:
        try:
            answer = self.ask(build_messages(LLMRole.CLAIM_VERIFIER, [self._items_section(batch)]))
        except BudgetExhaustedError as error:
            # The run's budget is spent: the doubts stand, and the run still ends with its answer.
            self.record(ComponentEventKind.FALLBACK, f"budget spent ({error.reason}): {len(batch)} doubted claim(s) dropped unverified")
            return LexicalClaimVerifier().verify(batch)
        except ProviderError as error:
            return tuple(self.take_over(error).verify(batch))
        given: dict[int, ClaimJudgement] = {}
        for item in mapping_items(answer.get("verdicts")):
            number, verdict = item.get("item"), item.get("verdict")
            if isinstance(number, int) and 1 <= number <= len(batch) and number not in given and verdict in {v.value for v in SupportVerdict}:
                given[number] = ClaimJudgement(SupportVerdict(verdict), " ".join(str(item.get("reason") or "").split())[:300])
        missing = [n for n in range(1, len(batch) + 1) if n not in given]
        if missing:
            self.record(ComponentEventKind.ADJUSTED, f"no verdict for item(s) {missing}: their doubts stand")
        out = tuple(given.get(n, ClaimJudgement(SupportVerdict.NO, "the verifier gave no verdict")) for n in range(1, len(batch) + 1))
        with self._cache_lock:
            for check, judgement in zip(batch, out):
                self._verdicts[(check.claim, check.quotes, check.passages)] = judgement
                if len(self._verdicts) > _CACHE_SIZE:
                    self._verdicts.popitem(last=False)
        return out

    def _items_section(self, batch: Sequence[ClaimCheck]) -> str:
        blocks = []
        for number, check in enumerate(batch, start=1):
            quotes = "\n".join(f"- \"{escape_untrusted(' '.join(q.split()))}\"" for q in check.quotes) or "- (none: the claim cites the whole document)"
            document = Snippet(id=f"item-{number}", corpus_id="evidence", document_id=f"item-{number}", text=self._context(check))
            blocks.append(f"Item {number}\nClaim: {escape_untrusted(' '.join(check.claim.split()))}\nQuotes:\n{quotes}\n{render_untrusted([document], start=number)}")
        return "Check each item: do the quotes, read in their document, state the claim?\n\n" + "\n\n".join(blocks)

    def _context(self, check: ClaimCheck) -> str:
        """The cited passages: whole when short (or, for a claim that a document leaves something
        out, up to a few windows long), else their source line and the text around each quote
        (windows that meet are joined), so every quote is seen in its context."""
        passage = "\n\n".join(check.passages)
        if len(passage) <= 2 * self.context_chars + 200 or not check.quotes:
            return passage
        if _ABSENCE.search(check.claim) and len(passage) <= _ABSENCE_SPAN * (2 * self.context_chars + 200):
            return passage
        spans: list[tuple[int, int]] = []
        for quote in check.quotes:
            at = passage.find(quote[:80])
            if at >= 0:
                spans.append((max(0, at - self.context_chars), min(len(passage), at + len(quote) + self.context_chars)))
        if not spans:
            return passage[: 2 * self.context_chars + 200] + " [truncated]"
        merged: list[list[int]] = []
        for start, end in sorted(spans):
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        head = passage.split("\n", 1)[0] if merged[0][0] > 0 else ""  # the source line, when cut off
        pieces = [("[...] " if start else "") + passage[start:end] + (" [...]" if end < len(passage) else "") for start, end in merged]
        return "\n".join([head, *pieces] if head else pieces)
