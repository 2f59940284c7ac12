"""The second stage of a store search: what an agent reads of each hit, and which hits it reads.

BM25 finds the passage; it does not know which of its lines answer, nor that the chunk it put
first only shares the question's words while the third states the asked value beside them.
Below every interface, where hits are made, this stage takes the first stage's best
candidates (:func:`first_stage_size` of them) and, for each:

1. makes its view (:func:`~agentic_rag._text.focus.view_passage`): the focus lines, numbered
   through the chunk's line map; only for the :func:`viewed_size` best candidates by the cheap
   half of the score (BM25 share, coverage, the heading path's coverage, the question's word
   pairs kept together), since a focus costs a few milliseconds a chunk. The relevance is
   computed for the hits it prints only
   (:func:`~agentic_rag._answering.answer_likelihood.answer_likelihood`, passed to the view as
   its rater);
2. scores it again: the BM25 score as a share of the best candidate's, plus the focus's own
   score (the question's weighted terms its lines hold, and whether a line states what the
   question asks for: a value, a default, a version, a name), plus the passage's coverage of
   the question with its heading path, plus the heading path's own coverage (a section named
   for what is asked), plus the share of the question's word pairs the passage holds close
   together (:func:`~agentic_rag._text.word_pairs.pair_share`: "the development server", not
   "server" here and "development" there), plus the share of the question that a name its
   focus lines state is made of (``ReturnLogger`` for "a logger that returns", an API named in
   its users' words); the weights are a conditional logit fitted on development sets
   (:class:`SecondStageWeights`);
3. keeps each span once: a candidate whose focus lines overlap those of a better hit of the
   same file, or whose focus text is a better hit's (the same paragraph in two files), is
   dropped;
4. cuts the list where it stops being worth reading (:func:`worth_reading`): hits far below the
   best are not printed, so output follows the evidence, not ``k``, unless the best hit is
   weak (its relevance below :data:`~agentic_rag._answering.answer_likelihood.WEAK_RELEVANCE`): a
   weak best hit is no answer to stop at, and the agent sees the alternatives (a weak hit
   alone, "clearly better" than worse ones, was read as the answer); the hits after the first
   :data:`FULL_FOCUS_HITS` show their best statement only, and a hit printed alone shows more
   of its passage (:data:`LONE_HIT_LINES`).
5. joins each printed hit with the consecutive chunks of its section that are among the
   candidates and not printed themselves (:mod:`~agentic_rag._store.joined_chunks`): a long
   section cut by the chunker, whose answer stands in the half that shares fewer of the
   question's words, is one hit whose text and lines cover its found chunks and whose focus
   adds their best statements; the ranking and the cut are not changed.

The weights were chosen on the development halves of the docs-QA sets (``bench/fitting/tune_second_stage.py``)
and are reported on the report halves. Ties break by the chunk id, so the same store and
question give the same hits, byte for byte.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from agentic_rag._answering.answer_likelihood import WEAK_RELEVANCE, answer_likelihood
from agentic_rag._store.entry_tails import entry_default
from agentic_rag._store.joined_chunks import join_printed, view_joined
from agentic_rag._store.page_breaks import completed_focus
from agentic_rag._store.records import AlsoAt, StoreHit
from agentic_rag._store.version_files import asked_versions, name_version
from agentic_rag._text.composed_names import composed_name_share
from agentic_rag._text.focus import PassageView, view_passage
from agentic_rag._text.instructions import is_instruction_like, screened_heading
from agentic_rag._text.relevance import RelevanceModel
from agentic_rag._text.word_pairs import pair_share

__all__ = ["DEFAULT_WEIGHTS", "FIRST_STAGE_MIN", "FULL_FOCUS_HITS", "OUTPUT_CHARS_PER_HIT", "SEARCH_FOCUS_BUDGET", "SEARCH_FOCUS_LINES", "SecondStageWeights", "finish_hits", "first_stage_size",
           "shown_size", "viewed_size", "worth_reading"]

#: The first stage hands at least this many candidates to the second (and 3 per asked hit).
FIRST_STAGE_MIN = 20
_FIRST_STAGE_PER_HIT = 3
_VIEWED_MIN = 8
_VIEWED_MORE = 3
SEARCH_FOCUS_LINES = 3
"""Most focus statements (a sentence, list item, table row or code line, with what it leans
on) of a search hit."""
SEARCH_FOCUS_BUDGET = 150
"""Most characters of a hit's chosen statements once more than its best one is chosen (the best
is shown whole whatever its length)."""
SEARCH_FOCUS_FILL = (400, 150)
"""Characters up to which the first hit's focus (then the second's) takes the statements next
to its chosen ones: the sentence after the one naming the topic often gives the value. Chosen
with the two budgets above and :data:`OUTPUT_CHARS_PER_HIT` on the development halves of the
docs-QA sets (``bench/agents/focus_diagnosis.py``)."""
FULL_FOCUS_HITS = 2
"""The first hits show their whole focus; the hits after them their best statement only (they
are read less often, and each of their lines costs as much)."""
OUTPUT_CHARS_PER_HIT = 220
"""The hits after the first :data:`FULL_FOCUS_HITS` are printed while the output stays within
about this many characters per hit asked for (``k``): an agent pays for every byte, and the
first hits hold most answers."""
_HEADER_CHARS = 40
WEAK_FLOOR_SHARE = 0.8
"""When the best hit is weak, the hits after it are printed while their score is at least this
share of the usual floor (``keep_ratio`` of the best score), and at least the next one: chosen
on the development halves of the docs-QA sets for the output's size (``bench/focus_diagnosis.py``)."""
LONE_HIT_LINES = 5
LONE_HIT_BUDGET = 840
LONE_HIT_SPAN = 12
"""A hit printed alone shows more of its passage (up to this many statements, characters and
lines apart): the output is small, and its answer may stand a few lines below its best line."""


@dataclasses.dataclass(frozen=True, slots=True)
class SecondStageWeights:
    """How the second stage mixes its evidence: a linear score, fitted on development sets as a
    conditional logit (``bench/fitting/tune_second_stage.py``: among one question's viewed
    candidates, the chance that each is the one whose printed lines answer), scaled so that
    ``bm25`` is 1.

    Args:
        bm25: Weight of the BM25 score as a share of the best candidate's.
        focus: Weight of the focus's score.
        relevance: Weight of the passage's coverage of the question with its heading path.
        heading: Weight of the heading path's own coverage of the question: a section named
            for what is asked ("File Uploads", "Native Python Types") holds its answer more
            often than a passage that only uses the question's words.
        pairs: Weight of the share of the question's word pairs that the passage, with its
            heading path, holds within a few words of each other
            (:func:`~agentic_rag._text.word_pairs.pair_share`): a passage about "the output
            format" names the two words together, one that only uses them does not.
        names: Weight of the share of the question that a name stated in the focus lines is
            made of (:func:`~agentic_rag._text.composed_names.composed_name_share`):
            ``ReturnLogger`` for "a logger that returns what you pass it". Chosen on the
            development halves for the first hit's key (the fit gives it about half this).
        version_file: Added when the hit's file is named by a version the query names
            (:mod:`~agentic_rag._store.version_files`): the release's own notes, before the
            later releases that restate them. Chosen by hand on the release-note questions of
            earlier agent A/B rounds, not fitted.
        keep_ratio: A hit is printed while its score is at least this share of the best hit's.
        join: Read each printed hit with the consecutive chunks of its section that are among
            the candidates (:mod:`~agentic_rag._store.joined_chunks`).
    """

    bm25: float = 1.0
    focus: float = 1.13
    relevance: float = 0.55
    heading: float = 0.47
    pairs: float = 0.55
    names: float = 0.6
    version_file: float = 0.5
    keep_ratio: float = 0.9
    join: bool = True


DEFAULT_WEIGHTS = SecondStageWeights()


def viewed_size(k: int) -> int:
    """How many of the candidates get a focus made (the rest cannot reach the first ``k``
    on the cheap half of the score): ``k`` and three more, at least :data:`_VIEWED_MIN`.
    On the development halves of the docs-QA sets, eight for ``k`` 5 print the key as often as
    ten did (126 and 125 of 165; the top hit's 104 either way), for a fifth fewer focuses."""
    return max(_VIEWED_MIN, k + _VIEWED_MORE)


def first_stage_size(k: int) -> int:
    """How many BM25 candidates the second stage re-reads for ``k`` hits."""
    return max(FIRST_STAGE_MIN, _FIRST_STAGE_PER_HIT * k)


def _cheap_score(hit: StoreHit, coverage: float, heading: float, pairs: float, best_bm25: float, weights: SecondStageWeights) -> float:
    """The half of the score read without a focus: BM25 share, the passage's coverage, its
    heading path's, and the share of the question's word pairs it keeps together."""
    share = hit.score / best_bm25 if best_bm25 > 0 else 0.0
    return weights.bm25 * share + weights.relevance * coverage + weights.heading * heading + weights.pairs * pairs


def _score(query: str, hit: StoreHit, view: PassageView, heading: float, pairs: float, best_bm25: float, model: RelevanceModel,
           weights: SecondStageWeights) -> float:
    """A viewed candidate's score: the cheap half plus the focus's own score and the share of
    the question that a name its focus lines state is made of."""
    if view.focus is None:
        return _cheap_score(hit, view.coverage, heading, pairs, best_bm25, weights)
    names = composed_name_share(query, view.focus.text, model) if weights.names else 0.0
    return _cheap_score(hit, view.coverage, heading, pairs, best_bm25, weights) + weights.focus * view.focus.score + weights.names * names


def _same_span(hit: StoreHit, view: PassageView, kept: Sequence[tuple[StoreHit, PassageView]]) -> bool:
    """Whether a better hit already shows this one's lines: overlapping focus lines of the same
    file (page, cell)."""
    span = view.span
    for other, other_view in kept:
        if other.path != hit.path or other.page != hit.page or other.cell != hit.cell:
            continue
        other_span = other_view.span
        if span is None or other_span is None:
            if other.chunk_id == hit.chunk_id:
                return True
            continue
        if span[0] <= other_span[1] and other_span[0] <= span[1]:
            return True
    return False


def _repeated_in(view: PassageView, kept: Sequence[tuple[StoreHit, PassageView]]) -> int | None:
    """The better hit whose focus text is this one's (a paragraph repeated in two files: a
    patch release's notes restating its release's), else ``None``."""
    shown = _folded(view)
    if not shown:
        return None
    return next((n for n, (_, other_view) in enumerate(kept) if shown == _folded(other_view)), None)


def _place(hit: StoreHit, view: PassageView) -> AlsoAt:
    """Where a repeated hit's focus lines stand."""
    start, end = view.span or (hit.start_line, hit.end_line)
    return AlsoAt(hit.path, start, end, hit.page, hit.cell, hit.page_label if hit.page is not None else "")


def _folded(view: PassageView) -> str:
    return " ".join(view.focus.text.casefold().split()) if view.focus is not None else ""


def worth_reading(scores: Sequence[float], ratio: float) -> int:
    """How many of the ranked ``scores`` (best first) to print: those at least ``ratio`` of the
    best one (at least one; all when ``ratio`` is 0)."""
    if not scores or ratio <= 0:
        return len(scores)
    floor = ratio * scores[0]
    return max(1, sum(1 for s in scores if s >= floor))


def finish_hits(query: str, candidates: Sequence[StoreHit], model: RelevanceModel, k: int, *, context: int = 0,
                weights: SecondStageWeights = DEFAULT_WEIGHTS, following: Callable[[StoreHit], StoreHit | None] | None = None) -> list[StoreHit]:
    """The ``k`` hits to show for ``query`` from the first stage's candidates, each carrying its
    focus lines, focus text and relevance.

    Args:
        query: The query.
        candidates: The first stage's hits, best first (:func:`first_stage_size` of them).
        model: The store's relevance model.
        k: Most hits.
        context: Lines of context around each focus.
        weights: How the evidence is mixed.
        following: The chunk after a hit's in its file (``None`` after the last): a focus that
            ends a PDF page inside a sentence is completed from the next page
            (:func:`~agentic_rag._store.page_breaks.completed_focus`); ``None``: never.

    Returns:
        At most ``k`` hits, best first (ties by chunk id), each span once; ``score`` stays the
        BM25 score.
    """
    if not candidates:
        return []
    best_bm25 = max(h.score for h in candidates)
    asked = asked_versions(query) if weights.version_file else frozenset()
    # A focus costs a few milliseconds a chunk: only the candidates that could end up shown
    # (by the cheap half of the score) are read line by line.
    cheap = {}
    for hit in candidates:
        heading = model.coverage(query, hit.section) if hit.section else 0.0
        passage = f"{hit.section}\n{hit.text}"
        pairs = pair_share(query, passage, model) if weights.pairs else 0.0
        named = weights.version_file if asked and name_version(hit.path) in asked else 0.0
        cheap[hit.chunk_id] = (heading, pairs, named + _cheap_score(hit, model.coverage(query, passage), heading, pairs, best_bm25, weights))
    pool = sorted(candidates, key=lambda h: (-cheap[h.chunk_id][2], h.chunk_id))
    viewed = []
    for hit in pool[:viewed_size(k)]:
        # Ranked only: the relevance is computed for the hits that are printed.
        view = view_passage(query, hit.text, model, title=hit.section, marks=hit.line_marks, context=context,
                            max_lines=SEARCH_FOCUS_LINES, budget=SEARCH_FOCUS_BUDGET)
        named = weights.version_file if asked and name_version(hit.path) in asked else 0.0
        viewed.append((named + _score(query, hit, view, *cheap[hit.chunk_id][:2], best_bm25, model, weights), hit, view))
    viewed.sort(key=lambda item: (-item[0], item[1].chunk_id))
    kept: list[tuple[StoreHit, PassageView]] = []
    scores: list[float] = []
    # Where else a kept hit's focus text stands: each repeat is listed under the hit it
    # repeats (``also_at``), so the reader sees both places (which release made a change, and
    # which restated it) without reading the same lines twice.
    repeats: dict[int, list[AlsoAt]] = {}
    for score, hit, view in viewed:
        if len(kept) == k:
            break
        same = _repeated_in(view, kept)
        if same is not None:
            if not _same_span(hit, view, [kept[same]]):
                repeats.setdefault(same, []).append(_place(hit, view))
            continue
        if _same_span(hit, view, kept):
            continue
        kept.append((hit, view))
        scores.append(score)

    def shown_view(rank: int, hit: StoreHit, count: int) -> PassageView:
        """The view printed of the hit at ``rank`` when ``count`` hits are printed."""
        if rank >= FULL_FOCUS_HITS:
            return view_passage(query, hit.text, model, title=hit.section, marks=hit.line_marks, context=context, max_lines=1,
                                rate=answer_likelihood)
        if count == 1:
            return view_passage(query, hit.text, model, title=hit.section, marks=hit.line_marks, context=context, max_lines=LONE_HIT_LINES,
                                budget=LONE_HIT_BUDGET, span=LONE_HIT_SPAN, fill=LONE_HIT_BUDGET, rate=answer_likelihood)
        return view_passage(query, hit.text, model, title=hit.section, marks=hit.line_marks, context=context,
                            max_lines=SEARCH_FOCUS_LINES, budget=SEARCH_FOCUS_BUDGET,
                            fill=SEARCH_FOCUS_FILL[rank] if rank < len(SEARCH_FOCUS_FILL) else 0, rate=answer_likelihood)

    count = worth_reading(scores, weights.keep_ratio)
    views = {0: shown_view(0, kept[0][0], count)} if kept else {}
    if count < len(kept) and views[0].relevance < WEAK_RELEVANCE:
        # The best hit is weak: it is no answer to stop at. The hits after it are printed down
        # to a lower floor, and at least the next one: the alternatives an agent reads before
        # it searches again in other words.
        count = max(count, min(2, len(kept)), worth_reading(scores, weights.keep_ratio * WEAK_FLOOR_SHARE))
        views[0] = shown_view(0, kept[0][0], count)
    # Each printed hit is read with the consecutive chunks of its section the first stage found
    # (joined_chunks.py): its text and lines cover them, its focus shows their best statements.
    joined = join_printed([hit for hit, _ in kept[:count]], candidates) if weights.join else {}
    out = []
    shown = 0
    for rank, (hit, _) in enumerate(kept[:count]):
        view = views.get(rank) or shown_view(rank, hit, count)
        if hit.chunk_id in joined:
            join = joined[hit.chunk_id]
            if rank < FULL_FOCUS_HITS:  # the later hits show their best statement only
                view = view_joined(view_passage, join, view, model, query, title=hit.section, context=context, rate=answer_likelihood)
            hit = join.hit
            if following is not None:
                following = _after(following, join.members[-1], hit.chunk_id)
        focus_text = completed_focus(hit, view, following) if following is not None and context == 0 else view.numbered_text
        span = view.span or (hit.start_line, hit.end_line)
        tail = entry_default(hit, view, following) if following is not None and context == 0 and rank < FULL_FOCUS_HITS else None
        if tail is not None:  # the entry's default sentence, cut off into the next chunk
            focus_text, span = f"{focus_text}\n{tail[0]}", (span[0], max(span[1], tail[1]))
        if rank >= FULL_FOCUS_HITS and shown + shown_size(hit, focus_text) > OUTPUT_CHARS_PER_HIT * k:
            continue  # it would make the output long: a later, shorter hit may still fit
        shown += shown_size(hit, focus_text)
        flagged = is_instruction_like(hit.text) or screened_heading(hit.section)[1]  # words addressed to a model
        out.append(dataclasses.replace(hit, focus_start_line=span[0], focus_end_line=span[1], focus_text=focus_text,
                                       relevance=view.relevance, instruction_like=flagged, also_at=tuple(repeats.get(rank, ()))))
    return out


def _after(following: Callable[[StoreHit], StoreHit | None], last: StoreHit, joined_id: str) -> Callable[[StoreHit], StoreHit | None]:
    """``following`` with the chunk after a joined hit (id ``joined_id``) read after its last
    chunk."""
    return lambda hit: following(last) if hit.chunk_id == joined_id else following(hit)


def shown_size(hit: StoreHit, focus_text: str) -> int:
    """About how many characters a hit takes to print: its focus text, its path and section
    heading path, and the header's fixed part (place, relevance, marks)."""
    return len(focus_text) + len(hit.path) + len(hit.section) + _HEADER_CHARS
