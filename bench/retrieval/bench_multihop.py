"""Multi-hop retrieval on HotpotQA and MuSiQue: one-shot BM25, the iterative loop and the
parallel workflow, side by side on the same questions; plus the sufficiency judge as a
classifier. No language model anywhere.

Usage (from the repository root; the data is read from ../shared/data):

    python bench/retrieval/bench_multihop.py            # report half (odd lines), writes docs/benchmarks.md
    python bench/retrieval/bench_multihop.py --half tune --no-write

The corpus is the dataset's joined ``corpus.jsonl.gz`` as one open corpus: every question
searches every paragraph. Settings were tuned on the tuning half (even 0-based lines of
``questions.jsonl``) and are reported on the other half.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.benchmark_doc import replace_section  # noqa: E402

from agentic_rag import AutoraterStyleSufficiencyJudge, Corpus, Snippet  # noqa: E402
from agentic_rag.components import HeuristicPlanner  # noqa: E402
from agentic_rag.types import DraftAnswer  # noqa: E402
from agentic_rag.evaluation import load_multihop  # noqa: E402
from agentic_rag.evaluation.multihop import MultiHopConfiguration, compare_configurations, format_comparison, split_questions  # noqa: E402
from agentic_rag.evaluation.suites import CONFIGURATION_NAMES, MULTIHOP_FEEDBACK_PER_FACT, MULTIHOP_JUDGE_THRESHOLD, MULTIHOP_LOOP, evidence_runners  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
MARK = "multihop"

NAMES = {
    "one_shot": "one-shot BM25",
    "iterative": "iterative loop (BM25)",
    "parallel": "parallel: decomposition x (BM25, hashing vectors), RRF",
}


def configurations(corpus_docs, corpus_id: str) -> list[MultiHopConfiguration]:
    """The same three configurations ``agentic-rag eval`` compares."""
    runners = evidence_runners(corpus_docs, corpus_id)
    return [MultiHopConfiguration(NAMES[name], lambda q, fn=runners[name]: fn(q.question)) for name in CONFIGURATION_NAMES]


def judge_classifier(dataset, half: str, thresholds) -> list[tuple[float, dict[str, float]]]:
    """The judge on each question's own pool: all paragraphs (sufficient) versus the pool with
    one gold paragraph removed, once per gold paragraph (insufficient)."""
    docs = {d.id: d for d in dataset.corpus}
    corpora = (Corpus(id="pool"),)
    rows = []
    for threshold in thresholds:
        judge = AutoraterStyleSufficiencyJudge(term_threshold=threshold)
        tp = fn = fp = tn = 0
        for q in split_questions(dataset.questions, half):
            plan = HeuristicPlanner().plan(q.question, corpora)
            pool = [Snippet(id=i, corpus_id="pool", document_id=i, text=docs[i].text, metadata={"title": docs[i].title}) for i in q.pool_doc_ids]
            if judge.assess(q.question, plan, pool, DraftAnswer("")).is_sufficient:
                tp += 1
            else:
                fn += 1
            for gold in q.gold_doc_ids:
                without = [s for s in pool if s.document_id != gold]
                if judge.assess(q.question, plan, without, DraftAnswer("")).is_sufficient:
                    fp += 1
                else:
                    tn += 1
        recall = tp / max(1, tp + fn)
        specificity = tn / max(1, tn + fp)
        rows.append((threshold, {
            "balanced_accuracy": (recall + specificity) / 2,
            "accuracy": (tp + tn) / max(1, tp + tn + fp + fn),
            "precision": tp / max(1, tp + fp),
            "recall": recall,
            "contexts": tp + tn + fp + fn,
        }))
    return rows


def _classifier_table(rows) -> str:
    lines = ["| judge threshold | contexts | balanced accuracy | accuracy | precision (sufficient) | recall (sufficient) |", "|---|---|---|---|---|---|"]
    for threshold, m in rows:
        lines.append(f"| {threshold:.1f} | {m['contexts']:.0f} | {m['balanced_accuracy']:.3f} | {m['accuracy']:.3f} | {m['precision']:.3f} | {m['recall']:.3f} |")
    return "\n".join(lines)


def write_section(text: str) -> None:
    """Replace this benchmark's section of docs/benchmarks.md (between its markers)."""
    replace_section(ROOT / "docs" / "benchmarks.md", f"<!-- bench:{MARK} -->", f"<!-- /bench:{MARK} -->", text)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=("tune", "report"), default="report", help="question half (default: report)")
    parser.add_argument("--no-write", action="store_true", help="print only; do not update docs/benchmarks.md")
    args = parser.parse_args(argv)
    if not (DATA / "hotpotqa").is_dir() or not (DATA / "musique").is_dir():
        print(f"skipped: the multi-hop data is not at {DATA}/hotpotqa and {DATA}/musique", file=sys.stderr)
        return 0
    sections = []
    for name in ("hotpotqa", "musique"):
        dataset = load_multihop(DATA / name)
        questions = split_questions(dataset.questions, args.half)
        start = time.perf_counter()
        reports = compare_configurations(questions, configurations(dataset.corpus, dataset.corpus[0].corpus_id), k=10)
        table = format_comparison(reports)
        print(f"\n{name}: {len(questions)} questions ({args.half} half), {len(dataset.corpus)} paragraphs, {time.perf_counter() - start:.1f} s")
        print(table)
        sections.append(f"**{name}** ({len(questions)} questions, {args.half} half; {len(dataset.corpus):,} paragraphs as one corpus)\n\n{table}")
    hotpot = load_multihop(DATA / "hotpotqa")
    tune_rows = judge_classifier(hotpot, "tune", (0.6, 0.7, 0.8, 0.9, 1.0))
    report_rows = judge_classifier(hotpot, args.half, (MULTIHOP_JUDGE_THRESHOLD,))
    print("\njudge on the tuning half:\n" + _classifier_table(tune_rows))
    print(f"\njudge on the {args.half} half:\n" + _classifier_table(report_rows))
    if not args.no_write:
        command = "python bench/retrieval/bench_multihop.py" + ("" if args.half == "report" else f" --half {args.half}")
        write_section("\n\n".join([
            "## Multi-hop retrieval (HotpotQA, MuSiQue)",
            f"Command: `{command}` · date: {datetime.date.today().isoformat()} · no language model.",
            "Final evidence = the top 10 of each configuration's evidence list (for the iterative loop: the "
            "passages its answer cites, then those the judge found best for each fact, then the rest by best "
            "reciprocal rank over its subqueries; for a bridge question that order is fused (reciprocal rank "
            "fusion) with the chain order, each passage ranked by the best chain it takes part in: first hop "
            "relevant to the question, second hop naming the first hop's bridge entity and adding the question's "
            "missing terms). Iterative loop: BM25 top "
            f"{MULTIHOP_LOOP.top_k} per subquery, at most {MULTIHOP_LOOP.max_iterations} rounds (from round "
            f"{MULTIHOP_LOOP.progress_after} on only while a round's new passages carry a term a missing fact lacks) and "
            f"{MULTIHOP_LOOP.max_subqueries_per_iteration} follow-ups per round, judge threshold "
            f"{MULTIHOP_JUDGE_THRESHOLD}, {MULTIHOP_FEEDBACK_PER_FACT} follow-up proposals per missing fact. Tuned on the even lines of "
            "`questions.jsonl`, reported on the odd lines.",
            *sections,
            "### The sufficiency judge as a classifier (HotpotQA pools)",
            "Each question's 10-paragraph pool is a sufficient context; the pool without one of its two gold "
            "paragraphs (once per gold paragraph) is an insufficient one. Threshold chosen on the tuning half:",
            _classifier_table(tune_rows),
            f"Reported on the {args.half} half with threshold {MULTIHOP_JUDGE_THRESHOLD}:",
            _classifier_table(report_rows),
        ]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
