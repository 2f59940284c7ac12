"""Fetch the folder of PDF manuals used by the docs-QA and agent-cost benchmarks.

The folder holds eight real manuals and specifications, each shipped as a PDF by a Debian 12
("bookworm") package and fetched with ``apt-get download PKG=VERSION`` (``apt-get update``
must have run once). Each PDF is taken out of its ``.deb`` with ``dpkg-deb``, decompressed
when the package ships it gzipped, checked against a pinned SHA-256 and written as
``<package>/<file>.pdf``::

    pdfs/bzip2-doc/manual.pdf                     bzip2 and libbzip2 manual, 38 pages
    pdfs/fontconfig/fontconfig-user.pdf           fonts.conf(5) user manual, 15 pages
    pdfs/libidn2-doc/libidn2.pdf                  Libidn2 manual, 25 pages
    pdfs/libmpfr-doc/mpfr.pdf                     GNU MPFR manual, 74 pages
    pdfs/libtasn1-doc/libtasn1.pdf                GNU Libtasn1 manual, 36 pages
    pdfs/nettle-dev/nettle.pdf                    Nettle manual, 111 pages
    pdfs/shared-mime-info/shared-mime-info-spec.pdf  Shared MIME-info spec, 17 pages
    pdfs/valgrind/valgrind_manual.pdf             Valgrind manual, 397 pages

Only the PDFs are kept: nothing else lands in the folder, so a tool pointed at it sees PDFs
and nothing an agent could ``grep`` without a converter. Licences are listed in
``bench/data/docs_qa/README.md``.

The pins are of the PDF bytes, not of the ``.deb``: a package version that has left the
archive (a point release replaced it) is fetched at its current version instead, and the
PDF is accepted only if its SHA-256 is still the pinned one; otherwise ``fetch`` stops with
the expected and the actual digest. The digests were taken from the amd64 packages; the four
architecture-specific packages (``fontconfig``, ``nettle-dev``, ``shared-mime-info``,
``valgrind``) may ship different bytes on another architecture, which ``fetch`` then reports
the same way.

``fetch(cache_dir)`` builds ``cache_dir / "pdfs"`` once: it writes into a temporary folder
next to it and renames that into place only when every PDF is there and checked, so an
interrupted run never leaves a half folder behind. A folder that already holds exactly the
pinned PDFs is used as it is.

Run: ``python bench/corpora/docs_set_pdfs.py`` (fetches into ``bench/.cache/docs_sets/``).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the bench package (repository root)
from bench.corpora.deb_packages import download_deb, run_tool, sha256_file  # noqa: E402

FOLDER_NAME = "pdfs"
DEFAULT_CACHE = Path(__file__).resolve().parents[1] / ".cache" / "docs_sets"


@dataclass(frozen=True, slots=True)
class PdfSource:
    """One pinned PDF: the Debian package that ships it and the bytes expected."""

    package: str
    version: str  # the exact Debian version, epoch included
    member: str  # path inside the .deb's data archive
    sha256: str  # of the PDF after decompression
    pages: int

    @property
    def relative_path(self) -> PurePosixPath:
        """Where the PDF lands in the folder: ``<package>/<file>.pdf``."""
        name = PurePosixPath(self.member).name
        return PurePosixPath(self.package, name[: -len(".gz")] if name.endswith(".gz") else name)


SOURCES: tuple[PdfSource, ...] = (
    PdfSource(
        "bzip2-doc", "1.0.8-5", "usr/share/doc/bzip2/manual.pdf.gz",
        "1dd1f12b3dcb0894481708881ed8d052c769f3820c06839c702c8cfad973d7d3", 38,
    ),
    PdfSource(
        "fontconfig", "2.14.1-4", "usr/share/doc/fontconfig/fontconfig-user.pdf.gz",
        "8851a84c668b22261828d36a10f9c46dac3faadf78122995dd92842f9f51747f", 15,
    ),
    PdfSource(
        "libidn2-doc", "2.3.3-1", "usr/share/doc/libidn2-doc/libidn2.pdf",
        "0c1fb6ffacd204fa15f5c049daa062a91e48d58d437d5a2b944d0e8124c26877", 25,
    ),
    PdfSource(
        "libmpfr-doc", "4.2.0-1", "usr/share/doc/libmpfr-doc/mpfr.pdf.gz",
        "5dc8bca3083e0c02478aab4196af0737aaece9401fd290127b40ef104cdc63af", 74,
    ),
    PdfSource(
        "libtasn1-doc", "4.19.0-2+deb12u1", "usr/share/doc/libtasn1-doc/libtasn1.pdf",
        "3917eb460d87e275f9792b3597029873fd77890ed3ccebe40bbc5a3a7ee516d3", 36,
    ),
    PdfSource(
        "nettle-dev", "3.8.1-2", "usr/share/doc/nettle-dev/nettle.pdf.gz",
        "fa0c6394acde69113eb33202a4c9ba33a4858429f2d735bc2707d41112da98f5", 111,
    ),
    PdfSource(
        "shared-mime-info", "2.2-1", "usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf",
        "4d9666c46b4d367a12e2922f4f3b114396c377106c57bbc934d03320e6888002", 17,
    ),
    PdfSource(
        "valgrind", "1:3.19.0-1", "usr/share/doc/valgrind/valgrind_manual.pdf.gz",
        "63d1bf4d27c78a5dd6a142d5e7311138b15e8cffc3e9f8839a27eede28b1984e", 397,
    ),
)


def fetch(cache_dir: Path) -> Path:
    """Return the PDF folder under ``cache_dir``, downloading it when needed.

    Args:
        cache_dir: folder that holds the docs sets; created when missing.

    Returns:
        ``cache_dir / "pdfs"``, holding ``<package>/<file>.pdf`` for every pinned source.

    Raises:
        RuntimeError: ``apt-get`` or ``dpkg-deb`` is missing or fails, a package does not
            hold its PDF, or a PDF's SHA-256 differs from the pinned one.
    """
    cache_dir = Path(cache_dir)
    target = cache_dir / FOLDER_NAME
    if _is_complete(target):
        return target
    cache_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{FOLDER_NAME}-", dir=cache_dir))
    try:
        staging.chmod(0o755)  # mkdtemp makes it private; the folder is read by other tools
        with tempfile.TemporaryDirectory(prefix="pdf-debs-", dir=cache_dir) as work:
            for source in SOURCES:
                _fetch_one(source, Path(work), staging)
        # A stale or partial folder from an older run is moved aside before the swap, so the
        # target name only ever points at a complete folder.
        if target.exists():
            stale = Path(tempfile.mkdtemp(prefix=f".{FOLDER_NAME}-stale-", dir=cache_dir))
            os.replace(target, stale / FOLDER_NAME)
            shutil.rmtree(stale)
        os.replace(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def _fetch_one(source: PdfSource, work: Path, staging: Path) -> None:
    """Download ``source``'s package, extract, check and write its PDF under ``staging``."""
    download_dir = work / source.package
    download_dir.mkdir()
    deb, fetched_version = download_deb(source.package, source.version, download_dir)
    tree = work / f"{source.package}-tree"
    run_tool(["dpkg-deb", "-x", str(deb), str(tree)], f"unpack {deb.name}")
    member = tree.joinpath(*PurePosixPath(source.member).parts)
    if not member.is_file():
        raise RuntimeError(f"{deb.name} does not contain {source.member}")
    data = member.read_bytes()
    if source.member.endswith(".gz"):
        data = gzip.decompress(data)
    digest = hashlib.sha256(data).hexdigest()
    if digest != source.sha256:
        raise RuntimeError(
            f"{source.relative_path} from {source.package} {fetched_version} has SHA-256 "
            f"{digest}, expected the pinned {source.sha256} (pinned from version "
            f"{source.version}); the package's PDF has changed, so the question set's pages "
            "and keys must be checked again before the pin is updated"
        )
    out = staging.joinpath(*source.relative_path.parts)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    shutil.rmtree(tree)


def _is_complete(target: Path) -> bool:
    """Whether ``target`` holds exactly the pinned PDFs, with the pinned bytes."""
    if not target.is_dir():
        return False
    expected = {source.relative_path: source.sha256 for source in SOURCES}
    present = {
        PurePosixPath(path.relative_to(target).as_posix())
        for path in target.rglob("*") if path.is_file()
    }
    if present != set(expected):
        return False
    return all(
        sha256_file(target.joinpath(*relative.parts)) == digest
        for relative, digest in expected.items()
    )


if __name__ == "__main__":
    try:
        folder = fetch(DEFAULT_CACHE)
    except RuntimeError as exc:
        sys.exit(f"error: {exc}")
    for item in SOURCES:
        size = folder.joinpath(*item.relative_path.parts).stat().st_size
        print(f"{item.relative_path}  {item.package} {item.version}  {item.pages} pages  "
              f"{size / 1e3:.0f} KB")
    total = sum(item.pages for item in SOURCES)
    print(f"{folder}: {len(SOURCES)} PDFs, {total} pages")
