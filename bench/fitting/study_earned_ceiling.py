"""How far a model over the earned check's own features can take the precision of ``answered``.

The earned check (:mod:`agentic_rag._answering.earned`) reads each claim a question part is
checked against through a few measures: the part's weighted coverage by the claim, by its
best sentence and by its passage (each with the heading), whether the claim holds what the
part asks for (a version, a number, a default, a name), names of the part missing from the
claim or its passage, the share of code lines, the kind of slot. This study asks whether
weighting those measures differently (a logistic model instead of fixed thresholds) could
make ``answered`` right at least 90 % of the time while answering 30 % of the answerable
questions.

For every dev question and both workflows, ``ask`` runs on a store of the dev set; every
(part, claim) pair the earned check reads is logged with its measures and a label (1 when
the claim, with its heading, holds a key of that part). A logistic model is fitted with
5-fold cross-validation by question; a question counts as answered at a threshold when every
part has a claim scoring at or above it, and right when each such part's claim holds the
key. The script prints, per workflow, the questions answered and right at the shipped rules
and, for the model, at the thresholds that answer about 20 %, 25 % and 30 % of the
answerable questions. Only the dev split is read.

    python bench/fitting/study_earned_ceiling.py [--keep DIR]   (DIR as for bench/agents/focus_diagnosis.py)
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import zlib
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.answers.bench_docs_qa import MODES, _fold  # noqa: E402
from bench.corpora.docs_qa_sets import load_sets  # noqa: E402
from bench.fitting.fit_relevance import fit  # noqa: E402
from bench.agents.focus_diagnosis import indexed_copy  # noqa: E402

import agentic_rag._answering.earned as earned  # noqa: E402
from agentic_rag._answering.assertions import asserted_text  # noqa: E402
from agentic_rag._interfaces.store_service import StoreService  # noqa: E402
from agentic_rag._store.knowledge_store import KnowledgeStore  # noqa: E402
from agentic_rag._text.answer_slots import identifiers, read_slot  # noqa: E402
from agentic_rag._text.questions import asked_clause, split_compound  # noqa: E402

SLOTS = ("NAME", "VERSION", "NUMBER", "DEFAULT")


def features(part: str, claim: earned.ClaimContext, model: object, min_coverage: float) -> list[float]:
    """The earned check's measures of one (part, claim) pair, as model inputs."""
    own = asserted_text(earned._without_heading(claim))
    asked = asked_clause(part)
    context, passage = f"{claim.heading}\n{own}", f"{claim.heading}\n{claim.passage}"
    pieces = earned._pieces(own) if own else []
    slot = read_slot(asked).kind.name
    filled = 1.0 if own and earned._fills_slot(asked, claim.heading, own, model, min_coverage) else 0.0
    return [
        model.coverage(asked, context) if own else 0.0,
        model.coverage(asked, passage),
        max((model.coverage(asked, f"{claim.heading}\n{p}") for p in pieces), default=0.0),
        filled,
        1.0 if model.missing_named(asked, context) else 0.0,
        1.0 if model.missing_named(part, passage) else 0.0,
        sum(1 for p in pieces if earned._CODE_LINE.match(p)) / len(pieces) if pieces else 0.0,
        math.log1p(len(own)) / 8,
        1.0 if [i for i in identifiers(own) if i not in set(identifiers(part))] else 0.0,
        1.0 if any(not t.known for t in model.question_terms(asked)) else 0.0,
        *(1.0 if slot == s else 0.0 for s in SLOTS),
        *(filled if slot == s else 0.0 for s in SLOTS),
    ]


def collect(keep: str) -> list[dict]:
    """Every (part, claim) pair the earned check reads on the dev questions, with its label."""
    rows: dict[tuple, dict] = {}
    current: dict = {}
    shipped = earned._answers

    def logged(part, claim, model, min_coverage, min_passage, bridge):  # noqa: ANN001, ANN202 - the check's own signature
        result = shipped(part, claim, model, min_coverage, min_passage, bridge)
        question = current["question"]
        key = (question["id"], current["mode"], part, claim.text)
        if key not in rows:
            parts = split_compound(question["question"])
            answers = question["answers"]
            wanted = answers[parts.index(part)] if len(answers) == len(parts) and part in parts else [a for alt in answers for a in alt]
            text = _fold(f"{claim.heading}\n{claim.text}")
            label = question["kind"] != "unanswerable" and any(_fold(a) in text for a in wanted)
            rows[key] = {"id": question["id"], "mode": current["mode"], "kind": question["kind"], "part": part, "y": int(label),
                         "shipped": bool(result), "x": features(part, claim, model, min_coverage)}
        return result

    earned._answers = logged
    try:
        with tempfile.TemporaryDirectory() as scratch:
            work = Path(keep) if keep else Path(scratch)
            for loaded in load_sets("dev", None, say=lambda line: print(line, file=sys.stderr)):
                copy = indexed_copy(loaded.folder, loaded.spec.name, work)
                service = StoreService(KnowledgeStore(copy / ".agentic-rag", base=copy))
                for question in loaded.questions:
                    for mode in MODES:
                        current.update(question=question, mode=mode)
                        service.ask(question["question"], mode)
    finally:
        earned._answers = shipped
    return list(rows.values())


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def outcome(rows: list[dict], scores: list[float], threshold: float) -> tuple[int, int, int]:
    """(answered, right, answered of the answerable) when a part is earned at ``threshold``."""
    questions: dict[tuple, dict[str, list[tuple[float, int]]]] = defaultdict(lambda: defaultdict(list))
    for row, score in zip(rows, scores):
        questions[(row["id"], row["kind"])][row["part"]].append((score, row["y"]))
    answered = right = answerable = 0
    for (_, kind), parts in questions.items():
        if all(any(s >= threshold for s, _ in claims) for claims in parts.values()):
            answered += 1
            answerable += kind != "unanswerable"
            right += all(any(s >= threshold and y for s, y in claims) for claims in parts.values())
    return answered, right, answerable


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", default="", help="index into this folder and reuse it (default: a temporary one)")
    args = parser.parse_args()
    rows = collect(args.keep)
    for mode in MODES:
        mine = [r for r in rows if r["mode"] == mode]
        total = len({r["id"] for r in mine if r["kind"] != "unanswerable"})
        shipped = outcome(mine, [1.0 if r["shipped"] else 0.0 for r in mine], 0.5)
        print(f"{mode}: {len(mine)} (part, claim) pairs, {total} answerable questions with a claim read")
        print(f"  shipped rules: answered {shipped[0]}, right {shipped[1]} ({100 * shipped[1] / max(1, shipped[0]):.0f} %), "
              f"answerable answered {shipped[2]}")
        scores = [0.0] * len(mine)
        for fold in range(5):
            test = [i for i, r in enumerate(mine) if zlib.crc32(r["id"].encode()) % 5 == fold]
            train = [i for i, r in enumerate(mine) if zlib.crc32(r["id"].encode()) % 5 != fold]
            w = fit([(mine[i]["x"], mine[i]["y"]) for i in train], steps=25)
            for i in test:
                scores[i] = _sigmoid(sum(a * b for a, b in zip(w, [*mine[i]["x"], 1.0])))
        for share in (0.2, 0.25, 0.3):
            # The highest threshold that answers at least this share of the answerable questions.
            threshold = max((t / 200 for t in range(1, 200) if outcome(mine, scores, t / 200)[2] >= share * total), default=0.0)
            answered, right, answerable = outcome(mine, scores, threshold)
            print(f"  model, {share:.0%} of answerable: threshold {threshold:.3f}, answered {answered}, right {right} "
                  f"({100 * right / max(1, answered):.0f} %), answerable answered {answerable}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
