"""What the agent-cost benchmark observed, and its tables (``bench/agents/bench_agent_cost.py``)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.agents import agent_cost_measures as m

__all__ = ["GREP_POLICY", "Observations", "report_text"]

POLICIES = (
    "search -k 3", "search -k 5", "search -k 10",
    "ask (agentic)", "ask (parallel)", "ask --json (agentic)", "ask --json (parallel)",
    "route: search -k 5, then ask --json",
    "grep", "grep after pdftotext", "gold file",
)
ALL = "all sets"

GREP_POLICY = (
    "The grep policy: the question's content words (tokens matching `[A-Za-z0-9_]+(?:[./-][A-Za-z0-9_]+)*`, "
    "at least 3 characters, not in the explicit stop-word list of `bench/agents/agent_cost_measures.py`, de-duplicated "
    "case-insensitively), ordered rarest first by the number of the folder's files holding them "
    "(`grep -li -F -- WORD`), ties by the case-folded word, words in no file dropped; for each word in turn "
    "`grep -n -H -i -F -C 2 -- WORD` over the folder's files named `./PATH` in sorted order (the lines "
    "`grep -rn -i -F -C 2 -- WORD .` prints, in an order that does not depend on the file system; "
    "`LC_ALL=C.UTF-8`), outputs concatenated until the key appears or 32 KB have been read. The file counts "
    "that order the words are not counted as read. \"grep after pdftotext\" is the same over a copy of a PDF "
    "folder with each PDF replaced by its `pdftotext` text. Gold file: the first listed answer file that holds "
    "the key, from its start to the end of the key (a PDF as its pdftotext text; when no one file holds every "
    "part, the listed files whole, in order). Route: `search -k 5` text, then `ask --json` (agentic) only when "
    "the key is not in the search output."
)


@dataclass
class Observations:
    """Per set and policy: bytes to the key (answerable), bytes read (unanswerable), bytes of
    each call; answer lengths per mode; relevance of search hits with their label."""

    to_key: dict[tuple[str, str], list[int | None]] = field(default_factory=dict)
    unanswerable_read: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    calls: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    call_counts: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    chars: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    hits: dict[str, list[tuple[float, bool]]] = field(default_factory=dict)

    def add(self, name: str, policy: str, parts: Sequence[Sequence[str]], found: int | None, read: int, calls: Sequence[int]) -> None:
        """One question under one policy (``parts`` empty: a question the docs do not answer)."""
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}")
        if parts:
            self.to_key.setdefault((name, policy), []).append(found)
            self.call_counts.setdefault((name, policy), []).append(len(calls))
        else:
            self.unanswerable_read.setdefault((name, policy), []).append(read)
        self.calls.setdefault((name, policy), []).extend(calls)

    def answer_chars(self, name: str, mode: str, count: int) -> None:
        self.chars.setdefault((name, mode), []).append(count)

    def hit(self, name: str, relevance: float, answer_bearing: bool) -> None:
        self.hits.setdefault(name, []).append((relevance, answer_bearing))

    def sets(self) -> list[str]:
        """The sets observed, in the order first seen."""
        return list(dict.fromkeys(name for name, _ in [*self.to_key, *self.unanswerable_read]))

    def pooled(self, table: dict, name: str, policy: str) -> list:
        keys = [(s, policy) for s in self.sets()] if name == ALL else [(name, policy)]
        return [v for key in keys for v in table.get(key, [])]


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f} %"


def _median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def policy_table(obs: Observations, name: str) -> str:
    """One set's (or all sets') rows: recall within each budget and the medians."""
    answerable = len(obs.pooled(obs.to_key, name, "search -k 5"))
    unanswerable = len(obs.pooled(obs.unanswerable_read, name, "search -k 5"))
    rows = [f"**{name}** ({answerable} answerable, {unanswerable} unanswerable questions)", "",
            "| policy | key within 1 KB | 2 KB | 4 KB | 8 KB | 16 KB | median bytes to the key | median calls | median bytes / call | unanswerable: median bytes read |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for policy in POLICIES:
        found = obs.pooled(obs.to_key, name, policy)
        read = obs.pooled(obs.unanswerable_read, name, policy)
        calls = obs.pooled(obs.calls, name, policy)
        counts = obs.pooled(obs.call_counts, name, policy)
        if not (found or read):
            continue
        recall = " | ".join(_pct(m.recall_within(found, b)) for b in m.BUDGETS)
        rows.append(f"| {policy} | {recall} | {m.show_bytes(m.median_bytes(found))} | {'-' if not counts else f'{_median(counts):g}'} | {m.show_bytes(_median(calls), capped=False)} | {m.show_bytes(_median(read), capped=False)} |")
    return "\n".join(rows)


def relevance_table(obs: Observations, weak: float) -> str:
    """ROC AUC of ``relevance`` and the weak line's precision and recall, per set and pooled."""
    rows = [f"| set | hits (search --json -k 10) | answer-bearing | ROC AUC of relevance | kept at >= {weak:g}: precision | recall |",
            "|---|---|---|---|---|---|"]
    names = obs.sets()
    for name in [*names, ALL] if len(names) > 1 else names:
        hits = [h for s in (names if name == ALL else [name]) for h in obs.hits.get(s, [])]
        positives = [r for r, good in hits if good]
        negatives = [r for r, good in hits if not good]
        auc = m.roc_auc(positives, negatives)
        kept = [good for r, good in hits if r >= weak]
        precision = sum(kept) / len(kept) if kept else None
        recall = sum(1 for r in positives if r >= weak) / len(positives) if positives else None
        rows.append(f"| {name} | {len(hits)} | {len(positives)} | {'-' if auc is None else f'{auc:.3f}'} | {_pct(precision)} | {_pct(recall)} |")
    return "\n".join(rows)


def budget_table(obs: Observations) -> str:
    """Issue 20's output budgets (medians over every question run), measured against target."""
    rows = ["| budget (median over all questions) | target | measured | met |", "|---|---|---|---|"]
    checks = [("`search -k 5` text, bytes", "search -k 5", 1.2 * 1024, "<= 1.2 KB")]
    checks += [(f"`ask --json --mode {mode}`, bytes", f"ask --json ({mode})", 2.5 * 1024, "<= 2.5 KB") for mode in ("agentic", "parallel")]
    for label, policy, target, shown in checks:
        value = _median(obs.pooled(obs.calls, ALL, policy))
        met = "-" if value is None else "yes" if value <= target else "no"
        rows.append(f"| {label} | {shown} | {m.show_bytes(value, capped=False)} ({'-' if value is None else f'{value:.0f} B'}) | {met} |")
    for mode in ("agentic", "parallel"):
        value = _median([c for s in obs.sets() for c in obs.chars.get((s, mode), [])])
        met = "-" if value is None else "yes" if value <= 400 else "no"
        rows.append(f"| answer text ({mode}), characters | <= 400 | {'-' if value is None else f'{value:.0f}'} | {met} |")
    return "\n".join(rows)


def report_text(obs: Observations, *, weak: float, split: str, notes: Sequence[str], indexed: Sequence[str]) -> str:
    """The whole report: per-set tables, the pooled one, relevance, budgets and the rules."""
    names = obs.sets()
    parts = [policy_table(obs, name) for name in names]
    if len(names) > 1:
        parts.append(policy_table(obs, ALL))
    parts.append(f"Relevance of search hits ({split} split): an answer-bearing hit's `text` holds any part's key.\n\n" + relevance_table(obs, weak))
    parts.append(f"Output budgets (issue 20, {split} split):\n\n" + budget_table(obs))
    rules = (
        "Bytes are UTF-8 bytes of tool output (1 KB = 1024 bytes); a key \"appears\" when every part's key (any "
        "alternative) stands in the output read so far, case-insensitive, white space folded. Key measures count "
        "answerable questions only; a key not seen within 32 KB (or never) counts as larger than any figure, so a "
        "median shown as \"32 KB+\" means half or more never reached the key within 32 KB. \"Median bytes / call\" "
        "is the median size of one call's whole output (every question); \"median calls\" counts the calls made on an answerable "
        "question until the key appeared or the policy stopped. The unanswerable column is what the policy "
        "reads in all on questions the docs do not answer. The CLI runs in-process through its entry point on a "
        "store made by `index . --corpus NAME` in a copy of each folder (no `--vectors`: the parallel mode's vector "
        "branch is off, as after a plain `index`).\n\n" + GREP_POLICY
    )
    parts.append(rules)
    if indexed:
        parts.append("Stores: " + "; ".join(indexed) + ".")
    if notes:
        parts.append("\n".join(f"- {line}" for line in notes))
    return "\n\n".join(parts)
