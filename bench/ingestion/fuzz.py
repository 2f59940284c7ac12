"""Fuzz the library's input boundaries: random and mutated inputs, seeded, bounded in time.

Targets (see ``bench/ingestion/fuzz_targets.py``): every loader (``parse_source`` for .txt, .md, .rst,
.html, .json, .jsonl, .csv), the chunker, ``from_dict`` of every ``JsonContract`` (with a strict
JSON round trip of what it accepts), ``BM25Index.load`` and ``VectorIndex.load`` on mutated saved
files (raw bytes, an edited header, an edited payload with its checksum recomputed; a file that
loads must also answer a search), the MCP message handler on raw lines, ``extract_json`` and the
JSON-schema checker and validator.

Structure-aware targets (``bench/ingestion/fuzz_structured.py``) build PDFs (filters, fonts, forms, CMaps),
Word archives and notebooks from random structure and read them as an index run does.

The rule checked for every case: no exception outside the library's tree
(``AgenticRAGError``), no broken promise (an MCP answer that is not a JSON-RPC response or is an
internal error, a contract that does not round-trip, a loader failure caught by the safety net),
no case over 1 s of CPU (a case still running after 10 s of wall time is stopped and reported; CPU
time, so that a loaded machine does not make a case slow) and no case whose
process peaks over 512 MB of resident memory (measured per case where Linux lets the peak be
reset, ``/proc/self/clear_refs``). Each distinct finding (exception type and the library line
that raised it) is shrunk to a small input and printed with its traceback.

Each worker process runs every target in turn, a fifth of a second at a time, until the time is
up; each target's inputs come from its own random stream (``seed``, worker, target name), so a
run with a case limit is the same run every time.

Run: ``python bench/ingestion/fuzz.py --seconds 600`` (``--workers N``, ``--seed N``, ``--max-size N``,
``--no-write`` to leave ``docs/benchmarks.md`` alone).
"""

from __future__ import annotations

import argparse
import datetime
import multiprocessing
import os
import platform
import random
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
for _path in (str(ROOT), str(ROOT / "src")):  # the bench package (repository root) and the library
    if _path not in sys.path:
        sys.path.insert(0, _path)

from bench.benchmark_doc import replace_section  # noqa: E402
from bench.ingestion.fuzz_inputs import shrink  # noqa: E402
from bench.ingestion.fuzz_targets import Target, Violation, build_targets  # noqa: E402

__all__ = ["Finding", "FuzzReport", "TargetStats", "fuzz", "run_parallel"]

START = "<!-- bench:fuzz -->"
END = "<!-- /bench:fuzz -->"
SLOW_S = 1.0
HANG_S = 10.0
FILE_S = 10.0  # a whole-file target's budget: what one file may cost an index run (README)
SLICE_S = 0.2
MEMORY_MB = 512.0
SMALL_SIZE = 2048  # most inputs; one in fifty may grow to --max-size


class CaseOverMemory(Exception):
    """The process's peak resident memory during a case went over ``MEMORY_MB``."""


def _reset_peak_memory() -> bool:
    """Reset the process's peak resident memory (Linux: ``/proc/self/clear_refs``)."""
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")
        return True
    except OSError:
        return False


def _peak_memory_mb() -> float:
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


class CaseTimeout(BaseException):
    """Raised by the alarm in a case that runs past ``HANG_S`` (a BaseException, so the
    library's own ``except Exception`` cannot swallow it)."""


@dataclass
class Finding:
    """One distinct failure: where it was raised, the input, and the smallest input found."""

    target: str
    signature: str
    error: str
    input_repr: str
    traceback: str
    minimal_repr: str = ""
    count: int = 1
    variants: set[str] = field(default_factory=set)


@dataclass
class TargetStats:
    """Per-target totals."""

    name: str
    cases: int = 0
    failures: int = 0
    slowest_ms: float = 0.0


@dataclass
class FuzzReport:
    """What a run did: totals per target and the distinct findings."""

    seed: int
    seconds: float = 0.0
    workers: int = 1
    stats: dict[str, TargetStats] = field(default_factory=dict)
    findings: dict[str, Finding] = field(default_factory=dict)

    @property
    def cases(self) -> int:
        return sum(s.cases for s in self.stats.values())

    def merge(self, other: FuzzReport) -> None:
        for name, stats in other.stats.items():
            mine = self.stats.setdefault(name, TargetStats(name))
            mine.cases += stats.cases
            mine.failures += stats.failures
            mine.slowest_ms = max(mine.slowest_ms, stats.slowest_ms)
        for key, finding in other.findings.items():
            if key in self.findings:
                self.findings[key].count += finding.count
                self.findings[key].variants |= finding.variants
            else:
                self.findings[key] = finding


def _short_repr(value: Any, limit: int = 400) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters of repr)"


def _signature(target: str, exc: BaseException) -> str:
    """The finding's identity: target, exception type and the innermost library frame."""
    where = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        if "agentic_rag" in frame.filename.replace(os.sep, "/"):
            where = f"{frame.filename.replace(os.sep, '/').split('agentic_rag/', 1)[-1]}:{frame.lineno}"
    if isinstance(exc, Violation):
        where = str(exc).split(":", 1)[0][:80]
    if isinstance(exc, CaseTimeout):
        where = "hang"
    if isinstance(exc, CaseOverMemory):
        where = "memory"
    return f"{target} | {type(exc).__name__} | {where}"


def _on_alarm(signum: int, frame: Any) -> None:
    raise CaseTimeout(f"case still running after {HANG_S:.0f} s")


def slow_limit(target: Target) -> float:
    """The time one case of ``target`` may take: ``SLOW_S``, or the per-file budget for the
    structured whole-file targets, whose cases may do up to a file's whole budget of work."""
    return FILE_S if "(structured)" in target.name else SLOW_S


def run_case(target: Target, value: Any) -> tuple[float, BaseException | None]:
    """Run one case; return its CPU seconds (the process's, every thread's) and the exception
    that makes it a finding, if any. A slow case is one that works long, which CPU time
    measures whatever else the machine runs; a case that waits is caught by the wall-clock
    alarm (``HANG_S``)."""
    alarm = hasattr(signal, "setitimer") and threading_main()
    if alarm:
        signal.setitimer(signal.ITIMER_REAL, max(HANG_S, 2 * slow_limit(target)))
    measured = _reset_peak_memory()
    started = time.process_time()
    failure: BaseException | None = None
    try:
        target.check(value)
    except (Exception, CaseTimeout) as exc:  # anything but the library's tree (the check lets those pass)
        failure = exc
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
    elapsed = time.process_time() - started
    if failure is None and measured:
        peak = _peak_memory_mb()
        if peak > MEMORY_MB:
            failure = CaseOverMemory(f"peak resident memory {peak:.0f} MB (limit {MEMORY_MB:.0f} MB)")
    return elapsed, failure


def threading_main() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _fails_alike(target: Target, value: Any, signature: str, slow: bool) -> bool:
    elapsed, failure = run_case(target, value)
    if slow:
        return elapsed > slow_limit(target)
    return failure is not None and _signature(target.name, failure) == signature


def minimise(target: Target, value: Any, signature: str, *, slow: bool = False, budget_s: float = 20.0) -> Any:
    """Shrink ``value`` while it still fails the same way (greedy, bounded by ``budget_s``)."""
    deadline = time.monotonic() + budget_s
    current = value
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        for candidate in shrink(current):
            if time.monotonic() >= deadline:
                break
            if _fails_alike(target, candidate, signature, slow):
                current, improved = candidate, True
                break
    return current


def fuzz(seconds: float, seed: int, *, worker: int = 0, max_cases: int | None = None, max_size: int = 65536,
         names: tuple[str, ...] = (), minimise_findings: bool = True, targets: list[Target] | None = None) -> FuzzReport:
    """Fuzz every target (or those whose name contains one of ``names``) in this process.

    Args:
        seconds: Wall-clock budget (the deadline is computed once).
        seed: The run's seed; each target draws from its own stream of ``(seed, worker, name)``.
        worker: This process's number (a different stream per worker).
        max_cases: Stop a target after this many cases (``None``: only the time bounds it).
        max_size: Largest generated input, in characters or bytes (roughly); most inputs are
            kept under ``SMALL_SIZE``, one in fifty may grow to ``max_size``.
        names: Substrings selecting targets (empty: all).
        minimise_findings: Shrink each new finding's input.
        targets: Targets already built (default: :func:`build_targets` in a temporary folder).

    Returns:
        The report: cases, failures and slowest case per target, and the distinct findings.
    """
    deadline = time.monotonic() + seconds
    started = time.monotonic()
    previous = signal.signal(signal.SIGALRM, _on_alarm) if hasattr(signal, "SIGALRM") and threading_main() else None
    try:
        with tempfile.TemporaryDirectory(prefix="agentic-rag-fuzz-") as folder:
            chosen = [t for t in (targets if targets is not None else build_targets(folder))
                      if not names or any(n.lower() in t.name.lower() for n in names)]
            report = FuzzReport(seed=seed, workers=1, stats={t.name: TargetStats(t.name) for t in chosen})
            streams = {t.name: random.Random(f"{seed}:{worker}:{t.name}") for t in chosen}
            active = list(chosen)
            while active and time.monotonic() < deadline:
                for target in list(active):
                    stats = report.stats[target.name]
                    stop = min(deadline, time.monotonic() + SLICE_S)
                    while time.monotonic() < stop:
                        if max_cases is not None and stats.cases >= max_cases:
                            active.remove(target)
                            break
                        stream = streams[target.name]
                        size = max_size if stream.random() < 0.02 else min(max_size, SMALL_SIZE)
                        value = target.generate(stream, size)
                        elapsed, failure = run_case(target, value)
                        stats.cases += 1
                        stats.slowest_ms = max(stats.slowest_ms, elapsed * 1000)
                        if failure is None and elapsed <= slow_limit(target):
                            continue
                        stats.failures += 1
                        _record(report, target, value, failure, elapsed, minimise_findings, deadline)
            report.seconds = time.monotonic() - started
            return report
    finally:
        if previous is not None:
            signal.signal(signal.SIGALRM, previous)


def _record(report: FuzzReport, target: Target, value: Any, failure: BaseException | None, elapsed: float, shrink_it: bool,
            deadline: float) -> None:
    slow = failure is None
    signature = f"{target.name} | slow" if slow else _signature(target.name, failure)
    variant = getattr(failure, "variant", "")
    if signature in report.findings:
        report.findings[signature].count += 1
        report.findings[signature].variants.update([variant] if variant else [])
        return
    error = f"case took {elapsed:.2f} CPU s (limit {slow_limit(target):.0f} s)" if slow else f"{type(failure).__name__}: {str(failure)[:300]}"
    text = "" if slow else "".join(traceback.format_exception(type(failure), failure, failure.__traceback__))
    finding = Finding(target.name, signature, error, _short_repr(value), text[-4000:], variants={variant} if variant else set())
    if shrink_it:
        budget = min(30.0 if slow else 5.0, max(1.0, deadline - time.monotonic()))
        smallest = minimise(target, value, signature, slow=slow, budget_s=budget)
        finding.minimal_repr = _short_repr(smallest, 2000)
    report.findings[signature] = finding


def _worker(args: tuple[float, int, int, int | None, int, tuple[str, ...]]) -> FuzzReport:
    seconds, seed, worker, max_cases, max_size, names = args
    return fuzz(seconds, seed, worker=worker, max_cases=max_cases, max_size=max_size, names=names)


def run_parallel(seconds: float, seed: int, workers: int, *, max_cases: int | None = None, max_size: int = 65536,
                 names: tuple[str, ...] = ()) -> FuzzReport:
    """Run :func:`fuzz` in ``workers`` processes (one stream each) and merge their reports."""
    started = time.monotonic()
    if workers <= 1:
        report = fuzz(seconds, seed, max_cases=max_cases, max_size=max_size, names=names)
    else:
        context = multiprocessing.get_context("spawn")
        with context.Pool(workers) as pool:
            parts = pool.map(_worker, [(seconds, seed, w, max_cases, max_size, names) for w in range(workers)])
        report = FuzzReport(seed=seed)
        for part in parts:
            report.merge(part)
    report.seconds, report.workers = time.monotonic() - started, workers
    return report


def table(report: FuzzReport) -> str:
    """The per-target table as Markdown."""
    rows = [("target", "cases", "failures", "slowest case (CPU ms)")]
    for stats in report.stats.values():
        rows.append((f"`{stats.name}`", f"{stats.cases:,}", f"{stats.failures:,}", f"{stats.slowest_ms:,.1f}"))
    total_slowest = max((s.slowest_ms for s in report.stats.values()), default=0.0)
    rows.append(("**total**", f"**{report.cases:,}**", f"**{sum(s.failures for s in report.stats.values()):,}**", f"{total_slowest:,.1f}"))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def findings_text(report: FuzzReport, *, tracebacks: bool) -> str:
    """Each distinct finding: signature, how often, the error and the smallest input."""
    if not report.findings:
        return "No findings."
    out = []
    for key in sorted(report.findings):
        f = report.findings[key]
        seen_in = f"; seen in {', '.join(sorted(f.variants))}" if len(f.variants) > 1 else ""
        out.append(f"- `{f.signature}` ({f.count:,} cases{seen_in}): {f.error.splitlines()[0][:200]}\n"
                   f"  smallest input: `{(f.minimal_repr or f.input_repr)[:300]}`")
        if tracebacks and f.traceback:
            out.append("  " + f.traceback.strip().replace("\n", "\n  "))
    return "\n".join(out)


def section(report: FuzzReport, command: str, load: float | None) -> str:
    return "\n".join([
        "## Fuzzing the input boundaries",
        "",
        f"Command: `{command}`; date: {datetime.date.today().isoformat()}; CPython {platform.python_version()}, "
        f"{os.cpu_count()} cores, {report.workers} worker processes, {report.seconds:.0f} s, seed {report.seed}"
        + (f"; 1-minute load average {load:.1f} when it started." if load is not None else "."),
        "Random and mutated inputs (`bench/ingestion/fuzz_inputs.py`, targets in `bench/ingestion/fuzz_targets.py`); a failure is an exception outside `AgenticRAGError`, "
        "an MCP answer that is not a JSON-RPC response or is an internal error (-32603), a contract that accepts a value "
        "it cannot write back as strict JSON or read again, a loader failure caught by the loaders' safety net, a case over 1 s "
        f"(over {FILE_S:.0f} s, the per-file budget, for the structured whole-file targets), "
        f"or a case whose process peaks over {MEMORY_MB:.0f} MB resident. The `(structured)` targets build PDFs, Word archives "
        "and notebooks from random structure (`bench/ingestion/fuzz_structured.py`).",
        "",
        table(report),
        "",
        f"Distinct findings ({len(report.findings)}), each with its smallest input:",
        "",
        findings_text(report, tracebacks=False),
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600.0, help="wall-clock budget (default 600)")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--max-cases", type=int, default=None, help="cases per target per worker")
    parser.add_argument("--max-size", type=int, default=65536, help="largest generated input (default 65536)")
    parser.add_argument("--target", action="append", default=[], help="only targets whose name contains this (repeatable)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    report = run_parallel(args.seconds, args.seed, max(1, args.workers), max_cases=args.max_cases, max_size=args.max_size,
                          names=tuple(args.target))
    print(table(report))
    print()
    print(findings_text(report, tracebacks=True))
    if not args.no_write:
        command = "python bench/ingestion/fuzz.py " + " ".join(a for a in (argv if argv is not None else sys.argv[1:]) if a != "--no-write")
        start, end = START, END
        if args.target:  # a run of some targets writes a section of its own, beside the full run's
            slug = "-".join("".join(c if c.isalnum() else "-" for c in name.lower()).strip("-") for name in args.target)
            start, end = f"<!-- bench:fuzz-{slug} -->", f"<!-- /bench:fuzz-{slug} -->"
        replace_section(ROOT / "docs" / "benchmarks.md", start, end, section(report, command.strip(), load))
    return 1 if report.findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
