"""Fetch the SQLite HTML documentation folder used by the agent A/B study.

The folder is SQLite's own documentation website (release 3.40.1) as Debian 12 ("bookworm")
ships it in ``sqlite3-doc`` 3.40.1-2+deb12u2, fetched with
``apt-get download sqlite3-doc=3.40.1-2+deb12u2`` (``apt-get update`` must have run once).
Every ``.html`` file under ``usr/share/doc/sqlite3`` is kept at its path below that folder:
766 pages, about 21.6 MB, of which 214 are top-level pages (``lang_*.html`` for the SQL
language, ``pragma.html``, ``limits.html``, ``cli.html``, ...), 210 are C API pages under
``c3ref/``, 225 release notes under ``releaselog/``, 47 session-extension pages under
``session/`` and 70 syntax-diagram pages under ``syntax/``. Nothing else is kept: images,
CSS, the search database and the gzipped changelogs are left out.

The pages are checked against a pinned SHA-256 of their manifest, written into a temporary
folder and renamed into place; see ``bench/corpora/deb_html_docs.py``. Licence: public domain
(the package's copyright file, ``Files: *``).

Run: ``python bench/corpora/docs_set_sqlite.py`` (fetches into ``bench/.cache/docs_sets/sqlite``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the bench package (repository root)

from bench.corpora.deb_html_docs import DebHtmlSet, fetch_set, summary  # noqa: E402

FOLDER_NAME = "sqlite"
DEFAULT_CACHE = Path(__file__).resolve().parents[1] / ".cache" / "docs_sets"
SET = DebHtmlSet(
    folder=FOLDER_NAME,
    package="sqlite3-doc",
    version="3.40.1-2+deb12u2",
    html_root="usr/share/doc/sqlite3",
    files=766,
    manifest_sha256="1c697f0c80c741f46688e4fe7c10b39e7c10a8ce0e95365a81364c52a4047d28",
)


def fetch(cache_dir: Path) -> Path:
    """Return ``cache_dir / "sqlite"``, downloading it when needed (see the module docstring).

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
