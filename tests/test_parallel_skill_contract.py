"""``scripts/workflow.py:run(request, components)`` with the earlier parallel skill's components
object: each slot's payload and result, the request keys, its errors, its RRF order (checked
against a small reference computation written here), HyDE routing, and a generator whose text
is the answer.

The components here are test doubles written from the contract's description (a lexical and a
character-trigram retriever over the request's documents, a scripted HyDE rewriter, a reranker,
a generator that calls a scripted model), not the earlier skill's code.
"""

from __future__ import annotations

import importlib.util
import inspect
import math
import random
import threading
import unittest
from pathlib import Path

from agentic_rag._errors import AgenticRAGError, BindingError, InvalidInputError

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "workflow.py"
_spec = importlib.util.spec_from_file_location("parallel_skill_contract_script", SCRIPT)
script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(script)

DOCUMENTS = [
    {"id": "tides", "title": "Ocean tides", "text": "Ocean tides are caused mainly by the gravitational pull of the Moon."},
    {"id": "moon", "title": "The Moon", "text": "The Moon orbits Earth every 27.3 days and raises two bulges of ocean water."},
    {"id": "sun", "title": "Spring tides", "text": "The Sun adds a smaller pull, so spring tides occur when Sun and Moon align."},
    {"id": "leaves", "title": "Photosynthesis", "text": "Photosynthesis converts light energy into chemical energy in leaves."},
    {"id": "bm25", "title": "BM25", "text": "BM25 scores documents by term frequency and inverse document frequency."},
    {"id": "embeddings", "title": "Embeddings", "text": "Dense retrieval ranks documents by cosine similarity of vectors."},
]
QUERY = "What causes ocean tides?"
PASSAGE = "Tides rise because the Moon pulls the ocean toward it as Earth turns."


def _words(text):
    return [w.strip(".,?!").lower() for w in str(text).split() if w.strip(".,?!")]


def lexical_retriever(payload, context):
    """Word overlap of query with title and text; ties by id; ``top_k`` kept."""
    wanted = set(_words(payload["query"]))
    rows = []
    for document in payload.get("documents", ()):
        score = float(len(wanted & set(_words(document.get("title", "")) + _words(document["text"]))))
        if score > 0:
            rows.append(dict(document, score=score))
    rows.sort(key=lambda d: (-d["score"], str(d["id"])))
    return {"documents": rows[: payload["top_k"]]}


def trigram_retriever(payload, context):
    """Cosine of character-trigram counts (a stand-in for an embedding); every document ranked."""

    def grams(text):
        text = f" {str(text).lower()} "
        counts = {}
        for i in range(len(text) - 2):
            counts[text[i:i + 3]] = counts.get(text[i:i + 3], 0) + 1
        return counts

    query = grams(payload["query"])
    rows = []
    for document in payload.get("documents", ()):
        doc = grams(f"{document.get('title', '')}\n{document['text']}")
        dot = sum(query[g] * doc.get(g, 0) for g in query)
        norm = math.sqrt(sum(v * v for v in query.values())) * math.sqrt(sum(v * v for v in doc.values()))
        rows.append(dict(document, score=dot / norm if norm else 0.0))
    rows.sort(key=lambda d: (-d["score"], str(d["id"])))
    return {"documents": rows[: payload["top_k"]]}


trigram_retriever.kind = "vector"


class ScriptedModel:
    """The runtime context a component receives: ``call_model`` answers from a script."""

    def __init__(self, reply):
        self.reply = reply
        self.calls = []

    def call_model(self, prompt, *, temperature=0.0, max_tokens=None):
        self.calls.append({"prompt": prompt, "temperature": temperature, "max_tokens": max_tokens})
        return self.reply(prompt) if callable(self.reply) else self.reply


def hyde_rewriter(payload, context):
    text = context.call_model(f"Passage answering: {payload['query']}", temperature=payload.get("temperature", 0.0), max_tokens=payload.get("max_tokens", 256))
    return {"rewritten_query": text.strip()}


def grounded_generator(payload, context):
    evidence = "\n".join(f"[{n}] {d['text']}" for n, d in enumerate(payload["documents"], 1))
    return {"answer": context.call_model(f"Q: {payload['query']}\n{evidence}", temperature=0.0, max_tokens=payload.get("max_tokens")).strip()}


def id_reranker(payload, context):
    """Reorders by id, reversed: a change the fused order must reflect."""
    return {"documents": sorted(payload["documents"], key=lambda d: str(d["id"]), reverse=True)[: payload["top_k"]]}


class Slots:
    """The earlier contract's components object, as a test double: ``has``, ``call`` (with the
    optional ``index``), ``call_all``; records every call's slot and payload."""

    def __init__(self, context=None, **bound):
        self.bound = {slot: fns if isinstance(fns, list) else [fns] for slot, fns in bound.items()}
        self.context = context
        self.calls = []
        self.lock = threading.Lock()

    def has(self, slot):
        return bool(self.bound.get(slot))

    def call(self, slot, payload, index=0):
        with self.lock:
            self.calls.append((slot, index, dict(payload)))
        return self.bound[slot][index](dict(payload), self.context)

    def call_all(self, slot, payload):
        return [self.call(slot, payload, n) for n in range(len(self.bound[slot]))]

    def payloads(self, slot):
        return [p for s, _, p in self.calls if s == slot]


def reference_run(request, slots):
    """The earlier workflow's observable behaviour, computed plainly (no threads, no library)."""
    query, top_k, k = str(request["query"]), int(request.get("top_k", 3)), int(request.get("rank_constant", 60))
    queries, trace = [query], []
    if slots.has("rewriter"):
        made = slots.call("rewriter", {"query": query, "temperature": request.get("rewrite_temperature", 0.0), "max_tokens": request.get("rewrite_max_tokens", 256)})
        queries = [made["rewritten_query"].strip()] if str(made.get("rewritten_query", "")).strip() else []
        for q in made.get("queries", ()):
            if q.strip() and q.strip() not in queries:
                queries.append(q.strip())
        trace.append({"step": "rewrite", "query_count": len(queries)})
    lists = []
    for q in queries:
        for found in slots.call_all("retrievers", {"documents": request.get("documents", ()), "top_k": top_k * 2, "query": q}):
            docs = list(found["documents"])
            if slots.has("reranker"):
                docs = list(slots.call("reranker", {"query": query, "documents": docs, "top_k": top_k * 2})["documents"])
            lists.append(docs)
    trace.append({"step": "parallel_retrieve_and_rerank", "branch_count": len(lists)})
    scores, first = {}, {}
    for docs in lists:
        for rank, doc in enumerate(docs, 1):
            scores[str(doc["id"])] = scores.get(str(doc["id"]), 0.0) + 1.0 / (k + rank)
            first.setdefault(str(doc["id"]), doc)
    documents = [dict(first[i], score=scores[i]) for i in sorted(scores, key=lambda i: (-scores[i], i))[:top_k]]
    trace.append({"step": "fuse", "document_count": len(documents)})
    answer = slots.call("generator", {"query": query, "documents": documents, "max_tokens": request.get("max_tokens")})["answer"]
    trace.append({"step": "generate"})
    return {"answer": str(answer), "documents": documents, "trace": trace}


def _plain_vector(payload, context):  # the trigram retriever without its "vector" mark
    return trigram_retriever(payload, context)


class MarkedSlots(Slots):
    """A components object that also says what each bound component is (this workflow's
    optional ``kinds(slot)``; the earlier contract has no such method)."""

    def kinds(self, slot):
        return [getattr(fn, "kind", "other") for fn in self.bound.get(slot, [])]


def _slots(rewriter=None, reranker=None, marked=False, reply="The Moon's gravity causes ocean tides [1]."):
    bound = {"retrievers": [lexical_retriever, trigram_retriever if marked else _plain_vector], "generator": grounded_generator}
    if rewriter is not None:
        bound["rewriter"] = rewriter
    if reranker is not None:
        bound["reranker"] = reranker
    return (MarkedSlots if marked else Slots)(ScriptedModel(lambda prompt: PASSAGE if prompt.startswith("Passage") else reply), **bound)


def multi_query(payload, context):
    return {"queries": ["moon gravity ocean", " ", "sun spring tides", "moon gravity ocean"]}


# The earlier skill's request shapes: defaults; its knobs; its rewriter (HyDE and multi-query);
# its reranker; the model settings; documents with titles and extra fields.
EXAMPLES = (
    ("defaults", {"query": QUERY, "documents": DOCUMENTS}, {}),
    ("top_k and rank_constant", {"query": QUERY, "documents": DOCUMENTS, "top_k": 2, "rank_constant": 1}, {}),
    ("HyDE rewriter", {"query": QUERY, "documents": DOCUMENTS, "rewrite_temperature": 0.7, "rewrite_max_tokens": 64}, {"rewriter": hyde_rewriter}),
    ("multi-query rewriter", {"query": QUERY, "documents": DOCUMENTS, "top_k": 4}, {"rewriter": multi_query}),
    ("reranker", {"query": QUERY, "documents": DOCUMENTS, "top_k": 3}, {"reranker": id_reranker}),
    ("max_tokens", {"query": QUERY, "documents": DOCUMENTS, "max_tokens": 32}, {}),
    ("extra document fields", {"query": "cosine similarity of vectors", "documents": [dict(d, source="wiki", year=2024) for d in DOCUMENTS], "top_k": 5}, {"reranker": id_reranker}),
)


class EarlierExamplesRunUnchangedTest(unittest.TestCase):
    def test_the_run_signature_is_the_contracts(self):
        self.assertEqual(tuple(inspect.signature(script.run).parameters), ("request", "components"))

    def test_each_example_gives_the_earlier_answer_documents_and_trace(self):
        for name, request, extra in EXAMPLES:
            with self.subTest(name):
                ours = script.run(request, _slots(**extra))
                expected = reference_run(request, _slots(**extra))
                self.assertEqual(ours["answer"], expected["answer"])
                self.assertEqual([d["id"] for d in ours["documents"]], [d["id"] for d in expected["documents"]])
                self.assertEqual(ours["documents"], expected["documents"])  # whole objects, fused scores to the bit
                self.assertEqual(ours["trace"][: len(expected["trace"])], expected["trace"])
                self.assertEqual(set(ours), {"answer", "documents", "trace"})

    def test_every_slot_gets_the_contracts_payload(self):
        slots = _slots(rewriter=hyde_rewriter, reranker=id_reranker)
        script.run({"query": QUERY, "documents": DOCUMENTS, "top_k": 2, "rewrite_temperature": 0.4, "rewrite_max_tokens": 99, "max_tokens": 77}, slots)
        self.assertEqual(slots.payloads("rewriter"), [{"query": QUERY, "temperature": 0.4, "max_tokens": 99}])
        for payload in slots.payloads("retrievers"):
            self.assertEqual(set(payload), {"query", "documents", "top_k"})
            self.assertIs(payload["documents"], DOCUMENTS)  # handed over unchanged, to every retriever
            self.assertEqual(payload["top_k"], 4)
        for payload in slots.payloads("reranker"):
            self.assertEqual((set(payload), payload["query"], payload["top_k"]), ({"query", "documents", "top_k"}, QUERY, 4))
        [generate] = slots.payloads("generator")
        self.assertEqual((set(generate), generate["query"], generate["max_tokens"]), ({"query", "documents", "max_tokens"}, QUERY, 77))
        self.assertTrue(all("score" in d and "id" in d for d in generate["documents"]))
        self.assertEqual(slots.context.calls[0]["temperature"], 0.4)

    def test_the_added_trace_records_follow_the_earlier_ones(self):
        out = script.run({"query": QUERY, "documents": DOCUMENTS, "colour": "red"}, _slots())
        steps = [r["step"] for r in out["trace"]]
        self.assertEqual(steps[:3], ["parallel_retrieve_and_rerank", "fuse", "generate"])
        self.assertEqual(sorted(steps[3:]), ["answerability", "branches", "fusion", "note"])
        fusion = next(r for r in out["trace"] if r["step"] == "fusion")
        self.assertEqual((fusion["rank_constant"], fusion["per_branch_top_k"], fusion["ties"]), (60, 6, "document id"))
        self.assertTrue(any("colour" in r.get("message", "") for r in out["trace"]))


class ReferenceRRFTest(unittest.TestCase):
    """The fused order against a hand-checkable computation."""

    def test_ties_break_by_id_and_each_branch_asks_for_top_k_times_two(self):
        asked = []

        def first(payload, context):
            asked.append(payload["top_k"])
            return {"documents": [{"id": "b", "text": "x"}, {"id": "a", "text": "y"}, {"id": "c", "text": "z"}][: payload["top_k"]]}

        def second(payload, context):
            return {"documents": [{"id": "a", "text": "y"}, {"id": "b", "text": "x"}, {"id": "d", "text": "w"}]}

        out = script.run({"query": "q", "top_k": 2, "rank_constant": 10}, Slots(retrievers=[first, second], generator=lambda p, c: {"answer": "ok"}))
        # a and b: 1/11 + 1/12 each (a tie, broken by id); c: 1/13, d: 1/13.
        self.assertEqual(asked, [4])
        self.assertEqual([(d["id"], d["score"]) for d in out["documents"]], [("a", 1 / 11 + 1 / 12), ("b", 1 / 11 + 1 / 12)])

    def test_random_rankings_with_many_ties_match_the_reference(self):
        rng = random.Random(21)
        ids = [f"d{n}" for n in range(8)]
        for case in range(150):
            lists = [[{"id": i, "text": i} for i in rng.sample(ids, rng.randint(0, len(ids)))] for _ in range(rng.randint(2, 4))]
            retrievers = [lambda payload, context, rows=rows: {"documents": rows[: payload["top_k"]]} for rows in lists]
            request = {"query": "q", "top_k": rng.randint(1, 5), "rank_constant": rng.randint(1, 70)}
            with self.subTest(case=case):
                ours = script.run(request, Slots(retrievers=retrievers, generator=lambda p, c: {"answer": "ok"}))
                expected = reference_run(request, Slots(retrievers=retrievers, generator=lambda p, c: {"answer": "ok"}))
                self.assertEqual(ours["documents"], expected["documents"])

    def test_the_first_object_seen_for_an_id_is_returned(self):
        def first(payload, context):
            return {"documents": [{"id": 7, "text": "from first", "extra": 1}]}

        def second(payload, context):
            return {"documents": [{"id": "7", "text": "from second"}]}

        out = script.run({"query": "q"}, Slots(retrievers=[first, second], generator=lambda p, c: {"answer": "ok"}))
        self.assertEqual(out["documents"], [{"id": 7, "text": "from first", "extra": 1, "score": 2 / 61}])


class ErrorsTest(unittest.TestCase):
    def test_the_earlier_skills_errors_are_value_errors_from_the_library_tree(self):
        cases = (
            ({"query": QUERY, "top_k": 0}, {}, "top_k must be positive"),
            ({"query": QUERY, "top_k": -2}, {}, "top_k must be positive"),
            ({"query": QUERY, "rank_constant": 0}, {}, "rank_constant must be positive"),
            ({"query": QUERY}, {"rewriter": lambda p, c: {"rewritten_query": "  ", "queries": ["", " "]}}, "rewriter returned no non-empty rewritten_query or queries"),
            ({"query": QUERY}, {"rewriter": lambda p, c: {}}, "rewriter returned no non-empty"),
        )
        for request, extra, message in cases:
            with self.subTest(message=message, request=request):
                slots = _slots(**extra)
                with self.assertRaisesRegex(InvalidInputError, message) as caught:
                    script.run(dict(request, documents=DOCUMENTS), slots)
                self.assertIsInstance(caught.exception, ValueError)
                self.assertIsInstance(caught.exception, AgenticRAGError)
                self.assertEqual(slots.payloads("generator"), [])  # raised before any answer

    def test_contract_breaks_are_named(self):
        cases = (
            ({"documents": DOCUMENTS}, Slots(retrievers=[lexical_retriever], generator=grounded_generator), "needs a 'query'"),
            ({"query": "  "}, _slots(), "must not be blank"),
            ({"query": QUERY, "top_k": "three"}, _slots(), "whole number"),
            ({"query": QUERY, "documents": "text"}, _slots(), "documents"),
            ({"query": QUERY, "documents": DOCUMENTS}, Slots(retrievers=[lambda p, c: {"documents": [{"text": "no id"}]}], generator=grounded_generator), r"documents\[0\]"),
            ({"query": QUERY, "documents": DOCUMENTS}, Slots(retrievers=[lexical_retriever], generator=lambda p, c: "plain"), "'answer'"),
            ({"query": QUERY, "documents": DOCUMENTS}, _slots(rewriter=lambda p, c: {"queries": "one string"}), "list of strings"),
        )
        for request, slots, message in cases:
            with self.subTest(message):
                with self.assertRaisesRegex(InvalidInputError, message):
                    script.run(request, slots)

    def test_an_empty_slot_is_a_binding_error(self):
        with self.assertRaisesRegex(BindingError, "'generator' slot is empty"):
            script.run({"query": QUERY, "documents": DOCUMENTS}, Slots(retrievers=[lexical_retriever]))


class HyDETest(unittest.TestCase):
    def test_marked_vector_retrievers_alone_search_the_passage(self):
        slots = _slots(rewriter=hyde_rewriter, reranker=id_reranker, marked=True)
        out = script.run({"query": QUERY, "documents": DOCUMENTS}, slots)
        by_index = {(i, p["query"]) for s, i, p in slots.calls if s == "retrievers"}
        self.assertEqual(by_index, {(0, QUERY), (1, PASSAGE)})
        self.assertEqual({p["query"] for p in slots.payloads("reranker")}, {QUERY})
        self.assertEqual(slots.payloads("generator")[0]["query"], QUERY)
        branches = next(r for r in out["trace"] if r["step"] == "branches")["branches"]
        self.assertEqual([(b["view"], b["retriever"]) for b in branches], [("original", 0), ("hypothetical", 1)])

    def test_the_passage_is_never_evidence(self):
        def echo(payload, context):  # a vector retriever that hands its query back as a document
            return {"documents": [{"id": "echo", "text": payload["query"]}] + trigram_retriever(payload, context)["documents"]}

        echo.kind = "vector"
        slots = MarkedSlots(ScriptedModel(PASSAGE), rewriter=hyde_rewriter, retrievers=[lexical_retriever, echo], generator=grounded_generator)
        out = script.run({"query": QUERY, "documents": DOCUMENTS, "top_k": 6}, slots)
        self.assertNotIn("echo", [d["id"] for d in out["documents"]])
        self.assertNotIn(PASSAGE, [d["text"] for d in slots.payloads("generator")[0]["documents"]])
        self.assertTrue(any("never evidence" in r.get("message", "") for r in out["trace"]))

    def test_a_request_document_whose_text_is_the_passage_stays(self):
        # The earlier skill's own example: the scripted HyDE reply is one document's text.
        def vector(payload, context):
            return trigram_retriever(payload, context)

        vector.kind = "vector"
        model = ScriptedModel(DOCUMENTS[0]["text"])
        for marked in (False, True):
            with self.subTest(marked=marked):
                slots = (MarkedSlots if marked else Slots)(model, rewriter=hyde_rewriter, retrievers=[lexical_retriever, vector], generator=grounded_generator)
                out = script.run({"query": QUERY, "documents": DOCUMENTS}, slots)
                self.assertIn("tides", [d["id"] for d in out["documents"]])
                self.assertFalse(any("never evidence" in r.get("message", "") for r in out["trace"]))
                if not marked:
                    reference = reference_run({"query": QUERY, "documents": DOCUMENTS},
                                              Slots(model, rewriter=hyde_rewriter, retrievers=[lexical_retriever, vector], generator=grounded_generator))
                    self.assertEqual(out["documents"], reference["documents"])

    def test_unmarked_retrievers_all_get_the_passage_as_before_with_a_note(self):
        slots = _slots(rewriter=hyde_rewriter)
        out = script.run({"query": QUERY, "documents": DOCUMENTS}, slots)
        self.assertEqual({p["query"] for p in slots.payloads("retrievers")}, {PASSAGE})
        self.assertTrue(any("went to every retriever" in r.get("message", "") for r in out["trace"]))

    def test_component_slots_and_the_earlier_runner_say_which_retriever_is_a_vector_one(self):
        def vector(payload, context):
            return trigram_retriever(payload, context)

        vector.__module__ = "ragskill_sample_component_vector_retriever"  # how the earlier runner names its module
        # The same component loaded by another loader: only the folder it came from names it.
        namespace = {"trigram_retriever": trigram_retriever}
        exec(compile("def run(inputs, context):\n    return trigram_retriever(inputs, context)\n",
                     "skills/components/component-vector-retriever/scripts/component.py", "exec"), namespace)
        loaded = namespace["run"]

        class EarlierRunner(Slots):
            @property
            def bindings(self):
                return self.bound

        for slots in (
            EarlierRunner(ScriptedModel(PASSAGE), rewriter=hyde_rewriter, retrievers=[lexical_retriever, vector], generator=grounded_generator),
            EarlierRunner(ScriptedModel(PASSAGE), rewriter=hyde_rewriter, retrievers=[lexical_retriever, loaded], generator=grounded_generator),
            script.ComponentSlots({"rewriter": hyde_rewriter, "retrievers": [lexical_retriever, _plain_vector], "generator": grounded_generator},
                                  ScriptedModel(PASSAGE), kinds={"retrievers": ["lexical", "vector"]}),
        ):
            with self.subTest(type(slots).__name__):
                out = script.run({"query": QUERY, "documents": DOCUMENTS}, slots)
                branches = next(r for r in out["trace"] if r["step"] == "branches")["branches"]
                self.assertEqual([(b["query"], b["retriever"]) for b in branches], [(QUERY, 0), (PASSAGE, 1)])


class GeneratorTextTest(unittest.TestCase):
    def test_the_generators_answer_is_returned_unchanged_beside_the_verdict(self):
        reply = "  Cheese, according to my sources.  "
        out = script.run({"query": "Who painted the Mona Lisa in 1503?", "documents": DOCUMENTS}, _slots(reply=reply))
        self.assertEqual(out["answer"], reply.strip())  # the double strips, as a grounded generator does
        verdict = next(r for r in out["trace"] if r["step"] == "answerability")
        self.assertEqual(verdict["status"], "unanswerable")
        self.assertEqual(verdict["answer"], "the generator's text, unchanged")

    def test_an_answered_question_is_marked_answered(self):
        out = script.run({"query": QUERY, "documents": DOCUMENTS}, _slots())
        self.assertEqual(next(r for r in out["trace"] if r["step"] == "answerability")["status"], "answered")


class ComponentSlotsTest(unittest.TestCase):
    def test_it_calls_functions_with_payload_and_context(self):
        seen = []
        slots = script.ComponentSlots({"generator": lambda payload, context: seen.append((payload, context)) or {"answer": "a"}}, context="ctx")
        self.assertEqual((slots.has("generator"), slots.has("reranker")), (True, False))
        self.assertEqual(slots.call_all("generator", {"query": "q"}), [{"answer": "a"}])
        self.assertEqual(seen, [({"query": "q"}, "ctx")])
        self.assertEqual(slots.kinds("generator"), ("other",))

    def test_bad_bindings_are_refused(self):
        for bindings, kinds in (({"retriever": [lexical_retriever]}, None), ({"retrievers": [42]}, None), ({"retrievers": [lexical_retriever]}, {"retrievers": ["a", "b"]})):
            with self.subTest(bindings=bindings), self.assertRaises(InvalidInputError):
                script.ComponentSlots(bindings, kinds=kinds)
        with self.assertRaisesRegex(InvalidInputError, "no function at index 1"):
            script.ComponentSlots({"retrievers": [lexical_retriever]}).call("retrievers", {}, 1)


if __name__ == "__main__":
    unittest.main()
