"""What a hit's ``relevance`` means: the chance that the lines shown of it answer the question.

An agent reads a hit's focus lines and wants to know, before reading them, whether they are
likely to hold the answer. A share of the question's words found in the chunk (the earlier
meaning) does not say that: a page that uses every word of a question the documents do not
answer scores as high as the page that answers it. So ``relevance`` is a logistic model over a
few features of one hit, each read from the hit alone (never from its rank or its neighbours,
so a value means the same across queries of one store):

- ``chunk_coverage``: the weighted share of the question's terms in the chunk with its heading
  path (:meth:`~agentic_rag._text.relevance.RelevanceModel.coverage`);
- ``focus_coverage``: the same share in the focus lines with the heading path (what is shown);
- ``asked_value``: 1 when the question asks for a value (a number, a version, a default, a
  name) and a focus line states one (:mod:`~agentic_rag._text.answer_slots`);
- ``open_question``: 1 when the question asks for no particular kind of value;
- ``heading_coverage``: the same share in the heading path alone;
- ``named_missing``: 1 when a name, identifier or number the question states is not in the
  chunk (:meth:`~agentic_rag._text.relevance.RelevanceModel.missing_named`);
- ``shown_named_missing``: the same for the focus lines with the heading path.

The weights were fitted on the development halves of the docs-QA sets (``bench/fit_relevance.py``:
label 1 when the hit's focus lines hold the key of a part of the question) and are reported on
the report halves. Below 0.5 a hit is printed ``weak``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from agentic_rag._text.answer_slots import SlotKind, read_slot, slot_filler
from agentic_rag._text.relevance import RelevanceModel

__all__ = ["FEATURES", "WEIGHTS", "answer_likelihood", "hit_features", "likelihood"]

FEATURES = ("chunk_coverage", "focus_coverage", "heading_coverage", "asked_value", "open_question", "named_missing", "shown_named_missing")
#: One weight per feature, then the bias (fitted on dev; see the module docstring).
WEIGHTS = (1.234, 2.463, 1.160, 0.772, 1.061, -0.052, -0.395, -2.736)
_NUMBERED = re.compile(r"^\d+: ", re.MULTILINE)


def hit_features(question: str, title: str, text: str, focus_text: str, model: RelevanceModel) -> list[float]:
    """The features of one hit, in :data:`FEATURES` order.

    Args:
        question: The query or question.
        title: The hit's heading path.
        text: The chunk's text.
        focus_text: The lines shown of it (numbered ``"12: ..."`` or plain).
        model: The store's relevance model.
    """
    shown = _NUMBERED.sub("", focus_text)
    slot = read_slot(question)
    asked = slot.kind is not SlotKind.OPEN
    return [
        model.coverage(question, f"{title}\n{text}"),
        model.coverage(question, f"{title}\n{shown}"),
        model.coverage(question, title),
        1.0 if asked and slot_filler(slot, shown) else 0.0,
        0.0 if asked else 1.0,
        1.0 if model.missing_named(question, f"{title}\n{text}") else 0.0,
        1.0 if model.missing_named(question, f"{title}\n{shown}") else 0.0,
    ]


def likelihood(features: Sequence[float], weights: Sequence[float] = WEIGHTS) -> float:
    """The logistic model's value for ``features``, in (0, 1)."""
    z = sum(w * x for w, x in zip(weights, features)) + weights[len(features)]
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def answer_likelihood(question: str, title: str, text: str, focus_text: str, model: RelevanceModel) -> float:
    """The chance that ``focus_text`` (the lines shown of a hit) answers ``question``, rounded
    to 4 places: what ``relevance`` reports."""
    return round(likelihood(hit_features(question, title, text, focus_text, model)), 4)
