"""What a claim's sentence asserts, as far as a lexical reader can see it.

A sentence that holds the asked-for value does not yet state it: a question quoted from a FAQ
("When was Acme Robotics founded? We do not know yet.") asks; "Acme Robotics was not founded
in 2005" denies; "If Acme Robotics had been founded in 1950, ..." supposes; "Some blogs claim
... 1850, which is false" reports a claim to reject it; "For example, ..." illustrates. And a
value stated about another entity ("Beta Corp, a rival of Acme Robotics, was founded in
1987", "... founded by Jane Doe, who was born in 1968") or under a heading that names the
subject while the sentence names another ("# Acme Robotics" over "The Ohio warehouse was
founded in 1999.") belongs to that other entity.

:func:`asserted_text` drops the sentences that ask (a question is never a claim);
:func:`states_fact` reads one sentence against a fact question
(:func:`~agentic_rag._text.answer_slots.read_fact`): the sentence must hold the question's
predicate, in a clause that is not denied, supposed, reported as false or given as an
example, whose subject is the question's subject (or a pronoun, or nothing: the heading then
supplies it), and the asked value must stand in that clause.
"""

from __future__ import annotations

import re

from agentic_rag._regex import lazy_regex
from agentic_rag._text.answer_slots import FactKind, FactQuestion, fact_filler
from agentic_rag._text.asked_attribute import synonyms
from agentic_rag._text.porter import PorterStemmer
from agentic_rag._text.sentences import split_sentences

__all__ = ["asserted_text", "claim_problem", "states_fact"]

_STEMMER = PorterStemmer()
_QUESTION_START = lazy_regex(
    r"^\W*(?:how|what|when|where|who|whom|whose|which|why|is|are|was|were|do|does|did|can|could|should|will|would|has|have|had)\b[^.!]*\?\W*$",
    re.IGNORECASE,
)
_NEGATED = lazy_regex(r"\b(?:not|never|no\s+longer|neither|nor|none)\b|n't\b|\bno\s+(?:one|record|evidence)\b", re.IGNORECASE)
_HYPOTHETICAL = lazy_regex(
    r"\bif\b[^.]*\b(?:had|were)\b|\bwould\s+have\b|\bcould\s+have\b|\bmight\s+have\b|\bwere\s+to\b|\b(?:suppose|supposing|imagine|hypothetical(?:ly)?|pretend)\b",
    re.IGNORECASE,
)
_REPORTED_FALSE = lazy_regex(
    r"\b(?:false|untrue|incorrect(?:ly)?|wrong(?:ly)?|myths?|mistaken(?:ly)?|erroneous(?:ly)?|rumou?r(?:s|ed)?|misconceptions?|allegedly|supposedly|"
    r"claims?|claimed|debunked|contrary\s+to)\b",
    re.IGNORECASE,
)
_EXAMPLE = lazy_regex(r"\b(?:for\s+example|for\s+instance|e\.g\.|example\s*:|as\s+an\s+example|sample\s+sentence|example\s+sentence)", re.IGNORECASE)
_RELATIVE_START = lazy_regex(r"^\s*(?:who|whom|whose|which|where|that)\b", re.IGNORECASE)
# Clause boundaries inside a sentence: a relative or contrastive clause after a comma, a
# semicolon, a dash, or "and"/"but" before a new subject. A break that opens with white space
# starts where the run starts (``(?<!\s)``, where the leftmost match starts anyway): tried from
# each space of a long run, ``\s+`` ran to the run's end every time.
_CLAUSE_BREAK = lazy_regex(
    r",\s*(?=(?:who|whom|whose|which|where|while|whereas|although|though|but|and|unlike)\b)|;\s*|(?<!\s)\s+[-–—]\s+|(?<!\s)\s+(?:and|but)\s+(?=(?:the\s+)?[A-Z])"
)
_AUXILIARY = frozenset("was were is are be been being has have had did does do got".split())
# Words a subject phrase may hold besides the question's subject: articles, pronouns and the
# adverbs that open a clause ("Originally, it was founded in 1999").
_NEUTRAL = frozenset(
    "the a an it its they them this that these those he she his her their itself first originally initially later officially actually "
    "then also which who".split()
)
_WORD = lazy_regex(r"[\w'’]+")
_LEADING_ADVERBIAL = lazy_regex(r"^(?:(?:in|on|at|by|during|after|before|since|around|about|circa|from)\b[^,]*|\w+ly|\w+),\s*", re.IGNORECASE)


def asserted_text(text: str) -> str:
    """``text`` without the sentences that ask: a question quoted in a passage is never a
    claim (``""`` when every sentence asks)."""
    # The sentences kept stand as the text wrote them: the line and paragraph breaks
    # between them still part list items and claims.
    kept, last = [], 0
    for sentence in split_sentences(text):
        if is_question(sentence.text):
            kept.append(text[last:sentence.start])
            last = sentence.end
    kept.append(text[last:])
    return "".join(kept).strip()


def is_question(sentence: str) -> bool:
    """True for an interrogative sentence (it ends with ``?``, or opens with a question word
    and ends with one)."""
    stripped = sentence.strip()
    return stripped.endswith("?") or bool(_QUESTION_START.match(stripped))


def claim_problem(sentence: str) -> str:
    """Why ``sentence`` states no fact of its own: ``"question"``, ``"negated"``,
    ``"hypothetical"``, ``"reported as false"``, ``"example"``, or ``""`` when it asserts."""
    if is_question(sentence):
        return "question"
    if _HYPOTHETICAL.search(sentence):
        return "hypothetical"
    if _REPORTED_FALSE.search(sentence):
        return "reported as false"
    if _EXAMPLE.search(sentence):
        return "example"
    if _NEGATED.search(sentence):
        return "negated"
    return ""


def _stem(word: str) -> str:
    return _STEMMER.stem(word.casefold().strip("'’"))


def _words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(text)]


def states_fact(fact: FactQuestion, text: str, *, bridge: str = "") -> bool:
    """True when some sentence of ``text`` states the asked value of ``fact`` about its subject.

    Args:
        fact: The fact question (subject, predicate, the kind of value asked for).
        text: The claim's own text (without its heading).
        bridge: For a subject the question describes rather than names ("the founder of Acme
            Robotics"), the text of the claims that name it ("Acme Robotics was founded by
            Jane Doe"): a sentence about an entity they name may answer.

    Returns:
        Whether a sentence asserts it: no question, denial, supposition, reported-false or
        example; the predicate in a clause whose subject is the question's (or a pronoun, or
        none); the asked value in that clause.
    """
    named = frozenset(_words(bridge)) - _NEUTRAL if bridge else frozenset()
    return any(_sentence_states(fact, s.text, named) for s in split_sentences(text))


def _sentence_states(fact: FactQuestion, sentence: str, named: frozenset[str] = frozenset()) -> bool:
    if claim_problem(sentence):
        return False
    # "Established: 1998" states when a company was founded: the predicate in other words.
    predicates = {_stem(w) for w in (fact.predicate, *synonyms(fact.predicate))}
    clauses = [c for c in _CLAUSE_BREAK.split(sentence) if c.strip()]
    for index, clause in enumerate(clauses):
        verb = next((m for m in _WORD.finditer(clause) if _stem(m.group()) in predicates), None)
        if verb is None:
            continue
        if _RELATIVE_START.match(clause):
            # "..., who was born in Paris": the clause is about the word before it.
            antecedent = _words(clauses[index - 1])[-3:] if index else []
            if not fact.subject_words or not set(fact.subject_words) <= set(antecedent):
                continue
            subject_ok = True
        else:
            subject_ok = _subject_is(fact, _subject_phrase(clause[: verb.start()]), named)
        filler = fact_filler(fact, clause)
        if not filler:
            continue
        if fact.kind is FactKind.PERSON and not subject_ok:
            # "Jane Doe founded Acme Robotics": the asked subject is the object.
            after = _words(clause[verb.end():])
            subject_ok = _starts_with(after, fact.subject_words) and filler.casefold() in " ".join(_words(_subject_phrase(clause[: verb.start()])))
        if fact.passive and not subject_ok and not _related(_subject_phrase(clause[: verb.start()])):
            # "When was the Lumo X5 announced?" - "Lumo Aerial announced the X5 on 9 May":
            # the asked subject is the object of the active verb (of a subject that is no
            # one's relation: "Jane Doe's brother" is read as another entity's clause).
            subject_ok = _object_is(fact, clause[verb.end():], sentence)
        if subject_ok:
            return True
    return False


def _subject_phrase(before: str) -> str:
    """The words before the predicate, without auxiliaries, an opening adverbial ("In 1999,")
    or an appositive ("Beta Corp, a rival of Acme Robotics,": "Beta Corp")."""
    before = before.strip()
    while True:
        trimmed = _LEADING_ADVERBIAL.sub("", before, count=1)
        if trimmed == before:
            break
        before = trimmed
    before = before.split(",")[0]
    words = [w for w in _WORD.findall(before)]
    while words and words[-1].casefold() in _AUXILIARY:
        words.pop()
    return " ".join(words)


def _subject_is(fact: FactQuestion, phrase: str, named: frozenset[str] = frozenset()) -> bool:
    """The subject phrase names the question's subject (and nothing else), or is a pronoun or
    empty. A possessive or an "of" ("Jane Doe's brother", "the founder of Acme") names
    another entity. ``named``: the words of the entity a described subject resolves to."""
    words = _words(phrase)
    if named and words and all(w in named or w in _NEUTRAL for w in words):
        return True
    own = set(fact.subject_words)
    # "Version 2 of the Quill API was turned off": an "of" the subject holds names it.
    if any(w.endswith(("'s", "’s")) for w in words) or ("of" in words and "of" not in own):
        return False
    return all(w in own or w in _NEUTRAL for w in words)


# Where an object's noun phrase ends: a preposition, a punctuation mark, a conjunction.
_OBJECT_END = lazy_regex(r"[,;:.()]|\s(?:on|in|at|by|for|from|with|to|during|after|before|since|and|but|as|when|while)\s", re.IGNORECASE)


def _related(phrase: str) -> bool:
    """The phrase names an entity through another ("Jane Doe's brother", "the founder of X")."""
    words = _words(phrase)
    return any(w.endswith(("'s", "’s")) for w in words) or "of" in words


def _object_is(fact: FactQuestion, after: str, sentence: str) -> bool:
    """The words right after the verb name the question's subject ("announced the X5" for the
    Lumo X5), and the sentence holds all of the subject's words (the rest of the name may
    stand in the active subject: "Lumo Aerial announced the X5")."""
    end = _OBJECT_END.search(f" {after} ")
    phrase = [w for w in _words(f" {after} "[: end.start()] if end else after) if w not in ("the", "a", "an", "its", "their")]
    own = set(fact.subject_words)
    return bool(phrase) and all(w in own for w in phrase) and own <= set(_words(sentence))


def _starts_with(words: list[str], prefix: tuple[str, ...]) -> bool:
    content = [w for w in words if w not in ("the", "a", "an")]
    wanted = [w for w in prefix if w not in ("the", "a", "an")]
    return bool(wanted) and content[: len(wanted)] == wanted
