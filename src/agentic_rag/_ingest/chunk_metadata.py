"""What a stored chunk's document carries as metadata, apart from the chunker.

A search makes documents from stored rows with these keys; it imports this module, not the
chunker (whose blocks, work budget and packing a search never uses).
"""

from __future__ import annotations

__all__ = ["LIST_PAGE", "chunk_metadata"]

#: ``page_kind`` of a page that only lists other pages (an index, a table of contents).
LIST_PAGE = "list"


def chunk_metadata(path: str, start_line: int, end_line: int, section: str, sha256: str, record_id: str = "",
                   page: int | None = None, cell: int | None = None, line_marks: tuple[tuple[int, int], ...] = (),
                   page_label: str = "", list_page: bool = False) -> dict[str, object]:
    """A stored chunk's document metadata (keys absent when they do not apply, so a plain
    text file's chunks carry exactly ``path``, ``start_line``, ``end_line``, ``section`` and
    ``sha256``)."""
    metadata: dict[str, object] = {"path": path, "start_line": start_line, "end_line": end_line, "section": section, "sha256": sha256}
    if record_id:
        metadata["record_id"] = record_id
    if page is not None:
        metadata["page"] = page
    if cell is not None:
        metadata["cell"] = cell
    if line_marks:
        metadata["line_marks"] = [list(mark) for mark in line_marks]
    if page_label:
        metadata["page_label"] = page_label
    if list_page:
        metadata["page_kind"] = LIST_PAGE
    return metadata
