"""The ``agentic-rag`` command line run in this process, its standard output captured: what
``bench_agent_cost.py`` and ``focus_diagnosis.py`` both run their questions through (kept here
so neither imports the other)."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))

from agentic_rag._interfaces.cli import main as cli_main  # noqa: E402

__all__ = ["run_cli"]


def run_cli(argv: list[str], cwd: Path) -> str:
    """The standard output of ``agentic-rag ARGV`` run in ``cwd``, in this process.

    Raises:
        RuntimeError: The command exited with a code other than 0 (ok), 2 (not found) or 3
            (``ask --strict`` short of an answer); the message holds its standard error.
    """
    out, err = io.StringIO(), io.StringIO()
    before = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli_main(argv)
    finally:
        os.chdir(before)
    if code not in (0, 2, 3):
        raise RuntimeError(f"agentic-rag {' '.join(argv)} exited {code}: {err.getvalue().strip()}")
    return out.getvalue()
