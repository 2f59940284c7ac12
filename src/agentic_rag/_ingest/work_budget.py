"""The work one file may cost, shared by every loader: one budget per file, charged as work is done.

A file is small on disk but may ask for a lot: a Flate stream that inflates a thousandfold, a
Form XObject drawn inside itself on every page, a font map turning one code into thirty thousand
characters, a Word part of fifteen million empty elements, a notebook of a hundred thousand
cells. :func:`~agentic_rag._ingest.loaders.parse_source` opens one :class:`WorkBudget` per file
from :class:`IngestLimits` and makes it current for the loader (a context variable, so a loader's
signature does not change); each loader charges what it produces *as it produces it*, so the
limit is met before the memory or time is spent. Going over raises :class:`WorkLimitError`,
which the loader turns into a problem of the file, or of the page, keeping what it read before.

The limits count work, never seconds, so the same file gives the same text on any machine.
The defaults keep any file under 10 MB within about 10 s and 512 MB of memory (measured by
``bench/ingestion/bench_hostile_inputs.py``).
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass

from agentic_rag._contracts.validation import require_int
from agentic_rag._errors import AgenticRAGError

__all__ = ["FORM_TOKENS", "IngestLimits", "WorkBudget", "WorkLimitError", "current_work_budget", "use_work_budget"]

_STAGE = "ingest"

#: What drawing one Form XObject costs beyond its own tokens (in tokens).
FORM_TOKENS = 16


class WorkLimitError(AgenticRAGError):
    """A file asked for more work than its :class:`IngestLimits` allow (never leaves a loader).

    Args:
        message: Which limit, and its value.
    """


@dataclass(frozen=True, slots=True)
class IngestLimits:
    """The most work one file may cause, whatever its format.

    Args:
        max_decoded_bytes: Bytes produced by decompression and decoding filters (PDF streams),
            charged as each filter produces them.
        max_filter_input_bytes: Bytes fed through the filters that run in Python code, byte by
            byte (PDF ASCII85, LZW, RunLength, PNG/TIFF predictors): bounded apart because
            they cost far more per byte than inflating.
        max_content_tokens: PDF tokens read over the whole file: content streams
            (operators and operands, items of arrays included) on every page, CMaps and
            objects; a Form XObject drawn again is read again, and each drawing costs
            ``FORM_TOKENS`` more (setting it up costs what reading that many tokens does).
        max_chars: Characters of text extracted (PDF glyphs as font maps produce them, Word
            text, notebook cells).
        max_elements: XML elements read (every part of a Word document); each paragraph or
            table of the body costs ``BLOCK_ELEMENTS`` more.
        max_cells: Notebook cells.
        max_chunks: Chunks cut from one file.
        max_layout_words: Words on one PDF page laid out in full reading order; a page with
            more is read line by line, top to bottom (linear cost).
        max_units: Units of text the text loaders make, each charged as it is made: lines of
            a paragraph, headings, records (JSON, JSONL, CSV rows) and table cells, so a file
            of millions of tiny units is refused before it costs seconds and memory.

    Raises:
        InvalidInputError: A value that is not an int >= 1.
    """

    max_decoded_bytes: int = 64 * 1024 * 1024
    max_filter_input_bytes: int = 8 * 1024 * 1024
    max_content_tokens: int = 1_000_000
    max_chars: int = 16_000_000
    max_elements: int = 400_000
    max_cells: int = 200_000
    max_chunks: int = 50_000
    max_layout_words: int = 20_000
    max_units: int = 500_000

    def __post_init__(self) -> None:
        for name in self.__dataclass_fields__:
            require_int(getattr(self, name), name, minimum=1, stage=_STAGE)


class WorkBudget:
    """What one file has spent so far against its :class:`IngestLimits`.

    Args:
        limits: The limits (default :class:`IngestLimits`).
    """

    __slots__ = ("cells", "chars", "content_tokens", "decoded_bytes", "elements", "filter_input_bytes", "limits", "token_limit", "units")

    def __init__(self, limits: IngestLimits | None = None) -> None:
        self.limits = limits if limits is not None else IngestLimits()
        self.decoded_bytes = 0
        self.filter_input_bytes = 0
        self.content_tokens = 0
        self.token_limit = self.limits.max_content_tokens  # read on every PDF token
        self.chars = 0
        self.elements = 0
        self.cells = 0
        self.units = 0

    def _over(self, what: str, limit: int) -> WorkLimitError:
        return WorkLimitError(f"{what} (limit {limit:,})", stage=_STAGE)

    @property
    def bytes_remaining(self) -> int:
        """Decoded bytes still allowed (a decoder stops before producing more)."""
        return self.limits.max_decoded_bytes - self.decoded_bytes

    def decoded(self, count: int) -> None:
        """Charge ``count`` decoded bytes.

        Raises:
            WorkLimitError: Over ``max_decoded_bytes``.
        """
        self.decoded_bytes += count
        if self.decoded_bytes > self.limits.max_decoded_bytes:
            raise self._over("decoded streams exceed the bytes one file may produce", self.limits.max_decoded_bytes)

    def filter_input(self, count: int) -> None:
        """Charge ``count`` bytes about to go through a byte-by-byte filter.

        Raises:
            WorkLimitError: Over ``max_filter_input_bytes``.
        """
        self.filter_input_bytes += count
        if self.filter_input_bytes > self.limits.max_filter_input_bytes:
            raise self._over("more bytes through ASCII85, LZW, RunLength or predictor filters than one file may use",
                             self.limits.max_filter_input_bytes)

    def content(self, count: int) -> None:
        """Charge ``count`` content-stream tokens.

        Raises:
            WorkLimitError: Over ``max_content_tokens``.
        """
        self.content_tokens += count
        if self.content_tokens > self.limits.max_content_tokens:
            raise self._over("more PDF operators, operands and objects than one file may read", self.limits.max_content_tokens)

    def text(self, count: int) -> None:
        """Charge ``count`` extracted characters.

        Raises:
            WorkLimitError: Over ``max_chars``.
        """
        self.chars += count
        if self.chars > self.limits.max_chars:
            raise self._over("more characters of text than one file may yield", self.limits.max_chars)

    def element(self, count: int = 1) -> None:
        """Charge ``count`` XML elements.

        Raises:
            WorkLimitError: Over ``max_elements``.
        """
        self.elements += count
        if self.elements > self.limits.max_elements:
            raise self._over("more XML elements than one file may hold", self.limits.max_elements)

    def cell(self) -> None:
        """Charge one notebook cell.

        Raises:
            WorkLimitError: Over ``max_cells``.
        """
        self.cells += 1
        if self.cells > self.limits.max_cells:
            raise self._over("more notebook cells than one file may hold", self.limits.max_cells)


    def unit(self, count: int = 1) -> None:
        """Charge ``count`` units of text (lines, headings, records, table cells).

        Raises:
            WorkLimitError: Over ``max_units``.
        """
        self.units += count
        if self.units > self.limits.max_units:
            raise self._over("more lines, headings, records and table cells than one file may make", self.limits.max_units)


_CURRENT: contextvars.ContextVar[WorkBudget | None] = contextvars.ContextVar("agentic_rag_work_budget", default=None)


def current_work_budget() -> WorkBudget:
    """The budget of the file being read, or a fresh default one when none is current (a
    loader called directly, outside :func:`~agentic_rag._ingest.loaders.parse_source`)."""
    budget = _CURRENT.get()
    return budget if budget is not None else WorkBudget()


@contextlib.contextmanager
def use_work_budget(budget: WorkBudget) -> Iterator[WorkBudget]:
    """Make ``budget`` the current file's budget for the duration of the block."""
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)
