"""Where a store keeps things: its settings, file keys, and the index files of a generation.

Files are named in the store by their path relative to the store's *base* folder (the
folder holding the store folder, so ``./.agentic-rag`` names ``docs/guide.md`` for
``./docs/guide.md``); a file outside the base keeps its absolute ``/``-separated path. Index
files carry their generation in the name (``bm25-000007.idx``): a writer saves the next
generation beside the current one and switches the ``generation`` row in SQLite, so a reader
always loads a complete file that matches what the database says.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from agentic_rag._ingest.chunker import ChunkOptions
from agentic_rag._ingest.pdf_backend import PdfBackend
from agentic_rag._ingest.structured_loader import FieldMapping
from agentic_rag._ingest.walker import WalkOptions
from agentic_rag._regex import lazy_regex

__all__ = ["LOADER_VERSION", "StoreSettings", "index_file_names", "is_index_file"]

#: Bumped whenever a loader or the chunker changes what it produces, so stored chunks made
#: by an older version are re-made on the next index run. 2: every chunk keeps its line map
#: and its section's whole heading path.
LOADER_VERSION = 2

# Formats whose loader changed since: their files alone are re-read once (HTML templates are
# skipped now; a ``.txt`` file may be read as reStructuredText. 3: PDF sections from the
# outline or running titles, page furniture left out, page labels; HTML admonitions keep their
# section, navigation is no text, index-like pages are flagged. 4: HTML text a browser hides is
# left out).
_FORMAT_VERSIONS = {".html": 4, ".htm": 4, ".txt": 2, ".pdf": 3}

_INDEX_FILE = lazy_regex(r"^\.?(bm25|vector)-\d+\.idx(\..*\.tmp)?$")


@dataclass(frozen=True, slots=True)
class StoreSettings:
    """Everything a store's reads and writes depend on (built by ``KnowledgeStore``).

    Args:
        directory: The store folder (absolute).
        base: The folder file paths are named relative to (absolute).
        chunking: Chunk size and overlap.
        fields: Field mapping for JSON, JSONL and CSV files.
        walk: What a folder walk visits.
        pdf: Which extractor reads PDF files.
        vector: Keep a vector index too (``None``: keep whatever the store has).
        lock_timeout: Seconds a writer waits for another writer.
    """

    directory: Path
    base: Path
    chunking: ChunkOptions
    fields: FieldMapping
    walk: WalkOptions
    vector: bool | None
    lock_timeout: float
    pdf: PdfBackend = PdfBackend.BUILTIN

    def chunking_signature(self, suffix: str = "") -> str:
        """A short digest of what shapes the chunks of a file ending in ``suffix``; a file
        chunked otherwise is re-chunked (a PDF read by another extractor too)."""
        described: dict[str, object] = {
            "loader": LOADER_VERSION,
            "max_words": self.chunking.max_words,
            "overlap_words": self.chunking.overlap_words,
            "text_fields": list(self.fields.text_fields),
            "title_field": self.fields.title_field,
            "id_field": self.fields.id_field,
        }
        if suffix.lower() == ".pdf":
            described["pdf"] = self.pdf.value
        if suffix.lower() in _FORMAT_VERSIONS:
            described["format"] = _FORMAT_VERSIONS[suffix.lower()]
        return hashlib.sha256(json.dumps(described, sort_keys=True).encode("utf-8")).hexdigest()[:16]

    def key(self, path: Path) -> str:
        """The name the store gives ``path``: relative to the base when inside it (``""`` for
        the base itself), else absolute; always ``/``-separated."""
        absolute = os.path.abspath(path)
        base = str(self.base)
        if absolute == base:
            return ""
        if absolute.startswith(base.rstrip(os.sep) + os.sep):
            return Path(os.path.relpath(absolute, base)).as_posix()
        return Path(absolute).as_posix()


def index_file_names(generation: int, vector: bool) -> tuple[str, str]:
    """The BM25 and vector index file names of ``generation`` (``""`` when no vector index)."""
    return f"bm25-{generation:06d}.idx", (f"vector-{generation:06d}.idx" if vector else "")


def is_index_file(name: str) -> bool:
    """True for an index file of any generation, or the temporary file of one being written."""
    return bool(_INDEX_FILE.match(name))
