"""Which snippets cover which required fact: the evidence model the judge and drafter share.

A fact's terms are its ``required_terms`` (every term of every phrase must appear) or, when
none are given, the analysed content terms of its description. A snippet covers the fraction
of those terms its title and text contain. Two kinds of multi-hop support count as well:

* a fact that ``depends_on`` another is only supported by snippets that mention a bridge
  entity found in the other fact's evidence (so "born in Lyon" counts for "where was the
  founder born" only in the passage about the founder the first hop found);
* a fact with no dependency may be covered by a *chain* of two snippets: one that covers part
  of its terms and names an entity the question does not, and one that mentions that entity
  and covers the rest.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from agentic_rag._agentic.passage_terms import PassageReader, root_of, without_qualifier
from agentic_rag._contracts import RequiredFact, RetrievalPlan, Snippet
from agentic_rag._errors import InvalidInputError
from agentic_rag._text import Analyzer
from agentic_rag._text.questions import answer_type, is_bridge_question, offers_answer
from agentic_rag._text.relevance import RelevanceModel

__all__ = ["FactEvidence", "FactEvidenceModel"]

_FRAMING_WORDS = (
    "name", "named", "called", "known", "kind", "type", "sort", "also", "one", "famous", "considered",
    "refer", "referred", "commonly", "specific", "particular", "exactly", "originally", "actual",
    "happen", "happens", "happened", "mean", "means",
)


@dataclass(frozen=True, slots=True)
class FactEvidence:
    """How well the snippets cover one fact.

    Args:
        fact_id: The fact.
        terms: The analysed terms it needs.
        coverage: Best fraction of ``terms`` found (single snippet or a bridged chain).
        covered: Whether ``coverage`` reaches the threshold (and dependencies hold).
        snippet_ids: The snippets giving that coverage, in chain order.
        missing_terms: Terms still not found.
        bridges: Entities in the evidence that the question does not name, in text order.
        blocked_by: A dependency that is not covered yet (then nothing else counts).
    """

    fact_id: str
    terms: tuple[str, ...]
    coverage: float
    covered: bool
    snippet_ids: tuple[str, ...]
    missing_terms: tuple[str, ...]
    bridges: tuple[str, ...]
    blocked_by: str = ""


class FactEvidenceModel(PassageReader):
    """Computes :class:`FactEvidence` for every fact of a plan.

    Args:
        analyzer: Analyzer for facts and snippets (default English + Snowball).
        term_threshold: Fraction of description terms that counts as covered when a fact has
            no ``required_terms`` (with ``required_terms`` every term is needed).
        max_chain_heads: How many partially covering snippets to try as chain heads.
        check_answer_type: For facts without ``required_terms``, also require a span of the
            type the description asks for (a date for "when", a name for "who"...) that the
            question does not already name (see :func:`~agentic_rag._text.questions.answer_type`).
        require_chains: A fact whose description is a bridge question (it describes an
            unnamed entity, see :func:`is_bridge_question`) is only covered by a chain of two
            passages.
        relevance: When given, a fact that is a plain question (no ``required_terms``, no
            dependency, no compared item) is covered by how much of
            it a passage answers under this model: terms weighted by how informative they
            are in the collection and matched on stems, roots and spelling (see
            :meth:`relevance_share`), instead of the share of its words a passage repeats.
            That reads paraphrased questions; names, identifiers and numbers still must match,
            and a question asking for a number or version needs a digit where it is answered
            (this replaces the answer-type check, whose "when" reads "which exception do I
            get when..." as a question for a date).
        relevance_threshold: The :meth:`relevance_share` that covers such a fact.
    """

    def __init__(
        self,
        analyzer: Analyzer | None = None,
        *,
        term_threshold: float = 0.8,
        max_chain_heads: int = 5,
        check_answer_type: bool = True,
        require_chains: bool = True,
        relevance: RelevanceModel | None = None,
        relevance_threshold: float = 0.6,
    ) -> None:
        self.analyzer = analyzer or Analyzer()
        self.relevance = relevance
        self.relevance_threshold = relevance_threshold
        self.require_chains = require_chains
        self._framing: frozenset[str] | None = None
        self.check_answer_type = check_answer_type
        self.term_threshold = term_threshold
        self.max_chain_heads = max_chain_heads
        super().__init__(self.analyzer)
        self._key_terms = lru_cache(maxsize=1024)(self._key_terms_uncached)

    def fact_terms(self, fact: RequiredFact) -> tuple[str, ...]:
        """Return the analysed terms ``fact`` needs, deduplicated in first-seen order.

        From a description (no ``required_terms``), words that only frame a question ("name",
        "called", "kind", "known") are left out: passages state facts, they rarely say so.
        """
        if fact.required_terms:
            return tuple(dict.fromkeys(root_of(t) for source in fact.required_terms for t in self.analyzer.analyze(source)))
        framing = self._framing_terms()
        return tuple(dict.fromkeys(root_of(t) for t in self.analyzer.analyze(fact.description) if root_of(t) not in framing))

    def key_terms(self, description: str) -> frozenset[str]:
        """Terms of the names, quoted titles and numbers ``description`` states."""
        return self._key_terms(description)

    def _key_terms_uncached(self, description: str) -> frozenset[str]:
        out: set[str] = set()
        for entity, _, _ in self._entities(description):
            out |= self._terms(entity)
        return frozenset(out - self._framing_terms())

    def _framing_terms(self) -> frozenset[str]:
        if self._framing is None:
            self._framing = self._terms(" ".join(_FRAMING_WORDS))
        return self._framing

    def assess(self, plan: RetrievalPlan, snippets: Sequence[Snippet]) -> tuple[FactEvidence, ...]:
        """Return the evidence for every fact of ``plan``, in plan order.

        Dependencies are resolved in plan order, so a fact must come after the facts it
        depends on to see their bridges (plans refuse any other order). ``snippets`` are
        taken as given, best first: among equally good candidates the earlier one wins
        (scores of different queries are not comparable, so order is the caller's call).
        """
        ordered = list(snippets)
        results: dict[str, FactEvidence] = {}
        for fact in plan.facts:
            results[fact.id] = self._fact(fact, plan, ordered, results)
        return tuple(results[f.id] for f in plan.facts)

    def _fact(self, fact: RequiredFact, plan: RetrievalPlan, snippets: list[Snippet], done: dict[str, FactEvidence]) -> FactEvidence:
        terms = self.fact_terms(fact)
        relevant = self.reads_relevance(fact)
        threshold = 1.0 if fact.required_terms else self.relevance_threshold if relevant else self.term_threshold
        blocked = next((d for d in fact.depends_on if d in done and not done[d].covered), "")
        if blocked or not terms:
            return FactEvidence(fact.id, terms, 0.0, False, (), terms, (), blocked)
        needed = set(terms)
        if fact.depends_on:
            share, chain, base_terms = self._dependent(fact, needed, plan, snippets, done)
            best = (share, chain)
        elif relevant:
            base_terms = frozenset()
            best = self._most_relevant(fact, snippets)
        else:
            base_terms = frozenset()
            best = self._single(fact, needed, threshold, plan, snippets)
        share, chain = best
        found = set(base_terms).union(*(self.snippet_terms(s) for s in chain)) if chain else set(base_terms)
        missing = tuple(t for t in terms if t not in found)
        bridges = tuple(dict.fromkeys(b for s in chain for b in self.bridges(s, plan.question)))
        covered = share >= threshold
        if covered and not fact.required_terms:
            # The names and numbers a question states are what pins it down ("the 2001
            # film"): the threshold forgives missing ordinary words, never these.
            unmet = [t for t in self.key_terms(fact.description) if t not in found]
            if fact.depends_on and chain:
                # A year or number the question gives the next hop ("the 2001 film") must be
                # in that passage itself: the first hop's passage names many years.
                named = {t for d in plan.facts if d.id in fact.depends_on for t in self.fact_terms(d)}
                unmet += [t for t in self.key_terms(fact.description) - named if t.isdigit() and t not in self.snippet_terms(chain[-1])]
            if unmet:
                covered = False
                share = min(share, threshold - 1e-6)
        if covered and self.check_answer_type and not fact.required_terms and not relevant:
            # Every question word present is not yet an answer: the evidence must also offer
            # a span of the asked type that the question does not name.
            kind = answer_type(fact.description)
            asked = self._terms(plan.question)
            candidates = [(e, k) for snippet in chain for e, k, _ in self._entities(snippet.text) if not self._terms(e) <= asked]
            if not offers_answer(kind, candidates, " ".join(s.text for s in chain)):
                covered = False
                share = min(share, threshold - 1e-6) if threshold > 0 else share
                missing = missing + (f"<{kind.value}>",)
        return FactEvidence(fact.id, terms, round(share, 6), covered, tuple(s.id for s in chain), missing, bridges)

    def reads_relevance(self, fact: RequiredFact) -> bool:
        """True when ``fact`` is judged by :meth:`relevance_share` (see ``relevance``)."""
        return (
            self.relevance is not None
            and not fact.required_terms
            and not fact.depends_on
            and not fact.metadata.get("compared_item")
        )

    def relevance_share(self, description: str, snippet: Snippet) -> float:
        """How much of ``description`` one passage answers, in [0, 1] (see
        :meth:`RelevanceModel.answer_share`).

        Raises:
            InvalidInputError: The model was built without ``relevance``.
        """
        if self.relevance is None:
            raise InvalidInputError("relevance_share needs a FactEvidenceModel built with relevance=", stage="judge")
        return self.relevance.answer_share(description, snippet.title, snippet.text)

    def _most_relevant(self, fact: RequiredFact, snippets: list[Snippet]) -> tuple[float, tuple[Snippet, ...]]:
        assert self.relevance is not None
        share, index = self.relevance.best_passage(fact.description, [(s.title, s.text) for s in snippets])
        return (share, (snippets[index],)) if index >= 0 else (0.0, ())

    def _single(self, fact: RequiredFact, needed: set[str], threshold: float, plan: RetrievalPlan, snippets: list[Snippet]) -> tuple[float, tuple[Snippet, ...]]:
        """Best single snippet, or chain of two, for a fact that depends on nothing."""
        pool = snippets
        item = fact.metadata.get("compared_item")
        if isinstance(item, str) and item:
            # A compared item is covered by a passage about it, not by one that names it in
            # passing (the other item's article often does) or about something larger.
            pool = [s for s in pool if self._is_about(s, item)]
        single_ok = not (self.require_chains and not fact.required_terms and is_bridge_question(fact.description))
        best: tuple[float, tuple[Snippet, ...]] = (0.0, ())
        best_about = 0
        for snippet in pool:
            share = len(needed & self.snippet_terms(snippet)) / len(needed)
            # Among equally covering snippets, the one *about* the fact (its title made of the
            # fact's terms: the "Manaslu" article for "Manaslu") is the better evidence; of
            # those, the one whose title matches the question longest ("Pro Evolution Soccer
            # 2016" over the series "Pro Evolution Soccer" when the question names the 2016
            # edition).
            about = self._aboutness(snippet, needed, plan.question)
            if share > best[0] or (share == best[0] > 0 and about > best_about):
                best, best_about = (share, (snippet,)), about
        if not single_ok:
            # A question describing an unnamed entity ("the founder of X") needs the passage
            # about X and the passage about the entity it names: one passage is not enough.
            best = (min(best[0], threshold - 1e-6), best[1])
        if best[0] < threshold:
            best = max(best, self._chain(needed, plan.question, snippets, best[0] if single_ok else 0.0), key=lambda b: b[0])
        return best

    def _aboutness(self, snippet: Snippet, needed: set[str], question: str) -> int:
        """How exactly a snippet's title names what a fact asks: 1 when its title is made of
        the fact's terms; more when its title (qualifier aside) holds the fact's terms and
        more, and the question spells it out whole, the longest such title the most specific
        ("Pro Evolution Soccer 2016" over the series "Pro Evolution Soccer" when the question
        names the 2016 edition); else 0."""
        title = self._terms(snippet.title) if snippet.title else frozenset()
        if not title:
            return 0
        name = " ".join(without_qualifier(snippet.title).casefold().split())
        base = self._terms(name)
        if base > needed and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", " ".join(question.casefold().split())):
            return 1 + len(base)
        return 1 if title <= needed else 0

    def _dependent(self, fact: RequiredFact, needed: set[str], plan: RetrievalPlan, snippets: list[Snippet], done: dict[str, FactEvidence]) -> tuple[float, tuple[Snippet, ...], frozenset[str]]:
        """Best (base, next hop) for a fact that builds on covered facts.

        The base is the dependencies' evidence, or another passage that covers them as well
        (the first hop's passage the judge picked may not be the one naming the bridge); what
        the base covers counts, and the next passage must be about an entity the base names.
        """
        deps = [d for d in plan.facts if d.id in fact.depends_on]
        chosen = [s for s in snippets if any(s.id in done[d.id].snippet_ids for d in deps)]
        alternatives = []
        if len(deps) == 1 and deps[0].required_terms:
            dep_terms = set(self.fact_terms(deps[0]))
            alternatives = [s for s in snippets if s not in chosen and dep_terms <= self.snippet_terms(s)][: self.max_chain_heads]
        bases: list[tuple[Snippet, ...]] = [tuple(chosen)] + [(s,) for s in alternatives]
        chosen_terms = frozenset().union(*(self.snippet_terms(s) for s in chosen)) if chosen else frozenset()
        best: tuple[float, tuple[Snippet, ...], frozenset[str]] = (0.0, (), chosen_terms)
        best_keys = False
        # Prefer a next hop that carries what the question says of it ("the 2001 film"):
        # the first hop's passage names many films and many years.
        named = {t for d in deps for t in self.fact_terms(d)}
        keys = self.key_terms(fact.description) - named if not fact.required_terms else frozenset()
        for n, base in enumerate(bases):
            base_terms = frozenset().union(*(self.snippet_terms(s) for s in base)) if base else frozenset()
            bridges = tuple(dict.fromkeys(b for s in base for b in self.bridges(s, plan.question)))
            for tail in snippets:
                if tail in base or not any(self._links(tail, b) for b in bridges):
                    continue
                share = len(needed & (self.snippet_terms(tail) | base_terms)) / len(needed)
                if needed & self.snippet_terms(tail) == needed & base_terms != needed:
                    # A next hop that restates the first (the same sentence in a neighbouring
                    # article: every question word the first hop has, nothing it lacks) does
                    # not answer the part of the question about the entity it leads to.
                    share = min(share, self.term_threshold - 1e-6)
                has_keys = keys <= self.snippet_terms(tail)
                if (has_keys, share) > (best_keys, best[0]):
                    best, best_keys = (share, (tail,) if n == 0 else (*base, tail), base_terms), has_keys
        return best

    def _chain(self, needed: set[str], question: str, snippets: list[Snippet], floor: float) -> tuple[float, tuple[Snippet, ...]]:
        # Heads: the snippets covering most of the fact (stable: earlier wins ties).
        heads = sorted((s for s in snippets if needed & self.snippet_terms(s)), key=lambda s: -len(needed & self.snippet_terms(s)))
        # When some passage is about what the question names, a chain starts there: a chain
        # through two passages about other things is how distractors fake an answer.
        anchors = [s for s in heads if self.is_anchor(s, question)]
        heads = (anchors or heads)[: self.max_chain_heads]
        best: tuple[float, tuple[Snippet, ...]] = (floor, ())
        for head in heads:
            head_terms = needed & self.snippet_terms(head)
            entities = self.bridges(head, question)
            for tail in snippets:
                if tail.id == head.id:
                    continue
                gained = (needed & self.snippet_terms(tail)) - head_terms
                if not gained or not any(self._links(tail, e) for e in entities):
                    continue
                share = (len(head_terms) + len(gained)) / len(needed)
                if share > best[0]:
                    best = (share, (head, tail))
        return best
