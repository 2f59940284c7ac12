"""Extractive drafting and synthesis: answers made of the evidence's own best sentences.

Every claim is a sentence copied from a snippet, with a citation giving the snippet id and the
exact character span, so a claim can never say more than its source.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from agentic_rag._agentic.fact_evidence import FactEvidence, FactEvidenceModel
from agentic_rag._agentic.policy import AbstentionPolicy
from agentic_rag._answering.attributes import subject_names
from agentic_rag._answering.compose import compose_answer, compose_text
from agentic_rag._answering.earned import ClaimContext, checks_value, earned_verdict
from agentic_rag._answering.guard import unsupported_claims
from agentic_rag._answering.render import quote_span, render_claim, select_claims
from agentic_rag._contracts import (
    AnswerStatus,
    Citation,
    Claim,
    ContextAssessment,
    DraftAnswer,
    FactPriority,
    GroundedAnswer,
    RequiredFact,
    RetrievalPlan,
    Snippet,
)
from agentic_rag._text import Analyzer
from agentic_rag._text.focus import answer_units, snippet_title
from agentic_rag._text.instructions import inside_instruction
from agentic_rag._text.questions import asked_clause
from agentic_rag._text.sentences import split_sentences

__all__ = ["CLOSEST_PASSAGES", "CLOSEST_UNITS", "EARNING_UNITS", "ExtractiveDrafter", "ExtractiveGroundedSynthesizer"]

CLOSEST_UNITS = 2
"""For a fact the judge found no passage for, a partial or unanswerable answer quotes this many
best units of the evidence, and the best unit of each of its :data:`CLOSEST_PASSAGES` first
passages: the closest lines hold the answer in other words often enough to be worth showing
(a reader checks them; the status is the earned check's)."""
EARNING_UNITS = 8
"""How many of a covered fact's best units are tried, when the quoted ones do not earn it,
for one that states its value (:meth:`ExtractiveGroundedSynthesizer._earning`)."""
CLOSEST_PASSAGES = 3
"""How many of a missing fact's first passages have their best unit quoted (see
:data:`CLOSEST_UNITS`; measured on the development questions)."""


class ExtractiveDrafter:
    """Drafts one claim per evidence snippet of each fact: the snippet's best sentence.

    The best sentence holds the most of the fact's terms (a bridge entity counts as one
    more); ties go to the earlier sentence.

    Args:
        analyzer: The analyzer (default English stop words + Snowball).
        evidence_model: A shared evidence model (overrides ``analyzer``).
    """

    def __init__(
        self,
        analyzer: Analyzer | None = None,
        *,
        evidence_model: FactEvidenceModel | None = None,
        max_units: int = 3,
        keep_ratio: float = 0.8,
    ) -> None:
        self.evidence = evidence_model or FactEvidenceModel(analyzer)
        self.max_units = max_units
        self.keep_ratio = keep_ratio

    def draft(self, question: str, plan: RetrievalPlan, snippets: Sequence[Snippet]) -> DraftAnswer:
        """Draft from all evidence so far, covered or not.

        Args:
            question: The question.
            plan: The plan.
            snippets: The evidence.

        Returns:
            A draft with one cited claim per evidence snippet per fact.
        """
        claims = self.claims(plan, snippets, self.evidence.assess(plan, snippets))
        return DraftAnswer(text=compose_text(claims), claims=claims)

    def claims(self, plan: RetrievalPlan, snippets: Sequence[Snippet], evidence: Sequence[FactEvidence], *, only_covered: bool = False) -> tuple[Claim, ...]:
        """Return cited claims for the facts' evidence snippets, in plan order."""
        by_id = {s.id: s for s in snippets}
        facts = {f.id: f for f in plan.facts}
        out: list[Claim] = []
        for item in evidence:
            if only_covered and not item.covered:
                continue
            fact = facts.get(item.fact_id)
            if fact is not None and self.evidence.reads_relevance(fact):
                out.extend(self.relevant_claims(fact.description, snippets, fact.id))
                continue
            terms = set(item.terms)
            for snippet_id in item.snippet_ids:
                claim = self.best_sentence_claim(by_id[snippet_id], terms, item.bridges, item.fact_id)
                if claim is not None:
                    out.append(claim)
        return tuple(out)

    def relevant_claims(self, description: str, snippets: Sequence[Snippet], fact_id: str, *, max_units: int = 0,
                        keep_ratio: float = -1.0) -> tuple[Claim, ...]:
        """Claims quoting the focus lines of the ``snippets`` that best answer ``description``
        (:func:`~agentic_rag._text.focus.answer_units`).

        Every round's evidence competes (a later round never hides an earlier, better
        passage): the best unit first, then up to ``max_units - 1`` more that score at least
        ``keep_ratio`` of the best (the drafter's own settings unless given).
        """
        model = self.evidence.relevance
        if model is None or not snippets:
            return ()
        out = []
        units, ratio = max_units or self.max_units, keep_ratio if keep_ratio >= 0 else self.keep_ratio
        for scored in answer_units(description, [(snippet_title(s), s.text) for s in snippets], model, max_units=units, keep_ratio=ratio):
            snippet, unit = snippets[scored.passage], scored.unit
            citation = Citation(snippet_id=snippet.id, quote=unit.text, start=unit.start, end=unit.end)
            text = f"{scored.heading}: {unit.text}" if scored.heading else unit.text
            out.append(Claim(text=text, citations=(citation,), fact_id=fact_id))
        return tuple(out)

    def best_sentence_claim(self, snippet: Snippet, terms: set[str], bridges: Sequence[str], fact_id: str, *, must_mention: str = "") -> Claim | None:
        """Return a claim quoting the sentence of ``snippet`` that best matches ``terms``.

        Args:
            snippet: The snippet to quote.
            terms: Analysed terms to match.
            bridges: Entities that add to a sentence's score when mentioned.
            fact_id: Fact id recorded on the claim.
            must_mention: When given, only sentences containing this text (case-insensitive)
                qualify, falling back to the best sentence overall.

        Returns:
            The claim, or ``None`` for a snippet without text (or whose every sentence is
            addressed to a model).
        """
        best = None
        for sentence in split_sentences(snippet.text):
            if inside_instruction(snippet.text, sentence.start, sentence.end):
                continue  # addressed to a model, or a scripted chat turn: never a claim
            found = self.evidence.terms_of(sentence.text)
            score = len(terms & found) + sum(1 for b in bridges if b.casefold() in sentence.text.casefold())
            if must_mention and must_mention.casefold() in sentence.text.casefold():
                score += 1000
            if best is None or score > best[0]:
                best = (score, sentence)
        if best is None:
            return None
        sentence = best[1]
        citation = Citation(snippet_id=snippet.id, quote=sentence.text, start=sentence.start, end=sentence.end)
        return Claim(text=sentence.text, citations=(citation,), fact_id=fact_id)


class ExtractiveGroundedSynthesizer:
    """Writes the final answer from covered facts only, with an honest status.

    ANSWERED text is the claims' sentences. PARTIAL text adds what was not found, and for a
    conflict, one cited claim per side. UNANSWERABLE has no claims and says what is missing.

    Args:
        drafter: The drafter whose sentence choice the answer reuses.
        policy: Maps the assessment's label to the answer status.
    """

    def __init__(self, drafter: ExtractiveDrafter | None = None, *, policy: AbstentionPolicy | None = None) -> None:
        self.drafter = drafter or ExtractiveDrafter()
        self.policy = policy or AbstentionPolicy()

    def synthesize(self, question: str, plan: RetrievalPlan, snippets: Sequence[Snippet], assessment: ContextAssessment) -> GroundedAnswer:
        """Write the grounded answer.

        Args:
            question: The question.
            plan: The plan.
            snippets: All evidence.
            assessment: The final assessment.

        Returns:
            The answer; ``iterations`` is left 0 for the orchestrator to fill in.
        """
        status = self.policy.status_for(assessment.label)
        evidence = self.drafter.evidence.assess(plan, snippets)
        missing = tuple(plan.fact(f) for f in assessment.missing_fact_ids)
        claims: tuple[Claim, ...] = ()
        if status is AnswerStatus.UNANSWERABLE and missing and not assessment.conflicts:
            # Nothing covered: the answer still quotes the closest lines (cited), and stays
            # unanswerable whatever they say.
            return compose_answer(plan, assessment, self._shown(plan, snippets, _unique(self._closest(plan, snippets, missing, assessment))), status, missing)
        if status is not AnswerStatus.UNANSWERABLE:
            covered = set(assessment.covered_fact_ids)
            claims = self.drafter.claims(plan, snippets, [e for e in evidence if e.fact_id in covered])
            claims += self._conflict_claims(plan, snippets, assessment)
            if status is AnswerStatus.PARTIAL and missing and not assessment.conflicts:
                # A part the judge found no passage for: the closest lines, read by the same
                # earned check as every claim below (they may answer it in other words).
                claims += self._closest(plan, snippets, missing, assessment)
            # A conflict side or a closest line may quote the sentence a covered fact already
            # quotes: keep the first.
            claims = self._shown(plan, snippets, _unique(claims))
            # Only a claim the guard will keep can earn a fact: a claim it drops (a quote the
            # grounding check doubts) leaves its fact unanswered, whatever else is shown.
            unsupported = set(unsupported_claims(claims, snippets))
            held = tuple(c for c in claims if c not in unsupported)
            if not claims:
                # Nothing quotable: a partial answer with no claim would claim nothing at all.
                status = AnswerStatus.UNANSWERABLE
            elif status is AnswerStatus.ANSWERED:
                status, unearned = self._earned(plan, snippets, held, missing)
                if status is not AnswerStatus.ANSWERED and not assessment.conflicts:
                    # The judge found the passages, the quoted lines do not state the value:
                    # a line of the same evidence that does is quoted instead of none.
                    found = self._earning(plan, snippets, [f for f in unearned if f not in missing], held)
                    if found:
                        claims = self._shown(plan, snippets, _unique(found + claims))
                        unsupported = set(unsupported_claims(claims, snippets))
                        held = tuple(c for c in claims if c not in unsupported)
                        status, unearned = self._earned(plan, snippets, held, missing)
                missing = unearned
            elif missing and not assessment.conflicts:
                # One consistent verdict: a fact the claims answer is never named missing,
                # whatever the judge counted; when they answer every fact, the answer is
                # answered (the earned check is the stricter reader), which the orchestrator's
                # guard allows for this synthesizer.
                missing = tuple(f for f in missing if not self._answered_by(plan, f, snippets, held))
                if not missing:
                    status, missing = self._earned(plan, snippets, held, missing)
        return compose_answer(plan, assessment, claims, status, missing)

    def _earning(self, plan: RetrievalPlan, snippets: Sequence[Snippet], facts: Sequence[RequiredFact], held: tuple[Claim, ...]) -> tuple[Claim, ...]:
        """For each of ``facts`` (covered by the judge, not earned by the claims chosen), the
        first of its :data:`EARNING_UNITS` best units in the evidence that earns it alone
        (:func:`~agentic_rag._answering.earned.earned_verdict`), and that the grounding check
        keeps; ``()`` when none does. The earned check is the gate either way: this only picks,
        among the lines of passages the judge accepted, one that states the value."""
        out: list[Claim] = []
        for fact in facts:
            if not checks_value(fact.description):
                continue
            candidates = self.drafter.relevant_claims(fact.description, snippets, fact.id, max_units=EARNING_UNITS, keep_ratio=0.0)
            for claim in candidates:
                if claim in held or unsupported_claims((claim,), snippets):
                    continue
                if self._answered_by(plan, fact, snippets, (claim,)):
                    out.append(claim)
                    break
        return tuple(out)

    def _closest(self, plan: RetrievalPlan, snippets: Sequence[Snippet], missing: Sequence[RequiredFact], assessment: ContextAssessment) -> tuple[Claim, ...]:
        """For each missing fact, as cited claims: its :data:`CLOSEST_UNITS` best focus units in
        the evidence (:meth:`ExtractiveDrafter.relevant_claims`), and the best unit of each of
        its :data:`CLOSEST_PASSAGES` first passages (those the judge found best for it, then the
        rest best first: the evidence an agent is shown first), each span once.

        A unit the earned check would count as answering a missing fact is left out: the
        judge found no passage covering that fact, and a line shown beside "not found" must
        not contradict the verdict, nor raise it on lines no passage check backs (measured on
        the development questions: counting them answered more, and more wrongly)."""
        by_id = {s.id: s for s in snippets}
        support = {item.fact_id: item.snippet_ids for item in assessment.support}
        out: list[Claim] = []
        for fact in missing:
            first = [i for i in dict.fromkeys([*support.get(fact.id, ()), *by_id]) if i in by_id][:CLOSEST_PASSAGES]
            found = list(self.drafter.relevant_claims(fact.description, snippets, fact.id)[:CLOSEST_UNITS])
            for snippet_id in first:
                found.extend(self.drafter.relevant_claims(fact.description, [by_id[snippet_id]], fact.id)[:1])
            out.extend(c for c in found if self._on_subject(fact, c, by_id) and not any(self._answered_by(plan, other, snippets, (c,)) for other in missing))
        return _unique(out)

    def _on_subject(self, fact: RequiredFact, claim: Claim, by_id: dict[str, Snippet]) -> bool:
        """A closest line is shown for a missing fact only from a passage about the fact's
        subject (one that, with its heading, holds the names of the subject the fact asks an
        attribute of: not another company's head count for Acme Robotics'), and only when the
        line itself shares a word with the fact (not a product sentence for an employee
        count)."""
        model = self.drafter.evidence.relevance
        snippet = by_id.get(claim.citations[0].snippet_id) if claim.citations else None
        if model is None or snippet is None:
            return True
        passage = f"{snippet_title(snippet)}\n{snippet.text}"
        if any(model.credit(name, passage) < 1.0 for name in subject_names(asked_clause(fact.description), model)):
            return False
        return any(credit >= model.root_credit for credit in model.credits(fact.description, claim.citations[0].quote))

    def _answered_by(self, plan: RetrievalPlan, fact: RequiredFact, snippets: Sequence[Snippet], claims: tuple[Claim, ...]) -> bool:
        """True when some claim earns ``fact`` (:func:`~agentic_rag._answering.earned.earned_verdict`)."""
        model = self.drafter.evidence.relevance
        if model is None:
            return False
        return earned_verdict(fact.description, _contexts(claims, {s.id: s for s in snippets}), model, before=_asked_before(plan, fact)).status is AnswerStatus.ANSWERED

    def _shown(self, plan: RetrievalPlan, snippets: Sequence[Snippet], claims: tuple[Claim, ...]) -> tuple[Claim, ...]:
        """The claims the answer shows, rendered (no markup), each sentence once, padding
        dropped, ordered by the facts they answer
        (:func:`~agentic_rag._answering.render.select_claims`)."""
        model = self.drafter.evidence.relevance
        rendered = tuple(dataclasses.replace(c, text=render_claim(c.text) or c.text) for c in claims)
        if model is None or not rendered:
            return rendered
        by_id = {s.id: s for s in snippets}
        depends = {f.id: set(f.depends_on) for f in plan.facts}
        headed = []
        for claim in rendered:
            snippet = by_id.get(claim.citations[0].snippet_id) if claim.citations else None
            # A hop is read with the claims of the hops it leans on (its passage, found
            # through the bridge, need not name what the question names).
            chain = "\n".join(c.text for c in rendered if c.fact_id in depends.get(claim.fact_id or "", set()))
            headed.append((snippet_title(snippet) if snippet is not None else "", f"{chain}\n{snippet.text if snippet is not None else claim.text}", claim.text))
        return tuple(_cut_claim(rendered[i], text) for i, text in select_claims([f.description for f in plan.facts], headed, model))

    def _earned(self, plan: RetrievalPlan, snippets: Sequence[Snippet], claims: tuple[Claim, ...],
                missing: tuple[RequiredFact, ...]) -> tuple[AnswerStatus, tuple[RequiredFact, ...]]:
        """ANSWERED only when, for every fact, its claims hold what the fact asks for
        (:func:`~agentic_rag._answering.earned.earned_verdict`); a fact whose claims only
        talk about its topic is missing and the answer partial. A hop that depends on other
        facts is read with their claims: its passage, found through the bridge, need not name
        what the question names ("Jane Doe was born in Lyon" answers where the founder of Acme
        was born only with "Acme was founded by Jane Doe")."""
        model = self.drafter.evidence.relevance
        if model is None:
            return AnswerStatus.ANSWERED, missing
        by_id = {s.id: s for s in snippets}

        def said(fact_ids: set[str]) -> list[ClaimContext]:
            return _contexts([c for c in claims if c.fact_id in fact_ids], by_id)

        unearned = []
        for fact in plan.facts:
            if fact.priority is not FactPriority.MUST:
                continue
            own = said({fact.id})
            if fact.depends_on:
                chain = own + said(set(fact.depends_on))
                # The hop and the hops it leans on, read as one claim (each claim a paragraph
                # of its own), under the hop's own headings: a heading of the hop leaned on
                # ("Ostrand") must not lend its subject to a line of another page ("Official
                # language: Velorian").
                own = [ClaimContext("\n".join(c.heading for c in own), "\n\n".join(c.text for c in chain), "\n".join(c.passage for c in chain))] if own else []
            if earned_verdict(fact.description, own, model, before=_asked_before(plan, fact)).status is AnswerStatus.ANSWERED:
                continue
            # One consistent verdict: a fact another fact's claim earns is not missing either.
            if not self._answered_by(plan, fact, snippets, claims):
                unearned.append(fact)
        if not unearned:
            return AnswerStatus.ANSWERED, missing
        return AnswerStatus.PARTIAL, missing + tuple(f for f in unearned if f not in missing)

    def _conflict_claims(self, plan: RetrievalPlan, snippets: Sequence[Snippet], assessment: ContextAssessment) -> tuple[Claim, ...]:
        by_id = {s.id: s for s in snippets}
        out = []
        for conflict in assessment.conflicts:
            terms = set(self.drafter.evidence.fact_terms(plan.fact(conflict.fact_id)))
            for group in conflict.groups:
                claim = self.drafter.best_sentence_claim(by_id[group.snippet_ids[0]], terms, (), conflict.fact_id, must_mention=group.value)
                if claim is not None:
                    out.append(claim)
        return tuple(out)


def _contexts(claims: Sequence[Claim], by_id: dict[str, Snippet]) -> list[ClaimContext]:
    """The claims as the earned check reads them: each with its passage's heading, its quote
    (not the claim text, which may open with the heading and must not lend the sentence its
    subject) and the passage it quotes."""
    return [ClaimContext(snippet_title(by_id[c.citations[0].snippet_id]), c.citations[0].quote or c.text, by_id[c.citations[0].snippet_id].text)
            for c in claims if c.citations and c.citations[0].snippet_id in by_id]


def _asked_before(plan: RetrievalPlan, fact: RequiredFact) -> str:
    """The part of a compound question asked before ``fact`` (``""`` for the first, a hop or
    a compared item): a pronoun in a later part ("..., and what is its default value?")
    refers to it."""
    parts = [f for f in plan.facts if not f.depends_on and "compared_item" not in f.metadata]
    index = next((i for i, f in enumerate(parts) if f.id == fact.id), 0)
    return parts[index - 1].description if index else ""


def _unique(claims: Sequence[Claim]) -> tuple[Claim, ...]:
    """``claims`` with each quoted span once (the first claim quoting it kept)."""
    unique: dict[tuple[str, int, int], Claim] = {}
    for claim in claims:
        unique.setdefault((claim.citations[0].snippet_id, claim.citations[0].start, claim.citations[0].end), claim)
    return tuple(unique.values())


def _cut_claim(claim: Claim, text: str) -> Claim:
    """``claim`` showing ``text``; a claim cut to fit quotes just what it shows (a quote that
    says more, a denial say, would not hold it), or is shown whole when that span is not
    found."""
    if text == claim.text or not claim.citations:
        return claim
    citation = claim.citations[0]
    start, end = quote_span(citation.quote, text)
    if end < 0:
        return claim
    narrowed = Citation(snippet_id=citation.snippet_id, quote=citation.quote[start:end], start=citation.start + start, end=citation.start + end)
    return dataclasses.replace(claim, text=text, citations=(narrowed, *claim.citations[1:]))
