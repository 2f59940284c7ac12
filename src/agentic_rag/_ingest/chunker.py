"""Cutting parsed sections into overlapping chunks that cite exact line ranges.

Within one section (a chunk never spans two), sentences are packed into a chunk until the
word budget is reached. A paragraph that does not fit in what is left starts the next chunk
when the current one is at least half full, so chunks tend to end at paragraph breaks. Each
new chunk opens with the last whole sentences of the previous one, up to the overlap budget.
A sentence is only ever cut when it alone exceeds the budget: at its line breaks first, then
every ``max_words`` words.

Chunks are numbered from **0** in file order, so the ids ``docs/guide.md#0``,
``docs/guide.md#1``... are stable as long as the file and the options are unchanged. Each
chunk carries the SHA-256 of its text, its 1-based line range in the original file and its
section's heading path (every heading above it, outermost first). A chunk of a PDF page or a
notebook cell also carries the page or cell (its lines count lines of that page or cell), and,
when asked (the store always asks), its line map: where in its text each source line starts, so
a quote or a focus line is placed on its own lines without reading the file again.
"""

from __future__ import annotations

import hashlib
import re
import sys
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from pathlib import PurePosixPath

from agentic_rag._contracts import Document
from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import InvalidInputError
from agentic_rag._ingest.blocks import TextBlock, TextSection
from agentic_rag._ingest.chunk_metadata import LIST_PAGE, chunk_metadata
from agentic_rag._text.sentences import split_sentences

__all__ = ["LIST_PAGE", "Chunk", "ChunkOptions", "chunk_metadata", "chunk_sections"]

_STAGE = "chunker"
_WORD = re.compile(r"\S+")
_LINE = re.compile(r"[^\n]+")
_LAST = sys.maxsize  # sorts after every line number


@dataclass(frozen=True, slots=True)
class ChunkOptions:
    """The chunk size and overlap, in words (white-space separated tokens).

    Args:
        max_words: Most words in a chunk (overlap included), >= 1.
        overlap_words: Most words of whole sentences repeated from the previous chunk,
            >= 0 and < ``max_words``.

    Raises:
        InvalidInputError: A value that is not an int or out of range.
    """

    max_words: int = 180
    overlap_words: int = 30

    def __post_init__(self) -> None:
        for name in ("max_words", "overlap_words"):
            require_int(getattr(self, name), name, stage=_STAGE)
        if self.max_words < 1:
            raise InvalidInputError(f"max_words must be >= 1, got {self.max_words}", stage=_STAGE)
        if not 0 <= self.overlap_words < self.max_words:
            raise InvalidInputError(f"overlap_words must be in [0, max_words), got {self.overlap_words} with max_words {self.max_words}", stage=_STAGE)


@dataclass(frozen=True, slots=True)
class Chunk:
    """A piece of a file, ready to index and to cite.

    Args:
        id: ``"<path>#<n>"``.
        path: The file's path as the store names it (``/``-separated).
        n: Position in the file, from 0.
        text: The chunk's text (cleaned of markup).
        start_line: First line of the original file it comes from (1-based).
        end_line: Last line (inclusive).
        section: The heading path of the section it belongs to ("Guide › Install"; ``""``
            before any heading).
        title: The section title, else the record id, else the file's stem.
        sha256: Hex SHA-256 of ``text`` (UTF-8).
        record_id: The record's id for JSON, JSONL and CSV rows, else ``""``.
        page: The PDF page it comes from (``start_line``/``end_line`` count that page's
            lines), else ``None``.
        cell: The notebook cell it comes from (lines count that cell's lines), else ``None``.
        line_marks: ``(offset, line)`` pairs, offsets increasing from 0: ``text`` from
            ``offset`` on comes from ``line``; ``()`` when not asked for, and for a record
            (JSON, JSONL, CSV) whose text is no copy of its lines.
        page_label: The number its PDF page prints (``"160"``) or its page label, else ``""``.
        list_page: Its page only lists or indexes other pages (ranked below content pages).
    """

    id: str
    path: str
    n: int
    text: str
    start_line: int
    end_line: int
    section: str
    title: str
    sha256: str
    record_id: str = ""
    page: int | None = None
    cell: int | None = None
    line_marks: tuple[tuple[int, int], ...] = ()
    page_label: str = ""
    list_page: bool = False

    @property
    def citation(self) -> str:
        """``path:start-end``, the form answers cite (``path:p12:3-5`` on page 12 of a PDF,
        ``path:c7:1-4`` in cell 7 of a notebook)."""
        place = f"p{self.page}:" if self.page is not None else f"c{self.cell}:" if self.cell is not None else ""
        return f"{self.path}:{place}{self.start_line}-{self.end_line}"

    def to_document(self, corpus_id: str) -> Document:
        """The chunk as an indexable document of ``corpus_id``.

        Metadata holds ``path``, ``start_line``, ``end_line``, ``section`` and ``sha256``
        (and ``record_id`` for records, ``page`` or ``cell`` for PDF pages and notebook
        cells, ``line_marks`` as ``[offset, line]`` pairs for extracted text, ``page_label``
        for a page that prints its number, ``page_kind`` ``"list"`` for an index-like page).
        """
        return Document(self.id, self.text, self.title, corpus_id,
                        chunk_metadata(self.path, self.start_line, self.end_line, self.section, self.sha256, self.record_id,
                                       self.page, self.cell, self.line_marks, self.page_label, self.list_page))


# A piece is a run of text the packer never cuts:
# (block index, start, end, words, opens its block, is the whole block).
_Piece = tuple[int, int, int, int, bool, bool]


def _spans(text: str, start: int, end: int, budget: int) -> list[tuple[int, int, int]]:
    """Cut ``text[start:end]`` into spans of at most ``budget`` words: lines, then words."""
    words = len(text[start:end].split())
    if words <= budget:
        return [(start, end, words)]
    out: list[tuple[int, int, int]] = []
    lines = [(start + m.start(), start + m.end()) for m in _LINE.finditer(text[start:end]) if m.group().strip()]
    if len(lines) > 1:
        for line_start, line_end in lines:
            count = len(text[line_start:line_end].split())
            if count <= budget:  # the common case, without a call per line
                out.append((line_start, line_end, count))
            else:
                out.extend(_spans(text, line_start, line_end, budget))
        return out
    found = [(start + m.start(), start + m.end()) for m in _WORD.finditer(text[start:end])]
    for first in range(0, len(found), budget):
        group = found[first:first + budget]
        out.append((group[0][0], group[-1][1], len(group)))
    return out


def _sentences(block: TextBlock, index: int, budget: int) -> list[_Piece]:
    """The block's sentences (over-long ones cut) as pieces; the first opens the block."""
    pieces: list[_Piece] = []
    for sentence in split_sentences(block.text):
        for start, end, words in _spans(block.text, sentence.start, sentence.end, budget):
            pieces.append((index, start, end, words, not pieces, False))
    return pieces


def _pieces(blocks: tuple[TextBlock, ...], budget: int) -> tuple[list[_Piece], list[int]]:
    """One whole-paragraph piece per block that fits the budget, sentences for the rest."""
    pieces: list[_Piece] = []
    block_words: list[int] = []
    for index, block in enumerate(blocks):
        text = block.text
        total = len(text.split())
        block_words.append(total)
        if total <= budget:
            pieces.append((index, len(text) - len(text.lstrip()), len(text.rstrip()), total, True, True))
        else:
            pieces.extend(_sentences(block, index, budget))
    return pieces, block_words


def _pack(blocks: tuple[TextBlock, ...], options: ChunkOptions) -> list[list[_Piece]]:
    """Group a section's pieces into chunks (lists of consecutive pieces)."""
    budget, overlap = options.max_words, options.overlap_words
    pieces, block_words = _pieces(blocks, budget)
    chunks: list[list[_Piece]] = []
    current: list[_Piece] = []
    carried = words = 0  # words repeated from the previous chunk; words in ``current``
    queue = pieces[::-1]
    while queue:
        piece = queue.pop()
        index, _, _, size, opens, whole = piece
        fresh = words - carried
        if opens and fresh and words + block_words[index] > budget and fresh * 2 >= budget:
            # Half full and the next paragraph does not fit: end the chunk at the break.
            chunks.append(current)
            current, carried, words = _overlap(current, overlap)
            fresh = 0
        if words + size > budget:
            if whole and fresh:
                sentences = _sentences(blocks[index], index, budget)
                if len(sentences) > 1:
                    queue.extend(reversed(sentences))  # fill the chunk sentence by sentence
                    continue
            if fresh:
                chunks.append(current)
                current, carried, words = _overlap(current, overlap)
            while current and words + size > budget:
                # Repeated sentences give way to new text.
                dropped = current.pop(0)[3]
                words -= dropped
                carried -= dropped
        current.append(piece)
        words += size
    if words > carried:
        chunks.append(current)
    return chunks


def _overlap(previous: list[_Piece], overlap: int) -> tuple[list[_Piece], int, int]:
    """The trailing whole pieces of ``previous`` within ``overlap`` words: (pieces, words, words)."""
    kept: list[_Piece] = []
    words = 0
    for piece in reversed(previous):
        if words + piece[3] > overlap:
            break
        kept.append(piece)
        words += piece[3]
    kept.reverse()
    return kept, words, words


def _marks(blocks: tuple[TextBlock, ...], groups: list[tuple[int, int, int]]) -> tuple[tuple[int, int], ...]:
    """The line map of a chunk's text: its parts joined by a blank line, each part's source
    lines from its block's marks."""
    marks: list[tuple[int, int]] = []
    base = 0
    if any(blocks[index].fixed_lines is not None for index, _, _ in groups):
        return ()  # a record's text is no copy of its lines: its fixed range is all there is
    for index, start, end in groups:
        block = blocks[index]
        # Only the marks inside the part, found by bisection: scanning the block's whole map
        # for every chunk cut from it was quadratic in a block of many short lines.
        first, last = bisect_right(block.line_marks, (start, _LAST)), bisect_left(block.line_marks, (end, 0))
        found = [(base, block.line_at(start))] + [(base + o - start, n) for o, n in block.line_marks[first:last]]
        for mark in found:
            if not marks or marks[-1][1] != mark[1]:
                marks.append(mark)
        base += end - start + 2  # the part and the blank line after it
    return tuple(marks)


def chunk_sections(sections: tuple[TextSection, ...], path: str, options: ChunkOptions | None = None, *,
                   line_marks: bool = False, max_chunks: int | None = None) -> tuple[Chunk, ...]:
    """Cut a parsed file into chunks.

    Args:
        sections: The file's sections (from a loader).
        path: The file's path as the store names it; chunk ids are ``f"{path}#{n}"``.
        options: Chunk size and overlap (default :class:`ChunkOptions`).
        line_marks: Give each chunk its line map (the store asks for it for every file, so a
            quote or a focus line is placed on its source lines without reading the file).
        max_chunks: Stop after this many chunks (the file's budget); ``None``: no cap.

    Returns:
        Chunks in file order, numbered from 0.

    Raises:
        InvalidInputError: ``path`` empty or ``options`` not ``ChunkOptions``.
    """
    options = options if options is not None else ChunkOptions()
    if not isinstance(options, ChunkOptions):
        raise InvalidInputError(f"options must be ChunkOptions, got {type(options).__name__}", stage=_STAGE)
    if not isinstance(path, str) or not path.strip():
        raise InvalidInputError(f"path must be a non-empty string, got {path!r}", stage=_STAGE)
    require_int(max_chunks, "max_chunks", minimum=1, optional=True, stage=_STAGE)
    stem = PurePosixPath(path).stem or path
    chunks: list[Chunk] = []
    for section in sections:
        if max_chunks is not None and len(chunks) >= max_chunks:
            break
        blocks = section.blocks
        for pieces in _pack(blocks, options):
            if max_chunks is not None and len(chunks) >= max_chunks:
                break
            groups: list[tuple[int, int, int]] = []  # (block, start, end) of consecutive pieces
            for index, start, end, _, _, _ in pieces:
                if groups and groups[-1][0] == index:
                    groups[-1] = (index, groups[-1][1], end)
                else:
                    groups.append((index, start, end))
            parts = [blocks[i].text[s:e] for i, s, e in groups]
            lines = [blocks[i].lines_of(s, e) for i, s, e in groups]
            start_line, end_line = lines[0][0], max(last for _, last in lines)
            text = "\n\n".join(parts)
            n = len(chunks)
            title = section.title or section.record_id or stem
            chunks.append(Chunk(f"{path}#{n}", path, n, text, start_line, end_line, section.heading_path, title,
                                hashlib.sha256(text.encode("utf-8")).hexdigest(), section.record_id, section.page, section.cell,
                                _marks(blocks, groups) if line_marks else (), section.page_label, section.list_page))
    return tuple(chunks)
