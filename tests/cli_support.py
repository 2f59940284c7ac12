"""Running the ``agentic-rag`` command line in-process, for the CLI tests."""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
import unittest
from pathlib import Path

from agentic_rag._interfaces.cli import main


def run_cli(*argv: str) -> tuple[int, str, str]:
    """Run ``agentic-rag ARGV...`` and return ``(exit code, stdout, stderr)``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def enter_temp_folder(case: unittest.TestCase) -> Path:
    """A new temporary folder made the working directory for ``case`` (the CLI resolves paths
    against it); the folder is removed and the old directory restored on cleanup."""
    tmp = tempfile.TemporaryDirectory()
    case.addCleanup(tmp.cleanup)
    old = os.getcwd()
    os.chdir(tmp.name)
    case.addCleanup(os.chdir, old)
    return Path(tmp.name)
