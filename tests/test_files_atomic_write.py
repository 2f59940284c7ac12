"""``atomic_write``: the one writer behind saved indexes, recordings, reports and traces."""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from agentic_rag import _files
from agentic_rag._files import atomic_write


class AtomicWriteTest(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.dir, ignore_errors=True)

    def test_bytes_and_chunks_land_whole_in_a_new_folder(self):
        target = self.dir / "new" / "deeper" / "out.bin"
        atomic_write(target, b"one")
        self.assertEqual(target.read_bytes(), b"one")
        atomic_write(target, [b"two", b"-", b"three"])
        self.assertEqual(target.read_bytes(), b"two-three")
        self.assertEqual([p.name for p in target.parent.iterdir()], ["out.bin"])  # no temporary left

    def test_a_failure_midway_keeps_the_old_file_and_leaves_no_temporary(self):
        target = self.dir / "kept.txt"
        atomic_write(target, b"old")

        def chunks():
            yield b"new and half"
            raise RuntimeError("disk on fire")

        with self.assertRaisesRegex(RuntimeError, "disk on fire"):
            atomic_write(target, chunks())
        self.assertEqual(target.read_bytes(), b"old")
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), ["kept.txt"])

    def test_non_bytes_are_refused_and_cleaned_up(self):
        with self.assertRaises(TypeError):
            atomic_write(self.dir / "x", ["text, not bytes"])  # type: ignore[list-item]
        self.assertEqual(list(self.dir.iterdir()), [])

    @unittest.skipIf(sys.platform == "win32", "POSIX permissions")
    def test_permissions_are_those_of_a_new_file_unless_given(self):
        target = self.dir / "plain"
        atomic_write(target, b"x")
        self.assertEqual(stat.S_IMODE(target.stat().st_mode), 0o666 & ~_files._UMASK)
        atomic_write(target, b"y", mode=0o600)
        self.assertEqual(stat.S_IMODE(target.stat().st_mode), 0o600)

    def test_file_and_folder_are_synced_before_and_after_the_rename(self):
        target = self.dir / "synced"
        calls = []
        real_fsync, real_replace = os.fsync, os.replace
        with mock.patch.object(_files.os, "fsync", side_effect=lambda fd: (calls.append("fsync"), real_fsync(fd))[1]), \
             mock.patch.object(_files.os, "replace", side_effect=lambda a, b: (calls.append("replace"), real_replace(a, b))[1]):
            atomic_write(target, b"durable")
        expected = ["fsync", "replace", "fsync"] if sys.platform != "win32" else ["fsync", "replace"]
        self.assertEqual(calls, expected)
        self.assertEqual(target.read_bytes(), b"durable")


if __name__ == "__main__":
    unittest.main()
