"""Man pages typeset as PDFs, and how many search hits carry a section: for bench_sections.py.

A man page typeset by ``groff -man -Tpdf`` (what ``man -Tpdf NAME`` runs) has no outline and
a running header that names the whole page: its sections are only in its typography (bold
flush-left headings, bold option tags over indented text). ``typeset`` builds such PDFs on
this machine at benchmark time (none is kept in the repository); it needs groff's ``pdf``
device, in Debian's ``groff`` package (``groff-base`` alone has no ``pdf`` device), and
``pdf_device`` says why it cannot run when it is missing.

The pages measured for the report (``REPORT_PAGES``: bash and four others) were not looked at
while the loader's heading rules were written; those were developed on other man pages
(``ls``, ``grep``, ``tar``, ``find``, ``curl``, ``git``, ``python3``, ``make``, ``dpkg``, ``dash``).
The questions below were written from what the programs do, not from the PDFs.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

__all__ = ["MANUAL_QUESTIONS", "MAN_QUESTIONS", "REPORT_PAGES", "TOP", "measure_hits", "pdf_device", "typeset"]

REPORT_PAGES = ("bash", "ssh", "wget", "systemctl", "less")
TOP = 5
MAN_QUESTIONS = (
    "How do I make a pipeline fail when any command in it fails?",
    "What does the PROMPT_COMMAND variable do?",
    "How does brace expansion work?",
    "Which files does an interactive login shell read when it starts?",
    "How do I forward a local port to a remote host over ssh?",
    "How do I choose the identity file for public key authentication?",
    "How do I resume a partially downloaded file with wget?",
    "How do I mirror a website recursively?",
    "How do I enable a unit so that it starts at boot?",
    "How do I list the units that failed?",
    "How do I search forward for a pattern in less?",
    "How do I follow a file that keeps growing, like tail -f?",
)
MANUAL_QUESTIONS = (
    "How do I choose the block size when compressing with bzip2?",
    "How do I substitute one font family for another with an alias?",
    "How do I convert an internationalized domain name to ASCII?",
    "Which rounding modes does MPFR support?",
    "How do I decode DER encoded data into an ASN.1 structure?",
    "How do I compute a SHA-256 digest with nettle?",
    "How are glob patterns weighted when a MIME type is guessed from a file name?",
    "How do I find memory leaks with memcheck?",
)
_PROBE = b".TH PROBE 1\n.SH NAME\nprobe \\- a page to see that the pdf device works\n"


def pdf_device() -> str:
    """Why man pages cannot be typeset as PDFs here, or ``""`` when they can."""
    for program in ("groff", "man"):
        if shutil.which(program) is None:
            return f"{program} is not installed (Debian: apt-get install groff man-db)"
    done = subprocess.run(["groff", "-man", "-Tpdf"], input=_PROBE, capture_output=True, check=False)
    if done.returncode or not done.stdout.startswith(b"%PDF"):
        return "groff has no pdf device (Debian's groff-base lacks it: apt-get install groff)"
    return ""


def typeset(names: tuple[str, ...], folder: Path) -> list[str]:
    """Write ``folder/NAME.pdf`` for each man page with ``man -Tpdf NAME``.

    Returns:
        The names typeset (a page this machine does not have is left out).
    """
    folder.mkdir(parents=True, exist_ok=True)
    done = []
    for name in names:
        result = subprocess.run(["man", "-Tpdf", name], capture_output=True, check=False)
        if result.returncode == 0 and result.stdout.startswith(b"%PDF"):
            (folder / f"{name}.pdf").write_bytes(result.stdout)
            done.append(name)
    return done


def measure_hits(folder: Path) -> dict:
    """Index ``folder`` (man pages under ``man/``, manuals under ``manuals/``) with the code
    importable as ``agentic_rag`` and count the top hits of every question that carry a section."""
    import tempfile

    from agentic_rag._store import KnowledgeStore

    out: dict = {"man": [0, 0], "manuals": [0, 0], "bare": []}
    with tempfile.TemporaryDirectory() as tmp:
        store = KnowledgeStore(Path(tmp) / "store", base=folder)
        store.index(folder)
        for question in MAN_QUESTIONS + MANUAL_QUESTIONS:
            for hit in store.search(question, TOP):
                kind = hit.path.split("/", 1)[0]
                counts = out.setdefault(kind, [0, 0])
                counts[0] += bool(hit.section)
                counts[1] += 1
                if not hit.section:
                    out["bare"].append(f"{hit.path} p. {hit.page}")
    return out
