"""The evidence behind every verdict and the focus of every search hit, through the CLI, the
store service and the HTML report."""

from __future__ import annotations

import json
import os
import tempfile
import unittest
from unittest import mock
from pathlib import Path

from agentic_rag._errors import InvalidInputError
from agentic_rag._interfaces.cli import main
from agentic_rag._interfaces.evidence_payload import WEAK_RELEVANCE, evidence_payload
from agentic_rag._interfaces.html_report import render_run_report
from agentic_rag._interfaces.payloads import _unquoted_focus
from agentic_rag._interfaces.store_service import StoreService
from agentic_rag._store import KnowledgeStore
from cli_support import run_cli

EVIDENCE_KEYS = {"path", "start_line", "end_line", "section", "score", "corpus", "fact_ids", "focus_start_line", "focus_end_line", "focus_text",
                 "relevance"}
HIT_KEYS = (EVIDENCE_KEYS - {"fact_ids"}) | {"text"}

GLOBEX = """# Globex

Globex sells kitchen appliances in Europe.
Its head office is in Porto.

| product | year |
|---|---|
| `toaster` | 1999 |
| `kettle` | 2004 |
"""


class EvidenceTestCase(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = Path(tmp.name)
        old = os.getcwd()
        os.chdir(self.dir)
        self.addCleanup(os.chdir, old)
        companies, people = self.dir / "notes" / "companies", self.dir / "notes" / "people"
        companies.mkdir(parents=True)
        people.mkdir()
        (companies / "acme.md").write_text("# Acme\n\nAcme Robotics was founded in 2001 by Jane Doe.\n\nIt builds warehouse robots.\n", encoding="utf-8")
        (companies / "globex.md").write_text(GLOBEX, encoding="utf-8")
        (people / "jane.md").write_text("# Jane Doe\n\nJane Doe was born in Lyon in 1968.\n", encoding="utf-8")
        self.store = str(self.dir / "store")
        code, _, err = run_cli("index", "notes", "--store", self.store, "--quiet")
        self.assertEqual(code, 0, err)

    def ask_json(self, *argv: str) -> dict:
        code, out, err = run_cli("ask", *argv, "--store", self.store, "--json")
        self.assertEqual(code, 0, err)
        return json.loads(out)

    def assert_passage(self, item: dict, keys: set[str]) -> None:
        self.assertEqual(set(item), keys)
        self.assertLessEqual(item["start_line"], item["focus_start_line"])
        self.assertLessEqual(item["focus_start_line"], item["focus_end_line"])
        self.assertLessEqual(item["focus_end_line"], item["end_line"])
        self.assertGreaterEqual(item["relevance"], 0.0)
        self.assertLessEqual(item["relevance"], 1.0)
        self.assertEqual(item["relevance"], round(item["relevance"], 4))


class AskEvidenceTest(EvidenceTestCase):
    def test_answered_run_lists_its_evidence_best_first_with_fact_ids(self):
        trace = self.dir / "run.json"
        payload = self.ask_json("Where was the founder of Acme Robotics born?", "--trace", str(trace))
        self.assertEqual(payload["status"], "answered")
        evidence = payload["evidence"]
        self.assertIsInstance(evidence, list)
        self.assertTrue(1 <= len(evidence) <= 5)
        for item in evidence:
            self.assert_passage(item, EVIDENCE_KEYS)
        run = json.loads(trace.read_text(encoding="utf-8"))
        # best first: the run's own final evidence ranking, in order
        self.assertEqual([(e["path"], e["start_line"]) for e in evidence],
                         [(s["metadata"]["path"], s["metadata"]["start_line"]) for s in run["snippets"]][: len(evidence)])
        # the whole chunk text only when asked for
        full = self.ask_json("Where was the founder of Acme Robotics born?", "--full-text")["evidence"]
        self.assertEqual([e["text"] for e in full], [s["text"] for s in run["snippets"]][: len(full)])
        self.assertEqual([{k: v for k, v in e.items() if k != "text"} for e in full], evidence)
        facts = {f["id"] for f in run["plan"]["facts"]}
        cited = {c["path"] for claim in payload["claims"] for c in claim["citations"]}
        for item in evidence:
            self.assertLessEqual(set(item["fact_ids"]), facts)
            if item["path"] in cited:
                self.assertTrue(item["fact_ids"], f"{item['path']} is cited, so it supports a fact")
        jane = next(e for e in evidence if e["path"] == "notes/people/jane.md")
        self.assertEqual((jane["focus_start_line"], jane["focus_end_line"]), (3, 3))
        self.assertEqual(jane["corpus"], "people")

    def test_unanswerable_run_still_shows_the_passages_it_judged(self):
        payload = self.ask_json("Which robots does Initech build?")
        self.assertEqual(payload["status"], "unanswerable")
        self.assertTrue(payload["evidence"], "the judge saw passages; an agent must be able to read them")
        for item in payload["evidence"]:
            self.assert_passage(item, EVIDENCE_KEYS)
        acme = next(e for e in payload["evidence"] if e["path"] == "notes/companies/acme.md")
        self.assertEqual(acme["focus_start_line"], 5, "the line about robots, not the whole chunk")

    def test_evidence_option_bounds_the_list(self):
        question = "Where was the founder of Acme Robotics born?"
        self.assertLessEqual(len(self.ask_json(question, "--evidence", "1")["evidence"]), 1)
        self.assertEqual(self.ask_json(question, "--evidence", "0")["evidence"], [])
        for bad in ("-1", "many"):
            with self.subTest(bad=bad):
                code, out, err = run_cli("ask", question, "--store", self.store, "--evidence", bad)
                self.assertEqual((code, out), (1, ""))
                self.assertIn("evidence", err)
                self.assertNotIn("Traceback", err)

    def test_parallel_run_has_evidence_without_fact_ids(self):
        payload = self.ask_json("Who founded Acme Robotics?", "--mode", "parallel", "--evidence", "3")
        evidence = payload["evidence"]
        self.assertTrue(1 <= len(evidence) <= 3)
        for item in evidence:
            self.assert_passage(item, EVIDENCE_KEYS)
            self.assertEqual(item["fact_ids"], [])
        scores = [e["score"] for e in evidence]
        self.assertEqual(scores, sorted(scores, reverse=True))

    def test_human_output_and_report_show_the_evidence(self):
        report = self.dir / "run.html"
        question = "What does Acme Robotics build and sell?"
        code, out, err = run_cli("ask", question, "--store", self.store, "--report", str(report))
        self.assertEqual(code, 0, err)
        self.assertIn("Evidence (best first):", out)
        self.assertIn("notes/companies/acme.md:3-5  relevance", out)  # where the focus lines are
        # The closest lines are quoted as claims, so the evidence does not print them twice.
        self.assertIn("[1] It builds warehouse robots.  (notes/companies/acme.md:5-5)", out)
        self.assertIn("    (its focus lines are quoted above)", out)
        page = report.read_text(encoding="utf-8")
        self.assertIn('id="evidence"', page)
        self.assertEqual(page.count('class="evidence-item"'), len(self.ask_json(question)["evidence"]))
        self.assertIn('class="evidence-link" href="#src-', page)

    def test_evidence_about_another_subject_is_printed_not_claimed(self):
        # Acme's robots are no answer about Initech's: the line is shown as evidence, never
        # quoted as a claim of the answer.
        code, out, err = run_cli("ask", "Which robots does Initech build?", "--store", self.store)
        self.assertEqual(code, 0, err)
        self.assertNotIn("[1]", out)
        self.assertIn("It builds warehouse robots.", out.split("Evidence (best first):", 1)[1])

    def test_service_payload_and_validation(self):
        service = StoreService(KnowledgeStore(self.store, base=self.dir))
        outcome = service.ask("When was Acme Robotics founded?")
        # The evidence, without the focus lines the claims already quote.
        self.assertEqual(outcome.payload["evidence"], _unquoted_focus(evidence_payload(outcome.result, self.dir, model=service.relevance_model()), outcome.payload["claims"]))
        for bad in (-1, 2.0, True, "3"):
            with self.subTest(bad=bad), self.assertRaises(InvalidInputError) as caught:
                service.ask("When was Acme Robotics founded?", evidence=bad)
            self.assertIn("evidence", str(caught.exception))
        page = render_run_report(outcome.result)  # without a payload the report computes its own evidence
        self.assertIn('class="evidence-item"', page)


class SearchFocusTest(EvidenceTestCase):
    def search_json(self, query: str, *argv: str) -> list[dict]:
        code, out, err = run_cli("search", query, "--store", self.store, "--json", *argv)
        self.assertEqual(code, 0, err)
        return json.loads(out)

    def test_hits_carry_focus_lines_and_relevance(self):
        hits = self.search_json("When did Globex launch the kettle?")
        self.assertEqual(hits[0]["path"], "notes/companies/globex.md")
        for hit in hits:
            self.assert_passage(hit, HIT_KEYS)
        # a table row whose markup (pipes, backticks) the loader stripped is still found on its line
        self.assertEqual(hits[0]["focus_end_line"], 9)
        self.assertIn("9: kettle | 2004", hits[0]["focus_text"])
        self.assertEqual(hits[0]["section"], "Globex")
        self.assertGreaterEqual(hits[0]["relevance"], WEAK_RELEVANCE)

    def test_a_name_the_store_never_mentions_makes_a_weak_match(self):
        strong = self.search_json("robots by Acme")[0]
        weak = self.search_json("robots by Initech")[0]
        self.assertEqual(strong["path"], weak["path"])
        self.assertGreaterEqual(strong["relevance"], WEAK_RELEVANCE)
        self.assertLess(weak["relevance"], WEAK_RELEVANCE)

    def test_context_widens_the_focus_and_every_shown_line_is_its_source_line(self):
        import re

        narrow = self.search_json("When did Globex launch the kettle?")[0]
        wide = self.search_json("When did Globex launch the kettle?", "--context", "2")[0]
        self.assertLessEqual(wide["focus_start_line"], narrow["focus_start_line"])
        # The hit is printed alone, so its focus already holds most of the small file.
        self.assertGreaterEqual(len(wide["focus_text"].split("\n")), len(narrow["focus_text"].split("\n")))
        source = (self.dir / wide["path"]).read_text(encoding="utf-8").split("\n")
        for row in wide["focus_text"].split("\n"):
            number, shown = row.split(": ", 1)
            # the shown words are the words of that very line of the file (markup stripped)
            self.assertLessEqual(set(re.findall(r"\w+", shown)), set(re.findall(r"\w+", source[int(number) - 1])), row)
        code, out, err = run_cli("search", "kettle", "--store", self.store, "--context", "-1")
        self.assertEqual(code, 1)
        self.assertIn("context", err)

    def test_human_output_shows_the_best_lines(self):
        code, out, _ = run_cli("search", "When did Globex launch the kettle?", "--store", self.store, "-k", "1")
        self.assertEqual(code, 0)
        self.assertIn("notes/companies/globex.md:3-9  relevance", out)
        self.assertIn("\n   9: kettle | 2004", out)
        self.assertNotIn("  score", out)

    def test_relevance_model_is_built_once_per_generation(self):
        store = KnowledgeStore(self.store, base=self.dir)
        service = StoreService(store)
        model = service.relevance_model()
        self.assertIs(service.relevance_model(), model)
        (self.dir / "notes" / "people" / "john.md").write_text("# John\n\nJohn Roe was born in Porto.\n", encoding="utf-8")
        store.index([str(self.dir / "notes")])
        self.assertIsNot(service.relevance_model(), model)

    def test_the_vector_branch_ranks_bm25_candidates_and_follows_generations(self):
        from agentic_rag._retrieval.vector import VectorIndex
        from agentic_rag._store.candidate_vectors import CANDIDATES

        store = KnowledgeStore(self.store, base=self.dir)
        service = StoreService(store)
        branch = service._vector_retriever()
        self.assertIs(service._vector_retriever(), branch)
        embedded: list[int] = []
        real_add = VectorIndex.add

        def counting_add(index, documents):
            documents = list(documents)
            embedded.append(len(documents))
            return real_add(index, documents)

        with mock.patch.object(VectorIndex, "add", counting_add):
            self.assertEqual(service.ask("Who founded Acme Robotics?", "parallel").payload["evidence"][0]["path"], "notes/companies/acme.md")
        self.assertTrue(embedded and max(embedded) <= CANDIDATES)  # never the whole store
        self.assertEqual(branch.retrieve("Reykjavik", 3), ())
        (self.dir / "notes" / "people" / "john.md").write_text("# John\n\nJohn Roe was born in Reykjavik.\n", encoding="utf-8")
        store.index([str(self.dir / "notes")])
        self.assertEqual(branch.retrieve("Reykjavik", 3)[0].metadata["path"], "notes/people/john.md")

if __name__ == "__main__":
    unittest.main()
