"""Fit the second stage's weights on the development halves of the docs-QA sets.

For every answerable dev question the first stage's candidates are read once: the cheap
features (BM25 share of the best candidate's, the passage's coverage of the question with its
heading path, the heading path's own coverage, the share of the question's word pairs the
passage with its heading path holds together), the focus's score of the view the store ranks
by, the share of the question that a name stated in those focus lines is made of, and a
label: 1 when the view the store prints of a first hit (the focus with its fill) holds every
part's key. Among the :func:`viewed_size` candidates the store would view, a
conditional logit (one softmax per question: the chance that each candidate is the one whose
printed lines answer) is fitted by Newton's method with a small L2 penalty; its weights,
scaled so that the BM25 share's is 1, are :class:`SecondStageWeights`. Leave-one-set-out
cross-validation (fitted on the other sets, ranked on the left-out one) says how much of the
gain holds on a set the weights did not see.

``--cut`` then runs ``bench/agents/focus_diagnosis.py``'s count on the dev halves for each
given ``keep_ratio`` (the cut of :func:`worth_reading`), with the fitted weights swapped in for
the store's default in this process, so the ratio is chosen for the printed lines and the
median bytes. Only the dev split is read: the report split is what the weights are reported on.

    python bench/fitting/tune_second_stage.py [--keep DIR] [--cut 0.7,0.8,0.9]
    (DIR as for bench/agents/focus_diagnosis.py)
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.agents import agent_cost_measures as m  # noqa: E402
from bench.agents import focus_diagnosis as fd  # noqa: E402
from bench.corpora.docs_qa_sets import load_sets  # noqa: E402
from bench.fitting.fit_relevance import _solve  # noqa: E402

from agentic_rag._store import second_stage as ss  # noqa: E402
from agentic_rag._store.knowledge_store import KnowledgeStore  # noqa: E402
from agentic_rag._text.composed_names import composed_name_share  # noqa: E402
from agentic_rag._text.focus import view_passage  # noqa: E402
from agentic_rag._text.word_pairs import pair_share  # noqa: E402

CHEAP = ("bm25", "relevance", "heading", "pairs")  # read without a focus, for every candidate
FEATURES = (*CHEAP, "focus", "names")  # the SecondStageWeights fields, in the rows' order
L2 = 1e-2
Row = tuple[tuple[float, ...], int]


def prepared(work: Path, names: list[str] | None) -> list[tuple[str, list[tuple[float, Row]]]]:
    """(set name, [(cheap score key, (features, label)), ...]) per answerable dev question, the
    candidates in the first stage's order."""
    out = []
    for loaded in load_sets("dev", names, say=lambda line: print(line, file=sys.stderr)):
        copy = fd.indexed_copy(loaded.folder, loaded.spec.name, work)
        store = KnowledgeStore(copy / ".agentic-rag", base=copy)
        model = store.relevance_model()
        for q in loaded.questions:
            if q["kind"] == "unanswerable":
                continue
            question = q["question"]
            hits = store._first_stage(question, ss.first_stage_size(5), None)
            best = max((h.score for h in hits), default=0.0)
            rows = []
            for h in hits:
                ranked = view_passage(question, h.text, model, title=h.section, marks=h.line_marks, max_lines=ss.SEARCH_FOCUS_LINES,
                                      budget=ss.SEARCH_FOCUS_BUDGET)
                printed = view_passage(question, h.text, model, title=h.section, marks=h.line_marks, max_lines=ss.SEARCH_FOCUS_LINES,
                                       budget=ss.SEARCH_FOCUS_BUDGET, fill=ss.SEARCH_FOCUS_FILL[0])
                x = (h.score / best if best > 0 else 0.0, ranked.coverage, model.coverage(question, h.section) if h.section else 0.0,
                     pair_share(question, f"{h.section}\n{h.text}", model), ranked.focus.score if ranked.focus is not None else 0.0,
                     composed_name_share(question, ranked.focus.text, model) if ranked.focus is not None else 0.0)
                label = int(m.holds_key(f"{h.path} {h.section}\n{printed.numbered_text}", q["answers"], every=True))
                rows.append((h.chunk_id, (x, label)))
            out.append((loaded.spec.name, rows))
    return out


def _viewed(rows: list, cheap: tuple[float, ...]) -> list[Row]:
    """The candidates the store views: the best :func:`viewed_size` by the cheap half of the
    score (``cheap``: the weights of the :data:`CHEAP` features)."""
    key = sorted(rows, key=lambda r: (-sum(w * x for w, x in zip(cheap, r[1][0][:len(CHEAP)])), r[0]))
    return [row for _, row in key[:ss.viewed_size(5)]]


def fit(questions: list[list[Row]], *, steps: int = 25) -> list[float]:
    """Conditional logit weights: per question, softmax over its candidates; a question with
    no answering candidate, or only answering ones, says nothing of their order."""
    d = len(FEATURES)
    w = [0.0] * d
    data = [(xs, [y / sum(ys) for y in ys]) for xs, ys in (([x for x, _ in q], [float(y) for _, y in q]) for q in questions)
            if 0 < sum(ys) < len(ys)]
    for _ in range(steps):
        grad, hess = [0.0] * d, [[0.0] * d for _ in range(d)]
        for xs, ys in data:
            zs = [sum(a * b for a, b in zip(w, x)) for x in xs]
            top = max(zs)
            es = [math.exp(z - top) for z in zs]
            ps = [e / sum(es) for e in es]
            mean = [sum(p * x[i] for p, x in zip(ps, xs)) for i in range(d)]
            for x, p, y in zip(xs, ps, ys):
                for i in range(d):
                    grad[i] += (p - y) * x[i] / len(data)
                    for j in range(d):
                        hess[i][j] += p * (x[i] - mean[i]) * (x[j] - mean[j]) / len(data)
        for i in range(d):
            grad[i] += L2 * w[i]
            hess[i][i] += L2
        w = [a - b for a, b in zip(w, _solve(hess, grad))]
    return [x / w[0] for x in w]  # the BM25 share's weight is 1


def top_right(questions: list[list[Row]], w: list[float]) -> int:
    """Questions whose best candidate by ``w`` (ties by the first stage's order) answers."""
    return sum(max(q, key=lambda r: sum(a * b for a, b in zip(w, r[0])))[1] for q in questions if q)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", default="")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all present)")
    parser.add_argument("--cut", default="", help="comma-separated keep ratios to count on the dev halves with the fitted weights")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tune-second-stage-") as scratch:
        work = Path(args.keep) if args.keep else Path(scratch)
        data = prepared(work, [n for n in args.sets.split(",") if n] or None)
        shipped = ss.DEFAULT_WEIGHTS
        old = tuple(getattr(shipped, n) for n in CHEAP)
        viewed = [_viewed(rows, old) for _, rows in data]
        weights = fit(viewed)
        print(f"{len(data)} answerable dev questions; fitted:", ", ".join(f"{n} {w:.2f}" for n, w in zip(FEATURES, weights)))
        shipped_w = [getattr(shipped, n) for n in FEATURES]
        print(f"top candidate's printed lines answer: shipped {top_right(viewed, shipped_w)}, fitted {top_right(viewed, weights)}")
        held = 0
        for name in sorted({s for s, _ in data}):
            w = fit([v for (s, _), v in zip(data, viewed) if s != name])
            held += top_right([v for (s, _), v in zip(data, viewed) if s == name], w)
        print(f"leave-one-set-out: {held}")
        for ratio in (float(r) for r in args.cut.split(",") if r):
            tuned = ss.SecondStageWeights(**dict(zip(FEATURES, weights)), keep_ratio=ratio)
            ss.finish_hits.__kwdefaults__["weights"] = tuned  # the store's searches in this process
            print(f"keep_ratio {ratio}: {_diagnosis(work, args.sets)}")
            ss.finish_hits.__kwdefaults__["weights"] = dataclasses.replace(shipped)
    return 0


def _diagnosis(work: Path, sets: str) -> str:
    """focus_diagnosis's pooled row on the dev halves (the stores in ``work``)."""
    from bench.agents.in_process_cli import run_cli  # noqa: PLC0415 - the CLI in this process

    total = fd.Diagnosis()
    for loaded in load_sets("dev", [n for n in sets.split(",") if n] or None, say=lambda line: None):
        copy = fd.indexed_copy(loaded.folder, loaded.spec.name, work)
        for q in loaded.questions:
            fd.diagnose_question(lambda argv: run_cli(argv, copy), q, total)
    return total.row("all")


if __name__ == "__main__":
    raise SystemExit(main())
