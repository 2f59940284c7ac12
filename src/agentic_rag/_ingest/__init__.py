"""Ingestion: walk a folder, load each file as sections of text, cut them into chunks.

:func:`walk_tree` finds the files (deterministic order, symbolic links contained in the root),
:func:`read_source` and :func:`parse_source` read and parse one (Markdown, reStructuredText,
HTML, text, JSON, JSONL, CSV, Jupyter notebooks, Word documents, PDF; anything else is a
listed ``problem``, never an exception), and :func:`chunk_sections` cuts the result into
:class:`Chunk` objects that cite ``path:start-end`` line ranges of the original file (lines of
the page for a PDF, ``path:p12:3-5``; of the cell for a notebook, ``path:c7:1-4``).
"""

from __future__ import annotations

from agentic_rag._lazy import lazy_exports

# Where each name lives; a module is imported when one of its names is first used.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "agentic_rag._ingest.blocks": ("ParsedSource", "TextBlock", "TextSection"),
    "agentic_rag._ingest.chunker": ("Chunk", "ChunkOptions", "chunk_sections"),
    "agentic_rag._ingest.docx_loader": ("parse_docx",),
    "agentic_rag._ingest.html_loader": ("parse_html",),
    "agentic_rag._ingest.loaders": (
        "SourceBytes",
        "decode_text",
        "load_path",
        "parse_plain_text",
        "parse_source",
        "read_source",
    ),
    "agentic_rag._ingest.markdown_loader": ("parse_markdown",),
    "agentic_rag._ingest.notebook_loader": ("parse_notebook",),
    "agentic_rag._ingest.pdf_loader": ("PdfBackend", "parse_pdf"),
    "agentic_rag._ingest.rst_loader": ("parse_rst",),
    "agentic_rag._ingest.structured_loader": ("FieldMapping", "parse_csv", "parse_json", "parse_jsonl"),
    "agentic_rag._ingest.walker": (
        "DEFAULT_SKIPPED_FOLDERS",
        "SUPPORTED_SUFFIXES",
        "SkippedFile",
        "SourceFile",
        "WalkOptions",
        "WalkResult",
        "walk_tree",
    ),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)
