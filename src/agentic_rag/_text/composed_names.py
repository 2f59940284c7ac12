"""Whether a passage names a thing in the question's own words: an identifier made of them.

Asked "is there a logger that simply returns whatever you pass to it?", documentation answers
with a name, ``ReturnLogger``; asked how to "find out which variables a template expects",
with ``find_undeclared_variables``; asked why "Valgrind exits with status 0 even when Memcheck
reports errors", with ``--error-exitcode``. API names are made of the words their users would
say, so a passage that states a name built of two or more of the question's words (its parts
split at underscores, dots, dashes and case changes, analysed as the question is) more often
states the answer than a passage that only uses the words in its sentences. A name the
question itself states is its subject, not its answer, and does not count.
"""

from __future__ import annotations

from agentic_rag._regex import lazy_regex
from agentic_rag._text.answer_slots import identifiers
from agentic_rag._text.relevance import RelevanceModel

__all__ = ["MIN_SHARED_WORDS", "composed_name_share"]

#: A name is made of the question's words when at least this many of its parts are question
#: terms (one shared word is a coincidence: ``field()`` for a question about fields).
MIN_SHARED_WORDS = 2

# Where two words of a camel-case name meet ("Return|Logger", "find|Undeclared").
_CASE_CHANGE = lazy_regex(r"(?<=[a-z0-9])(?=[A-Z])")


def composed_name_share(question: str, text: str, model: RelevanceModel) -> float:
    """The weighted share of ``question``'s terms that the best name in ``text`` is made of:
    over the identifiers of ``text`` (:func:`~agentic_rag._text.answer_slots.identifiers`)
    that the question does not state, those holding at least :data:`MIN_SHARED_WORDS`
    question terms among their parts; 0.0 when none does.

    Args:
        question: The question or query.
        text: The passage, or the lines shown of it.
        model: The collection's relevance model (its analyzer and term weights).

    Returns:
        The share, in [0, 1].
    """
    terms = model.question_terms(question)
    total = sum(t.weight for t in terms)
    if total <= 0 or len(terms) < MIN_SHARED_WORDS:
        return 0.0
    stated = frozenset(identifiers(question))
    asked = question.casefold()
    best = 0.0
    for name in identifiers(text, folded=False):
        folded = name.casefold()
        if folded in stated or folded in asked:
            continue
        parts = frozenset(model.analyzer.analyze(_CASE_CHANGE.sub(" ", name)))
        held = [t.weight for t in terms if t.term in parts]
        if len(held) >= MIN_SHARED_WORDS:
            best = max(best, sum(held) / total)
    return min(1.0, best)
