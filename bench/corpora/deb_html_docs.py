"""Fetch a folder of HTML documentation pages shipped by one pinned Debian package.

The shared machinery of ``bench/corpora/docs_set_pyhtml.py`` and ``bench/corpora/docs_set_sqlite.py``. A
set is one package (``apt-get download PKG=VERSION``; ``apt-get update`` must have run once)
and one folder inside its ``.deb``: every regular ``.html`` file under that folder is copied,
at its path relative to the folder, and nothing else. Sub-folders whose name starts with
``_`` (Sphinx's ``_static``, ``_sources``, ``_images``, ``_downloads``) are skipped, and so
are symbolic links and files Debian compressed (``*.html.gz``), so the folder holds the
rendered pages only: no stylesheets, scripts, images or reST sources.

The pin is of the extracted pages, not of the ``.deb``: the SHA-256 of a manifest that lists
every kept file as ``<relative path>\\t<SHA-256 of its bytes>\\n``, sorted by path (UTF-8).
A package version that has left the archive (a point release replaced it) is fetched at its
current version instead and accepted only if its pages still give the pinned manifest;
otherwise ``fetch`` stops with both digests, because the question keys must then be checked
again.

``fetch_set(html_set, cache_dir)`` builds ``cache_dir / html_set.folder`` once: it writes
into a temporary folder next to it and renames that into place only when every page is
there and the manifest matches, so an interrupted run never leaves a half folder behind. A
folder that already holds exactly the pinned pages is used as it is.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the bench package (repository root)
from bench.corpora.deb_packages import download_deb, run_tool, sha256_file  # noqa: E402

__all__ = ["DebHtmlSet", "fetch_set", "manifest_sha256", "select_pages", "summary"]


@dataclass(frozen=True, slots=True)
class DebHtmlSet:
    """One pinned folder of HTML pages: where it comes from and what it must hold."""

    folder: str  # the folder's name under the cache folder
    package: str
    version: str  # the exact Debian version the pin was taken from
    html_root: str  # folder inside the .deb's data archive whose pages are kept
    files: int  # how many pages the pinned version yields
    manifest_sha256: str  # SHA-256 of the manifest of the kept pages (module docstring)


def fetch_set(html_set: DebHtmlSet, cache_dir: Path) -> Path:
    """Return ``cache_dir / html_set.folder``, downloading and extracting it when needed.

    Raises:
        RuntimeError: ``apt-get`` or ``dpkg-deb`` is missing or fails, the package has no
            ``html_root``, or the extracted pages differ from the pinned manifest.
    """
    cache_dir = Path(cache_dir)
    target = cache_dir / html_set.folder
    if _is_complete(html_set, target):
        return target
    cache_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{html_set.folder}-", dir=cache_dir))
    try:
        staging.chmod(0o755)  # mkdtemp makes it private; the folder is read by other tools
        with tempfile.TemporaryDirectory(prefix="html-deb-", dir=cache_dir) as work:
            deb, fetched = download_deb(html_set.package, html_set.version, Path(work))
            tree = Path(work) / "tree"
            run_tool(["dpkg-deb", "-x", str(deb), str(tree)], f"unpack {deb.name}")
            root = tree.joinpath(*PurePosixPath(html_set.html_root).parts)
            if not root.is_dir() or root.is_symlink():
                raise RuntimeError(f"{deb.name} has no folder {html_set.html_root}")
            pages = select_pages(root)
            for relative in pages:
                out = staging.joinpath(*relative.parts)
                out.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(root.joinpath(*relative.parts), out)
        _check(html_set, staging, fetched)
        # A stale or partial folder from an older run is moved aside before the swap, so the
        # target name only ever points at a complete folder.
        if target.exists():
            stale = Path(tempfile.mkdtemp(prefix=f".{html_set.folder}-stale-", dir=cache_dir))
            os.replace(target, stale / html_set.folder)
            shutil.rmtree(stale)
        os.replace(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def select_pages(root: Path) -> list[PurePosixPath]:
    """The kept pages under ``root``: regular ``.html`` files outside ``_*`` folders, sorted."""
    kept = []
    for path in root.rglob("*.html"):
        relative = PurePosixPath(path.relative_to(root).as_posix())
        if any(part.startswith("_") for part in relative.parts[:-1]):
            continue
        if path.is_symlink() or not path.is_file():
            continue
        kept.append(relative)
    return sorted(kept, key=str)


def manifest_sha256(folder: Path) -> tuple[int, str]:
    """How many files ``folder`` holds and the SHA-256 of their manifest."""
    files = sorted(
        (PurePosixPath(path.relative_to(folder).as_posix()) for path in folder.rglob("*")
         if path.is_file()),
        key=str,
    )
    manifest = "".join(f"{relative}\t{sha256_file(folder.joinpath(*relative.parts))}\n"
                       for relative in files)
    return len(files), hashlib.sha256(manifest.encode("utf-8")).hexdigest()


def summary(html_set: DebHtmlSet, folder: Path) -> str:
    """One line naming the folder, the package, the page count and the size in MB."""
    size = sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
    return (f"{folder}: {html_set.package} {html_set.version}, {html_set.files} HTML pages, "
            f"{size / 1e6:.1f} MB")


def _check(html_set: DebHtmlSet, folder: Path, fetched_version: str) -> None:
    count, digest = manifest_sha256(folder)
    if count != html_set.files or digest != html_set.manifest_sha256:
        raise RuntimeError(
            f"the pages of {html_set.package} {fetched_version} give {count} files with "
            f"manifest SHA-256 {digest}, expected the pinned {html_set.files} files and "
            f"{html_set.manifest_sha256} (pinned from version {html_set.version}); the pages "
            "have changed, so the question set's files and keys must be checked again "
            "before the pin is updated"
        )


def _is_complete(html_set: DebHtmlSet, target: Path) -> bool:
    """Whether ``target`` holds exactly the pinned pages, with the pinned bytes."""
    if not target.is_dir():
        return False
    return manifest_sha256(target) == (html_set.files, html_set.manifest_sha256)
