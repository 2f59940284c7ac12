"""Fetch the Python 3.11 HTML documentation folder used by the agent A/B study.

The folder is the rendered HTML of the Python 3.11 documentation as Debian 12 ("bookworm")
ships it in ``python3.11-doc`` 3.11.2-6+deb12u9, fetched with
``apt-get download python3.11-doc=3.11.2-6+deb12u9`` (``apt-get update`` must have run
once). Every ``.html`` file under ``usr/share/doc/python3.11/html`` is kept at its path
below that folder (``library/socket.html``, ``whatsnew/3.11.html``, ...): 530 pages, about
50.7 MB, of which the two largest are ``contents.html`` (2.6 MB) and ``genindex-all.html``
(1.7 MB). Nothing else is kept: ``_static`` (CSS, JavaScript), ``_images``, ``_sources``
(reST), ``_downloads``, ``objects.inv``, ``searchindex.js``, the devhelp index and
``whatsnew/changelog.html.gz`` (Debian ships the changelog page gzipped, so it is not a
``.html`` file and is left out).

The pages are checked against a pinned SHA-256 of their manifest, written into a temporary
folder and renamed into place; see ``bench/corpora/deb_html_docs.py``. Licence: the documentation is
under the PSF licence (the package's copyright file and ``license.html``).

Run: ``python bench/corpora/docs_set_pyhtml.py`` (fetches into ``bench/.cache/docs_sets/pyhtml``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the bench package (repository root)

from bench.corpora.deb_html_docs import DebHtmlSet, fetch_set, summary  # noqa: E402

FOLDER_NAME = "pyhtml"
DEFAULT_CACHE = Path(__file__).resolve().parents[1] / ".cache" / "docs_sets"
SET = DebHtmlSet(
    folder=FOLDER_NAME,
    package="python3.11-doc",
    version="3.11.2-6+deb12u9",
    html_root="usr/share/doc/python3.11/html",
    files=530,
    manifest_sha256="6b982773df369869c79147385804c927b3a54d765e37f0a8328e385775619f9f",
)


def fetch(cache_dir: Path) -> Path:
    """Return ``cache_dir / "pyhtml"``, downloading it when needed (see the module docstring).

    Raises:
        RuntimeError: the download or unpacking fails, or the pages differ from the pin.
    """
    return fetch_set(SET, cache_dir)


if __name__ == "__main__":
    try:
        folder = fetch(DEFAULT_CACHE)
    except RuntimeError as exc:
        sys.exit(f"error: {exc}")
    print(summary(SET, folder))
