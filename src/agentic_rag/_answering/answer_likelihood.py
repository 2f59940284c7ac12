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
  almost every word of a question is one they never use;
- ``states_answer``: 1 when a focus statement, read with the heading path, states what the
  question asks of what it asks about, as the earned check reads a claim
  (:func:`~agentic_rag._answering.earned.earned_verdict`: the asked value, of the asked
  attribute of the asked subject, asserted, not the other bound); 0.5 when it does for some
  parts of a compound question only;
- ``states_other``: 1 when no focus statement does, but one holds a value of the asked kind
  that the statement check (:func:`~agentic_rag._answering.attributes.statement_problem`)
  reads as another attribute's, another subject's or the rival bound or stage: a near miss
  ("The default ``SESSION_COOKIE_NAME`` is 'sessionid'" for the cookie's age), which states a
  value as plainly as the answer does and must not look as likely to answer.

Both read the focus statements only, each once, with the project's statement readers (every
pass linear in its input); a search computes them for the hits it prints, never for the
candidates it drops: the focus is made in the text layer
(:func:`~agentic_rag._text.focus.view_passage`), and the callers that print a view pass
:func:`answer_likelihood` to it as its rater.

The weights were fitted on the development halves of the docs-QA sets (``bench/fitting/fit_relevance.py``:
HTML, PDF, rST and Markdown manuals, and a copy of one under numbered file names; label 1 when the hit's focus lines hold the key of a part of the question; a logistic model,
then the bias moved so that 0.5 separates the top hits of questions the documents do not answer
from top hits that show the answer) and are reported on the report halves. One rule stands over the model: a hit whose printed lines and heading path lack a name the
query states as written (an identifier, an all-capital keyword, a quoted term, a topic the
collection rarely uses: :func:`~agentic_rag._text.stated_names.absent_names`) has its value
halved, so it is always below the weak line. Its lines may share every word of the name
("cache" and "size" for ``cache_size``, "merge" for ``MERGE INTO``) and score high, yet they
talk about something else; and when the documents never state the name, every hit is weak, so
the agent is told the answer is missing. Below
:data:`WEAK_RELEVANCE` (0.5) a hit is printed ``weak``, and a search never prints a weak best hit
alone (:func:`~agentic_rag._store.second_stage.finish_hits`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from agentic_rag._answering.attributes import statement_problem
from agentic_rag._answering.earned import ClaimContext, earned_verdict
from agentic_rag._contracts import AnswerStatus
from agentic_rag._text.answer_slots import SlotKind, identifiers, read_slot, slot_filler
from agentic_rag._text.questions import asked_clause, split_compound
from agentic_rag._text.relevance import RelevanceModel
from agentic_rag._text.stated_names import absent_names

__all__ = ["ABSENT_NAME_SHARE", "FEATURES", "WEAK_RELEVANCE", "WEIGHTS", "answer_likelihood", "hit_features", "likelihood", "names_absent"]

FEATURES = ("chunk_coverage", "focus_coverage", "asked_value", "open_question", "shown_named_missing", "question_terms", "whole_focus",
            "focus_names", "unknown_missing", "states_answer", "states_other")
#: Below this a hit is a weak match: printed ``weak``, and never printed alone.
WEAK_RELEVANCE = 0.5
#: One weight per feature, then the bias (fitted on dev; see the module docstring).
WEIGHTS = (0.230, 3.624, 0.985, 1.265, -0.306, 2.218, 0.751, 0.388, -0.655, 0.340, -0.798, -9.081)
#: What is left of the value of a hit lacking a name the query states: halved, it is below
#: :data:`WEAK_RELEVANCE` whatever the model says, and such hits keep their order among themselves.
ABSENT_NAME_SHARE = 0.5
_NUMBERED = re.compile(r"^\d+(?:-\d+)?: ", re.MULTILINE)
_MOST_NAMES = 5
_FEWEST_TERMS = 5
_VOCABULARY_CHUNKS = 100
_EARNED = {AnswerStatus.ANSWERED: 1.0, AnswerStatus.PARTIAL: 0.5}
# What the statement check says of a sentence that states a value of another thing (not a
# plan, a denial or a missing unit: those state no value as plainly as an answer does).
_OTHER_THING = frozenset({"another subject", "another attribute", "rival aspect"})


def hit_features(question: str, title: str, text: str, focus_text: str, model: RelevanceModel, *, whole: bool = True,
                 pieces: Sequence[str] | None = None) -> list[float]:
    """The features of one hit, in :data:`FEATURES` order.

    Args:
        question: The query or question.
        title: The hit's heading path.
        text: The chunk's text.
        focus_text: The lines shown of it (numbered ``"12: ..."`` or plain).
        model: The store's relevance model.
        whole: The focus shows all its lines (False: its best line only).
        pieces: The focus statements (a table row with its header row is one); ``None``:
            read from ``focus_text`` (each numbered piece, or each line when unnumbered).
    """
    shown = _NUMBERED.sub("", focus_text)
    statements = list(pieces) if pieces is not None else _pieces(focus_text)
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
        *_statement_features(question, title, text, statements, model),
    ]


def _pieces(focus_text: str) -> list[str]:
    """The statements of a focus as printed: each numbered piece (its later lines, a table
    row under its header, included), or each line when it is not numbered."""
    starts = [m.start() for m in _NUMBERED.finditer(focus_text)]
    if not starts:
        return [line for line in focus_text.split("\n") if line.strip()]
    return [_NUMBERED.sub("", focus_text[a:b]).strip() for a, b in zip(starts, [*starts[1:], len(focus_text)])]


def _statement_features(question: str, title: str, text: str, statements: Sequence[str], model: RelevanceModel) -> tuple[float, float]:
    """``states_answer`` and ``states_other`` (see the module docstring)."""
    if not statements:
        return 0.0, 0.0
    # Each statement a paragraph of its own: the earned check reads a table row under its
    # header row, a list item apart, and never joins two statements into one sentence.
    claim = ClaimContext(title, "\n\n".join(statements), text)
    states = _EARNED.get(earned_verdict(question, [claim], model, min_passage=0.0).status, 0.0)
    if states:
        return states, 0.0
    for part in split_compound(question):
        asked = asked_clause(part)
        slot = read_slot(asked)
        if slot.kind is SlotKind.OPEN:
            continue  # an open question: any words may answer it, none is a rival value
        for piece in statements:
            filler = slot_filler(slot, piece)
            if filler and statement_problem(asked, title, piece, filler, model) in _OTHER_THING:
                return 0.0, 1.0
    return 0.0, 0.0


def likelihood(features: Sequence[float], weights: Sequence[float] = WEIGHTS) -> float:
    """The logistic model's value for ``features``, in (0, 1)."""
    z = sum(w * x for w, x in zip(weights, features)) + weights[len(features)]
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def answer_likelihood(question: str, title: str, text: str, focus_text: str, model: RelevanceModel, *, whole: bool = True,
                      pieces: Sequence[str] | None = None) -> float:
    """The chance that ``focus_text`` (the lines shown of a hit) answers ``question``, rounded
    to 4 places: what ``relevance`` reports.

    Args:
        question: The query or question.
        title: The hit's heading path.
        text: The chunk's text.
        focus_text: The lines shown of it.
        model: The store's relevance model.
        whole: The focus shows all its lines (False: a later search hit's best line only).
        pieces: The focus statements (see :func:`hit_features`).
    """
    value = likelihood(hit_features(question, title, text, focus_text, model, whole=whole, pieces=pieces))
    if names_absent(question, title, focus_text, model):
        value *= ABSENT_NAME_SHARE
    return round(value, 4)


def names_absent(question: str, title: str, focus_text: str, model: RelevanceModel) -> bool:
    """Whether the lines shown of a hit, with its heading path, lack a name ``question``
    states (:func:`~agentic_rag._text.stated_names.absent_names`): its relevance is then
    halved, below the weak line.

    Args:
        question: The query or question.
        title: The hit's heading path.
        focus_text: The lines shown of it (numbered or plain).
        model: The store's relevance model.
    """
    return bool(absent_names(question, f"{title}\n{_NUMBERED.sub('', focus_text)}", model))
