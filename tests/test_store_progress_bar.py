"""ProgressBar: silent off a terminal or when quiet, throttled redraws, index progress events."""

from __future__ import annotations

import io
import tempfile
import unittest
from pathlib import Path

from agentic_rag._errors import InvalidInputError
from agentic_rag._interfaces.progress import ProgressBar, format_duration
from agentic_rag._store import IndexPhase, IndexProgress, KnowledgeStore


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class ProgressBarTest(unittest.TestCase):
    def test_silent_when_not_a_terminal_or_quiet(self):
        for stream, quiet in ((io.StringIO(), False), (FakeTerminal(), True)):
            bar = ProgressBar(stream=stream, quiet=quiet)
            bar.update(1, 10, 3)
            bar.close()
            self.assertEqual(stream.getvalue(), "")
            self.assertFalse(bar.enabled)

    def test_renders_files_chunks_rate_and_eta(self):
        clock = FakeClock()
        terminal = FakeTerminal()
        bar = ProgressBar("indexing", stream=terminal, clock=clock)
        bar.update(0, 100)
        clock.now += 10.0
        bar.update(25, 100, 80)
        line = bar.render()
        self.assertIn("indexing", line)
        self.assertIn("[######------------------]", line)
        self.assertIn("25/100 files  25.0%", line)
        self.assertIn("80 chunks", line)
        self.assertIn("2.5 files/s", line)
        self.assertIn("ETA 0:30", line)
        self.assertTrue(terminal.getvalue().startswith("\r"))

    def test_redraws_are_throttled_but_the_end_always_draws(self):
        clock = FakeClock()
        bar = ProgressBar(stream=FakeTerminal(), clock=clock, min_interval=0.5)
        for done in range(1, 50):
            clock.now += 0.01
            bar.update(done, 100)
        self.assertEqual(bar.draws, 1)  # 0.49 s passed after the first draw
        clock.now += 0.02
        bar.update(50, 100)
        self.assertEqual(bar.draws, 2)
        bar.update(100, 100)
        self.assertEqual(bar.draws, 3)
        bar.close()
        self.assertEqual(bar.draws, 3)  # nothing new to draw, only the newline
        self.assertTrue(bar.stream.getvalue().endswith("\n"))

    def test_unknown_total_and_durations(self):
        bar = ProgressBar(stream=FakeTerminal(), clock=FakeClock())
        bar.update(7, 0, 2)
        self.assertIn("7 files", bar.render())
        self.assertEqual([format_duration(s) for s in (0, 59.6, 61, 3725)], ["0:00", "1:00", "1:01", "1:02:05"])
        with self.assertRaises(InvalidInputError):
            ProgressBar(min_interval=-1)

    def test_takes_index_progress_events_and_closes_when_done(self):
        terminal = FakeTerminal()
        bar = ProgressBar(stream=terminal, clock=FakeClock())
        bar(IndexProgress(IndexPhase.SCANNED, 0, 2))
        bar(IndexProgress(IndexPhase.FILE, 1, 2, 4, "a.md"))
        bar(IndexProgress(IndexPhase.DONE, 2, 2, 9))
        self.assertTrue(terminal.getvalue().endswith("\n"))
        self.assertIn("2/2 files", terminal.getvalue())
        self.assertFalse(bar.enabled)

    def test_store_index_reports_every_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "docs"
            root.mkdir()
            for i in range(3):
                (root / f"f{i}.txt").write_text(f"File {i} text.\n", encoding="utf-8")
            events: list[IndexProgress] = []
            KnowledgeStore(Path(tmp) / "store").index([root], progress=events.append)
        self.assertEqual([(e.phase, e.files_done, e.files_total, e.path) for e in events], [
            (IndexPhase.SCANNED, 0, 3, ""),
            (IndexPhase.FILE, 1, 3, "docs/f0.txt"),
            (IndexPhase.FILE, 2, 3, "docs/f1.txt"),
            (IndexPhase.FILE, 3, 3, "docs/f2.txt"),
            (IndexPhase.SAVING, 3, 3, ""),
            (IndexPhase.DONE, 3, 3, ""),
        ])
        self.assertEqual(events[-1].chunks, 3)


if __name__ == "__main__":
    unittest.main()
