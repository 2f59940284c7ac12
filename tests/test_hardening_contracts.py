"""``from_dict`` refuses values of the wrong type instead of accepting or repairing them.

Regression tests: ``from_dict`` accepted ``degraded="no"``, NaN where a number belongs (then
``to_dict`` was no longer strict JSON), numbers or ``None`` for bool and string fields, and
``snippet.id=None`` (silently replaced by a derived id, orphaning the citations naming it).
"""

from __future__ import annotations

import copy
import json
import math
import unittest
from typing import Any

from agentic_rag import AgenticRAGOrchestrator, BM25Index
from agentic_rag._contracts import Citation, RunResult, Snippet
from agentic_rag._errors import InvalidInputError
from agentic_rag._parallel import ExtractiveGenerator, ParallelRAGWorkflow
from agentic_rag._parallel.contracts import BranchOutcome, ParallelTrace, QueryView, RAGResult
from agentic_rag._retrieval.index_retriever import IndexRetriever
from agentic_rag._samples import sample_corpora, sample_documents

QUESTION = "Where was the founder of Acme Robotics born?"


def sample_runs() -> tuple[RunResult, RAGResult]:
    index = BM25Index()
    index.add(list(sample_documents()))
    run = AgenticRAGOrchestrator(retriever=IndexRetriever(index, name="bm25")).run(QUESTION, sample_corpora())
    other = BM25Index(k1=0.9, b=0.4)
    other.add(list(sample_documents()))
    workflow = ParallelRAGWorkflow([IndexRetriever(index, name="bm25"), IndexRetriever(other, name="bm25-short")], generator=ExtractiveGenerator())
    return run, workflow.run(QUESTION)


def leaves(data: Any, path: tuple[Any, ...] = ()):
    """Every scalar leaf of JSON data outside free-form metadata, with its path."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key != "metadata":
                yield from leaves(value, path + (key,))
    elif isinstance(data, list):
        for n, value in enumerate(data):
            yield from leaves(value, path + (n,))
    else:
        yield path, data


def replaced(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = copy.deepcopy(data)
    target = out
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return out


def wrong_values(value: Any) -> list[Any]:
    """Values JSON can carry that a field holding ``value`` never takes."""
    if isinstance(value, bool):
        return ["no", 1, None]
    if isinstance(value, (int, float)):
        return [math.nan, math.inf, "1", True]
    if isinstance(value, str):
        return [1, True]
    return []


class StrictFromDictTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.run_result, cls.rag_result = sample_runs()

    def test_every_leaf_refuses_a_value_of_the_wrong_type(self):
        for cls, result in ((RunResult, self.run_result), (RAGResult, self.rag_result)):
            data = json.loads(json.dumps(result.to_dict()))
            self.assertEqual(cls.from_dict(data), result)
            checked = 0
            for path, value in leaves(data):
                for bad in wrong_values(value):
                    with self.subTest(contract=cls.__name__, path=path, bad=bad):
                        checked += 1
                        with self.assertRaises(InvalidInputError) as ctx:
                            cls.from_dict(replaced(data, path, bad))
                        self.assertIn(repr(bad), str(ctx.exception))
            self.assertGreater(checked, 100)

    def test_degraded_must_be_a_bool(self):
        data = self.rag_result.to_dict()
        for bad in ("no", 0, None):
            with self.subTest(bad=bad), self.assertRaises(InvalidInputError) as ctx:
                RAGResult.from_dict({**data, "degraded": bad})
            self.assertIn("RAGResult.degraded", str(ctx.exception))
        with self.assertRaises(InvalidInputError):
            RAGResult(**{**{f: getattr(self.rag_result, f) for f in RAGResult.__dataclass_fields__}, "degraded": "no"})

    def test_a_snippet_id_is_never_regenerated_from_data(self):
        data = Snippet("s1", "c", "d", "The valve opens at 40 bar.").to_dict()
        for bad in (None, "", "   ", 7):
            with self.subTest(bad=bad), self.assertRaises(InvalidInputError) as ctx:
                Snippet.from_dict({**data, "id": bad})
            self.assertIn("Snippet.id", str(ctx.exception))
        self.assertEqual(Snippet.from_dict(data).id, "s1")

    def test_nan_never_survives_to_dict(self):
        data = self.rag_result.to_dict()
        trace = {**data["trace"], "rank_constant": math.nan}
        with self.assertRaises(InvalidInputError) as ctx:
            RAGResult.from_dict({**data, "trace": trace})
        self.assertIn("rank_constant", str(ctx.exception))

    def test_json_numbers_still_fit_float_fields(self):
        data = Snippet("s1", "c", "d", "text", score=2.0).to_dict()
        self.assertEqual(Snippet.from_dict({**data, "score": 2}).score, 2.0)
        self.assertEqual(Citation.from_dict({"snippet_id": "s1", "quote": "text"}).end, 4)

    def test_parallel_contracts_check_their_own_fields(self):
        trace = self.rag_result.trace
        for field, bad in (("rank_constant", math.nan), ("rank_window", 0), ("rewrite_s", -1.0), ("fusion", 3), ("notes", ("ok", 5)),
                           ("components", (("retriever", 1),)), ("views", ("text",))):
            with self.subTest(field=field), self.assertRaises(InvalidInputError) as ctx:
                ParallelTrace(**{**{f: getattr(trace, f) for f in ParallelTrace.__dataclass_fields__}, field: bad})
            self.assertIn(f"ParallelTrace.{field}", str(ctx.exception))
        outcome = self.rag_result.outcomes[0]
        with self.assertRaises(InvalidInputError):
            BranchOutcome(**{**{f: getattr(outcome, f) for f in BranchOutcome.__dataclass_fields__}, "error_message": None})
        fields = {f: getattr(self.rag_result, f) for f in RAGResult.__dataclass_fields__}
        for field, bad in (("documents", ("doc",)), ("outcomes", (QueryView("q"),)), ("missing", ("", )), ("answer", "text"), ("trace", None)):
            with self.subTest(field=field), self.assertRaises(InvalidInputError) as ctx:
                RAGResult(**{**fields, field: bad})
            self.assertIn(f"RAGResult.{field}", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
