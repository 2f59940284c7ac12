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

As a command, it reads one JSON request on stdin and answers it over a built-in demo corpus,
or over a folder of ``.txt`` files (``--docs DIR``), with a BM25 and a hashed-vector retriever::

    echo '{"query": "what causes tides?", "top_k": 3}' | python scripts/workflow.py

Exit status: 0 answered (possibly degraded), 1 the workflow failed (for example too few
branches succeeded; the branches are in the JSON), 2 usage error (bad JSON, bad request, bad
folder). The result goes to stdout as JSON; diagnostics go to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

# Import the package from the repository's src/ when it is not installed.
_SRC = Path(__file__).resolve().parents[1] / "src"
if _SRC.is_dir() and str(_SRC) not in sys.path:
    sys.path.insert(0, str(_SRC))

from agentic_rag._contracts import Document  # noqa: E402
from agentic_rag._errors import AgenticRAGError, BranchFailureError, InvalidInputError  # noqa: E402
from agentic_rag._parallel import (  # noqa: E402
    DecompositionRewriter,
    ExtractiveGenerator,
    FunctionGenerator,
    FunctionRetriever,
    IdentityRewriter,
    LexicalReranker,
    MMRReranker,
    MultiQueryRewriter,
    ParallelRAGWorkflow,
    RAGRequest,
    RAGResult,
    RM3Rewriter,
)

REQUEST_KEYS = ("query", "top_k", "rank_constant", "weights", "rank_window", "deadline_s", "min_branches", "branch_k", "corpus_ids")
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


def run(request: Mapping[str, Any], components: Mapping[str, Any]) -> dict[str, Any]:
    """Run the parallel workflow on one request.

    Args:
        request: ``query`` and optional ``top_k``, ``rank_constant``, ``weights`` (by retriever
            name), ``rank_window``, ``deadline_s``, ``min_branches``, ``branch_k``, ``corpus_ids``.
        components: ``retrievers`` (a list of Retriever objects or functions), optional
            ``rewriter``, ``reranker`` (objects or names) and ``generator`` (object or function).

    Returns:
        JSON-serialisable ``answer``, ``refused``, ``citations``, ``documents`` (each with
        ``id``, ``corpus_id``, ``text``, ``score``, ``normalized_score``, ``rank`` and
        ``contributions``), ``branches`` (each with ``retriever``, ``query``, ``status``,
        ``elapsed_s``...), ``degraded`` and ``trace``.

    Raises:
        InvalidInputError: A bad request or component (``BindingError`` for a wrong slot).
        BranchFailureError: Fewer branches succeeded than ``min_branches``.
    """
    workflow = build_workflow(components)
    return result_to_json(workflow.run(parse_request(request)))


def parse_request(request: Mapping[str, Any]) -> RAGRequest:
    """Build a :class:`RAGRequest` from a JSON object.

    Raises:
        InvalidInputError: Not an object, an unknown key, or a bad value.
    """
    if not isinstance(request, Mapping):
        raise InvalidInputError(f"request must be a JSON object, got {type(request).__name__}", stage="workflow")
    unknown = sorted(set(request) - set(REQUEST_KEYS))
    if unknown:
        raise InvalidInputError(f"unknown request keys {unknown}; expected some of {list(REQUEST_KEYS)}", stage="workflow")
    fields = dict(request)
    if "query" not in fields:
        raise InvalidInputError("request needs a 'query'", stage="workflow")
    if fields.get("corpus_ids") is not None:
        fields["corpus_ids"] = tuple(fields["corpus_ids"])
    if fields.get("weights") is None:
        fields.pop("weights", None)
    return RAGRequest(**fields)


def build_workflow(components: Mapping[str, Any]) -> ParallelRAGWorkflow:
    """Bind the components, wrapping plain functions and resolving names.

    Raises:
        InvalidInputError: Unknown keys or names; ``BindingError`` for a wrong slot.
    """
    if not isinstance(components, Mapping):
        raise InvalidInputError(f"components must be a mapping, got {type(components).__name__}", stage="workflow")
    unknown = sorted(set(components) - {"retrievers", "rewriter", "reranker", "generator"})
    if unknown:
        raise InvalidInputError(f"unknown component keys {unknown}; expected retrievers, rewriter, reranker, generator", stage="workflow")
    raw = components.get("retrievers")
    if not isinstance(raw, (list, tuple)):
        raise InvalidInputError(f"components['retrievers'] must be a list, got {type(raw).__name__}", stage="workflow")
    retrievers = [_retriever(r) for r in raw]
    rewriter = components.get("rewriter")
    if isinstance(rewriter, str):
        rewriter = _named(REWRITERS, rewriter, "rewriter")(retrievers[0] if retrievers else None)
    reranker = components.get("reranker")
    if isinstance(reranker, str):
        reranker = _named(RERANKERS, reranker, "reranker")()
    generator = components.get("generator")
    if generator is None:
        generator = ExtractiveGenerator()
    elif callable(generator) and not callable(getattr(generator, "generate", None)):
        generator = FunctionGenerator(generator)
    return ParallelRAGWorkflow(retrievers, rewriter=rewriter, reranker=reranker, generator=generator)


def _retriever(item: Any) -> Any:
    if callable(getattr(item, "retrieve", None)) or not callable(item):
        return item
    return FunctionRetriever(item, kind=getattr(item, "kind", "other"))


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
        if args.docs is not None:
            documents = load_documents(args.docs)
        else:
            documents = [Document(id=i, title=t, text=x, corpus_id="demo") for i, t, x in DEMO_DOCUMENTS]
        components = demo_components(documents)
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
