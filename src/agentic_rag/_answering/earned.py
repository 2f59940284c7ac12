"""Whether an answer's claims earn the status ``answered``.

A judge that counts the question's terms in the evidence says "sufficient" for a passage that
merely talks about the topic. An agent reading ``answered`` takes the claims as the answer, so
that status must be earned by the claims themselves: for every part of the question (a
compound question has several, :func:`~agentic_rag._text.questions.split_compound`), some
claim, read with the heading it stands under,

* holds every name, identifier and number the part states (numbers as written: "3.7" is not
  "3" and "7" somewhere),
* covers enough of the part's weighted terms (:meth:`RelevanceModel.coverage`),
* holds what the part asks for (:func:`~agentic_rag._text.answer_slots.slot_filler`): a
  version, a number, a stated default (a number for an amount, not how to change it:
  :mod:`~agentic_rag._answering.stated_defaults`), a name the question does not already give,
  of the asked kind and not its own subject in code form, and a flag asked with its command
  is that command's (:mod:`~agentic_rag._answering.asked_names`); a command when asked how to
  do a thing from a terminal, and a how-question's claim names the object of its verb
  (:mod:`~agentic_rag._answering.how_questions`); a sentence that only points elsewhere gives
  nothing, and
* asserts it (:mod:`~agentic_rag._answering.assertions`): a sentence that asks is never a
  claim, and for a question about one subject's date, place or person
  (:func:`~agentic_rag._text.answer_slots.read_fact`) the value stands in a sentence that is
  not denied, supposed, reported as false or given as an example, in the clause of the
  question's predicate whose subject is the question's own (the heading never lends it),
* states what is asked (:mod:`~agentic_rag._answering.attributes`): the sentence holding the
  value (a list item read apart, a table row under its header) is about the asked attribute
  of the asked subject, gives the asked bound or stage rather than a rival one, and is no
  plan, possibility or denial; a definition question wants the asked term's definition, and
* quotes a passage that, with its heading, covers nearly all of the part: a deterministic
  reader can only vouch for an answer stated in the question's own words. Measured on the
  development half of the documentation benchmark, this line is what keeps ``answered``
  right in most cases (short of it, a claim was wrong as often as right); below it the
  answer is partial and the evidence, with its focus lines, is there to read.

A part no claim earns is missing: the answer is at most partial. One check for both
workflows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from agentic_rag._contracts import AnswerStatus
from agentic_rag._answering.asked_names import flag_elsewhere, name_filler
from agentic_rag._answering.assertions import asserted_text, claim_problem, states_fact
from agentic_rag._answering.attributes import statement_problem
from agentic_rag._answering.claim_pieces import claim_pieces as _pieces, is_header_row as _is_header_row, row_header as _row_header, table_intro as _table_intro
from agentic_rag._answering.deferrals import points_elsewhere
from agentic_rag._answering.how_questions import object_unnamed
from agentic_rag._answering.stated_defaults import default_filler
from agentic_rag._answering.withheld import withholds
from agentic_rag._regex import lazy_regex
from agentic_rag._text.asked_attribute import Aspect, asked_aspects, framed_words, read_attribute, with_synonyms, without_aspect_words
from agentic_rag._text.answer_slots import AnswerSlot, SlotKind, read_fact, read_slot, slot_filler
from agentic_rag._text.questions import asked_clause, is_bridge_question, split_compound
from agentic_rag._text.relevance import RelevanceModel

__all__ = ["DEFAULT_CLAIM_COVERAGE", "DEFAULT_PASSAGE_COVERAGE", "ClaimContext", "EarnedVerdict", "checks_value", "earned_verdict"]

#: The weighted share of a question part a claim (with its heading) must cover to answer it;
#: chosen on the development half of the documentation benchmark (``bench/answers/bench_docs_qa.py
#: --split dev``) for the precision of ``answered``.
DEFAULT_CLAIM_COVERAGE = 0.3
#: The weighted share of a question part the quoted passage (with its heading) must cover;
#: chosen on the same development half.
DEFAULT_PASSAGE_COVERAGE = 0.8
# The version is taken whole (a look-ahead, then a back-reference: Python's atomic group), so
# a long dotted run followed by a digit ("1.1.1...1a1" in evidence) is not retried at every
# shorter length, each rescanning the rest of the run; any shorter match fails the same test.
# A placeholder of a usage line or a template: "[OPTION]", "<file>", "{name}".
_PLACEHOLDER = lazy_regex(r"\[[A-Z][A-Z_ -]*\]|<[\w -]+>|\{[\w -]+\}")
# A list item's number ("5. Smart meters: ...") or a numbered section's ("7.4 New cemetery
# site: three possible sites ...", as minutes and rules number their items).
_ITEM_NUMBER = lazy_regex(r"^\s*(?:\d+[.)](?:\s+|$)|\d+(?:\.\d+)+\s+(?=[A-Z][^:.;]{0,60}:))")
_PARENTHESIS = lazy_regex(r"\([^()]*\)")
_BOUNDS = frozenset({Aspect.MAXIMUM, Aspect.MINIMUM})
# A pronoun pointing back at what an earlier part of the question named.
_REFERS_BACK = lazy_regex(r"\b(?:its|it|they|them|their|that|this|those|these|one)\b", re.IGNORECASE)
_DOTTED = lazy_regex(r"(?<![\w.])(?=(\d+(?:\.\d+)+))\1(?![\w.]*\d)")


@dataclass(frozen=True, slots=True)
class ClaimContext:
    """One claim as the check reads it.

    Args:
        heading: The section heading path of the passage it quotes (``""`` for none).
        text: The claim's text.
        passage: The whole passage it quotes.
    """

    heading: str
    text: str
    passage: str


@dataclass(frozen=True, slots=True)
class EarnedVerdict:
    """Which parts of a question the claims answer.

    Args:
        status: ANSWERED when every part is earned, PARTIAL when some is, UNANSWERABLE when
            none is.
        missing: The parts no claim earns, in question order.
    """

    status: AnswerStatus
    missing: tuple[str, ...] = ()


def earned_verdict(question: str, claims: Sequence[ClaimContext], model: RelevanceModel, *,
                   min_coverage: float = DEFAULT_CLAIM_COVERAGE, min_passage: float = DEFAULT_PASSAGE_COVERAGE, before: str = "") -> EarnedVerdict:
    """Judge whether ``claims`` answer every part of ``question``.

    Args:
        question: The question.
        claims: The claims with their headings and passages.
        model: The collection's relevance model.
        min_coverage: The share of a part a claim (with its heading) must cover.
        min_passage: The share of a part the quoted passage (with its heading) must cover.
        before: The part of a compound question asked before ``question``, when
            ``question`` is one of its later parts (a plan's fact): a pronoun in it ("what is
            its default value?") refers to that part.

    Returns:
        The verdict and the parts left unanswered.
    """
    parts = split_compound(question)
    # A subject the question describes ("the founder of Acme") is named by another claim.
    bridge = "\n".join(_without_heading(c) for c in claims)

    def earned(index: int, part: str) -> bool:
        # "..., and what is its default value?": a part that refers back by a pronoun asks
        # about the part before it, which the claim answering it (with its heading) is about
        # too ("instead of the default one" in another setting's entry is no answer).
        earlier = parts[index - 1] if index else before
        referred = asked_clause(earlier) if earlier and _REFERS_BACK.search(asked_clause(part)) else ""
        if _withheld(part, claims, model, min_coverage):
            return False
        return any(_answers(part, claim, model, min_coverage, min_passage, bridge)
                   and (not referred or model.coverage(referred, f"{claim.heading}\n{_without_heading(claim)}") >= min_coverage) for claim in claims)

    missing = tuple(part for index, part in enumerate(parts) if not earned(index, part))
    if not missing:
        return EarnedVerdict(AnswerStatus.ANSWERED)
    return EarnedVerdict(AnswerStatus.PARTIAL if len(missing) < len(parts) else AnswerStatus.UNANSWERABLE, missing)


def _withheld(part: str, claims: Sequence[ClaimContext], model: RelevanceModel, min_coverage: float) -> bool:
    """Some claim about the part (covering it as a claim must, with its heading) says that
    what it asks is not given (:func:`~agentic_rag._answering.withheld.withholds`): the
    document itself says it does not state the value, so no sibling line answers for it."""
    asked = asked_clause(part)
    for claim in claims:
        own = _without_heading(claim)
        if model.coverage(framed_words(asked), f"{claim.heading}\n{own}") < min_coverage:
            continue
        if any(withholds(asked, claim.heading, lead, piece, model) for lead, piece in _pieces(own, claim.passage)):
            return True
    return False


def checks_value(question: str) -> bool:
    """True when the earned check reads a stated value for ``question`` (a number, a version,
    a date, place or person, an attribute of a named subject), not only the words of an
    open question or a mention of a default: only then may an answer look beyond its best
    lines for one that earns it (a line saying "the default" earns a default question)."""
    asked = asked_clause(question)
    return read_slot(asked).kind in (SlotKind.NUMBER, SlotKind.VERSION) or read_fact(asked) is not None or read_attribute(asked) is not None


def _answers(part: str, claim: ClaimContext, model: RelevanceModel, min_coverage: float, min_passage: float, bridge: str) -> bool:
    own = asserted_text(_without_heading(claim))
    if not own:
        return False  # a question quoted from the passage asks; it never answers
    fact = read_fact(part)
    if fact is not None and not states_fact(fact, own, bridge=bridge if is_bridge_question(part) else ""):
        return False
    # A situation told before the question ("My program must use both libraries. What do I
    # define ...?") is context: its names must stand in the passage, but the claim answers
    # what is asked.
    asked = asked_clause(part)
    # A table row is read under its header row, which names what each cell is
    # ("Setting | Default | Description" over "max_connections | 512 | ...").
    # A text names an attribute in its own words ("Employees | 12,400" for how many people).
    # The paragraph that introduces the table ("All fares below are for journeys from Port
    # Askel.") says of every row what the rows leave out.
    context = with_synonyms(f"{claim.heading}\n{_table_intro(own, claim.passage)}\n{_row_header(own, claim.passage)}\n{own}")
    passage = with_synonyms(f"{claim.heading}\n{claim.passage}")
    if model.missing_named(asked, context) or (asked != part and model.missing_named(part, passage)):
        return False
    # A flag asked with its command is that command's; a how-question's object is named.
    if flag_elsewhere(asked, claim.heading, own) or object_unnamed(asked, claim.heading, own):
        return False
    folded = context.casefold()
    if any(number.casefold() not in folded for number in _DOTTED.findall(asked)):
        return False
    # The words asking for a bound ("the smallest payout") are the statement check's to
    # read: a text says "minimum" or "at least" where a question says "smallest".
    covered = framed_words(without_aspect_words(asked) if asked_aspects(asked) & _BOUNDS else asked)
    if model.coverage(covered, context) < min_coverage or model.coverage(covered, passage) < min_passage:
        return False
    return _fills_slot(asked, claim.heading, own, model, min_coverage, claim.passage)


def _fills_slot(asked: str, heading: str, own: str, model: RelevanceModel, min_coverage: float, passage: str = "") -> bool:
    """Some stretch of the claim (a sentence or line with the one before it, read with the
    heading) both holds what ``asked`` asks for and is about it: a name, number or default
    standing in a sentence on another subject ("Usage: tool [OPTION] FILE", "Django 5.2 is a
    long-term support release" for how long support lasts) answers nothing. A filler given
    as an example, or a placeholder (``[OPTION]``, ``<file>``), is no answer either, and a
    question that names the kind of thing it wants (an exception, a command-line option)
    wants a name of that kind."""
    slot = read_slot(asked)
    stretches = _pieces(own, passage)
    pieces = [piece for _, piece in stretches]
    term = _term_line(own)
    for index, (lead, piece) in enumerate(stretches):
        window = " ".join(pieces[max(0, index - 1):index + 1])
        # "(e.g., both IDNA2003 and IDNA2008)" illustrates a word; the sentence still asserts.
        if claim_problem(_PARENTHESIS.sub("", piece)) == "example" or _is_header_row(piece, passage) or points_elsewhere(asked, piece):
            continue
        # A list item's or section's number numbers the item, not what is asked.
        text = f"{heading}\n{window}" if slot.kind is SlotKind.VERSION else _ITEM_NUMBER.sub(" ", piece, count=1)
        text = _PLACEHOLDER.sub(" ", text)
        filler = _filler(slot, asked, text, f"{heading}\n{lead}")
        if not filler or model.coverage(asked, f"{heading}\n{window}") < min_coverage:
            continue
        # "The default is 20 seconds and the maximum accepted is 120 seconds": the bound asked
        # may be a later number of the sentence, in the clause that names it; a number refused
        # for any other reason ends the reading.
        for _ in range(_MOST_NUMBERS if slot.kind is SlotKind.NUMBER else 1):
            if not (problem := statement_problem(asked, heading, piece, filler, model, lead=f"{term}\n{lead}")):
                return True
            if problem not in ("no aspect", "rival aspect"):
                break
            at = text.find(filler)
            text = text[at + len(filler):] if at >= 0 else ""
            if not (filler := _filler(slot, asked, text, f"{heading}\n{lead}")) or filler not in piece:
                break
    return False


# The numbers of one sentence tried in turn for a bound, each read in its own clause.
_MOST_NUMBERS = 4


def _term_line(text: str) -> str:
    """The term a claim describes, when its first line is one (a definition list's
    "SESSION_COOKIE_NAME" over "Default: 'session'"): a few words, no sentence."""
    first = text.strip().split("\n", 1)[0].strip()
    return first if len(first.split()) <= 4 and not re.search(r"[.!?:;,|]\s*$|^[-*+]\s", first) else ""


def _filler(slot: AnswerSlot, asked: str, text: str, context: str) -> str:
    if slot.kind is SlotKind.NAME:
        return name_filler(slot, asked, text, context)
    if slot.kind is SlotKind.DEFAULT:
        return default_filler(slot, asked, text)
    return slot_filler(slot, text)


def _without_heading(claim: ClaimContext) -> str:
    """The claim's own words: an extractive claim may open with its heading ("Acme Robotics:
    The Ohio warehouse ..."), which must not lend the sentence its subject."""
    text = claim.text.strip()
    if claim.heading:
        for heading in (claim.heading, claim.heading.split(" › ")[-1]):
            if heading and text.startswith(f"{heading}: "):
                return text[len(heading) + 2:]
    return text
