"""The LLM-backed roles against a real local model: what each role's answers were, and how long
each call took.

Start the model first (``bash bench/answers/llm_server.sh start`` prints the base URL), then::

    python bench/answers/bench_llm.py --base-url http://127.0.0.1:8765/v1 --model SmolLM2-135M-Instruct \\
        --record tests/cassettes/smollm2_135m.jsonl

Two scenarios over the bundled sample corpus, each with its own client:

* ``auto``: the client starts in ``json_schema`` mode. A server that refuses it (llama-cpp-python's
  answers HTTP 500) gets the schema inside JSON mode from then on, so decoding is constrained
  to the schema. The agentic workflow (every slot LLM-backed) answers the two-hop question; the
  parallel workflow (LLM query views and generator) answers a one-hop one.
* ``plain``: ``json_object`` mode, the schema in the prompt only, so a small model's answers are
  often invalid: the repair round and the deterministic fallbacks do the work. The agentic
  workflow answers the partial question (one round).

For every model call it records the role, whether it was the first answer or the repair round,
whether the answer was valid for the role's schema, the seconds and the tokens; each component
says how often it fell back. ``--record`` writes every HTTP exchange to a cassette that
``tests/test_llm_replay.py`` replays without the server. The table goes to the "LLM roles on
a real local model" section of docs/benchmarks.md with the command and the date
(``--no-write`` to skip).
"""

from __future__ import annotations

import argparse
import datetime
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from agentic_rag._agentic import OrchestratorConfig  # noqa: E402
from agentic_rag._agentic.judge import unsupported_claims  # noqa: E402
from agentic_rag._budget import RunBudget, use_budget  # noqa: E402
from agentic_rag._contracts import RunResult  # noqa: E402
from agentic_rag._errors import StructuredOutputError  # noqa: E402
from agentic_rag.llm import HttpOptions, Message, OpenAICompatibleLLM  # noqa: E402
from agentic_rag.llm.components import LLMGenerator, LLMQueryViewRewriter, llm_orchestrator  # noqa: E402
from agentic_rag.llm.json_schema import validate_json  # noqa: E402
from agentic_rag.llm.schemas import LLMRole, role_spec  # noqa: E402
from agentic_rag.llm.structured import extract_json  # noqa: E402
from agentic_rag._parallel import ParallelRAGWorkflow, RAGRequest, RAGResult, verify_citations  # noqa: E402
from agentic_rag._retrieval.bm25_retriever import BM25Retriever  # noqa: E402
from agentic_rag._retrieval.hashing_embedder import HashingEmbedder  # noqa: E402
from agentic_rag._retrieval.index_retriever import IndexRetriever  # noqa: E402
from agentic_rag._retrieval.vector import VectorIndex  # noqa: E402
from agentic_rag._samples import PARTIAL_QUESTION, TWO_HOP_QUESTION, sample_corpora, sample_documents  # noqa: E402

PARALLEL_QUESTION = "Who founded Acme Robotics, and when?"
REPAIR_OPENING = "Your previous answer is not valid"
SCENARIOS = ("auto", "plain")
_JSON_MODES = {"auto": "json_schema", "plain": "json_object"}


@dataclass(frozen=True, slots=True)
class Call:
    """One model call as a role saw it."""

    scenario: str
    workflow: str
    role: str
    repair: bool
    valid: bool
    seconds: float
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str


class ObservedLLM:
    """Wraps an LLM and records every call (role, round, validity, time, tokens)."""

    def __init__(self, inner: Any, scenario: str, workflow: str, calls: list[Call], clock: Callable[[], float] = time.perf_counter) -> None:
        self.inner, self.scenario, self.workflow, self.calls, self._clock = inner, scenario, workflow, calls, clock

    def complete(self, messages: Sequence[Message], *, temperature: float = 0.0, max_tokens: int = 512, response_format: Any = None) -> Any:
        """Delegate, then record the call (see :class:`Call`)."""
        started = self._clock()
        completion = self.inner.complete(messages, temperature=temperature, max_tokens=max_tokens, response_format=response_format)
        role = getattr(response_format, "name", "") or "text"
        valid = False
        try:
            valid = not validate_json(extract_json(completion.text), role_spec(LLMRole(role)).schema)
        except (StructuredOutputError, ValueError):
            valid = False
        last = messages[-1]
        repair = getattr(last, "content", "").startswith(REPAIR_OPENING)
        self.calls.append(Call(self.scenario, self.workflow, role, repair, valid, self._clock() - started,
                               completion.usage.prompt_tokens, completion.usage.completion_tokens, completion.finish_reason))
        return completion


@dataclass
class ScenarioRun:
    """What one scenario produced."""

    name: str
    json_mode_after: str = ""
    agentic: RunResult | None = None
    parallel: RAGResult | None = None
    fallbacks: dict[tuple[str, str], int] = field(default_factory=dict)
    seconds: float = 0.0


def run_scenario(name: str, llm: OpenAICompatibleLLM, calls: list[Call], clock: Callable[[], float] = time.perf_counter) -> ScenarioRun:
    """Run one scenario with ``llm`` (built with the scenario's JSON mode); append its calls."""
    started = clock()
    documents = sample_documents()
    retriever = BM25Retriever.from_documents(documents)
    run = ScenarioRun(name)
    question = TWO_HOP_QUESTION if name == "auto" else PARTIAL_QUESTION
    config = OrchestratorConfig(top_k=3, max_iterations=2 if name == "auto" else 1, max_llm_calls=20, deadline_s=900.0)
    orchestrator = llm_orchestrator(ObservedLLM(llm, name, "agentic", calls, clock), retriever=retriever, config=config)
    run.agentic = orchestrator.run(question, sample_corpora())
    components = [orchestrator.planner, orchestrator.rewriter, orchestrator.drafter, orchestrator.judge, orchestrator.synthesizer]
    for component in components:
        run.fallbacks[("agentic", component.role.value)] = run.fallbacks.get(("agentic", component.role.value), 0) + component.fallback_count
    if name == "auto":
        observed = ObservedLLM(llm, name, "parallel", calls, clock)
        vectors = VectorIndex(HashingEmbedder())
        vectors.add(documents)
        rewriter, generator = LLMQueryViewRewriter(observed), LLMGenerator(observed)
        workflow = ParallelRAGWorkflow([retriever, IndexRetriever(vectors, name="vector")], rewriter=rewriter, generator=generator)
        with use_budget(RunBudget(deadline_s=900.0, max_llm_calls=10)):
            run.parallel = workflow.run(RAGRequest(PARALLEL_QUESTION, top_k=3))
        run.fallbacks[("parallel", "query_rewriter")] = rewriter.fallback_count
        run.fallbacks[("parallel", "synthesizer")] = generator.fallback_count
    run.json_mode_after = llm.json_mode
    run.seconds = clock() - started
    return run


def check_run(run: ScenarioRun) -> list[str]:
    """Return the guarantees the run broke (none expected): every kept claim cites verified
    evidence, and nothing is ANSWERED without claims and a sufficient verdict."""
    problems = []
    if run.agentic is not None:
        result = run.agentic
        if unsupported_claims(result.answer.claims, result.snippets):
            problems.append(f"{run.name}: agentic answer keeps unsupported claims")
        if result.answer.status.value == "answered" and not (result.answer.claims and result.iterations and result.iterations[-1].assessment.is_sufficient):
            problems.append(f"{run.name}: agentic answer is ANSWERED without verified claims and a sufficient verdict")
    if run.parallel is not None:
        if verify_citations(run.parallel.answer, run.parallel.documents):
            problems.append(f"{run.name}: parallel answer has citations that do not verify")
        if not run.parallel.answer.refused and not run.parallel.answer.citations:
            problems.append(f"{run.name}: parallel answer is neither refused nor cited")
    return problems


def role_rows(calls: Sequence[Call], runs: Sequence[ScenarioRun]) -> list[dict[str, Any]]:
    """One row per (scenario, workflow, role): first answers, valid first try, repaired, fell back, times."""
    rows = []
    fallbacks = {(r.name, wf, role): n for r in runs for (wf, role), n in r.fallbacks.items()}
    keys = sorted({(c.scenario, c.workflow, c.role) for c in calls} | set(fallbacks), key=lambda k: (SCENARIOS.index(k[0]), k[1], k[2]))
    for key in keys:
        mine = [c for c in calls if (c.scenario, c.workflow, c.role) == key]
        firsts = [c for c in mine if not c.repair]
        repairs = [c for c in mine if c.repair]
        seconds = sorted(c.seconds for c in mine)
        rows.append({
            "scenario": key[0], "workflow": key[1], "role": key[2],
            "asked": len(firsts), "valid_first": sum(c.valid for c in firsts),
            "repair_rounds": len(repairs), "repaired": sum(c.valid for c in repairs),
            "fell_back": fallbacks.get(key, 0),
            "calls": len(mine),
            "mean_s": sum(seconds) / len(seconds) if seconds else 0.0,
            "max_s": seconds[-1] if seconds else 0.0,
            "mean_completion_tokens": sum(c.completion_tokens for c in mine) / len(mine) if mine else 0.0,
            "length_cut": sum(c.finish_reason == "length" for c in mine),
        })
    return rows


def render(rows: Sequence[dict[str, Any]], runs: Sequence[ScenarioRun], *, model: str, command: str) -> str:
    """The docs/benchmarks.md section."""
    lines = [
        "## LLM roles on a real local model",
        "",
        f"`{command}` on {datetime.date.today().isoformat()}, model `{model}` served by llama-cpp-python's",
        "server on this 2-core machine (`bash bench/answers/llm_server.sh start`). *asked*: first answers;",
        "*valid*: valid for the role's schema on the first try; *repaired*: repair rounds whose answer",
        "was valid; *fell back*: calls handed to the deterministic component (invalid after the repair",
        "round, or valid but unusable, e.g. every citation unverifiable); *cut*: answers stopped by",
        "the role's `max_tokens`.",
        "",
        "| scenario | workflow | role | asked | valid | repair rounds | repaired | fell back | cut | s/call mean | s/call max | completion tokens/call |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(f"| {r['scenario']} | {r['workflow']} | {r['role']} | {r['asked']} | {r['valid_first']} | {r['repair_rounds']} | {r['repaired']} | "
                     f"{r['fell_back']} | {r['length_cut']} | {r['mean_s']:.1f} | {r['max_s']:.1f} | {r['mean_completion_tokens']:.0f} |")
    lines += ["", "| scenario | JSON mode after the run | agentic status | parallel | model calls | seconds |", "|---|---|---|---|---:|---:|"]
    for run in runs:
        calls = run.agentic.usage.llm_calls if run.agentic else 0
        parallel = "-" if run.parallel is None else ("refused" if run.parallel.answer.refused else f"{len(run.parallel.answer.citations)} verified citation(s)")
        status = run.agentic.answer.status.value if run.agentic else "-"
        lines.append(f"| {run.name} | {run.json_mode_after} | {status} | {parallel} | {calls} | {run.seconds:.1f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True, help="OpenAI-compatible base URL ending in /v1")
    parser.add_argument("--model", required=True, help="the model name the server serves")
    parser.add_argument("--record", type=Path, help="write every HTTP exchange to this cassette (JSONL)")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help="comma-separated subset of " + ",".join(SCENARIOS))
    parser.add_argument("--no-write", action="store_true", help="do not update docs/benchmarks.md")
    args = parser.parse_args(argv)
    from agentic_rag.llm.recording import RecordingTransport

    transport = RecordingTransport(args.record, mode="record") if args.record else None
    calls: list[Call] = []
    runs = []
    for name in args.scenarios.split(","):
        llm = OpenAICompatibleLLM(args.base_url, args.model, timeout_s=300.0, max_retries=1, json_mode=_JSON_MODES[name],
                                  http=HttpOptions(transport=transport))
        run = run_scenario(name, llm, calls)
        runs.append(run)
        print(f"{name}: {run.seconds:.1f} s, JSON mode {run.json_mode_after}", file=sys.stderr)
    rows = role_rows(calls, runs)
    command = "python bench/answers/bench_llm.py --base-url URL --model " + args.model + (f" --record {args.record}" if args.record else "")
    text = render(rows, runs, model=args.model, command=command)
    print(text)
    problems = [p for run in runs for p in check_run(run)]
    for problem in problems:
        print("BROKEN:", problem, file=sys.stderr)
    if not args.no_write:
        from bench.benchmark_doc import replace_section

        replace_section(ROOT / "docs" / "benchmarks.md", "<!-- bench:llm-roles -->", "<!-- /bench:llm-roles -->", text)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
