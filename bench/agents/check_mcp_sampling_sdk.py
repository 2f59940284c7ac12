"""Check ``agentic-rag mcp --llm sampling`` with the official ``mcp`` Python SDK client's sampling callback.

Uses the same private virtual environment as ``bench/agents/check_mcp_sdk.py`` (default
``bench/.cache/mcp-sdk-venv``, ignored by git; created and the ``mcp`` package installed from
PyPI when missing). Indexes the bundled sample corpus into a temporary store, then drives
``python -m agentic_rag mcp --store STORE --llm sampling`` (started with the interpreter running
this script: the server needs only the standard library) with the SDK's stdio client:

- ``oracle``: handshake, a sampling callback that answers every role correctly (the scripted
  oracle of ``tests/llm_scripts.py``): ``ask`` must be answered with cited claims, and its
  ``model`` must say the client's model answered every call;
- ``garbage``: a callback that answers prose no schema accepts: repair rounds are sent, the
  components fall back, and the answer holds none of the garbage;
- ``no-sampling``: no callback, so no ``sampling`` capability: the answer is deterministic and
  ``model.reason`` says why;
- ``stateless``: the SDK's ``mode="2026-07-28"`` with a callback: that revision has no session
  for server-to-client requests (it moves them into multi round-trip results, which the server
  does not implement), so the answer is deterministic with the reason.

Prints one JSON summary on stdout (diagnostics on stderr). Exit codes: 0 every check passed,
1 a check failed, 2 the environment could not be set up.

    python bench/agents/check_mcp_sampling_sdk.py [--venv DIR] [--requirement SPEC] [--reinstall]

The SDK is never imported by ``src/``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # the bench package (repository root)
from bench.agents.check_mcp_sdk import DEFAULT_VENV, _setup  # noqa: E402  (the shared SDK environment)

SCENARIOS = ("oracle", "garbage", "no-sampling", "stateless")
QUESTION = "Where was the founder of Acme Robotics born?"
TIMEOUT_S = 120
# The oracle knows documents, the store cites chunks: the callback names each chunk "path:n".
STORE_IDS = {"acme-robotics": "company-records/acme-robotics.md:0", "jane-doe": "biographies/jane-doe.md:0"}
CHUNK_ID = re.compile(r'id="[^"/]+/([^"#]+)#(\d+)"')


def _index_sample(store: Path) -> Path:
    """Index the bundled sample corpus into ``store``; returns the folder paths are relative to."""
    sys.path.insert(0, str(ROOT / "src"))
    from agentic_rag._samples import sample_corpora, sample_folder
    from agentic_rag._store import KnowledgeStore

    root = sample_folder()
    knowledge = KnowledgeStore(store, base=root)
    for corpus in sample_corpora():
        knowledge.index(root / corpus.id, corpus=corpus.id, description=corpus.description)
    return root


def _client_main(server_python: str, store: str, base: str) -> int:
    """Runs inside the venv: drive the server with the SDK client in each scenario."""
    import dataclasses
    import importlib.metadata

    import anyio
    from mcp import Client, StdioServerParameters
    from mcp import types

    sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]
    from llm_scripts import GARBAGE, SAMPLE_WORLD, Oracle

    world = dataclasses.replace(SAMPLE_WORLD, evidence=tuple(dataclasses.replace(e, document_id=STORE_IDS[e.document_id]) for e in SAMPLE_WORLD.evidence))
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), PYTHONUTF8="1")
    params = StdioServerParameters(command=server_python, args=["-m", "agentic_rag", "mcp", "--store", store, "--llm", "sampling"], env=env, cwd=base)

    async def check(scenario: str) -> dict:
        report: dict = {"problems": [], "sampling_requests": 0, "repair_requests": 0}

        def expect(condition: bool, what: str) -> None:
            if not condition:
                report["problems"].append(what)

        oracle = Oracle(world)

        async def sample(context, request: types.CreateMessageRequestParams) -> types.CreateMessageResult:
            report["sampling_requests"] += 1
            texts = [m.content.text for m in request.messages if getattr(m.content, "type", "") == "text"]
            if texts and "not valid for the required JSON schema" in texts[-1]:
                report["repair_requests"] += 1
            if scenario == "garbage":
                text = GARBAGE
            else:
                user = CHUNK_ID.sub(lambda m: f'id="c/{m.group(1)}:{m.group(2)}#{m.group(2)}"', texts[0])
                text = oracle.reply(request.system_prompt or "", user)
            return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text=text), model="sdk-callback", stop_reason="endTurn")

        callback = None if scenario == "no-sampling" else sample
        mode = "2026-07-28" if scenario == "stateless" else "legacy"
        with anyio.fail_after(TIMEOUT_S):
            async with Client(params, mode=mode, read_timeout_seconds=TIMEOUT_S, sampling_callback=callback) as client:
                report["protocol_version"] = client.protocol_version
                result = await client.call_tool("ask", {"question": QUESTION})
                answer = result.structured_content or {}
                model = answer.get("model", {})
                cited = [c for claim in answer.get("claims", []) for c in claim["citations"]]
                report.update(is_error=result.is_error, status=answer.get("status"), answer=answer.get("answer"), citations=len(cited), model=model)
                expect(not result.is_error, "ask returned a result")
                if scenario == "oracle":
                    expect(answer.get("status") == "answered" and cited, "ask is answered with citations")
                    expect("Lyon" in answer.get("answer", ""), "the answer names Lyon")
                    expect(model.get("used") is True and model.get("failed_calls") == 0, "the client's model answered every call")
                    expect(model.get("calls") == report["sampling_requests"] > 0, "model.calls counts the sampling requests")
                elif scenario == "garbage":
                    expect(report["repair_requests"] > 0, "repair rounds were sent")
                    expect(GARBAGE not in answer.get("answer", ""), "no garbage in the answer")
                    expect(all(claim["citations"] for claim in answer.get("claims", [])), "every claim is cited")
                elif scenario == "no-sampling":
                    expect(report["sampling_requests"] == 0, "no sampling request without the capability")
                    expect(model.get("used") is False and "did not declare" in model.get("reason", ""), "model says the capability is missing")
                    expect(answer.get("status") == "answered", "the deterministic components answer")
                else:
                    expect(report["sampling_requests"] == 0, "no sampling request in a stateless request")
                    expect(model.get("used") is False and "stateless" in model.get("reason", ""), "model says the request is stateless")
        report["ok"] = not report["problems"]
        return report

    async def run_all() -> dict:
        out = {}
        for scenario in SCENARIOS:
            try:
                out[scenario] = await check(scenario)
            except Exception as exc:  # report every scenario, whatever breaks
                out[scenario] = {"ok": False, "problems": [f"{type(exc).__name__}: {exc}"]}
        return out

    scenarios = anyio.run(run_all)
    summary = {
        "mcp_sdk_version": importlib.metadata.version("mcp"),
        "client_python": sys.version.split()[0],
        "scenarios": scenarios,
        "ok": all(s["ok"] for s in scenarios.values()),
    }
    print(json.dumps(summary, indent=2, sort_keys=True))
    return 0 if summary["ok"] else 1


def main(argv: list[str] | None = None) -> int:
    """Set up the venv, index the sample corpus and run the client check in the venv.

    Returns:
        0 when every check passed, 1 when one failed, 2 when setup failed.
    """
    parser = argparse.ArgumentParser(description="Check `agentic-rag mcp --llm sampling` with the mcp SDK client's sampling callback (JSON summary on stdout).")
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV, help=f"virtual environment for the SDK (default {DEFAULT_VENV.relative_to(ROOT)})")
    parser.add_argument("--requirement", default="mcp", help="pip requirement for the SDK (default: mcp, the latest release)")
    parser.add_argument("--reinstall", action="store_true", help="upgrade the SDK even when it is already installed")
    parser.add_argument("--client", nargs=3, metavar=("SERVER_PYTHON", "STORE", "BASE"), help=argparse.SUPPRESS)  # internal: run inside the venv
    args = parser.parse_args(argv)
    if args.client:
        return _client_main(*args.client)
    try:
        python = _setup(args.venv, args.requirement, args.reinstall)
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"error: could not set up the SDK environment: {exc}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="agentic-rag-sampling-check-") as tmp:
        store = Path(tmp) / "store"
        base = _index_sample(store)
        try:
            done = subprocess.run([str(python), str(Path(__file__).resolve()), "--client", sys.executable, str(store), str(base)],
                                  timeout=TIMEOUT_S * len(SCENARIOS) + 60, check=False)
        except subprocess.TimeoutExpired:
            print("error: the SDK sampling check timed out", file=sys.stderr)
            return 1
    return 1 if done.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
