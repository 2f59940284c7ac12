"""The LLM-backed modes as a user with a capable model runs them: every request logged, each
payload set beside the model's own final reply, every dropped claim listed with its reason.

Three suites, each asked through ``StoreService`` (the service behind ``agentic-rag ask
--llm``) with an OpenAI-compatible model at ``--base-url`` (a real server, or a bridge whose
replies a capable model writes), no deadline and at most 24 model calls a question:

* ``docs``: a question file in the docs-QA format (``bench/data/llm_qa/questions_report.jsonl``
  by default) over the documentation folders of ``bench/corpora/docs_qa_sets.py``, one store per
  project (``agentic-rag index FOLDER --corpus NAME``), kept in ``bench/.cache/model-stores/``
  (made again when the code that makes stores has changed); ``--joined``: one store holding every
  project of the file as its own corpus, each question asked of all of them (the router
  chooses, as for a user who indexed a parent folder), results in ``docs-joined-<mode>.jsonl``;
* ``multihop``: HotpotQA (``--dataset musique``: MuSiQue) questions of the tuning half (even
  lines of ``../shared/data/DATASET/questions.jsonl``), the joined corpus as one folder of one
  file per paragraph; a question's gold paragraphs are found when the run's evidence holds all;
* ``traps``: the earned-trap generator's cases (``bench/answers/bench_earned_traps.py``, seed 29), all
  in one store, a seeded sample of its traps and controls asked.

``run`` appends one JSON line per question and mode to ``OUT/<suite>-<mode>.jsonl`` (resumes
where it stopped; ``--shard K/N`` takes every N-th question, so several bridges can work side
by side); ``report`` reads every file in ``OUT`` and prints, per suite and mode: answered,
partial and unanswerable of the answerable and of the unanswerable questions, the answer key
in the payload's answer and in the model's own final reply, the questions the library
lowered below the model's own reply, claims kept and dropped (every dropped claim with its
reason), claims kept on the verifier's word, citations whose quote stands at the cited lines,
replies near their token cap and repair rounds. ``--write`` puts that table in
``docs/benchmarks.md`` (section ``model-answers``); which answers are right is read by hand.

Usage::

    python bench/answers/bench_model_answers.py run --suite docs --mode agentic --base-url URL --out DIR
    python bench/answers/bench_model_answers.py report --out DIR [--write]
"""

from __future__ import annotations

import argparse
import datetime
import functools
import gzip
import hashlib
import json
import os
import random
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.answers import bench_docs_qa  # noqa: E402
from bench.answers.bench_docs_qa import is_correct, quote_at_lines  # noqa: E402
from bench.benchmark_doc import replace_section  # noqa: E402
from bench.corpora.docs_qa_sets import SETS  # noqa: E402

from agentic_rag import KnowledgeStore, OrchestratorConfig  # noqa: E402
from agentic_rag._interfaces.store_service import StoreService  # noqa: E402
from agentic_rag.llm import ROLE_SPECS, OpenAICompatibleLLM  # noqa: E402

CACHE = ROOT / "bench" / ".cache" / "model-stores"



@functools.lru_cache(maxsize=None)
def _pdf_pages(path: Path) -> dict[int, list[str]]:
    """Every page of a PDF as the loader numbers its lines (parsed once per file)."""
    from agentic_rag._ingest.pdf import extract_pdf
    from agentic_rag._text.lines import normalize_newlines, split_lines

    return {p.number: [line for line in split_lines(normalize_newlines(p.text)) if line.strip()] for p in extract_pdf(path.read_bytes()).pages}


# A cited PDF is read again for every citation of it: parse each file once.
bench_docs_qa._pdf_page_lines = lambda path, page: _pdf_pages(path).get(page, [])
DATA = ROOT.parent / "shared" / "data"
DEFAULT_QUESTIONS = ROOT / "bench" / "data" / "llm_qa" / "questions_report.jsonl"
MAX_CALLS = 24


class LoggedLLM:
    """Passes every call to ``llm`` and keeps what was asked and answered, per question."""

    def __init__(self, llm: object) -> None:
        self.llm = llm
        self.calls: list[dict] = []

    def complete(self, messages, **options):  # noqa: ANN001, ANN201 - the LLM port's signature
        completion = self.llm.complete(messages, **options)  # type: ignore[attr-defined]
        system = messages[0].content if messages else ""
        role = next((s.role.value for s in ROLE_SPECS if system.startswith(s.system_prompt)), "?")
        self.calls.append({"role": role, "max_tokens": options.get("max_tokens"), "repair": len(messages) > 2,
                           "prompt_chars": sum(len(m.content) for m in messages), "prompt": messages[-1].content, "reply": completion.text})
        return completion


def _code_stamp() -> str:
    """A digest of the code that makes a store (loaders, chunker, store, corpus descriptions):
    a cached store made by other code is made again (its description and chunks are what the
    model's prompts show)."""
    digest = hashlib.sha256()
    for package in ("_ingest", "_store"):
        for path in sorted((ROOT / "src" / "agentic_rag" / package).rglob("*.py")):
            digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _cached_store(name: str, base: Path, folders: dict[str, Path]) -> KnowledgeStore:
    """The store ``name`` under the cache, paths relative to ``base``, each of ``folders``
    indexed as a corpus of its key, made once per version of the code that makes stores."""
    stamp_file = CACHE / f"{name}.code"
    stamp = _code_stamp()
    if (CACHE / name).exists() and (not stamp_file.exists() or stamp_file.read_text(encoding="utf-8") != stamp):
        shutil.rmtree(CACHE / name)
    store = KnowledgeStore(CACHE / name, base=base)
    if not store.exists:
        for corpus, folder in folders.items():
            store.index(folder, corpus=corpus)
        stamp_file.write_text(stamp, encoding="utf-8")
    return store


def _store(name: str, folder: Path) -> KnowledgeStore:
    """The store of ``folder``, indexed as ``agentic-rag index FOLDER --corpus NAME`` does."""
    return _cached_store(name, folder, {name: folder})


def _joined_store(names: list[str], root: Path) -> KnowledgeStore:
    """One store holding each named project's folder as a corpus of that name, paths relative
    to ``root`` (as ``agentic-rag index A B`` makes from a parent folder)."""
    folders = {s.name: s.folder for s in SETS}
    return _cached_store("joined-" + "+".join(names), root, {project: folders[project]() for project in names})


def docs_cases(path: Path, *, joined: bool = False) -> list[dict]:
    """The questions of ``path``; ``joined``: all asked of one store holding every project the
    file names as its own corpus (no corpus named in the ask: the router chooses)."""
    folders = {s.name: s.folder for s in SETS}
    questions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not joined:
        return [{**q, "store": q["project"], "folder": str(folders[q["project"]]())} for q in questions]
    names = sorted({q["project"] for q in questions})
    root = Path(os.path.commonpath([str(folders[n]()) for n in names]))
    return [{**q, "store": "joined:" + "+".join(names), "folder": str(root)} for q in questions]


def multihop_cases(count: int, dataset: str = "hotpotqa") -> list[dict]:
    """The first ``count`` questions of the tuning half (even lines) of a multi-hop dataset,
    over its joined corpus as one folder of one file per paragraph."""
    folder = CACHE / f"{dataset}-folder"
    if not folder.exists():
        tmp = folder.with_name(folder.name + ".tmp")
        tmp.mkdir(parents=True, exist_ok=True)
        with gzip.open(DATA / dataset / "corpus.jsonl.gz", "rt", encoding="utf-8") as handle:
            for line in handle:
                doc = json.loads(line)
                (tmp / f"{doc['_id']}.md").write_text(f"# {doc['title']}\n\n{doc['text']}\n", encoding="utf-8")
        tmp.rename(folder)
    lines = (DATA / dataset / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    tuning = [json.loads(line) for n, line in enumerate(lines) if n % 2 == 0][:count]
    return [{"id": q["id"], "question": q["question"], "kind": "single", "answers": [[q["answer"], *q.get("answer_aliases", [])]],
             "gold": q["gold_doc_ids"], "store": dataset, "folder": str(folder)} for q in tuning]


def trap_cases(count: int) -> list[dict]:
    from bench.answers.bench_earned_traps import generate

    folder = CACHE / "earned-traps-folder"
    cases = generate(29, 240)
    if not folder.exists():
        tmp = folder.with_name(folder.name + ".tmp")
        tmp.mkdir(parents=True, exist_ok=True)
        for n, case in enumerate(cases):
            (tmp / f"case{n:04d}.md").write_text(case["text"], encoding="utf-8")
        tmp.rename(folder)
    rng = random.Random(35)
    traps = rng.sample([n for n, c in enumerate(cases) if c["kind"] == "trap"], count)
    controls = rng.sample([n for n, c in enumerate(cases) if c["kind"] == "control"], max(1, count // 4))
    return [{"id": f"case{n:04d}", "question": cases[n]["question"], "kind": "unanswerable" if cases[n]["kind"] == "trap" else "single",
             "answers": [] if cases[n]["kind"] == "trap" else [[cases[n]["key"]]], "family": cases[n]["family"], "store": "earned-traps",
             "folder": str(folder)} for n in sorted(traps + controls)]


def run(args: argparse.Namespace) -> int:
    cases = {"docs": lambda: docs_cases(Path(args.questions), joined=args.joined), "multihop": lambda: multihop_cases(args.count, args.dataset),
             "traps": lambda: trap_cases(args.count)}[args.suite]()
    shard, shards = (int(x) for x in args.shard.split("/"))
    cases = [c for n, c in enumerate(cases) if n % shards == shard - 1]
    suite = f"{args.suite}-{args.dataset}" if args.suite == "multihop" and args.dataset != "hotpotqa" else args.suite
    suite = f"{suite}-joined" if args.joined else suite
    out = Path(args.out) / f"{suite}-{args.mode}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines()} if out.exists() else set()
    logged = LoggedLLM(OpenAICompatibleLLM(args.base_url, args.model, timeout_s=1800, max_retries=0))
    services: dict[str, StoreService] = {}
    for case in cases:
        if case["id"] in done:
            continue
        if case["store"] not in services:
            joined = case["store"].startswith("joined:")
            store = _joined_store(case["store"].split(":", 1)[1].split("+"), Path(case["folder"])) if joined else _store(case["store"], Path(case["folder"]))
            services[case["store"]] = StoreService(store, llm=logged, config=OrchestratorConfig(top_k=5, deadline_s=None, max_llm_calls=MAX_CALLS))
        logged.calls = []
        started = time.time()
        try:
            outcome = services[case["store"]].ask(case["question"], args.mode)
            payload, result = outcome.payload, outcome.result
        except Exception as error:  # keep going; the report shows the failure
            payload, result = {"error": f"{type(error).__name__}: {error}", "status": "error", "answer": "", "claims": []}, None
        row = {**{k: v for k, v in case.items() if k != "folder"}, "mode": args.mode, "seconds": round(time.time() - started, 1),
               "payload": payload, "calls": logged.calls, "root": case["folder"]}
        if case["store"].startswith("joined:") and result is not None and hasattr(result, "iterations"):
            # Which corpora the router sent the run's queries to (the question's own project is the right one).
            row["searched"] = sorted({c for it in result.iterations for q in it.subqueries for c in q.corpus_ids})
        if "gold" in case and result is not None:
            found = {Path(s.document_id).stem for s in result.snippets}  # paragraph files are named by their id
            row["gold_found"] = all(g in found for g in case["gold"])
        with out.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(case["id"], args.mode, payload.get("status"), row["seconds"], flush=True)
    return 0


def model_reply(row: dict) -> dict:
    """The model's own final answer: the last synthesizer (generator) reply of the question."""
    for call in reversed(row["calls"]):
        if call["role"] == "synthesizer":
            try:
                reply = json.loads(call["reply"][call["reply"].find("{"):call["reply"].rfind("}") + 1])
            except ValueError:
                return {}
            return reply if isinstance(reply, dict) else {}
    return {}


def _model_text(reply: dict) -> str:
    return " ".join([str(reply.get("answer", ""))] + [str(c.get("text", "")) for c in reply.get("claims") or [] if isinstance(c, dict)])


def report_rows(rows: list[dict]) -> tuple[list[str], list[str]]:
    """The table lines and the dropped claims of one suite and mode."""
    ans = [r for r in rows if r["kind"] != "unanswerable"]
    una = [r for r in rows if r["kind"] == "unanswerable"]
    count = lambda rs, s: sum(1 for r in rs if r["payload"].get("status") == s)  # noqa: E731
    key_payload = sum(1 for r in ans if r["payload"].get("status") == "answered" and is_correct(r["payload"].get("answer", ""), r["answers"]))
    key_model = sum(1 for r in ans if is_correct(_model_text(model_reply(r)), r["answers"]))
    # The model's own reply answered (its status) and held the key, yet the payload is not answered.
    lowered = [r["id"] for r in ans if model_reply(r).get("status") == "answered" and is_correct(_model_text(model_reply(r)), r["answers"])
               and r["payload"].get("status") != "answered"]
    claims = sum(len(r["payload"].get("claims", [])) for r in rows)
    written = sum(len(model_reply(r).get("claims") or []) for r in rows)
    reviews = [(r["id"], v) for r in rows for v in r["payload"].get("reviewed_claims", [])]
    dropped = [(i, v) for i, v in reviews if v["outcome"] == "dropped"]
    vouched = sum(1 for _, v in reviews if v["outcome"] == "kept")
    cites = [(r, c, claim) for r in rows for claim in r["payload"].get("claims", []) for c in claim["citations"]]
    verified = sum(quote_at_lines(Path(r["root"]), {**c, "quote": c.get("quote") or claim["text"]}) for r, c, claim in cites)
    calls = [c for r in rows for c in r["calls"]]
    near_cap = sum(1 for c in calls if c["max_tokens"] and len(c["reply"]) / 4 > 0.9 * c["max_tokens"])
    gold = [r for r in ans if r.get("gold_found")]
    line = (f"| {len(ans)} | {count(ans, 'answered')} / {count(ans, 'partial')} / {count(ans, 'unanswerable')} | {key_payload} | {key_model} | "
            f"{len(una)} | {count(una, 'answered')} / {count(una, 'partial')} / {count(una, 'unanswerable')} | "
            f"{written} written by the model; {claims} kept, {len(dropped)} dropped, {vouched} vouched | {verified}/{len(cites)} | {len(calls)} ({near_cap} near cap, "
            f"{sum(1 for c in calls if c['repair'])} repairs) |")
    searched = [r for r in rows if "searched" in r]
    if searched:
        line += f" own corpus searched {sum(1 for r in searched if r['project'] in r['searched'])}/{len(searched)} |"
    if gold:
        line += f" gold found {len(gold)}/{len(ans)}, answered {sum(1 for r in gold if r['payload'].get('status') == 'answered')} of them |"
    details = [f"- lowered below the model's own right reply: {', '.join(lowered) or 'none'}"]
    details += [f"- dropped, {i}: {v['claim'][:160]!r}: {v['reason']}" + (f" (verifier: {v.get('verifier')}, {v.get('verifier_reason', '')})" if v.get("verifier") else "")
                for i, v in dropped]
    return [line], details


def report(args: argparse.Namespace) -> int:
    out = Path(args.out)
    head = ["| suite, mode | answerable | answered / partial / unanswerable | key in answered payload | key in model's own reply | "
            "not answerable | answered / partial / unanswerable | claims | citations at their lines | model calls |", "|---|---|---|---|---|---|---|---|---|---|"]
    body, notes = list(head), []
    for path in sorted(out.glob("*.jsonl")):
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        lines, details = report_rows(rows)
        body += [f"| {path.stem} " + line for line in lines]
        notes += [f"{path.stem}:", *details]
    text = "\n".join(body + [""] + notes)
    print(text)
    if args.write:
        date = datetime.date.today().isoformat()
        section = (f"## The LLM-backed modes with a capable model\n\nCommands: `python bench/answers/bench_model_answers.py run --suite SUITE --mode MODE "
                   f"--base-url URL --out DIR` for each suite and mode, then `python bench/answers/bench_model_answers.py report --out DIR --write`; "
                   f"date: {date}.\n\n{text}")
        replace_section(ROOT / "docs" / "benchmarks.md", "<!-- bench:model-answers -->", "<!-- /bench:model-answers -->", section)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    go = sub.add_parser("run", help="ask a suite's questions in one mode")
    go.add_argument("--suite", choices=("docs", "multihop", "traps"), default="docs")
    go.add_argument("--mode", choices=("agentic", "parallel"), default="agentic")
    go.add_argument("--base-url", required=True)
    go.add_argument("--model", default="bridge")
    go.add_argument("--questions", default=str(DEFAULT_QUESTIONS), help="docs suite: a question file in the docs-QA format")
    go.add_argument("--count", type=int, default=30, help="multihop: questions; traps: traps (a quarter as many controls)")
    go.add_argument("--dataset", choices=("hotpotqa", "musique"), default="hotpotqa", help="multihop: which dataset")
    go.add_argument("--shard", default="1/1", help="K/N: every N-th question from the K-th")
    go.add_argument("--joined", action="store_true", help="docs suite: one store holding every project as a corpus; no corpus named")
    go.add_argument("--out", required=True)
    rep = sub.add_parser("report", help="summarise every run in OUT")
    rep.add_argument("--out", required=True)
    rep.add_argument("--write", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args(argv)
    if args.command == "run" and args.suite != "docs" and not DATA.exists():
        print(f"skipped: {DATA} is absent", file=sys.stderr)
        return 0
    return run(args) if args.command == "run" else report(args)


if __name__ == "__main__":
    raise SystemExit(main())
