"""Check agentic-rag's MCP server with the official ``mcp`` Python SDK client.

Creates a private virtual environment (default ``bench/.cache/mcp-sdk-venv``, ignored by git),
installs the ``mcp`` package from PyPI into it, and runs the SDK's stdio client against
``python -m agentic_rag._interfaces.mcp_demo`` (started with the interpreter
running this script, which does not have the SDK: the server needs only the standard
library). It connects three ways: ``mode="legacy"`` (initialize handshake), ``mode="auto"``
(``server/discover`` probe, so the stateless 2026-07-28 revision) and a pinned
``mode="2026-07-28"``; each lists the tools, calls ``search``, ``ask`` (both workflows) and
``list_corpora``, sends bad arguments (expects ``isError``) and an unknown tool (expects
JSON-RPC error -32602).

Prints one JSON summary on stdout (diagnostics on stderr). Exit codes: 0 every check
passed, 1 a check failed, 2 the environment could not be set up.

    python bench/agents/check_mcp_sdk.py [--venv DIR] [--requirement SPEC] [--reinstall]

The SDK is never imported by ``src/``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_VENV = ROOT / "bench" / ".cache" / "mcp-sdk-venv"
MODES = ("legacy", "auto", "2026-07-28")
EXPECTED_VERSION = {"legacy": "2025-11-25", "auto": "2026-07-28", "2026-07-28": "2026-07-28"}
TIMEOUT_S = 60


def _venv_python(folder: Path) -> Path:
    return folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _setup(folder: Path, requirement: str, reinstall: bool) -> Path:
    python = _venv_python(folder)
    if not python.exists():
        print(f"creating {folder}", file=sys.stderr)
        venv.EnvBuilder(with_pip=True, clear=True).create(folder)
    has_sdk = subprocess.run([str(python), "-c", "import mcp.client"], capture_output=True, timeout=120).returncode == 0
    if reinstall or not has_sdk:
        print(f"installing {requirement} into {folder}", file=sys.stderr)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--upgrade", requirement], check=True, timeout=900, stdout=sys.stderr)
    return python


def _client_main(server_python: str) -> int:
    """Runs inside the venv: drive the server with the SDK client in each mode."""
    import importlib.metadata

    import anyio
    from mcp import Client, StdioServerParameters
    from mcp.shared.exceptions import MCPError

    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), PYTHONUTF8="1")
    params = StdioServerParameters(command=server_python, args=["-m", "agentic_rag._interfaces.mcp_demo"], env=env, cwd=str(ROOT))

    async def check(mode: str) -> dict:
        report: dict = {"problems": []}

        def expect(condition: bool, what: str) -> None:
            if not condition:
                report["problems"].append(what)

        with anyio.fail_after(TIMEOUT_S):
            async with Client(params, mode=mode, read_timeout_seconds=TIMEOUT_S) as client:
                report["protocol_version"] = client.protocol_version
                expect(client.protocol_version == EXPECTED_VERSION[mode], f"negotiated {client.protocol_version}, expected {EXPECTED_VERSION[mode]}")
                info = client.server_info
                report["server_info"] = None if info is None else {"name": info.name, "version": info.version}
                if mode in ("legacy", "auto"):  # a pinned version skips discover, so the client holds no serverInfo
                    expect(info is not None and info.name == "agentic-rag", "serverInfo names agentic-rag")
                tools = (await client.list_tools()).tools
                report["tools"] = [t.name for t in tools]
                expect(report["tools"] == ["search", "ask", "list_corpora"], "tools are search, ask, list_corpora")
                expect(all(t.output_schema for t in tools), "every tool has an outputSchema")

                search = await client.call_tool("search", {"query": "Acme Robotics founded", "k": 3})
                hits = (search.structured_content or {}).get("hits", [])
                report["search"] = {"is_error": search.is_error, "hits": len(hits), "top": hits[0]["path"] if hits else None}
                expect(not search.is_error and hits and hits[0]["path"] == "company-records/acme-robotics.md", "search finds the Acme record first")

                for workflow in ("agentic", "parallel"):
                    ask = await client.call_tool("ask", {"question": "When was Acme Robotics founded?", "mode": workflow})
                    answer = ask.structured_content or {}
                    cited = [c for claim in answer.get("claims", []) for c in claim["citations"]]
                    report[f"ask_{workflow}"] = {"is_error": ask.is_error, "status": answer.get("status"), "citations": len(cited), "answer": answer.get("answer")}
                    expect(not ask.is_error and answer.get("status") in ("answered", "partial") and cited, f"ask ({workflow}) gives a cited answer")
                    expect("2001" in answer.get("answer", ""), f"ask ({workflow}) finds the founding year")

                corpora = await client.call_tool("list_corpora", {})
                report["corpora"] = [c["id"] for c in (corpora.structured_content or {}).get("corpora", [])]
                expect(report["corpora"] == ["biographies", "company-records", "recipes"], "list_corpora lists the three sample corpora")

                bad = await client.call_tool("search", {"query": "x", "k": 0})
                report["bad_arguments_is_error"] = bad.is_error
                expect(bad.is_error, "bad arguments give isError")
                try:
                    unknown = await client.call_tool("no_such_tool", {})
                    report["unknown_tool"] = {"is_error": unknown.is_error}
                    report["problems"].append("an unknown tool must be a JSON-RPC error")
                except MCPError as exc:
                    report["unknown_tool"] = {"error_code": exc.code}
                    expect(exc.code == -32602, f"unknown tool gives -32602, got {exc.code}")
        report["ok"] = not report["problems"]
        return report

    async def run_all() -> dict:
        modes = {}
        for mode in MODES:
            try:
                modes[mode] = await check(mode)
            except Exception as exc:  # report every mode, whatever breaks
                modes[mode] = {"ok": False, "problems": [f"{type(exc).__name__}: {exc}"]}
        return modes

    modes = anyio.run(run_all)
    summary = {
        "mcp_sdk_version": importlib.metadata.version("mcp"),
        "client_python": sys.version.split()[0],
        "server_python": server_python,
        "modes": modes,
        "ok": all(m["ok"] for m in modes.values()),
    }
    print(json.dumps(summary, indent=2, sort_keys=True))
    return 0 if summary["ok"] else 1


def main(argv: list[str] | None = None) -> int:
    """Set up the venv and run the client check in it.

    Returns:
        0 when every check passed, 1 when one failed, 2 when setup failed.
    """
    parser = argparse.ArgumentParser(description="Check the MCP server with the official mcp SDK client (JSON summary on stdout).")
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV, help=f"virtual environment for the SDK (default {DEFAULT_VENV.relative_to(ROOT)})")
    parser.add_argument("--requirement", default="mcp", help="pip requirement for the SDK (default: mcp, the latest release)")
    parser.add_argument("--reinstall", action="store_true", help="upgrade the SDK even when it is already installed")
    parser.add_argument("--client", metavar="SERVER_PYTHON", help=argparse.SUPPRESS)  # internal: run inside the venv
    args = parser.parse_args(argv)
    if args.client:
        return _client_main(args.client)
    try:
        python = _setup(args.venv, args.requirement, args.reinstall)
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"error: could not set up the SDK environment: {exc}", file=sys.stderr)
        return 2
    try:
        done = subprocess.run([str(python), str(Path(__file__).resolve()), "--client", sys.executable], timeout=TIMEOUT_S * len(MODES) + 60, check=False)
    except subprocess.TimeoutExpired:
        print("error: the SDK check timed out", file=sys.stderr)
        return 1
    return 1 if done.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
