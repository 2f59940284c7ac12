"""What every benchmark script shares: updating its section of docs/benchmarks.md, and naming the
commit it measured."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

__all__ = ["replace_section", "revision"]

ROOT = Path(__file__).resolve().parents[1]


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


def revision() -> str:
    """The commit measured (and whether src/ had uncommitted changes), for the report."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=30, check=False).stdout.strip()

    try:
        head = git("rev-parse", "--short", "HEAD")
        dirty = git("status", "--porcelain", "--", "src")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (head or "unknown") + (" plus uncommitted changes in src/" if dirty else "")
