"""The demo store: the bundled sample corpus indexed into a temporary knowledge store.

``agentic-rag demo`` asks it questions and ``python -m agentic_rag._interfaces.mcp_demo``
serves it over MCP on stdio (no store needed), both through
:class:`~agentic_rag._interfaces.store_service.StoreService`, so the demo answers exactly as a
store of yours does (same workflows, same JSON shapes). The temporary folder is removed when
the demo ends, however it ends (end of input or SIGTERM).

This module builds on :mod:`agentic_rag._interfaces.mcp_server`; the server knows nothing of
the demo.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import sys
import tempfile
import weakref
from collections.abc import Iterator, Sequence
from pathlib import Path

from agentic_rag._interfaces.mcp_server import McpServer, serve_stdio, store_tools
from agentic_rag._interfaces.mcp_tools import McpTool
from agentic_rag._interfaces.store_service import StoreService

__all__ = ["DEMO_INSTRUCTIONS", "demo_service", "demo_tools", "index_sample_store", "main"]

DEMO_INSTRUCTIONS = (
    "A demo of agentic-rag over a small bundled sample corpus (company records, biographies, recipes). "
    "Call list_corpora to see what each corpus holds, search to find passages with file:lines, show to read a cited span, "
    "and ask for an answer whose claims cite file:lines with exact quotes. Read status: answered, partial (see missing_facts) or unanswerable, "
    "and read evidence (the passages the verdict rests on) before saying the documents do not answer."
)

_PREFIX = "agentic-rag-demo-"


def index_sample_store(directory: str | Path) -> StoreService:
    """Index the bundled sample corpus (one corpus per folder, with its description) into a
    new store at ``directory`` and return the service over it.

    Paths in hits and citations are relative to the sample folder
    (``company-records/acme-robotics.md``).

    Args:
        directory: Where the store is written (an empty or missing folder).

    Returns:
        The store service.
    """
    from agentic_rag._samples import sample_corpora, sample_folder
    from agentic_rag._store import KnowledgeStore

    root = sample_folder()
    store = KnowledgeStore(Path(directory), base=root)
    for corpus in sample_corpora():
        store.index(root / corpus.id, corpus=corpus.id, description=corpus.description)
    return StoreService(store)


@contextlib.contextmanager
def demo_service() -> Iterator[StoreService]:
    """The sample corpus in a temporary store, removed when the ``with`` block ends.

    Yields:
        The store service over it.
    """
    with tempfile.TemporaryDirectory(prefix=_PREFIX) as tmp:
        yield index_sample_store(Path(tmp) / "store")


def demo_tools() -> tuple[McpTool, ...]:
    """The store tools over the sample corpus in a temporary store.

    The store is removed when the tools are no longer referenced, or at interpreter exit
    (for a lifetime you control, use :func:`demo_service` with
    :func:`~agentic_rag._interfaces.mcp_server.store_tools`).

    Returns:
        The ``search``, ``ask``, ``list_corpora`` and ``show`` tools.
    """
    folder = tempfile.mkdtemp(prefix=_PREFIX)
    try:
        service = index_sample_store(Path(folder) / "store")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    # The tools hold the service; the folder goes with it (weakref.finalize also runs at exit).
    weakref.finalize(service, shutil.rmtree, folder, ignore_errors=True)
    return store_tools(service)


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the store tools over the sample corpus on stdio, in a temporary store removed
    when the server stops.

    Args:
        argv: Arguments (default ``sys.argv[1:]``; there are none besides ``--help``).

    Returns:
        The exit code: 0 at end of input, 130 when interrupted.
    """
    argparse.ArgumentParser(
        prog="python -m agentic_rag._interfaces.mcp_demo",
        description="Serve agentic-rag's MCP tools (search, ask, list_corpora, show) over stdio, on the bundled sample "
                    "corpus indexed into a temporary store.",
    ).parse_args(argv)
    _raise_on_terminate()
    try:
        with demo_service() as service:  # the temporary store goes when the server stops
            return serve_stdio(McpServer(store_tools(service), instructions=DEMO_INSTRUCTIONS))
    except _Terminated as stop:
        # The store is gone; leave without interpreter shutdown, which would wait on the input
        # thread still blocked reading stdin.
        sys.stderr.flush()
        os._exit(stop.code)


class _Terminated(Exception):
    """SIGTERM arrived: how MCP clients stop a server that outlives its input."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _raise_on_terminate() -> None:
    """Make SIGTERM raise :class:`_Terminated` in the main thread, so ``with`` blocks run (the
    demo's temporary store is removed) before the process ends."""

    def stop(signum: int, frame: object) -> None:
        raise _Terminated(128 + signum)

    with contextlib.suppress(ValueError, AttributeError):  # not the main thread, or no SIGTERM here
        signal.signal(signal.SIGTERM, stop)


if __name__ == "__main__":
    sys.exit(main())
