"""How well the instruction detector tells text addressed to a model from ordinary text.

Measures :func:`agentic_rag._text.instructions.is_instruction_like` on

1. the phrasing sets under ``tests/data/``: ``instructions_dev.json`` (the detector is tuned
   on it), ``instructions_held_out.json`` (written before the first detector),
   ``instructions_held_out_2.json`` to ``instructions_held_out_4.json`` (each written before
   a round of changes; their misses were studied after their first run, so they are no longer
   held out) and ``instructions_held_out_5.json`` (written after the fourth was measured,
   before the changes that followed, never used to tune them): recall on the injections,
   false flags on the benign
   look-alikes; for the dev set and the later held-out sets also every obfuscated variant
   made by program (``bench/ingestion/instruction_variants.py``: invisible characters, look-alike
   letters, full-width forms, backticks, capitals), with recall per disguise;
2. real documentation that holds no injection, split into sentences (and into the units the
   answer path ranks): the docs-QA folders under ``bench/data/docs_qa/`` and the fetched
   docs-QA sets (Django, the Python and SQLite HTML manuals), the Debian manual
   pages and HTML documentation installed on the machine (English, and the translated manual
   pages), and, when ``../shared/data/`` is there, SciFact and HotpotQA passages. The collect
   step reads them where they are installed and copies nothing into the project; it says
   which are absent and how to install them. Each source is split by a hash of the file's
   name into a development half (the one looked at while tuning) and a held-out half; every
   flag is a false one;
3. the cost, CPU nanoseconds per character over the units;
4. the heading paths of the docs-QA sets (``bench/docs_qa_sets.py``, bundled and fetched), as
   the loaders give them to search output: how many are withheld as addressed to a model
   (every one is a false flag: a heading is a title), by set and by half of the files, the
   dev half's listed, the held-out half counted.

Usage::

    python bench/ingestion/bench_instructions.py [--no-write] [--man-pages N] [--html-stride N] [--show N] [--no-headings]
"""

from __future__ import annotations

import argparse
import datetime
import functools
import gzip
import json
import platform
import re
import sys
import time
import zlib
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.benchmark_doc import replace_section  # noqa: E402
from bench.corpora.docs_qa_sets import SETS  # noqa: E402
from bench.ingestion.instruction_variants import DISGUISES, variants  # noqa: E402

from agentic_rag._ingest.blocks import TextSection  # noqa: E402
from agentic_rag._ingest.html_loader import parse_html  # noqa: E402
from agentic_rag._ingest.loaders import load_path  # noqa: E402
from agentic_rag._ingest.walker import walk_tree  # noqa: E402
from agentic_rag._text.instructions import _family_uncached, instruction_family, screened_heading  # noqa: E402
from agentic_rag._text.segments import split_units  # noqa: E402
from agentic_rag._text.sentences import split_sentences  # noqa: E402

DATA = ROOT / "tests" / "data"
SHARED = ROOT.parent / "shared" / "data"
DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- bench:instructions -->", "<!-- /bench:instructions -->"
MAN = Path("/usr/share/man")
DEBIAN_DOC = Path("/usr/share/doc")
MAN_LANGUAGES = ("fr", "de", "es", "it", "pt", "nl", "pl", "ru", "zh_CN", "ja", "ko", "sv", "tr")
INSTALL_HINT = "apt-get install man-db manpages manpages-fr manpages-de postgresql-doc python3-doc"


# -- phrasings -----------------------------------------------------------------------------------

def phrasing_rows(name: str, with_variants: bool) -> tuple[list[str], list[str], dict[str, list[int]]]:
    """Table rows for one phrasing set, notes (misses and false flags) and per-disguise counts."""
    data = json.loads((DATA / name).read_text(encoding="utf-8"))
    injections, benign = data["injections"], data["benign"]
    found = [bool(instruction_family(t)) for _, t in injections]
    false = [t for _, t in benign if instruction_family(t)]
    languages = len({lang for lang, _ in injections})
    rows = [f"| {name} | base phrasings | {len(injections)} in {languages} languages | {sum(found)} ({sum(found) / len(injections):.1%}) | "
            f"{len(benign)} | {len(false)} |"]
    notes = [f"{name}: missed: {t!r}" for (_, t), hit in zip(injections, found) if not hit]
    notes += [f"{name}: false flag: {t!r}" for t in false]
    by_disguise: dict[str, list[int]] = {d: [0, 0] for d in DISGUISES}
    if with_variants:
        made = [(d, t) for lang, base in injections for d, t in variants(lang, base)]
        for disguise, text in made:
            by_disguise[disguise][1] += 1
            if instruction_family(text):
                by_disguise[disguise][0] += 1
            else:
                notes.append(f"{name}: missed ({disguise}): {text!r}")
        look_alikes = [t for lang, base in benign for d, t in variants(lang, base) if d != "backticks"]
        false_variants = [t for t in look_alikes if instruction_family(t)]
        hits = sum(v[0] for v in by_disguise.values())
        rows.append(f"| {name} | obfuscated by program | {len(made)} | {hits} ({hits / max(len(made), 1):.1%}) | {len(look_alikes)} | "
                    f"{len(false_variants)} |")
        notes += [f"{name}: false flag (variant): {t!r}" for t in false_variants]
    return rows, notes, by_disguise


# -- real text -----------------------------------------------------------------------------------

_ROFF_TEXT_MACROS = re.compile(r"^[.'](?:B|I|BR|BI|IR|IB|RB|RI|SH|SS|SM|SB)\s+(.*)$")
_ROFF_ESCAPE = re.compile(r"\\(?:f(?:\[[^\]]*\]|\(..|.)|\*(?:\[[^\]]*\]|\(..|.)|s[+-]?\d+|\(..|\[[^\]]*\]|[&%c:|^/,])")


def roff_paragraphs(source: str) -> Iterator[str]:
    """The prose of a manual page's roff source, one paragraph at a time (macros dropped, the
    text-bearing ones kept, escapes removed): enough for sentences, not a renderer."""
    lines: list[str] = []
    for raw in source.splitlines():
        if raw.startswith((".\\\"", "'\\\"", '.\\"')):
            continue
        macro = _ROFF_TEXT_MACROS.match(raw)
        if macro:
            raw = macro.group(1).replace('"', "")
        elif raw.startswith((".", "'")):
            if lines and raw[1:3] in ("PP", "LP", "P", "IP", "TP", "SH", "SS", "sp", "br", "nf", "fi"):
                yield " ".join(lines)
                lines = []
            continue
        text = _ROFF_ESCAPE.sub("", raw).replace("\\-", "-").replace("\\e", "\\").replace("\\ ", " ").strip()
        if not text:
            if lines:
                yield " ".join(lines)
                lines = []
            continue
        lines.append(text)
    if lines:
        yield " ".join(lines)


def _half(name: str) -> str:
    return "dev" if zlib.crc32(name.encode("utf-8")) % 2 == 0 else "held-out"


def _add(sets: dict[tuple[str, str], list[str]], source: str, name: str, text: str) -> None:
    units = sets.setdefault((source, _half(name)), [])
    units.extend(u.text for u in split_units(text))


_BUNDLED = ("attrs", "flask", "structlog", "jinja2", "markdown")


def _docs_qa_key(set_name: str, relative: str) -> str:
    """What a docs-QA file is halved by: its name in a bundled folder (as the real-text step
    has always read them), its path in a fetched one (many pages share a name)."""
    return PurePosixPath(relative).name if set_name in _BUNDLED else f"{set_name}/{relative}"


@functools.lru_cache(maxsize=1)
def docs_qa_files() -> tuple[tuple[str, str, tuple[TextSection, ...]], ...]:
    """Every file of the docs-QA sets (``bench/docs_qa_sets.py``) as the loaders parse it:
    ``(set, path in the set, sections)``, read once for the real text and the headings."""
    files = []
    for spec in SETS:
        try:
            folder = spec.folder()
        except (OSError, RuntimeError, ValueError) as exc:
            print(f"skipping docs-QA set {spec.name}: its folder is not available ({exc})", file=sys.stderr)
            continue
        files += [(spec.name, source.relative, load_path(source.path).sections) for source in walk_tree(folder).files]
    return tuple(files)


def collect(man_pages: int, html_stride: int = 4) -> dict[tuple[str, str], list[str]]:
    """Units of real documentation by (source, half); what is absent is said on stderr."""
    sets: dict[tuple[str, str], list[str]] = {}
    for path in sorted((ROOT / "bench" / "data" / "docs_qa").rglob("*")):
        if path.is_file() and path.suffix in (".md", ".rst", ".txt"):
            _add(sets, "docs-QA folders (attrs, flask, jinja2, markdown, structlog)", path.name, path.read_text(encoding="utf-8", errors="replace"))
    pages = sorted(p for section in ("man1", "man5", "man8") for p in (MAN / section).glob("*.gz"))
    if not pages:
        print(f"skipping Debian manual pages: none under {MAN} (install them: {INSTALL_HINT})", file=sys.stderr)
    for path in pages[:man_pages]:
        source = gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
        _add(sets, "Debian manual pages, English (man1, man5, man8)", path.name, "\n\n".join(roff_paragraphs(source)))
    translated = sorted(p for lang in MAN_LANGUAGES for p in (MAN / lang).glob("man*/*.gz"))
    for path in translated[:man_pages]:
        source = gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
        _add(sets, "Debian manual pages, translated (13 languages)", f"{path.parent.parent.name}/{path.name}", "\n\n".join(roff_paragraphs(source)))
    html = sorted(p for p in DEBIAN_DOC.glob("*/**/*.html") if p.is_file())
    if not html:
        print(f"skipping Debian HTML documentation: none under {DEBIAN_DOC} (install it: {INSTALL_HINT})", file=sys.stderr)
    for path in html[::html_stride]:
        text = path.read_text(encoding="utf-8", errors="replace")
        body = "\n\n".join(block.text for section in parse_html(text) for block in section.blocks)
        _add(sets, "Debian HTML documentation (PostgreSQL, Python, ...)", str(path.relative_to(DEBIAN_DOC)), body)
    for set_name, relative, sections in docs_qa_files():
        # The bundled folders are read above, markup and all; the PDFs are manuals of Debian
        # packages whose HTML the step below reads too (a page in both halves would leak).
        if set_name in ("django", "pyhtml", "sqlite"):
            body = "\n\n".join(block.text for section in sections for block in section.blocks)
            _add(sets, "docs-QA fetched sets (django, pyhtml, sqlite)", _docs_qa_key(set_name, relative), body)
    for name, limit in (("scifact", 5183), ("hotpotqa", 2000)):
        path = SHARED / name / "corpus.jsonl.gz"
        if not path.exists():
            print(f"skipping {name}: {path} is absent", file=sys.stderr)
            continue
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for n, line in enumerate(handle):
                if n == limit:
                    break
                record = json.loads(line)
                _add(sets, f"{name} passages (first {limit})", str(record.get("_id", n)), f"{record.get('title', '')}\n{record.get('text', '')}")
    return sets


def real_rows(sets: dict[tuple[str, str], list[str]], show: int) -> tuple[list[str], list[str], tuple[int, int, int, int]]:
    rows, notes = [], []
    total_sentences = total_flagged = total_units = total_units_flagged = 0
    for (source, half), units in sorted(sets.items()):
        sentences = [s.text for u in units for s in split_sentences(u) if s.text.strip()]
        chars = sum(map(len, units))
        started = time.process_time()
        flagged_units = [u for u in units if _family_uncached(u)]
        elapsed = time.process_time() - started
        flagged = [s for s in sentences if instruction_family(s)]
        rows.append(f"| {source} | {half} | {len(sentences):,} | {len(flagged)} ({len(flagged) / max(len(sentences), 1):.3%}) | "
                    f"{len(units):,} | {len(flagged_units)} | {elapsed / max(chars, 1) * 1e9:.0f} |")
        notes += [f"{source} ({half}): false flag: {s[:140]!r}" for s in (flagged or flagged_units)[:show]]
        total_sentences += len(sentences)
        total_flagged += len(flagged)
        total_units += len(units)
        total_units_flagged += len(flagged_units)
    return rows, notes, (total_sentences, total_flagged, total_units, total_units_flagged)


def heading_rows(show: int) -> tuple[list[str], list[str], tuple[int, int]]:
    """Heading paths of the docs-QA sets (bundled and fetched) as the loaders give them to
    search output: how many :func:`screened_heading` withholds, by set and by half of the files
    (halved as the real text is). A heading is a title, so every withheld one is a false flag;
    the dev half's are listed, the held-out half is counted."""
    paths: dict[tuple[str, str], set[str]] = {}
    for set_name, relative, sections in docs_qa_files():
        found = paths.setdefault((set_name, _half(_docs_qa_key(set_name, relative))), set())
        found.update(section.heading_path for section in sections if section.heading_path)
    rows, notes = [], []
    held = held_flagged = 0
    for set_name in dict.fromkeys(name for name, _ in paths):
        for half in ("dev", "held-out"):
            headings = paths.get((set_name, half), set())
            flagged = sorted(p for p in headings if screened_heading(p)[1])
            rows.append(f"| {set_name} | {half} | {len(headings):,} | {len(flagged)} |")
            if half == "dev":
                notes += [f"docs-QA {set_name} (dev): heading withheld: {p[:140]!r}" for p in flagged[:show]]
            else:
                held += len(headings)
                held_flagged += len(flagged)
    return rows, notes, (held, held_flagged)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-write", action="store_true", help="do not update docs/benchmarks.md")
    parser.add_argument("--man-pages", type=int, default=2500, help="most manual pages read per language group (default 2500)")
    parser.add_argument("--html-stride", type=int, default=4, help="read every Nth installed HTML page (default 4: about 450 of 1,900)")
    parser.add_argument("--show", type=int, default=3, help="false flags listed per source and half (default 3)")
    parser.add_argument("--no-headings", action="store_true", help="skip the heading count of the docs-QA sets (it loads every set's files)")
    args = parser.parse_args()
    lines = ["| set | phrasings | injections | found (recall) | look-alikes | flagged |", "|---|---|---|---|---|---|"]
    notes: list[str] = []
    disguise_lines = ["| held-out variants | " + " | ".join(DISGUISES) + " |", "|---|" + "---|" * len(DISGUISES)]
    for name, with_variants in (("instructions_dev.json", True), ("instructions_held_out.json", False), ("instructions_held_out_2.json", True),
                                ("instructions_held_out_3.json", True), ("instructions_held_out_4.json", True),
                                ("instructions_held_out_5.json", True), ("instructions_dev_2.json", True),
                                ("instructions_held_out_6.json", True), ("instructions_dev_3.json", True),
                                ("instructions_held_out_7.json", True), ("instructions_dev_4.json", True),
                                ("instructions_held_out_8.json", True), ("instructions_dev_5.json", True),
                                ("instructions_held_out_9.json", True), ("instructions_dev_6.json", True),
                                ("instructions_held_out_10.json", True)):
        if not (DATA / name).exists():
            print(f"skipping {name}: absent", file=sys.stderr)
            continue
        rows, detail, by_disguise = phrasing_rows(name, with_variants)
        lines += rows
        notes += detail
        if name.startswith("instructions_held_out_"):
            disguise_lines.append(f"| {name} | " + " | ".join(f"{hit}/{n}" for hit, n in by_disguise.values()) + " |")
    real, real_notes, (sentences, flagged, units, units_flagged) = real_rows(collect(args.man_pages, args.html_stride), args.show)
    lines += ["", *disguise_lines, "",
              "| real text (no injection) | half | sentences | flagged (false) | units | units flagged | CPU ns / character |",
              "|---|---|---|---|---|---|---|", *real,
              f"| all | both | {sentences:,} | {flagged} ({flagged / max(sentences, 1):.3%}) | {units:,} | {units_flagged} | |"]
    notes += real_notes
    if not args.no_headings:
        headings, heading_notes, (held, held_flagged) = heading_rows(args.show)
        lines += ["", "| docs-QA set (headings) | half | heading paths | withheld (false) |", "|---|---|---|---|", *headings,
                  f"| all | held-out | {held:,} | {held_flagged} |"]
        notes += heading_notes
    table = "\n".join(lines)
    print(table)
    for note in notes:
        print(note)
    if args.no_write:
        return 0
    date = datetime.date.today().isoformat()
    text = "\n".join([
        "## Instructions addressed to a model (prompt injection in documents)",
        "",
        f"Command: `python bench/ingestion/bench_instructions.py` ({date}, Python {platform.python_version()}; the CPU column was taken on a "
        "shared two-core machine and is noisy). "
        "What this run measured (issue 37, item 2: the detector with main merged in, so every pass is linear; role lines, withdrawals in other words, descriptions, and reports of what others claim or believe read as descriptions). Held out: `instructions_held_out_10.json` (208 phrasings in 16 languages, 228 look-alikes) was written apart by an author who never saw the detector, committed before any detector ran on it, sealed from the scorer's fit and measured once, in this run: 195 of 208 base phrasings found (93.8%) and 1077 of 1154 variants (93.3%); 16 of its 228 look-alikes flagged (7.0%; 71 of 1091 variants). The recall goal of 95% is missed: of the 13 base phrasings missed, 9 withdraw the earlier guidance in words no rule knows (4 in English, 5 in German, French, Polish, Chinese and Swedish), 3 are orders to an agent named in Italian, Dutch and Turkish, 1 is a bracketed Swedish note to the model. The look-alikes flagged are text about system prompts and prompt injection (7), rules that supersede or override others (4), how-to steps (3) and two headings naming system prompt templates (flagged as text; `screened_heading` keeps both as titles). Real text (no injection, so every flag is false; goal at most 0.1% of sentences): the held-out half 271 of 343,301 sentences (0.079%), the dev half 66 of 289,893 (0.023%), all 337 of 633,194 (0.053%): met, though the held-out halves of the translated manual pages (0.350%) and of the HotpotQA sample (0.148%) are above it. Docs-QA heading paths withheld (goal 0): 0 of 7,663 in the dev half and 0 of 7,721 in the held-out half. History: The detector (`_text/instructions.py`, `_text/instruction_patterns.py`, "
        "`_text/skeleton.py`, and the fitted scorer) is tuned on the dev phrasings. `instructions_held_out.json` was written before the first detector; "
        "the later sets were each written in one sitting and committed before a round of changes, by the engineer who then "
        "wrote the rules (so they measure phrasings nobody tuned for, not an outside attacker's), and measured once: "
        "`instructions_held_out_2.json` found 105/117 base phrasings (89.7%) and 566/630 variants (89.8%) on its first run, "
        "`instructions_held_out_3.json` 79/103 (76.7%) and 426/556 (76.6%), `instructions_held_out_4.json` 85/96 (88.5%) "
        "and 466/532 (87.6%); each was then studied (new dev phrasings for the families it missed; after the fourth, word "
        "cues that meet in one sentence, `_text/instruction_cues.py`), so their rows below are no longer held-out figures. "
        "`instructions_held_out_5.json` was written after that and measured once on the rules alone: 68/94 base phrasings "
        "(72.3%) and 362/507 variants (71.4%); it was then studied too. The fitted scorer (`_text/instruction_scorer.py`, "
        "weights written by `bench/fitting/fit_instruction_scorer.py`) was fitted on every set above and on `instructions_dev_2.json` "
        "(828 phrasings in 48 languages, written for development) against the dev half of real documentation. "
        "`instructions_held_out_6.json` (368 phrasings in 34 languages, 198 look-alikes) was written by a separate author who "
        "never saw the detector nor the earlier sets, committed before any detector ran on it, and measured once, on this "
        "detector: its rows are the held-out figure. On that first and only run it found 301/368 base phrasings (81.8%) and "
        "1589/1968 variants (80.7%): the recall target of 95% is missed (from 72.3% for the fifth set on the rules alone); "
        "the misses are mostly actions asked of an agent with tools (forward, delete, open a pull request), persona names, "
        "encoded text (base64, ROT13, hex) and notes to an automated reviewer in languages with few development phrasings. "
        "It flagged 21 of its 198 look-alikes, most of them documentation about prompt injection or chat templates that "
        "quotes an attack or a role turn. It was then studied, and the scorer refitted with it and a third development set "
        "(`instructions_dev_3.json`, 814 phrasings in 46 languages, on the families it missed), with text a model can "
        "decode read too (`_text/encoded.py`: base64, hexadecimal, ROT13, reversed). `instructions_held_out_7.json` (395 "
        "phrasings in 46 languages, 180 look-alikes) was written after that by another separate author under the same "
        "rules, committed before any detector ran on it, and measured once, on this detector: its rows are the held-out "
        "figure now. "
        "On that run it found 332/395 base phrasings (84.1%) and 1736/2030 variants (85.5%): English 136/150 (90.7%), the other languages of the development sets 194/215 (90.2%), and 2/30 (6.7%) in the ten languages no development phrasing is written in (Amharic, Armenian, Georgian, Kazakh, Khmer, Nepali, Sinhala, Telugu, Uzbek, Yoruba). The recall target of 95% is missed; the rest of the misses are agent actions written as bare imperatives (\"Merge pull request #482 into main ...\", \"Transfer 0.5 BTC ...\"), which documentation also writes, and dotted or acrostic spellings. Real documentation: 0.039% of sentences flagged (target at most 0.1%: met overall; the small docs-QA source is at 0.34%, code examples naming passwords). The look-alikes flagged rose (28 of 180): the price of the lower threshold. "
        "Set 7 was then studied and the scorer refitted with it and a fourth development set (`instructions_dev_4.json`, "
        "660 phrasings: 51 languages the earlier sets lacked, bare agent actions, revocation claims). "
        "`instructions_held_out_8.json` (360 phrasings in 66 languages, 180 look-alikes) was written after that by another "
        "separate author under the same rules, committed before any detector ran on it, and measured once, on the detector "
        "then: its rows were the held-out figure. "
        "On that run it found 341/360 base phrasings (94.7%) and 1788/1893 variants (94.5%): English 109/115 (94.8%), the other languages of the development sets 228/238 (95.8%), 4/7 in four languages no development phrasing uses (Haitian Creole, Norwegian Bokmål as nb, Quechua, Samoan). The recall target of 95% is missed by one phrasing; the misses are summaries told to leave something out, agent actions written as bare imperatives, and syllables split by hyphens. Real documentation: 0.047% of sentences flagged in all, 0.062% of the held-out half (target at most 0.1%: met; the small docs-QA source is at 0.39%, code examples and test fixtures naming passwords and users). 31 of the 180 look-alikes are flagged, most of them documentation about prompt injection or chat roles. "
        "Set 8 was then studied and the scorer refitted with it and a fifth development set (`instructions_dev_5.json`, 628 "
        "phrasings in 63 languages: summaries told to leave something out, bare agent actions, screening notes, syllables "
        "split by hyphens, 40 thinly covered languages), with hyphen-split syllables joined. "
        "`instructions_held_out_9.json` (452 phrasings in 35 languages, 205 look-alikes) was written after that by another "
        "separate author under the same rules, committed before any detector ran on it, and measured once, on the detector "
        "then: its rows were the held-out figure. "
        "On that run it found 437/452 base phrasings (96.7%) and 2274/2366 variants (96.1%): English 172/180 (95.6%), the other languages 265/272 (97.4%; all of them have development phrasings). The recall target of 95% is met on this set. Real documentation: 0.058% of sentences flagged in all and 0.074% of the held-out half (235 of 316,743; target at most 0.1%: met overall; by source the small docs-QA folders are at 0.40% and the HotpotQA sample at 0.15%). The price is in the look-alikes: 38 of its 205 are flagged (UI strings and how-to prose that tell the reader to open, rate, reveal or pretend, and documentation quoting attacks); a flagged passage stays visible as evidence, flagged, and is never an answer's claim. The misses are dotted or underscored letters, a base64 payload of an ordinary command, notes to a \"screening AI\" or \"grader\" with no other cue, and agent actions in Swahili, Amharic and Portuguese. "
        "After that run the fit was made to read real text's sentence pairs as the detector reads them (their two sentences' features together; it had read a pair as one sentence) and refitted with the same data and settings; the detector as shipped, measured again on set 9 with nothing tuned on it: 436/452 (96.5%) base phrasings, 2264/2366 (95.7%) variants, 35 look-alikes flagged; real documentation 0.052% of sentences, 0.072% of the held-out half (227 of 316,656). "
        "Issue 37 (round 3 of hardening, measured on a reproduction written apart) found plain documentation flagged (a firewall "
        "that ignores prior rules, a data model that must state its units, a release bot that always replies, a tutorial asking the "
        "reader to pretend to be a new user, a feature that reveals a bot's system prompt), a governance document's \"History\" "
        "heading withheld, and a bracketed `[SYSTEM]` line followed by an assertion neither flagged nor kept from `answered`. A sixth "
        "development set (`instructions_dev_6.json`, 281 phrasings and 288 look-alikes in 26 languages: role lines in many bracket "
        "and label styles and languages, paraphrases of \"ignore the earlier guidance\" without its usual words, descriptive "
        "look-alikes in varied domains, headings and role labels holding values) was written for the changes that followed: role "
        "lines (`_text/instruction_roles.py`, rules, so a claim quoting one is refused, not doubted, and the guard refuses a quote "
        "inside a scripted turn), withdrawals in other words (`_text/instruction_revocations.py`), orders whose verb has a subject "
        "of its own read as descriptions (`_text/instruction_subjects.py`), and headings withheld only for an order a rule names "
        "or a sentence the scorer flags. The scorer was refitted (L2 penalty 0.01, look-alikes weighed 3 times, real windows "
        "weighed as they occur, threshold 0.15; chosen with `bench/fitting/fit_instruction_scorer.py --check-split`, which fits on half "
        "of the dev real text and counts false flags on the other: 0.070% of its windows, where the earlier settings, L2 1e-4 and "
        "look-alikes weighed 10 times, flag 0.087% at threshold 0.2 and find fewer phrasings of two sets left out of that fit, "
        "698 against 706 of 1,023) "
        "with the dev halves of the fetched docs-QA sets (Django, the Python and SQLite HTML manuals) among its negatives. Those "
        "sets are rows of this table now, and the docs-QA heading paths are counted (last table). The translated manual pages "
        "installed on this machine now span all 13 languages (the earlier rows read fewer of them): the scorer as it was flagged "
        "6.4% of their dev sentences and 6.8% of their held-out ones. Before and after, this bench on this machine (the code "
        "before the change, then as shipped): real text, held-out half 3,366 of 343,431 sentences flagged (0.98%; 487 of "
        "301,079, 0.16%, without the translated pages) to 271 (0.079%), dev half 2,648 of 290,009 to 66; docs-QA heading paths "
        "withheld 9 of 7,663 in the dev half and 5 of 7,721 in the held-out half to 0 and 0; `instructions_held_out_9.json` "
        "436 to 430 base phrasings (96.5% to 95.1%), 2264 to 2254 variants, look-alikes flagged 35 to 31; sets 2 to 8 found "
        "every base phrasing before and after; `instructions_dev_6.json` 174 (61.9%) to 281, its look-alikes 82 to 7. The "
        "translated pages' held-out half stays the worst source (0.35%), then the HotpotQA sample's (0.15%), the only two above 0.1%. The detector reads more of "
        "each text now (role lines, subjects); its CPU column, taken on a busy shared machine, is noisy. "
        "The obfuscated variants are made by program from each set's base phrasings "
        "(`bench/ingestion/instruction_variants.py`). Real documentation is read where it is installed (nothing copied into the "
        "project), split into sentences and into the units the answer path ranks, and halved by a hash of the file name: "
        "only the dev half was looked at while tuning. No real text holds an injection, so every flag there is a false one.",
        "",
        table,
        "",
        "Misses and false flags of the base phrasings and real text (a variant's are printed, not listed here):",
        "",
        *(f"- {note}" for note in notes if "missed (" not in note and "(variant)" not in note),
    ])
    replace_section(DOC, START, END, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
