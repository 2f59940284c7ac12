"""A passage's focus: the few lines of it that answer a question, for a reader who pays for
every byte.

An agent reading search results wants the line that holds the answer, not the 40-line chunk
around it. The focus is at most ``max_lines`` lines of the passage's text (not necessarily
adjacent: a setting's name and, four lines below, its ``Default:`` line), all within ``span``
lines, chosen greedily:

* a set of lines scores the weighted share of the question's terms it holds (each term's best
  credit over the lines and the section heading, which the reader is shown as well), plus a
  bonus when a line holds what the question asks for (a version, a number, a stated default,
  a name it does not already give: :mod:`~agentic_rag._text.answer_slots`) and when a line
  names an identifier of the question exactly;
* the best single line starts the set; a line is added while it adds enough, lines below the
  first preferred to lines above it (a definition list's value follows its name);
* ties go to the earlier line, so the same passage always gives the same focus.

Long lines are shown trimmed around the question's terms (``…`` marks a cut). The offsets stay
those of the whole lines, so a citation can point at them.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from agentic_rag._text.answer_slots import SlotKind, identifiers, read_slot, slot_filler
from agentic_rag._text.relevance import RelevanceModel, ScoredUnit
from agentic_rag._text.segments import PassageUnit, UnitKind

__all__ = ["Focus", "FocusLine", "PassageView", "answer_units", "focus_of", "snippet_title", "trim_line", "view_passage"]

#: Most lines in a focus, how far apart they may be, and how wide a shown line is.
MAX_LINES = 3
SPAN = 6
WIDTH = 120
_FILLER_BONUS = 0.25
_EXACT_NAME_BONUS = 0.2
_MIN_GAIN = 0.04
_HEADING_CREDIT = 0.5
# A line that does not end a sentence goes on in the next one ("... the exception becomes" /
# "FrozenAttributeError."): the next line comes with it while there is room.
_ENDS_SENTENCE = (".", "!", "?", ";")
_LINE_COST = 0.03
_BELOW_COST = 0.008
_ABOVE_COST = 0.03


@dataclass(frozen=True, slots=True)
class FocusLine:
    """One line of a focus.

    Args:
        start: Offset of the line's first character in the passage text.
        end: Offset just past its last character.
        text: The line as shown (white space collapsed, trimmed to the shown width).
    """

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Focus:
    """The lines of a passage that answer a question best, in text order.

    Args:
        lines: One to ``max_lines`` lines.
        score: The set's score (higher is better).
    """

    lines: tuple[FocusLine, ...]
    score: float

    @property
    def start(self) -> int:
        """Offset of the first line."""
        return self.lines[0].start

    @property
    def end(self) -> int:
        """Offset just past the last line."""
        return self.lines[-1].end

    @property
    def text(self) -> str:
        """The shown lines, one per line."""
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
    cut."""
    line = " ".join(line.split())
    if len(line) <= width:
        return line
    folded = line.casefold()
    hits = [folded.find(a.casefold()) for a in anchors if a and a.casefold() in folded]
    at = hits[0] if hits else 0  # anchors come in order of preference
    start = max(0, min(at - width // 4, len(line) - width))
    start = line.rfind(" ", 0, start) + 1 if start > 0 else 0
    cut = line[start:start + width]
    if start + width < len(line):
        cut = cut[:cut.rfind(" ")] if " " in cut[width // 2:] else cut
        cut += " \u2026"
    return ("\u2026 " if start > 0 else "") + cut


def focus_of(question: str, text: str, model: RelevanceModel, *, title: str = "", max_lines: int = MAX_LINES,
             span: int = SPAN, width: int = WIDTH, context: int = 0) -> Focus | None:
    """The lines of ``text`` that answer ``question`` best.

    Args:
        question: The question or query.
        text: The passage (a chunk's cleaned text; one source line per line).
        model: The collection's relevance model.
        title: The passage's section heading (its terms count as found: the reader sees it).
        max_lines: Most lines in the focus (>= 1).
        span: Most lines from the first focus line to the last.
        width: Characters a shown line is trimmed to.
        context: Widen the focus to every line from ``context`` lines before its first line
            to ``context`` lines after its last (0: the chosen lines only).

    Returns:
        The focus, or ``None`` for a text without letters or digits.
    """
    lines = _lines(text)
    if not lines:
        return None
    terms = model.question_terms(question)
    total = sum(t.weight for t in terms) or 1.0
    weights = [t.weight for t in terms]
    # The heading is shown with the focus, but a line that repeats its words still reads better
    # than one that leans on it: half credit.
    heading = tuple(_HEADING_CREDIT * c for c in model.credits(question, title)) if title else tuple(0.0 for _ in terms)
    slot = read_slot(question)
    names = [n for n in identifiers(question) if len(n) >= 4]
    credits, bonus = [], []
    for start, end in lines:
        line = text[start:end]
        credits.append(model.credits(question, line))
        folded = line.casefold()
        extra = _FILLER_BONUS if slot.kind is not SlotKind.OPEN and slot_filler(slot, line) else 0.0
        if names:
            extra += _EXACT_NAME_BONUS * sum(1 for n in names if n in folded) / len(names)
        bonus.append(extra)

    def score(chosen: Sequence[int]) -> float:
        covered = sum(w * max([heading[k]] + [credits[i][k] for i in chosen]) for k, w in enumerate(weights)) / total
        first = chosen[0]
        distance = sum(_BELOW_COST * (i - first) if i > first else _ABOVE_COST * (first - i) for i in chosen[1:])
        return covered + max(bonus[i] for i in chosen) + sum(bonus[i] for i in chosen) * 0.1 - _LINE_COST * (len(chosen) - 1) - distance

    best = max(range(len(lines)), key=lambda i: (score([i]), -i))
    chosen, current = [best], score([best])
    while len(chosen) < max_lines:
        low, high = min(chosen), max(chosen)
        candidates = [j for j in range(max(0, high - span + 1), min(len(lines), low + span)) if j not in chosen]
        if not candidates:
            break
        j = max(candidates, key=lambda c: (score(chosen + [c]), -c))
        gained = score(chosen + [j])
        if gained - current < _MIN_GAIN:
            break
        chosen.append(j)
        current = gained
    for i in sorted(chosen):
        following, line = i + 1, text[lines[i][0]:lines[i][1]]
        if following >= len(lines) or following in chosen or following - min(chosen) >= span or line.endswith(_ENDS_SENTENCE):
            continue
        adjacent = "\n" not in text[lines[i][1]:lines[following][0]].strip(" \t").strip("\n") and text.count("\n", lines[i][1], lines[following][0]) <= 1
        # A lead-in ("Install it with pip:") keeps what it introduces, even past a blank line.
        if (adjacent and len(chosen) < max_lines) or (line.endswith(":") and len(chosen) <= max_lines):
            chosen.append(following)
    if context > 0:
        chosen = list(range(max(0, min(chosen) - context), min(len(lines), max(chosen) + context + 1)))
    anchors = [t.term for t in terms] + names

    def shown_line(i: int) -> str:
        line = text[lines[i][0]:lines[i][1]]
        # A long line is cut around what the question asks for when it holds it, else around
        # the question's words.
        filler = slot_filler(slot, line) if slot.kind is not SlotKind.OPEN else ""
        return trim_line(line, ([filler] if filler and filler.casefold() in line.casefold() else []) + _anchor_words(line, anchors), width)

    shown = tuple(FocusLine(lines[i][0], lines[i][1], shown_line(i)) for i in sorted(chosen))
    return Focus(shown, round(current, 6))


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
        relevance: Weighted share of the question the passage covers with its heading, in
            [0, 1] (:meth:`RelevanceModel.coverage`), rounded to 4 places.
        focus: The focus lines (``None`` for a passage without letters or digits).
        lines: The source line of each focus line (``()`` when the passage has no line map).
    """

    relevance: float
    focus: Focus | None
    lines: tuple[int, ...] = ()

    @property
    def span(self) -> tuple[int, int] | None:
        """First and last source line of the focus (``None`` when unknown)."""
        return (self.lines[0], self.lines[-1]) if self.lines else None

    @property
    def numbered_text(self) -> str:
        """The focus lines, each after its source line number (just the lines when unknown)."""
        if self.focus is None:
            return ""
        if not self.lines:
            return self.focus.text
        return "\n".join(f"{number}: {line.text}" for number, line in zip(self.lines, self.focus.lines))


def view_passage(question: str, text: str, model: RelevanceModel, *, title: str = "", marks: Sequence[tuple[int, int]] = (),
                 context: int = 0, max_lines: int = MAX_LINES) -> PassageView:
    """The relevance and focus of one passage for ``question``.

    Args:
        question: The query or question.
        text: The passage text.
        model: The collection's relevance model.
        title: Its section heading path.
        marks: Its line map, ``(offset, line)`` pairs with offsets increasing from 0 (a
            stored chunk's); ``()`` leaves the focus lines' numbers unknown.
        context: Lines of context around the focus (see :func:`focus_of`).
        max_lines: Most focus lines.

    Returns:
        The view.
    """
    relevance = round(model.coverage(question, f"{title}\n{text}"), 4)
    focus = focus_of(question, text, model, title=title, context=context, max_lines=max_lines)
    numbers: tuple[int, ...] = ()
    if focus is not None and marks:
        offsets = [offset for offset, _ in marks]
        numbers = tuple(marks[max(bisect_right(offsets, line.start) - 1, 0)][1] for line in focus.lines)
    return PassageView(relevance, focus, numbers)


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
