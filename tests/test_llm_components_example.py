"""``examples/llm_pipeline.py``: usage message without an endpoint, both workflows with one."""

from __future__ import annotations

import os
import subprocess
import sys
import unittest
from pathlib import Path

from llm_scripts import GARBAGE, SAMPLE_WORLD, Oracle

from agentic_rag.testing import OpenAICompatibleServer

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "llm_pipeline.py"
VARIABLES = ("AGENTIC_RAG_LLM_BASE_URL", "AGENTIC_RAG_LLM_MODEL", "AGENTIC_RAG_LLM_API_KEY")


def run(**variables: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    env.update(variables)
    return subprocess.run([sys.executable, str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)


class ExampleScriptTest(unittest.TestCase):
    def test_without_an_endpoint_it_says_how_to_set_one(self) -> None:
        done = run()
        self.assertEqual(done.returncode, 2)
        self.assertEqual(done.stdout, "")
        for name in VARIABLES:
            self.assertIn(name, done.stderr)

    def test_both_workflows_against_a_server(self) -> None:
        with OpenAICompatibleServer(Oracle(SAMPLE_WORLD).payload_reply) as server:
            done = run(AGENTIC_RAG_LLM_BASE_URL=server.url, AGENTIC_RAG_LLM_MODEL="oracle")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("Status: answered; stop: sufficient", done.stdout)
        self.assertIn("Citations: 1, all verified", done.stdout)
        self.assertIn("none: every model answer was used as given", done.stdout)

    def test_a_garbage_model_still_finishes_and_reports_fallbacks(self) -> None:
        with OpenAICompatibleServer([GARBAGE]) as server:
            done = run(AGENTIC_RAG_LLM_BASE_URL=server.url, AGENTIC_RAG_LLM_MODEL="garbage")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("llm_planner: 1 event(s) (fallback)", done.stdout)
        self.assertIn("llm_generator: 1 event(s) (fallback)", done.stdout)


if __name__ == "__main__":
    unittest.main()
