"""Both workflows with a real language model, over the sample corpus that ships with the package.

Run from the repository root (no install needed), against any OpenAI-compatible server
(OpenAI, vLLM, llama.cpp's server, LM Studio, Ollama's ``/v1``). A small local one::

    bash bench/answers/llm_server.sh start                             # builds once, prints the base URL
    export AGENTIC_RAG_LLM_BASE_URL=http://127.0.0.1:8765/v1   # the server's base URL
    export AGENTIC_RAG_LLM_MODEL=SmolLM2-135M-Instruct         # the model name it serves
    export AGENTIC_RAG_LLM_API_KEY=...                         # only if the server wants a key
    python examples/llm_pipeline.py
    bash bench/answers/llm_server.sh stop

1. The agentic workflow with every slot LLM-backed (planner, query rewriter, drafter,
   sufficiency judge, synthesizer) answers a two-hop question over three corpora.
2. The parallel workflow searches BM25 and a hashing-vector index at once, with LLM query
   views, and an LLM generator writes the cited answer.

Every citation is checked against the passage it quotes; a malformed model answer gets one
repair round and then falls back to the deterministic component, and the script prints which
components fell back. Without the environment variables it prints how to set them on stderr
and exits with status 2 (a usage error), without contacting anything.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from agentic_rag import (  # noqa: E402
    AgenticRAGError,
    BM25Retriever,
    HashingEmbedder,
    IndexRetriever,
    OrchestratorConfig,
    ParallelRAGWorkflow,
    RAGRequest,
    RunBudget,
    VectorIndex,
    use_budget,
)
from agentic_rag.components import verify_citations  # noqa: E402
from agentic_rag.llm import OpenAICompatibleLLM  # noqa: E402
from agentic_rag.llm.components import LLMGenerator, LLMQueryViewRewriter, llm_orchestrator  # noqa: E402
from agentic_rag.llm.environment import ENV_LLM_API_KEY, ENV_LLM_BASE_URL, ENV_LLM_JSON_MODE, ENV_LLM_MODEL  # noqa: E402
from agentic_rag._samples import TWO_HOP_QUESTION, sample_corpora, sample_documents  # noqa: E402

USAGE = f"""\
examples/llm_pipeline.py needs an OpenAI-compatible chat endpoint. Set:

  {ENV_LLM_BASE_URL}   base URL ending in /v1, e.g. http://127.0.0.1:8080/v1
  {ENV_LLM_MODEL}      the model name the server serves, e.g. smollm2
  {ENV_LLM_API_KEY}    the bearer key (optional; local servers need none)
  {ENV_LLM_JSON_MODE}  json_schema (default), json_object_schema, json_object or none: how
                             JSON output is requested (a server that refuses json_schema gets
                             json_object_schema automatically)

For example, with a small local model (SmolLM2-135M-Instruct in llama-cpp-python's server; the
script builds it in a throwaway virtual environment under bench/ the first time):

  bash bench/answers/llm_server.sh start
  {ENV_LLM_BASE_URL}=http://127.0.0.1:8765/v1 {ENV_LLM_MODEL}=SmolLM2-135M-Instruct \\
      python examples/llm_pipeline.py
  bash bench/answers/llm_server.sh stop
"""
PARALLEL_QUESTION = "Who founded Acme Robotics, and when?"


def report_fallbacks(components) -> None:
    """Print what each LLM-backed component had to repair or replace."""
    for component in components:
        if component.events:
            kinds = ", ".join(sorted({e.kind.value for e in component.events}))
            print(f"  {component.name}: {len(component.events)} event(s) ({kinds}); last fallback: {component.last_fallback_reason or '-'}")
    if not any(c.events for c in components):
        print("  none: every model answer was used as given")


def agentic(llm: OpenAICompatibleLLM, retriever: BM25Retriever) -> None:
    """The agentic workflow with every slot LLM-backed."""
    config = OrchestratorConfig(top_k=3, max_iterations=2, max_llm_calls=20, deadline_s=600.0)
    orchestrator = llm_orchestrator(llm, retriever=retriever, config=config)
    result = orchestrator.run(TWO_HOP_QUESTION, sample_corpora())
    print(f"== Agentic workflow: {TWO_HOP_QUESTION}")
    print(f"Plan: {', '.join(f'{f.id} [{f.priority.value}] -> {list(result.plan.route(f.id).corpus_ids)}' for f in result.plan.facts)}")
    for trace in result.iterations:
        queries = "; ".join(f"{q.text!r} in {list(q.corpus_ids)}" for q in trace.subqueries)
        print(f"Round {trace.iteration}: {queries} -> {trace.assessment.label.value} ({trace.assessment.sufficiency_score:.2f})")
    print(f"Status: {result.answer.status.value}; stop: {result.stop_reason.value}; model calls: {result.usage.llm_calls}, "
          f"tokens: {result.usage.prompt_tokens} + {result.usage.completion_tokens}")
    print(f"Answer: {result.answer.text}")
    for claim in result.answer.claims:
        for citation in claim.citations:
            print(f"  [{citation.snippet_id} {citation.start}:{citation.end}] {citation.quote!r}")
    print("Fallbacks and repairs:")
    report_fallbacks((orchestrator.planner, orchestrator.rewriter, orchestrator.drafter, orchestrator.judge, orchestrator.synthesizer))


def parallel(llm: OpenAICompatibleLLM, retriever: BM25Retriever, documents) -> None:
    """The parallel workflow: BM25 and hashing vectors, LLM query views and generator."""
    vectors = VectorIndex(HashingEmbedder())
    vectors.add(documents)
    rewriter, generator = LLMQueryViewRewriter(llm), LLMGenerator(llm)
    workflow = ParallelRAGWorkflow([retriever, IndexRetriever(vectors, name="vector")], rewriter=rewriter, generator=generator)
    with use_budget(RunBudget(deadline_s=600.0, max_llm_calls=10)):
        result = workflow.run(RAGRequest(PARALLEL_QUESTION, top_k=3))
    print(f"\n== Parallel workflow: {PARALLEL_QUESTION}")
    print(f"Views: {[v.text for v in result.trace.views]}; degraded: {result.degraded}")
    print(f"Documents: {[d.document_id for d in result.documents]}")
    print(f"Answer{' (refused)' if result.answer.refused else ''}: {result.answer.text}")
    problems = verify_citations(result.answer, result.documents)
    print(f"Citations: {len(result.answer.citations)}, all verified" if not problems else f"Citation problems: {problems}")
    print("Fallbacks and repairs:")
    report_fallbacks((rewriter, generator))


def main() -> int:
    """Run both workflows; return the process exit status."""
    if not (os.environ.get(ENV_LLM_BASE_URL, "").strip() and os.environ.get(ENV_LLM_MODEL, "").strip()):
        print(USAGE, file=sys.stderr, end="")
        return 2
    llm = OpenAICompatibleLLM(timeout_s=300.0, max_retries=2)  # JSON mode from AGENTIC_RAG_LLM_JSON_MODE
    print(f"Model: {llm!r}\n")
    documents = sample_documents()
    retriever = BM25Retriever.from_documents(documents)
    try:
        agentic(llm, retriever)
        parallel(llm, retriever, documents)
        print(f"\nJSON mode used: {llm.json_mode}")
    except AgenticRAGError as error:
        print(f"\nThe run failed: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
