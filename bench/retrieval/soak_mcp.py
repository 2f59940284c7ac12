"""Soak the MCP server: 10,000 mixed requests over stdio from one client, memory and latency
recorded at the start and at the end.

Indexes the bundled sample corpus into a store in a temporary folder (with the vector index, so
``ask`` works in both modes), starts the real server (``python -m agentic_rag mcp --store DIR``)
as a child process on pipes, performs the handshake, then sends requests one at a time, each
answered before the next is sent:

- valid: ``tools/list``, ``tools/call`` of ``search``, ``ask`` (agentic and parallel) and
  ``list_corpora``, ``ping``;
- malformed: truncated or garbled JSON, a bare value, a batch array, a wrong ``jsonrpc``;
- unknown methods, an unknown tool, arguments that fail the tool's schema;
- large: a 20,000-character query, an arguments object with 2,000 keys;
- notifications (no answer expected).

Every answer is checked (one JSON-RPC response with the request's id; no ``-32603`` internal
error). The server's resident memory (``VmRSS`` from ``/proc``) is read after the warm-up (the
first 200 requests) and at the end; latency p50/p99 is reported for the first and the last
1,000 requests. The run stops by itself: after the requests, at the time budget, or when the
server fails to answer within 30 s (then it is killed and the run reported as failed).

Run: ``python bench/retrieval/soak_mcp.py`` (``--requests N``, ``--seconds S``, ``--seed N``,
``--no-write`` to leave ``docs/benchmarks.md`` alone). Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.benchmark_doc import replace_section  # noqa: E402

from agentic_rag._samples import sample_folder  # noqa: E402

START = "<!-- bench:soak-mcp -->"
END = "<!-- /bench:soak-mcp -->"
WARMUP = 200
WINDOW = 1000
ANSWER_TIMEOUT_S = 30.0
QUESTIONS = ("Where was Jane Doe born?", "Who founded Acme Robotics?", "How long does sourdough proof?",
             "What does Borealis Analytics sell?", "When did Mark Roe move to Oslo?", "What is in a bechamel sauce?")
# (kind, weight): the mix of requests
MIX = (("tools/list", 12), ("search", 30), ("ask", 6), ("list_corpora", 4), ("ping", 4), ("malformed", 12),
       ("unknown method", 8), ("bad params", 8), ("large", 6), ("notification", 10))


def rss_kib(pid: int) -> int:
    """The process's resident set size in KiB (``VmRSS``), 0 when it cannot be read."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def make_request(kind: str, rid: int, rng: random.Random) -> tuple[str, bool]:
    """One request line of ``kind`` and whether an answer is expected."""
    def rpc(method: str, params: dict[str, Any] | None = None) -> str:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            message["params"] = params
        return json.dumps(message)

    def call(name: str, arguments: Any) -> str:
        return rpc("tools/call", {"name": name, "arguments": arguments})

    if kind == "tools/list":
        return rpc("tools/list"), True
    if kind == "search":
        query = rng.choice(QUESTIONS + ("sourdough starter", "robotics founder", "Lyon", "zzz unknown words"))
        return call("search", {"query": query, "k": rng.choice((1, 3, 5, 10))}), True
    if kind == "ask":
        return call("ask", {"question": rng.choice(QUESTIONS), "mode": rng.choice(("agentic", "parallel"))}), True
    if kind == "list_corpora":
        return call("list_corpora", {}), True
    if kind == "ping":
        return rpc("ping"), True
    if kind == "malformed":
        valid = rpc("tools/list")
        return rng.choice((valid[: rng.randint(1, len(valid) - 1)], valid.replace(":", "", 1), "{", "nonsense", "42", "[]",
                           f"[{valid}]", valid.replace('"2.0"', '"1.0"'), '{"jsonrpc": "2.0", "id": {}, "method": "ping"}')), True
    if kind == "unknown method":
        return rpc(rng.choice(("resources/list", "prompts/get", "tools/delete", "x" * 200))), True
    if kind == "bad params":
        return rng.choice((call("no_such_tool", {}), call("search", {"query": 7}), call("search", {"k": -1}),
                           call("ask", {"question": "", "mode": "fastest"}), rpc("tools/call", {"name": ["search"]}))), True
    if kind == "large":
        if rng.random() < 0.5:
            words = " ".join(rng.choice(("robot", "sourdough", "Jane", "born", "acme", "the", "of")) for _ in range(3300))
            return call("search", {"query": words[:20000], "k": 5}), True
        return call("search", {"query": "acme", **{f"extra_{i}": "x" * 10 for i in range(2000)}}), True
    return json.dumps({"jsonrpc": "2.0", "method": rng.choice(("notifications/initialized", "notifications/cancelled", "x/y"))}), False


class Client:
    """One stdio client of the server child process."""

    def __init__(self, store: Path, stderr_path: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.stderr = stderr_path.open("wb")
        self.process = subprocess.Popen([sys.executable, "-m", "agentic_rag", "mcp", "--store", str(store)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.stderr, env=env, cwd=str(store.parent))
        self.buffer = b""

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode("utf-8") + b"\n")
        self.process.stdin.flush()

    def receive(self, timeout: float) -> str:
        """The next answer line, or raise ``TimeoutError``."""
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                raise TimeoutError(f"no answer within {timeout:.0f} s")
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise EOFError("the server closed its output")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8")

    def close(self) -> int | None:
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
            return self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()
        finally:
            self.stderr.close()


def build_store(folder: Path) -> Path:
    store = folder / "store"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    subprocess.run([sys.executable, "-m", "agentic_rag", "index", "--store", str(store), "--vectors", "--quiet", str(sample_folder())],
                   check=True, env=env, stdout=subprocess.DEVNULL, cwd=str(folder))
    return store


def soak(requests: int, seconds: float, seed: int) -> dict[str, Any]:
    """Run the soak; return the measurements."""
    deadline = time.monotonic() + seconds
    rng = random.Random(seed)
    kinds, weights = zip(*MIX)
    with tempfile.TemporaryDirectory(prefix="agentic-rag-soak-") as tmp:
        folder = Path(tmp)
        store = build_store(folder)
        client = Client(store, folder / "server.log")
        latencies: list[tuple[str, float]] = []  # (kind, seconds) of answered requests, in order
        counts: dict[str, int] = {}
        codes: dict[int, int] = {}
        problems: list[str] = []
        rss_start = rss_end = rss_peak = 0
        rss_trace: list[tuple[int, int]] = []  # (requests sent, KiB) every 1,000 requests
        sent = 0
        stopped = "all requests sent"
        try:
            client.send(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                                    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "soak", "version": "1"}}}))
            client.receive(ANSWER_TIMEOUT_S)
            client.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            rss_boot = rss_kib(client.process.pid)
            for rid in range(1, requests + 1):
                if time.monotonic() >= deadline:
                    stopped = f"time budget of {seconds:.0f} s reached"
                    break
                kind = rng.choices(kinds, weights)[0]
                line, answered = make_request(kind, rid, rng)
                started = time.perf_counter()
                client.send(line)
                sent += 1
                counts[kind] = counts.get(kind, 0) + 1
                if answered:
                    answer = json.loads(client.receive(ANSWER_TIMEOUT_S))
                    latencies.append((kind, time.perf_counter() - started))
                    error = answer.get("error")
                    if error is not None:
                        codes[error["code"]] = codes.get(error["code"], 0) + 1
                        if error["code"] == -32603:
                            problems.append(f"request {rid} ({kind}): internal error {error.get('message')!r}")
                    if answer.get("id") not in (rid, None) or (answer.get("id") is None and error is None):
                        problems.append(f"request {rid} ({kind}): answer id {answer.get('id')!r}")
                    if kind in ("search", "ask", "list_corpora", "tools/list", "ping", "large") and error is not None:
                        problems.append(f"request {rid} ({kind}): error {error.get('code')} {str(error.get('message'))[:100]}")
                    if answer.get("result", {}).get("isError") and kind in ("search", "ask", "list_corpora"):
                        problems.append(f"request {rid} ({kind}): tool error {json.dumps(answer['result'])[:200]}")
                if sent == WARMUP:
                    rss_start = rss_kib(client.process.pid)
                if sent % 1000 == 0:
                    rss_trace.append((sent, rss_kib(client.process.pid)))
                    rss_peak = max(rss_peak, rss_trace[-1][1])
            rss_end = rss_kib(client.process.pid)
            rss_peak = max(rss_peak, rss_end)
        except (TimeoutError, EOFError) as exc:
            stopped = f"stopped: {exc}"
            problems.append(stopped)
        finally:
            exit_code = client.close()
    first = [s for _, s in latencies[:WINDOW]]
    last = [s for _, s in latencies[-WINDOW:]]
    by_kind: dict[str, list[float]] = {}
    for kind, s in latencies:
        by_kind.setdefault(kind, []).append(s)
    return {"sent": sent, "answered": len(latencies), "counts": counts, "codes": codes, "problems": problems, "stopped": stopped,
            "exit_code": exit_code, "rss_boot": rss_boot, "rss_start": rss_start, "rss_end": rss_end, "rss_peak": rss_peak,
            "rss_trace": rss_trace,
            "first": first, "last": last, "by_kind": by_kind}


def pct(values: list[float], q: float) -> float:
    """The q-quantile in milliseconds (nearest rank)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))] * 1000


def tables(r: dict[str, Any]) -> str:
    mib = lambda kib: f"{kib / 1024:.1f} MiB"  # noqa: E731
    rows = [("measure", "start", "end"),
            ("server RSS", f"{mib(r['rss_start'])} (after {WARMUP} requests)", mib(r["rss_end"])),
            (f"latency p50, {len(r['first'])} / {len(r['last'])} requests", f"{pct(r['first'], .5):.2f} ms", f"{pct(r['last'], .5):.2f} ms"),
            ("latency p99", f"{pct(r['first'], .99):.2f} ms", f"{pct(r['last'], .99):.2f} ms")]
    out = [_grid(rows), ""]
    kinds = [("request kind", "sent", "p50 ms", "p99 ms")]
    for kind, _ in MIX:
        values = r["by_kind"].get(kind, [])
        kinds.append((kind, f"{r['counts'].get(kind, 0):,}", f"{pct(values, .5):.2f}" if values else "-", f"{pct(values, .99):.2f}" if values else "-"))
    out.append(_grid(kinds))
    return "\n".join(out)


def _grid(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def section(r: dict[str, Any], command: str, load: float | None, elapsed: float) -> str:
    codes = ", ".join(f"{code}: {n:,}" for code, n in sorted(r["codes"].items())) or "none"
    verdict = "no problems" if not r["problems"] else f"{len(r['problems'])} problems, first: {r['problems'][0]}"
    return "\n".join([
        "## MCP server soak (stdio)",
        "",
        f"Command: `{command}`; date: {datetime.date.today().isoformat()}; CPython {platform.python_version()}, {os.cpu_count()} cores"
        + (f"; 1-minute load average {load:.1f} when it started." if load is not None else "."),
        f"One client, one request at a time, to `python -m agentic_rag mcp --store DIR` over a store of the bundled sample corpus "
        f"(BM25 and vectors): {r['sent']:,} requests sent, {r['answered']:,} answered, in {elapsed:.0f} s ({r['stopped']}); "
        f"server exit code {r['exit_code']}. Error answers by code: {codes}. Checks: {verdict}. "
        f"RSS {r['rss_boot'] / 1024:.1f} MiB after the handshake, peak {r['rss_peak'] / 1024:.1f} MiB; every 1,000 requests: "
        + ", ".join(f"{kib / 1024:.1f}" for _, kib in r["rss_trace"]) + " MiB.",
        "",
        tables(r),
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=900.0, help="time budget (default 900)")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    if not Path("/proc/self/status").exists():
        print("soak_mcp: skipped, /proc is not available on this system")
        return 0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    started = time.monotonic()
    result = soak(args.requests, args.seconds, args.seed)
    elapsed = time.monotonic() - started
    print(tables(result))
    print("RSS every 1,000 requests (MiB):", ", ".join(f"{kib / 1024:.1f}" for _, kib in result["rss_trace"]))
    print(f"\n{result['sent']:,} sent, {result['answered']:,} answered, {result['stopped']}; error codes {result['codes']}")
    for problem in result["problems"][:20]:
        print("problem:", problem)
    if not args.no_write:
        command = "python bench/retrieval/soak_mcp.py " + " ".join(a for a in (argv if argv is not None else sys.argv[1:]) if a != "--no-write")
        replace_section(ROOT / "docs" / "benchmarks.md", START, END, section(result, command.strip(), load, elapsed))
    return 1 if result["problems"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
