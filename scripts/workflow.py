"""Run the parallel RAG workflow with JSON in and JSON out: the skill's entry point for agents.

As a library call::

    from workflow import run
    out = run({"query": "what causes tides?", "top_k": 3, "deadline_s": 2.0},
              {"retrievers": [bm25_fn, vector_fn], "generator": my_generator_fn})

a retriever is a ``Retriever`` object or a plain function ``fn(query, top_k)`` returning a list
of ``{"id", "text", "score"?}`` dicts (give the function a ``kind = "vector"`` attribute to mark
it as a vector retriever); a generator is a ``Generator`` object or ``fn(query, documents) -> str``
(default: the extractive generator). ``rewriter`` and ``reranker`` may be objects or names
(``identity``, ``multi_query``, ``decomposition``, ``rm3``; ``lexical``, ``mmr``).

The earlier parallel-RAG skill's contract runs unchanged: pass its components object (``has``,
``call(slot, payload)``, ``call_all(slot, payload)``; slots ``rewriter``, ``retrievers``,
``reranker``, ``generator``) and its request (``query``, ``top_k``, ``rank_constant``,
``documents``, ``rewrite_temperature``, ``rewrite_max_tokens``, ``max_tokens``) and the result
is its ``{"answer", "documents", "trace"}``, fused by its RRF (see ``parallel_skill``).
``ComponentSlots`` binds component functions ``fn(payload, context)`` to those slots.
With a mapping of components, the request may also carry ``documents`` (a list of ``{"id",
"text", "title"?, "corpus_id"?, "metadata"?}``, searched in memory by BM25 and hashed vectors),
a rewriter may be ``fn(query) -> list[str]`` or ``{"queries": [...]}``, a reranker
``fn(query, documents, top_k) -> documents``, and ``max_tokens`` / ``rewrite_temperature`` /
``rewrite_max_tokens`` reach model-backed components (noted as ignored in the trace otherwise);
``trace["events"]`` lists ``{"step": ...}`` events beside the trace. A generator you bind
decides the answer text; the workflow's verdict goes beside it (``status``, trace notes).

As a command, it reads one JSON request on stdin and answers it over a built-in demo corpus,
or over a folder of ``.txt`` files (``--docs DIR``), with a BM25 and a hashed-vector retriever::

    echo '{"query": "what causes tides?", "top_k": 3}' | python scripts/workflow.py

Exit status: 0 answered (possibly degraded), 1 the workflow failed (for example too few
branches succeeded; the branches are in the JSON), 2 usage error (bad JSON, bad request, bad
folder). The result goes to stdout as JSON; diagnostics go to stderr.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

# Import the package from the repository's src/ when it is not installed, and this script's
# own helpers (the parallel_skill package beside it).
_SRC = Path(__file__).resolve().parents[1] / "src"
if _SRC.is_dir() and str(_SRC) not in sys.path:
    sys.path.insert(0, str(_SRC))
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from agentic_rag._contracts import Document  # noqa: E402
from agentic_rag._errors import AgenticRAGError, BranchFailureError, InvalidInputError  # noqa: E402
from agentic_rag._parallel import (  # noqa: E402
    DecompositionRewriter,
    ExtractiveGenerator,
    FunctionGenerator,
    IdentityRewriter,
    LexicalReranker,
    MMRReranker,
    MultiQueryRewriter,
    ParallelRAGWorkflow,
    RAGRequest,
    RAGResult,
    RM3Rewriter,
)
from agentic_rag._parallel.contracts import RewriteResult  # noqa: E402,F401  (for callers building rewrites)
from parallel_skill import ComponentSlots, is_slot_object, run_contract  # noqa: E402,F401  (ComponentSlots: for callers)
from parallel_skill.function_adapters import FunctionReranker, FunctionViewRewriter, TunedRewriter, accepts, function_retriever  # noqa: E402,F401

REQUEST_KEYS = ("query", "top_k", "rank_constant", "weights", "rank_window", "deadline_s", "min_branches", "branch_k", "corpus_ids")
# Keys of the earlier skill's requests, handled here rather than by RAGRequest.
EXTRA_KEYS = ("documents", "max_tokens", "rewrite_temperature", "rewrite_max_tokens")
COMPONENT_KEYS = ("retrievers", "rewriter", "reranker", "generator")
REWRITERS: Mapping[str, Callable[[Any], Any]] = {
    "identity": lambda first: IdentityRewriter(),
    "multi_query": lambda first: MultiQueryRewriter(),
    "decomposition": lambda first: DecompositionRewriter(),
    "rm3": lambda first: RM3Rewriter(first),
}
RERANKERS: Mapping[str, Callable[[], Any]] = {"lexical": LexicalReranker, "mmr": MMRReranker}
MAX_TEXT_CHARS = 400

DEMO_DOCUMENTS = (
    ("tides", "Ocean tides", "Ocean tides are caused mainly by the gravitational pull of the Moon. The Sun adds a smaller pull, so spring tides occur when Sun and Moon align."),
    ("moon", "The Moon", "The Moon orbits Earth every 27.3 days. Its gravity raises two bulges of water on opposite sides of the planet, which is why most coasts see two high tides a day."),
    ("photosynthesis", "Photosynthesis", "Photosynthesis converts light energy into chemical energy. Plants take in carbon dioxide and water and release oxygen."),
    ("bm25", "BM25", "BM25 is a ranking function used by search engines. It scores documents by term frequency, inverse document frequency and document length."),
    ("rrf", "Reciprocal rank fusion", "Reciprocal rank fusion combines ranked lists by summing one over the rank constant plus the rank. It needs no score calibration."),
    ("embeddings", "Text embeddings", "Dense retrieval embeds queries and documents as vectors and ranks documents by cosine similarity to the query vector."),
)


def run(request: Mapping[str, Any], components: Any = None) -> dict[str, Any]:
    """Run the parallel workflow on one request.

    Args:
        request: ``query`` and optional ``top_k``, ``rank_constant``, ``weights`` (by retriever
            name), ``rank_window``, ``deadline_s``, ``min_branches``, ``branch_k``, ``corpus_ids``;
            the earlier skill's ``documents``, ``max_tokens``, ``rewrite_temperature`` and
            ``rewrite_max_tokens``.
        components: A mapping with ``retrievers`` (a list of Retriever objects or functions),
            optional ``rewriter``, ``reranker`` (objects, functions or names) and ``generator``
            (object or function); or ``None`` when the request carries ``documents``; or the
            earlier skill's object with ``has``/``call``/``call_all`` (its contract, its result).

    Returns:
        For the earlier skill's object, its ``answer``, ``documents`` and ``trace`` (see
        ``parallel_skill.run_contract``). Otherwise JSON-serialisable ``answer``,
        ``refused``, ``status``, ``missing``, ``citations``, ``documents`` (each with ``id``,
        ``corpus_id``, ``text``, ``score``, ``normalized_score``, ``rank`` and
        ``contributions``), ``branches`` (each with ``retriever``, ``query``, ``status``,
        ``elapsed_s``...), ``degraded`` and ``trace`` (with ``events``).

    Raises:
        InvalidInputError: A bad request or component (``BindingError`` for a wrong slot);
            for the earlier contract also ``top_k`` or ``rank_constant`` <= 0 and a rewriter
            that returned no query, as the earlier skill raised (``ValueError`` subclasses).
        BranchFailureError: Fewer branches succeeded than ``min_branches``.
    """
    if is_slot_object(components):
        return run_contract(request, components)
    if not isinstance(request, Mapping):
        raise InvalidInputError(f"request must be a JSON object, got {type(request).__name__}", stage="workflow")
    fields = {k: v for k, v in request.items() if k not in EXTRA_KEYS}
    rag_request = parse_request(fields)
    tuning = {k: request[k] for k in EXTRA_KEYS[1:] if request.get(k) is not None}
    components = _component_mapping(components, request.get("documents"))
    notes: list[str] = []
    workflow = build_workflow(components, tuning=tuning, notes=notes)
    out = result_to_json(workflow.run(rag_request))
    out["trace"]["notes"] = list(out["trace"].get("notes", [])) + notes
    out["trace"]["events"] = trace_events(out, notes)
    return out


def _component_mapping(components: Any, documents: Any) -> Mapping[str, Any]:
    """The components as a mapping; ``documents`` become the BM25 and hashed-vector retrievers
    when none is given."""
    if components is None:
        components = {}
    if not isinstance(components, Mapping):
        raise InvalidInputError(f"components must be a mapping or an object with has/call/call_all, got {type(components).__name__}", stage="workflow")
    if documents is None:
        return components
    if components.get("retrievers"):
        raise InvalidInputError("give the request 'documents' or components['retrievers'], not both; to hand the request's documents "
                                "to your own retrievers, bind them as the earlier skill did (ComponentSlots or an object with has/call/call_all)", stage="workflow")
    return {**components, **demo_components(request_documents(documents))}


def request_documents(documents: Any) -> list[Document]:
    """The request's ``documents`` as :class:`Document` objects.

    Raises:
        InvalidInputError: Not a non-empty list of objects with ``id`` and ``text``.
    """
    if not isinstance(documents, (list, tuple)) or not documents:
        raise InvalidInputError(f"request 'documents' must be a non-empty list, got {documents!r}"[:200], stage="workflow")
    out = []
    for n, item in enumerate(documents):
        if isinstance(item, Document):
            out.append(item)
            continue
        if not isinstance(item, Mapping) or not isinstance(item.get("text"), str):
            raise InvalidInputError(f"documents[{n}] must be an object with a 'text' string, got {item!r}"[:200], stage="workflow")
        unknown = sorted(set(item) - {"id", "text", "title", "corpus_id", "metadata"})
        if unknown:
            raise InvalidInputError(f"documents[{n}] has unknown keys {unknown}; expected id, text, title, corpus_id, metadata", stage="workflow")
        out.append(Document(id=str(item.get("id", f"doc-{n + 1}")), text=item["text"], title=item.get("title", ""),
                            corpus_id=item.get("corpus_id", "default"), metadata=item.get("metadata") or {}))
    return out


def parse_request(request: Mapping[str, Any]) -> RAGRequest:
    """Build a :class:`RAGRequest` from a JSON object.

    Raises:
        InvalidInputError: Not an object, an unknown key, or a bad value.
    """
    if not isinstance(request, Mapping):
        raise InvalidInputError(f"request must be a JSON object, got {type(request).__name__}", stage="workflow")
    unknown = sorted(set(request) - set(REQUEST_KEYS))
    if unknown:
        raise InvalidInputError(f"unknown request keys {unknown}; expected some of {list(REQUEST_KEYS + EXTRA_KEYS)}", stage="workflow")
    fields = dict(request)
    if "query" not in fields:
        raise InvalidInputError("request needs a 'query'", stage="workflow")
    if fields.get("corpus_ids") is not None:
        fields["corpus_ids"] = tuple(fields["corpus_ids"])
    if fields.get("weights") is None:
        fields.pop("weights", None)
    return RAGRequest(**fields)


def build_workflow(components: Mapping[str, Any], *, tuning: Mapping[str, Any] | None = None, notes: list[str] | None = None) -> ParallelRAGWorkflow:
    """Bind the components, wrapping plain functions and resolving names.

    Args:
        components: ``retrievers``, ``rewriter``, ``reranker``, ``generator``.
        tuning: ``max_tokens``, ``rewrite_temperature``, ``rewrite_max_tokens`` for model-backed
            components; a key no component can use is noted in ``notes``.
        notes: Where to say what was ignored.

    Raises:
        InvalidInputError: Unknown keys or names; ``BindingError`` for a wrong slot.
    """
    tuning, notes = dict(tuning or {}), notes if notes is not None else []
    if not isinstance(components, Mapping):
        raise InvalidInputError(f"components must be a mapping, got {type(components).__name__}", stage="workflow")
    unknown = sorted(set(components) - set(COMPONENT_KEYS))
    if unknown:
        raise InvalidInputError(f"unknown component keys {unknown}; expected retrievers, rewriter, reranker, generator", stage="workflow")
    raw = components.get("retrievers")
    if not isinstance(raw, (list, tuple)):
        raise InvalidInputError(f"components['retrievers'] must be a list, got {type(raw).__name__}", stage="workflow")
    taken: dict[str, int] = {}
    retrievers = [function_retriever(r, taken) for r in raw]
    rewriter = components.get("rewriter")
    if isinstance(rewriter, str):
        rewriter = _named(REWRITERS, rewriter, "rewriter")(retrievers[0] if retrievers else None)
    elif callable(rewriter) and not callable(getattr(rewriter, "rewrite", None)):
        rewriter = FunctionViewRewriter(rewriter)
    if rewriter is not None and hasattr(rewriter, "llm") and ("rewrite_temperature" in tuning or "rewrite_max_tokens" in tuning):
        rewriter = TunedRewriter(rewriter, tuning.pop("rewrite_temperature", None), tuning.pop("rewrite_max_tokens", None))
    reranker = components.get("reranker")
    if isinstance(reranker, str):
        reranker = _named(RERANKERS, reranker, "reranker")()
    elif callable(reranker) and not callable(getattr(reranker, "rerank", None)):
        reranker = FunctionReranker(reranker)
    generator = components.get("generator")
    if generator is None:
        generator = ExtractiveGenerator()
    elif callable(generator) and not callable(getattr(generator, "generate", None)):
        if "max_tokens" in tuning and accepts(generator, "max_tokens"):
            fn, limit = generator, tuning.pop("max_tokens")
            generator = FunctionGenerator(lambda query, documents: fn(query, documents, max_tokens=limit), name=getattr(fn, "__name__", ""))
        else:
            generator = FunctionGenerator(generator)
    elif "max_tokens" in tuning and hasattr(generator, "llm") and hasattr(generator, "max_tokens"):
        generator = copy.copy(generator)
        generator.max_tokens = tuning.pop("max_tokens")
    for key in sorted(tuning):
        slot = "generator" if key == "max_tokens" else "rewriter"
        notes.append(f"{key}={tuning[key]!r} ignored: no model-backed {slot} to pass it to")
    return ParallelRAGWorkflow(retrievers, rewriter=rewriter, reranker=reranker, generator=generator)


def trace_events(out: Mapping[str, Any], notes: Sequence[str]) -> list[dict[str, Any]]:
    """The run as the earlier skill's ``{"step": ...}`` events, in order."""
    trace = out["trace"]
    events: list[dict[str, Any]] = [{"step": "request", "query": out["query"]}]
    events += [{"step": "note", "message": note} for note in notes]
    events.append({"step": "rewrite", "views": [{"query": v["text"], "kind": v["kind"]} for v in trace.get("views", [])]})
    events += [{"step": "retrieve", "branch": b["branch"], "retriever": b["retriever"], "query": b["query"], "status": b["status"],
                "hits": b.get("hit_count", 0), "elapsed_s": b["elapsed_s"]} for b in out["branches"]]
    events.append({"step": "fuse", "method": trace.get("fusion"), "documents": [d["id"] for d in out["documents"]]})
    events.append({"step": "generate", "refused": out["refused"], "citations": len(out["citations"])})
    return events


def _named(table: Mapping[str, Callable[..., Any]], name: str, slot: str) -> Callable[..., Any]:
    if name not in table:
        raise InvalidInputError(f"unknown {slot} {name!r}; expected one of {sorted(table)}", stage="workflow")
    return table[name]


def result_to_json(result: RAGResult) -> dict[str, Any]:
    """Flatten a :class:`RAGResult` into the script's JSON shape."""
    return {
        "query": result.query,
        "answer": result.answer.text,
        "refused": result.answer.refused,
        "status": result.status.value,
        "missing": list(result.missing),
        "citations": [c.to_dict() for c in result.answer.citations],
        "documents": [
            {
                "id": d.document_id,
                "corpus_id": d.corpus_id,
                "text": d.text,
                "score": d.score,
                "normalized_score": d.normalized_score,
                "rank": d.rank,
                "contributions": [c.to_dict() for c in d.contributions],
            }
            for d in result.documents
        ],
        "branches": [o.to_dict() for o in result.outcomes],
        "degraded": result.degraded,
        "trace": result.trace.to_dict(),
    }


def load_documents(folder: Path) -> list[Document]:
    """Read every ``.txt`` file under ``folder`` (sorted) as a document whose id is its path.

    Raises:
        InvalidInputError: Not a folder, or no ``.txt`` file with text in it.
    """
    if not folder.is_dir():
        raise InvalidInputError(f"--docs must be a folder, got {str(folder)!r}", stage="workflow")
    documents = []
    for path in sorted(folder.rglob("*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if text.strip():
            documents.append(Document(id=path.relative_to(folder).with_suffix("").as_posix(), text=text))
    if not documents:
        raise InvalidInputError(f"no .txt file with text under {str(folder)!r}", stage="workflow")
    return documents


def demo_components(documents: list[Document]) -> dict[str, Any]:
    """A BM25 and a hashed n-gram vector retriever over ``documents``."""
    from agentic_rag._retrieval.bm25_retriever import BM25Retriever
    from agentic_rag._retrieval.embedders import HashingEmbedder
    from agentic_rag._retrieval.index_retriever import IndexRetriever
    from agentic_rag._retrieval.vector import VectorIndex

    vectors = VectorIndex(HashingEmbedder())
    vectors.add(documents)
    return {"retrievers": [BM25Retriever.from_documents(documents), IndexRetriever(vectors, name="vector")]}


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(
        description="Answer one JSON request read on stdin with the parallel RAG workflow (BM25 + hashed vectors) and print JSON.",
        epilog='Example: echo \'{"query": "what causes tides?", "top_k": 3, "deadline_s": 2}\' | python scripts/workflow.py',
    )
    parser.add_argument("--docs", type=Path, help="folder of .txt files to search (default: a small built-in demo corpus)")
    parser.add_argument("--rewriter", choices=sorted(REWRITERS), help="query-view rewriter (default: none)")
    parser.add_argument("--reranker", choices=sorted(RERANKERS), help="per-branch reranker (default: none)")
    parser.add_argument("--max-text-chars", type=int, default=MAX_TEXT_CHARS, help=f"cut document texts in the output to this many characters (default {MAX_TEXT_CHARS})")
    args = parser.parse_args(argv)
    try:
        if sys.stdin.isatty():
            raise InvalidInputError("expected a JSON request on stdin, for example {\"query\": \"what causes tides?\"}", stage="workflow")
        try:
            request = json.loads(sys.stdin.read())
        except json.JSONDecodeError as exc:
            raise InvalidInputError(f"stdin is not valid JSON: {exc}", stage="workflow") from None
        if isinstance(request, dict) and "documents" in request:
            if args.docs is not None:
                raise InvalidInputError("give --docs or the request's 'documents', not both", stage="workflow")
            components: dict[str, Any] = {}  # run() searches the request's own documents
        elif args.docs is not None:
            components = demo_components(load_documents(args.docs))
        else:
            components = demo_components([Document(id=i, title=t, text=x, corpus_id="demo") for i, t, x in DEMO_DOCUMENTS])
        if args.rewriter:
            components["rewriter"] = args.rewriter
        if args.reranker:
            components["reranker"] = args.reranker
        out = run(request, components)
    except BranchFailureError as exc:
        print(json.dumps({"error": str(exc), "branches": [o.to_dict() for o in exc.outcomes]}, indent=2))
        return 1
    except InvalidInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except AgenticRAGError as exc:
        print(json.dumps({"error": str(exc)}, indent=2))
        return 1
    for document in out["documents"]:
        if len(document["text"]) > args.max_text_chars:
            document["text"] = document["text"][: args.max_text_chars] + "..."
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
