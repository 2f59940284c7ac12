"""Fetch the Django documentation folder used by the docs-QA and agent-cost benchmarks.

The folder is the ``docs/`` tree of one pinned Django source distribution from PyPI
(``pip download --no-binary :all: --no-deps django==VERSION``), checked against a pinned
SHA-256, with only the text the documentation needs kept:

- every ``.txt`` (reStructuredText: Sphinx reads ``.txt`` as reST here, see
  ``source_suffix`` in ``docs/conf.py``), ``.rst`` and ``.html`` (theme templates) file
  under ``docs/``;
- ``docs/conf.py``, so a loader can read ``source_suffix``;
- the sdist's ``LICENSE`` (BSD-3-Clause), at the folder's top level.

Images, PDFs, fonts, CSS, the Sphinx extensions, ``Makefile``/``make.bat``, the man page
and the spelling word list are dropped. Nothing is edited. Paths keep the sdist's layout,
so the question set names files such as ``docs/ref/settings.txt``.

``fetch(cache_dir)`` builds ``cache_dir / "django"`` once: it extracts into a temporary
folder next to it and renames that into place only when every file is written, so an
interrupted run never leaves a half folder behind. A folder that is already there and holds
exactly the expected files is used as it is.

Run: ``python bench/corpora/docs_set_django.py`` (fetches into ``bench/.cache/docs_sets/``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path, PurePosixPath

DJANGO_VERSION = "5.2.19"
SDIST_NAME = f"django-{DJANGO_VERSION}.tar.gz"
SDIST_SHA256 = "ad03d8abc51dbff95ebf34b27123cf0c26a3b62db7ba0cd520783686362533d1"
FOLDER_NAME = "django"
# Files the pinned sdist yields under the rules above: 656 .txt, 1 .rst, 5 .html,
# docs/conf.py and LICENSE. A folder holding any other number is rebuilt.
EXPECTED_FILES = 664
KEPT_SUFFIXES = (".txt", ".rst", ".html")
KEPT_EXACT = ("docs/conf.py", "LICENSE")
DEFAULT_CACHE = Path(__file__).resolve().parents[1] / ".cache" / "docs_sets"


def fetch(cache_dir: Path) -> Path:
    """Return the Django docs folder under ``cache_dir``, downloading it when needed.

    Args:
        cache_dir: folder that holds the docs sets; created when missing.

    Returns:
        ``cache_dir / "django"``, holding ``LICENSE`` and ``docs/...``.

    Raises:
        RuntimeError: pip could not download the sdist, its SHA-256 differs from the pinned
            one, or the archive does not hold the expected files.
    """
    cache_dir = Path(cache_dir)
    target = cache_dir / FOLDER_NAME
    if _is_complete(target):
        return target
    cache_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="django-sdist-") as download_dir:
        tarball = _download(Path(download_dir))
        _check_sha256(tarball, SDIST_SHA256)
        _install(tarball, target, expected_files=EXPECTED_FILES)
    return target


def _download(dest: Path) -> Path:
    """Download the pinned sdist into ``dest`` with pip and return its path."""
    command = [
        sys.executable, "-m", "pip", "download",
        "--no-binary", ":all:", "--no-deps", "--disable-pip-version-check",
        "--dest", str(dest), f"django=={DJANGO_VERSION}",
    ]
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise RuntimeError(f"could not run pip to download {SDIST_NAME}: {exc}") from exc
    tarball = dest / SDIST_NAME
    if result.returncode != 0 or not tarball.is_file():
        tail = "\n".join((result.stderr or result.stdout).strip().splitlines()[-5:])
        raise RuntimeError(
            f"pip could not download {SDIST_NAME} (exit status {result.returncode}; "
            f"command: {' '.join(command)}): {tail or 'no output'}"
        )
    return tarball


def _check_sha256(path: Path, expected: str) -> None:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != expected:
        raise RuntimeError(
            f"{path.name} has SHA-256 {digest.hexdigest()}, expected the pinned {expected}"
        )


def _kept(relative: PurePosixPath) -> bool:
    """Whether a path (relative to the sdist's top folder) belongs in the docs folder."""
    text = relative.as_posix()
    if text in KEPT_EXACT:
        return True
    return relative.parts[0] == "docs" and relative.suffix.lower() in KEPT_SUFFIXES


def _install(tarball: Path, target: Path, *, expected_files: int) -> None:
    """Extract the kept files of ``tarball`` into ``target``, atomically.

    Raises:
        RuntimeError: a member escapes the archive's folder, a kept file is not UTF-8, or
            the number of kept files is not ``expected_files``.
    """
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        written = _extract_kept(tarball, staging)
        if written != expected_files:
            raise RuntimeError(
                f"{tarball.name} yielded {written} documentation files, expected {expected_files}"
            )
        # A stale or partial folder from an older run is moved aside before the swap, so the
        # target name only ever points at a complete folder.
        if target.exists():
            stale = Path(tempfile.mkdtemp(prefix=f".{target.name}-stale-", dir=target.parent))
            os.replace(target, stale / target.name)
            shutil.rmtree(stale)
        os.replace(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _extract_kept(tarball: Path, dest: Path) -> int:
    """Write the kept regular files of ``tarball`` under ``dest``; return how many."""
    written = 0
    with tarfile.open(tarball, "r:gz") as archive:
        for member in archive:
            if not member.isfile():
                continue
            parts = PurePosixPath(member.name).parts
            if len(parts) < 2 or member.name.startswith("/") or ".." in parts:
                raise RuntimeError(f"{tarball.name}: unsafe member path {member.name!r}")
            relative = PurePosixPath(*parts[1:])  # drop the sdist's "django-X.Y.Z/"
            if not _kept(relative):
                continue
            source = archive.extractfile(member)
            if source is None:
                raise RuntimeError(f"{tarball.name}: cannot read {member.name!r}")
            data = source.read()
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise RuntimeError(f"{tarball.name}: {member.name!r} is not UTF-8 text") from exc
            out = dest.joinpath(*relative.parts)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(data)
            written += 1
    return written


def _is_complete(target: Path) -> bool:
    if not (target / "LICENSE").is_file() or not (target / "docs" / "conf.py").is_file():
        return False
    count = sum(1 for path in target.rglob("*") if path.is_file())
    return count == EXPECTED_FILES


def _text_bytes(folder: Path) -> tuple[int, int]:
    files = [path for path in folder.rglob("*") if path.is_file()]
    return len(files), sum(path.stat().st_size for path in files)


if __name__ == "__main__":
    try:
        folder = fetch(DEFAULT_CACHE)
    except RuntimeError as exc:
        sys.exit(f"error: {exc}")
    count, size = _text_bytes(folder)
    print(f"{folder}: Django {DJANGO_VERSION} docs, {count} files, {size / 1e6:.2f} MB of text")
