"""Lay out the three folders of the agent A/B's third and fourth runs (``bench/data/agent_ab/``).

* ``S1``: release notes whose file names are versions, not topics: Django's release notes
  (reStructuredText, ``django-releases/``) and SQLite's release log (HTML,
  ``sqlite-releaselog/``), about 608 files;
* ``S2``: the eight PDF manuals of ``bench/corpora/docs_set_pdfs.py`` and five man pages
  typeset as PDFs (``man/``: tar, curl, find, grep, ssh; groff's ``pdf`` device);
* ``S3``: a mixed folder: the Python 3.11 HTML manual (``python-docs/``) and the Markdown and
  reStructuredText documentation of attrs, flask, structlog, jinja2 and Python-Markdown.

The questions (``bench/data/agent_ab/round3/`` and ``round4/``, its README says how they were
written) were each written by a separate author who read only these folders; each round's
``SOURCES.md`` says where each answer is. The documents are not kept in the repository: they
come from the fetched docs sets.

Run::

    python bench/agents/ab_folders.py OUT      # then the A/B kit's setup with OUT/S1 ...
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the bench package (repository root)

from bench.corpora.docs_qa_sets import DATA, SETS  # noqa: E402
from bench.ingestion.man_pages import pdf_device, typeset  # noqa: E402

MAN_PAGES = ("tar", "curl", "find", "grep", "ssh")
SMALL_PROJECTS = ("attrs", "flask", "structlog", "jinja2", "markdown")


def lay_out(out: Path) -> list[str]:
    """Copy the three folders into ``out`` (``out/S1`` ...); returns what could not be made."""
    folders = {s.name: s.folder for s in SETS}
    problems = []
    lay_out_release_notes(out / "S1")
    _copy(folders["pdfs"](), out / "S2")
    missing = pdf_device()
    if missing:
        problems.append(f"man pages not typeset: {missing}")
    else:
        typeset(MAN_PAGES, out / "S2" / "man")
    _copy(folders["pyhtml"](), out / "S3" / "python-docs")
    for project in SMALL_PROJECTS:
        _copy(DATA / project, out / "S3" / project)
    return problems


def lay_out_release_notes(folder: Path) -> None:
    """Copy ``S1`` alone into ``folder``: Django's release notes and SQLite's release log."""
    folders = {s.name: s.folder for s in SETS}
    _copy(folders["django"]() / "docs" / "releases", folder / "django-releases")
    _copy(folders["sqlite"]() / "releaselog", folder / "sqlite-releaselog")


def _copy(source: Path, target: Path) -> None:
    if not source.is_dir():
        raise FileNotFoundError(f"{source} is not a folder: fetch the docs sets first (bench/corpora/)")
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="folder to lay S1, S2 and S3 out in (replaced if present)")
    args = parser.parse_args(argv)
    for problem in lay_out(Path(args.out)):
        print(problem, file=sys.stderr)
    for name in ("S1", "S2", "S3"):
        files = sum(1 for p in (Path(args.out) / name).rglob("*") if p.is_file())
        print(f"{name}: {files} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
