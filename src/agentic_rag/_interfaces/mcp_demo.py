"""The demo store: the bundled sample corpus indexed into a temporary knowledge store.

``agentic-rag demo`` asks it questions and ``mcp_server --demo-tools`` serves it, both through
:class:`~agentic_rag._interfaces.store_service.StoreService`, so the demo answers exactly as a
store of yours does (same workflows, same JSON shapes). The temporary folder is removed when
the demo ends.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import weakref
from collections.abc import Iterator
from pathlib import Path

from agentic_rag._interfaces.mcp_tools import McpTool
from agentic_rag._interfaces.store_service import StoreService

__all__ = ["DEMO_INSTRUCTIONS", "demo_service", "demo_tools", "index_sample_store"]

DEMO_INSTRUCTIONS = (
    "A demo of agentic-rag over a small bundled sample corpus (company records, biographies, recipes). "
    "Call list_corpora to see what each corpus holds, search to find passages with file:lines, and ask for an answer "
    "whose claims cite file:lines with exact quotes. Read status: answered, partial (see missing_facts) or unanswerable, "
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
        The ``search``, ``ask`` and ``list_corpora`` tools.
    """
    from agentic_rag._interfaces.mcp_server import store_tools

    folder = tempfile.mkdtemp(prefix=_PREFIX)
    try:
        service = index_sample_store(Path(folder) / "store")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    # The tools hold the service; the folder goes with it (weakref.finalize also runs at exit).
    weakref.finalize(service, shutil.rmtree, folder, ignore_errors=True)
    return store_tools(service)
