"""The HTML run report: structure, citation links to highlighted spans, escaping,
determinism, atomic writes, and the page rendered by headless Chromium without console errors."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
import unittest
from html.parser import HTMLParser
from pathlib import Path

from agentic_rag._agentic import AgenticRAGOrchestrator, HeuristicPlanner, OrchestratorConfig
from agentic_rag.compat import InMemoryKeywordRetriever
from agentic_rag._contracts import (
    AnswerabilityLabel,
    AnswerStatus,
    Citation,
    Claim,
    ContextAssessment,
    Corpus,
    DraftAnswer,
    FeedbackQuery,
    GroundedAnswer,
    IterationTrace,
    RequiredFact,
    RetrievalPlan,
    Route,
    RunResult,
    Snippet,
    StopReason,
    Subquery,
    SufficiencyStatus,
)
from agentic_rag._errors import InvalidInputError
from agentic_rag._interfaces.html_report import render_run_report, write_run_report
from agentic_rag._parallel import ExtractiveGenerator, ParallelRAGWorkflow, RAGRequest, RAGResult
from agentic_rag._retrieval.embedders import HashingEmbedder
from agentic_rag._retrieval.index_retriever import IndexRetriever
from agentic_rag._retrieval.vector import VectorIndex
from agentic_rag._samples import PARTIAL_QUESTION, TWO_HOP_QUESTION, sample_corpora, sample_documents, two_hop_facts

_VOID = {"meta", "br", "img", "hr", "input", "link", "wbr", "col", "source"}
SCRIPT_TEXT = 'Alpha <script>alert("x")</script> & beta. Gamma delta.'


class Page(HTMLParser):
    """Elements with their attributes, enclosing classes and text content."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements, self._open = [], []
        self.feed(text)
        self.close()
        self.ids = [e["attrs"]["id"] for e in self.elements if "id" in e["attrs"]]
        self.by_id = {e["attrs"]["id"]: e for e in self.elements if "id" in e["attrs"]}

    def handle_starttag(self, tag, attrs):
        element = {"tag": tag, "attrs": dict(attrs), "text": "", "within": [f"{o['tag']}.{o['attrs'].get('class', '')}#{o['attrs'].get('id', '')}" for o in self._open]}
        self.elements.append(element)
        if tag not in _VOID:
            self._open.append(element)

    def handle_endtag(self, tag):
        while self._open:
            if self._open.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        for element in self._open:
            element["text"] += data

    def find(self, tag, cls=None):
        return [e for e in self.elements if e["tag"] == tag and (cls is None or cls in e["attrs"].get("class", "").split())]

    def citation_links(self):
        """Citation links of the claims list, in page order."""
        return [a for a in self.find("a", "citation") if any(w.startswith("ol.claims") for w in a["within"])]


def _agentic(question=TWO_HOP_QUESTION, facts=True):
    retriever = InMemoryKeywordRetriever(sample_documents())
    planner = HeuristicPlanner(two_hop_facts()) if facts else HeuristicPlanner()
    return AgenticRAGOrchestrator(retriever=retriever, planner=planner, config=OrchestratorConfig(top_k=3)).run(question, sample_corpora())


def _parallel():
    documents = sample_documents()
    index = VectorIndex(HashingEmbedder(dimensions=4096))
    index.add(list(documents))
    workflow = ParallelRAGWorkflow([InMemoryKeywordRetriever(documents), IndexRetriever(index, name="vector")], generator=ExtractiveGenerator())
    return workflow.run(RAGRequest("When was Acme Robotics founded and by whom?", top_k=4))


def _crafted():
    """A run with markup in every text field, overlapping, misplaced and missing quotes."""
    cited = Snippet("", "c", "d1", SCRIPT_TEXT, 1.0, metadata={"path": "docs/a.md", "start_line": 3, "end_line": 4}, query_id="q1.1", fact_id="f1")
    other = Snippet("", "c", "d2", "Nothing <i>cited</i> here.", 0.5, metadata={"path": "docs/b.md"}, query_id="q1.1", fact_id="f1")
    first = 'Alpha <script>alert("x")</script>'
    overlap = SCRIPT_TEXT.index("</script>")
    citations = (
        Citation(cited.id, first, 0),
        Citation(cited.id, "</script> & beta.", overlap),  # overlaps the first: one merged mark
        Citation(cited.id, first, 0),  # the same span twice: still one mark
        Citation(cited.id, "Gamma delta.", 0),  # wrong offsets, quote present: found
        Citation(cited.id, "Epsilon <b>.", 0),  # not in the text: links the snippet, flagged
    )
    claims = (Claim("Alpha <em>is</em> scripted.", citations[:3], fact_id="f1"), Claim("Gamma.", citations[3:4]), Claim("Eps.", citations[4:]))
    plan = RetrievalPlan(
        'Why <b>"quoted"</b> & so?',
        facts=(RequiredFact("f1", "Facts about <alpha>"), RequiredFact("f2", "Missing <thing>", depends_on=("f1",))),
        routes=(Route("f1", ("c",), "why <b>"), Route("f2", ("c",))),
        corpora=(Corpus("c", "desc & more"),),
    )
    assessment = ContextAssessment(
        status=SufficiencyStatus.INSUFFICIENT, sufficiency_score=0.5, covered_fact_ids=("f1",), missing_fact_ids=("f2",),
        feedback_queries=(FeedbackQuery("f2", "more <x>", reason="bridge <y>", parent_id="q1.1"),),
        label=AnswerabilityLabel.USEFUL_BUT_INCOMPLETE, rationale="needs <more>",
    )
    trace = IterationTrace(1, (Subquery("q1.1", "f1", "alpha <b>", ("c",), reason="plan"),), (cited, other), DraftAnswer("draft <d>"), assessment)
    answer = GroundedAnswer("Alpha <b>bold</b> & gamma.", claims, AnswerStatus.PARTIAL, missing_facts=(plan.facts[1],), final_score=0.5, iterations=1)
    return RunResult(plan.question, plan, answer, (trace,), (cited, other), StopReason.MAX_ITERATIONS)


class StructureTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.agentic = _agentic()
        cls.partial = _agentic(PARTIAL_QUESTION, facts=False)
        cls.parallel = _parallel()

    def _common(self, html, question):
        page = Page(html)
        self.assertTrue(html.startswith("<!DOCTYPE html>"))
        self.assertEqual(len(page.ids), len(set(page.ids)), "ids must be unique")
        for a in page.find("a"):
            href = a["attrs"].get("href", "")
            self.assertTrue(href.startswith("#"), f"only in-page links, got {href!r}")
            self.assertIn(href[1:], page.by_id, f"link target {href} missing")
        self.assertEqual(page.by_id["question"]["text"], question)
        for tag in ("link", "img", "iframe", "object"):
            self.assertEqual(page.find(tag), [], f"no external <{tag}>")
        self.assertTrue(all("src" not in e["attrs"] for e in page.elements), "no src attributes")
        self.assertEqual(len(page.find("script")), 1)
        self.assertEqual(len(page.find("style")), 1)
        csp = [m for m in page.find("meta") if m["attrs"].get("http-equiv") == "Content-Security-Policy"]
        self.assertIn("default-src 'none'", csp[0]["attrs"]["content"])
        return page

    def _assert_links_reach_marks(self, page, citations):
        links = page.citation_links()
        self.assertEqual(len(links), len(citations))
        for link, citation in zip(links, citations, strict=True):
            target = page.by_id[link["attrs"]["href"][1:]]
            self.assertEqual(target["tag"], "mark")
            self.assertIn(" ".join(citation.quote.split()), " ".join(target["text"].split()))

    def test_agentic_report_has_question_plan_iterations_verdicts_and_answer(self):
        result = self.agentic
        page = self._common(render_run_report(result), result.question)
        for section in ("answer", "plan", "iterations", "sources", "usage"):
            self.assertEqual(page.by_id[section]["tag"], "section")
        self.assertEqual(len(page.find("tr", "fact")), len(result.plan.facts))
        self.assertEqual(len(page.find("section", "iteration")), len(result.iterations))
        self.assertEqual(len(page.find("tr", "subquery")), sum(len(t.subqueries) for t in result.iterations))
        labels = [e["text"] for e in page.find("span", "verdict-label")]
        self.assertEqual(labels, [t.assessment.label.value for t in result.iterations])
        rationales = [e["text"] for e in page.find("p", "rationale")]
        self.assertEqual(rationales, [t.assessment.rationale for t in result.iterations])
        feedback = sum(len(t.assessment.feedback_queries) for t in result.iterations)
        self.assertGreater(feedback, 0)
        self.assertEqual(len(page.find("li", "feedback-query")), feedback)
        followed = [sq for t in result.iterations for sq in t.subqueries if sq.parent_id]
        self.assertTrue(followed, "the two-hop run follows up a subquery")
        self.assertEqual(page.by_id["answer-status"]["text"], result.answer.status.value)
        self.assertEqual(len(page.find("article", "source")), len(result.snippets))
        self._assert_links_reach_marks(page, [c for claim in result.answer.claims for c in claim.citations])

    def test_partial_report_lists_the_missing_facts(self):
        result = self.partial
        self.assertIs(result.answer.status, AnswerStatus.PARTIAL)
        page = self._common(render_run_report(result), result.question)
        missing = page.find("ul", "missing-facts")[0]["text"]
        for fact in result.answer.missing_facts:
            self.assertIn(fact.description, missing)

    def test_parallel_report_has_the_fusion_table_and_linked_answer(self):
        result = self.parallel
        self.assertIsInstance(result, RAGResult)
        page = self._common(render_run_report(result), result.query)
        self.assertIn("fusion-table", page.by_id)
        rows = page.find("tr", "fused-document")
        self.assertEqual([r["attrs"]["data-document-id"] for r in rows], [d.document_id for d in result.documents])
        cells = [c for c in page.find("td", "contribution") if "none" not in c["attrs"]["class"]]
        expected = [f"#{c.rank} +{c.value:.6f}" for d in result.documents for c in d.contributions]
        self.assertEqual(sorted(" ".join(c["text"].split()) for c in cells), sorted(expected))
        headers = [h["text"] for h in page.find("th", "branch-col")]
        self.assertEqual(headers, [o.branch for o in result.outcomes if o.ok])
        self.assertEqual(len(page.find("tr", "branch")), len(result.outcomes))
        self._assert_links_reach_marks(page, result.answer.citations)
        in_text = [a for a in page.find("a", "citation") if any(w.startswith("p.answer-text") for w in a["within"])]
        self.assertEqual(len(in_text), len(result.answer.citations))

    def test_text_is_escaped_and_marks_merge_overlaps(self):
        result = _crafted()
        html = render_run_report(result)
        page = self._common(html, result.question)
        self.assertIn("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;", html)
        self.assertNotIn("<b>", html)
        self.assertNotIn("<i>cited", html)
        marks = page.find("mark")
        self.assertEqual(len(marks), 2, "overlapping and repeated spans give one mark; the misplaced quote a second")
        self.assertEqual(marks[0]["text"], 'Alpha <script>alert("x")</script> & beta.')
        self.assertEqual(marks[1]["text"], "Gamma delta.")
        links = page.citation_links()
        self.assertEqual([a["attrs"]["href"] for a in links[:3]], [f"#{marks[0]['attrs']['id']}"] * 3)
        self.assertEqual(links[3]["attrs"]["href"], f"#{marks[1]['attrs']['id']}")
        unverified = links[4]
        self.assertIn("unverified", unverified["attrs"]["class"])
        self.assertEqual(page.by_id[unverified["attrs"]["href"][1:]]["tag"], "article")
        self.assertIn("docs/a.md:3-4", page.by_id[unverified["attrs"]["href"][1:]]["text"])
        self.assertIn("Missing <thing>", page.find("ul", "missing-facts")[0]["text"])
        self.assertIn("more <x>", page.find("li", "feedback-query")[0]["text"])

    def test_output_is_deterministic_and_survives_a_round_trip(self):
        for result in (self.agentic, self.parallel, _crafted()):
            with self.subTest(type(result).__name__):
                html = render_run_report(result)
                self.assertEqual(render_run_report(result), html)
                self.assertEqual(render_run_report(type(result).from_dict(result.to_dict())), html)

    def test_other_objects_are_refused(self):
        for value in (None, {"question": "x"}, "run"):
            with self.subTest(value=value), self.assertRaises(InvalidInputError):
                render_run_report(value)


class WriteTest(unittest.TestCase):
    def test_write_is_atomic_and_leaves_no_temporary_file(self):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "sub" / "run.html"
            write_run_report(_crafted(), path)
            self.assertEqual(path.read_text(encoding="utf-8"), render_run_report(_crafted()))
            path.write_text("old", encoding="utf-8")
            write_run_report(_crafted(), path)
            self.assertEqual(path.read_text(encoding="utf-8"), render_run_report(_crafted()))
            self.assertEqual(sorted(p.name for p in path.parent.iterdir()), ["run.html"])

    def test_a_failed_render_keeps_the_old_file(self):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "run.html"
            path.write_text("old", encoding="utf-8")
            with self.assertRaises(InvalidInputError):
                write_run_report("not a run", path)
            self.assertEqual(path.read_text(encoding="utf-8"), "old")
            self.assertEqual(os.listdir(folder), ["run.html"])


def _chromium():
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


class HeadlessChromiumTest(unittest.TestCase):
    """Opens reports in headless Chromium: the DOM has the key elements, the script ran to the
    end, and the console stayed silent (a control page proves console errors are seen)."""

    TIMEOUT = 90

    def setUp(self):
        self.browser = _chromium()
        if self.browser is None:
            self.skipTest("Chromium not found (chromium or chromium-browser on PATH); install it with: apt-get install -y chromium")
        self.folder = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.folder, True)

    def _open_all(self, pages):
        """Dump each page's DOM in parallel; return {name: (dom, stderr)}."""
        results = {}

        def run(name, path):
            profile = self.folder / f"profile-{name}"
            command = [
                self.browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
                "--enable-logging=stderr", "--v=0", "--dump-dom", path.as_uri(),
            ]
            done = subprocess.run(command, capture_output=True, timeout=self.TIMEOUT, check=False)
            results[name] = (done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"), done.returncode)

        threads = [threading.Thread(target=run, args=item) for item in pages.items()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(self.TIMEOUT + 10)
        return results

    @staticmethod
    def _console_problems(stderr, path):
        uri = path.as_uri()
        return [line for line in stderr.splitlines() if ("CONSOLE" in line and uri in line) or "Uncaught" in line]

    def test_reports_render_without_console_errors(self):
        pages = {}
        for name, result in (("agentic", _agentic()), ("parallel", _parallel())):
            pages[name] = self.folder / f"{name}.html"
            write_run_report(result, pages[name])
        pages["control"] = self.folder / "control.html"
        pages["control"].write_text('<!DOCTYPE html><html><body><p id="x">x</p><script>null.boom();</script></body></html>', encoding="utf-8")
        results = self._open_all(pages)
        control_dom, control_err, _ = results["control"]
        self.assertIn('id="x"', control_dom)
        self.assertTrue(self._console_problems(control_err, pages["control"]), "the console scan must see the control page's error")
        expected = {"agentic": ("answer", "plan", "iterations", "sources"), "parallel": ("answer", "fusion-table", "sources")}
        for name, ids in expected.items():
            with self.subTest(name):
                dom, err, code = results[name]
                self.assertEqual(code, 0, err[-2000:])
                self.assertIn('data-report-ready="true"', dom, "the page script ran to the end")
                for element_id in ids:
                    self.assertIn(f'id="{element_id}"', dom)
                self.assertIn('<mark id="src-', dom)
                self.assertIn('class="citation"', dom)
                self.assertEqual(self._console_problems(err, pages[name]), [])


if __name__ == "__main__":
    unittest.main()
