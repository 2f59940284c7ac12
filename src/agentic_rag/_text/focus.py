"""A passage's focus: the few statements of it that answer a question, for a reader who pays
for every byte.

An agent reading search results wants the statement that holds the answer, not the 40-line
chunk around it, and it wants it whole: a sentence cut at a line break, a description without
its term, a table row without its header or a setting without its default line is read wrong
or read again. The focus is made of the passage's statements
(:func:`~agentic_rag._text.statements.split_statements`: a sentence joined across its line
breaks, a list item, a table row with its header row, a code line; a definition-list entry's
statements with its term and its default sentence), at most ``max_lines`` of them (not
necessarily adjacent: a setting's name and, four lines below, its ``Default:`` line), their
cores within ``span`` lines, chosen greedily:

* a set of statements scores the weighted share of the question's terms it holds (each term's
  best credit over the statements and the section heading, which the reader is shown as
  well), plus a bonus when a statement holds what the question asks for (a version, a number,
  a stated default, a name it does not already give: :mod:`~agentic_rag._text.answer_slots`)
  and when it names an identifier of the question exactly;
* the best statement starts the set, shown whole whatever its length; another is added while
  it adds enough and the set stays within ``budget`` characters, statements below the first
  preferred to statements above it (a definition list's value follows its name);
* ties go to the earlier statement, so the same passage always gives the same focus.

Each piece (a statement's core, or what it leans on) is one shown line, its white space
collapsed; only a single sentence longer than :data:`LONG` characters is cut, around what the
question asks for when it holds it (``…`` marks a cut), so the asked value is never left out,
and never to leave out only a few words at either end.
The offsets stay those of the pieces, so a citation can point at them.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agentic_rag._text.answer_slots import SlotKind, identifiers, read_slot, slot_filler
from agentic_rag._text.focus_atoms import atoms_of, choose_atoms, filled, size_of, with_line_tails, without_holes
from agentic_rag._text.lines import source_line
from agentic_rag._text.questions import split_compound
from agentic_rag._text.relevance import RelevanceModel, ScoredUnit
from agentic_rag._text.segments import PassageUnit, UnitKind

__all__ = ["Focus", "FocusLine", "PassageView", "Rater", "answer_units", "focus_of", "snippet_title", "trim_line", "view_passage"]

Rater = Callable[..., float]
"""What rates a view's focus lines: called as ``rate(question, title, text, focus_text, model,
whole=..., pieces=...)`` and returning its relevance in [0, 1]. The rater lives in the answers
layer, above this one (``answer_likelihood`` reads the focus statements as the earned check
reads a claim): the callers that print a view pass it in, so this layer imports nothing above it."""

#: Most statements in a focus, how far apart their cores may be (in lines), how many
#: characters they may show together, and the width a cut line is cut to.
MAX_LINES = 3
SPAN = 6
BUDGET = 420
WIDTH = 120
#: A shown piece longer than this is cut (around what is asked).
LONG = 400


@dataclass(frozen=True, slots=True)
class FocusLine:
    """One shown piece of a focus: a statement's core or what it leans on (with ``context``,
    one whole line of the passage).

    Args:
        start: Offset of the piece's first character in the passage text.
        end: Offset just past its last character.
        text: The piece as shown (white space collapsed, line breaks included; cut only
            when longer than :data:`LONG`).
    """

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Focus:
    """The pieces of a passage that answer a question best, in text order.

    Args:
        lines: One or more pieces.
        score: The set's score (higher is better).
    """

    lines: tuple[FocusLine, ...]
    score: float

    @property
    def start(self) -> int:
        """Offset of the first piece."""
        return self.lines[0].start

    @property
    def end(self) -> int:
        """Offset just past the last piece."""
        return self.lines[-1].end

    @property
    def text(self) -> str:
        """The shown pieces, one per line."""
        return "\n".join(line.text for line in self.lines)


def _lines(text: str) -> list[tuple[int, int]]:
    out, position = [], 0
    while position <= len(text):
        stop = text.find("\n", position)
        stop = len(text) if stop < 0 else stop
        if any(ch.isalnum() for ch in text[position:stop]):
            start, end = position, stop
            while text[start].isspace():
                start += 1
            while text[end - 1].isspace():
                end -= 1
            out.append((start, end))
        position = stop + 1
    return out


def trim_line(line: str, anchors: Sequence[str], width: int = WIDTH) -> str:
    """``line`` with white space collapsed, cut to about ``width`` characters around the first
    of ``anchors`` (in their order of preference, case-insensitive) it holds; ``…`` marks each
    cut. A cut that would leave out less than an eighth of ``width`` at either end is not made:
    the last words of a sentence often name what it is about ("... using the |stringformat:'s'
    filter.")."""
    line = " ".join(line.split())
    slack = width // 8
    if len(line) <= width + slack:
        return line
    folded = line.casefold()
    hits = [folded.find(a.casefold()) for a in anchors if a and a.casefold() in folded]
    at = hits[0] if hits else 0  # anchors come in order of preference
    start = max(0, min(at - width // 4, len(line) - width))
    start = line.rfind(" ", 0, start) + 1 if start > slack else 0
    if len(line) - (start + width) <= slack:
        width = len(line) - start  # the rest is short: shown, not cut
    cut = line[start:start + width]
    if start + width < len(line):
        cut = cut[:cut.rfind(" ")] if " " in cut[width // 2:] else cut
        cut += " \u2026"
    return ("\u2026 " if start > 0 else "") + cut


def focus_of(question: str, text: str, model: RelevanceModel, *, title: str = "", max_lines: int = MAX_LINES,
             span: int = SPAN, width: int = WIDTH, context: int = 0, budget: int = BUDGET, fill: int = 0) -> Focus | None:
    """The statements of ``text`` that answer ``question`` best.

    Args:
        question: The question or query.
        text: The passage (a chunk's cleaned text; one source line per line).
        model: The collection's relevance model.
        title: The passage's section heading (its terms count as found: the reader sees it).
        max_lines: Most statements in the focus (>= 1).
        span: Most lines from the first statement's core to the last one's.
        width: Characters a line shown with ``context`` is cut to (twice this).
        context: Show every whole line from ``context`` lines before the focus's first piece
            to ``context`` lines after its last (0: the statements only).
        budget: Most characters the chosen statements show once more than the best one is
            chosen (the best is shown whole whatever its length).
        fill: Then add the statements next to the chosen ones while the focus stays within
            this many characters (0: none).

    Returns:
        The focus, or ``None`` for a text without letters or digits.
    """
    lines = _lines(text)
    if not lines:
        return None
    atoms = atoms_of(text, tuple(lines))
    if not atoms:
        return None

    # A compound question ("Which variable forces colours, and which one turns them off?") gets
    # the best statements of each of its parts: the whole question's best tends to answer the
    # part whose words are rarer, twice.
    parts = split_compound(question)
    chosen: list[int] = []
    scores = []
    for part in parts:
        entries = {atoms[a].entry for a in chosen if atoms[a].entry >= 0}
        taken = frozenset(a for a in range(len(atoms)) if a in chosen or atoms[a].entry in entries) if chosen else frozenset()
        picked, value = choose_atoms(part, model, title, atoms, max_lines if len(parts) == 1 else 2, span, budget, taken)
        chosen.extend(a for a in picked if a not in chosen)
        scores.append(value)
    current = sum(scores) / len(scores)
    for a in sorted(chosen):
        # A lead-in ("Install it with pip:") keeps what it introduces, even past a blank line.
        following = a + 1
        if following < len(atoms) and following not in chosen and atoms[a].shown.endswith(":") \
                and size_of(atoms, chosen + [following]) <= budget + len(atoms[following].shown):
            chosen.append(following)
    chosen = with_line_tails(text, atoms, without_holes(text, atoms, filled(atoms, chosen, fill)))
    slot = read_slot(question)
    anchors = [t.term for t in model.question_terms(question)] + [n for n in identifiers(question) if len(n) >= 4]
    if context > 0:
        pieces = sorted({p for a in chosen for p in atoms[a].pieces})
        first = max(0, min(atoms[a].first for a in chosen) - context)
        last = min(len(lines) - 1, max(atoms[a].last for a in chosen) + context)
        first = min(first, _line_index(lines, pieces[0][0]))
        last = max(last, _line_index(lines, pieces[-1][1] - 1))
        shown = tuple(FocusLine(a, b, trim_line(text[a:b], _anchors(slot, text[a:b], anchors), 2 * width)) for a, b in lines[first:last + 1])
        return Focus(shown, round(current, 6))
    pieces = sorted({p for a in chosen for p in atoms[a].pieces})
    return Focus(tuple(FocusLine(a, b, _shown(text[a:b], slot, anchors)) for a, b in pieces), round(current, 6))


def _line_index(lines: list[tuple[int, int]], offset: int) -> int:
    return max(bisect_right([a for a, _ in lines], offset) - 1, 0)


def _anchors(slot: object, piece: str, anchors: Sequence[str]) -> list[str]:
    """Where to cut a long piece around: what the question asks for when the piece holds it,
    else the question's words."""
    filler = slot_filler(slot, piece) if slot.kind is not SlotKind.OPEN else ""  # type: ignore[attr-defined, arg-type]
    return ([filler] if filler and filler.casefold() in piece.casefold() else []) + _anchor_words(piece, anchors)


def _shown(piece: str, slot: object, anchors: Sequence[str]) -> str:
    """A piece as shown: white space collapsed; cut to :data:`LONG` characters around the
    asked value (else the question's words) only when longer."""
    collapsed = " ".join(piece.split())
    if len(collapsed) <= LONG:
        return collapsed
    return trim_line(collapsed, _anchors(slot, collapsed, anchors), LONG)


def _anchor_words(line: str, stems: Sequence[str]) -> list[str]:
    """Words of ``line`` that start with one of the analysed ``stems`` (where to trim around)."""
    out = []
    for word in line.split():
        bare = word.strip(".,;:()[]{}'\"`").casefold()
        if any(stem and bare.startswith(stem) for stem in stems):
            out.append(word)
    return out


@dataclass(frozen=True, slots=True)
class PassageView:
    """What a reader is shown of one passage for one question: made once, below every
    interface, from the passage's text and line map.

    Args:
        relevance: The chance that the focus lines answer the question, in [0, 1]
            (computed by the ``rate`` given to :func:`view_passage`, the answers layer's
            ``answer_likelihood``), rounded to 4 places; 0.0 for a view made without one.
        focus: The focus (``None`` for a passage without letters or digits).
        lines: The first and last source line of each focus piece (``()`` when the passage
            has no line map).
        coverage: Weighted share of the question the passage covers with its heading, in
            [0, 1] (:meth:`RelevanceModel.coverage`), rounded to 4 places.
    """

    relevance: float
    focus: Focus | None
    lines: tuple[tuple[int, int], ...] = ()
    coverage: float = 0.0

    @property
    def span(self) -> tuple[int, int] | None:
        """First and last source line of the focus (``None`` when unknown)."""
        return (min(a for a, _ in self.lines), max(b for _, b in self.lines)) if self.lines else None

    @property
    def numbered_text(self) -> str:
        """The focus pieces, one a line, each after its source lines (``12: ...``, or
        ``12-14: ...`` for a sentence wrapped over three lines; just the pieces when unknown)."""
        if self.focus is None:
            return ""
        if not self.lines:
            return self.focus.text
        return "\n".join(f"{a}: {line.text}" if a == b else f"{a}-{b}: {line.text}" for (a, b), line in zip(self.lines, self.focus.lines))


def view_passage(question: str, text: str, model: RelevanceModel, *, title: str = "", marks: Sequence[tuple[int, int]] = (),
                 context: int = 0, max_lines: int = MAX_LINES, budget: int = BUDGET, span: int = SPAN, fill: int = 0,
                 rate: Rater | None = None) -> PassageView:
    """The relevance and focus of one passage for ``question``.

    Args:
        question: The query or question.
        text: The passage text.
        model: The collection's relevance model.
        title: Its section heading path.
        marks: Its line map, ``(offset, line)`` pairs with offsets increasing from 0 (a
            stored chunk's); ``()`` leaves the focus lines' numbers unknown.
        context: Lines of context around the focus (see :func:`focus_of`).
        max_lines: Most focus statements.
        budget: Most characters of the statements after the best one (see :func:`focus_of`).
        span: Most lines from the first statement to the last.
        fill: Characters up to which neighbouring statements are added (see :func:`focus_of`).
        rate: What computes the relevance from the focus (see :data:`Rater`); ``None``: 0.0,
            for a view only ranked, never shown (the relevance reads each focus statement
            against the question).

    Returns:
        The view.
    """
    coverage = round(model.coverage(question, f"{title}\n{text}"), 4)
    focus = focus_of(question, text, model, title=title, context=context, max_lines=max_lines, budget=budget, span=span, fill=fill)
    numbers: tuple[tuple[int, int], ...] = ()
    if focus is not None and marks:
        numbers = tuple((source_line(marks, line.start), max(source_line(marks, line.start), source_line(marks, line.end - 1)))
                        for line in focus.lines)
    relevance = rate(question, title, text, focus.text if focus is not None else "", model, whole=max_lines > 1,
                     pieces=[line.text for line in focus.lines] if focus is not None else []) if rate is not None else 0.0
    return PassageView(relevance, focus, numbers, coverage)


def answer_units(question: str, passages: Sequence[tuple[str, str]], model: RelevanceModel, *, max_units: int = 2,
                 keep_ratio: float = 0.8, max_lines: int = 5) -> list[ScoredUnit]:
    """The units an extractive answer quotes: the best units of the passages
    (:meth:`RelevanceModel.best_units`: sentences, list items, table rows, code with its
    lead-in); a code block, or a lead-in with the block it introduces, that runs longer than
    ``max_lines`` lines is cut to its focus lines, so a claim that quotes code quotes the few
    lines that answer (prose is kept whole: cutting a sentence loses answers).

    Args:
        question: The question (or one fact of it).
        passages: ``(heading, text)`` pairs, best first.
        model: The collection's relevance model.
        max_units: Most units.
        keep_ratio: Share of the best score a further unit needs.
        max_lines: Most lines of a unit kept whole.

    Returns:
        Units best first (empty when no unit covers any of the question).
    """
    out = []
    slot = read_slot(question)
    for scored in model.best_units(question, passages, max_units=max_units, keep_ratio=keep_ratio):
        unit = scored.unit
        title, text = passages[scored.passage]
        if slot.kind is not SlotKind.OPEN and not slot_filler(slot, unit.text):
            # The unit names the topic but not what is asked ("SESSION_COOKIE_NAME / The name of
            # the session cookie."); its passage's focus may hold both (the "Default:" line
            # below it): quote the focus instead.
            focus = focus_of(question, text, model, title=title)
            if focus is not None and slot_filler(slot, text[focus.start:focus.end]) and focus.start <= unit.start < focus.end:
                out.append(ScoredUnit(scored.passage, PassageUnit(focus.start, focus.end, text[focus.start:focus.end], unit.kind), scored.score,
                                      scored.coverage, scored.heading))
                continue
        if unit.text.count("\n") >= max_lines and (unit.kind is UnitKind.CODE or "\n\n" in unit.text):
            focus = focus_of(question, unit.text, model, title=title, max_lines=4, span=6)
            if focus is not None:
                start, end = unit.start + focus.start, unit.start + focus.end
                unit = PassageUnit(start, end, text[start:end], unit.kind)
        out.append(ScoredUnit(scored.passage, unit, scored.score, scored.coverage, scored.heading))
    return out


def snippet_title(snippet: object) -> str:
    """The heading a passage is read with: a stored chunk's section heading path (``""``
    before any heading), else the passage's own title."""
    metadata = getattr(snippet, "metadata", None) or {}
    section = metadata.get("section")
    return section if isinstance(section, str) else str(getattr(snippet, "title", "") or "")
