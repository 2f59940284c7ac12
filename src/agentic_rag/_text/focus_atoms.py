"""How a focus is chosen among a passage's statements (see :mod:`agentic_rag._text.focus`).

Each statement (:func:`~agentic_rag._text.statements.split_statements`) becomes an
:class:`Atom`: the lines its core spans and what it shows with its attachments.
:func:`choose_atoms` takes the best one for a question, then more while each adds enough of
the question (its words, the asked value, an identifier it names) within a span of lines and a
character budget; :func:`filled` then adds the statements next to the chosen ones while they
fit in a further budget, and :func:`without_holes` the few statements of a paragraph that
stand between two shown pieces of it.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from agentic_rag._text.answer_slots import SlotKind, identifiers, read_slot, slot_filler
from agentic_rag._text.relevance import RelevanceModel
from agentic_rag._text.segments import UnitKind
from agentic_rag._text.statements import split_statements, states_default

__all__ = ["MAX_HOLE", "MAX_TAIL", "Atom", "atoms_of", "choose_atoms", "filled", "size_of", "with_line_tails", "without_holes"]

_FILLER_BONUS = 0.25
_EXACT_NAME_BONUS = 0.2
_DEFAULT_BONUS = 0.05
_MIN_GAIN = 0.04
_HEADING_CREDIT = 0.5
_LINE_COST = 0.03
_BELOW_COST = 0.008
_ABOVE_COST = 0.03
_EXTRA_LINE_COST = 0.01
_OTHER_ENTRY_COST = 0.15
#: A later part of a compound question starts from a statement an earlier part did not take
#: when it scores at least this share of the best one.
_OTHER_PART_SHARE = 0.9
#: Share of the budget the statements after the best one may always show, however long it is.
_EXTRA_SHARE = 0.5
#: Most statements, and characters, that fill a hole between two shown pieces of a paragraph.
MAX_HOLE = 2
_MAX_HOLE_CHARS = 240
#: Most characters of the statements that finish a shown piece's last line ("Added in 7.55.0.").
MAX_TAIL = 80


@dataclass(frozen=True, slots=True)
class Atom:
    """A statement as the chooser sees it.

    Args:
        first: Index of the first line its core spans (among the lines that hold a letter or
            digit).
        last: Index of the last one.
        pieces: Its core and attachments, ``(start, end)`` offsets in text order.
        texts: What each piece shows, white space collapsed.
        code: The core is a line of code.
        entry: Its definition-list entry (-1: none; see
            :attr:`~agentic_rag._text.statements.Statement.entry`).
        core: ``(start, end)`` offsets of the statement itself (one of ``pieces``).
    """

    first: int
    last: int
    pieces: tuple[tuple[int, int], ...]
    texts: tuple[str, ...]
    code: bool
    entry: int
    core: tuple[int, int] = (0, 0)

    @property
    def shown(self) -> str:
        """What the pieces show, one after the other."""
        return " ".join(self.texts)


@lru_cache(maxsize=512)
def atoms_of(text: str, lines: tuple[tuple[int, int], ...]) -> tuple[Atom, ...]:
    """The atoms of ``text``, one per statement, in text order (kept for the last few hundred
    passages: a search reads its first hits twice, and a server's next search, a question
    reworded, meets many of the same chunks; a passage's atoms take a few kilobytes).

    Args:
        text: The passage.
        lines: The ``(start, end)`` offsets of its lines that hold a letter or digit.
    """
    starts = [a for a, _ in lines]

    def line_of(offset: int) -> int:
        return max(bisect_right(starts, offset) - 1, 0)

    out = []
    for statement in split_statements(text):
        start, end = statement.core
        texts = tuple(" ".join(text[a:b].split()) for a, b in statement.pieces)
        out.append(Atom(line_of(start), line_of(end - 1), statement.pieces, texts, statement.kind is UnitKind.CODE, statement.entry,
                        statement.core))
    return tuple(out)


@lru_cache(maxsize=256)
def _names(question: str) -> tuple[str, ...]:
    # Asked of every piece of every candidate: read once a question.
    return tuple(n for n in identifiers(question) if len(n) >= 4)


@lru_cache(maxsize=4096)
def _read_piece(model: RelevanceModel, question: str, text: str) -> tuple[tuple[float, ...], bool, bool, frozenset[str]]:
    """What one piece holds for ``question``: the credit it gives each question term, whether
    it fills what the question asks for, whether it states a default, and which of the
    question's identifiers it names. Kept for the last few thousand pieces: a piece (a term,
    a default line) is shown with several statements, and a search reads its first hits twice."""
    slot = read_slot(question)
    folded = text.casefold()
    return (model.credits(question, text), slot.kind is not SlotKind.OPEN and bool(slot_filler(slot, text)), states_default(text),
            frozenset(n for n in _names(question) if n in folded))


def size_of(atoms: Sequence[Atom], chosen: Sequence[int]) -> int:
    """Characters the chosen statements show (each piece once)."""
    pieces = {p for a in chosen for p in atoms[a].pieces}
    return sum(b - a for a, b in pieces)


_Ratings = tuple[tuple[float, ...], float, tuple[float, ...], tuple[tuple[float, ...], ...], tuple[float, ...], tuple[float, ...]]

# The ratings of the last few passages' atoms for a question, by the identity of the atoms and
# the model (each entry holds both, so no other object can take their id while it stands): the
# hits a search prints are viewed again, with their relevance, and rate the same atoms alike.
_RATED: OrderedDict[tuple[str, int, str, int], tuple[Sequence[Atom], RelevanceModel, _Ratings]] = OrderedDict()
_RATED_SIZE = 64
_RATED_LOCK = threading.Lock()  # the parallel workflow's branches view passages at once


def _ratings(question: str, model: RelevanceModel, title: str, atoms: Sequence[Atom]) -> _Ratings:
    """What the atoms hold for ``question`` (see :func:`_rate`), kept for the last few passages."""
    key = (question, id(model), title, id(atoms))
    with _RATED_LOCK:
        kept = _RATED.get(key)
        if kept is not None and kept[0] is atoms and kept[1] is model:
            _RATED.move_to_end(key)
            return kept[2]
    rated = _rate(question, model, title, atoms)
    with _RATED_LOCK:
        _RATED[key] = (atoms, model, rated)
        if len(_RATED) > _RATED_SIZE:
            _RATED.popitem(last=False)
    return rated


def _rate(question: str, model: RelevanceModel, title: str, atoms: Sequence[Atom]) -> _Ratings:
    """The question terms' weights and their total, the heading's credits, and each atom's
    credits, bonus and score alone."""
    terms = model.question_terms(question)
    total = sum(t.weight for t in terms) or 1.0
    weights = [t.weight for t in terms]
    # The heading is shown with the focus, but a statement that repeats its words still reads
    # better than one that leans on it: half credit.
    heading = tuple(_HEADING_CREDIT * c for c in model.credits(question, title)) if title else tuple(0.0 for _ in terms)
    slot = read_slot(question)
    names = _names(question)
    credits, bonus = [], []
    for atom in atoms:
        # A statement holds what any of its pieces holds.
        found = [_read_piece(model, question, text) for text in atom.texts]
        if len(found) == 1:  # most statements are one piece: its credits as they are
            credits.append(found[0][0] if weights else ())
        else:
            credits.append(tuple(max(values) for values in zip(*(f[0] for f in found))) if weights else ())
        extra = _FILLER_BONUS if any(f[1] for f in found) else 0.0
        # A sentence states a default; in code the word is most often a key or a name
        # ('"default": {' of a configuration dictionary), not a value given.
        if slot.kind in (SlotKind.NUMBER, SlotKind.DEFAULT) and not atom.code and any(f[2] for f in found):
            extra += _DEFAULT_BONUS  # "how long does it wait?" asks, most often, how long it waits unless told
        if names:
            extra += _EXACT_NAME_BONUS * len(frozenset().union(*(f[3] for f in found))) / len(names)
        bonus.append(extra)

    def score_alone(a: int) -> float:
        # ``score([a])`` with its empty sums left out: the same numbers added in the same order
        # (no distance, no other entry, no further line), once per atom.
        row, extra = credits[a], bonus[a]
        covered = sum(w * max(heading[k], row[k]) for k, w in enumerate(weights)) / total
        return covered + extra + extra * 0.1 - (atoms[a].last - atoms[a].first) * _EXTRA_LINE_COST

    alone = [score_alone(a) for a in range(len(atoms))]
    return tuple(weights), total, heading, tuple(credits), tuple(bonus), tuple(alone)


def choose_atoms(question: str, model: RelevanceModel, title: str, atoms: Sequence[Atom], max_atoms: int, span: int,
                  budget: int, taken: frozenset[int] = frozenset()) -> tuple[list[int], float]:
    """The statements that answer ``question`` best, chosen greedily: the best one (whatever its
    length), then more while each adds enough, their cores within ``span`` lines and all of
    them within ``budget`` characters; and the set's score.

    Args:
        question: The question (or one part of a compound one).
        model: The collection's relevance model.
        title: The passage's heading path (its words count half: the reader sees it).
        atoms: The passage's atoms.
        max_atoms: Most atoms chosen.
        span: Most lines from the first chosen core to the last.
        budget: Most characters the chosen atoms show, once more than one is chosen (or the
            best one's and :data:`_EXTRA_SHARE` of this, when that is more).
        taken: Atoms that answer an earlier part of a compound question (and the other
            statements of their entries): the best one is started from only when no other
            atom scores at least :data:`_OTHER_PART_SHARE` of it.

    Returns:
        The indexes of the chosen atoms (the best first) and the set's score.
    """
    weights, total, heading, credits, bonus, alone = _ratings(question, model, title, atoms)

    def score(chosen: Sequence[int]) -> float:
        covered = sum(w * max([heading[k]] + [credits[a][k] for a in chosen]) for k, w in enumerate(weights)) / total
        first = atoms[chosen[0]].first
        distance = sum(_BELOW_COST * (atoms[a].first - first) if atoms[a].first > first else _ABOVE_COST * (first - atoms[a].last)
                       for a in chosen[1:])
        # Another entry of a definition list is about another setting.
        entry = atoms[chosen[0]].entry
        distance += _OTHER_ENTRY_COST * sum(1 for a in chosen[1:] if entry >= 0 and atoms[a].entry not in (-1, entry))
        size = sum(atoms[a].last - atoms[a].first for a in chosen) * _EXTRA_LINE_COST
        return (covered + max(bonus[a] for a in chosen) + sum(bonus[a] for a in chosen) * 0.1 - _LINE_COST * (len(chosen) - 1)
                - distance - size)

    best = max(range(len(atoms)), key=lambda a: (alone[a], -a))
    others = [a for a in range(len(atoms)) if a not in taken]
    if best in taken and others:
        # "Which formatter is the default without Rich, and which one with it?": both parts
        # share their words, and the statement that answers the first scores best for the
        # second too; a statement nearly as good that the first part did not take answers it.
        other = max(others, key=lambda a: (alone[a], -a))
        if alone[other] >= _OTHER_PART_SHARE * alone[best]:
            best = other
    chosen, current = [best], alone[best]
    # A long best statement would take the whole budget and leave the next paragraph, which may
    # hold the answer, unshown: the others always get a share of it.
    budget = max(budget, size_of(atoms, chosen) + int(_EXTRA_SHARE * budget))
    # The chosen set's running sums: a candidate's score with the set is read off them in one
    # pass over the question's terms, the same numbers summed in the same order as ``score``.
    first, entry = atoms[best].first, atoms[best].entry
    covered = [max(heading[k], credits[best][k]) for k in range(len(weights))]
    bonus_max = bonus_sum = bonus[best]
    distance, other_entries, lines = 0.0, 0, atoms[best].last - atoms[best].first
    pieces = set(atoms[best].pieces)
    size = sum(b - a for a, b in pieces)

    def size_with(c: int) -> int:
        return size + sum(b - a for a, b in set(atoms[c].pieces) - pieces)

    def score_with(c: int) -> float:
        atom = atoms[c]
        gained = sum(w * max(covered[k], credits[c][k]) for k, w in enumerate(weights)) / total
        step = _BELOW_COST * (atom.first - first) if atom.first > first else _ABOVE_COST * (first - atom.last)
        other = other_entries + (1 if entry >= 0 and atom.entry not in (-1, entry) else 0)
        return (gained + max(bonus_max, bonus[c]) + (bonus_sum + bonus[c]) * 0.1 - _LINE_COST * len(chosen)
                - ((distance + step) + _OTHER_ENTRY_COST * other) - (lines + atom.last - atom.first) * _EXTRA_LINE_COST)

    while len(chosen) < max_atoms:
        low, high = min(atoms[a].first for a in chosen), max(atoms[a].last for a in chosen)
        candidates = [a for a in range(len(atoms)) if a not in chosen and atoms[a].last > high - span and atoms[a].first < low + span
                      and size_with(a) <= budget]
        if not candidates:
            break
        a = max(candidates, key=lambda c: (score_with(c), -c))
        gained = score_with(a)
        if gained - current < _MIN_GAIN:
            break
        atom = atoms[a]
        covered = [max(covered[k], credits[a][k]) for k in range(len(weights))]
        bonus_max, bonus_sum = max(bonus_max, bonus[a]), bonus_sum + bonus[a]
        distance += _BELOW_COST * (atom.first - first) if atom.first > first else _ABOVE_COST * (first - atom.last)
        other_entries += 1 if entry >= 0 and atom.entry not in (-1, entry) else 0
        lines += atom.last - atom.first
        size = size_with(a)
        pieces |= set(atom.pieces)
        chosen.append(a)
        current = gained
    return chosen, current


def filled(atoms: Sequence[Atom], chosen: list[int], fill: int) -> list[int]:
    """``chosen`` with the statements next to them added while the focus stays within ``fill``
    characters: the next statement after each chosen one (in the order they were chosen), then
    the one before each, and so on outwards (the sentence after the one that names the topic
    often gives its value: "... expensive to compute." / "To enable caching, pass
    cache_hash=True."). A direction stops at a statement that does not fit; prose runs on
    into the code below it (the example a sentence introduces holds the call it describes:
    "It uses the eval context to check if autoescape is on." over ``if eval_ctx.autoescape:``)
    but not into the code above it, which belongs to the sentence before; nor into another
    entry of a definition list or manual (the next option's description)."""
    chosen = list(chosen)
    reach = {c: [c, c] for c in chosen}  # the nearest statement not yet looked at, after and before
    growing = True
    while growing:
        growing = False
        for side, step in ((0, 1), (1, -1)):
            for c in list(reach):
                a = reach[c][side] + step
                while a in chosen:
                    a += step
                if not 0 <= a < len(atoms) or (step < 0 and atoms[a].code and not atoms[c].code) or _other_entry(atoms[c], atoms[a]) \
                        or size_of(atoms, chosen + [a]) > fill:
                    reach[c][side] = -2 if step < 0 else len(atoms)  # this direction is done
                    continue
                chosen.append(a)
                reach[c][side] = a
                growing = True
    return chosen


def _other_entry(chosen: Atom, neighbour: Atom) -> bool:
    """Whether ``neighbour`` belongs to another entry of a definition list or manual than
    ``chosen`` does (the next option's description is about the next option)."""
    return chosen.entry >= 0 and neighbour.entry >= 0 and neighbour.entry != chosen.entry


def without_holes(text: str, atoms: Sequence[Atom], chosen: list[int]) -> list[int]:
    """``chosen`` with the statements added that stand between two shown pieces of one paragraph
    (no blank line between them), when at most :data:`MAX_HOLE` short prose statements do:
    "The default is 2000. [You can raise it to 32767.] On the other hand, ..." shown without
    its middle sentence reads as if the paragraph said nothing more, and a term shown with the
    third sentence of its description loses the two that say what it is.

    Args:
        text: The passage.
        atoms: Its atoms (in text order).
        chosen: Indexes of the chosen atoms.

    Returns:
        The chosen indexes, then the added ones in text order.
    """
    out = list(chosen)
    pieces = sorted({p for a in chosen for p in atoms[a].pieces})
    starts = [atom.core[0] for atom in atoms]  # increasing: atoms come in text order
    for (_, end), (start, _) in zip(pieces, pieces[1:]):
        if start <= end or _blank_between(text, end, start):
            continue
        inside = [a for a in range(bisect_right(starts, end - 1), bisect_right(starts, start - 1))
                  if atoms[a].core[1] <= start and a not in out]
        if not inside or len(inside) > MAX_HOLE or any(atoms[a].code for a in inside) \
                or sum(atoms[a].core[1] - atoms[a].core[0] for a in inside) > _MAX_HOLE_CHARS:
            continue
        # A hole holds only cores that stand in it whole: nothing shown is cut in two.
        if any(p[0] < atoms[a].core[1] and atoms[a].core[0] < p[1] for a in inside for p in pieces):
            continue
        out.extend(inside)
    return out


def with_line_tails(text: str, atoms: Sequence[Atom], chosen: list[int]) -> list[int]:
    """``chosen`` with the statements added that finish the last line of a shown piece, when they
    are short (at most :data:`MAX_TAIL` characters together) and end on that line: a reader shown
    "11-12" takes lines 11 and 12 as shown whole, and the short tail of line 12 ("Added in
    7.55.0.", "This option is enabled by default.") is often what was asked. A longer tail is
    left whole rather than shown in part.

    Args:
        text: The passage.
        atoms: Its atoms (in text order).
        chosen: Indexes of the chosen atoms.

    Returns:
        The chosen indexes, then the added ones in text order.
    """
    out = list(chosen)
    starts = [atom.core[0] for atom in atoms]  # increasing: atoms come in text order
    for _, end in sorted({p for a in chosen for p in atoms[a].pieces}):
        stop = text.find("\n", end)
        stop = len(text) if stop < 0 else stop
        tail = [a for a in range(bisect_right(starts, end - 1), bisect_right(starts, stop - 1)) if a not in out]
        if tail and atoms[tail[-1]].core[1] <= stop and not any(atoms[a].code for a in tail) \
                and sum(atoms[a].core[1] - atoms[a].core[0] for a in tail) <= MAX_TAIL:
            out.extend(tail)
    return out


def _blank_between(text: str, start: int, end: int) -> bool:
    """Whether a blank line stands between offsets ``start`` and ``end`` (a paragraph ends)."""
    return any(not line.strip() for line in text[start:end].split("\n")[1:-1])
