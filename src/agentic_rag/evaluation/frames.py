"""FRAMES-style evaluation of agentic runs: did the loop fetch, cover and cite what it needed?

Named after the FRAMES benchmark (Krishna et al., 2024), which scores multi-hop retrieval by
whether every needed fact was fetched and used. Here a case names its required facts, its gold
documents and its distractor corpora; :func:`frames_metrics` scores one :class:`RunResult`
against it, and :func:`compare_runs` sets a candidate configuration against a baseline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from agentic_rag._contracts import AnswerStatus, RequiredFact, RunResult
from agentic_rag._contracts.serialization import JsonContract
from agentic_rag._contracts.validation import require_text, text_tuple
from agentic_rag._errors import InvalidInputError

__all__ = ["FramesCase", "FramesComparison", "FramesMetrics", "compare_runs", "frames_metrics", "mean_metrics"]


@dataclass(frozen=True, slots=True)
class FramesCase(JsonContract):
    """One evaluation question with what a good run must find.

    Args:
        question: The question.
        facts: The required facts (also usable as the planner's facts).
        gold_documents: ``"corpus_id/document_id"`` of every document the answer needs.
        expected_answer: A string the correct answer contains (case-insensitive).
        distractor_corpus_ids: Corpora a well-routed run never searches.
    """

    question: str
    facts: tuple[RequiredFact, ...]
    gold_documents: tuple[str, ...]
    expected_answer: str = ""
    distractor_corpus_ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        require_text(self.question, "FramesCase.question", stage="evaluation")
        gold = text_tuple(self.gold_documents, "FramesCase.gold_documents", stage="evaluation")
        if not gold or any("/" not in g for g in gold):
            raise InvalidInputError(f"gold_documents must be non-empty 'corpus_id/document_id' strings, got {gold!r}", stage="evaluation")
        object.__setattr__(self, "gold_documents", gold)
        object.__setattr__(self, "facts", tuple(self.facts))
        object.__setattr__(self, "distractor_corpus_ids", text_tuple(self.distractor_corpus_ids, "FramesCase.distractor_corpus_ids", stage="evaluation"))


@dataclass(frozen=True, slots=True)
class FramesMetrics(JsonContract):
    """Scores of one run against its case.

    Args:
        fact_coverage: Share of the plan's facts the final assessment covers.
        fetch_coverage: Share of gold documents among the retrieved snippets.
        reasoning_correctness: 1.0 when the run ANSWERED and its text holds the expected
            answer, else 0.0 (always 0.0 without an expected answer).
        citation_completeness: Share of gold documents cited by a claim of the final answer.
        iterations: Retrieval rounds the run took.
        distractor_hits: Snippets retrieved from distractor corpora.
    """

    fact_coverage: float
    fetch_coverage: float
    reasoning_correctness: float
    citation_completeness: float
    iterations: int
    distractor_hits: int


@dataclass(frozen=True, slots=True)
class FramesComparison(JsonContract):
    """A candidate run set against a baseline: candidate minus baseline, per metric."""

    baseline: FramesMetrics
    candidate: FramesMetrics
    deltas: tuple[tuple[str, float], ...]

    def delta(self, metric: str) -> float:
        """Return candidate minus baseline for ``metric``.

        Raises:
            InvalidInputError: Unknown metric name.
        """
        for name, value in self.deltas:
            if name == metric:
                return value
        raise InvalidInputError(f"unknown metric {metric!r}; expected one of {[n for n, _ in self.deltas]}", stage="evaluation")


def frames_metrics(case: FramesCase, result: RunResult) -> FramesMetrics:
    """Score ``result`` against ``case``.

    Args:
        case: The evaluation case.
        result: A run of the agentic workflow on ``case.question``.

    Returns:
        The run's metrics.
    """
    fetched = {f"{s.corpus_id}/{s.document_id}" for s in result.snippets}
    by_id = {s.id: s for s in result.snippets}
    cited = {
        f"{by_id[c.snippet_id].corpus_id}/{by_id[c.snippet_id].document_id}"
        for claim in result.answer.claims for c in claim.citations if c.snippet_id in by_id
    }
    gold = case.gold_documents
    facts = result.plan.facts
    missing = {f.id for f in result.answer.missing_facts}
    expected = case.expected_answer.casefold()
    correct = bool(expected) and result.answer.status is AnswerStatus.ANSWERED and expected in result.answer.text.casefold()
    return FramesMetrics(
        fact_coverage=round(sum(1 for f in facts if f.id not in missing) / len(facts), 6),
        fetch_coverage=round(sum(1 for g in gold if g in fetched) / len(gold), 6),
        reasoning_correctness=1.0 if correct else 0.0,
        citation_completeness=round(sum(1 for g in gold if g in cited) / len(gold), 6),
        iterations=len(result.iterations),
        distractor_hits=sum(1 for s in result.snippets if s.corpus_id in case.distractor_corpus_ids),
    )


def compare_runs(baseline: FramesMetrics, candidate: FramesMetrics) -> FramesComparison:
    """Set a candidate's metrics against a baseline's.

    Args:
        baseline: Metrics of the reference configuration.
        candidate: Metrics of the configuration under test.

    Returns:
        Both, with candidate-minus-baseline deltas in field order.
    """
    deltas = tuple((f.name, round(float(getattr(candidate, f.name)) - float(getattr(baseline, f.name)), 6)) for f in fields(FramesMetrics))
    return FramesComparison(baseline=baseline, candidate=candidate, deltas=deltas)


def mean_metrics(items: Sequence[FramesMetrics]) -> FramesMetrics:
    """Average metrics over several cases (iterations and hits averaged too, rounded).

    Raises:
        InvalidInputError: ``items`` is empty.
    """
    if not items:
        raise InvalidInputError("mean_metrics needs at least one FramesMetrics", stage="evaluation")
    n = len(items)
    avg = {f.name: sum(float(getattr(m, f.name)) for m in items) / n for f in fields(FramesMetrics)}
    return FramesMetrics(
        fact_coverage=round(avg["fact_coverage"], 6),
        fetch_coverage=round(avg["fetch_coverage"], 6),
        reasoning_correctness=round(avg["reasoning_correctness"], 6),
        citation_completeness=round(avg["citation_completeness"], 6),
        iterations=round(avg["iterations"]),
        distractor_hits=round(avg["distractor_hits"]),
    )
