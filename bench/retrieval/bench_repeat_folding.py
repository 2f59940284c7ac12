"""How often does ``search`` print a hit that only repeats an earlier hit's statements, and what
does folding it into the earlier hit save? Counted on a folder of release notes.

Release logs repeat earlier notes (a patch release's page restates its release's notes), so a
search over them can print the same statements twice. Since issue 36 a candidate whose focus
text is a better hit's is listed under it by the second stage, and a printed hit whose focus
statements all stand in an earlier hit's focus is folded into it: the earlier hit lists where
else they stand (``also:`` in the text output, ``also_at`` in JSON) and the repeat is not
printed on its own (``src/agentic_rag/_store/second_stage.py``,
``src/agentic_rag/_store/repeated_hits.py``). Before, the second stage dropped the first kind
without a trace; "off" is that.

The folder is indexed once (a copy, so the folder itself is left as it was). Queries are drawn
from the folder's own sentences, as the store reads them: ``--queries`` sentences of at least
three content words, drawn with ``--seed``, each turned into its content words (the
sentence's words less the English stop words, each once, at most eight): what an agent types,
not the sentence itself. Each query runs ``search -k K`` through the CLI in this process, in
text and in JSON, with the fold off and on; the table gives hits printed, repeats folded,
queries with a repeat folded, and the bytes of the text output. Also printed: the share of the
folder's distinct sentences that stand in more than one file.

Run from the repository root::

    python bench/agents/ab_folders.py OUT           # OUT/S1: Django's and SQLite's release notes
    python bench/retrieval/bench_repeat_folding.py --folder OUT/S1

Without ``--folder`` the release-notes folder is laid out from the fetched docs sets. The table
is printed only.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import random
import statistics
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # the bench package
sys.path.insert(0, str(ROOT / "src"))

import agentic_rag._store.knowledge_store as knowledge_store  # noqa: E402 - the fold is switched off here
from agentic_rag._regex import lazy_regex  # noqa: E402
from agentic_rag._store.knowledge_store import KnowledgeStore  # noqa: E402
from agentic_rag._text.sentences import split_sentences  # noqa: E402
from agentic_rag._text.stopwords import STOPWORD_LISTS  # noqa: E402

__all__ = ["Counts", "content_words", "draw_queries", "folder_sentences", "measure", "repeated_share"]

_WORD = lazy_regex(r"[^\W_]+(?:[_.-][^\W_]+)*")
_MOST_WORDS = 8
_LEAST_WORDS = 3


@dataclass
class Counts:
    """What ``search`` printed over the queries, with the fold on or off."""

    hits: int = 0
    folded: int = 0
    queries_folded: int = 0
    bytes: list[int] = field(default_factory=list)  # of each query's text output


def folder_sentences(store: KnowledgeStore) -> list[tuple[str, str]]:
    """``(path, sentence)`` of every sentence of the store's chunks, white space collapsed, in
    the store's order (by path, then chunk), each once per file."""
    seen: set[tuple[str, str]] = set()
    out = []
    for document in store.documents():
        path = document.metadata["path"]
        for span in split_sentences(document.text):
            sentence = " ".join(span.text.split())
            if (path, sentence) not in seen:
                seen.add((path, sentence))
                out.append((path, sentence))
    return out


def content_words(sentence: str, stop: Iterable[str] = STOPWORD_LISTS["english"]) -> list[str]:
    """The sentence's words less the stop words and single characters, each once, in order,
    at most eight."""
    stopped = set(stop)
    words = dict.fromkeys(w for w in _WORD.findall(sentence) if len(w) > 1 and w.casefold() not in stopped)
    return list(words)[:_MOST_WORDS]


def draw_queries(sentences: Sequence[tuple[str, str]], count: int, seed: int) -> list[str]:
    """``count`` queries: the content words of sentences drawn with ``seed`` from those with
    at least three."""
    pool = [words for words in (content_words(s) for _, s in sentences) if len(words) >= _LEAST_WORDS]
    return [" ".join(words) for words in random.Random(seed).sample(pool, min(count, len(pool)))]


def repeated_share(sentences: Sequence[tuple[str, str]]) -> tuple[int, int]:
    """How many distinct sentences (compared as case-folded words) stand in more than one
    file, and how many there are."""
    files: dict[str, set[str]] = {}
    for path, sentence in sentences:
        key = " ".join(w.casefold() for w in _WORD.findall(sentence))
        if key:
            files.setdefault(key, set()).add(path)
    return sum(1 for paths in files.values() if len(paths) > 1), len(files)


def _unlisted(hits: Sequence[Any]) -> list[Any]:
    return [dataclasses.replace(hit, also_at=()) for hit in hits]


def measure(folder: Path, queries: Sequence[str], k: int, *, fold: bool) -> Counts:
    """Run ``search -k K`` for each query in the indexed ``folder``, text and JSON."""
    from bench.agents.in_process_cli import run_cli  # noqa: PLC0415 - the CLI in this process

    counts = Counts()
    # Off: what a search printed before: the second stage's hits, a repeat of a better hit's
    # focus text dropped without a trace (no ``also_at``) and no fold after it.
    switch = mock.patch.object(knowledge_store, "fold_repeats", _unlisted) if not fold else contextlib.nullcontext()
    with switch:
        for query in queries:
            printed = run_cli(["search", query, "-k", str(k)], folder)
            hits = json.loads(run_cli(["search", query, "-k", str(k), "--json"], folder))
            counts.bytes.append(len(printed.encode("utf-8")))
            counts.hits += len(hits)
            folded = sum(len(hit.get("also_at", ())) for hit in hits)
            counts.folded += folded
            counts.queries_folded += folded > 0
    return counts


def table(off: Counts, on: Counts, queries: int) -> str:
    """The Markdown table: each measure with the fold off and on."""
    def row(name: str, a: object, b: object) -> str:
        return f"| {name} | {a} | {b} |"
    rows = ["| over " + f"{queries} queries | fold off | fold on |", "|---|---|---|",
            row("hits printed", off.hits, on.hits),
            row("repeats folded (places under `also:`)", off.folded, on.folded),
            row("queries with a repeat folded", off.queries_folded, on.queries_folded),
            row("bytes printed, total", sum(off.bytes), sum(on.bytes)),
            row("bytes printed, median per query", f"{statistics.median(off.bytes):.0f}", f"{statistics.median(on.bytes):.0f}"),
            row("bytes printed, mean per query", f"{statistics.mean(off.bytes):.0f}", f"{statistics.mean(on.bytes):.0f}")]
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    from bench.agents.focus_diagnosis import indexed_copy  # noqa: PLC0415 - copies and indexes once

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", default="", help="a folder of release notes (default: S1 laid out from the fetched docs sets)")
    parser.add_argument("--queries", type=int, default=100, help="queries to draw (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the draw (default 1)")
    parser.add_argument("-k", type=int, default=5, help="hits asked for per search (default 5)")
    parser.add_argument("--keep", default="", help="index into this folder and reuse it on the next run (default: a temporary one)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="repeat-folding-") as scratch:
        work = Path(args.keep) if args.keep else Path(scratch)
        folder = Path(args.folder) if args.folder else None
        if folder is None:
            from bench.agents.ab_folders import lay_out_release_notes  # noqa: PLC0415

            folder = work / "laid-out"
            if not folder.is_dir():
                try:
                    lay_out_release_notes(folder)
                except FileNotFoundError as exc:
                    print(f"skipped: {exc}", file=sys.stderr)
                    return 0
        copy = indexed_copy(folder, "releases", work)
        sentences = folder_sentences(KnowledgeStore(copy / ".agentic-rag", base=copy))
        repeated, distinct = repeated_share(sentences)
        queries = draw_queries(sentences, args.queries, args.seed)
        off = measure(copy, queries, args.k, fold=False)
        on = measure(copy, queries, args.k, fold=True)
    print(f"{distinct} distinct sentences, {repeated} ({100 * repeated / max(distinct, 1):.0f} %) in more than one file; "
          f"{len(queries)} queries drawn with seed {args.seed}, search -k {args.k}")
    print(table(off, on, len(queries)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
