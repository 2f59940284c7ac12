"""Multi-hop retrieval on HotpotQA and MuSiQue: one-shot BM25, the iterative loop and the
parallel workflow, side by side on the same questions; plus the sufficiency judge as a
classifier. No language model anywhere.

Usage (from the repository root; the data is read from ../shared/data):

    python bench/bench_multihop.py            # report half (odd lines), writes docs/benchmarks.md
    python bench/bench_multihop.py --half tune --no-write

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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from agentic_rag import AgenticRAGOrchestrator, AutoraterStyleSufficiencyJudge, Corpus, DraftAnswer, HeuristicPlanner, OrchestratorConfig, Snippet  # noqa: E402
from agentic_rag.evaluation import load_multihop  # noqa: E402
from agentic_rag.evaluation.multihop import EvidenceRun, MultiHopConfiguration, compare_configurations, format_comparison, split_questions  # noqa: E402
from agentic_rag.retrieval.bm25 import BM25Index  # noqa: E402
from agentic_rag.retrieval.bm25_retriever import BM25Retriever  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
MARK = "multihop"

#: The iterative loop's settings, tuned on the tuning half.
ITERATIVE = OrchestratorConfig(top_k=10, max_iterations=3, max_subqueries_per_iteration=6, max_snippets=300, deadline_s=None)
JUDGE_THRESHOLD = 0.8
FEEDBACK_PER_FACT = 16


def configurations(corpus_docs, corpus_id: str) -> list[MultiHopConfiguration]:
    """One-shot BM25, the iterative loop, and the parallel workflow with decomposition."""
    from agentic_rag.parallel import DecompositionRewriter, ExtractiveGenerator, ParallelRAGWorkflow, RAGRequest
    from agentic_rag.retrieval.embedders import HashingEmbedder
    from agentic_rag.retrieval.index_retriever import IndexRetriever
    from agentic_rag.retrieval.vector import VectorIndex

    bm25 = BM25Retriever(BM25Index.from_documents(corpus_docs))
    corpora = (Corpus(id=corpus_id, description="paragraphs"),)
    judge = AutoraterStyleSufficiencyJudge(term_threshold=JUDGE_THRESHOLD, feedback_per_fact=FEEDBACK_PER_FACT)
    loop = AgenticRAGOrchestrator(retriever=bm25, judge=judge, config=ITERATIVE)
    vectors = VectorIndex(HashingEmbedder())
    vectors.add(corpus_docs)
    parallel = ParallelRAGWorkflow([bm25, IndexRetriever(vectors, name="hashing-vectors")], rewriter=DecompositionRewriter(), generator=ExtractiveGenerator())

    def one_shot(question):
        hits = bm25.retrieve(question.question, 10)
        return EvidenceRun(tuple(h.document_id for h in hits), tuple(h.text for h in hits), 1, 1)

    def iterative(question):
        run = loop.run(question.question, corpora)
        return EvidenceRun(tuple(s.document_id for s in run.snippets), tuple(s.text for s in run.snippets), run.usage.retriever_calls, len(run.iterations))

    def fused(question):
        result = parallel.run(RAGRequest(question.question, top_k=10))
        docs = result.documents
        texts = tuple(d.snippet.text if d.snippet is not None else "" for d in docs)
        return EvidenceRun(tuple(d.document_id for d in docs), texts, len(result.outcomes), 1)

    return [
        MultiHopConfiguration("one-shot BM25", one_shot),
        MultiHopConfiguration("iterative loop (BM25)", iterative),
        MultiHopConfiguration("parallel: decomposition x (BM25, hashing vectors), RRF", fused),
    ]


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
    path = ROOT / "docs" / "benchmarks.md"
    doc = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    start, end = f"<!-- bench:{MARK} -->", f"<!-- /bench:{MARK} -->"
    block = f"{start}\n{text.strip()}\n{end}"
    if start in doc and end in doc:
        doc = doc[: doc.index(start)] + block + doc[doc.index(end) + len(end):]
    else:
        doc = doc.rstrip() + "\n\n" + block + "\n"
    tmp = path.with_suffix(".md.tmp")
    tmp.write_text(doc, encoding="utf-8")
    tmp.replace(path)


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
    report_rows = judge_classifier(hotpot, args.half, (JUDGE_THRESHOLD,))
    print("\njudge on the tuning half:\n" + _classifier_table(tune_rows))
    print(f"\njudge on the {args.half} half:\n" + _classifier_table(report_rows))
    if not args.no_write:
        command = "python bench/bench_multihop.py" + ("" if args.half == "report" else f" --half {args.half}")
        write_section("\n\n".join([
            "## Multi-hop retrieval (HotpotQA, MuSiQue)",
            f"Command: `{command}` · date: {datetime.date.today().isoformat()} · no language model.",
            "Final evidence = the top 10 of each configuration's evidence list (for the iterative loop: the "
            "passages its answer cites, then those the judge found best for each fact, then the rest by best "
            f"reciprocal rank over its subqueries). Iterative loop: BM25 top {ITERATIVE.top_k} per subquery, at most "
            f"{ITERATIVE.max_iterations} rounds and {ITERATIVE.max_subqueries_per_iteration} follow-ups per round, judge threshold "
            f"{JUDGE_THRESHOLD}, {FEEDBACK_PER_FACT} follow-up proposals per missing fact. Tuned on the even lines of "
            "`questions.jsonl`, reported on the odd lines.",
            *sections,
            "### The sufficiency judge as a classifier (HotpotQA pools)",
            "Each question's 10-paragraph pool is a sufficient context; the pool without one of its two gold "
            "paragraphs (once per gold paragraph) is an insufficient one. Threshold chosen on the tuning half:",
            _classifier_table(tune_rows),
            f"Reported on the {args.half} half with threshold {JUDGE_THRESHOLD}:",
            _classifier_table(report_rows),
        ]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
