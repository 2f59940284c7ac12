"""How much of a question a text answers: term weights, weighted coverage, ranked units.

People do not ask in the documents' words. Counting every question word alike lets "chase"
or "comes back" sink a passage that plainly holds the answer, and lets a passage full of
common words pass for one that does. So each question term is weighted by how informative it
is in the indexed collection (its inverse document frequency), verbs of asking ("use", "get",
"want") weigh little, and a term matches a text on its stem, its first characters (a word
root), or its spelling (character trigrams), with decreasing credit. Identifier parts count:
``follow_redirects`` and ``followRedirects`` both hold "follow" and "redirects".

A question term the collection never uses is a paraphrase when it is an ordinary word, but
the topic itself when it is a name, an identifier or a number: names keep their full weight,
so a question about something the documents never mention cannot be covered.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from agentic_rag._regex import lazy_regex
from agentic_rag._text.analyzer import Analyzer
from agentic_rag._text.asked_numbers import answer_numbers, stated_numbers, wants_number
from agentic_rag._text.instructions import inside_instruction
from agentic_rag._text.long_runs import bounded_runs
from agentic_rag._text.segments import PassageUnit, UnitKind, split_units
from agentic_rag._text.term_match import CAMEL_STEP as _CAMEL
from agentic_rag._text.term_match import TextTerms, read_text_terms, term_credit
from agentic_rag._text.term_weights import TermWeights, bounded_cache

__all__ = ["RelevanceModel", "ScoredUnit", "TermWeights", "WeightedTerm"]


_WORD = lazy_regex(r"[\w.\-/]+")
_NAMED = lazy_regex(r"[_./]|\d|[a-z][A-Z]|^[A-Z]{2,}")
_OPTION = lazy_regex(r"^--?[A-Za-z]")
# A name joined by "/" or "-" ("HTTP/2", "django-structlog") must stand as written.
_JOINED = lazy_regex(r"^[^\W_]+(?:[/-][^\W_]+)+$")
_FUTURE = lazy_regex(r"\b(?:will|next|upcoming|future)\b", re.IGNORECASE)
_NO_NUMBER_FACTOR = 0.6
# A question for a default value, and the words that state one.
_WANTS_DEFAULT = lazy_regex(r"\bby\s+default\b|\bdefault\s+(?:value|length|timeout|port|size|limit|prefix|class|encoding|format|name|number)\b|\bwhat(?:'s|\s+is)\s+the\s+default\b", re.IGNORECASE)
_STATES_DEFAULT = lazy_regex(r"\bdefault(?:s|ed)?\b|\bunless\b|\botherwise\b|\bif\s+not\s+(?:given|set|specified)\b", re.IGNORECASE)
# Identifiers: dotted or underscored names, calls, camel-case words. Each starts at a word
# boundary: tried from every character of one long word (a hex blob, a run of CJK), ``\w+``
# ran to its end and back each time, quadratic in the word.
_IDENTIFIER = lazy_regex(r"\b\w+(?:[._]\w+)+|\b\w+\(|\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*")
# What naming an API the question does not name adds to a unit's score (measured on the dev
# half: the answering unit among the best three for 50 -> 62 of 86 questions).
_NAMING_BONUS = 0.1
# The noun a question asks about follows its question word ("how many employees", "which
# port"): when the collection never uses it, the topic is missing, not paraphrased.
_TOPIC = lazy_regex(r"\b(?:how\s+(?:many|much)|which|what|whose)\s+((?:[\w'-]+\s+){0,2}?[\w'-]+)\b", re.IGNORECASE)
# "since" opening a question ("since when", "since which release") asks, as "when" does; it
# names nothing a passage must hold ("as of version 3.38.0" answers it).
_ASKING_SINCE = lazy_regex(r"\bsince(?=\s+(?:when|which|what)\b)", re.IGNORECASE)
# The kind of value asked for ("which *version*", "in what *year*") is said by the value
# itself ("2.4.0", "1998"): no topic a passage must name.
_ASKING_KIND = lazy_regex(r"\b(?:which|what)\s+(?:[\w-]+\s+){0,2}?(version|release|year|date)s?\b", re.IGNORECASE)
# A name the collection uses in more than this share of its documents does not pin a
# question down (the project's own name in its documentation).
_COMMON_NAME_SHARE = 0.2
# Words that frame a request rather than name its topic.
_ASKING = frozenset(
    """use used uses using get gets got getting make makes making want wants wanted need needs
    needed way ways possible able tell know mean means happen happens thing things something
    anything someone somebody please actually exactly supposed instead also just really go goes
    going come comes take takes look looks trying try tries done doing work works kind sort
    find figure should would could can""".split()
)


@dataclass(frozen=True, slots=True)
class WeightedTerm:
    """One analysed question term and what it weighs.

    Args:
        term: The analysed (stemmed) term.
        weight: Its weight in coverage sums.
        named: Part of a name, identifier or number (never a mere paraphrase).
        known: The collection uses it (always True without statistics).
        topic: The noun the question asks about ("how many *employees*").
    """

    term: str
    weight: float
    named: bool
    known: bool
    topic: bool = False


@dataclass(frozen=True, slots=True)
class ScoredUnit:
    """A passage unit and how well it answers the question.

    Args:
        passage: Index of the passage in the list given to :meth:`RelevanceModel.rank_units`.
        unit: The unit (offsets into that passage's text).
        score: The ranking score (higher is better).
        coverage: Weighted share of the question the unit covers, with its passage's title.
        heading: The passage's title when it holds the answer the unit lacks (the version
            heading of a changelog entry asked "which release..."); an answer shows it
            before the unit.
    """

    passage: int
    unit: PassageUnit
    score: float
    coverage: float
    heading: str = ""


def _names_api(text: str, question: str) -> float:
    """1.0 when ``text`` names an identifier that the (case-folded) ``question`` does not."""
    return 1.0 if any(m.group().strip("_").casefold() not in question for m in _IDENTIFIER.finditer(text) if m.group().strip("_.(")) else 0.0


class RelevanceModel:
    """Weighted question coverage and unit ranking over one collection's statistics.

    Args:
        analyzer: The collection's analyzer (default English stop words + Snowball).
        weights: Term weights (default: uniform).
        unknown_weight: Weight of an ordinary question word the collection never uses, as a
            share of the collection's weight for a term seen once (a paraphrase is likely).
        asking_weight: Multiplier for verbs of asking ("use", "get", "want").
        root_credit: Credit for a match on the word root only.
        spelling_credit: Credit for a match on spelling (character trigrams) only.
    """

    def __init__(
        self,
        analyzer: Analyzer | None = None,
        *,
        weights: TermWeights | None = None,
        unknown_weight: float = 0.3,
        asking_weight: float = 0.25,
        root_credit: float = 0.85,
        spelling_credit: float = 0.6,
    ) -> None:
        self.analyzer = analyzer or Analyzer()
        self.weights = weights or TermWeights()
        self.unknown_weight = unknown_weight
        self.asking_weight = asking_weight
        self.root_credit = root_credit
        self.spelling_credit = spelling_credit
        self._asking = frozenset(t for w in _ASKING for t in self.analyzer.analyze(w))
        self._text_terms = bounded_cache(self._text_terms_uncached, 4096)
        self._question = bounded_cache(self._question_uncached, 512)
        self._shares = bounded_cache(self._answer_share_uncached, 2048)

    @classmethod
    def of_index(cls, index: object) -> RelevanceModel:
        """A model over an index's statistics and analyzer (a
        :class:`~agentic_rag._retrieval.BM25Index`, or anything with ``analyzer``,
        ``document_frequency(term)`` and ``len()``); build it once per index."""
        return cls(index.analyzer, weights=TermWeights.from_index(index))  # type: ignore[attr-defined]

    def question_terms(self, question: str) -> tuple[WeightedTerm, ...]:
        """The question's analysed terms with their weights, once each, in order."""
        return self._question(question)

    def _question_uncached(self, question: str) -> tuple[WeightedTerm, ...]:
        question = bounded_runs(question)  # a run of data in a question is read up to a bound too
        named: set[str] = set()
        for word in _WORD.findall(question):
            core = word.strip(".-/")
            # A command-line option ("--legacy-auth") is a name, as an identifier is.
            if core and (_NAMED.search(core) or _OPTION.match(word) or (core[0].isupper() and not question.lstrip().startswith(core))):
                named.update(self.analyzer.analyze(_CAMEL.sub(" ", core)))
                named.update(self.analyzer.analyze(core))
        stats = self.weights.has_statistics
        if stats:
            limit = _COMMON_NAME_SHARE * self.weights.document_count
            named = {t for t in named if self.weights.frequency(t) <= limit}
        ceiling = math.log(1.0 + (self.weights.document_count + 0.5) / 1.5) if stats else 1.0
        kinds = {t for m in _ASKING_KIND.finditer(question) for t in self.analyzer.analyze(m.group(1))}
        topic: set[str] = set()
        for match in _TOPIC.finditer(question):
            topic.update(self.analyzer.analyze(match.group(1)))
        out: dict[str, WeightedTerm] = {}
        for term in self._analyse(_ASKING_SINCE.sub(" ", question)):
            if term in out:
                continue
            known = not stats or self.weights.frequency(term) > 0
            is_named = term in named
            if known:
                weight = self.weights.idf(term)
            else:
                weight = ceiling if is_named or term in topic else self.unknown_weight * ceiling
            if term in self._asking and not is_named:
                weight *= self.asking_weight
            out[term] = WeightedTerm(term, weight, is_named, known, term in topic and term not in kinds)
        return tuple(out.values())

    def _analyse(self, text: str) -> list[str]:
        terms = self.analyzer.analyze(text)
        if _CAMEL.search(text):
            terms += self.analyzer.analyze(_CAMEL.sub(" ", text))
        return terms

    def _text_terms_uncached(self, text: str) -> TextTerms:
        return read_text_terms(self.analyzer, text)

    def terms_in_order(self, text: str) -> tuple[str, ...]:
        """The analysed terms of ``text`` in text order (stop words dropped, a run of data read
        up to a bound), read once with the terms its coverage is computed from: a search reads
        each candidate passage for its coverage and for its word pairs."""
        return self._text_terms(text).ordered

    def credit(self, term: str, text: str) -> float:
        """Credit in [0, 1] for finding analysed ``term`` in ``text``."""
        return self._credit(term, self._text_terms(text))

    def _credit(self, term: str, found: TextTerms) -> float:
        credit = found.credits.get(term)
        if credit is None:
            credit = found.credits[term] = term_credit(term, found, self.root_credit, self.spelling_credit)
        return credit

    def coverage(self, question: str, text: str) -> float:
        """Weighted share of ``question``'s terms found in ``text``, in [0, 1].

        Args:
            question: The question (or a fact description).
            text: The text to look in.

        Returns:
            The share; 0.0 for a question without content terms.
        """
        terms = self.question_terms(question)
        total = sum(t.weight for t in terms)
        if total <= 0:
            return 0.0
        found = self._text_terms(text)
        return min(1.0, sum(t.weight * self._credit(t.term, found) for t in terms) / total)

    def credits(self, question: str, text: str) -> tuple[float, ...]:
        """The credit ``text`` gives each of :meth:`question_terms`, in the same order
        (weights left to the caller: a focus window combines the credits of several lines)."""
        found = self._text_terms(text)
        return tuple(self._credit(t.term, found) for t in self.question_terms(question))

    def missing_named(self, question: str, text: str) -> tuple[str, ...]:
        """Names the question states that ``text`` lacks: named terms (names, identifiers,
        numbers the collection does not use everywhere) not found on their stem, names
        joined by "/" or "-" ("HTTP/2") not found as written, and the asked-about noun when
        the collection never uses it or the question asks how many of it."""
        found = self._text_terms(text)
        missing = [t.term for t in self.question_terms(question) if t.named and self._credit(t.term, found) < 1.0]
        # The noun asked about, when the collection never uses it and the text has no
        # near form of it either: "how many employees" of a store that never counts staff.
        # A number asked for is a number of something ("how many employees"): that noun must
        # be there too.
        counted = self.wants_number(question)
        missing += [t.term for t in self.question_terms(question) if t.topic and (counted or not t.known) and self._credit(t.term, found) < self.root_credit]
        folded = text.casefold()
        for word in _WORD.findall(question):
            core = word.strip(".-/")
            if _JOINED.match(core) and any(ch.isupper() or ch.isdigit() for ch in core) and core.casefold() not in folded:
                missing.append(core)
        return tuple(dict.fromkeys(missing))

    def wants_number(self, question: str) -> bool:
        """True when ``question`` asks for a number or a version ("which release", "how
        many"), so an answer must hold a digit."""
        return wants_number(question)

    def rank_units(self, question: str, passages: Sequence[tuple[str, str]], *, limit: int = 0) -> list[ScoredUnit]:
        """Rank the units of ``passages`` by how well each answers ``question``.

        A unit's score mixes its own coverage read with its passage's title (what section it
        stands in), its passage's coverage (a sentence inside a passage about the topic beats
        a lone coincidence), the passage's position (retrieval order), and whether it names an
        API the question does not (an identifier such as ``cache_hash``, ``loop.index0`` or
        ``FrozenInstanceError``: documentation answers "how do I..." with a name). A code block
        with no lead-in, a very short unit and a very long one are discounted. A unit addressed
        to a model, or inside a scripted chat turn
        (:func:`~agentic_rag._text.instructions.inside_instruction`), is no answer and is not
        ranked at all, so no extractive answer quotes it.

        Args:
            question: The question.
            passages: ``(title, text)`` pairs, best first.
            limit: Keep only this many units (0: all).

        Returns:
            Units best first; ties by passage, then offset.
        """
        scored: list[ScoredUnit] = []
        wants = self.wants_number(question)
        pattern = answer_numbers(question)
        asked = set(pattern.findall(question))
        folded = question.casefold()
        for number, (title, text) in enumerate(passages):
            context = self.coverage(question, f"{title}\n{text}")
            prior = 1.0 / (1.0 + 0.5 * number)
            # A heading's version is a past release: no answer to "which version *will*...".
            titled = wants and not _FUTURE.search(question) and bool(set(pattern.findall(title)) - asked)
            for unit in split_units(text):
                if inside_instruction(text, unit.start, unit.end):
                    continue  # addressed to a model, or a scripted chat turn
                own = self.coverage(question, f"{title}\n{unit.text}")
                score = 0.6 * own + 0.3 * context + 0.1 * prior + _NAMING_BONUS * _names_api(unit.text, folded)
                heading = ""
                if wants and not stated_numbers(question, unit.text) - asked:
                    # A number asked for must stand where the answer is: in the unit, or in
                    # its section's title (a changelog's version heading); the question's own
                    # numbers do not count, nor a version of another stage ("deprecated since 4.0").
                    heading = title if titled else ""
                    score *= 0.9 if titled else 0.6
                    own = own if titled else 0.5 * own
                if unit.kind is UnitKind.CODE:
                    score *= 0.75
                if len(unit.text) < 25:
                    score *= 0.85
                elif len(unit.text) > 600:
                    score *= 0.9
                scored.append(ScoredUnit(number, unit, round(score, 9), round(own, 9), heading))
        scored.sort(key=lambda s: (-s.score, s.passage, s.unit.start))
        return scored[:limit] if limit else scored

    def answer_share(self, question: str, title: str, text: str) -> float:
        """How much of ``question`` one passage answers, in [0, 1].

        The mean of the passage's coverage (with its title) and its best unit's coverage
        (with the title): an answer must stand together in one place, not be scattered over
        a long passage. Both workflows judge answerability with this one number.

        Args:
            question: The question or one of its parts.
            title: The passage's title (its section).
            text: The passage's text.

        Returns:
            The share.
        """
        return self._shares(question, title, text)

    def _answer_share_uncached(self, question: str, title: str, text: str) -> float:
        ranked = self.rank_units(question, [(title, text)], limit=1)
        own = ranked[0].coverage if ranked else 0.0
        share = 0.5 * own + 0.5 * self.coverage(question, f"{title}\n{text}")
        if ranked and self.wants_number(question) and not self.gives_number(question, ranked[0]):
            # Asked "how many" or "which version", a passage whose best unit states no such
            # number (nor its heading) talks about the subject without answering.
            share *= _NO_NUMBER_FACTOR
        if ranked and _WANTS_DEFAULT.search(question) and not _STATES_DEFAULT.search(f"{ranked[0].heading}\n{ranked[0].unit.text}"):
            # Asked for a default, the answering unit says what the default is.
            share *= _NO_NUMBER_FACTOR
        return round(share, 6)

    def best_passage(self, question: str, passages: Sequence[tuple[str, str]]) -> tuple[float, int]:
        """The passage that answers ``question`` best, among those holding every name it
        states (see :meth:`missing_named`), by :meth:`answer_share`.

        Args:
            question: The question or one of its parts.
            passages: ``(title, text)`` pairs, best first (the earlier wins ties).

        Returns:
            ``(share, index)``; ``(0.0, -1)`` when no passage qualifies.
        """
        best = (0.0, -1)
        for number, (title, text) in enumerate(passages):
            if self.missing_named(question, f"{title}\n{text}"):
                continue  # a passage lacking a name the question states answers another question
            share = self.answer_share(question, title, text)
            if share > best[0]:
                best = (share, number)
        return best

    def gives_number(self, question: str, scored: ScoredUnit) -> bool:
        """True when ``scored`` states a number (a version, for a version question) that the
        question does not, in the unit itself or in the heading shown with it."""
        pattern = answer_numbers(question)
        return bool(scored.heading) or bool(stated_numbers(question, scored.unit.text) - set(pattern.findall(question)))

    def best_units(self, question: str, passages: Sequence[tuple[str, str]], *, max_units: int = 3, keep_ratio: float = 0.8) -> list[ScoredUnit]:
        """The units an extractive answer quotes: the best one, then up to ``max_units - 1``
        more that score at least ``keep_ratio`` of it and overlap no unit already taken.

        Args:
            question: The question.
            passages: ``(title, text)`` pairs, best first.
            max_units: Most units.
            keep_ratio: Share of the best score a further unit needs.

        Returns:
            The units, best first (empty when no unit covers any of the question).
        """
        ranked = self.rank_units(question, passages)
        if not ranked or ranked[0].coverage <= 0:
            return []
        picked: list[ScoredUnit] = []
        for scored in ranked:
            if len(picked) == max_units or scored.score < keep_ratio * ranked[0].score:
                break
            if any(p.passage == scored.passage and scored.unit.start < p.unit.end and p.unit.start < scored.unit.end for p in picked):
                continue
            picked.append(scored)
        return picked

    def focus(self, question: str, title: str, text: str) -> PassageUnit | None:
        """The unit of one passage that best answers ``question`` (None: no units)."""
        ranked = self.rank_units(question, [(title, text)], limit=1)
        return ranked[0].unit if ranked else None
