"""The one routine every benchmark script uses to update its section of docs/benchmarks.md."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["replace_section"]


def replace_section(path: Path, start: str, end: str, text: str) -> None:
    """Replace the block between the ``start`` and ``end`` markers (or append it), writing
    the file to a temporary name and renaming it into place.

    Args:
        path: The benchmarks page.
        start: The opening marker, e.g. ``<!-- bench:bm25 -->``.
        end: The closing marker.
        text: The section's new content.
    """
    current = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    block = f"{start}\n{text.strip()}\n{end}"
    if start in current and end in current:
        head, rest = current.split(start, 1)
        _, tail = rest.split(end, 1)
        updated = head + block + tail
    else:
        updated = current.rstrip("\n") + "\n\n" + block + "\n"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".benchmarks.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(updated)
    os.replace(tmp, path)
