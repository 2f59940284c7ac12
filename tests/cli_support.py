"""Running the ``agentic-rag`` command line in-process, for the CLI tests."""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
import unittest
from pathlib import Path

from agentic_rag._interfaces.cli import main
from agentic_rag._interfaces.store_service import StoreService
from agentic_rag._store import KnowledgeStore


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


def indexed_service(case: type[unittest.TestCase], files: dict[str, str], description: str) -> StoreService:
    """The service behind ``agentic-rag ask`` over ``files`` (name -> text), indexed into one
    temporary store as the corpus ``docs``; the store is removed when ``case``'s class is
    done (call it from ``setUpClass``)."""
    tmp = tempfile.TemporaryDirectory(prefix="agentic-rag-test-")
    case.addClassCleanup(tmp.cleanup)
    root = Path(tmp.name) / "docs"
    root.mkdir()
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    store = KnowledgeStore(Path(tmp.name) / "store", base=root)
    store.index(root, corpus="docs", description=description)
    return StoreService(store)
