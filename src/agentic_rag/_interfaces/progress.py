"""A one-line progress bar on stderr: files, chunks, rate and time left.

It draws only when its stream is a terminal (a pipe or a log file gets nothing) and not
``quiet``, and redraws at most every ``min_interval`` seconds however often it is updated,
so reporting every file costs nothing on a fast run. It is a callable, so it plugs straight
into ``KnowledgeStore.index(progress=...)``::

    with ProgressBar(label="indexing") as bar:
        store.index(["docs"], progress=bar)
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from typing import TextIO

from agentic_rag._contracts.validation import require_number
from agentic_rag._store.records import IndexPhase, IndexProgress

__all__ = ["ProgressBar", "format_duration"]

_BAR_WIDTH = 24


def format_duration(seconds: float) -> str:
    """``m:ss`` (or ``h:mm:ss``) for a non-negative number of seconds."""
    whole = int(max(0.0, seconds) + 0.5)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


class ProgressBar:
    """A throttled progress line for long work.

    Args:
        label: Shown before the bar (``"indexing"``).
        stream: Where to draw (default ``sys.stderr``).
        quiet: Never draw.
        min_interval: Fewest seconds between two redraws (the last update always draws).
        clock: Monotonic time source (tests pass a fake one).

    Raises:
        InvalidInputError: ``min_interval`` negative or not a number.
    """

    def __init__(
        self,
        label: str = "",
        *,
        stream: TextIO | None = None,
        quiet: bool = False,
        min_interval: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        require_number(min_interval, "min_interval (seconds)", minimum=0, stage="progress")
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = not quiet and _is_terminal(self.stream)
        self.min_interval = float(min_interval)
        self._clock = clock
        self._started: float | None = None
        self._last_draw: float | None = None
        self._drawn_width = 0
        self._state = (0, 0, 0)
        self._drawn_state: tuple[int, int, int] | None = None
        self.draws = 0

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __call__(self, event: IndexProgress) -> None:
        """Take a ``KnowledgeStore.index`` progress event (the bar closes on ``DONE``)."""
        self.update(event.files_done, event.files_total, event.chunks)
        if event.phase is IndexPhase.DONE:
            self.close()

    def update(self, done: int, total: int, chunks: int = 0) -> None:
        """Record progress and redraw if the last redraw is old enough.

        Args:
            done: Units finished (files).
            total: Units in all (0 when unknown).
            chunks: Chunks produced so far.
        """
        now = self._clock()
        if self._started is None:
            self._started = now
        self._state = (done, total, chunks)
        if not self.enabled:
            return
        finished = total > 0 and done >= total
        if self._last_draw is not None and now - self._last_draw < self.min_interval and not finished:
            return
        self._draw(now)

    def render(self, now: float | None = None) -> str:
        """The progress line for the current state (without carriage return)."""
        done, total, chunks = self._state
        now = self._clock() if now is None else now
        elapsed = max(now - (self._started if self._started is not None else now), 0.0)
        rate = done / elapsed if elapsed > 0 else 0.0
        parts = [self.label] if self.label else []
        if total > 0:
            fraction = min(done / total, 1.0)
            filled = int(fraction * _BAR_WIDTH)
            parts.append("[" + "#" * filled + "-" * (_BAR_WIDTH - filled) + "]")
            parts.append(f"{done}/{total} files {fraction * 100:5.1f}%")
        else:
            parts.append(f"{done} files")
        parts.append(f"{chunks} chunks")
        if rate > 0:
            parts.append(f"{rate:.1f} files/s")
            if total > done:
                parts.append(f"ETA {format_duration((total - done) / rate)}")
        parts.append(format_duration(elapsed))
        return "  ".join(parts)

    def _draw(self, now: float) -> None:
        line = self.render(now)
        width = max(shutil.get_terminal_size((80, 24)).columns - 1, 20)
        line = line[:width]
        padding = " " * max(self._drawn_width - len(line), 0)
        self.stream.write("\r" + line + padding)
        self.stream.flush()
        self._drawn_width = len(line)
        self._drawn_state = self._state
        self._last_draw = now
        self.draws += 1

    def close(self) -> None:
        """Draw the final state and end the line (once; later calls do nothing)."""
        if self.enabled and self._started is not None:
            if self._drawn_state != self._state:
                self._draw(self._clock())
            self.stream.write("\n")
            self.stream.flush()
        self.enabled = False
