"""Deadlines hold while a component is stuck, and a stuck component never holds up exit.

Regression tests: the agentic workflow only looked at its deadline between retriever calls (a
15 s retriever with ``deadline_s=1`` took 15 s), and a process that ran the parallel workflow
waited at exit for a branch thread still stuck in its retriever.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
import unittest
from pathlib import Path

from agentic_rag import AgenticRAGOrchestrator, Snippet
from agentic_rag._agentic import HeuristicPlanner, OrchestratorConfig
from agentic_rag._contracts import Corpus, RequiredFact, StopReason
from agentic_rag._errors import RetrievalError
from agentic_rag._retrieval.function_retriever import FunctionRetriever

SRC = str(Path(__file__).resolve().parents[1] / "src")
CORPORA = (Corpus("notes", "Notes about valves and pumps."),)


class StuckRetriever:
    """Answers the first ``fast`` calls at once, then blocks until released (or 15 s)."""

    def __init__(self, fast: int = 0) -> None:
        self.fast, self.calls = fast, 0
        self.release, self.entered = threading.Event(), threading.Event()

    def retrieve(self, query, k, *, corpus_ids=None):
        self.calls += 1
        if self.calls > self.fast:
            self.entered.set()
            self.release.wait(15)
        return (Snippet("", "notes", f"doc{self.calls}", f"The valve opens at {self.calls}0 bar."),)


class AgenticDeadlineTest(unittest.TestCase):
    def run_stuck(self, retriever, deadline_s):
        self.addCleanup(retriever.release.set)
        orchestrator = AgenticRAGOrchestrator(retriever=retriever, config=OrchestratorConfig(deadline_s=deadline_s))
        started = time.monotonic()
        run = orchestrator.run("At what pressure does the valve open?", CORPORA)
        return run, time.monotonic() - started

    def test_a_stuck_retriever_ends_the_run_at_the_deadline(self):
        run, elapsed = self.run_stuck(StuckRetriever(), 1.0)
        self.assertLess(elapsed, 3.0)
        self.assertIs(run.stop_reason, StopReason.DEADLINE)
        self.assertEqual(run.usage.retriever_calls, 1)

    def test_hits_found_before_the_deadline_are_kept(self):
        retriever = StuckRetriever(fast=1)
        self.addCleanup(retriever.release.set)
        # Two subqueries in the first round: the first answers, the second is stuck.
        planner = HeuristicPlanner((RequiredFact("f1", "valve pressure"), RequiredFact("f2", "pump speed")))
        orchestrator = AgenticRAGOrchestrator(retriever=retriever, planner=planner, config=OrchestratorConfig(deadline_s=0.5))
        started = time.monotonic()
        run = orchestrator.run("At what pressure does the valve open and how fast is the pump?", CORPORA)
        self.assertLess(time.monotonic() - started, 3.0)
        self.assertIs(run.stop_reason, StopReason.DEADLINE)
        self.assertIn("doc1", [s.document_id for s in run.snippets])

    def test_retriever_errors_still_surface_as_retrieval_errors(self):
        def broken(query, k):
            raise ValueError("index offline")

        orchestrator = AgenticRAGOrchestrator(retriever=FunctionRetriever(broken, corpus_id="notes"), config=OrchestratorConfig(deadline_s=5))
        with self.assertRaises(RetrievalError) as ctx:
            orchestrator.run("At what pressure does the valve open?", CORPORA)
        self.assertIn("index offline", str(ctx.exception))

    def test_without_a_deadline_the_retriever_runs_in_the_callers_thread(self):
        seen = []

        def record(query, k):
            seen.append(threading.current_thread())
            return ()

        AgenticRAGOrchestrator(retriever=FunctionRetriever(record, corpus_id="notes"), config=OrchestratorConfig(deadline_s=None)).run("valve pressure?", CORPORA)
        self.assertTrue(seen)
        self.assertTrue(all(t is threading.current_thread() for t in seen))


def run_script(body: str, timeout: float) -> tuple[subprocess.CompletedProcess, float]:
    body = textwrap.dedent(STUCK) + textwrap.dedent(body)
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", body], capture_output=True, text=True, timeout=timeout, env=env)
    return done, time.monotonic() - started


STUCK = """
    import time
    from agentic_rag import Snippet
    from agentic_rag._retrieval.function_retriever import FunctionRetriever

    def stuck(query, k):
        time.sleep(30)
        return ()

    def quick(query, k):
        return (Snippet("", "notes", "d1", "The valve opens at 40 bar."),)
"""


class ExitIsNotHeldUpTest(unittest.TestCase):
    def test_parallel_workflow_process_exits_with_a_branch_stuck(self):
        done, elapsed = run_script("""
            from agentic_rag._parallel import ExtractiveGenerator, ParallelRAGWorkflow, RAGRequest
            workflow = ParallelRAGWorkflow([FunctionRetriever(quick, corpus_id="notes", name="quick"),
                                            FunctionRetriever(stuck, corpus_id="notes", name="stuck")], generator=ExtractiveGenerator())
            result = workflow.run(RAGRequest("At what pressure does the valve open?", deadline_s=0.3))
            print([o.status.value for o in result.outcomes])
        """, timeout=8)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("timeout", done.stdout)
        self.assertLess(elapsed, 6.0, "the interpreter waited for the stuck branch at exit")

    def test_agentic_process_exits_with_a_retriever_stuck(self):
        done, elapsed = run_script("""
            from agentic_rag import AgenticRAGOrchestrator
            from agentic_rag._agentic import OrchestratorConfig
            from agentic_rag._contracts import Corpus
            run = AgenticRAGOrchestrator(retriever=FunctionRetriever(stuck, corpus_id="notes"), config=OrchestratorConfig(deadline_s=0.3)).run(
                "At what pressure does the valve open?", (Corpus("notes", "Notes."),))
            print(run.stop_reason.value)
        """, timeout=8)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("deadline", done.stdout)
        self.assertLess(elapsed, 6.0, "the run or the interpreter waited for the stuck retriever")


if __name__ == "__main__":
    unittest.main()
