"""One question reader for both workflows: clauses, compound parts, comparisons, query folding."""

from __future__ import annotations

import ast
import unittest
from pathlib import Path

from agentic_rag._agentic.planner import HeuristicPlanner
from agentic_rag._parallel.binding import BoundRetriever, plan_views
from agentic_rag._parallel.contracts import RewriteResult, ViewKind
from agentic_rag._parallel.rewriters import DecompositionRewriter
from agentic_rag._retrieval.function_retriever import FunctionRetriever
from agentic_rag._text.analyzer import Analyzer
from agentic_rag._text.questions import QUESTION_WORDS, anchor_entity, find_comparison, fold_query, split_clauses, split_compound

SRC = Path(__file__).resolve().parents[1] / "src" / "agentic_rag"


class ClauseSplitTest(unittest.TestCase):
    def test_clauses_end_at_semicolons_question_marks_and_joined_questions(self):
        self.assertEqual(split_clauses("What is RRF? How is it computed?"), ("What is RRF", "How is it computed"))
        self.assertEqual(split_clauses("tides; moon phases"), ("tides", "moon phases"))
        self.assertEqual(split_clauses("Who founded Apple and when did it go public?"), ("Who founded Apple", "when did it go public"))
        self.assertEqual(split_clauses("bread and butter"), ("bread and butter",))
        self.assertEqual(split_clauses("  "), ())

    def test_one_word_list_for_both_workflows(self):
        # "whose" and "can" were known to the decomposition rewriter only.
        self.assertIn("whose", QUESTION_WORDS)
        self.assertIn("can", QUESTION_WORDS)
        self.assertEqual(split_compound("Who owns Acme Robotics and whose idea was it?"), ("Who owns Acme Robotics?", "Whose idea was Acme Robotics?"))
        self.assertEqual(split_compound("When was Acme founded and can it be bought?"), ("When was Acme founded?", "Can Acme be bought?"))

    def test_decomposition_uses_the_same_clauses(self):
        for question in ("Who owns Acme Robotics and whose idea was it?", "When was Acme founded and can it be bought?", "tides; moon phases"):
            with self.subTest(question=question):
                self.assertEqual(DecompositionRewriter.decompose(question), list(split_clauses(question)))

    def test_compound_parts_split_only_at_joined_questions(self):
        # A second sentence leans on the first for its subject: one question, one fact.
        question = "When the tojson filter serializes a dict, are the keys ordered? Which keyword argument is passed by default?"
        self.assertEqual(split_compound(question), (question,))
        self.assertEqual(len(split_clauses(question)), 2)


class ComparisonTest(unittest.TestCase):
    analyzer = Analyzer()

    def test_worded_comparisons_are_read_by_the_planner_too(self):
        cases = {
            "Is BM25 faster than dense retrieval?": (("BM25", "dense retrieval"), "faster"),
            "What is the difference between BM25 and dense retrieval?": (("BM25", "dense retrieval"), ""),
            "Compare Python with Rust": (("Python", "Rust"), ""),
            "Which is older, the Eiffel Tower or the Statue of Liberty?": (("the Eiffel Tower", "the Statue of Liberty"), "older"),
        }
        for question, (items, aspect) in cases.items():
            with self.subTest(question=question):
                comparison = find_comparison(question, self.analyzer)
                self.assertEqual((comparison.items, comparison.aspect), (items, aspect))
                facts = HeuristicPlanner().derive_facts(question)
                self.assertEqual(tuple(f.required_terms for f in facts), tuple((item,) for item in items))

    def test_named_items_come_before_worded_forms(self):
        # The "X vs Y" wording alone would take "Cobalt Foods: which is older" as an item.
        self.assertEqual(DecompositionRewriter.decompose("Acme Robotics vs Cobalt Foods: which is older?"), ["Acme Robotics older", "Cobalt Foods older"])


class SlashTokenTest(unittest.TestCase):
    """A token joined by a slash is never cut: "HTTP/3 over QUIC" once became "How do I turn HTTP on?"."""

    analyzer = Analyzer()

    def test_the_issue_example_keeps_http_3_in_the_second_part(self):
        question = "Does httpx support HTTP/3 over QUIC, and how do I turn it on?"
        self.assertEqual(split_compound(question), ("Does httpx support HTTP/3 over QUIC?", "How do I turn HTTP/3 on?"))
        facts = HeuristicPlanner().derive_facts(question)
        self.assertEqual([f.description for f in facts], ["Does httpx support HTTP/3 over QUIC?", "How do I turn HTTP/3 on?"])

    def test_a_pronoun_takes_the_whole_token(self):
        cases = {
            "Is TCP/IP used and how is it configured?": ("Is TCP/IP used?", "How is TCP/IP configured?"),
            "Is Read/Write the default mode, and how do I change it?": ("Is Read/Write the default mode?", "How do I change Read/Write?"),
            "Does Input/Output buffering apply and when is it flushed?": ("Does Input/Output buffering apply?", "When is Input/Output flushed?"),
        }
        for question, parts in cases.items():
            with self.subTest(question=question):
                self.assertEqual(split_compound(question), parts)

    def test_lower_case_tokens_stay_whole_in_every_part(self):
        for question, token in (("Does the client take a path and/or a URL, and how is it passed?", "and/or"),
                                ("Is the file opened read/write and when is it closed?", "read/write"),
                                ("Which is slower, input/output or parsing?", "input/output")):
            with self.subTest(question=question):
                parts = split_compound(question)
                self.assertEqual(sum(token in part for part in parts), 1)
                self.assertFalse(any(p.startswith(("Or", "Write", "Output")) for p in parts))
                comparison = find_comparison(question, self.analyzer)
                if comparison is not None:
                    self.assertIn(token, comparison.items)

    def test_compared_items_and_anchors_are_whole_tokens(self):
        comparison = find_comparison("Which is faster, TCP/IP or QUIC?", self.analyzer)
        self.assertEqual(comparison.items, ("TCP/IP", "QUIC"))
        self.assertEqual(anchor_entity("Where was the author of the HTTP/2 specification born?"), "HTTP/2")
        self.assertEqual(anchor_entity("Who wrote Read/Write Mode Guide?"), "Read/Write Mode Guide")


class FoldQueryTest(unittest.TestCase):
    def test_case_space_and_end_punctuation_are_ignored(self):
        self.assertEqual(fold_query("  Who founded   ACME?! "), "who founded acme")
        self.assertEqual(fold_query("Who founded Acme?"), fold_query("who founded acme"))
        self.assertNotEqual(fold_query("who founded acme"), fold_query("who founded acme robotics"))

    def test_the_parallel_binding_drops_a_view_that_is_the_query_again(self):
        bound = [BoundRetriever(name="r", retriever=FunctionRetriever(lambda q, k, corpus_ids=None: ()), is_vector=False)]
        plan = plan_views("What causes tides?", RewriteResult(queries=("what causes tides", "moon gravity")), bound)
        self.assertEqual([(v.text, v.kind) for v, _ in plan], [("What causes tides?", ViewKind.ORIGINAL), ("moon gravity", ViewKind.REWRITTEN)])


class WorkflowImportsTest(unittest.TestCase):
    def test_the_two_workflows_do_not_import_each_other(self):
        for package, other in (("_agentic", "agentic_rag._parallel"), ("_parallel", "agentic_rag._agentic")):
            for path in sorted((SRC / package).rglob("*.py")):
                tree = ast.parse(path.read_text(encoding="utf-8"))
                imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
                imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
                with self.subTest(module=path.name, package=package):
                    self.assertEqual([m for m in imported if m == other or m.startswith(other + ".")], [])


if __name__ == "__main__":
    unittest.main()


class SituationIsContextTest(unittest.TestCase):
    def test_only_the_asked_clauses_are_parts(self) -> None:
        question = "Tab completion doesn't work when I run my tool as python cli.py. Why, and how do I declare an entry point so it will?"
        why, how = split_compound(question)
        self.assertEqual(why, "Why tab completion doesn't work when I run my tool as python cli.py?")
        # "it" leans on the situation, which the part carries as told; no word of it is made
        # a name ("so Tab will").
        self.assertEqual(how, "Tab completion doesn't work when I run my tool as python cli.py. How do I declare an entry point so it will?")

    def test_a_situation_before_two_questions_is_no_part(self) -> None:
        question = ("Block tags leave empty lines in my output. Which environment option drops the newline after a tag, "
                    "and which one strips the spaces in front of a tag?")
        self.assertEqual(split_compound(question), ("Which environment option drops the newline after a tag?", "Which one strips the spaces in front of a tag?"))

    def test_one_question_keeps_its_situation(self) -> None:
        question = "A .bz2 file was made with the default -9 setting. Roughly how much memory will bunzip2 need to unpack it?"
        self.assertEqual(split_compound(question), (question,))
