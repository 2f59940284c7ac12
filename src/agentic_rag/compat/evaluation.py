"""The scaffold's FRAMES-style evaluation (``agentic_rag.evaluation``), scored by the modern
:func:`agentic_rag.evaluation.frames_metrics`.

A fixture's expected fetches are the modern case's gold documents; its expected answer terms
must all be in an ANSWERED answer. The run is translated to a modern
:class:`~agentic_rag.RunResult` and scored once per expected term.
"""

from __future__ import annotations

from dataclasses import dataclass

from agentic_rag import _contracts as core
from agentic_rag._contracts.validation import instance_tuple, require_text, text_tuple
from agentic_rag._errors import InvalidInputError
from agentic_rag.compat import contracts as old
from agentic_rag.compat._convert import answer_to_core, plan_to_core
from agentic_rag.evaluation.frames import FramesCase, FramesMetrics, frames_metrics

__all__ = ["EvaluationComparison", "EvaluationFixture", "EvaluationMetrics", "EvaluationReport", "ExpectedFetch", "compare_runs", "evaluate_run"]

_STAGE = "evaluation"


@dataclass(frozen=True, slots=True)
class ExpectedFetch:
    """A document a good run retrieves for a fact."""

    fact_id: str
    corpus_id: str
    document_id: str

    def __post_init__(self) -> None:
        for name in ("fact_id", "corpus_id", "document_id"):
            require_text(getattr(self, name), f"ExpectedFetch.{name}", stage=_STAGE)


@dataclass(frozen=True, slots=True)
class EvaluationFixture:
    """One multi-hop question with what a good run must fetch, cite and avoid.

    Args:
        question: The question.
        corpora: The corpora it is asked over.
        required_facts: The facts the answer needs.
        bridge_fact_ids: Facts whose answer the next hop needs.
        expected_answer_terms: Terms an ANSWERED answer must contain (case-insensitive).
        expected_fetches: Documents the run must retrieve.
        expected_citation_fact_ids: Facts the answer must cite.
        distractor_corpus_ids: Corpora a well-routed run never searches.
    """

    question: str
    corpora: tuple[core.Corpus, ...]
    required_facts: tuple[core.RequiredFact, ...]
    bridge_fact_ids: tuple[str, ...] = ()
    expected_answer_terms: tuple[str, ...] = ()
    expected_fetches: tuple[ExpectedFetch, ...] = ()
    expected_citation_fact_ids: tuple[str, ...] = ()
    distractor_corpus_ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        require_text(self.question, "EvaluationFixture.question", stage=_STAGE)
        object.__setattr__(self, "corpora", instance_tuple(self.corpora, core.Corpus, "EvaluationFixture.corpora", stage=_STAGE))
        object.__setattr__(self, "required_facts", instance_tuple(self.required_facts, core.RequiredFact, "EvaluationFixture.required_facts", stage=_STAGE))
        object.__setattr__(self, "expected_fetches", instance_tuple(self.expected_fetches, ExpectedFetch, "EvaluationFixture.expected_fetches", stage=_STAGE))
        for name in ("bridge_fact_ids", "expected_answer_terms", "expected_citation_fact_ids", "distractor_corpus_ids"):
            object.__setattr__(self, name, text_tuple(getattr(self, name), f"EvaluationFixture.{name}", stage=_STAGE))
        if not self.expected_fetches:
            raise InvalidInputError("EvaluationFixture.expected_fetches must name at least one document", stage=_STAGE)


@dataclass(frozen=True, slots=True)
class EvaluationMetrics:
    """A run's scores (each in [0, 1]) and its iteration count."""

    fact_coverage: float
    fetch_coverage: float
    reasoning_correctness: float
    citation_completeness: float
    iteration_count: int


@dataclass(frozen=True, slots=True)
class EvaluationReport:
    """The metrics, the facts the run left uncovered and the distractor corpora it touched;
    ``passed`` when every score is 1.0 and no distractor was touched."""

    metrics: EvaluationMetrics
    missing_fact_ids: tuple[str, ...]
    distractor_corpus_hits: tuple[str, ...]
    passed: bool


@dataclass(frozen=True, slots=True)
class EvaluationComparison:
    """A candidate run's report set against a baseline's."""

    baseline: EvaluationReport
    candidate: EvaluationReport
    improved: bool


def _modern_run(fixture: EvaluationFixture, result: old.RunResult) -> core.RunResult:
    plan = plan_to_core(result.plan, tuple(c.id for c in fixture.corpora))
    return core.RunResult(result.question, plan, answer_to_core(result.answer, plan, result.snippets), (), result.snippets, core.StopReason.MAX_ITERATIONS)


def evaluate_run(fixture: EvaluationFixture, result: old.RunResult) -> EvaluationReport:
    """Score a scaffold run result against ``fixture``.

    Returns:
        The report.

    Raises:
        InvalidInputError: ``result`` is not a compat ``RunResult``.
    """
    if not isinstance(result, old.RunResult):
        raise InvalidInputError(f"result must be a compat RunResult, got {type(result).__name__}", stage=_STAGE)
    run = _modern_run(fixture, result)
    gold = tuple(dict.fromkeys(f"{f.corpus_id}/{f.document_id}" for f in fixture.expected_fetches))
    scores: list[FramesMetrics] = [
        frames_metrics(FramesCase(fixture.question, fixture.required_facts, gold, term, fixture.distractor_corpus_ids), run)
        for term in fixture.expected_answer_terms or ("",)
    ]
    first = scores[0]
    metrics = EvaluationMetrics(
        fact_coverage=first.fact_coverage,
        fetch_coverage=first.fetch_coverage,
        reasoning_correctness=min(m.reasoning_correctness for m in scores) if fixture.expected_answer_terms else 0.0,
        citation_completeness=first.citation_completeness,
        iteration_count=len(result.iterations),
    )
    missing = {f.id for f in run.answer.missing_facts}
    hits = tuple(dict.fromkeys(s.corpus_id for s in result.snippets if s.corpus_id in fixture.distractor_corpus_ids))
    scored = (metrics.fact_coverage, metrics.fetch_coverage, metrics.reasoning_correctness, metrics.citation_completeness)
    return EvaluationReport(
        metrics=metrics,
        missing_fact_ids=tuple(f.id for f in fixture.required_facts if f.id in missing),
        distractor_corpus_hits=hits,
        passed=all(s == 1.0 for s in scored) and not hits,
    )


def compare_runs(fixture: EvaluationFixture, baseline: old.RunResult, candidate: old.RunResult) -> EvaluationComparison:
    """Evaluate both runs; ``improved`` when the candidate passes where the baseline does not,
    or scores at least as well on every metric and better on one."""
    a, b = evaluate_run(fixture, baseline), evaluate_run(fixture, candidate)
    names = ("fact_coverage", "fetch_coverage", "reasoning_correctness", "citation_completeness")
    pairs = [(getattr(a.metrics, n), getattr(b.metrics, n)) for n in names]
    improved = (b.passed and not a.passed) or (all(y >= x for x, y in pairs) and any(y > x for x, y in pairs))
    return EvaluationComparison(a, b, improved)
