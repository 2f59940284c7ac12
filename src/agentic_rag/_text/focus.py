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

from agentic_rag._text.answer_likelihood import answer_likelihood
from agentic_rag._text.answer_slots import SlotKind, identifiers, read_slot, slot_filler
from agentic_rag._text.questions import split_compound
from agentic_rag._text.relevance import RelevanceModel, ScoredUnit
from agentic_rag._text.segments import PassageUnit, UnitKind, split_units

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
_EXTRA_LINE_COST = 0.01
#: Most lines one atom of the focus (a wrapped sentence, item or row) spans.
GROUP_LINES = 3


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


def _line_groups(text: str, lines: list[tuple[int, int]]) -> list[list[int]]:
    """The focus's atoms: runs of consecutive lines that one sentence, list item or table row
    spans (a wrapped sentence is read whole or not at all: its value is often on its second
    line), at most :data:`GROUP_LINES` lines each; every other line is an atom of its own."""
    starts = [a for a, _ in lines]
    parent = list(range(len(lines)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for unit in split_units(text):
        if unit.kind is UnitKind.CODE:
            continue
        first = max(bisect_right(starts, unit.start) - 1, 0)
        last = max(bisect_right(starts, unit.end - 1) - 1, 0)
        # A lead-in unit runs on over the block it introduces; its own sentence ends at the
        # first line that ends with ":".
        for i in range(first, last):
            if text[lines[i][0]:lines[i][1]].endswith(":"):
                last = i
                break
        if 0 < last - first < GROUP_LINES:
            # Sentences that share a line chain together; a run never grows past GROUP_LINES
            # lines, so a paragraph of wrapped sentences is not one atom.
            low, high = first, last
            while low > 0 and root(low - 1) == root(first):
                low -= 1
            while high + 1 < len(lines) and root(high + 1) == root(last):
                high += 1
            if high - low < GROUP_LINES:
                for i in range(first + 1, last + 1):
                    parent[root(i)] = root(first)
    groups: dict[int, list[int]] = {}
    for i in range(len(lines)):
        groups.setdefault(root(i), []).append(i)
    # Unions only join neighbours, so each group is a run; runs in text order.
    return sorted(groups.values())


def focus_of(question: str, text: str, model: RelevanceModel, *, title: str = "", max_lines: int = MAX_LINES,
             span: int = SPAN, width: int = WIDTH, context: int = 0) -> Focus | None:
    """The lines of ``text`` that answer ``question`` best.

    Lines are chosen in atoms: a sentence, list item or table row wrapped over a few lines is
    taken whole (:func:`_line_groups`), so the line that names a setting never comes without
    the line that gives its value.

    Args:
        question: The question or query.
        text: The passage (a chunk's cleaned text; one source line per line).
        model: The collection's relevance model.
        title: The passage's section heading (its terms count as found: the reader sees it).
        max_lines: Most atoms in the focus (>= 1); at most twice as many lines are shown.
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
    groups = _line_groups(text, lines)
    joined = [" ".join(text[lines[i][0]:lines[i][1]].strip() for i in group) for group in groups]
    max_shown = max(2 * max_lines, GROUP_LINES)

    def shown(chosen: Sequence[int]) -> int:
        return sum(len(groups[g]) for g in chosen)

    # A compound question ("Which variable forces colours, and which one turns them off?") gets
    # the best atoms of each of its parts: the whole question's best lines tend to answer the
    # part whose words are rarer, twice.
    parts = split_compound(question)
    chosen: list[int] = []
    scores = []
    for part in parts:
        atoms, value = _choose_atoms(part, model, title, groups, joined, max_lines if len(parts) == 1 else 2, span, max_shown)
        chosen.extend(g for g in atoms if g not in chosen)
        scores.append(value)
    current = sum(scores) / len(scores)
    for g in sorted(chosen):
        following, last = g + 1, groups[g][-1]
        # A lead-in ("Install it with pip:") keeps what it introduces, even past a blank line.
        if following < len(groups) and following not in chosen and text[lines[last][0]:lines[last][1]].endswith(":") \
                and shown(chosen) + len(groups[following]) <= max_shown + 1:
            chosen.append(following)
    picked = sorted(i for g in chosen for i in groups[g])
    if context > 0:
        picked = list(range(max(0, picked[0] - context), min(len(lines), picked[-1] + context + 1)))
    slot = read_slot(question)
    anchors = [t.term for t in model.question_terms(question)] + [n for n in identifiers(question) if len(n) >= 4]

    def shown_line(i: int) -> str:
        line = text[lines[i][0]:lines[i][1]]
        if len(" ".join(line.split())) <= 2 * width:
            return " ".join(line.split())  # a sentence this long is read whole: its value is often last
        line = _best_sentences(question, line, model, slot, 2 * width)
        # A long line is cut around what the question asks for when it holds it, else around
        # the question's words.
        filler = slot_filler(slot, line) if slot.kind is not SlotKind.OPEN else ""
        return trim_line(line, ([filler] if filler and filler.casefold() in line.casefold() else []) + _anchor_words(line, anchors), 2 * width)

    out = tuple(FocusLine(lines[i][0], lines[i][1], shown_line(i)) for i in picked)
    return Focus(out, round(current, 6))


def _choose_atoms(question: str, model: RelevanceModel, title: str, groups: list[list[int]], joined: list[str], max_atoms: int,
                  span: int, max_shown: int) -> tuple[list[int], float]:
    """The atoms (line groups) that answer ``question`` best, chosen greedily: the best one,
    then more within ``span`` lines while each adds enough; and the set's score."""
    terms = model.question_terms(question)
    total = sum(t.weight for t in terms) or 1.0
    weights = [t.weight for t in terms]
    # The heading is shown with the focus, but a line that repeats its words still reads better
    # than one that leans on it: half credit.
    heading = tuple(_HEADING_CREDIT * c for c in model.credits(question, title)) if title else tuple(0.0 for _ in terms)
    slot = read_slot(question)
    names = [n for n in identifiers(question) if len(n) >= 4]
    credits, bonus = [], []
    for text in joined:
        credits.append(model.credits(question, text))
        folded = text.casefold()
        extra = _FILLER_BONUS if slot.kind is not SlotKind.OPEN and slot_filler(slot, text) else 0.0
        if names:
            extra += _EXACT_NAME_BONUS * sum(1 for n in names if n in folded) / len(names)
        bonus.append(extra)

    def score(chosen: Sequence[int]) -> float:
        covered = sum(w * max([heading[k]] + [credits[g][k] for g in chosen]) for k, w in enumerate(weights)) / total
        first = groups[chosen[0]][0]
        distance = sum(_BELOW_COST * (groups[g][0] - first) if groups[g][0] > first else _ABOVE_COST * (first - groups[g][-1])
                       for g in chosen[1:])
        size = sum(len(groups[g]) - 1 for g in chosen) * _EXTRA_LINE_COST
        return (covered + max(bonus[g] for g in chosen) + sum(bonus[g] for g in chosen) * 0.1 - _LINE_COST * (len(chosen) - 1)
                - distance - size)

    def shown(chosen: Sequence[int]) -> int:
        return sum(len(groups[g]) for g in chosen)

    best = max(range(len(groups)), key=lambda g: (score([g]), -g))
    chosen, current = [best], score([best])
    while len(chosen) < max_atoms:
        low, high = groups[min(chosen)][0], groups[max(chosen)][-1]
        candidates = [g for g in range(len(groups)) if g not in chosen and groups[g][-1] > high - span and groups[g][0] < low + span
                      and shown(chosen) + len(groups[g]) <= max_shown]
        if not candidates:
            break
        g = max(candidates, key=lambda c: (score(chosen + [c]), -c))
        gained = score(chosen + [g])
        if gained - current < _MIN_GAIN:
            break
        chosen.append(g)
        current = gained
    return chosen, current


def _best_sentences(question: str, line: str, model: RelevanceModel, slot: object, width: int) -> str:
    """Of a long line holding several sentences (a paragraph on one line), the sentences to
    show within about ``width`` characters: the best one; then the one that adds most of what
    it lacks (the question's other terms, or the asked value: "Default five seconds." three
    sentences on); then neighbours while they fit. ``…`` marks what is left out. A line that
    is one long sentence comes back whole (the caller trims it around the asked value)."""
    units = [u for u in split_units(line) if u.kind is not UnitKind.CODE]
    if len(units) < 2:
        return line
    asks = slot.kind is not SlotKind.OPEN  # type: ignore[attr-defined]
    terms = model.question_terms(question)
    total = sum(t.weight for t in terms) or 1.0
    credits = [model.credits(question, u.text) for u in units]
    fills = [asks and bool(slot_filler(slot, u.text)) for u in units]  # type: ignore[arg-type]

    def value(chosen: Sequence[int]) -> float:
        covered = sum(t.weight * max(credits[i][k] for i in chosen) for k, t in enumerate(terms)) / total
        return covered + (_FILLER_BONUS if any(fills[i] for i in chosen) else 0.0)

    def size(chosen: Sequence[int]) -> int:
        return sum(units[i].end - units[i].start + 2 for i in chosen)

    chosen = [max(range(len(units)), key=lambda i: (value([i]), -i))]
    for part in split_compound(question)[1:] if len(split_compound(question)) > 1 else ():
        # Each part of a compound question gets its own best sentence.
        part_best = max(range(len(units)), key=lambda i: (model.coverage(part, units[i].text), -i))
        if part_best not in chosen and size(chosen + [part_best]) <= width:
            chosen.append(part_best)
    others = [i for i in range(len(units)) if i not in chosen and size(chosen + [i]) <= width]
    if others:
        extra = max(others, key=lambda i: (value(chosen + [i]), -abs(i - chosen[0]), -i))
        if value(chosen + [extra]) - value(chosen) >= _MIN_GAIN:
            chosen.append(extra)
    # Neighbours of the chosen sentences while they fit, nearest first.
    grown = True
    while grown:
        grown = False
        for i in sorted({j + d for j in chosen for d in (1, -1)} - set(chosen), key=lambda j: (min(abs(j - c) for c in chosen), j)):
            if 0 <= i < len(units) and size(chosen + [i]) <= width:
                chosen.append(i)
                grown = True
                break
    chosen.sort()
    out, previous = [], -1
    for i in chosen:
        if i != previous + 1:
            out.append("\u2026")
        out.append(line[units[i].start:units[i].end])
        previous = i
    if previous < len(units) - 1:
        out.append("\u2026")
    return " ".join(out)


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
            (:func:`~agentic_rag._text.answer_likelihood.answer_likelihood`), rounded to 4
            places.
        focus: The focus lines (``None`` for a passage without letters or digits).
        lines: The source line of each focus line (``()`` when the passage has no line map).
        coverage: Weighted share of the question the passage covers with its heading, in
            [0, 1] (:meth:`RelevanceModel.coverage`), rounded to 4 places.
    """

    relevance: float
    focus: Focus | None
    lines: tuple[int, ...] = ()
    coverage: float = 0.0

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
    coverage = round(model.coverage(question, f"{title}\n{text}"), 4)
    focus = focus_of(question, text, model, title=title, context=context, max_lines=max_lines)
    numbers: tuple[int, ...] = ()
    if focus is not None and marks:
        offsets = [offset for offset, _ in marks]
        numbers = tuple(marks[max(bisect_right(offsets, line.start) - 1, 0)][1] for line in focus.lines)
    relevance = answer_likelihood(question, title, text, focus.text if focus is not None else "", model, whole=max_lines > 1)
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
