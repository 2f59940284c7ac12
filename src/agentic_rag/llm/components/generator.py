"""The LLM generator of the parallel workflow: a cited answer from the fused documents, or a
refusal.

The model sees the question's parts as its facts (``p1``, ``p2``...: a compound question has
several, :func:`model_parts`) and the fused documents as
numbered untrusted blocks (block ``n`` is ``documents[n - 1]``, the numbering of ``[n]``
markers), and answers with claims that name the part they answer, cite a block and quote it.
Claims whose citations do not hold are dropped; claims the lexical grounding check doubts go
to the model verifier (:class:`~agentic_rag.llm.components.verifier.LLMClaimVerifier`), and
only a "no" drops them. The answer text is the kept claims, each followed by its ``[n]``
markers, and every marker has an :class:`~agentic_rag._parallel.evidence.AnswerCitation`
with exact offsets. The status is the model's: a dropped claim lowers it only when it leaves
a part without a kept claim, and that part is named missing. When the model says the
documents do not answer the question, or no claim survives, the answer is a refusal
(``refused=True``, no citations).

The generator reads meaning (``judges_answerability``): the workflow's lexical answerability
and earned checks then stand beside its verdict as notes instead of lowering it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Literal

from agentic_rag._answering.compose import missing_note, removed_note
from agentic_rag._answering.review import ClaimEvidence, cited_passage, review_claims
from agentic_rag._contracts import AnswerStatus, ClaimReview, ReviewOutcome, Snippet
from agentic_rag._contracts.validation import require_text
from agentic_rag._errors import InvalidInputError, ProviderError
from agentic_rag.llm.components.citations import parse_model_claims, verify_model_claims
from agentic_rag.llm.components.evidence_window import EvidenceWindow
from agentic_rag.llm.components.fallback import ComponentEventKind, FallbackChoice, LLMComponent, resolve_fallback
from agentic_rag.llm.components.prompts import build_messages, parts_section, question_section
from agentic_rag.llm.components.settings import EVIDENCE_OPTIONS, RoleSettings, resolve_settings
from agentic_rag.llm.components.verifier import LLMClaimVerifier
from agentic_rag.llm.schemas import LLMRole
from agentic_rag._parallel.evidence import AnswerCitation, FusedDocument, GeneratedAnswer
from agentic_rag._parallel.generator import ExtractiveGenerator
from agentic_rag._parallel.ports import Generator
from agentic_rag._ports import ClaimVerifier
from agentic_rag._regex import lazy_regex
from agentic_rag._text.analyzer import Analyzer
from agentic_rag._text.questions import split_compound

__all__ = ["LLMGenerator", "refusal"]

_STAGE = "generator"
# The generator's names for the settings' document limits (its documents are fused ones).
_DOCUMENT_OPTIONS = {"max_documents": "max_snippets", "max_document_chars": "max_snippet_chars"}
_PARTS = (
    "The facts are the question's parts: name the part each claim answers as its fact_id, "
    "list the parts the documents do not establish in missing_fact_ids, and set status to "
    "partial when some are missing, unanswerable when none is established."
)


# What the model reads as further parts: a second question sentence ("How does it pick the
# number of loops? How much time does it aim for?") and a question joined by a preposition
# before its question word ("What do I set, and since which version?"). Case-sensitive: a
# sentence starts with a capital.
_MORE_ASKED = lazy_regex(
    r"(?<=\?)\s+(?=[A-Z\"'\u201c])|,?(?<!\s)\s+and\s+(?=(?:since|from|in|on|for|at|by|with|until|before|after|to|of)\s+"
    r"(?:which|what|whom|whose|when|how)\b)"
)
_WORDS = Analyzer()


def model_parts(question: str) -> tuple[str, ...]:
    """The parts of ``question`` the model establishes one by one (its facts ``p1``, ``p2``...):
    those of :func:`~agentic_rag._text.questions.split_compound`, each split again at a second
    question sentence and at a question joined by a preposition ("and since which version"),
    so a part the documents leave unanswered can be named. The model reads every part beside
    the whole question, so a part that leans on the first for its subject is clear to it (a
    search for it alone would not be: retrieval keeps such questions whole). A piece with no
    words of its own stays with its part.

    Args:
        question: The question.

    Returns:
        The parts, each ending with a question mark.
    """
    out: list[str] = []
    for part in split_compound(question):
        pieces = [p.strip(" ,") for p in _MORE_ASKED.split(part) if p.strip(" ,?")]
        if len(pieces) > 1 and all(_WORDS.analyze(p) for p in pieces):
            out.extend(p[0].upper() + p[1:].rstrip("?") + "?" for p in pieces)
        else:
            out.append(part)
    return tuple(out)


def refusal(reason: str) -> GeneratedAnswer:
    """Return the refusal answer: no claims, ``refused=True``, the reason in the text."""
    return GeneratedAnswer(f"The retrieved evidence is insufficient to answer: {reason.rstrip('.')}.", (), refused=True)


def _with_markers(sentence: str, numbers: Sequence[int]) -> str:
    """Put the ``[n]`` markers before the sentence's final punctuation, a space before each
    (as :data:`~agentic_rag._answering.compose.CITATION_MARKER` reads them: "[1][2]" would be
    read as one marker and the rest of the text), one per citation: a reader of the text pairs
    each marker with the next citation of its number, so two quotes from one document are
    "[1] [1]" (one marker would leave the second quote to the next claim)."""
    markers = " ".join(f"[{n}]" for n in numbers)
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
        verifier: Settles the claims the lexical grounding check doubts (default: a new
            :class:`~agentic_rag.llm.components.verifier.LLMClaimVerifier` on ``llm``;
            ``False``: none, every doubt drops its claim).
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
    #: It reads meaning: the workflow's lexical answerability check is a note beside its status.
    judges_answerability = True

    def __init__(
        self,
        llm: Any,
        *,
        fallback: Generator | FallbackChoice | None = FallbackChoice.DETERMINISTIC,
        verifier: ClaimVerifier | Literal[False] | None = None,
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
        if verifier is not None and verifier is not False and not callable(getattr(verifier, "verify", None)):
            raise InvalidInputError(f"verifier must be a ClaimVerifier (with verify(checks)), False or None, got {type(verifier).__name__}", stage=_STAGE)
        self.verifier: ClaimVerifier | None = None if verifier is False else verifier or LLMClaimVerifier(llm, settings=dataclasses.replace(self.settings, max_tokens=None))

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
        parts = model_parts(query)
        shown = list(self.window.shown([_as_snippet(d) for d in docs]))
        sections = [question_section(query), parts_section(parts), _PARTS, self.window.section(shown)]
        try:
            answer = self.ask(build_messages(LLMRole.SYNTHESIZER, sections))
            return self._answer(answer, docs, shown, parts)
        except ProviderError as error:
            fallback = self.take_over(error)
            result = fallback.generate(query, docs)
            if not isinstance(result, GeneratedAnswer):
                raise InvalidInputError(f"fallback generator returned {type(result).__name__}; expected a GeneratedAnswer", stage=_STAGE) from error
            return result

    def _answer(self, answer: Any, docs: list[FusedDocument], shown: list[Snippet], parts: tuple[str, ...]) -> GeneratedAnswer:
        ids = [f"p{n}" for n in range(1, len(parts) + 1)]
        written = parse_model_claims(answer.get("claims"))
        checked = verify_model_claims(written, shown, fact_ids=ids)
        if checked.dropped:
            self.record(ComponentEventKind.DROPPED_CLAIMS, f"dropped {len(checked.dropped)} claim(s) whose citations did not hold", checked.problems)
        reviews = [ClaimReview(d.text, ReviewOutcome.DROPPED, d.reason) for d in checked.dropped]
        items = [ClaimEvidence(v.claim.text, tuple(c.quote for c in v.claim.citations),
                               tuple(cited_passage(shown[i - 1]) for i in v.indices)) for v in checked.verified]
        looked = review_claims(items, self.verifier)
        kept = [v for v, r in zip(checked.verified, looked) if r is None or r.outcome is ReviewOutcome.KEPT]
        reviews += [r for r in looked if r is not None]
        status = AnswerStatus(answer.get("status", AnswerStatus.PARTIAL.value))
        if status is AnswerStatus.UNANSWERABLE:
            return dataclasses.replace(refusal("the model found that the documents do not answer the question"), reviews=tuple(reviews))
        if not kept:
            why = "no claim's citation holds" if written else "the model cited no document"
            self.record(ComponentEventKind.DOWNGRADED, f"refused: {why}")
            return dataclasses.replace(refusal(why), reviews=tuple(reviews))
        one = len(parts) == 1
        answered = {ids[0] if one and not c.fact_id else c.fact_id for c in (v.claim for v in kept)}
        named = {ids[0] if one and not c.fact_id else c.fact_id for c in written if c.fact_id in ids or one}
        said_missing = [p for p, i in zip(parts, ids) if i in {str(x).strip() for x in answer.get("missing_fact_ids") or ()}]
        lost = [p for p, i in zip(parts, ids) if i in named and i not in answered]
        missing = list(dict.fromkeys([*said_missing, *lost]))
        if status is AnswerStatus.PARTIAL and not missing:
            # Partial, naming nothing: the parts without a kept claim, else every part (which
            # one the model found short is not known).
            missing = [p for p, i in zip(parts, ids) if i not in answered] or list(parts)
        if lost:
            self.record(ComponentEventKind.DOWNGRADED, f"status lowered to partial: dropped claims left {lost} unanswered")
        status = AnswerStatus.PARTIAL if missing else AnswerStatus.ANSWERED
        text_parts: list[str] = []
        citations: list[AnswerCitation] = []
        for verified in kept:
            text_parts.append(_with_markers(verified.claim.text, verified.indices))
            # Every claim keeps its own citations, in order, even one another claim also gives:
            # markers and citations are paired in order.
            citations.extend(AnswerCitation(number, docs[number - 1].document_id, citation.quote, citation.start, citation.end)
                             for number, citation in zip(verified.indices, verified.claim.citations))
        if missing and len(missing) == len(parts):
            # Which part the model found short is not known: the answer says it is partial.
            text_parts.append("(The retrieved evidence does not answer every part of the question.)")
        elif missing:
            text_parts.append(missing_note(parts, missing, has_claims=True))
        dropped = sum(1 for r in reviews if r.outcome is ReviewOutcome.DROPPED)
        if dropped:
            text_parts.append(removed_note(dropped))
        return GeneratedAnswer(" ".join(text_parts), tuple(citations), status=status, missing=tuple(missing), reviews=tuple(reviews))
