"""Fetching one file set out of a Debian package, shared by the docs-set fetch scripts
(``bench/corpora/docs_set_pdfs.py``, ``bench/corpora/deb_html_docs.py``): download a pinned package version (or,
when a point release replaced it, the current one, which the caller's pin then accepts or
refuses), run a tool with a clear error, hash a file."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

__all__ = ["download_deb", "run_tool", "sha256_file"]


def download_deb(package: str, version: str, dest: Path) -> tuple[Path, str]:
    """``apt-get download`` ``package=version`` into ``dest``, or its current version.

    Returns:
        The ``.deb`` and the version downloaded (a note when it is not the pinned one).

    Raises:
        RuntimeError: Neither could be downloaded, or ``dest`` holds no single ``.deb``.
    """
    pinned = f"{package}={version}"
    result = _apt_download(pinned, dest)
    if result.returncode != 0:
        # A point release replaces a version in the archive; the caller's pin decides whether
        # the current version is still usable.
        first_error = _tail(result)
        result = _apt_download(package, dest)
        if result.returncode != 0:
            raise RuntimeError(
                f"apt-get could not download {pinned} ({first_error}) nor the current "
                f"{package} ({_tail(result)}); run 'apt-get update' once if the "
                "package lists are empty"
            )
        version = "(current version, the pinned one was not available)"
    debs = sorted(dest.glob(f"{package}_*.deb"))
    if len(debs) != 1:
        raise RuntimeError(f"apt-get download {pinned} left {len(debs)} .deb files in {dest}")
    return debs[0], version


def run_tool(command: list[str], what: str) -> None:
    """Run ``command``; a failure raises ``RuntimeError`` saying it failed to ``what``."""
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise RuntimeError(f"could not run {command[0]} to {what}: {exc}") from exc
    if result.returncode != 0:
        raise RuntimeError(f"{command[0]} failed to {what}: {_tail(result)}")


def sha256_file(path: Path) -> str:
    """The SHA-256 of a file's bytes, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _apt_download(spec: str, dest: Path) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(["apt-get", "download", "-q", spec], cwd=dest, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise RuntimeError(f"could not run apt-get to download {spec}: {exc}") from exc


def _tail(result: subprocess.CompletedProcess[str]) -> str:
    lines = (result.stderr or result.stdout or "").strip().splitlines()
    errors = [line for line in lines if line.startswith("E:")] or lines[-3:]
    return f"exit status {result.returncode}: " + (" ".join(errors) or "no output")
