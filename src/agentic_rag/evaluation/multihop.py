"""Multi-hop retrieval metrics and a runner that compares configurations on one question set.

The question a multi-hop evaluation asks is whether the *final evidence* holds every
paragraph the answer needs. A configuration is anything that turns a question into a ranked
evidence list (one-shot retrieval, the iterative loop, the parallel workflow); the runner
runs each on the same questions and reports, per configuration: all-gold@k (every gold
paragraph in the top k), gold recall@k, answer-in-evidence (the reference answer or an alias
appears in the top-k text), retriever calls, iterations and seconds per question.
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agentic_rag._contracts.serialization import JsonContract
from agentic_rag._contracts.validation import require_int, require_text
from agentic_rag._errors import InvalidInputError
from agentic_rag.evaluation.dataset_records import MultiHopQuestion

__all__ = [
    "ConfigurationReport",
    "EvidenceRun",
    "MultiHopConfiguration",
    "QuestionScore",
    "compare_configurations",
    "format_comparison",
    "score_evidence",
    "split_questions",
]


@dataclass(frozen=True, slots=True)
class EvidenceRun:
    """What a configuration produced for one question.

    Args:
        document_ids: The final evidence, best first.
        texts: The evidence texts, aligned with ``document_ids`` (for answer-in-evidence).
        retriever_calls: Retriever calls spent.
        iterations: Retrieval rounds (1 for one-shot).
    """

    document_ids: tuple[str, ...]
    texts: tuple[str, ...] = ()
    retriever_calls: int = 1
    iterations: int = 1


@dataclass(frozen=True, slots=True)
class QuestionScore(JsonContract):
    """Scores of one configuration on one question."""

    question_id: str
    all_gold: bool
    gold_recall: float
    answer_in_evidence: bool
    retriever_calls: int
    iterations: int
    seconds: float


@dataclass(frozen=True, slots=True)
class ConfigurationReport(JsonContract):
    """Averages of one configuration over the question set.

    Args:
        name: The configuration's name.
        k: The evidence cut-off.
        questions: How many questions were run.
        all_gold_at_k: Share of questions with every gold paragraph in the top k.
        gold_recall_at_k: Mean share of gold paragraphs in the top k.
        answer_in_evidence: Share of questions whose answer text appears in the top k.
        retriever_calls: Mean retriever calls per question.
        iterations: Mean rounds per question.
        seconds: Mean wall-clock seconds per question.
        scores: Per-question scores, in question order.
    """

    name: str
    k: int
    questions: int
    all_gold_at_k: float
    gold_recall_at_k: float
    answer_in_evidence: float
    retriever_calls: float
    iterations: float
    seconds: float
    scores: tuple[QuestionScore, ...] = ()


@dataclass(frozen=True, slots=True)
class MultiHopConfiguration:
    """A named way of answering: a function from a question to its evidence run.

    Args:
        name: Label in the comparison table.
        run: Called once per question.
    """

    name: str
    run: Callable[[MultiHopQuestion], EvidenceRun]

    def __post_init__(self) -> None:
        require_text(self.name, "MultiHopConfiguration.name", stage="evaluation")
        if not callable(self.run):
            raise InvalidInputError(f"configuration {self.name!r} needs a callable run, got {self.run!r}", stage="evaluation")


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(ch for ch in decomposed if not unicodedata.combining(ch)).split())


def score_evidence(question: MultiHopQuestion, run: EvidenceRun, k: int, seconds: float = 0.0) -> QuestionScore:
    """Score one evidence run against its question's gold paragraphs and answer.

    Args:
        question: The question with gold paragraph ids and answers.
        run: The configuration's evidence.
        k: Cut-off.
        seconds: Wall-clock time the run took.

    Returns:
        The question's scores.

    Raises:
        InvalidInputError: ``k`` below 1.
    """
    require_int(k, "k", minimum=1, stage="evaluation")
    top = list(dict.fromkeys(run.document_ids))[:k]
    gold = set(question.gold_doc_ids)
    found = len(gold & set(top))
    texts = " ".join(_fold(t) for t in run.texts[:k])
    answers = [_fold(a) for a in (question.answer, *question.aliases) if a.strip()]
    # Yes/no answers are not spans of any paragraph; they never count as found in evidence.
    in_evidence = any(a not in ("yes", "no") and a in texts for a in answers)
    return QuestionScore(question.id, found == len(gold), round(found / len(gold), 6), in_evidence, run.retriever_calls, run.iterations, round(seconds, 6))


def split_questions(questions: Sequence[MultiHopQuestion], half: str) -> tuple[MultiHopQuestion, ...]:
    """Return the tuning half (even 0-based line numbers) or the reporting half (odd).

    Args:
        questions: The loaded questions.
        half: ``"tune"``, ``"report"`` or ``"all"``.

    Raises:
        InvalidInputError: Another ``half``.
    """
    if half == "all":
        return tuple(questions)
    if half not in ("tune", "report"):
        raise InvalidInputError(f"half must be 'tune', 'report' or 'all', got {half!r}", stage="evaluation")
    parity = 0 if half == "tune" else 1
    return tuple(q for q in questions if q.line_number % 2 == parity)


def compare_configurations(
    questions: Sequence[MultiHopQuestion],
    configurations: Sequence[MultiHopConfiguration],
    *,
    k: int = 10,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[ConfigurationReport, ...]:
    """Run every configuration on the same questions and average their scores.

    Args:
        questions: The question set.
        configurations: Configurations with distinct names.
        k: Evidence cut-off.
        clock: Timer (injectable for tests).

    Returns:
        One report per configuration, in the given order.

    Raises:
        InvalidInputError: No questions, no configurations, or duplicate names.
    """
    if not questions or not configurations:
        raise InvalidInputError("compare_configurations needs at least one question and one configuration", stage="evaluation")
    names = [c.name for c in configurations]
    if len(set(names)) != len(names):
        raise InvalidInputError(f"configuration names must be unique, got {names}", stage="evaluation")
    reports = []
    for config in configurations:
        scores = []
        for question in questions:
            start = clock()
            run = config.run(question)
            scores.append(score_evidence(question, run, k, clock() - start))
        n = len(scores)
        reports.append(ConfigurationReport(
            name=config.name,
            k=k,
            questions=n,
            all_gold_at_k=round(sum(s.all_gold for s in scores) / n, 4),
            gold_recall_at_k=round(sum(s.gold_recall for s in scores) / n, 4),
            answer_in_evidence=round(sum(s.answer_in_evidence for s in scores) / n, 4),
            retriever_calls=round(sum(s.retriever_calls for s in scores) / n, 2),
            iterations=round(sum(s.iterations for s in scores) / n, 2),
            seconds=round(sum(s.seconds for s in scores) / n, 4),
            scores=tuple(scores),
        ))
    return tuple(reports)


def format_comparison(reports: Sequence[ConfigurationReport]) -> str:
    """Render reports as a Markdown table (one row per configuration)."""
    k = reports[0].k if reports else 10
    lines = [
        f"| configuration | questions | all-gold@{k} | gold recall@{k} | answer in evidence | retriever calls | iterations | ms / question |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in reports:
        lines.append(f"| {r.name} | {r.questions} | {r.all_gold_at_k:.3f} | {r.gold_recall_at_k:.3f} | {r.answer_in_evidence:.3f} | {r.retriever_calls:.2f} | {r.iterations:.2f} | {r.seconds * 1000:.1f} |")
    return "\n".join(lines)
