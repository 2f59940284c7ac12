"""Running the ``agentic-rag`` command line in-process, for the CLI tests."""

from __future__ import annotations

import contextlib
import io

from agentic_rag._interfaces.cli import main


def run_cli(*argv: str) -> tuple[int, str, str]:
    """Run ``agentic-rag ARGV...`` and return ``(exit code, stdout, stderr)``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()
