"""Reading passages for the agentic evidence model: their matching terms, the entities they
name that a question does not (bridges), and whether a passage is about or leads to an entity.

:class:`PassageReader` holds the caches; :class:`~agentic_rag._agentic.fact_evidence.FactEvidenceModel`
builds fact coverage on top of it.
"""

from __future__ import annotations

from functools import lru_cache

from agentic_rag._contracts import Snippet
from agentic_rag._text import Analyzer
from agentic_rag._text.entities import extract_entities
from agentic_rag._text.long_runs import bounded_runs
from agentic_rag._text.sentences import split_sentences

__all__ = ["ROOT_LENGTH", "PassageReader", "root_of", "without_qualifier"]

#: Terms are compared on their first characters only (see :meth:`PassageReader.terms_of`).
ROOT_LENGTH = 5


def root_of(term: str) -> str:
    """A term's first :data:`ROOT_LENGTH` characters, the unit coverage compares."""
    return term[:ROOT_LENGTH]


def without_qualifier(title: str) -> str:
    """``title`` without the parenthesised qualifier that closes it ("Mercury (planet)" ->
    "Mercury"), white space around it dropped; ``title`` itself when none closes it.

    Read from the end with string methods: the substitution this replaces,
    ``\\s*\\([^)]*\\)\\s*$``, was tried from every space and every ``(`` of the title and ran
    to its end each time (quadratic in a long title)."""
    body = title.rstrip()
    if not body.endswith(")"):
        return title
    opening = body.find("(", body.rfind(")", 0, len(body) - 1) + 1)
    return body[:opening].rstrip() if opening >= 0 else title


class PassageReader:
    """Matching terms, entities and bridges of passages, with bounded caches.

    Args:
        analyzer: The analyzer whose terms are compared.
    """

    def __init__(self, analyzer: Analyzer) -> None:
        self.analyzer = analyzer
        self._terms = lru_cache(maxsize=8192)(self._terms_uncached)
        self._entities = lru_cache(maxsize=4096)(lambda text: tuple((m.text, m.kind, m.start) for m in extract_entities(text)))
        self._bridges = lru_cache(maxsize=4096)(self._bridges_uncached)

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
        # A run of data is read up to a bound (see long_runs): the capitalised pieces of a
        # 100 KB base64 or URL token are thousands of candidate names.
        text = bounded_runs(text)
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
        base = self._terms(without_qualifier(snippet.title))
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

    def terms_of(self, text: str) -> frozenset[str]:
        """Return the matching terms of ``text``: analysed terms cut to their first
        :data:`ROOT_LENGTH` characters.

        Stemmers keep derivations apart ("founder" and "founded" stem to "founder" and
        "found"); evidence says "founded by" when the question asks for "the founder", so
        coverage compares these roots, not the stems.
        """
        return self._terms(text)

    def _terms_uncached(self, text: str) -> frozenset[str]:
        return frozenset(root_of(t) for t in self.analyzer.analyze(bounded_runs(text)))
