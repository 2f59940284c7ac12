"""Writing files so a crash never leaves a half-written one under the real name.

:func:`atomic_write` is the one writer every layer uses (saved indexes, HTTP recordings,
HTML reports, run traces): the bytes go to a temporary file in the target's folder, which is
flushed and fsync-ed, given its permissions and ``os.replace``-d into place; then the folder
itself is fsync-ed so the rename survives a power cut. Standard library only, and no imports
from the package, so any module can use it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

__all__ = ["atomic_write"]

# The process's umask, read once at import: a temporary file is created private (0600), and a
# written file gets the permissions any new file would (so a shared store stays readable).
_UMASK = os.umask(0o022)
os.umask(_UMASK)


def atomic_write(path: str | os.PathLike[str], data: bytes | Iterable[bytes], *, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` through a temporary file renamed into place.

    Args:
        path: Destination file; its folder is created when missing.
        data: The bytes, or byte strings written in order (so a large file need not be joined
            in memory first).
        mode: The file's permissions (default: those of any new file, ``0o666`` less the
            process's umask).

    Raises:
        OSError: The file cannot be written (the temporary file is removed).
        TypeError: ``data`` holds something other than bytes.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    chunks = (data,) if isinstance(data, (bytes, bytearray, memoryview)) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            for chunk in chunks:
                handle.write(chunk)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, (0o666 & ~_UMASK) if mode is None else mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _sync_folder(target.parent)


def _sync_folder(folder: Path) -> None:
    """fsync a folder so a rename in it is durable; a platform that cannot open a folder
    (Windows) or sync one is left to its own guarantees."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
