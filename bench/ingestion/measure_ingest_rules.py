"""Measure the two content rules of ingestion on real files and print a table.

- HTML templates: the share of the loader's extracted text inside ``{% %}``, ``{{ }}`` and
  ``{# #}`` (``agentic_rag._ingest.template_html``); a file at ``TEMPLATE_SHARE`` or above
  is skipped as a template.
- reStructuredText named ``.txt``: ``agentic_rag._ingest.text_format.looks_like_rst``.

Each group is a list of folders (walked for ``.html``/``.htm`` or ``.txt`` files) or of
``@FILE`` lists holding one path a line. Label the groups by what their files really are, and
read the table as: templates and rST should be flagged, pages and plain text should not.

    python3 bench/ingestion/measure_ingest_rules.py --templates THEMES_DIR --pages DOCS_HTML_DIR \\
        --rst-txt SPHINX_DOCS_DIR --plain-txt @plain_txt_files.txt
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from agentic_rag._ingest.blocks import ParsedSource  # noqa: E402
from agentic_rag._ingest.html_loader import parse_html  # noqa: E402
from agentic_rag._ingest.loaders import decode_text  # noqa: E402
from agentic_rag._ingest.template_html import TEMPLATE_SHARE, template_share  # noqa: E402
from agentic_rag._ingest.text_format import looks_like_rst  # noqa: E402


def _files(sources: list[str], suffixes: tuple[str, ...]) -> list[Path]:
    found: list[Path] = []
    for source in sources:
        if source.startswith("@"):
            found.extend(Path(line.strip()) for line in Path(source[1:]).read_text(encoding="utf-8").splitlines() if line.strip())
            continue
        for folder, dirs, names in os.walk(source):
            dirs.sort()
            found.extend(Path(folder) / n for n in sorted(names) if n.lower().endswith(suffixes))
    return found


def _text(path: Path) -> str | None:
    try:
        text, problem = decode_text(path.read_bytes())
    except OSError:
        return None
    return None if problem else text


def _quantile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


def html_row(label: str, files: list[Path]) -> str:
    shares: list[float] = []
    blank = 0
    for path in files:
        text = _text(path)
        if text is None:
            continue
        extracted = ParsedSource(parse_html(text)).text
        if not extracted.strip():
            blank += 1
            continue
        shares.append(template_share(extracted))
    shares.sort()
    flagged = sum(s >= TEMPLATE_SHARE for s in shares)
    return (f"| {label} | {len(shares)} (+{blank} without text) | {flagged} | {_quantile(shares, 0.1):.3f} | "
            f"{_quantile(shares, 0.5):.3f} | {shares[-1] if shares else 0:.3f} |")


def txt_row(label: str, files: list[Path]) -> str:
    read = flagged = 0
    for path in files:
        text = _text(path)
        if text is None:
            continue
        read += 1
        flagged += looks_like_rst(text)
    return f"| {label} | {read} | {flagged} |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name in ("templates", "pages", "rst-txt", "plain-txt"):
        parser.add_argument(f"--{name}", nargs="*", default=[], metavar="DIR|@LIST")
    args = parser.parse_args(argv)
    print(f"HTML: a file is a template at a share of {TEMPLATE_SHARE} or more")
    print("| group | files with text | flagged as template | share p10 | median | max |\n|---|---|---|---|---|---|")
    for label, sources in (("templates", args.templates), ("pages", args.pages)):
        if sources:
            print(html_row(label, _files(sources, (".html", ".htm"))))
    print("\n.txt: read as reStructuredText by content\n| group | files | flagged as reStructuredText |\n|---|---|---|")
    for label, sources in (("reStructuredText", args.rst_txt), ("plain text", args.plain_txt)):
        if sources:
            print(txt_row(label, _files(sources, (".txt",))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
