"""A passage's statements: the atoms a focus is made of, each one whole.

An agent shown part of a statement reads it wrong or has to read on: "... biased" with
"reference counting" on the next line; a description without the name it describes; a table
row without its header; a setting's description without its ``Default: None`` line. A
statement is what a reader needs whole:

* its *core*: a sentence, joined across the line breaks inside it (a paragraph wrapped at 72
  columns, a PDF's lines); a list item with its continuation lines; a table row with its
  continuation lines (rows whose first cell is empty); one line of a code block;
* its *attachments*, what the core leans on: a table row's header row (its table's first
  row); for a statement of a definition-list entry (a one-line term block followed by its
  description, as loaders write rST and HTML definition lists, option lists and API entries),
  the term, and the entry's short sentence stating a default ("Default: None", "This option
  is enabled by default.").

Cores are exact spans of the passage (``text[start:end]``, trimmed); every attachment is
another statement's core, so the pieces of two statements are equal or disjoint. A core
longer than :data:`MAX_CORE` characters is split into its sentences, and a single sentence
that long (a run of dot leaders in a PDF's index, a list with no full stop) into its lines.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from agentic_rag._regex import lazy_regex
from agentic_rag._text.manual_entries import attach_manual_terms, is_category_tag
from agentic_rag._text.segments import UnitKind, split_units
from agentic_rag._text.sentences import split_sentences

__all__ = ["MAX_CORE", "MAX_ENTRY_BLOCKS", "Statement", "opens_with_default", "split_statements", "states_default"]

#: Most characters of one core before it is split (into sentences, else lines).
MAX_CORE = 600
#: Most characters of a term line, and of a default sentence attached to an entry.
MAX_TERM = 160
MAX_DEFAULT = 200
#: Most blocks (paragraphs, code blocks, lists) of a definition-list entry after its term.
MAX_ENTRY_BLOCKS = 4
_SENTENCE_ENDS = ".!?:;,"
_NOT_TERMS = (">>>", "$ ", "#", "//", "- ", "* ", "+ ", "\u2022")
_PROSE_WORDS = 5
_TERM_WORDS = 3
_NAME_CHARS = frozenset("()_=<>[]{}*|/\\")
# A literal after a word boundary: each position is tried in constant time.
_DEFAULT = re.compile(r"\bdefaults?\b", re.IGNORECASE)
# A name standing alone on its line in a list of names over descriptions: a constant
# (``BZ_DATA_ERROR``: capitals joined by underscores), an option (``--proxy-basic``, ``-F``) or
# a call (``idn2_register_ul()``). One token: the match cannot rescan a run of word characters.
_LISTED_NAME = lazy_regex(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|--?[A-Za-z][\w-]*(?:=\S+)?|[A-Za-z_][\w.]*\(\)")


@dataclass(frozen=True, slots=True)
class Statement:
    """One atom of a focus.

    Args:
        core: ``(start, end)`` offsets of the statement itself in the passage.
        kind: What the core is (sentence, list item, table row, code line).
        attached: ``(start, end)`` offsets of what it leans on (a header row, a term, a
            default sentence), each another statement's core, in text order.
        entry: Offset of the term of the definition-list entry it belongs to (-1: none), so
            statements of one entry are told from those of the next.
    """

    core: tuple[int, int]
    kind: UnitKind
    attached: tuple[tuple[int, int], ...] = ()
    entry: int = -1

    @property
    def pieces(self) -> tuple[tuple[int, int], ...]:
        """The core and its attachments, in text order."""
        return tuple(sorted((self.core, *self.attached)))


def states_default(text: str) -> bool:
    """Whether ``text`` says what a default is ("Default: None", "enabled by default",
    "defaults to 5"): it holds the word ``default`` or ``defaults``."""
    # The pattern matches only the ASCII letters of the word, in any case: a text whose lower
    # case lacks the word cannot match, and most do.
    return "default" in text.lower() and _DEFAULT.search(text) is not None


def opens_with_default(text: str) -> bool:
    """Whether ``text`` opens with the word ("Default: None", "Defaults to 5"): it states the
    default's value, where a sentence that only holds the word may not."""
    return text.lstrip(" *_`-").casefold().startswith("default")


@lru_cache(maxsize=256)
def split_statements(text: str) -> tuple[Statement, ...]:
    """The statements of a passage, in text order (kept for the last few hundred passages: a
    search splits its candidates for their focus, then the hits it prints again for an entry's
    default sentence cut off by the chunk's end; a passage's statements take a few kilobytes).

    Args:
        text: A passage (a chunk's cleaned text, one source line per line).

    Returns:
        One statement per core; empty for text without letters or digits.
    """
    block_starts = _block_starts(text)
    cores, terms = _cores(text, frozenset(block_starts))
    if not cores:
        return ()
    blocks = [bisect_right(block_starts, start) - 1 for start, _, _ in cores]
    attached: list[list[tuple[int, int]]] = [[] for _ in cores]
    entries = [-1] * len(cores)
    _attach_headers(text, cores, blocks, attached)
    lone = _attach_terms(text, cores, blocks, terms, attached, entries)
    attach_manual_terms(text, cores, blocks, lone, attached, entries)
    return tuple(Statement((start, end), kind, tuple(sorted(set(extra))), entry)
                 for (start, end, kind), extra, entry in zip(cores, attached, entries))


def _cores(text: str, block_starts: frozenset[int]) -> tuple[list[tuple[int, int, UnitKind]], set[int]]:
    """The passage's cores, and which of them are terms that open their block ("TESTING" on the
    line above "Enable testing mode. Exceptions are ...", as loaders write an rST definition
    list): the sentence splitter reads them into the description's first sentence."""
    units = split_units(text)
    cores: list[tuple[int, int, UnitKind]] = []
    terms: set[int] = set()
    for index, unit in enumerate(units):
        start, end = unit.start, unit.end
        if index + 1 < len(units) and units[index + 1].start < end:
            # A lead-in runs on over what it introduces (a unit of its own): its own text ends
            # where that starts.
            end = start + len(text[start:units[index + 1].start].rstrip())
        if unit.kind is UnitKind.CODE:
            cores.extend((a, b, UnitKind.CODE) for a, b in _prompt_lines(text, _line_spans(text, start, end)))
        elif unit.kind is UnitKind.TABLE_ROW and cores and cores[-1][2] is UnitKind.TABLE_ROW \
                and text[start:end].lstrip().startswith("|") and not _blank_between(text, cores[-1][1], start):
            cores[-1] = (cores[-1][0], end, UnitKind.TABLE_ROW)  # a row's continuation line (its first cell empty)
        elif unit.kind is UnitKind.SENTENCE and (entries := _name_list_entries(text, start, end)):
            cores.extend((a, b, unit.kind) for a, b in entries)
        elif end - start > MAX_CORE and unit.kind is not UnitKind.TABLE_ROW:
            cores.extend(_split_long(text, start, end, unit.kind))
        elif any(ch.isalnum() for ch in text[start:end]):
            term_end = _opening_term(text, start, end) if unit.kind is UnitKind.SENTENCE and _line_start(text, start) in block_starts else -1
            if term_end > 0:
                terms.add(len(cores))
                cores.append((start, term_end, unit.kind))
                start = term_end + 1 + len(text[term_end + 1:end]) - len(text[term_end + 1:end].lstrip())
            cores.append((start, end, unit.kind))
    return cores, terms


def _name_list_entries(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The entries of a list of names over their descriptions read as one sentence, or ``[]``.

    A PDF's list of return codes, flags or options comes out as lines of a name alone
    (``BZ_DATA_ERROR_MAGIC``, ``IDN2_NONTRANSITIONAL``, ``--proxy-basic``, ``open()``), each over
    a description without a full stop ("if the stream does not begin with the requisite header
    bytes"): the sentence splitter reads the whole list as one sentence, and a focus could show
    a description's last clause without its name. When at least two lines of the sentence are
    such names, each name starts an entry holding the lines down to the next name (the lines
    before the first name are an entry of their own: the end of a description begun above).
    """
    lines = _line_spans(text, start, end)
    if len(lines) < 4:
        return []
    names = [n for n, (a, b) in enumerate(lines) if n + 1 < len(lines) and _LISTED_NAME.fullmatch(text[a:b])]
    if len(names) < 2:
        return []
    cuts = ([0] if names[0] > 0 else []) + names
    return [(lines[c][0], lines[(cuts[i + 1] if i + 1 < len(cuts) else len(lines)) - 1][1]) for i, c in enumerate(cuts)]


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _opening_term(text: str, start: int, end: int) -> int:
    """Where the term ends when the sentence ``text[start:end]`` opens with one on a line of its
    own (a name of at most :data:`_TERM_WORDS` words, then a line that starts a sentence), else
    -1."""
    stop = text.find("\n", start, end)
    if stop < 0:
        return -1
    line = text[start:stop].rstrip()
    following = text[stop + 1:end].lstrip()
    if not line or len(line.split()) > _TERM_WORDS or not following[:1].isupper():
        return -1
    return start + len(line) if _term_like(text, (start, start + len(line), UnitKind.SENTENCE)) else -1


def _split_long(text: str, start: int, end: int, kind: UnitKind) -> list[tuple[int, int, UnitKind]]:
    """A core too long to show whole, as its sentences (each of them too long as its lines)."""
    sentences = split_sentences(text[start:end])
    if len(sentences) > 1:
        out = []
        for s in sentences:
            a, b = start + s.start, start + s.end
            out.extend(_split_long(text, a, b, kind) if b - a > MAX_CORE else [(a, b, kind)])
        return out
    lines = _line_spans(text, start, end)
    if len(lines) > 1:
        return [(a, b, kind) for a, b in lines]
    return [(start, end, kind)]  # one long line of one sentence: shown trimmed around what is asked


def _prompt_lines(text: str, lines: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Code lines with each interactive prompt's output joined to it: ``>>> ctx.prec`` over
    ``28`` is one statement (the output is the answer, and alone it says nothing), as are a
    prompt's ``...`` continuation lines. The output ends at a blank line (as a doctest's does)
    or the next prompt; one longer than :data:`MAX_CORE` is left as lines."""
    out: list[tuple[int, int]] = []
    prompt = False  # the last line kept is a prompt, its continuation or its output
    for a, b in lines:
        line = text[a:b]
        if line.startswith(">>>"):
            prompt = True
        elif prompt and out and b - out[-1][0] <= MAX_CORE and not _blank_between(text, out[-1][1], a):
            out[-1] = (out[-1][0], b)
            continue
        else:
            prompt = False
        out.append((a, b))
    return out


def _line_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The trimmed spans of the lines of ``text[start:end]`` that hold a letter or digit."""
    out, position = [], start
    while position < end:
        stop = text.find("\n", position, end)
        stop = end if stop < 0 else stop
        a, b = position, stop
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if any(ch.isalnum() for ch in text[a:b]):
            out.append((a, b))
        position = stop + 1
    return out


def _blank_between(text: str, start: int, end: int) -> bool:
    """Whether a blank line stands between offsets ``start`` and ``end``."""
    return any(not line.strip() for line in text[start:end].split("\n")[1:-1])


def _block_starts(text: str) -> list[int]:
    """Offsets where the passage's blocks (runs of non-blank lines) start."""
    starts, position, blank = [0], 0, False
    while position <= len(text):
        stop = text.find("\n", position)
        stop = len(text) if stop < 0 else stop
        if not text[position:stop].strip():
            blank = True
        elif blank:
            starts.append(position)
            blank = False
        position = stop + 1
    return starts


def _attach_headers(text: str, cores: list[tuple[int, int, UnitKind]], blocks: list[int], attached: list[list[tuple[int, int]]]) -> None:
    """Each table row after the first of its table (a run of rows in one block) gets the first
    row, its header."""
    header = -1
    for i, (start, end, kind) in enumerate(cores):
        if kind is not UnitKind.TABLE_ROW:
            header = -1
            continue
        if header < 0 or blocks[header] != blocks[i]:
            header = i
        elif "|" in text[start:end]:
            attached[i].append(cores[header][:2])


def _term_like(text: str, core: tuple[int, int, UnitKind]) -> bool:
    """Whether a core reads as a definition list's term: one short line that ends no sentence
    and is no list item, prompt, comment, default line or plain sentence ("The database
    filename is not allowed to contain a symbolic link", a description without its full
    stop)."""
    start, end, kind = core
    line = text[start:end]
    if kind in (UnitKind.LIST_ITEM, UnitKind.TABLE_ROW) or "\n" in line or len(line) > MAX_TERM:
        return False
    return line[-1] not in _SENTENCE_ENDS and not line.startswith(_NOT_TERMS) and not line.casefold().startswith("default") \
        and not _plain_sentence(line)


def _plain_sentence(line: str) -> bool:
    """Whether a line reads as prose: at least :data:`_PROSE_WORDS` words, most of them plain
    lower-case words, and none of the characters names and signatures are made of."""
    words = line.split()
    if len(words) < _PROSE_WORDS or any(ch in _NAME_CHARS for ch in line):
        return False
    return sum(1 for w in words if w.strip(",;'\"").isalpha() and w.strip(",;'\"").islower()) * 5 >= len(words) * 3


def _attach_terms(text: str, cores: list[tuple[int, int, UnitKind]], blocks: list[int], terms: set[int],
                  attached: list[list[tuple[int, int]]], entries: list[int]) -> dict[int, bool]:
    """Each statement of a definition-list entry gets the entry's term and, when the entry
    says one, its short sentence stating a default; the term gets its description's first
    statement (a name alone says nothing) and the default.

    A term opens its block (``terms``), or is a block of one term-like core followed by a
    block that is not one (its description). The entry runs from the term to the next term,
    block of one term-like core (a heading a PDF keeps in its text), or table, or for
    :data:`MAX_ENTRY_BLOCKS` blocks, whichever comes first ("Default: False" is not term-like:
    it ends no entry).

    Returns:
        For each block, whether it is one term-like core (what ends an entry).
    """
    by_block: dict[int, list[int]] = {}
    for i, block in enumerate(blocks):
        by_block.setdefault(block, []).append(i)
    order = sorted(by_block)
    lone = {b: len(by_block[b]) == 1 and _term_like(text, cores[by_block[b][0]]) for b in order}
    opened = {b: by_block[b][0] for position, b in enumerate(order)
              if by_block[b][0] in terms or (lone[b] and position + 1 < len(order) and not lone[order[position + 1]])}
    # A manual's entry may put its kind on a line of its own between the name and the
    # description (texinfo's "idn2_rc IDN2_UALABEL_MISMATCH", then "[Return code]", then
    # "Input A-label and U-label does not match."): the name opens the entry and the tag goes
    # with it, not the tag alone (which would give each description the next entry's name).
    tags: dict[int, int] = {}
    for position, b in enumerate(order[:-2]):
        tag, description = order[position + 1], order[position + 2]
        if lone[b] and lone[tag] and not lone[description] and b not in opened and tag in opened \
                and is_category_tag(text[cores[opened[tag]][0]:cores[opened[tag]][1]]):
            opened[b] = by_block[b][0]
            tags[b] = opened.pop(tag)
    for position, term_block in enumerate(order):
        if term_block not in opened:
            continue
        term = opened[term_block]
        members = [i for i in by_block[term_block] if i != term]
        tag = tags.get(term_block, -1)
        for b in order[position + (2 if tag >= 0 else 1):position + 1 + MAX_ENTRY_BLOCKS]:
            if b in opened or lone[b] or any(cores[i][2] is UnitKind.TABLE_ROW for i in by_block[b]):
                break
            members.extend(by_block[b])
        if not members:
            continue
        defaults = [i for i in members if cores[i][1] - cores[i][0] <= MAX_DEFAULT and states_default(text[cores[i][0]:cores[i][1]])]
        # A line that opens with the word ("Default: None") states the value; "Each request
        # defaults to this config" in the same entry only mentions one.
        defaults.sort(key=lambda i: not opens_with_default(text[cores[i][0]:cores[i][1]]))
        default = defaults[0] if defaults and not states_default(text[cores[term][0]:cores[term][1]]) else -1
        heads = [term, tag] if tag >= 0 else [term]
        for i in [*heads, *members]:
            entries[i] = cores[term][0]
        for i in members:
            attached[i].extend(cores[h][:2] for h in heads)
            if default >= 0 and i != default:
                attached[i].append(cores[default][:2])
        if tag >= 0:
            attached[term].append(cores[tag][:2])
            attached[tag].extend((cores[term][:2], cores[members[0]][:2]))
        attached[term].append(cores[members[0]][:2])
        if default >= 0 and default != members[0]:
            attached[term].append(cores[default][:2])
    return lone
