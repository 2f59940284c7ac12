"""The agentic-rag command line: every command, its --json shapes and its exit codes."""

from __future__ import annotations

import gzip
import json
import sqlite3
import os
import subprocess
import sys
import tempfile
import unittest
from contextlib import closing
from pathlib import Path

from agentic_rag._interfaces.cli import main
from cli_support import run_cli

ROOT = Path(__file__).resolve().parents[1]


class CliTestCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = Path(self.tmp.name)
        self.old = os.getcwd()
        os.chdir(self.dir)
        self.addCleanup(os.chdir, self.old)
        docs = self.dir / "notes" / "companies"
        docs.mkdir(parents=True)
        (docs / "acme.md").write_text("# Acme\n\nAcme Robotics was founded in 2001 by Jane Doe.\n\nIt builds warehouse robots.\n", encoding="utf-8")
        people = self.dir / "notes" / "people"
        people.mkdir()
        (people / "jane.md").write_text("# Jane Doe\n\nJane Doe was born in Lyon in 1968.\n", encoding="utf-8")
        self.store = str(self.dir / "store")

    def index(self, *flags: str):
        code, out, err = run_cli("index", "notes", "--store", self.store, *flags)
        self.assertEqual(code, 0, err)
        return out


class IndexRepairTest(CliTestCase):
    def test_index_says_what_it_repaired(self):
        self.index()
        with closing(sqlite3.connect(Path(self.store) / "store.sqlite3")) as db, db:
            db.execute("DELETE FROM bm25_postings WHERE term = 'warehous'")  # postings lost
        code, out, err = run_cli("index", "notes", "--store", self.store, "--verbose")
        self.assertEqual(code, 0, err)
        self.assertIn("repaired:", out)
        code, out, _ = run_cli("search", "warehouse robots", "--store", self.store, "--json")
        self.assertEqual((code, json.loads(out)[0]["path"]), (0, "notes/companies/acme.md"))


class IndexOutputTest(CliTestCase):
    """--quiet prints errors only; the default prints one summary line with counts; --verbose
    lists the files and repairs behind the counts."""

    def setUp(self):
        super().setUp()
        for name in ("a.bin", "b.bin"):
            (self.dir / "notes" / name).write_bytes(b"\x00\x01")

    def test_quiet_prints_nothing_on_success(self):
        code, out, err = run_cli("index", "notes", "--store", self.store, "--quiet")
        self.assertEqual((code, out, err), (0, "", ""))

    def test_quiet_still_prints_errors(self):
        code, out, err = run_cli("index", "no-such-folder", "--store", self.store, "--quiet")
        self.assertEqual((code, out), (2, ""))
        self.assertIn("no-such-folder", err)

    def test_default_is_one_summary_line_with_counts(self):
        code, out, err = run_cli("index", "notes", "--store", self.store)
        self.assertEqual(code, 0, err)
        self.assertEqual(len(out.splitlines()), 1, out)
        self.assertIn("2 added", out)
        self.assertIn("2 skipped", out)
        self.assertIn("(--verbose lists them)", out)
        self.assertNotIn("a.bin", out)

    def test_verbose_lists_the_skipped_files_and_the_corpora(self):
        code, out, err = run_cli("index", "notes", "--store", self.store, "--verbose")
        self.assertEqual(code, 0, err)
        lines = out.splitlines()
        self.assertIn("2 skipped", lines[0])
        self.assertNotIn("--verbose", lines[0])
        self.assertEqual([line.split(":")[0] for line in lines if "skipped notes/" in line],
                         ["  skipped notes/a.bin", "  skipped notes/b.bin"])
        self.assertTrue(any(line.startswith("  corpus ") for line in lines), out)

    def test_quiet_and_verbose_together_are_a_usage_error(self):
        code, _, err = run_cli("index", "notes", "--store", self.store, "--quiet", "--verbose")
        self.assertEqual(code, 1)
        self.assertIn("not allowed with", err)
class NamesInTextOutputTest(CliTestCase):
    """File names that would break a text citation (table row 16)."""

    def test_odd_names_are_quoted_and_skipped_files_counted_apart(self):
        odd = self.dir / "notes" / "odd"
        odd.mkdir()
        try:
            (odd / "bad\nname.md").write_text("# Quokka\n\nThe quokka lives on Rottnest Island.\n", encoding="utf-8")
            (odd / "x.md:p3:1-2.md").write_text("# Wombat\n\nThe wombat digs burrows in the quokka country.\n", encoding="utf-8")
        except OSError as exc:
            self.skipTest(f"this file system refuses such names: {exc}")
        (odd / "broken.pdf").write_bytes(b"this is not a PDF file")
        out = self.index("--verbose")
        self.assertIn("indexed 4 of 5 files found", out)
        self.assertIn("4 added, 0 updated, 0 unchanged, 1 skipped", out)
        self.assertIn("  skipped notes/odd/broken.pdf:", out)
        code, out, _ = run_cli("search", "quokka", "--store", self.store)
        self.assertEqual(code, 0)
        labels = [line.split("  relevance")[0].split(". ", 1)[1] for line in out.splitlines() if "  relevance " in line]
        self.assertIn('"notes/odd/bad\\nname.md":3', [label[:len('"notes/odd/bad\\nname.md":3')] for label in labels])
        self.assertEqual(len([line for line in out.splitlines() if line[:3].strip().rstrip(".").isdigit()]), len(labels))
        # (the quokka page is clearly better, so it may be printed alone: the wombat page is asked for)
        code, out, _ = run_cli("search", "wombat burrows", "--store", self.store)
        labels = [line.split("  relevance")[0].split(". ", 1)[1] for line in out.splitlines() if "  relevance " in line]
        self.assertTrue(any(label.startswith('"notes/odd/x.md:p3:1-2.md":') for label in labels), labels)
        code, out, _ = run_cli("ask", "Where does the quokka live?", "--store", self.store)
        self.assertIn('("notes/odd/bad\\nname.md":3-3)', out)
        self.assertNotIn("bad\nname", out)


class DisplayPathTest(unittest.TestCase):
    def test_plain_names_stay_and_others_are_quoted_and_escaped(self):
        from agentic_rag._interfaces.locations import display_path, location_label

        cases = {
            "docs/a.md": "docs/a.md",
            "my notes/a b.md": "my notes/a b.md",
            "C:\\docs\\a.md": "C:\\docs\\a.md",
            "x.md:p3:1-2.md": '"x.md:p3:1-2.md"',
            "bad\nname.md": '"bad\\nname.md"',
            "tab\there.md": '"tab\\there.md"',
            "a\u202eb.md": '"a\\u202eb.md"',
            "e\x1b[31m.md": '"e\\u001b[31m.md"',
            'q"uote\\x:y.md': '"q\\"uote\\\\x:y.md"',
            "sep\u2028x.md": '"sep\\u2028x.md"',
        }
        for path, shown in cases.items():
            with self.subTest(path=path):
                self.assertEqual(display_path(path), shown)
                self.assertNotIn("\n", display_path(path))
        self.assertEqual(location_label({"path": "x.md:p3:1-2.md", "start_line": 4, "end_line": 5, "page": 2}), '"x.md:p3:1-2.md":p2:4-5')


class IndexSearchAskTest(CliTestCase):
    def test_index_then_search_json(self):
        self.assertIn("2 added", self.index())
        code, out, _ = run_cli("search", "Acme Robotics founded", "--store", self.store, "--json")
        self.assertEqual(code, 0)
        hits = json.loads(out)
        self.assertEqual(hits[0]["path"], "notes/companies/acme.md")
        for key in ("path", "start_line", "end_line", "score", "text"):
            self.assertIn(key, hits[0])
        self.assertLessEqual(hits[0]["start_line"], 3)

    def test_reindex_is_incremental(self):
        self.index()
        code, out, _ = run_cli("index", "notes", "--store", self.store, "--quiet", "--json")
        report = json.loads(out)
        self.assertEqual((report["added"], report["unchanged"]), (0, 2))

    def test_ask_json_shape_trace_and_report(self):
        self.index()
        trace, report = self.dir / "run.json", self.dir / "run.html"
        code, out, err = run_cli("ask", "Where was the founder of Acme Robotics born?", "--store", self.store, "--json", "--trace", str(trace), "--report", str(report))
        self.assertEqual(code, 0, err)
        payload = json.loads(out)
        self.assertEqual(payload["status"], "answered")
        self.assertIn("Lyon", payload["answer"])
        claim = payload["claims"][-1]
        citation = claim["citations"][0]
        self.assertEqual(citation["path"], "notes/people/jane.md")
        self.assertEqual((citation["start_line"], citation["end_line"]), (3, 3))
        # The quote is the claim's text, so the payload does not repeat it.
        self.assertEqual(citation["quote"], "")
        self.assertIn("born in Lyon", claim["text"])
        for key in ("missing_facts", "iterations", "stop_reason"):
            self.assertIn(key, payload)
        self.assertEqual(json.loads(trace.read_text(encoding="utf-8"))["question"], "Where was the founder of Acme Robotics born?")
        self.assertIn("<html", report.read_text(encoding="utf-8").lower())

    def test_strict_exit_code_for_partial_answers(self):
        self.index()
        question = "When was Acme Robotics founded and how many employees does it have?"
        code, out, _ = run_cli("ask", question, "--store", self.store, "--json")
        self.assertEqual(code, 0)
        self.assertEqual(json.loads(out)["status"], "partial")
        code, _, _ = run_cli("ask", question, "--store", self.store, "--strict")
        self.assertEqual(code, 3)

    def test_parallel_mode(self):
        self.index()
        code, out, err = run_cli("ask", "Who founded Acme Robotics?", "--store", self.store, "--mode", "parallel", "--json")
        self.assertEqual(code, 0, err)
        self.assertIn(json.loads(out)["status"], ("answered", "partial", "unanswerable"))


class ExitCodeTest(CliTestCase):
    def test_missing_store_is_not_found(self):
        code, out, err = run_cli("search", "x", "--store", str(self.dir / "nowhere"))
        self.assertEqual(code, 2)
        self.assertEqual(out, "")
        self.assertEqual(len(err.strip().splitlines()), 1)
        self.assertNotIn("Traceback", err)

    def test_usage_errors(self):
        self.assertEqual(run_cli("ask")[0], 1)
        self.assertEqual(run_cli("nonsense")[0], 1)
        self.assertEqual(run_cli()[0], 1)
        self.index()
        code, _, err = run_cli("search", "x", "--store", self.store, "-k", "0")
        self.assertEqual(code, 1)
        self.assertIn("k", err)

    def test_missing_path_to_index(self):
        self.assertEqual(run_cli("index", "no-such-folder", "--store", self.store)[0], 2)

    def test_every_command_has_help(self):
        for command in ("index", "corpora", "search", "show", "ask", "eval", "demo", "mcp"):
            with self.subTest(command=command):
                code, out, _ = run_cli(command, "--help")
                self.assertEqual(code, 0)
                self.assertIn(f"agentic-rag {command}", out)


class EvalAndDemoTest(CliTestCase):
    def test_eval_multihop_json(self):
        folder = self.dir / "mh"
        folder.mkdir()
        corpus = [{"_id": "a", "title": "Acme Robotics", "text": "Acme Robotics was founded by Jane Doe."},
                  {"_id": "b", "title": "Jane Doe", "text": "Jane Doe was born in Lyon."},
                  {"_id": "c", "title": "Soup", "text": "Tomato soup needs tomatoes."}]
        with gzip.open(folder / "corpus.jsonl.gz", "wt", encoding="utf-8") as f:
            f.write("\n".join(json.dumps(r) for r in corpus) + "\n")
        question = {"id": "q", "question": "Where was the founder of Acme Robotics born?", "answer": "Lyon", "type": "bridge", "gold_doc_ids": ["a", "b"], "pool_doc_ids": ["a", "b", "c"]}
        (folder / "questions.jsonl").write_text(json.dumps(question) + "\n", encoding="utf-8")
        code, out, err = run_cli("eval", str(folder), "--json")
        self.assertEqual(code, 0, err)
        result = json.loads(out)
        self.assertEqual(sorted(result), ["iterative", "one_shot", "parallel"])
        self.assertEqual(result["iterative"]["all_gold@10"], 1.0)
        self.assertIn("retriever_calls", result["one_shot"])

    def test_eval_beir_json(self):
        folder = self.dir / "beir"
        (folder / "qrels").mkdir(parents=True)
        (folder / "corpus.jsonl").write_text("\n".join(json.dumps({"_id": i, "title": "", "text": t}) for i, t in (("d1", "tides come from the moon"), ("d2", "soup recipes"))) + "\n", encoding="utf-8")
        (folder / "queries.jsonl").write_text(json.dumps({"_id": "1", "text": "what causes tides"}) + "\n", encoding="utf-8")
        (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\td1\t1\n", encoding="utf-8")
        code, out, err = run_cli("eval", str(folder), "--json")
        self.assertEqual(code, 0, err)
        result = json.loads(out)
        self.assertEqual(result["one_shot"]["ndcg@10"], 1.0)
        self.assertIn("recall@100", result["parallel"])

    def test_demo_runs_from_a_fresh_process(self):
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        proc = subprocess.run([sys.executable, "-m", "agentic_rag", "demo", "--json"], capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        answers = json.loads(proc.stdout)
        self.assertEqual([a["status"] for a in answers], ["answered", "partial"])


class McpCommandTest(CliTestCase):
    def test_mcp_serves_the_store(self):
        self.index()
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        requests = [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search", "arguments": {"query": "Acme founded", "k": 2}}},
            {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "list_corpora", "arguments": {}}},
        ]
        stdin = "".join(json.dumps(r) + "\n" for r in requests)
        proc = subprocess.run([sys.executable, "-m", "agentic_rag", "mcp", "--store", self.store], input=stdin, capture_output=True, text=True, env=env, cwd=self.dir, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        replies = {r["id"]: r for r in map(json.loads, proc.stdout.splitlines())}
        self.assertEqual(sorted(replies), [1, 2, 3])
        hits = replies[2]["result"]["structuredContent"]["hits"]
        self.assertEqual(hits[0]["path"], "notes/companies/acme.md")
        corpora = [c["id"] for c in replies[3]["result"]["structuredContent"]["corpora"]]
        self.assertEqual(corpora, ["companies", "people"])


if __name__ == "__main__":
    unittest.main()


class AskWithModelTest(CliTestCase):
    def test_ask_uses_the_model_given_by_flags(self):
        from agentic_rag.testing import OpenAICompatibleServer

        self.index()
        # A model that answers nothing usable: every component falls back, and the answer
        # stays honest (never answered without verified claims).
        with OpenAICompatibleServer(lambda request: "not json at all") as server:
            code, out, err = run_cli("ask", "Where was the founder of Acme Robotics born?", "--store", self.store,
                                     "--llm", server.url, "--model", "scripted", "--json")
        self.assertEqual(code, 0, err)
        payload = json.loads(out)
        self.assertIn(payload["status"], ("answered", "partial", "unanswerable"))
        for claim in payload["claims"]:
            self.assertTrue(claim["citations"])
        self.assertGreater(len(server.requests), 0)

    def test_model_flag_without_url(self):
        self.index()
        env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTIC_RAG_LLM")}
        old = dict(os.environ)
        os.environ.clear()
        os.environ.update(env)
        self.addCleanup(lambda: (os.environ.clear(), os.environ.update(old)))
        code, _, err = run_cli("ask", "x?", "--store", self.store, "--model", "m")
        self.assertEqual(code, 1)
        self.assertIn("AGENTIC_RAG_LLM_BASE_URL", err)
