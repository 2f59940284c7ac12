"""Fit what ``relevance`` means on the development halves: the chance that a hit's printed lines
hold the answer.

For every dev question of the docs sets (answerable or not), ``search -k 5`` runs through the
store's search; each hit gives the features of
:func:`agentic_rag._text.answer_likelihood.hit_features` and a label: 1 when its focus lines
(with its heading path) hold the key of any part of an answerable question, else 0 (every hit of a
question the documents do not answer is a 0). A logistic model is fitted by Newton's method
with a small L2 penalty, then its bias is moved so that 0.5 (the "weak" line) best balances the
two top-hit shares below; those coefficients go into ``src/agentic_rag/_text/answer_likelihood.py``
by hand. The script prints dev ROC AUC, and at the 0.5 "weak" line: the share of unanswerable
questions whose top hit is weak, and of answerable ones whose top hit holds the answer and is
not weak. Only the dev split is read.

    python bench/fitting/fit_relevance.py [--keep DIR]   (DIR as for bench/agents/focus_diagnosis.py)
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.agents import agent_cost_measures as m  # noqa: E402
from bench.corpora.docs_qa_sets import load_sets  # noqa: E402
from bench.agents.focus_diagnosis import indexed_copy  # noqa: E402

from agentic_rag._store.knowledge_store import KnowledgeStore  # noqa: E402
from agentic_rag._store.second_stage import FULL_FOCUS_HITS  # noqa: E402
from agentic_rag._text.answer_likelihood import FEATURES, hit_features, likelihood  # noqa: E402


def collect(keep: str, split: str, names: list[str] | None = None) -> list[tuple[str, bool, list[tuple[list[float], int]]]]:
    """Per question: (id, answerable, [(features, label) per hit, best first])."""
    out = []
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(keep) if keep else Path(scratch)
        for loaded in load_sets(split, names, say=lambda line: print(line, file=sys.stderr)):
            copy = indexed_copy(loaded.folder, loaded.spec.name, work)
            store = KnowledgeStore(copy / ".agentic-rag", base=copy)
            model = store.relevance_model()
            for q in loaded.questions:
                answerable = q["kind"] != "unanswerable"
                rows = []
                for rank, hit in enumerate(store.search(q["question"], 5)):
                    shown = f"{hit.section}\n{hit.focus_text}"
                    label = int(answerable and m.holds_key(shown, q["answers"], every=False))
                    whole = rank < FULL_FOCUS_HITS  # later hits show their best line only
                    rows.append((hit_features(q["question"], hit.section, hit.text, hit.focus_text, model, whole=whole), label))
                out.append((q["id"], answerable, rows))
    return out


def fit(rows: list[tuple[list[float], int]], *, steps: int = 30, l2: float = 1e-3) -> list[float]:
    """Logistic regression weights (bias last) by Newton's method; the L2 penalty (on the mean
    loss) spares the bias. Any number of features (one list per row, all the same length)."""
    n = len(rows[0][0]) + 1
    w = [0.0] * n
    for _ in range(steps):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for x, y in rows:
            xs = [*x, 1.0]
            z = sum(wi * xi for wi, xi in zip(w, xs))
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
            for i in range(n):
                grad[i] += (p - y) * xs[i] / len(rows)
                for j in range(n):
                    hess[i][j] += p * (1 - p) * xs[i] * xs[j] / len(rows)
        for i in range(n - 1):
            grad[i] += l2 * w[i]
            hess[i][i] += l2
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step)]
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (a small, positive definite
    ``a``)."""
    n = len(b)
    m = [[*row, rhs] for row, rhs in zip(a, b)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            m[col][col] = 1e-12
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def report(data, weights) -> str:
    scored = [(likelihood(x, weights), y) for _, _, rows in data for x, y in rows]
    auc = m.roc_auc([s for s, y in scored if y], [s for s, y in scored if not y])
    unans = [rows for _, answerable, rows in data if not answerable]
    weak_unans = sum(1 for rows in unans if not rows or likelihood(rows[0][0], weights) < 0.5)
    right_top = [rows for _, answerable, rows in data if answerable and rows and rows[0][1]]
    strong_right = sum(1 for rows in right_top if likelihood(rows[0][0], weights) >= 0.5)
    return (f"ROC AUC {auc:.3f} over {len(scored)} hits; top hit weak for {weak_unans}/{len(unans)} unanswerable; "
            f"not weak for {strong_right}/{len(right_top)} answerable whose top hit shows the answer")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", default="")
    parser.add_argument("--split", default="dev", choices=("dev", "report"), help="report: only print the figures of the shipped weights")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all present)")
    args = parser.parse_args()
    from agentic_rag._text.answer_likelihood import WEIGHTS

    data = collect(args.keep, args.split, [n for n in args.sets.split(",") if n] or None)
    print("shipped weights:", report(data, WEIGHTS))
    if args.split == "dev":
        weights = fit([row for _, _, rows in data for row in rows])
        print("fitted:", ", ".join(f"{name} {w:.3f}" for name, w in zip([*FEATURES, "bias"], weights)))
        print("fitted weights:", report(data, weights))
        # Put the weak line at 0.5: the threshold that best balances "weak for questions the
        # documents do not answer" against "not weak for a top hit that shows the answer".
        best = None
        for step in range(5, 96):
            t = step / 100
            shifted = [*weights[:-1], weights[-1] - math.log(t / (1 - t))]
            unans = [rows for _, answerable, rows in data if not answerable]
            right = [rows for _, answerable, rows in data if answerable and rows and rows[0][1]]
            a = sum(1 for rows in unans if not rows or likelihood(rows[0][0], shifted) < 0.5) / max(1, len(unans))
            b = sum(1 for rows in right if likelihood(rows[0][0], shifted) >= 0.5) / max(1, len(right))
            if best is None or min(a, b) > best[0]:
                best = (min(a, b), t, shifted)
        print(f"weak line moved to 0.5 from {best[1]:.2f}:", ", ".join(f"{w:.3f}" for w in best[2]))
        print("shifted weights:", report(data, best[2]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
