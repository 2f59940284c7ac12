"""The LLM generator of the parallel workflow: a cited answer from the fused documents, or a
refusal.

The model sees the fused documents as numbered untrusted blocks (block ``n`` is
``documents[n - 1]``, the numbering of ``[n]`` markers) and answers with claims that cite a
block and quote it. Claims whose citations do not hold are dropped. The answer text is the
kept claims, each followed by its ``[n]`` markers, and every marker has an
:class:`~agentic_rag._parallel.evidence.AnswerCitation` with exact offsets, so
:func:`~agentic_rag._parallel.generator.verify_citations` finds nothing to report. When the
model says the evidence does not answer the question, or no claim survives, the answer is a
refusal (``refused=True``, no citations).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agentic_rag._answering.compose import removed_note
from agentic_rag._contracts import AnswerStatus, Snippet
from agentic_rag._contracts.validation import require_text
from agentic_rag._errors import InvalidInputError, ProviderError
from agentic_rag.llm.components.citations import parse_model_claims, verify_model_claims
from agentic_rag.llm.components.evidence_window import EvidenceWindow
from agentic_rag.llm.components.fallback import ComponentEventKind, FallbackChoice, LLMComponent, resolve_fallback
from agentic_rag.llm.components.prompts import build_messages, question_section
from agentic_rag.llm.components.settings import EVIDENCE_OPTIONS, RoleSettings, resolve_settings
from agentic_rag.llm.schemas import LLMRole
from agentic_rag._parallel.evidence import AnswerCitation, FusedDocument, GeneratedAnswer
from agentic_rag._parallel.generator import ExtractiveGenerator
from agentic_rag._parallel.ports import Generator

__all__ = ["LLMGenerator", "refusal"]

_STAGE = "generator"
# The generator's names for the settings' document limits (its documents are fused ones).
_DOCUMENT_OPTIONS = {"max_documents": "max_snippets", "max_document_chars": "max_snippet_chars"}
_NO_FACTS = (
    "There is no list of required facts: leave fact_id empty and set missing_fact_ids to []. "
    "Set status to unanswerable when the documents do not answer the question, partial when "
    "they answer only part of it."
)


def refusal(reason: str) -> GeneratedAnswer:
    """Return the refusal answer: no claims, ``refused=True``, the reason in the text."""
    return GeneratedAnswer(f"The retrieved evidence is insufficient to answer: {reason.rstrip('.')}.", (), refused=True)


def _with_markers(sentence: str, numbers: Sequence[int]) -> str:
    """Put the ``[n]`` markers before the sentence's final punctuation."""
    markers = "".join(f"[{n}]" for n in dict.fromkeys(numbers))
    if sentence and sentence[-1] in ".!?":
        return f"{sentence[:-1]} {markers}{sentence[-1]}"
    return f"{sentence} {markers}"


def _as_snippet(document: FusedDocument) -> Snippet:
    if document.snippet is not None:
        return document.snippet
    # A bare id has no text to quote: any citation of it fails, as it should.
    return Snippet(id=document.document_id, corpus_id=document.corpus_id or "default", document_id=document.document_id, text="")


class LLMGenerator(LLMComponent):
    """A parallel :class:`~agentic_rag._parallel.ports.Generator` backed by a language model.

    Args:
        llm: The model.
        fallback: Generator used when the model fails (default: a new
            :class:`~agentic_rag._parallel.generator.ExtractiveGenerator`; ``None``: raise).
        settings: Model call and evidence options (default :class:`RoleSettings`: one repair
            round, temperature 0, the synthesizer role's token cap, 10 documents of 1,500
            characters, the first, best fused ones).
        name: Label for traces.
        **overrides: Any of ``repair_rounds``, ``temperature``, ``max_tokens``,
            ``max_documents`` (the settings' ``max_snippets``) and ``max_document_chars``
            (``max_snippet_chars``), overriding ``settings`` for this generator.

    Raises:
        InvalidInputError: Bad arguments.
    """

    #: The library's generator: the workflow's grounding check may drop its claims.
    workflow_guards_text = True

    def __init__(
        self,
        llm: Any,
        *,
        fallback: Generator | FallbackChoice | None = FallbackChoice.DETERMINISTIC,
        settings: RoleSettings | None = None,
        name: str = "llm_generator",
        **overrides: Any,
    ) -> None:
        self.settings = resolve_settings(settings, overrides, component=type(self).__name__, options=EVIDENCE_OPTIONS, aliases=_DOCUMENT_OPTIONS)
        super().__init__(
            llm, role=LLMRole.SYNTHESIZER, fallback=resolve_fallback(fallback, ExtractiveGenerator), method="generate",
            name=name, **self.settings.model_options(LLMRole.SYNTHESIZER),
        )
        self.window = EvidenceWindow.from_settings(self.settings, default_snippets=10)

    def generate(self, query: str, documents: Sequence[FusedDocument]) -> GeneratedAnswer:
        """Answer ``query`` from ``documents`` with ``[n]``-cited claims, or refuse.

        Args:
            query: The user's question.
            documents: Fused documents, best first; ``[n]`` cites ``documents[n - 1]``.

        Returns:
            The answer; with no documents, a refusal without a model call.

        Raises:
            InvalidInputError: An empty query or a document that is not a FusedDocument.
            StructuredOutputError: The model failed and ``fallback`` is ``None``.
            BudgetExhaustedError: The run's budget stopped the call.
        """
        require_text(query, "query", stage=_STAGE)
        if isinstance(documents, (str, bytes)) or not isinstance(documents, Sequence):
            raise InvalidInputError(f"documents must be a sequence of FusedDocument, got {type(documents).__name__}", stage=_STAGE)
        docs = list(documents)
        for position, document in enumerate(docs):
            if not isinstance(document, FusedDocument):
                raise InvalidInputError(f"documents[{position}] must be a FusedDocument, got {type(document).__name__}", stage=_STAGE)
        if not docs:
            self.last_fallback_reason = None
            return refusal("nothing was retrieved")
        shown = list(self.window.shown([_as_snippet(d) for d in docs]))
        sections = [question_section(query), _NO_FACTS, self.window.section(shown)]
        try:
            answer = self.ask(build_messages(LLMRole.SYNTHESIZER, sections))
            return self._answer(answer, docs, shown)
        except ProviderError as error:
            fallback = self.take_over(error)
            result = fallback.generate(query, docs)
            if not isinstance(result, GeneratedAnswer):
                raise InvalidInputError(f"fallback generator returned {type(result).__name__}; expected a GeneratedAnswer", stage=_STAGE) from error
            return result

    def _answer(self, answer: Any, docs: list[FusedDocument], shown: list[Snippet]) -> GeneratedAnswer:
        checked = verify_model_claims(parse_model_claims(answer.get("claims")), shown)
        if checked.dropped:
            self.record(ComponentEventKind.DROPPED_CLAIMS, f"dropped {len(checked.dropped)} claim(s) whose citations did not hold", checked.problems)
        status = AnswerStatus(answer.get("status", AnswerStatus.PARTIAL.value))
        if status is AnswerStatus.UNANSWERABLE:
            return refusal("the model found that the documents do not answer the question")
        if not checked.verified:
            why = "no claim's citation holds" if checked.dropped else "the model cited no document"
            self.record(ComponentEventKind.DOWNGRADED, f"refused: {why}")
            return refusal(why)
        parts: list[str] = []
        citations: list[AnswerCitation] = []
        for verified in checked.verified:
            parts.append(_with_markers(verified.claim.text, verified.indices))
            for number, citation in zip(verified.indices, verified.claim.citations):
                cited = AnswerCitation(number, docs[number - 1].document_id, citation.quote, citation.start, citation.end)
                if cited not in citations:
                    citations.append(cited)
        if status is AnswerStatus.PARTIAL or checked.dropped:
            parts.append("(The retrieved evidence does not answer every part of the question.)")
        if checked.dropped:
            parts.append(removed_note(len(checked.dropped)))
        partial = status is AnswerStatus.PARTIAL or bool(checked.dropped)
        return GeneratedAnswer(" ".join(parts), tuple(citations), status=AnswerStatus.PARTIAL if partial else AnswerStatus.ANSWERED)
