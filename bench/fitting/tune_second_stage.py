"""Choose the second stage's weights on the development halves of the docs-QA sets.

For every answerable dev question the first stage's candidates and their views (focus lines,
relevance) are computed once; then each grid point of :class:`SecondStageWeights` reorders
them, keeps each span once and cuts the list, and is scored by how often the printed focus
lines of the top five hold every part's key, how often the top hit's chunk does, and the bytes
printed. Only the dev split is read: the report split is what the weights are reported on.

    python bench/fitting/tune_second_stage.py [--keep DIR]   (DIR as for bench/agents/focus_diagnosis.py)
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.agents import agent_cost_measures as m  # noqa: E402
from bench.corpora.docs_qa_sets import load_sets  # noqa: E402
from bench.agents.focus_diagnosis import indexed_copy  # noqa: E402

from agentic_rag._store.knowledge_store import KnowledgeStore  # noqa: E402
from agentic_rag._store.second_stage import (  # noqa: E402
    FULL_FOCUS_HITS,
    SEARCH_FOCUS_BUDGET,
    SEARCH_FOCUS_LINES,
    SecondStageWeights,
    _same_span,
    _score,
    first_stage_size,
    viewed_size,
    worth_reading,
)
from agentic_rag._text.focus import view_passage  # noqa: E402


def prepared(keep: str, names: list[str] | None = None) -> list[tuple[list[list[str]], str, object, list]]:
    """(key parts, question, relevance model, [(hit, view), ...]) per answerable dev question."""
    out = []
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(keep) if keep else Path(scratch)
        for loaded in load_sets("dev", names, say=lambda line: print(line, file=sys.stderr)):
            copy = indexed_copy(loaded.folder, loaded.spec.name, work)
            store = KnowledgeStore(copy / ".agentic-rag", base=copy)
            model = store.relevance_model()
            for q in loaded.questions:
                if q["kind"] == "unanswerable":
                    continue
                hits = store._first_stage(q["question"], first_stage_size(5), None)
                views = [view_passage(q["question"], h.text, model, title=h.section, marks=h.line_marks, max_lines=SEARCH_FOCUS_LINES,
                                      budget=SEARCH_FOCUS_BUDGET) for h in hits]
                out.append((q["answers"], q["question"], model, list(zip(hits, views))))
    return out


def evaluate(data: list, weights: SecondStageWeights, k: int = 5, full: int = FULL_FOCUS_HITS, rest: str = "atom") -> tuple[int, int, int, float]:
    printed = top = found = 0
    size = 0
    for parts, question, model, candidates in data:
        if not candidates:
            continue
        best = max(h.score for h, _ in candidates)
        # As the store does: only the best candidates by the cheap half of the score get a focus.
        pool = sorted(candidates, key=lambda hv: (-(weights.bm25 * hv[0].score / best + weights.relevance * hv[1].coverage), hv[0].chunk_id))
        ranked = sorted(((_score(h, v, best, weights), h, v) for h, v in pool[:viewed_size(k)]), key=lambda t: (-t[0], t[1].chunk_id))
        kept, scores = [], []
        for score, h, v in ranked:
            if len(kept) == k:
                break
            if _same_span(h, v, kept):
                continue
            kept.append((h, v))
            scores.append(score)
        kept = kept[:worth_reading(scores, weights.keep_ratio)]
        kept = [(h, v if rank < full else view_passage(question, h.text, model, title=h.section, marks=h.line_marks, max_lines=1))
                for rank, (h, v) in enumerate(kept)]
        shown = "\n".join(f"{h.path} {h.section}\n{v.numbered_text if rank < full or rest == 'atom' else ''}" for rank, (h, v) in enumerate(kept))
        size += len(shown.encode()) + 80 * len(kept)
        printed += m.holds_key(shown, parts, every=True)
        found += m.holds_key("\n".join(h.text for h, _ in kept), parts, every=True)
        top += m.holds_key(kept[0][0].text, parts, every=True)
    return printed, top, found, size / max(1, len(data))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", default="")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all present)")
    args = parser.parse_args()
    data = prepared(args.keep, [n for n in args.sets.split(",") if n] or None)
    print(f"{len(data)} answerable dev questions")
    print("| bm25 | focus | relevance | keep | printed | top | in chunks | bytes/question |\n|---|---|---|---|---|---|---|---|")
    # The weight grid at the shipped cut, best first by key in the printed lines plus in the top hit.
    from agentic_rag._store.second_stage import DEFAULT_WEIGHTS
    rows = []
    for b, f, r in itertools.product((0.5, 1.0, 2.0), (0.25, 0.5, 1.0), (0.0, 0.25, 0.5)):
        weights = SecondStageWeights(b, f, r, DEFAULT_WEIGHTS.keep_ratio)
        rows.append((evaluate(data, weights), weights))
    rows.sort(key=lambda row: (-(row[0][0] + row[0][1]), row[0][3], row[1].bm25, row[1].focus, row[1].relevance))
    for (printed, top, found, size), w in rows[:10]:
        print(f"| {w.bm25} | {w.focus} | {w.relevance} | {w.keep_ratio} | {printed} | {top} | {found} | {size:.0f} |")
    (printed, top, found, size), w = evaluate(data, DEFAULT_WEIGHTS), DEFAULT_WEIGHTS
    print(f"| {w.bm25} | {w.focus} | {w.relevance} | {w.keep_ratio} | {printed} | {top} | {found} | {size:.0f} |  (the defaults)")
    print("| full-focus hits | later hits show | keep | printed | top | in chunks | bytes/question |\n|---|---|---|---|---|---|---|")
    for full, rest in ((1, "atom"), (2, "atom"), (3, "atom"), (2, "header"), (1, "header")):
        for ratio in (0.5, 0.6, 0.7, 0.8):
            weights = SecondStageWeights(w.bm25, w.focus, w.relevance, ratio)
            p, t, fo, s = evaluate(data, weights, full=full, rest=rest)
            print(f"| {full} | {rest} | {ratio} | {p} | {t} | {fo} | {s:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
