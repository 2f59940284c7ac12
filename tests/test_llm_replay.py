"""Real model output in CI: both workflows replayed from a recording of SmolLM2-135M-Instruct.

``tests/cassettes/smollm2_135m.jsonl`` holds every HTTP exchange of ``bench/answers/bench_llm.py``
against llama-cpp-python's server (started with ``bash bench/answers/llm_server.sh start``), recorded
with :class:`~agentic_rag.llm.recording.RecordingTransport`. Replaying it sends the same
requests and gets the model's real answers back, so every path is exercised on real output:
the server refuses ``json_schema`` (HTTP 500, not retried), the client switches to the schema
inside JSON mode, invalid answers get a repair round, and answers still invalid or unusable
fall back to the deterministic components. Whatever the model said, no claim survives without
a verified citation and nothing unsupported is ANSWERED.

Re-record after changing a prompt, schema or workflow (the requests change, so the replay
would miss them)::

    bash bench/answers/llm_server.sh start
    python bench/answers/bench_llm.py --base-url http://127.0.0.1:8765/v1 --model SmolLM2-135M-Instruct \\
        --record tests/cassettes/smollm2_135m.jsonl
    bash bench/answers/llm_server.sh stop
"""

from __future__ import annotations

import importlib.util
import json
import sys
import unittest
from pathlib import Path

from agentic_rag._contracts import AnswerStatus
from agentic_rag.llm import HttpOptions, OpenAICompatibleLLM
from agentic_rag.llm.recording import RecordingTransport

ROOT = Path(__file__).resolve().parents[1]
CASSETTE = ROOT / "tests" / "cassettes" / "smollm2_135m.jsonl"
BENCH = ROOT / "bench" / "answers" / "bench_llm.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("agentic_rag_bench_llm", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being built
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def recorded_endpoint() -> tuple[str, str]:
    """The base URL and model name the cassette was recorded with."""
    with CASSETTE.open(encoding="utf-8") as handle:
        first = json.loads(handle.readline())
    url = first["request"]["url"]
    return url[: -len("/chat/completions")], json.loads(first["request"]["body"])["model"]


@unittest.skipUnless(CASSETTE.exists() and BENCH.exists(), "the cassette and bench/answers/bench_llm.py ship with the repository")
class ReplayTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.bench = load_bench()
        base_url, model = recorded_endpoint()
        cls.calls = []
        cls.runs = {}
        cls.clients = {}
        transport = RecordingTransport(CASSETTE, mode="replay")
        for name in cls.bench.SCENARIOS:
            llm = OpenAICompatibleLLM(base_url, model, max_retries=1, json_mode=cls.bench._JSON_MODES[name],
                                      http=HttpOptions(transport=transport, sleep=lambda _s: None))
            cls.clients[name] = llm
            cls.runs[name] = cls.bench.run_scenario(name, llm, cls.calls)

    def test_the_refused_json_schema_format_is_not_retried_and_switches_mode(self) -> None:
        llm = self.clients["auto"]
        refused = [a for a in llm.attempts if a.status == 500]
        self.assertEqual(len(refused), 1, llm.attempts[:3])
        self.assertIn("json_object", refused[0].error)
        self.assertIsNone(refused[0].retry_delay_s)
        self.assertEqual(self.runs["auto"].json_mode_after, "json_object_schema")
        self.assertEqual(self.runs["plain"].json_mode_after, "json_object")

    def test_every_path_is_taken_on_real_output(self) -> None:
        firsts = [c for c in self.calls if not c.repair]
        repairs = [c for c in self.calls if c.repair]
        fallbacks = sum(n for run in self.runs.values() for n in run.fallbacks.values())
        self.assertTrue(any(c.valid for c in firsts), "some answer is valid on the first try")
        self.assertTrue(any(not c.valid for c in firsts), "some answer needs the repair round")
        self.assertTrue(repairs, "the repair round is sent")
        self.assertGreater(fallbacks, 0, "some role falls back to its deterministic component")

    def test_no_claim_survives_without_a_verified_citation(self) -> None:
        for name, run in self.runs.items():
            with self.subTest(scenario=name):
                self.assertEqual(self.bench.check_run(run), [])

    def test_never_answered_on_unsupported_text(self) -> None:
        for name, run in self.runs.items():
            with self.subTest(scenario=name):
                answer = run.agentic.answer
                if answer.status is AnswerStatus.ANSWERED:
                    self.assertTrue(answer.claims)
                    self.assertTrue(run.agentic.iterations[-1].assessment.is_sufficient)
                for claim in answer.claims:
                    self.assertTrue(claim.citations)


if __name__ == "__main__":
    unittest.main()
