"""What a hit's ``relevance`` means: the chance that the lines shown of it answer the question.

An agent reads a hit's focus lines and wants to know, before reading them, whether they are
likely to hold the answer. A share of the question's words found in the chunk (the earlier
meaning) does not say that: a page that uses every word of a question the documents do not
answer scores as high as the page that answers it. So ``relevance`` is a logistic model over a
few features of one hit, each read from the hit and the question alone (never from its rank or
its neighbours, so a value means the same across queries of one store):

- ``chunk_coverage``: the weighted share of the question's terms in the chunk with its heading
  path (:meth:`~agentic_rag._text.relevance.RelevanceModel.coverage`);
- ``focus_coverage``: the same share in the focus lines with the heading path (what is shown);
- ``asked_value``: 1 when the question asks for a value (a number, a version, a default, a
  name) and a focus line states one (:mod:`~agentic_rag._text.answer_slots`);
- ``open_question``: 1 when the question asks for no particular kind of value;
- ``shown_named_missing``: 1 when a name, identifier or number the question states is not in
  the focus lines with the heading path
  (:meth:`~agentic_rag._text.relevance.RelevanceModel.missing_named`);
- ``question_terms``: ``ln(1 + n)`` for the question's ``n`` content terms, ``n`` at least 5.
  A long question (one with a situation: "my field is named _token, but ...") is never covered
  whole, so the same coverage says more of it than of a short one. The development questions
  have 3 to 17 terms, most of them 5 or more: a shorter query (a few keywords) counts as 5, so
  the model is never read outside what it was fitted on;
- ``whole_focus``: 1 when the focus shows all its lines (a search's later hits show their best
  line only, which holds the answer less often);
- ``focus_names``: how many identifiers the focus lines state (up to 5, as a share of 5):
  documentation answers "how do I" with a name;
- ``unknown_missing``: 1 when a question term the store never uses is missing from the chunk:
  what the question is about may not be in the documents at all ("trio", "timediff"). Only in a
  store of at least 100 chunks (the development stores have 167 to 11,615): in a few notes
  almost every word of a question is one they never use.

The weights were fitted on the development halves of the docs-QA sets (``bench/fit_relevance.py``:
label 1 when the hit's focus lines hold the key of a part of the question; a logistic model,
then the bias moved so that 0.5 separates the top hits of questions the documents do not answer
from top hits that show the answer) and are reported on the report halves. Below 0.5 a hit is
printed ``weak``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from agentic_rag._text.answer_slots import SlotKind, identifiers, read_slot, slot_filler
from agentic_rag._text.relevance import RelevanceModel

__all__ = ["FEATURES", "WEIGHTS", "answer_likelihood", "hit_features", "likelihood"]

FEATURES = ("chunk_coverage", "focus_coverage", "asked_value", "open_question", "shown_named_missing", "question_terms", "whole_focus",
            "focus_names", "unknown_missing")
#: One weight per feature, then the bias (fitted on dev; see the module docstring).
WEIGHTS = (0.427, 2.534, 0.885, 0.877, -0.900, 1.537, 0.733, 0.486, -0.653, -6.509)
_NUMBERED = re.compile(r"^\d+(?:-\d+)?: ", re.MULTILINE)
_MOST_NAMES = 5
_FEWEST_TERMS = 5
_VOCABULARY_CHUNKS = 100


def hit_features(question: str, title: str, text: str, focus_text: str, model: RelevanceModel, *, whole: bool = True) -> list[float]:
    """The features of one hit, in :data:`FEATURES` order.

    Args:
        question: The query or question.
        title: The hit's heading path.
        text: The chunk's text.
        focus_text: The lines shown of it (numbered ``"12: ..."`` or plain).
        model: The store's relevance model.
        whole: The focus shows all its lines (False: its best line only).
    """
    shown = _NUMBERED.sub("", focus_text)
    slot = read_slot(question)
    asked = slot.kind is not SlotKind.OPEN
    chunk = f"{title}\n{text}"
    terms = model.question_terms(question)
    # A term the store never uses, missing here too (a root or a near spelling of it counts as
    # found: "durations" asked of a text that says "duration").
    unknown = model.weights.document_count >= _VOCABULARY_CHUNKS and any(
        not t.known and c < model.root_credit for t, c in zip(terms, model.credits(question, chunk)))
    return [
        model.coverage(question, chunk),
        model.coverage(question, f"{title}\n{shown}"),
        1.0 if asked and slot_filler(slot, shown) else 0.0,
        0.0 if asked else 1.0,
        1.0 if model.missing_named(question, f"{title}\n{shown}") else 0.0,
        math.log1p(max(len(terms), _FEWEST_TERMS)),
        1.0 if whole else 0.0,
        min(len(identifiers(shown)), _MOST_NAMES) / _MOST_NAMES,
        1.0 if unknown else 0.0,
    ]


def likelihood(features: Sequence[float], weights: Sequence[float] = WEIGHTS) -> float:
    """The logistic model's value for ``features``, in (0, 1)."""
    z = sum(w * x for w, x in zip(weights, features)) + weights[len(features)]
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def answer_likelihood(question: str, title: str, text: str, focus_text: str, model: RelevanceModel, *, whole: bool = True) -> float:
    """The chance that ``focus_text`` (the lines shown of a hit) answers ``question``, rounded
    to 4 places: what ``relevance`` reports.

    Args:
        question: The query or question.
        title: The hit's heading path.
        text: The chunk's text.
        focus_text: The lines shown of it.
        model: The store's relevance model.
        whole: The focus shows all its lines (False: a later search hit's best line only).
    """
    return round(likelihood(hit_features(question, title, text, focus_text, model, whole=whole)), 4)
