"""Whether a sentence says that the asked thing is not offered, or that a body's definition
exists without giving it, or that the body does not define the term at all.

"What does Hearthcell charge to extend a Hearthcell 10 warranty to 15 years?" meets "An
extension to 15 years for the Hearthcell 10 was offered until 31 December 2024. It is no
longer available.": the thing asked about is no longer on offer, so no price, date or term a
sibling line gives is its. So does "Pausing is not available yet" for since when subscribers
can pause. A glossary line "The Guild uses a stricter definition of its own" or "the
Association defines sheltered water differently" names another body's definition without
giving it: the line beside it is the document's own definition, not the body's. "Local: not yet
defined by Quillbridge. The national Guild ... treats "local" as within 30 miles" denies that
the asked body defines the term: the Guild's radius beside it is no answer to what "local"
means at Quillbridge.

:func:`withdrawn_offer`, :func:`own_definition_untold` and :func:`definition_denied` read one sentence (with what its
paragraph says before it) against the asked clause of one question part; the caller
(:mod:`~agentic_rag._answering.withheld`) lets such a sentence outrank its siblings.
"""

from __future__ import annotations

import re

from agentic_rag._answering.definitions import DENIES_DEFINITION
from agentic_rag._answering.word_roots import shares_root as _shared, stem_word as _stem
from agentic_rag._regex import lazy_regex
from agentic_rag._text.asked_attribute import defined_term
from agentic_rag._text.relevance import RelevanceModel

__all__ = ["definition_denied", "own_definition_untold", "withdrawn_offer"]

# The thing is not on offer, and the clause says no more: "It is no longer available.",
# "Pausing is not available yet." A clause that goes on ("is not available in red", "not
# available on Sundays") limits the offer to a variant or a time, which a sibling may give.
_UNOFFERED = lazy_regex(
    r"\b(?:is|are|was|were)\s+(?:no\s+longer|not\s+yet|not)\s+(?:available|offered|on\s+offer|on\s+sale)(?:\s+(?:yet|any\s+more|anymore))?\s*(?:[.;!]|$)",
    re.IGNORECASE,
)
# A question about the end of the offer itself ("Until what date was the extension offered?",
# "When did they stop selling it?") is answered by the sentence before it.
_ASKS_END = lazy_regex(r"\b(?:until|till|no\s+longer|stop\w*|end\w*|withdr\w+|discontinu\w*|offered|available)\b", re.IGNORECASE)
# A pronoun standing for the thing the sentence before named: "It is no longer available."
_PRONOUN = lazy_regex(r"^\W*(?:it|this|that|they|these|those|the\s+offer)\s*$", re.IGNORECASE)
# Where a sentence's subject ends: its first verb.
_VERB = lazy_regex(r"\b(?:is|are|was|were|has|have|had|will|can|could|may|would|should)\b", re.IGNORECASE)
_SENTENCE_END = lazy_regex(r"(?<=[.!?])\s+")
_CLAUSE_START = lazy_regex(r"[;:,—–]\s*")
# A body's definition named and not given: "defines sheltered water differently", "uses a
# stricter definition of its own", "has its own definitions of bleed and safe area". A colon
# or "as" after it introduces the definition itself, which then is given.
_UNTOLD_DEFINITION = lazy_regex(
    r"\bdefines?\s+(?:[\w'’\"-]+\s+){0,4}?(?:differently|otherwise|more\s+\w+ly)\b(?!\s*(?:[:—–]|,?\s+as\b))"
    r"|\bdefinitions?\s+of\s+(?:its|their)\s+own\b(?!\s*[:—–])"
    r"|\b(?:has|have|uses?|applies|apply|keeps?)\s+(?:its|their)\s+own\s+(?:[\w-]+\s+){0,2}?definitions?\b(?!\s*[:—–])",
    re.IGNORECASE,
)
_ASKS_DEFINITION = lazy_regex(r"\b(?:defin\w*|mean\w*)\b", re.IGNORECASE)


def withdrawn_offer(question: str, lead: str, piece: str, model: RelevanceModel) -> bool:
    """True when ``piece`` says the thing ``question`` asks about is not (or no longer, or not
    yet) on offer, and the clause ends there. The sentence's subject, or for a pronoun the
    subject of the sentence before it in ``lead``, must be the asked thing: each of its words
    stands in the question ("Free parking is no longer available" says nothing of what
    parking costs). A question about the end of the offer itself is left to the dates.

    Args:
        question: The asked clause of one question part.
        lead: What the piece's paragraph or list item says before it.
        piece: One sentence or line.
        model: The collection's relevance model.
    """
    match = _UNOFFERED.search(piece)
    if match is None or _ASKS_END.search(question):
        return False
    subject = _CLAUSE_START.split(piece[:match.start()])[-1]
    if _PRONOUN.match(subject):
        before = [s for s in _SENTENCE_END.split(lead.strip()) if s.strip()]
        if not before:
            return False
        verb = _VERB.search(before[-1])
        subject = before[-1][:verb.start()] if verb else ""
    terms = model.analyzer.analyze(subject)
    asked = set(model.analyzer.analyze(question))
    return bool(terms) and all(_shared(t, asked) for t in terms)


def own_definition_untold(question: str, piece: str, model: RelevanceModel) -> bool:
    """True when ``question`` asks a definition and ``piece`` says that the body the question
    names defines the thing its own way without giving that definition; the piece itself
    must hold every name the question states (a line about another body's definition says
    nothing of the asked one's).

    Args:
        question: The asked clause of one question part.
        piece: One sentence or line.
        model: The collection's relevance model.
    """
    if not _ASKS_DEFINITION.search(question) or not _UNTOLD_DEFINITION.search(piece):
        return False
    return not model.missing_named(question, piece)


# A name as a question writes it: a capitalised word that does not open the question.
_QUESTION_NAME = lazy_regex(r"(?<=[\s'‘\"“(])[A-Z][\w-]*")
_CLAUSE_BREAK = lazy_regex(r"[;:—–]\s*|(?<=[.!?])\s+")


def definition_denied(question: str, piece: str) -> bool:
    """True when ``question`` asks what a term means and ``piece`` says that the body the
    question names does not define it ("Local: not yet defined by Quillbridge.", "Dimensional
    accuracy — Fabrika's support centre does not define this term."): the clause of the denial
    names that body (a name of the question that is no word of the term), and the piece names
    the term or calls it "this term". A denial naming another body ("not defined by the Guild")
    or no body ("If PYTHONHOME is not defined, ...") says nothing of the asked one's.

    Args:
        question: The asked clause of one question part.
        piece: One sentence or line.
    """
    term = defined_term(question)
    if not term or not (match := DENIES_DEFINITION.search(piece)):
        return False
    clause = next((c for c in _clauses(piece) if c[0] <= match.start() < c[1]), (0, len(piece)))
    words = {_stem(w) for w in re.findall(r"[\w'’-]+", piece[clause[0]:clause[1]].casefold())} | {
        _stem(re.sub(r"['’]s?$", "", w)) for w in re.findall(r"[\w'’-]+", piece[clause[0]:clause[1]].casefold())}
    bodies = [_stem(w.casefold()) for w in _QUESTION_NAME.findall(question) if w.casefold() not in term]
    if not any(b in words for b in bodies):
        return False
    folded = {_stem(w) for w in re.findall(r"[\w'’-]+", piece.casefold())}
    return all(_stem(t) in folded for t in term) or bool(re.search(r"\b(?:this|the)\s+term\b", piece, re.IGNORECASE))


def _clauses(piece: str) -> list[tuple[int, int]]:
    """The (start, end) spans of ``piece``'s clauses, split at a colon, semicolon, dash or
    sentence end."""
    cuts = [0, *(m.end() for m in _CLAUSE_BREAK.finditer(piece)), len(piece)]
    return [(a, b) for a, b in zip(cuts, cuts[1:])]
