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

from agentic_rag._text.questions import answer_type, is_bridge_question, offers_answer
from agentic_rag._contracts import RequiredFact, RetrievalPlan, Snippet
from agentic_rag._errors import InvalidInputError
from agentic_rag._text import Analyzer
from agentic_rag._text.entities import extract_entities
from agentic_rag._text.relevance import RelevanceModel
from agentic_rag._text.sentences import split_sentences

__all__ = ["FactEvidence", "FactEvidenceModel"]

#: Terms are compared on their first characters only (see ``FactEvidenceModel.terms_of``).
ROOT_LENGTH = 5


def _root(term: str) -> str:
    return term[:ROOT_LENGTH]


_QUALIFIER = re.compile(r"\s*\([^)]*\)\s*$")
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


class FactEvidenceModel:
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
        self._terms = lru_cache(maxsize=8192)(self._terms_uncached)
        self._entities = lru_cache(maxsize=4096)(lambda text: tuple((m.text, m.kind, m.start) for m in extract_entities(text)))
        self._bridges = lru_cache(maxsize=4096)(self._bridges_uncached)
        self._key_terms = lru_cache(maxsize=1024)(self._key_terms_uncached)

    def fact_terms(self, fact: RequiredFact) -> tuple[str, ...]:
        """Return the analysed terms ``fact`` needs, deduplicated in first-seen order.

        From a description (no ``required_terms``), words that only frame a question ("name",
        "called", "kind", "known") are left out: passages state facts, they rarely say so.
        """
        if fact.required_terms:
            return tuple(dict.fromkeys(_root(t) for source in fact.required_terms for t in self.analyzer.analyze(source)))
        framing = self._framing_terms()
        return tuple(dict.fromkeys(_root(t) for t in self.analyzer.analyze(fact.description) if _root(t) not in framing))

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

    def snippet_terms(self, snippet: Snippet) -> frozenset[str]:
        """Return the analysed terms of a snippet's title and text."""
        return self._terms(f"{snippet.title}\n{snippet.text}")

    def is_anchor(self, snippet: Snippet, question: str) -> bool:
        """True when the snippet is *about* something the question names: at least half of
        its title's terms are in the question (the first hop of a multi-hop question)."""
        title_terms = self._terms(snippet.title) if snippet.title else frozenset()
        return bool(title_terms) and 2 * len(title_terms & self._terms(question)) >= len(title_terms)

    def bridges(self, snippet: Snippet, question: str) -> tuple[str, ...]:
        """Entities in ``snippet`` that ``question`` does not already name, best first.

        Order: the snippet's title unless the snippet is an anchor (its title is mostly in the
        question); then multi-word names and quoted spans; then single-word names; then
        single words that only look like names (a sentence's first word, an acronym); then
        numbers. Within each, entities whose preceding words share more terms with the question
        come first (a bridge sits next to what the question asks about), then by position.
        """
        return self._bridges(snippet.title, snippet.text, self._terms(question))

    def _bridges_uncached(self, title: str, text: str, asked: frozenset[str]) -> tuple[str, ...]:
        ranked: list[tuple[int, int, int, str]] = []
        seen: set[str] = set()
        title_terms = self._terms(title) if title else frozenset()
        if title_terms and 2 * len(title_terms & asked) < len(title_terms):
            ranked.append((0, 0, -1, title))
        if title:
            seen.add(title.casefold())
        sentences = split_sentences(text)
        for entity, kind, start in self._entities(text):
            terms = self._terms(entity)
            if not terms or terms <= asked or entity.casefold() in seen:
                continue
            seen.add(entity.casefold())
            sentence = next((s for s in sentences if s.start <= start < s.end), None)
            # What the question says of the bridge usually stands just before it ("the 2001
            # film Desert Lanterns"), so only a window before the entity counts.
            window = text[max(sentence.start if sentence else 0, start - 32):start + len(entity) + 8]
            overlap = len(self._terms(window) & asked)
            ranked.append((self._bridge_class(entity, kind, sentence is not None and sentence.start == start), -overlap, start, entity))
        return tuple(item[3] for item in sorted(ranked))

    @staticmethod
    def _bridge_class(entity: str, kind: str, sentence_initial: bool) -> int:
        if kind == "number":
            return 4
        if kind == "quoted" or " " in entity:
            return 1
        if sentence_initial or entity.isupper():
            # "Initially", "Along", "TMCF": capitalised by position or an abbreviation.
            return 3
        return 2

    def _is_about(self, snippet: Snippet, entity: str) -> bool:
        """True when a titled snippet's title, without a parenthesised qualifier such as
        "(film)", is made of the entity's terms; an untitled one must mention the entity."""
        if not snippet.title:
            return self.mentions(snippet, entity)
        base = self._terms(_QUALIFIER.sub("", snippet.title))
        return bool(base) and base <= self._terms(entity)

    def _links(self, tail: Snippet, entity: str) -> bool:
        """True when ``tail`` continues a chain through ``entity``: a titled passage must be
        *about* it (title and entity share every term of the shorter), an untitled one must
        mention it."""
        if not tail.title:
            return self.mentions(tail, entity)
        title, named = self._terms(tail.title), self._terms(entity)
        if not title or not named:
            return False
        # A short bare number ("4" of "PlayStation 4") is part of many titles without being
        # what they are about ("Pro Evolution Soccer 4"); a year ("1967") still leads to the
        # events of that year.
        return title <= named or (named <= title and not all(t.isdigit() and len(t) < 4 for t in named))

    def mentions(self, snippet: Snippet, entity: str) -> bool:
        """True when every analysed term of ``entity`` occurs in the snippet."""
        terms = self._terms(entity)
        return bool(terms) and terms <= self.snippet_terms(snippet)

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
        name = " ".join(_QUALIFIER.sub("", snippet.title).casefold().split())
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

    def terms_of(self, text: str) -> frozenset[str]:
        """Return the matching terms of ``text``: analysed terms cut to their first
        :data:`ROOT_LENGTH` characters.

        Stemmers keep derivations apart ("founder" and "founded" stem to "founder" and
        "found"); evidence says "founded by" when the question asks for "the founder", so
        coverage compares these roots, not the stems.
        """
        return self._terms(text)

    def _terms_uncached(self, text: str) -> frozenset[str]:
        return frozenset(_root(t) for t in self.analyzer.analyze(text))
